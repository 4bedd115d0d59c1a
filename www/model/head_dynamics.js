// The chosen head's particles (docs/science.md §7.6): dx_i/dt = Σ_j P_ij V_h x_j with
// P_ij = softmax_j(x_iᵀ S_h x_j), from the tokens h_{L−1} of the unmodified forward, run by the
// core in the worker (ModelLab.head_dynamics, as `attn encode --head-dynamics L,H` runs it) and
// drawn here: the tokens on the particle lab's token canvas (two PCA axes fitted on every sample,
// trails, colour by cluster, leaders marked), P at the moment shown (viridis on 0..1), and the
// clusters and the Boolean distance max|P − round P| against time; a time slider, Play, the
// arrow keys. The key head_space picks x, the rescaled z or the run on the sphere. Nothing is
// computed here.

import { TokenView } from '../particles/tokens.js';
import { NO_SLOT, clearCanvas, drawLabel, fitCanvas, niceTicks, setLabels, theme, tickLabels } from '../render/palette.js';
import { h } from '../ui/dom.js';
import { CAPTIONS } from './captions.js';
import { drawPsiStrip } from './psi_strip.js';

const $ = (id) => document.getElementById(id);
const SPACES = [['x', 'x in R^d'], ['z', 'rescaled z = exp(−tV_h) x'], ['sphere', 'on the sphere of radius √d']];

/** The panel's markup, after the chosen head's spectra (view panel key `head_particles`). */
export function headDynamicsPanel() {
  return h('section.panel.md-wide.md-dyn', { 'aria-labelledby': 'md-dyn-heading' },
    h('h2#md-dyn-heading', {}, "The chosen head's particles: dx", h('sub', {}, 'i'), '/dt = Σ', h('sub', {}, 'j'), ' P', h('sub', {}, 'ij'), ' V', h('sub', {}, 'h'), ' x', h('sub', {}, 'j')),
    h('div.md-dyn-bar', {},
      h('label', { for: 'md-dyn-space' }, 'space '),
      h('select#md-dyn-space', { 'data-key': 'head_space' }, ...SPACES.map(([v, t]) => h('option', { value: v }, t))),
      h('button#md-dyn-play', { type: 'button' }, 'Play'),
      h('label', { for: 'md-dyn-slider' }, ' t '),
      h('input#md-dyn-slider', { type: 'range', min: '0', max: '0', step: '1', value: '0', 'aria-describedby': 'md-dyn-out' }),
      h('output#md-dyn-out', { for: 'md-dyn-slider' }, '')),
    h('p#md-dyn-status.md-verdict', { 'aria-live': 'polite' }, 'The particles run after the analysis…'),
    h('div.md-dyn-row', {},
      h('div.canvas-box.md-dyn-box', {}, h('canvas#md-dyn-tokens', { role: 'img', tabindex: '0', 'aria-label': "The chosen head's tokens on two PCA axes at the time shown, with trails; arrow keys change the time" })),
      h('div.canvas-box.md-dyn-box', {}, h('canvas#md-dyn-heat', { role: 'img', 'aria-label': 'The attention matrix P of the head particles at the time shown, viridis on 0 to 1' }))),
    h('div.canvas-box.md-dyn-psi-box', { hidden: '' }, h('canvas#md-dyn-psi', { role: 'img', 'aria-label': "Each token's ⟨ψ₁, x_i⟩ at the time shown, on its range: §1.3's hyperplanes are the groups" })),
    h('div.canvas-box.md-dyn-chart-box', {}, h('canvas#md-dyn-chart', { role: 'img', 'aria-label': 'Clusters and the Boolean distance max |P − round P| against time' })),
    h('p.caption', {}, CAPTIONS.dynamics),
  );
}

