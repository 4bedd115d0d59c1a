// A layers x heads grid of matrix heatmaps (the depth lab's context similarity, the model lab's
// attention and similarity; pixels computed by Rust, one `side x side` RGBA tile per layer and
// head, drawn with ImageData and scaled without smoothing) and the chosen head enlarged with its
// token labels. Click a tile to choose it; hover the enlarged head for S_ij. Drawing only.

import { probe } from '../ui/probe.js';
import { clearCanvas, drawLabel, setLabels } from './palette.js';

const LEFT = 30; // CSS px for the layer labels of the grid
const TOP = 16; // CSS px for the head labels

/** An offscreen canvas holding every tile at its own pixel size (rows: layers, columns: heads). */
function atlas(tiles) {
  const { side, pixels, layers, heads } = tiles;
  const c = document.createElement('canvas');
  c.width = Math.max(1, heads * side);
  c.height = Math.max(1, layers * side);
  const ctx = c.getContext('2d');
  const count = Math.min(layers * heads, Math.floor(pixels.length / (side * side * 4)));
  for (let k = 0; k < count; k++) {
    const img = new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset + k * side * side * 4, side * side * 4), side, side);
    ctx.putImageData(img, (k % heads) * side, Math.floor(k / heads) * side);
  }
  return c;
}

export class SimilarityGrid {
  /**
   * @param {HTMLCanvasElement} grid
   * @param {HTMLCanvasElement} zoom
   * @param {{ onPick: (layer: number, head: number) => void,
   *   onGridHover: (h: object|null) => void, onZoomHover: (h: object|null) => void }} h
   */
  constructor(grid, zoom, h) {
    this.grid = grid;
    this.zoom = zoom;
    this.tiles = null; // { variant, side, pixels, values, layers, heads, n }
    this.image = null;
    this.note = '';
    this.pick = { layer: 1, head: 0 };
    this.labels = [];
    this.geom = null;
    this.zgeom = null;
    const tileAt = (e) => {
      const g = this.geom;
      if (!g) return null;
      const r = grid.getBoundingClientRect();
      const x = e.clientX - r.left - g.x0;
      const y = e.clientY - r.top - g.y0;
      const head = Math.floor(x / g.cell);
      const layer = Math.floor(y / g.cell) + 1;
      if (x < 0 || y < 0 || head >= g.heads || layer > g.layers) return null;
      return { layer, head, x: e.clientX - r.left, y: e.clientY - r.top, w: r.width };
    };
    const pickAt = (e) => {
      const t = tileAt(e);
      if (t) h.onPick(t.layer, t.head);
    };
    grid.addEventListener('click', pickAt);
    probe(grid, {
      report: (e) => h.onGridHover(tileAt(e)),
      hide: () => h.onGridHover(null),
      step: () => (this.geom ? { dx: this.geom.cell, dy: this.geom.cell } : null),
      area: () => {
        const g = this.geom;
        return g ? { x0: g.x0, x1: g.x0 + g.heads * g.cell, y0: g.y0, y1: g.y0 + g.layers * g.cell } : null;
      },
      pick: pickAt,
      label: 'Heads by layer',
      cells: true,
    });
    const cellAt = (e) => {
      const g = this.zgeom;
      if (!g) return null;
      const r = zoom.getBoundingClientRect();
      const x = e.clientX - r.left - g.x0;
      const y = e.clientY - r.top - g.y0;
      const j = Math.floor(x / g.cell);
      const i = Math.floor(y / g.cell);
      if (x < 0 || y < 0 || i >= g.n || j >= g.n) return null;
      return { i, j, x: e.clientX - r.left, y: e.clientY - r.top, w: r.width };
    };
    probe(zoom, {
      report: (e) => h.onZoomHover(cellAt(e)),
      hide: () => h.onZoomHover(null),
      step: () => (this.zgeom ? { dx: this.zgeom.cell, dy: this.zgeom.cell } : null),
      area: () => {
        const g = this.zgeom;
        return g ? { x0: g.x0, x1: g.x0 + g.n * g.cell, y0: g.y0, y1: g.y0 + g.n * g.cell } : null;
      },
      label: 'The enlarged head',
      cells: true,
    });
  }

  /**
   * The tiles to show (or null while none is ready, with `note` saying why). New tiles are
   * copied into an atlas canvas once and their pixel array is released (the atlas holds them).
   */
  set(tiles, labels, note = 'computing…') {
    this.labels = labels;
    this.note = note;
    if (tiles !== this.tiles) {
      this.image = tiles ? atlas(tiles) : null;
      if (tiles) tiles.pixels = null;
      this.tiles = tiles;
    }
    if (tiles) {
      this.pick.layer = Math.min(Math.max(1, this.pick.layer), tiles.layers);
      this.pick.head = Math.min(this.pick.head, tiles.heads - 1);
    }
  }

  choose(layer, head) {
    this.pick = { layer, head };
  }

