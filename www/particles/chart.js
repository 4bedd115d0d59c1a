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
  }
}
