// The training chart (loss, distinct-token entropy, max |Δc| against iteration): drawn by the
// web crate with plotters (TrainingLab.draw_chart); PlotChart sizes the canvas for the screen's
// pixel ratio and turns the pointer into an iteration for the hover readout.

import { PlotChart } from '../render/plot_chart.js';

export class TrainingChart extends PlotChart {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(hover: {iteration: number, x: number, y: number, w: number} | null) => void} onHover
   */
  constructor(canvas, onHover) {
    super(canvas, onHover, (L, u, at) => ({ iteration: Math.round(L.start + u * (L.end - L.start)), ...at }));
  }
}