export class HeadDynamics {
  /** `onSpace(space)`: the user picked another head_space (the lab writes the link and re-runs). */
  constructor(onSpace) {
    /** @type {ModelHeadParticles|null} */
    this.dyn = null;
    this.at = 0; // the sample shown
    this.timer = null;
    this.tokens = new TokenView(/** @type {HTMLCanvasElement} */ ($('md-dyn-tokens')));
    this.tokens.onChange = () => this.tokens.draw();
    this.image = document.createElement('canvas');
    const slider = /** @type {HTMLInputElement} */ ($('md-dyn-slider'));
    slider.addEventListener('input', () => this.show(Number(slider.value)));
    $('md-dyn-space').addEventListener('change', () => onSpace(/** @type {HTMLSelectElement} */ ($('md-dyn-space')).value));
    $('md-dyn-play').addEventListener('click', () => this.play());
    $('md-dyn-tokens').addEventListener('keydown', (e) => {
      if (!this.dyn) return;
      const last = this.dyn.samples - 1;
      const to = { ArrowLeft: this.at - 1, ArrowDown: this.at - 1, ArrowRight: this.at + 1, ArrowUp: this.at + 1, Home: 0, End: last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.stop();
      this.show(Math.max(0, Math.min(last, to)));
    });
  }

  /** Waiting for the run of `space` (a new analysis is on its way). */
  waiting(space) {
    this.stop();
    /** @type {HTMLSelectElement} */ ($('md-dyn-space')).value = space;
    $('md-dyn-status').textContent = CAPTIONS.dynamicsWaiting;
  }

  /** The worker's run for the analysis shown has taken `step` of its `steps` Euler steps. */
  progress(step, steps) {
    $('md-dyn-status').textContent = CAPTIONS.dynamicsRunning.replace('$step', String(step)).replace('$steps', String(steps));
  }

  /** The worker's run (ModelLab.head_dynamics), or its refusal `error`; `tokens` names the tokens. */
  set(dyn, error, tokens, ms) {
    this.stop();
    this.dyn = error ? null : dyn;
    this.ms = ms;
    this.names = tokens ?? [];
    if (!this.dyn) {
      $('md-dyn-status').textContent = `The head's particles could not run: ${error}`;
      this.draw();
      return;
    }
    const d = this.dyn;
    /** @type {HTMLSelectElement} */ ($('md-dyn-space')).value = d.space;
    const m = Math.min(2, d.k);
    this.tokens.configure({ n: d.n, k: /** @type {1|2} */ (m), sphere: false, tMax: d.t[d.samples - 1] ?? 1, names: ['PC1', 'PC2'] });
    // One frame for the whole run: the box around every sample's tokens.
    const lo = [Infinity, Infinity];
    const hi = [-Infinity, -Infinity];
    for (let r = 0; r < d.samples; r++) {
      const p = this.pointsOf(r);
      for (let i = 0; i < p.length; i++) {
        if (!Number.isFinite(p[i])) continue;
        lo[i % m] = Math.min(lo[i % m], p[i]);
        hi[i % m] = Math.max(hi[i % m], p[i]);
      }
    }
    const c = lo.map((v, a) => (Number.isFinite(v) ? (v + hi[a]) / 2 : 0));
    const half = Math.max(1e-9, 1.08 * Math.max(...lo.map((v, a) => (Number.isFinite(v) ? (hi[a] - v) / 2 : 0))));
    this.frame = { c, h: half, hs: [half, half] };
    /** @type {HTMLInputElement} */ ($('md-dyn-slider')).max = String(Math.max(0, d.samples - 1));
    const end = d.samples - 1;
    const stop = d.stopped ? ` ${CAPTIONS.dynamicsStopped.replace('$step', String(d.stopped.step)).replace('$what', d.stopped.what)}` : '';
    $('md-dyn-status').textContent = `${this.summary(end)}${stop}`;
    this.show(end);
  }

  /** Sample `r`'s tokens, `n x 2` (a fresh array). */
  pointsOf(r) {
    const { n, k, coords } = this.dyn;
    const m = Math.min(2, k);
    const out = new Float64Array(n * m);
    for (let i = 0; i < n; i++) for (let a = 0; a < m; a++) out[i * m + a] = coords[(r * n + i) * k + a];
    return out;
  }

  /** What the run shows at sample `r`, in a sentence. */
  summary(r) {
    const d = this.dyn;
    const space = d.space === 'z' ? 'z' : 'x';
    const bd = d.boolean_distance[r];
    const hp = d.hyperplanes[r];
    const planes = Number.isFinite(hp) ? `; ⟨ψ₁, x_i⟩ takes ${hp} value${hp === 1 ? '' : 's'} (§1.3's hyperplanes)` : '';
    return `Layer ${d.layer}, head ${d.head}, t = ${d.t[r]}: ${Number.isFinite(d.clusters[r]) ? `${d.clusters[r]} cluster${d.clusters[r] === 1 ? '' : 's'}` : '– clusters'} of ${space} (of ${d.n} tokens), mean cosine ${Number.isFinite(d.mean_cos[r]) ? d.mean_cos[r].toFixed(4) : 'not finite'}, Boolean distance ${Number.isFinite(bd) ? bd.toFixed(3) : 'not finite'}${planes}.`;
  }

  /** Shows sample `r`: the tokens with their trails, P, the chart's marker. */
  show(r) {
    const d = this.dyn;
    if (!d) return;
    this.at = r;
    /** @type {HTMLInputElement} */ ($('md-dyn-slider')).value = String(r);
    $('md-dyn-out').textContent = `${d.t[r]}`;
    const states = [];
    for (let a = 0; a < r; a++) states.push({ step: a, t: d.t[a], x: this.pointsOf(a) });
    this.tokens.retrace(states, r, d.t[r], this.pointsOf(r));
    this.tokens.view = this.frame;
    const { n, labels, leaders } = d;
    const row = labels.subarray(r * n, (r + 1) * n);
    const size = new Map();
    for (const c of row) size.set(c, (size.get(c) ?? 0) + 1);
    const slots = new Uint32Array(n);
    for (let i = 0; i < n; i++) slots[i] = size.get(row[i]) > 1 && row[i] !== NO_SLOT ? row[i] : NO_SLOT;
    const lead = [];
    for (let i = 0; i < n; i++) if (leaders[r * n + i]) lead.push(i);
    this.tokens.setStyle(slots, Uint32Array.from(lead));
    this.slots = slots;
    this.image.width = n;
    this.image.height = n;
    this.image.getContext('2d').putImageData(new ImageData(d.p_rgba.slice(r * n * n * 4, (r + 1) * n * n * 4), n, n), 0, 0);
    if (!this.timer) $('md-dyn-status').textContent = this.summary(r);
    this.draw();
  }

  /** Plays the run from its start (again: from the start; while playing: pauses). */
  play() {
    if (!this.dyn) return;
    if (this.timer) return this.stop();
    let r = this.at >= this.dyn.samples - 1 ? 0 : this.at;
    $('md-dyn-play').textContent = 'Pause';
    this.timer = setInterval(() => {
      this.show(r);
      r += 1;
      if (r >= this.dyn.samples) this.stop();
    }, 60);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    $('md-dyn-play').textContent = 'Play';
    if (this.dyn) $('md-dyn-status').textContent = this.summary(this.at);
  }

  draw() {
    if (this.dyn) this.tokens.draw();
    this.drawPsi();
    this.drawHeat();
    this.drawChart();
  }

  /** ⟨ψ₁, x_i⟩ at the moment shown, where §1.3's hyperplanes row applies (else hidden). */
  drawPsi() {
    const d = this.dyn;
    const n = d?.n ?? 0;
    const values = d ? d.psi.subarray(this.at * n, (this.at + 1) * n) : new Float64Array(0);
    const box = $('md-dyn-psi').parentElement;
    const applies = n > 0 && values.every(Number.isFinite);
    if (box.hidden === applies) box.hidden = !applies;
    if (applies) drawPsiStrip($('md-dyn-psi'), values, this.slots, d.hyperplanes[this.at]);
  }

  /** P at the moment shown, one pixel per entry scaled up, row i query token i. */
  drawHeat() {
    const canvas = /** @type {HTMLCanvasElement} */ ($('md-dyn-heat'));
    const { w, h: H, dpr } = fitCanvas(canvas);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = theme().panel;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!this.dyn) return;
    const side = Math.round(Math.min(w, H) * dpr);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.image, 0, 0, side, side);
  }

  /** Clusters (left axis) and the Boolean distance (right axis, 0 to 0.5) against t. */
  drawChart() {
    const canvas = /** @type {HTMLCanvasElement} */ ($('md-dyn-chart'));
    const ctx = canvas.getContext('2d');
    const { w, h: H, th } = clearCanvas(canvas, ctx);
    const drawn = [];
    const d = this.dyn;
    if (!d || d.samples === 0) return setLabels(canvas, { labels: drawn });
    const L = { left: 40, right: 44, top: 18, bottom: 28 };
    const pw = w - L.left - L.right;
    const ph = H - L.top - L.bottom;
    const tEnd = d.t[d.samples - 1] || 1;
    const cMax = Math.max(1, ...Array.from(d.clusters).filter(Number.isFinite));
    const X = (t) => L.left + (t / tEnd) * pw;
    const Yc = (c) => L.top + ph - (c / cMax) * ph;
    const Yb = (b) => L.top + ph - (b / 0.5) * ph;
    ctx.font = '11px system-ui, sans-serif';
    ctx.strokeStyle = th.border;
    ctx.strokeRect(L.left, L.top, pw, ph);
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const xt = niceTicks(0, tEnd, 5);
    tickLabels(xt).forEach((s, k) => drawLabel(ctx, s, X(xt[k]), L.top + ph + 4, drawn));
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const ct = niceTicks(0, cMax, 4).filter((v) => Number.isInteger(v));
    tickLabels(ct).forEach((s, k) => drawLabel(ctx, s, L.left - 4, Yc(ct[k]), drawn));
    ctx.textAlign = 'left';
    for (const b of [0, 0.25, 0.5]) drawLabel(ctx, String(b), L.left + pw + 4, Yb(b), drawn);
    const line = (colour, ys) => {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      let on = false;
      for (let r = 0; r < d.samples; r++) {
        const y = ys(r);
        if (!Number.isFinite(y)) { on = false; continue; }
        if (on) ctx.lineTo(X(d.t[r]), y);
        else ctx.moveTo(X(d.t[r]), y);
        on = true;
      }
      ctx.stroke();
    };
    line(th.accent, (r) => Yc(d.clusters[r]));
    line('#E69F00', (r) => Yb(d.boolean_distance[r]));
    ctx.strokeStyle = th.fg;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(X(d.t[this.at]), L.top);
    ctx.lineTo(X(d.t[this.at]), L.top + ph);
    ctx.stroke();
    ctx.textBaseline = 'bottom';
    ctx.fillStyle = th.accent;
    drawLabel(ctx, 'clusters', L.left, L.top - 3, drawn);
    ctx.fillStyle = '#E69F00';
    ctx.textAlign = 'right';
    drawLabel(ctx, 'Boolean distance', L.left + pw, L.top - 3, drawn);
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    drawLabel(ctx, 't', L.left + pw / 2, H, drawn);
    setLabels(canvas, { labels: drawn });
  }
}
