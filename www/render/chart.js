// The metrics chart: drawn by the web crate with plotters onto the canvas (Stepper.draw_chart);
// this module sizes the canvas for the screen's pixel ratio and turns the pointer into a time
// for the hover readout.

import { fitCanvas, isDark } from './palette.js';

export class ChartView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(hover: {t: number, x: number, y: number, layout: object} | null) => void} onHover
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
      onHover({ t: L.t0 + u * (L.t1 - L.t0), x, y, w: rect.width, layout: L });
    };
    canvas.addEventListener('pointermove', report);
    canvas.addEventListener('pointerdown', report);
    canvas.addEventListener('pointerleave', () => onHover(null));
  }

  /** Redraws the stepper's metrics history; keeps the layout for hover mapping. */
  draw(stepper) {
    const { dpr } = fitCanvas(this.canvas);
    this.layout = stepper.draw_chart(this.canvas, dpr, isDark());
    return this.layout;
  }

  /** Canvas x (CSS px) of time t. */
  xOf(t) {
    const L = this.layout;
    if (!L || !(L.t1 > L.t0)) return null;
    return L.x0 + ((t - L.t0) / (L.t1 - L.t0)) * (L.x1 - L.x0);
  }
}
