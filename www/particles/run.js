// The particle run: a new wasm ParticleLab for a valid configuration, the view it is drawn in (the
// projection of d > 3 tokens, fixed at reset), the states recorded for the chart, trails and
// exports, and the run loop's hooks into it (lab/run_loop.js): in-frame samples, and the worker
// pool that steps runs of n >= 512 off the main thread (pool_run.js).

import * as wasm from '../pkg/attn_web.js';
import { FRAME_BUDGET_MS, RunLoop } from '../lab/run_loop.js';
import { particleSpeeds } from './controls.js';
import { hideDivergence, showDivergence } from './divergence.js';
import { refreshText } from './captions.js';
import { runHistory } from './history.js';
import { poolAdvance, poolBusy, usesPool } from './pool_run.js';
import { heavyAnalysesDue, measure, poolAnalyses, render } from './render.js';
import { $, app, markAll, markTokens, ui } from './state.js';
import { viewTokens } from './sample.js';
import { loadOverlays, showOverlays } from './overlays.js';
import { keepInitial, rewindTo } from './timeline.js';
import { showHeatOrder, showHeatScale, showScale } from './view_keys.js';

/** Replaces the run by a new ParticleLab for a valid canonical configuration. */
export function startRun(canonical) {
  const s = new wasm.ParticleLab(canonical);
  s.set_heatmap_order(ui.heatmap.order);
  if (app.stepper) app.stepper.free();
  app.stepper = s;
  app.canonical = s.config_string();
  runHistory.reset(app.canonical, s.n(), s.d(), s.coords());
  keepInitial(s);
  app.lastMetricsAt = -Infinity;
  app.lastHeatAt = -Infinity;
  app.lastChartAt = -Infinity;
  // Large runs: the O(n^2 d) analyses count as costly until measured, so the first frames
  // compute them one per frame instead of stepping too.
  const heavy = s.n() * s.n() * s.d() > 2e6;
  app.metricsCost = heavy ? 2 * FRAME_BUDGET_MS : 0;
  app.heatCost = heavy ? 2 * FRAME_BUDGET_MS : 0;
  setupView();
  hideDivergence();
  ui.loop.started();
  refreshText();
  // First paint at once; for large runs the O(n^2 d) analyses follow in the next frames.
  render(performance.now(), true, heavy);
}

/** Projection and token view for the current run (PCA axes are fixed here, at reset). */
export function setupView() {
  const s = app.stepper;
  const d = s.d();
  const coords = s.coords();
  const sub = ['₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
  const name = (i) => `${coords}${i < 9 ? sub[i] : `_${i + 1}`}`;
  let k;
  let names;
  app.axes = null;
  if (d <= 3) {
    k = d;
    names = [0, 1, 2].map(name);
  } else if (app.projection.mode === 'axes') {
    k = 2;
    const a = Math.min(d, Math.max(1, Math.round(app.projection.a) || 1)) - 1;
    const b = Math.min(d, Math.max(1, Math.round(app.projection.b) || 2)) - 1;
    app.axes = new Float64Array(2 * d);
    app.axes[a] = 1;
    app.axes[d + b] = 1;
    names = [name(a), name(b)];
  } else {
    k = app.projection.mode === 'pca3' ? 3 : 2;
    app.axes = s.pca_axes(k);
    names = ['PC1', 'PC2', 'PC3'];
  }
  app.k = k;
  const until = s.until();
  ui.tokens.configure({
    n: s.n(),
    k,
    sphere: s.model() !== 'euclidean',
    tMax: until > 0 ? until : 10 * s.dt(),
    names,
    floor: s.initial_spread() / 2,
    every: s.sample_every(),
  });
  ui.controls.setDimension(d);
  showScale(app.axesChosen ? ui.tokens.axes : s.suggested_axes());
  showHeatOrder(app.orderChosen ? ui.heatmap.order : s.suggested_order());
  showHeatScale(app.heatScaleChosen ? ui.heatmap.scale : s.suggested_heat_scale());
  if (app.overlaysChosen) loadOverlays();
  else showOverlays(s.suggested_overlays());
  markAll();
}

/**
 * Steps between history samples (chart and trails): the core's fixed sample steps
 * (identity::sample_every, about 300 over [0, until], where cluster colours are committed).
 * Playing and seeking both stop at each of them to take its sample, whatever the speed or the
 * metrics' cost (each sample counts in the frame's budget: when samples are dense the run
 * advances fewer steps per frame rather than skipping them), so the chart and trails of a step
 * are the same however the run got there.
 */
function sampleEvery() {
  return app.stepper.sample_every();
}

/**
 * Records a history sample (metrics for the chart, positions for the trails) at this sample
 * step: the metrics once (a step the run passes again, after the timeline went back, keeps its
 * sample), the trail's point each time.
 */
function recordSample() {
  const s = app.stepper;
  const c0 = performance.now();
  const step = s.step_count();
  const again = runHistory.has(step);
  if (!again && !measure()) return; // the metrics overflow: the exports still keep the tokens
  ui.tokens.push(step, s.t(), viewTokens());
  if (again) return;
  app.metricsCost = 0.7 * app.metricsCost + 0.3 * (performance.now() - c0);
}

/**
 * The token trails of the step shown as playing there leaves them (TokenView.retrace): the
 * states kept at the run's sample steps before it (history.js), in the view's coordinates. Called
 * when a seek ends (a link's moment, the timeline, the API, an export's step).
 */
export function retrace() {
  const s = app.stepper;
  const tv = ui.tokens;
  const every = s.sample_every();
  const step = s.step_count();
  const states = runHistory.samples.filter((x) => x.step < step && x.step % every === 0).slice(-tv.trailLimit());
  const d = s.d();
  const view = (x) => (app.axes ? project(x, x.length / d, d, app.axes, app.k) : x);
  tv.retrace(states.map((x) => ({ step: x.step, t: x.t, x: view(x.tokens) })), step, s.t(), viewTokens());
}

/**
 * Tokens `x` (n x d) projected on `k` axes (k x d), as ParticleLab.project computes them (core
 * pca::project: each coordinate a sum from 0 in coordinate order), so a kept state's trail point
 * has the bits of the one drawn when the run passed there.
 */
function project(x, n, d, axes, k) {
  const out = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < k; a++) {
      let acc = 0;
      for (let j = 0; j < d; j++) acc += axes[a * d + j] * x[i * d + j];
      out[i * k + a] = acc;
    }
  }
  return out;
}

