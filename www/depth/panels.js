// Drawing the depth lab's panels from the variants computed so far: the rank-collapse chart, the
// similarity grid and its enlarged head, the distance ridges, the same-sentence shares, the path
// view and the singular values (Rust/plotters charts, ImageData tiles), their captions and hover
// readouts. Methods of the lab's page (lab.js mixes them in).

import { fitCanvas, isDark, setLabels } from '../render/palette.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { MAX_SIDE } from './variants.js';
import { setMath } from '../ui/math.js';

const $ = (id) => document.getElementById(id);

export const panelMethods = {
  fillVariantSelect() {
    const sel = $('dp-grid-variant');
    const keep = sel.value;
    sel.replaceChildren(...this.info.variant_labels.map((l) => {
      const o = document.createElement('option');
      o.value = l;
      o.textContent = l;
      return o;
    }));
    const labels = this.info.variant_labels;
    sel.value = labels.includes(keep) ? keep : labels.includes('transformer') ? 'transformer' : labels[0];
    const slider = $('dp-sv-layer');
    slider.max = String(this.info.layers);
    if (this.svLayer > this.info.layers) this.svLayer = this.info.layers;
    slider.value = String(this.svLayer);
    $('dp-sv-layer-out').textContent = String(this.svLayer);
  },

  /** The variant the grid's selector shows (a label: `SAN`, ...): the grid and the distance
   * ridges show this one, or say that it is being computed. */
  selectedVariant() {
    return $('dp-grid-variant').value;
  },

  drawAll() {
    if (!this.info || !this.visible) return;
    this.drawResidual();
    this.drawSimilarity();
    this.drawSame();
    this.drawPaths();
    this.drawSpectrum();
  },

  /** Draws chart `id` with `fn(canvas, dpr, dark)`; the rectangles of the texts it drew go to
   * the canvas's `data-labels` attribute (JSON `[{ text, x, y, w, h }]`, CSS px). */
  chart(id, fn) {
    try {
      const { dpr } = fitCanvas($(id));
      const drawn = fn($(id), dpr, isDark());
      setLabels($(id), drawn);
      return drawn;
    } catch (e) {
      console.warn(e);
      return null;
    }
  },

  drawResidual() {
    this.resLayout = this.chart('dp-residual', (c, dpr, dark) =>
      this.wasm.draw_depth_residual(c, this.results, this.info.layers, this.log, this.info.precision, dpr, dark));
    if (this.resHover) this.resTip(this.resHover);
  },

  drawSimilarity() {
    const v = this.selectedVariant();
    // The grid's box follows the layers x heads shape (labels take about half a cell).
    $('dp-grid').parentElement.style.aspectRatio = `${this.info.heads + 0.6} / ${this.info.layers + 0.4}`;
    const tiles = this.tilesShown();
    $('dp-grid-min').textContent = this.sharedScale ? 'grid min' : "head's min";
    $('dp-grid-max').textContent = this.sharedScale ? 'grid max' : "head's max";
    const done = this.results.some((x) => x.variant === v);
    const note = done ? `${v}: computing its similarity maps…` : this.busy ? `${v}: waiting for its result…` : `${v}: not computed`;
    this.grid.set(tiles, this.info.labels, note);
    this.grid.draw();
    $('dp-grid').dataset.variant = tiles ? tiles.variant : '';
    const r = this.results.find((x) => x.variant === v);
    this.chart('dp-hist', (c, dpr, dark) => this.wasm.draw_depth_histograms(c, r ? [r] : [], dpr, dark));
  },

  drawSame() {
    this.chart('dp-same', (c, dpr, dark) =>
      this.wasm.draw_depth_same_sentence(c, this.results, this.info.layers, this.info.chance_level, dpr, dark));
  },

  drawPaths() {
    this.chart('dp-paths', (c, dpr, dark) =>
      this.wasm.draw_depth_paths(c, new Float64Array(this.info.path_shares), this.results, dpr, dark));
  },

  drawSpectrum() {
    this.chart('dp-spectrum', (c, dpr, dark) => this.wasm.draw_depth_spectrum(c, this.results, this.svLayer, dpr, dark));
  },

  refreshText() {
    const i = this.info;
    setMath($('dp-res-caption'), `res(X) = X − 1 xᵀ with x the ${this.config.draft.get('residual_def') === 'argmin' ? 'minimiser of the norm' : 'mean of the tokens'}; ‖X‖_{1,∞} = √(‖X‖₁ ‖X‖_{∞}) (max column and max row abs-sum). Plotted: ‖res(X_{l})‖ / ‖X_{l}‖ for layer l = 0 (the input) to L = ${i.layers}, n = ${i.n} tokens, d_model = ${i.d_model}, ${i.heads} heads of ${i.d_head}. SAN: attention only, collapses to rank 1 doubly exponentially; SAN+MLP: attention and MLP without skips, the MLP only slows the collapse; SAN+skip: attention with its skip connection, stays near its start; transformer: skips and MLP (as BERT). LayerNorm (the layernorm key) sits in every variant. Hover for values.`);
    setMath($('dp-grid-caption'), `For each layer l (rows) and head (columns), S = O Oᵀ with O = P V the head's output before W_{O} (n × n, diagonal set to 0, similarity_norm applied), coloured ${this.sharedScale ? 'on one scale, from the smallest to the largest off-diagonal value of any layer and head (grid_scale=shared: heads and layers compare)' : "from the head's smallest to its largest off-diagonal value (per head: each head's pattern shows, however small its values)"}${i.n > MAX_SIDE ? ` (n = ${i.n} > ${MAX_SIDE}: each pixel shows the largest value of its block)` : ''}. Click a head to enlarge it with the token labels; hover for S_{ij}.`);
    $('dp-hist-caption').textContent = 'Per layer, the histogram of |i − j| over the high-similarity pairs of all heads (select, quantile, threshold), each ridge scaled to its own peak: mass near 0 is short-range similarity, a flat ridge long-range (Halevi et al. 2025). The variant is the one chosen above the grid.';
    setMath($('dp-same-caption'), `The share of high-similarity pairs whose two tokens lie in the same sentence, per layer and variant; dashed: chance Σ_{s} n_{s}(n_{s} − 1)/(n(n − 1)) = ${fmt(i.chance_level)}.`);
    setMath($('dp-paths-caption'), `With skip connections the output of L layers of H heads is a sum over (H+1)^{L} paths; the share of paths through k attention layers is C(L,k) H^{k} / (H+1)^{L} (bars). For a linear, bias-free stack without MLP or LayerNorm the core also splits the output exactly by path length: the line is each length's share of Σ_{k} ‖S^{(k)}‖_{F} (${this.pathsWanted() ? 'shown for the variants that have one' : 'not computed in the page at this size: n · d_model · L > 5·10⁵; `attn depth --paths` prints it'}).`);
    setMath($('dp-sv-caption'), 'Singular values of the hidden state X_{l} (n × d_model) divided by the largest, per variant, on a log scale: a collapsed state (rank 1) has one singular value and the rest at round-off. Move the slider to pick the layer.');
  },

  // ---- hover ---------------------------------------------------------------------------

  resTip(h) {
    this.resHover = h;
    const tip = $('dp-res-tip');
    const cursor = $('dp-res-cursor');
    if (!h || !this.results.length) {
      tip.hidden = true;
      cursor.hidden = true;
      return;
    }
    const L = this.resLayout;
    cursor.style.left = `${L.x0 + ((h.layer - L.start) / (L.end - L.start)) * (L.x1 - L.x0)}px`;
    cursor.hidden = false;
    tipLines(tip, [`layer ${h.layer}`, ...this.results.map((r) => `${r.variant}: ${fmt(r.residual[h.layer])}`)]);
    placeTip(tip, h.x, h.y, h.w);
  },

  gridTip(t) {
    const tip = $('dp-grid-tip');
    if (!t || !this.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const r = this.results.find((x) => x.variant === this.grid.tiles.variant);
    const head = r?.similarity[t.layer - 1]?.heads[t.head];
    const lines = [`layer ${t.layer}, head ${t.head} (click to enlarge)`];
    if (head) {
      lines.push(`high pairs: ${head.pairs}, mean |i − j| ${fmt(head.mean_distance)}`);
      if (head.same_sentence !== null) lines.push(`same sentence: ${fmt(head.same_sentence)}`);
      if (head.top_token !== null) lines.push(`top token: ${this.info.labels[head.top_token]} (${fmt(head.top_token_share)} of pairs)`);
      if (head.separator_mass !== null) lines.push(`attention on separators: ${fmt(head.separator_mass)}`);
    }
    tipLines(tip, lines);
    placeTip(tip, t.x, t.y, t.w);
  },

  zoomTip(c) {
    const tip = $('dp-zoom-tip');
    if (!c || !this.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const lab = this.info.labels;
    tipLines(tip, [`i = ${c.i} (${lab[c.i]}), j = ${c.j} (${lab[c.j]})`, `S_ij = ${fmt(this.grid.value(c.i, c.j))}`,
      `sentences ${this.info.sentence[c.i]}, ${this.info.sentence[c.j]}`]);
    placeTip(tip, c.x, c.y, c.w);
  },
};
