// The attention heatmap: the RGBA pixels computed in Rust (ParticleLab.heatmap_rgba) put into an
// ImageData, scaled up without smoothing, in the order the view key `order` asks for (by
// cluster, by leader, or token index; computed in Rust), with thin lines between the order's
// groups; hovering reports the tokens (i, j) of the entry under the pointer.

import { fitCanvas, theme } from '../render/palette.js';
import { probe } from '../ui/probe.js';
import { drawColumnMarks } from './overlays.js';

/** Largest heatmap image side in pixels (larger P are downsampled in Rust). */
export const HEATMAP_MAX_SIDE = 512;

export class HeatmapView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(cell: {i: number, j: number, x: number, y: number} | null) => void} onHover
   */
  constructor(canvas, onHover) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.image = document.createElement('canvas');
    this.imageCtx = this.image.getContext('2d');
    this.n = 0;
    this.hasImage = false;
    this.scale = 'one'; // colour scale: 'one' (0..1, fixed) or 'max' (0..max P)
    this.order = 'cluster'; // row and column order: 'cluster', 'leader' or 'index'
    this.perm = null; // position -> token of the image shown
    this.starts = []; // positions where a group starts
    this.marks = null; // tokens whose columns are outlined (the overlay `leaders`, 1-D runs)
    probe(canvas, {
      report: (e) => onHover(this.cellAt(e)),
      hide: () => onHover(null),
      step: () => (this.n ? { dx: canvas.getBoundingClientRect().width / this.n, dy: canvas.getBoundingClientRect().height / this.n } : null),
      label: 'Attention matrix P',
      cells: true,
    });
  }

  /**
   * Takes the current P from the stepper (pixels computed in Rust) and redraws; with `analysed`,
   * the view of the state the workers last analysed (ParticleLab.analysed_heatmap_rgba).
   */
  update(stepper, analysed = false) {
    const side = stepper.heatmap_side(HEATMAP_MAX_SIDE);
    const top = this.scale === 'one' ? 1 : 0;
    const rgba = analysed ? stepper.analysed_heatmap_rgba(HEATMAP_MAX_SIDE, top) : stepper.heatmap_rgba_scaled(HEATMAP_MAX_SIDE, top);
    this.n = stepper.n();
    this.block = stepper.heatmap_block(HEATMAP_MAX_SIDE);
    this.perm = stepper.heatmap_perm();
    this.starts = Array.from(stepper.heatmap_starts());
    if (this.image.width !== side) this.image.width = side;
    if (this.image.height !== side) this.image.height = side;
    this.imageCtx.putImageData(new ImageData(rgba, side, side), 0, 0);
    this.hasImage = true;
    this.draw();
  }

  clear() {
    this.hasImage = false;
    this.draw();
  }

  draw() {
    const { w, h, dpr } = fitCanvas(this.canvas);
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = theme().panel;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.hasImage) return;
    ctx.imageSmoothingEnabled = false;
    const W = Math.round(w * dpr);
    const H = Math.round(h * dpr);
    ctx.drawImage(this.image, 0, 0, W, H);
    // Separators between the order's groups (a group narrower than a pixel gets none).
    if (this.starts.length && this.starts.length < this.n / 2) {
      ctx.fillStyle = theme().panel;
      const line = Math.max(1, Math.round(dpr));
      for (const a of this.starts) {
        const x = Math.round((a / this.n) * W);
        const y = Math.round((a / this.n) * H);
        ctx.fillRect(x - (line >> 1), 0, line, H);
        ctx.fillRect(0, y - (line >> 1), W, line);
      }
    }
    drawColumnMarks(this, ctx, W, H, dpr);
  }

  /** The matrix entry under a pointer event, with the pointer's position in the canvas (CSS px). */
  cellAt(e) {
    if (!this.n) return null;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (x < 0 || y < 0 || x >= rect.width || y >= rect.height) return null;
    const b = Math.min(this.n - 1, Math.floor((x / rect.width) * this.n));
    const a = Math.min(this.n - 1, Math.floor((y / rect.height) * this.n));
    // Positions to tokens: the image is in the order's permutation.
    const token = (pos) => (this.perm && this.perm.length === this.n ? this.perm[pos] : pos);
    return { i: token(a), j: token(b), x, y, w: rect.width, h: rect.height };
  }
}
