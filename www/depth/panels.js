// Drawing the depth lab's panels from the variants computed so far: the rank-collapse chart, the
// similarity grid and its enlarged head, the distance ridges, the same-sentence shares, the path
// view and the singular values (Rust/plotters charts, ImageData tiles), their captions and hover
// readouts. The lab's page (lab.js) owns one DepthPanels.

import { firstPicture, markOnce } from '../lab/marks.js';
import { fitCanvas, chartColours, setLabels } from '../render/palette.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { writeCaptions } from './captions.js';

const $ = (id) => document.getElementById(id);

export class DepthPanels {
  /** @param {import('./lab.js').DepthLabPage} page the lab's page: the configuration (`info`),
   *   the variants' results, the drawing objects and the state they share */
  constructor(page) {
    this.page = page;
  }

  fillVariantSelect() {
    const sel = /** @type {HTMLSelectElement} */ ($('dp-grid-variant'));
    const keep = sel.value;
    sel.replaceChildren(...this.page.info.variant_labels.map((l) => {
      const o = document.createElement('option');
      o.value = l;
      o.textContent = l;
      return o;
    }));
    const labels = this.page.info.variant_labels;
    sel.value = labels.includes(keep) ? keep : labels.includes('transformer') ? 'transformer' : labels[0];
    const slider = /** @type {HTMLInputElement} */ ($('dp-sv-layer'));
    slider.max = String(this.page.info.layers);
    if (this.page.svLayer > this.page.info.layers) this.page.svLayer = this.page.info.layers;
    slider.value = String(this.page.svLayer);
    $('dp-sv-layer-out').textContent = String(this.page.svLayer);
  }

  /** The variant the grid's selector shows (a label: `SAN`, ...): the grid and the distance
   * ridges show this one, or say that it is being computed. */
  selectedVariant() {
    return /** @type {HTMLSelectElement} */ ($('dp-grid-variant')).value;
  }

  drawAll() {
    if (!this.page.info || !this.page.visible) return;
    this.drawResidual();
    this.drawSimilarity();
    this.drawSame();
    this.drawPaths();
    this.drawSpectrum();
  }

  /** Draws chart `id` with `fn(canvas, dpr, colours)`; the rectangles of the texts it drew go to
   * the canvas's `data-labels` attribute (JSON `[{ text, x, y, w, h }]`, CSS px).
   * @param {string} id
   * @param {(c: HTMLCanvasElement, dpr: number, colours: Uint32Array) => ChartLayout} fn
   * @returns {ChartLayout|null} */
  chart(id, fn) {
    const c = /** @type {HTMLCanvasElement} */ ($(id));
    try {
      const { dpr } = fitCanvas(c);
      const drawn = fn(c, dpr, chartColours());
      setLabels(c, drawn);
      return drawn;
    } catch (e) {
      console.warn(e);
      return null;
    }
  }

  drawResidual() {
    this.page.resLayout = this.chart('dp-residual', (c, dpr, colours) =>
      this.page.wasm.draw_depth_residual(c, this.page.charted, this.page.info.layers, this.page.log, this.page.info.precision, dpr, colours));
    // The residual chart is the lab's main picture: its first curve, then every variant's (lab/marks.js).
    if (this.page.results.length > 0) firstPicture('depth');
    if (this.page.results.length > 0 && this.page.results.length === this.page.info.variants.length) markOnce('attn-depth-complete');
    if (this.page.resHover) this.resTip(this.page.resHover);
  }

  drawSimilarity() {
    const v = this.selectedVariant();
    // The grid's box follows the layers x heads shape (labels take about half a cell).
    $('dp-grid').parentElement.style.aspectRatio = `${this.page.info.heads + 0.6} / ${this.page.info.layers + 0.4}`;
    const tiles = this.page.variants.tilesShown();
    $('dp-grid-min').textContent = this.page.sharedScale ? 'grid min' : "head's min";
    $('dp-grid-max').textContent = this.page.sharedScale ? 'grid max' : "head's max";
    const done = this.page.results.some((x) => x.variant === v);
    const note = done ? `${v}: computing its similarity maps…` : this.page.busy ? `${v}: waiting for its result…` : `${v}: not computed`;
    this.page.grid.set(tiles, this.page.info.labels, note);
    this.page.grid.draw();
    $('dp-grid').dataset.variant = tiles ? tiles.variant : '';
    this.chart('dp-hist', (c, dpr, colours) => this.page.wasm.draw_depth_histograms(c, this.page.charted, v, dpr, colours));
  }

  drawSame() {
    this.chart('dp-same', (c, dpr, colours) =>
      this.page.wasm.draw_depth_same_sentence(c, this.page.charted, this.page.info.layers, this.page.info.chance_level, dpr, colours));
  }

  drawPaths() {
    this.chart('dp-paths', (c, dpr, colours) =>
      this.page.wasm.draw_depth_paths(c, new Float64Array(this.page.info.path_shares), this.page.charted, dpr, colours));
  }

  drawSpectrum() {
    this.chart('dp-spectrum', (c, dpr, colours) => this.page.wasm.draw_depth_spectrum(c, this.page.charted, this.page.svLayer, dpr, colours));
  }

  refreshText() {
    writeCaptions(this.page.info, { argmin: this.page.config.draft.get('residual_def') === 'argmin', shared: this.page.sharedScale, paths: this.page.variants.pathsWanted() });
  }

  // ---- hover ---------------------------------------------------------------------------

  resTip(h) {
    this.page.resHover = h;
    const tip = $('dp-res-tip');
    const cursor = $('dp-res-cursor');
    if (!h || !this.page.results.length) {
      tip.hidden = true;
      cursor.hidden = true;
      return;
    }
    const L = this.page.resLayout;
    cursor.style.left = `${L.x0 + ((h.layer - L.start) / (L.end - L.start)) * (L.x1 - L.x0)}px`;
    cursor.hidden = false;
    tipLines(tip, [`layer ${h.layer}`, ...this.page.results.map((r) => `${r.variant}: ${fmt(r.residual[h.layer])}`)]);
    placeTip(tip, h.x, h.y, h.w);
  }

  gridTip(t) {
    const tip = $('dp-grid-tip');
    if (!t || !this.page.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const r = this.page.results.find((x) => x.variant === this.page.grid.tiles.variant);
    const head = r?.similarity[t.layer - 1]?.heads[t.head];
    const lines = [`layer ${t.layer}, head ${t.head} (click, tap or Enter to enlarge)`];
    if (head) {
      lines.push(`high pairs: ${head.pairs}, mean |i − j| ${fmt(head.mean_distance)}`);
      if (head.same_sentence !== null) lines.push(`same sentence: ${fmt(head.same_sentence)}`);
      if (head.top_token !== null) lines.push(`top token: ${this.page.info.labels[head.top_token]} (${fmt(head.top_token_share)} of pairs)`);
      if (head.separator_mass !== null) lines.push(`attention on separators: ${fmt(head.separator_mass)}`);
    }
    tipLines(tip, lines);
    placeTip(tip, t.x, t.y, t.w);
  }

  zoomTip(c) {
    const tip = $('dp-zoom-tip');
    if (!c || !this.page.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const lab = this.page.info.labels;
    tipLines(tip, [`i = ${c.i} (${lab[c.i]}), j = ${c.j} (${lab[c.j]})`, `S_ij = ${fmt(this.page.grid.value(c.i, c.j))}`,
      `sentences ${this.page.info.sentence[c.i]}, ${this.page.info.sentence[c.j]}`]);
    placeTip(tip, c.x, c.y, c.w);
  }
}