  /** S_ij of the chosen head (NaN when unknown). */
  value(i, j) {
    const t = this.tiles;
    if (!t) return NaN;
    const k = (this.pick.layer - 1) * t.heads + this.pick.head;
    return t.values[k * t.n * t.n + i * t.n + j] ?? NaN;
  }

  draw() {
    this.drawGrid();
    this.drawZoom();
  }

  drawGrid() {
    const ctx = this.grid.getContext('2d');
    const { w, h, th } = clearCanvas(this.grid, ctx);
    ctx.font = '11px sans-serif';
    ctx.fillStyle = th.muted;
    const t = this.tiles;
    const drawn = []; // the texts' boxes (data-labels)
    if (!t || !this.image) {
      ctx.textAlign = 'center';
      drawLabel(ctx, this.note ?? 'computing…', w / 2, h / 2, drawn);
      setLabels(this.grid, { labels: drawn });
      this.geom = null;
      return;
    }
    const cell = Math.max(2, Math.min((w - LEFT) / t.heads, (h - TOP) / t.layers));
    const gap = cell >= 12 ? 1 : 0;
    const x0 = LEFT;
    const y0 = TOP;
    this.geom = { x0, y0, cell, layers: t.layers, heads: t.heads };
    ctx.imageSmoothingEnabled = false;
    for (let l = 0; l < t.layers; l++) {
      for (let hh = 0; hh < t.heads; hh++) {
        ctx.drawImage(this.image, hh * t.side, l * t.side, t.side, t.side,
          x0 + hh * cell + gap, y0 + l * cell + gap, cell - 2 * gap, cell - 2 * gap);
      }
    }
    // Labels: layers down the left, heads along the top (thinned when cells are small).
    const every = Math.max(1, Math.ceil(14 / cell));
    ctx.fillStyle = th.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let l = 0; l < t.layers; l++) {
      if (l % every === 0 || l === t.layers - 1) drawLabel(ctx, `L${l + 1}`, x0 - 4, y0 + (l + 0.5) * cell, drawn);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    for (let hh = 0; hh < t.heads; hh++) {
      if (hh % Math.max(1, Math.ceil(22 / cell)) === 0) drawLabel(ctx, `h${hh}`, x0 + (hh + 0.5) * cell, y0 - 2, drawn);
    }
    setLabels(this.grid, { labels: drawn });
    // The chosen head.
    ctx.strokeStyle = th.fg;
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 + this.pick.head * cell + 1, y0 + (this.pick.layer - 1) * cell + 1, cell - 2, cell - 2);
  }

  drawZoom() {
    const ctx = this.zoom.getContext('2d');
    const { w, h, th } = clearCanvas(this.zoom, ctx);
    const t = this.tiles;
    const drawn = []; // the texts' boxes (data-labels)
    if (!t || !this.image) {
      setLabels(this.zoom, { labels: drawn });
      this.zgeom = null;
      return;
    }
    const n = t.n;
    const labels = this.labels;
    const longest = labels.reduce((m, s) => Math.max(m, String(s).length), 1);
    const margin = Math.min(90, 10 + 6 * Math.min(longest, 12));
    const top = 20;
    const size = Math.max(10, Math.min(w - margin - 4, h - margin - top));
    const cell = size / n;
    const x0 = margin;
    const y0 = top;
    this.zgeom = { x0, y0, cell, n };
    ctx.imageSmoothingEnabled = false;
    const k = (this.pick.layer - 1) * t.heads + this.pick.head;
    ctx.drawImage(this.image, (k % t.heads) * t.side, Math.floor(k / t.heads) * t.side, t.side, t.side, x0, y0, size, size);
    ctx.fillStyle = th.fg;
    ctx.font = '12px sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    drawLabel(ctx, `layer ${this.pick.layer}, head ${this.pick.head} (${t.variant})`, x0, top - 4, drawn);
    // Token labels: rows on the left, columns below (rotated), at 11 px, thinned to fit.
    const font = 11;
    ctx.font = `${font}px sans-serif`;
    ctx.fillStyle = th.muted;
    const every = Math.max(1, Math.ceil((font + 1) / cell));
    const short = (s) => (s.length > 12 ? `${s.slice(0, 11)}…` : s);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < n; i += every) drawLabel(ctx, short(String(labels[i] ?? i)), x0 - 3, y0 + (i + 0.5) * cell, drawn);
    ctx.save();
    ctx.translate(x0, y0 + size + 3);
    ctx.rotate(-Math.PI / 2);
    for (let j = 0; j < n; j += every) {
      const text = short(String(labels[j] ?? j));
      ctx.fillText(text, 0, (j + 0.5) * cell);
      // Its ink box, turned a quarter to the left: it reads upwards from under column j.
      const m = ctx.measureText(text);
      const [a, d] = [m.actualBoundingBoxAscent, m.actualBoundingBoxDescent];
      drawn.push({ text, x: x0 + (j + 0.5) * cell - a, y: y0 + size + 3 - m.actualBoundingBoxRight, w: a + d, h: m.actualBoundingBoxLeft + m.actualBoundingBoxRight });
    }
    ctx.restore();
    setLabels(this.zoom, { labels: drawn });
  }
}
