// The c_n heatmap: one row per iteration (state after i SGD steps, newest at the bottom;
// scrolling once the run has more rows than fit), one column per token of each shown class,
// in blocks (common, then distinct ordered by co-occurrence weight) separated by gaps and
// labelled. Pixels come from Rust (TrainingLab.heatmap_rgba); labels are drawn here.

import { probe } from '../ui/probe.js';
import { clearCanvas, drawLabel, fitCanvas, isDark, niceTicks, setLabels, tickLabel } from '../render/palette.js';

const MARGIN = { left: 42, top: 36, right: 6, bottom: 4 };
const MIN_ROW_PX = 2; // CSS px per iteration row before the view starts scrolling
const GAP_BLOCK = 3; // CSS px between a class's common and distinct blocks
const GAP_CLASS = 12; // CSS px between classes

export class CnHeatmap {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(cell: object|null) => void} onHover
   */
  constructor(canvas, onHover) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.image = document.createElement('canvas');
    this.imageCtx = this.image.getContext('2d');
    this.layout = null;
    this.labels = [];
    this.view = null; // what is on screen: { first, rows, windowRows, states, rowH, top, xs, colW }
    probe(canvas, {
      report: (e) => onHover(this.cellAt(e)),
      hide: () => onHover(null),
      step: () => (this.view && this.view.xs ? { dx: this.view.colW, dy: this.view.rowH } : null),
      area: () => {
        const v = this.view;
        if (!v || !v.xs) return null;
        const w = this.canvas.getBoundingClientRect().width;
        return { x0: MARGIN.left, x1: w - MARGIN.right, y0: v.top, y1: v.top + v.rows * v.rowH };
      },
      label: 'Attention of the query on each token over training',
      cells: true,
    });
  }

  /** A new run: its column layout (TrainingLab.heatmap_layout) and token labels. */
  configure(layout, labels) {
    this.layout = layout;
    this.labels = labels;
    this.view = null;
  }

  /** Takes the visible rows from the run (pixels computed in Rust) and redraws. */
  update(lab) {
    const { h } = fitCanvas(this.canvas);
    const plotH = Math.max(1, h - MARGIN.top - MARGIN.bottom);
    const states = lab.iteration() + 1;
    const total = Math.max(lab.iterations() + 1, states);
    const fit = Math.max(1, Math.floor(plotH / MIN_ROW_PX));
    const windowRows = Math.min(total, fit);
    const first = Math.max(0, states - windowRows);
    const rows = states - first;
    const cols = lab.heatmap_columns();
    if (cols > 0 && rows > 0) {
      if (this.image.width !== cols) this.image.width = cols;
      if (this.image.height !== rows) this.image.height = rows;
      this.imageCtx.putImageData(new ImageData(lab.heatmap_rgba(first, rows), cols, rows), 0, 0);
    }
    this.view = { first, rows, windowRows, states, snap: lab.snap(), snapFinal: lab.snap_is_final(), lab };
    this.draw();
  }

  /** Column x positions (CSS px) for the plot width: blocks separated by gaps. */
  geometry(w) {
    const blocks = this.layout.blocks;
    const cols = this.layout.columns.length;
    let gaps = 0;
    for (let b = 1; b < blocks.length; b++) gaps += blocks[b].slot === blocks[b - 1].slot ? GAP_BLOCK : GAP_CLASS;
    const plotW = Math.max(1, w - MARGIN.left - MARGIN.right);
    const colW = Math.max(0.2, (plotW - gaps) / Math.max(1, cols));
    const xs = []; // left edge of each block
    let x = MARGIN.left;
    for (let b = 0; b < blocks.length; b++) {
      if (b > 0) x += blocks[b].slot === blocks[b - 1].slot ? GAP_BLOCK : GAP_CLASS;
      xs.push(x);
      x += (blocks[b].end - blocks[b].start) * colW;
    }
    return { xs, colW };
  }

  draw() {
    const ctx = this.ctx;
    const { w, h, th } = clearCanvas(this.canvas, ctx);
    const v = this.view;
    const drawn = []; // the texts' boxes (data-labels)
    if (!this.layout || !v || !this.layout.blocks.length) {
      setLabels(this.canvas, { labels: drawn });
      return;
    }
    const blocks = this.layout.blocks;
    const plotH = Math.max(1, h - MARGIN.top - MARGIN.bottom);
    const rowH = plotH / v.windowRows;
    const top = MARGIN.top;
    const { xs, colW } = this.geometry(w);
    Object.assign(v, { rowH, top, xs, colW, w, h });

    // Empty frames where the coming iterations will go.
    ctx.strokeStyle = th.border;
    ctx.lineWidth = 1;
    for (let b = 0; b < blocks.length; b++) {
      const bw = (blocks[b].end - blocks[b].start) * colW;
      ctx.strokeRect(Math.round(xs[b]) + 0.5, top + 0.5, Math.max(1, Math.round(bw) - 1), Math.round(plotH) - 1);
    }
    // The rows recorded so far.
    ctx.imageSmoothingEnabled = false;
    for (let b = 0; b < blocks.length; b++) {
      const { start, end } = blocks[b];
      if (v.rows > 0) ctx.drawImage(this.image, start, 0, end - start, v.rows, xs[b], top, (end - start) * colW, v.rows * rowH);
    }

    // Labels: the class (query → next) over its blocks, then each block's kind.
    ctx.fillStyle = th.fg;
    ctx.textBaseline = 'alphabetic';
    const font = (px, weight = '') => `${weight} ${px}px system-ui, sans-serif`.trim();
    const classes = this.layout.classes;
    for (const [slot, cls] of classes.entries()) {
      const own = blocks.map((b, i) => [b, i]).filter(([b]) => b.slot === slot);
      if (!own.length) continue;
      const x0 = xs[own[0][1]];
      const last = own[own.length - 1];
      const x1 = xs[last[1]] + (last[0].end - last[0].start) * colW;
      ctx.font = font(12, '600');
      ctx.textAlign = 'center';
      fitText(ctx, [`class ${cls.query_label} → ${cls.next_label}`, `${cls.query_label}→${cls.next_label}`], (x0 + x1) / 2, 13, x1 - x0, drawn);
      ctx.strokeStyle = th.muted;
      ctx.beginPath();
      ctx.moveTo(x0, 17.5);
      ctx.lineTo(x1, 17.5);
      ctx.stroke();
    }
    ctx.font = font(11);
    ctx.fillStyle = th.muted;
    for (let b = 0; b < blocks.length; b++) {
      const blk = blocks[b];
      const bw = (blk.end - blk.start) * colW;
      const n = blk.end - blk.start;
      const names = blk.kind === 'common'
        ? [`common (${n})`, 'common', 'com.', 'c']
        : [`distinct (${n}), weight ↓`, `distinct, weight ↓`, 'distinct ↓', 'dist.', 'd'];
      fitText(ctx, names, xs[b] + bw / 2, 31, bw + (b + 1 < blocks.length ? GAP_BLOCK : 0), drawn);
    }

    // Iteration axis.
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = th.muted;
    ctx.font = font(11);
    const lastRow = v.first + v.windowRows - 1;
    for (const it of niceTicks(v.first, lastRow, Math.max(2, Math.floor(plotH / 40)))) {
      if (!Number.isInteger(it)) continue;
      const y = top + (it - v.first + 0.5) * rowH;
      drawLabel(ctx, tickLabel(it), MARGIN.left - 6, y, drawn);
      ctx.fillRect(MARGIN.left - 4, Math.round(y), 3, 1);
    }
    ctx.textBaseline = 'alphabetic';
    drawLabel(ctx, 'iter. ↓', MARGIN.left - 4, 26, drawn);

    // The snap iteration: a dashed line at the top of its row.
    if (v.snap >= v.first && v.snap <= lastRow) {
      const y = Math.round(top + (v.snap - v.first) * rowH) + 0.5;
      const colour = isDark() ? '#e69f00' : '#d55e00';
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 4]);
      ctx.beginPath();
      ctx.moveTo(MARGIN.left, y);
      ctx.lineTo(w - MARGIN.right, y);
      ctx.stroke();
      ctx.setLineDash([]);
      const text = `${v.snapFinal ? 'snap' : 'snap (so far)'}: ${v.snap}`;
      ctx.font = font(11, '600');
      ctx.textAlign = 'right';
      ctx.textBaseline = 'bottom';
      const tw = ctx.measureText(text).width;
      ctx.fillStyle = th.panel;
      ctx.globalAlpha = 0.85;
      ctx.fillRect(w - MARGIN.right - tw - 6, y - 15, tw + 6, 14);
      ctx.globalAlpha = 1;
      ctx.fillStyle = colour;
      drawLabel(ctx, text, w - MARGIN.right - 3, y - 2, drawn);
    }
    setLabels(this.canvas, { labels: drawn });
  }

  /** The (iteration, column) under a pointer event, or null. */
  cellAt(e) {
    const v = this.view;
    if (!v || !v.xs || !this.layout) return null;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    const row = Math.floor((y - v.top) / v.rowH);
    if (row < 0 || row >= v.rows) return null;
    const blocks = this.layout.blocks;
    for (let b = 0; b < blocks.length; b++) {
      const { start, end } = blocks[b];
      const j = Math.floor((x - v.xs[b]) / v.colW);
      if (j >= 0 && j < end - start) {
        const column = start + j;
        const col = this.layout.columns[column];
        const cls = this.layout.classes[col.slot];
        return {
          iteration: v.first + row,
          column,
          token: col.token,
          label: this.labels[col.token] ?? String(col.token),
          kind: blocks[b].kind,
          p: col.p,
          classLabel: `${cls.query_label} → ${cls.next_label}`,
          x,
          y,
          w: rect.width,
        };
      }
    }
    return null;
  }
}

/** Draws the first of `texts` that fits in `width` CSS px (none if none fits), its box in `out`. */
function fitText(ctx, texts, x, y, width, out) {
  for (const t of texts) {
    if (ctx.measureText(t).width <= width - 2) {
      drawLabel(ctx, t, x, y, out);
      return;
    }
  }
}
