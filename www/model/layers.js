// The model lab's "Tokens through the layers" panel (science.md §7.5): the hidden states
// h_0 … h_L of the analysed text as particles on the particle lab's token canvas
// (particles/tokens.js: 2-D, or 3-D with drag to rotate), on the PCA axes the core fitted once on
// every layer, with trails from layer 0 to the layer shown, tokens coloured by sentence or by
// cluster, labels on hover; a layer scrubber (slider, arrow keys on the canvas); beside it, per
// layer, the clusters, mean cosine and effective rank, and the cosine histograms stacked (one row
// per layer, the shown one highlighted). It draws ModelLab.layers_view's numbers (the worker sends
// them with each result) and computes none.

import { TokenView } from '../particles/tokens.js';
import { NO_SLOT, clearCanvas, drawLabel, setLabels } from '../render/palette.js';
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';

const sub = (l) => String(l).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);

/** How the tokens-through-the-layers panel names things: the layers panel's by default; the
 * repeated layer's panel (repeat.js) shows repetitions with the same drawing. */
export const LAYERS = {
  prefix: 'md-layers',
  title: 'Tokens through the layers',
  step: 'layer', // the slider's and the table's word
  name: (l) => `h${sub(l)}`, // a state's short name
  long: (l) => `h${sub(l)}${l === 0 ? ' (embeddings)' : ''}`, // the slider's readout
  tokensLabel: 'The tokens of the layer shown on the PCA axes of every layer, with trails from layer 0; arrow keys change the layer, hover names a token',
  histLabel: 'Histograms of the pairwise cosines of the tokens, one row per layer, the layer shown highlighted',
  caption: ['h₀ is the embeddings after their LayerNorm, hℓ layer ℓ\'s output. One PCA of every layer\'s tokens stacked: the axes are the same for every layer. ',
    'Clusters: tokens linked when 1 − cos ≤ cos_tol (grey: a token alone). Histograms: the cosines over i < j in 64 bins on [−1, 1], each row scaled to its own largest bin.'],
};

/** The panel's markup (markup.js places it): `o` names it (LAYERS, or the repeated layer's);
 * `controls`, elements put before the slider; `after`, elements after the caption. */
export function layersPanel(o = LAYERS, controls = [], after = []) {
  const id = (x) => `${o.prefix}-${x}`;
  return h(`section.panel.md-wide`, { 'aria-labelledby': id('heading') },
    h(`h2#${id('heading')}`, {}, o.title),
    ...controls,
    h('div.md-layers-bar', {},
      // A panel over a run's states (o.timeline) gets the labs' shared timeline there instead.
      ...(o.timeline ? [h(`div#${id('timeline')}.timeline.md-layers-timeline`)] : [
        h('label', { for: id('slider') }, `${o.step} `),
        h(`input#${id('slider')}.md-layers-slider`, { type: 'range', min: '0', max: '1', step: '1', value: '0', 'aria-describedby': id('out') }),
        h(`output#${id('out')}.md-layers-out`, { for: id('slider') }, o.name(0))]),
      h('label', { for: id('colour') }, 'colour '),
      h(`select#${id('colour')}`, {}, h('option', { value: 'sentence' }, 'by sentence'), h('option', { value: 'clusters' }, 'by cluster')),
      h('label.md-layers-3d', {}, h(`input#${id('3d')}`, { type: 'checkbox' }), ' 3-D (drag to rotate)'),
    ),
    h('div.md-layers-row', {},
      h('div.canvas-box.md-layers-box', {},
        h(`canvas#${id('tokens')}.md-layers-tokens`, { role: 'img', tabindex: '0', 'aria-label': o.tokensLabel }),
        h(`div#${id('tip')}.tip`, { hidden: true })),
      h('div.md-layers-side', {},
        h('div.md-layers-table-box', {},
          h(`table#${id('table')}.md-layers-table`, {},
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, o.step), h('th', { scope: 'col' }, 'clusters'),
              h('th', { scope: 'col' }, 'mean cos'), h('th', { scope: 'col' }, 'eff. rank'))),
            h(`tbody#${id('stats')}`))),
        h('div.canvas-box.md-layers-hist-box', {},
          h(`canvas#${id('hist')}`, { role: 'img', 'aria-label': o.histLabel })),
      ),
    ),
    h(`p#${id('caption')}.caption`, {}, ...o.caption),
    ...after,
  );
}

