// The chosen head read as §1's particle system (docs/science.md §7.2, §7.6): the eigenvalues of
// its value map V_h (dots) and of its symmetrised bilinear form S_h (crosses, on the real axis) in
// the complex plane, the largest of each listed, and §1.3's verdict with its numbers. The numbers
// are the core's (ModelLab.head_spectrum in the worker), as `attn encode --spectrum L,H` and
// `--head-dynamics L,H` print them; this module only draws and words them.

import { h } from '../ui/dom.js';
import { fill } from '../ui/math.js';
import { CAPTIONS } from './captions.js';
import { clearCanvas, drawLabel, niceTicks, setLabels, tickLabels } from '../render/palette.js';

const LISTED = 6; // eigenvalues listed per matrix
const PAD = { left: 24, right: 24, top: 26, bottom: 30 };

/** The panel's markup. */
export function headPanel() {
  return h('section.panel.md-wide', { 'aria-labelledby': 'md-spec-heading' },
    h('h2#md-spec-heading', {}, 'The chosen head as a particle system: spectra of V', h('sub', {}, 'h'), ' and S', h('sub', {}, 'h')),
    h('div.md-spec-row', {},
      h('div.canvas-box.md-spec-box', {}, h('canvas#md-spectrum', { role: 'img', 'aria-label': "Eigenvalues of the chosen head's V_h (dots) and S_h (crosses) in the complex plane" })),
      h('div.md-spec-text', {},
        h('p#md-verdict.md-verdict', { 'aria-live': 'polite' }),
        h('table#md-eigs.md-eigs', {}))),
    h('p.caption', {}, CAPTIONS.spectrum),
  );
}

/** An eigenvalue `[re, im]` written `a`, `a + bi` or `a − bi`, to 4 significant digits. */
export function complex([re, im]) {
  const r = Number(re.toPrecision(4));
  if (im === 0) return String(r);
  const i = Number(Math.abs(im).toPrecision(4));
  return `${r} ${im < 0 ? '−' : '+'} ${i}i`;
}

/**
 * §1.3's verdict on head `sp` in words (CAPTIONS' verdict sentences), from its numbers: which row
 * applies, or which condition fails and by how much.
 */
export function verdictText(sp) {
  const v = sp.verdict;
  const p4 = (x) => Number(x.toPrecision(4));
  const at = { lambda: complex(v.lambda1), im: p4(Math.abs(v.lambda1[1])) };
  let row;
  if (!v.real) row = CAPTIONS.verdictNotReal;
  else if (!v.positive) row = CAPTIONS.verdictNotPositive;
  else if (!v.simple) row = CAPTIONS.verdictNotSimple;
  else {
    at.phi = p4(v.phi1_s_phi1);
    at.by = p4(Math.abs(v.phi1_s_phi1));
    row = v.hyperplanes_row ? CAPTIONS.verdictApplies : CAPTIONS.verdictFails;
  }
  return `Layer ${sp.layer}, head ${sp.head}. ${fill(row, at)} ${fill(CAPTIONS.verdictRank, { rank: 2 * sp.dk, d: sp.d })}`;
}

