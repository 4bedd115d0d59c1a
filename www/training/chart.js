// The training chart (loss, distinct-token entropy, max |Δc| against iteration): drawn by the
// web crate with plotters (TrainingLab.draw_chart); this module sizes the canvas for the screen's
// pixel ratio and turns the pointer into an iteration for the hover readout.

import { fitCanvas, isDark } from '../render/palette.js';

export class TrainingChart {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(hover: {iteration: number, x: number, y: number, w: number} | null) => void} onHover
   */
  constructor(canvas, onHover) {
    this.canvas = canvas;
    this.layout = null;
    const report = (e) => {
      const rect = canvas.getBoundingClientRect();
      const x = e.clientX - rect.left;
      const y = e.clientY - rect.top;
      const L = this.layout;
      if (!L || !(L.x1 > L.x0) || x < L.x0 - 4 || x > L.x1 + 4) {
        onHover(null);
        return;
      }
      const u = Math.max(0, Math.min(1, (x - L.x0) / (L.x1 - L.x0)));
      onHover({ iteration: Math.round(L.i0 + u * (L.i1 - L.i0)), x, y, w: rect.width });
    };
    canvas.addEventListener('pointermove', report);
    canvas.addEventListener('pointerdown', report);
    canvas.addEventListener('pointerleave', () => onHover(null));
  }

  /** Redraws the run's record; keeps the layout for hover mapping. */
  draw(lab) {
    const { dpr } = fitCanvas(this.canvas);
    this.layout = lab.draw_chart(this.canvas, dpr, isDark());
    return this.layout;
  }

  /** Canvas x (CSS px) of iteration i. */
  xOf(i) {
    const L = this.layout;
    if (!L || !(L.i1 > L.i0)) return null;
    return L.x0 + ((i - L.i0) / (L.i1 - L.i0)) * (L.x1 - L.x0);
  }
}
