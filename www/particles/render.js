// Drawing the particle lab's panels at a cadence that fits their cost: the tokens every frame;
// the metrics (O(n² d): the chart's samples, cluster colours, leaders) and the heatmap every
// frame when cheap, else at most every ~8 times their cost (~16 times while the worker pool
// computes them) and never both in one frame; the
// metrics chart a few times a second while playing; and the status line. A run stepped by the
// worker pool while playing has its analyses computed by the workers during the first stage of a
// step (it sees the state drawn): a frame only asks for them (`wantAnalyses`)
// and `showAnalysed` shows them when they land, before that step completes.

import { FRAME_BUDGET_MS } from '../lab/run_loop.js';
import { firstPicture } from '../lab/marks.js';
import { fmtT, fmtValue } from './format.js';
import { showChartTip, showHeatTip } from './hover.js';
import { overlayMetrics } from './overlays.js';
import { usesPool } from './pool_run.js';
import { recordState, viewTokens } from './sample.js';
import { runHistory } from './history.js';
import { placeChartNow } from './timeline.js';
import { $, app, setText, ui } from './state.js';

const CHART_INTERVAL_MS = 200; // chart redraws while playing
// Status line and timeline writes while a pooled run plays: each change of their text costs the
// page a style, layout and paint pass (at n = 4096 the steps come 20-25 times a second), time the
// two workers need on a 2-core machine.
const STATUS_INTERVAL_MS = 250;
// A pooled run's new tokens while it plays: drawn at most every STEP_DRAW_FACTOR times the token
// view's drawing time (its script time, `app.drawCost`; rasterising and compositing the canvas
// cost the page's other threads about as much again: at n = 4096 a draw is ~3.5 ms of script and
// ~8 ms in all, a Chromium trace), and at least every STEP_DRAW_MAX_MS. The steps come 25-100
// times a second there, and each draw takes CPU the two workers need on a 2-core machine.
const STEP_DRAW_FACTOR = 20;
const STEP_DRAW_MAX_MS = 100;

/** Renders everything now (first frame, reset, single steps, pauses). */
export function renderNow() {
  render(performance.now(), true);
}

// Costly analyses come at most every METRICS_FACTOR times their cost: on this thread, about an
// eighth of the page's time. A pooled run's analyses delay every worker's stage (their cost counts
// the time they added to it, `showAnalysed`) and share the two cores with the workers, so they
// come half as often: at the bench link (n = 4096) each costs ~100 ms (workers ~40, this thread
// ~64: the effective rank's Gram matrix and eigenvalues ~48, the heatmap ~9), and every ~1.6 s
// instead of ~0.9 s the page ran 29.0-29.5 steps/s instead of 27.2-27.7 (3 interleaved runs each).
const METRICS_FACTOR = 8;
const POOL_METRICS_FACTOR = 16;

/** Cheap metrics are taken every frame; costly ones (O(n^2 d)) at most every METRICS_FACTOR
 * (POOL_METRICS_FACTOR while the workers analyse) times their cost. */
function metricsInterval() {
  const factor = analysedByPool(false) ? POOL_METRICS_FACTOR : METRICS_FACTOR;
  return app.metricsCost < 3 ? 0 : Math.max(150, factor * app.metricsCost);
}

/**
 * Computes the metrics of the state shown and keeps them: the chart's history (the wasm run's),
 * the exports' and timeline's record (history.js), the cluster colours, the leaders and the
 * overlays' centres. The one place this thread measures a state: a frame's metrics, an in-frame
 * sample and a seek's sample all come here. Returns false when they cannot be computed.
 */
export function measure() {
  const s = app.stepper;
  try {
    app.metrics = s.metrics();
    app.metricsBy = 'page';
    recordState(app.metrics);
    ui.tokens.setStyle(s.colour_slots(), s.leaders());
    overlayMetrics();
    return true;
  } catch {
    // P cannot be computed at this state (the divergence message says why): it is the run's last
    // good state, the one shown, and the exports keep it (tokens, no metrics, as `attn run`).
    app.metrics = null;
    recordState(null);
    return false;
  }
}

/** Computes the metrics when due; returns whether they were computed. */
export function updateMetrics(now, force) {
  const s = app.stepper;
  if (!force && now - app.lastMetricsAt < metricsInterval()) return false;
  const step = s.step_count();
  if (app.metricsBy === 'page' && app.metrics?.step === step && s.metrics_step() === step) {
    // This step's sample was just taken (a frame that ended on a sample step, a seek's last
    // step): the same numbers again would cost the same time; the colours and overlays follow.
    ui.tokens.setStyle(s.colour_slots(), s.leaders());
    overlayMetrics();
  } else {
    const t0 = performance.now();
    measure();
    app.metricsCost = performance.now() - t0;
  }
  app.lastMetricsAt = now;
  app.needs.metrics = false;
  app.needs.chart = true;
  app.needs.draw = true;
  return true;
}

