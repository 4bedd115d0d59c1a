// A chart drawn by the web crate with plotters (`source.draw_chart(canvas, dpr, colours)`, which
// returns the one chart layout of the web crate's charts/layout.rs: `{ x0, x1, start, end,
// panels, plot, legend, labels }`, CSS px): sizes the canvas for the screen's pixel ratio and
// maps the pointer along the x axis (value `start` at `x0`, `end` at `x1`) for hover readouts and
// clicks (`onPick`: a timeline jumps to the value clicked).
// The particle and training charts extend it.

import { probe } from '../ui/probe.js';
import { fitCanvas, chartColours, setLabels } from './palette.js';

export class PlotChart {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(hover: object | null) => void} onHover gets `hoverAt`'s result or null off the plot
   * @param {(L: object, u: number, at: {x: number, y: number, w: number}) => object} hoverAt
   *   the hover for the pointer at fraction `u` of the x axis
   */
  constructor(canvas, onHover, hoverAt) {
    this.canvas = canvas;
    /** @type {ChartLayout|null} */
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
      onHover(hoverAt(L, u, { x, y, w: rect.width }));
    };
    /** A click on the plot picks an x value (a timeline jumps there); set by the lab. */
    this.onPick = null;
    const pick = (e) => {
      const L = this.layout;
      if (!this.onPick || !L || !(L.x1 > L.x0)) return;
      const x = e.clientX - canvas.getBoundingClientRect().left;
      if (x < L.x0 - 4 || x > L.x1 + 4) return;
      const u = Math.max(0, Math.min(1, (x - L.x0) / (L.x1 - L.x0)));
      this.onPick(L.start + u * (L.end - L.start));
    };
    canvas.addEventListener('click', pick);
    probe(canvas, {
      report,
      hide: () => onHover(null),
      step: () => {
        const L = this.layout;
        return L && L.x1 > L.x0 ? { dx: (L.x1 - L.x0) / 100, dy: 0 } : null;
      },
      area: () => {
        const L = this.layout;
        return L && L.x1 > L.x0 ? { x0: L.x0, x1: L.x1, y0: 0, y1: canvas.getBoundingClientRect().height } : null;
      },
      pick,
      label: canvas.getAttribute('aria-label') || 'Chart',
    });
  }

  /** Redraws `source`'s chart; keeps the layout for hover mapping; the texts it drew go to the
   * canvas's `data-labels` attribute. */
  draw(source) {
    const { dpr } = fitCanvas(this.canvas);
    this.layout = source.draw_chart(this.canvas, dpr, chartColours());
    setLabels(this.canvas, this.layout);
    return this.layout;
  }

  /** Canvas x (CSS px) of x-axis value v. */
  xOf(v) {
    const L = this.layout;
    if (!L || !(L.end > L.start)) return null;
    return L.x0 + ((v - L.start) / (L.end - L.start)) * (L.x1 - L.x0);
  }
}
