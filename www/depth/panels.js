// Drawing the depth lab's panels from the variants computed so far: the rank-collapse chart, the
// similarity grid and its enlarged head, the distance ridges, the same-sentence shares, the path
// view and the singular values (Rust/plotters charts, ImageData tiles), their captions and hover
// readouts. Methods of the lab's page (lab.js mixes them in).

import { firstPicture, markOnce } from '../lab/marks.js';
import { fitCanvas, chartColours, setLabels } from '../render/palette.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { writeCaptions } from './captions.js';

const $ = (id) => document.getElementById(id);

export const panelMethods = {
  fillVariantSelect() {
    const sel = /** @type {HTMLSelectElement} */ ($('dp-grid-variant'));
    const keep = sel.value;
    sel.replaceChildren(...this.info.variant_labels.map((l) => {
      const o = document.createElement('option');
      o.value = l;
      o.textContent = l;
      return o;
    }));
    const labels = this.info.variant_labels;
    sel.value = labels.includes(keep) ? keep : labels.includes('transformer') ? 'transformer' : labels[0];
    const slider = /** @type {HTMLInputElement} */ ($('dp-sv-layer'));
    slider.max = String(this.info.layers);
    if (this.svLayer > this.info.layers) this.svLayer = this.info.layers;
    slider.value = String(this.svLayer);
    $('dp-sv-layer-out').textContent = String(this.svLayer);
  },

  /** The variant the grid's selector shows (a label: `SAN`, ...): the grid and the distance
   * ridges show this one, or say that it is being computed. */
  selectedVariant() {
    return /** @type {HTMLSelectElement} */ ($('dp-grid-variant')).value;
  },

  drawAll() {
    if (!this.info || !this.visible) return;
    this.drawResidual();
    this.drawSimilarity();
    this.drawSame();
    this.drawPaths();
    this.drawSpectrum();
  },

  /** Draws chart `id` with `fn(canvas, dpr, colours)`; the rectangles of the texts it drew go to
   * the canvas's `data-labels` attribute (JSON `[{ text, x, y, w, h }]`, CSS px). */
  chart(id, fn) {
    try {
      const { dpr } = fitCanvas($(id));
      const drawn = fn($(id), dpr, chartColours());
      setLabels($(id), drawn);
      return drawn;
    } catch (e) {
      console.warn(e);
      return null;
    }
  },

  drawResidual() {
    this.resLayout = this.chart('dp-residual', (c, dpr, colours) =>
      this.wasm.draw_depth_residual(c, this.results, this.info.layers, this.log, this.info.precision, dpr, colours));
    // The residual chart is the lab's main picture: its first curve, then every variant's (lab/marks.js).
    if (this.results.length > 0) firstPicture('depth');
    if (this.results.length > 0 && this.results.length === this.info.variants.length) markOnce('attn-depth-complete');
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
    this.chart('dp-hist', (c, dpr, colours) => this.wasm.draw_depth_histograms(c, r ? [r] : [], dpr, colours));
  },

  drawSame() {
    this.chart('dp-same', (c, dpr, colours) =>
      this.wasm.draw_depth_same_sentence(c, this.results, this.info.layers, this.info.chance_level, dpr, colours));
  },

  drawPaths() {
    this.chart('dp-paths', (c, dpr, colours) =>
      this.wasm.draw_depth_paths(c, new Float64Array(this.info.path_shares), this.results, dpr, colours));
  },

  drawSpectrum() {
    this.chart('dp-spectrum', (c, dpr, colours) => this.wasm.draw_depth_spectrum(c, this.results, this.svLayer, dpr, colours));
  },

  refreshText() {
    writeCaptions(this.info, { argmin: this.config.draft.get('residual_def') === 'argmin', shared: this.sharedScale, paths: this.pathsWanted() });
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
    const lines = [`layer ${t.layer}, head ${t.head} (click, tap or Enter to enlarge)`];
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