/** Whether the workers compute the analyses of this frame: a pooled run playing, not forced. */
function analysedByPool(force) {
  return !force && ui.loop.playing && usesPool(app.stepper);
}

/** The pool's analyses (Pool.step's `analyses`): asked by a frame, shown when they land. */
export const poolAnalyses = {
  spec(s) {
    if (s !== app.stepper || !app.analysesWanted) return null;
    app.analysesWanted = false;
    const t0 = performance.now();
    app.lastMetricsAt = t0; // frames do not ask again while these are computed
    const spec = s.analysis_spec();
    app.specCost = performance.now() - t0;
    return spec;
  },
  take: (s, partials, workerMs) => showAnalysed(s, partials, workerMs),
};

/**
 * Shows the workers' analyses of the state `s` holds (the step they came with has not completed
 * yet): now the tokens of that state, their cluster colours and the heatmap when the workers made
 * its view (ParticleLab.supply_analyses); returned for later (Pool.step runs it while the workers
 * compute the next stage), the metrics with the effective rank's Gram matrix
 * (ParticleLab.finish_analyses, the bits of ParticleLab.metrics) and the state's record.
 */
function showAnalysed(s, partials, workerMs = 0) {
  if (s !== app.stepper) return null;
  const now = performance.now();
  let supplied = true;
  try {
    s.supply_analyses(partials);
  } catch (e) {
    console.warn(e);
    supplied = false;
  }
  const step = s.step_count();
  const t = s.t();
  const tokens = s.tokens(s.coords());
  const state = app.stateShown ? null : s.state();
  const ids = s.identity_state();
  ui.tokens.push(step, t, viewTokens());
  ui.tokens.setStyle(s.colour_slots(), s.leaders());
  overlayMetrics();
  Object.assign(app.needs, { data: false, draw: true, metrics: false });
  app.lastStepDrawAt = now; // the next frame draws this state with its analyses
  // The heatmap's pixels are computed from the view the workers made, once they have the next
  // stage (below): not while they wait for it.
  const heatPooled = supplied && s.pool_heatmap();
  // The analyses' cost counts the time they added to the workers' stage (they delay every step
  // they ride on) besides this thread's share, so their cadence (metricsInterval) keeps them at
  // about a sixteenth of the pool's time.
  let cost = app.specCost + (performance.now() - now) + (Number.isFinite(workerMs) ? workerMs : 0);
  return () => {
    if (s !== app.stepper) return;
    const t0 = performance.now();
    if (heatPooled) updateHeatmap(now, true, true);
    let m = null;
    try {
      if (supplied) m = s.finish_analyses();
    } catch (e) {
      console.warn(e);
    }
    app.metrics = m;
    app.metricsBy = 'workers';
    runHistory.record(step, t, () => tokens, m, state && (() => state), () => ids);
    app.needs.chart = true;
    cost += performance.now() - t0;
    app.metricsCost = cost;
    app.lastMetricsAt = now;
  };
}

/** The heatmap follows every frame when cheap, else at most every ~8 times its cost. */
function heatInterval() {
  return app.heatCost < 2 ? 0 : Math.max(150, 8 * app.heatCost);
}

/** Whether costly analyses are due this frame (then the frame does not also step). */
export function heavyAnalysesDue(now) {
  if (app.metricsCost + app.heatCost <= FRAME_BUDGET_MS) return false;
  return (app.needs.metrics && now - app.lastMetricsAt >= metricsInterval())
    || (app.needs.heat && now - app.lastHeatAt >= heatInterval());
}

/** Draws the heatmap when due (`analysed`: the workers' view of the state they last analysed). */
function updateHeatmap(now, force, analysed = false) {
  if (!force && now - app.lastHeatAt < heatInterval()) return;
  const t0 = performance.now();
  try {
    const s = app.stepper;
    ui.heatmap.update(s, analysed);
    $('heatmap-max').textContent = `(max P = ${fmtValue(analysed ? s.analysed_p_max() : s.p_max())})`;
  } catch {
    // keep the last picture
  }
  app.heatCost = performance.now() - t0;
  app.lastHeatAt = now;
  app.needs.heat = false;
  if (app.heatHover) showHeatTip(app.heatHover);
}