/**
 * Large runs step in the worker pool: up to the frame's steps within the frame budget, while the
 * main thread keeps drawing; the frame after the batch shows it.
 */
function poolSteps() {
  if (poolBusy() || app.poolPending) return;
  const s = app.stepper;
  const loop = ui.loop;
  const k = loop.frameSteps();
  if (k === 0) return;
  app.poolPending = true;
  const alive = () => app.stepper === s;
  poolAdvance(s, k, { budgetMs: FRAME_BUDGET_MS, pastEnd: loop.pastEnd, alive, analyses: poolAnalyses })
    .then((taken) => {
      if (!alive()) return;
      loop.rate.record(performance.now(), taken);
      if (taken > 0) markAll();
      loop.afterSteps();
    })
    .catch((e) => console.warn(e))
    .finally(() => {
      app.poolPending = false;
      // The next batch starts at once, not at the next frame: the workers never wait for a
      // frame (or an analysis on this thread) to be handed the state they just computed.
      if (alive() && loop.playing && loop.visible && loop.perFrame >= 1) poolSteps();
      loop.wake(); // the frames sleep while a batch is in flight (asleep below)
    });
}

/** A Step click on a pooled run: queued while a pool step is in flight, never dropped. */
function poolStep(s, done) {
  if (!usesPool(s)) return false;
  app.queuedSteps += 1;
  if (poolBusy() || app.poolPending) return true;
  app.poolPending = true;
  const alive = () => app.stepper === s;
  const next = () => {
    const k = app.queuedSteps;
    app.queuedSteps = 0;
    return poolAdvance(s, k, { pastEnd: true, alive }).then((got) => {
      if (!alive()) return undefined;
      done(got);
      return app.queuedSteps > 0 && got === k ? next() : undefined;
    });
  };
  next()
    .catch((e) => console.warn(e))
    .finally(() => {
      app.poolPending = false;
      app.queuedSteps = 0;
    });
  return true;
}

/** The particle lab's run loop (lab/run_loop.js) with its hooks into the ParticleLab. */
export function createLoop(controls) {
  return new RunLoop({
    run: () => app.stepper,
    count: (s) => s.step_count(),
    advance: (s, k, pastEnd) => (pastEnd ? s.advance_past_end(k) : s.advance(k)),
    restart: () => startRun(app.canonical),
    changed: markAll,
    render,
    diverged: showDivergence,
    playing: (on) => {
      if (on) $('motion-note').hidden = true;
      controls.setPlaying(on);
    },
    showSpeed: (k) => controls.showSpeed(k),
    speeds: particleSpeeds(),
    // Large runs: a frame either steps or refreshes the O(n^2 d) analyses, not both. The pool
    // steps while this thread draws and analyses (the state only changes when a step lands,
    // between frames), so it is started whatever the analyses cost.
    frame: (now) => {
      if (usesPool(app.stepper)) poolSteps();
      else if (!heavyAnalysesDue(now) && ui.loop.runFrame(now) > 0) markAll();
    },
    // While a pooled run plays, frames are asked for when a batch lands, not at every display
    // refresh (a frame with nothing new still costs the page a main-frame pass and a commit).
    asleep: () => usesPool(app.stepper) && app.poolPending,
    stepElsewhere: poolStep,
    sampleEvery,
    sample: recordSample,
    idle: async (alive) => {
      // Once a frame's pool step in flight has landed.
      while (app.poolPending && alive()) await new Promise((r) => { setTimeout(r, 5); });
    },
    seekPool: (s, alive) => (usesPool(s) ? (k, budgetMs) => poolAdvance(s, k, { budgetMs, pastEnd: true, alive }) : null),
    seekProgress: markTokens,
    sought: retrace,
    rewind: rewindTo,
  });
}
