// The attention heatmap: the RGBA pixels computed in Rust (ParticleLab.heatmap_rgba) put into an
// ImageData, scaled up without smoothing; hovering reports the entry (i, j) under the pointer.

import { fitCanvas, theme } from '../render/palette.js';

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
    const report = (e) => {
      const cell = this.cellAt(e);
      onHover(cell);
    };
    canvas.addEventListener('pointermove', report);
    canvas.addEventListener('pointerdown', report);
    canvas.addEventListener('pointerleave', () => onHover(null));
  }

  /** Takes the current P from the stepper (pixels computed in Rust) and redraws. */
  update(stepper) {
    const side = stepper.heatmap_side(HEATMAP_MAX_SIDE);
    const rgba = stepper.heatmap_rgba_scaled(HEATMAP_MAX_SIDE, this.scale === 'one' ? 1 : 0);
    this.n = stepper.n();
    this.block = stepper.heatmap_block(HEATMAP_MAX_SIDE);
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
    ctx.drawImage(this.image, 0, 0, Math.round(w * dpr), Math.round(h * dpr));
  }

  /** The matrix entry under a pointer event, with the pointer's position in the canvas (CSS px). */
  cellAt(e) {
    if (!this.n) return null;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (x < 0 || y < 0 || x >= rect.width || y >= rect.height) return null;
    const j = Math.min(this.n - 1, Math.floor((x / rect.width) * this.n));
    const i = Math.min(this.n - 1, Math.floor((y / rect.height) * this.n));
    return { i, j, x, y, w: rect.width, h: rect.height };
  }
}