export function render(now, force, tokensOnly = false) {
  const s = app.stepper;
  if (!s) return;
  const settled = force || !ui.loop.playing;
  if (tokensOnly) {
    ui.tokens.push(s.step_count(), s.t(), viewTokens());
    ui.tokens.draw();
    firstPicture('particles');
    ui.heatmap.clear();
    app.needs.data = false;
    updateStatus(now, settled);
    return;
  }
  if (app.needs.data && !stepDrawPaced(now, settled)) {
    ui.tokens.push(s.step_count(), s.t(), viewTokens());
    app.needs.data = false;
    app.needs.draw = true;
    app.lastStepDrawAt = now;
  }
  if (analysedByPool(settled)) {
    // The workers analyse the state a step starts from, at the metrics' cadence; a heatmap they
    // do not make (n <= 512, the order by leader) is drawn from this thread's pass as before.
    const heatHere = app.needs.heat && !s.pool_heatmap();
    if ((app.needs.metrics || (app.needs.heat && !heatHere)) && now - app.lastMetricsAt >= metricsInterval()) {
      app.analysesWanted = true;
    }
    if (heatHere) updateHeatmap(now, false);
  } else {
    // At most one costly analysis per frame (unless forced): a costly metrics pass defers the
    // heatmap to the next frame, so no frame does both.
    const metricsRan = app.needs.metrics && updateMetrics(now, settled);
    const deferHeat = !force && metricsRan && app.metricsCost > FRAME_BUDGET_MS / 2;
    if (app.needs.heat && !deferHeat) updateHeatmap(now, settled);
  }
  if (app.needs.chart && (settled || now - app.lastChartAt >= CHART_INTERVAL_MS)) {
    try {
      ui.chart.draw(s);
      placeChartNow();
    } catch (e) {
      console.warn(e);
    }
    app.lastChartAt = now;
    app.needs.chart = false;
    if (app.chartHover) showChartTip(app.chartHover);
  }
  if (app.needs.draw) {
    const t0 = performance.now();
    ui.tokens.draw();
    firstPicture('particles'); // the first token frame (lab/marks.js)
    app.drawCost = 0.7 * app.drawCost + 0.3 * (performance.now() - t0);
    app.needs.draw = false;
  }
  updateStatus(now, settled);
}

/**
 * Whether a new step's tokens wait for a later frame: a pooled run playing, drawn less than
 * min(STEP_DRAW_FACTOR x its drawing time, STEP_DRAW_MAX_MS) ago. Only the steps are paced: a
 * drag, hover or view change (needs.draw alone) redraws the state drawn at once.
 */
function stepDrawPaced(now, settled) {
  if (settled || !usesPool(app.stepper)) return false;
  return now - app.lastStepDrawAt < Math.min(STEP_DRAW_MAX_MS, STEP_DRAW_FACTOR * app.drawCost);
}

let statusAt = -Infinity;

/**
 * The status line (t, step, steps per second, state), the screen-reader summary and the
 * timeline: every frame, but at most every STATUS_INTERVAL_MS while the pool steps a playing run.
 */
function updateStatus(now, settled) {
  const s = app.stepper;
  if (!settled && now - statusAt < STATUS_INTERVAL_MS && usesPool(s)) return;
  statusAt = now;
  const dt = s.dt();
  const t = fmtT(s.t(), dt);
  const step = s.step_count();
  const until = s.until_steps();
  // Written only when changed: the status is refreshed every frame, and rewriting the same text
  // still costs the page a style, layout and paint pass (a third of the main thread at n = 4096).
  setText('status-t', t);
  setText('status-step', `${step} / ${until}`);
  setText('status-sps', String(Math.round(ui.loop.rate.perSecond(now, ui.loop.playing))));
  const status = s.status();
  const state = status === 'diverged' ? 'diverged (paused)'
    : ui.loop.seeking ? 'computing to the moment asked'
    : ui.loop.playing ? (ui.loop.pastEnd ? 'playing past until' : 'playing')
    : step > until && until > 0 ? 'paused (past until)'
    : status === 'finished' ? 'finished at until'
    : 'paused';
  setText('status-state', state);
  const m = app.metrics;
  const parts = [`${s.preset()}: t = ${t}, step ${step} of ${until}, ${state}.`];
  if (m) parts.push(`${m.hyperplanes === null || m.hyperplanes === undefined ? '' : `${m.hyperplanes} hyperplanes, `}${m.clusters} clusters, Boolean distance ${fmtValue(m.boolean_distance)}, effective rank ${fmtValue(m.effective_rank)}${m.energy === null ? '' : `, energy ${fmtValue(m.energy)}`}.`);
  ui.summary.offer(parts.join(' '));
  ui.timeline?.sync();
}
