// The particle lab's hover readouts: the heatmap's entry under the pointer (and the pair of
// tokens it joins, ringed in the token view) and the metrics chart's sample nearest the pointer.

import { placeTip, tipLines } from '../ui/tip.js';
import { fmtT, fmtValue } from './format.js';
import { $, app, ui } from './state.js';

export function showHeatTip(cell) {
  const tip = $('heatmap-tip');
  if (!cell || !app.stepper) {
    tip.hidden = true;
    return;
  }
  // The value of the matrix on screen (never recomputed on hover).
  const v = app.stepper.p_value(cell.i, cell.j);
  const name = app.stepper.model() === 'sphere-usa' ? 'W row-normalised' : 'P';
  const at = app.stepper.p_step();
  const lines = [`(i, j) = (${cell.i}, ${cell.j})`, `${name}[${cell.i}, ${cell.j}] = ${String(v)}`, `query token i = ${cell.i}, key token j = ${cell.j}`];
  if (at !== app.stepper.step_count()) lines.push(`(as drawn, at step ${at})`);
  tipLines(tip, lines);
  placeTip(tip, cell.x, cell.y, cell.w);
}

export function onHeatHover(cell) {
  app.heatHover = cell;
  ui.tokens.highlight = cell ? [cell.i, cell.j] : null;
  app.needs.draw = true;
  showHeatTip(cell);
  ui.loop.wake(); // the next frame draws the ring (app.needs.draw)
}

export function showChartTip(h) {
  const tip = $('chart-tip');
  const cursor = $('chart-cursor');
  const sample = h && app.stepper ? app.stepper.history_near(h.t) : null;
  if (!sample) {
    tip.hidden = true;
    cursor.hidden = true;
    return;
  }
  const x = ui.chart.xOf(sample.t);
  if (x !== null) {
    cursor.style.left = `${x}px`;
    cursor.hidden = false;
  }
  tipLines(tip, [
    `t = ${fmtT(sample.t, app.stepper.dt())} (step ${sample.step})`,
    ...(sample.hyperplanes === null || sample.hyperplanes === undefined ? [] : [`hyperplanes: ${sample.hyperplanes}`]),
    `clusters: ${sample.clusters}`,
    `Boolean distance: ${fmtValue(sample.boolean_distance)}`,
    `effective rank: ${fmtValue(sample.effective_rank)}`,
    // The energy row exists only where the energy is defined (the chart draws no row otherwise).
    ...(sample.energy === null ? [] : [`energy: ${fmtValue(sample.energy)}`]),
  ]);
  placeTip(tip, h.x, h.y, h.w);
}

export function onChartHover(h) {
  app.chartHover = h;
  showChartTip(h);
}