export class HeadPanel {
  constructor() {
    this.canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('md-spectrum'));
    this.ctx = this.canvas.getContext('2d');
    this.sp = null;
  }

  /** Shows head spectrum `sp` (ModelLab.head_spectrum's result), or nothing for null. */
  set(sp) {
    this.sp = sp;
    document.getElementById('md-verdict').textContent = sp ? verdictText(sp) : '';
    const table = document.getElementById('md-eigs');
    if (!sp) {
      table.replaceChildren();
    } else {
      const rows = [];
      for (let k = 0; k < LISTED; k++) {
        rows.push(h('tr', {}, h('td', {}, String(k + 1)), h('td', {}, sp.v[k] ? complex(sp.v[k]) : ''), h('td', {}, sp.s[k] ? complex(sp.s[k]) : '')));
      }
      table.replaceChildren(h('caption', {}, `largest ${LISTED} of ${sp.d} by modulus`),
        h('tr', {}, h('th', {}, 'k'), h('th', {}, 'λ_k(V_h)'), h('th', {}, 'λ_k(S_h)')), ...rows);
    }
    this.draw();
  }

  /** Draws both spectra on equal axes around the origin. */
  draw() {
    const { w, h: height, th } = clearCanvas(this.canvas, this.ctx);
    const ctx = this.ctx;
    const drawn = { labels: [] };
    const sp = this.sp;
    if (!sp) return setLabels(this.canvas, drawn);
    const all = [...sp.v, ...sp.s].filter(([re, im]) => Number.isFinite(re) && Number.isFinite(im));
    const reach = Math.max(1e-12, ...all.map(([re, im]) => Math.max(Math.abs(re), Math.abs(im)))) * 1.08;
    const pw = w - PAD.left - PAD.right;
    const ph = height - PAD.top - PAD.bottom;
    const s = Math.min(pw, ph) / (2 * reach);
    const cx = PAD.left + pw / 2;
    const cy = PAD.top + ph / 2;
    const X = (re) => cx + re * s;
    const Y = (im) => cy - im * s;
    ctx.font = '11px system-ui, sans-serif';
    ctx.strokeStyle = th.border;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(X(-reach), cy);
    ctx.lineTo(X(reach), cy);
    ctx.moveTo(cx, Y(-reach));
    ctx.lineTo(cx, Y(reach));
    ctx.stroke();
    ctx.fillStyle = th.muted;
    const ticks = niceTicks(-reach, reach, 4);
    const labels = tickLabels(ticks);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ticks.forEach((t, k) => {
      if (t !== 0) drawLabel(ctx, labels[k], X(t), cy + 4, drawn.labels);
    });
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    drawLabel(ctx, 'Re', X(reach) + 3, cy, drawn.labels);
    ctx.textAlign = 'left';
    drawLabel(ctx, 'Im', cx + 4, Y(reach) + 6, drawn.labels);
    // S_h: crosses (real), V_h: dots, drawn over.
    ctx.strokeStyle = '#E69F00';
    ctx.lineWidth = 1.5;
    for (const [re] of sp.s) {
      const x = X(re);
      ctx.beginPath();
      ctx.moveTo(x - 4, cy - 4);
      ctx.lineTo(x + 4, cy + 4);
      ctx.moveTo(x - 4, cy + 4);
      ctx.lineTo(x + 4, cy - 4);
      ctx.stroke();
    }
    ctx.fillStyle = th.accent;
    for (const [re, im] of sp.v) {
      ctx.beginPath();
      ctx.arc(X(re), Y(im), 3, 0, 2 * Math.PI);
      ctx.fill();
    }
    // The legend, top left.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.beginPath();
    ctx.arc(8, 10, 3, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = th.fg;
    drawLabel(ctx, 'V_h', 15, 10, drawn.labels);
    ctx.strokeStyle = '#E69F00';
    ctx.beginPath();
    ctx.moveTo(50, 6);
    ctx.lineTo(58, 14);
    ctx.moveTo(50, 14);
    ctx.lineTo(58, 6);
    ctx.stroke();
    drawLabel(ctx, 'S_h (real)', 62, 10, drawn.labels);
    // λ₁ ringed.
    const [r1, i1] = sp.verdict.lambda1;
    ctx.strokeStyle = th.fg;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(X(r1), Y(i1), 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = th.fg;
    ctx.textAlign = X(r1) > cx ? 'right' : 'left';
    ctx.textBaseline = 'bottom';
    drawLabel(ctx, 'λ₁', X(r1) + (X(r1) > cx ? -9 : 9), Y(i1) - 7, drawn.labels);
    setLabels(this.canvas, drawn);
  }
}
