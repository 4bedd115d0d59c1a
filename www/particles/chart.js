// The metrics chart: drawn by the web crate with plotters onto the canvas (ParticleLab.draw_chart);
// PlotChart sizes the canvas for the screen's pixel ratio and turns the pointer into a time for
// the hover readout.

import { PlotChart } from '../render/plot_chart.js';

export class ChartView extends PlotChart {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(hover: {t: number, x: number, y: number, w: number, layout: object} | null) => void} onHover
   */
  constructor(canvas, onHover) {
    super(canvas, onHover, (L, u, at) => ({ t: L.start + u * (L.end - L.start), ...at, layout: L }));
    /** A click on the plot picks a time (the timeline jumps there): set by particles/timeline.js. */
    this.onPick = null;
    canvas.addEventListener('click', (e) => {
      const L = this.layout;
      if (!this.onPick || !L || !(L.x1 > L.x0)) return;
      const x = e.clientX - canvas.getBoundingClientRect().left;
      if (x < L.x0 - 4 || x > L.x1 + 4) return;
      const u = Math.max(0, Math.min(1, (x - L.x0) / (L.x1 - L.x0)));
      this.onPick(L.start + u * (L.end - L.start));
    });
  }
}