export class LayersPanel {
  /** `onLayer(l)`: the scrubber asks for layer `l` (the lab shows it and writes the link); `o`:
   * which panel (LAYERS, or the repeated layer's, whose states are repetitions). */
  constructor(onLayer, o = LAYERS) {
    this.onLayer = onLayer;
    this.o = o;
    const $ = (x) => document.getElementById(`${o.prefix}-${x}`);
    this.$ = $;
    /** @type {ModelLayersView|null} */
    this.view = null; // ModelLab.layers_view's typed arrays
    this.result = null; // the analysis (tokens, sentences)
    this.layer = 0;
    this.tokens = new TokenView(/** @type {HTMLCanvasElement} */ ($('tokens')));
    this.tokens.colour = 'clusters'; // slots: sentences or clusters (restyle)
    this.tokens.onChange = () => this.drawTokens();
    const slider = /** @type {HTMLInputElement | null} */ ($('slider'));
    slider?.addEventListener('input', () => this.onLayer(Number(slider.value)));
    $('tokens').addEventListener('keydown', (e) => {
      if (!this.view) return;
      const last = this.view.states - 1;
      const to = { ArrowLeft: this.layer - 1, ArrowDown: this.layer - 1, ArrowRight: this.layer + 1, ArrowUp: this.layer + 1, Home: 0, End: last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      if (to >= 0 && to <= last && to !== this.layer) this.onLayer(to);
    });
    $('colour').addEventListener('change', () => {
      this.restyle();
      this.drawTokens();
    });
    $('3d').addEventListener('change', () => {
      if (this.view) this.set(this.view, this.result, this.layer);
    });
    $('tokens').addEventListener('pointermove', (e) => this.hover(e));
    $('tokens').addEventListener('pointerleave', () => {
      $('tip').hidden = true;
    });
  }

  /** Coordinates per token drawn: 3 with the 3-D box ticked (when the fit has 3), else at most 2. */
  dims() {
    return Math.min(this.view.k, /** @type {HTMLInputElement} */ (this.$('3d')).checked ? 3 : 2);
  }

  /** Layer `l`'s tokens, `n x dims` (a fresh array). */
  pointsOf(l) {
    const { n, k, coords } = this.view;
    const m = this.dims();
    const out = new Float64Array(n * m);
    for (let i = 0; i < n; i++) for (let a = 0; a < m; a++) out[i * m + a] = coords[(l * n + i) * k + a];
    return out;
  }

  /** A new analysis's view, shown at layer `layer`. @param {ModelLayersView} view */
  set(view, result, layer) {
    this.view = view;
    this.result = result;
    const m = this.dims();
    this.tokens.configure({ n: view.n, k: /** @type {1|2|3} */ (m), sphere: false, tMax: view.states - 1, names: ['PC1', 'PC2', 'PC3'].slice(0, Math.max(2, m)) });
    // One frame for every layer: the box around all layers' tokens (the tokens are seen moving).
    const lo = new Array(m).fill(Infinity);
    const hi = new Array(m).fill(-Infinity);
    for (let l = 0; l < view.states; l++) {
      const p = this.pointsOf(l);
      for (let i = 0; i < p.length; i++) {
        if (!Number.isFinite(p[i])) continue;
        lo[i % m] = Math.min(lo[i % m], p[i]);
        hi[i % m] = Math.max(hi[i % m], p[i]);
      }
    }
    const c = lo.map((v, a) => (Number.isFinite(v) ? (v + hi[a]) / 2 : 0));
    let half = 0;
    if (m === 3) {
      for (let l = 0; l < view.states; l++) {
        const p = this.pointsOf(l);
        for (let i = 0; i < p.length; i += 3) {
          const r = Math.hypot(p[i] - c[0], p[i + 1] - c[1], p[i + 2] - c[2]);
          if (Number.isFinite(r)) half = Math.max(half, r);
        }
      }
    } else half = Math.max(...lo.map((v, a) => (Number.isFinite(v) ? (hi[a] - v) / 2 : 0)));
    half = Math.max(half * 1.08, 1e-9);
    this.frame = { c, h: half, hs: new Array(m).fill(half) };
    const slider = /** @type {HTMLInputElement | null} */ (this.$('slider'));
    if (slider) slider.max = String(view.states - 1);
    this.table();
    this.show(layer);
  }

  /** Shows layer `layer` (clamped to 0..=L): the tokens with their trails, the table's row, the histogram's row. */
  show(layer) {
    if (!this.view) return;
    const l = Math.max(0, Math.min(this.view.states - 1, layer));
    this.layer = l;
    const slider = /** @type {HTMLInputElement | null} */ (this.$('slider'));
    if (slider) {
      slider.value = String(l);
      this.$('out').textContent = this.o.long(l);
    }
    const states = [];
    for (let a = 0; a < l; a++) states.push({ step: a, t: a, x: this.pointsOf(a) });
    this.tokens.retrace(states, l, l, this.pointsOf(l));
    this.tokens.view = this.frame;
    this.restyle();
    for (const row of /** @type {HTMLCollectionOf<HTMLElement>} */ (this.$('stats').children)) {
      const shown = Number(row.dataset.layer) === l;
      row.classList.toggle('shown', shown);
      if (shown) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
      if (shown) { // the row in view inside its scrolling box (the page itself does not scroll)
        const box = this.$('table').parentElement;
        const [rb, bb] = [row.getBoundingClientRect(), box.getBoundingClientRect()];
        if (rb.top < bb.top || rb.bottom > bb.bottom) box.scrollTop += rb.top - bb.top - (bb.height - rb.height) / 2;
      }
    }
    this.draw();
  }

  /** The tokens' colours: each token's sentence, or its cluster at the layer shown (grey when alone). */
  restyle() {
    const { n, labels } = this.view;
    const slots = new Uint32Array(n);
    if (/** @type {HTMLSelectElement} */ (this.$('colour')).value === 'sentence') slots.set(this.result.sentence);
    else {
      const row = labels.subarray(this.layer * n, (this.layer + 1) * n);
      const size = new Map();
      for (const c of row) size.set(c, (size.get(c) ?? 0) + 1);
      for (let i = 0; i < n; i++) slots[i] = size.get(row[i]) > 1 && row[i] !== NO_SLOT ? row[i] : NO_SLOT;
    }
    this.tokens.setStyle(slots, null);
  }

  /** The per-layer table: each number also in its cell's data-value, exact (String of the f64). */
  table() {
    const v = this.view;
    this.$('stats').replaceChildren(...Array.from({ length: v.states }, (_, l) => {
      const cell = (x, digits) => h('td', { 'data-value': String(x) }, Number.isFinite(x) ? (digits ? x.toFixed(digits) : String(x)) : '–');
      return h('tr', { 'data-layer': String(l) }, h('th', { scope: 'row' }, this.o.name(l)),
        cell(v.clusters[l], 0), cell(v.mean_cos[l], 4), cell(v.effective_rank[l], 2));
    }));
  }

  draw() {
    if (!this.view) return;
    this.drawTokens();
    this.drawHist();
  }

  drawTokens() {
    if (!this.view) return;
    this.tokens.draw();
  }

  /** The stacked histograms: one row per state (the first at the top), bars over [−1, 1]; rows
   * too thin for bars (many repetitions) are drawn as a heatmap, every few rows labelled. */
  drawHist() {
    const canvas = /** @type {HTMLCanvasElement} */ (this.$('hist'));
    const ctx = canvas.getContext('2d');
    const { w, h: H, th } = clearCanvas(canvas, ctx);
    const { states, bins, histograms } = this.view;
    const out = [];
    const left = 40;
    const right = 8;
    const top = 6;
    const bottom = 34;
    const pw = w - left - right;
    const rh = (H - top - bottom) / states;
    if (pw < 10 || rh <= 0) return;
    ctx.font = '11px system-ui, sans-serif';
    const thin = rh < 6; // a heatmap: each bin's shade its share of the row's largest
    const every = Math.max(1, Math.ceil(14 / rh));
    for (let l = 0; l < states; l++) {
      const row = histograms.subarray(l * bins, (l + 1) * bins);
      const max = Math.max(1, ...row);
      const y0 = top + (l + 1) * rh;
      const shown = l === this.layer;
      if (thin) {
        ctx.fillStyle = shown ? th.accent : th.fg;
        for (let b = 0; b < bins; b++) {
          if (!(row[b] > 0)) continue;
          ctx.globalAlpha = shown ? 1 : 0.15 + 0.75 * (row[b] / max);
          ctx.fillRect(left + (b / bins) * pw, y0 - rh, pw / bins, Math.max(rh, shown ? 2 : 0.5));
        }
        ctx.globalAlpha = 1;
        // Every few rows labelled, and the shown one: a periodic label too near it gives way.
        if (shown || (l % every === 0 && Math.abs(l - this.layer) >= every)) {
          ctx.fillStyle = shown ? th.fg : th.muted;
          ctx.textAlign = 'right';
          ctx.textBaseline = 'middle';
          drawLabel(ctx, this.o.name(l), left - 5, y0 - rh / 2, out);
        }
        continue;
      }
      if (shown) {
        ctx.fillStyle = th.border;
        ctx.globalAlpha = 0.35;
        ctx.fillRect(left, y0 - rh, pw, rh);
        ctx.globalAlpha = 1;
      }
      ctx.fillStyle = shown ? th.accent : th.muted;
      ctx.globalAlpha = shown ? 1 : 0.55;
      for (let b = 0; b < bins; b++) {
        const bh = (row[b] / max) * (rh - 2);
        if (bh > 0) ctx.fillRect(left + (b / bins) * pw, y0 - bh, pw / bins - 0.5, bh);
      }
      ctx.globalAlpha = 1;
      ctx.fillStyle = shown ? th.fg : th.muted;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      drawLabel(ctx, this.o.name(l), left - 5, y0 - rh / 2, out);
    }
    ctx.strokeStyle = th.border;
    ctx.strokeRect(left, top, pw, H - top - bottom);
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const v of [-1, -0.5, 0, 0.5, 1]) drawLabel(ctx, String(v), left + ((v + 1) / 2) * pw, H - bottom + 3, out);
    ctx.fillStyle = th.fg;
    drawLabel(ctx, 'cos(xᵢ, xⱼ), i < j', left + pw / 2, H - bottom + 17, out);
    setLabels(canvas, { labels: out });
  }

  /** The token under the pointer (within 10 CSS px), named in the tip. */
  hover(e) {
    const tip = this.$('tip');
    const r = this.result;
    if (!this.view || !r) return;
    const box = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - box.left;
    const y = e.clientY - box.top;
    let best = null;
    let d2 = 100;
    for (const p of this.tokens.drawn ?? []) {
      const d = (p[0] - x) ** 2 + (p[1] - y) ** 2;
      if (d <= d2 && p[2] !== undefined) {
        d2 = d;
        best = p[2];
      }
    }
    if (best === null) {
      tip.hidden = true;
      return;
    }
    const { n, k, coords, labels } = this.view;
    const at = (this.layer * n + best) * k;
    const pcs = Array.from(coords.subarray(at, at + k), (v) => fmt(v)).join(', ');
    tipLines(tip, [`token ${best}: ${r.tokens[best]}`, `sentence ${r.sentence[best]}, cluster ${labels[this.layer * n + best]}`, `${this.o.name(this.layer)} on PC1…PC${k}: ${pcs}`]);
    placeTip(tip, x, y, box.width);
  }
}
