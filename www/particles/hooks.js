// The particle lab's state as others read it: the run's state the postMessage API reports, and
// the hooks the browser tests and the console use (window.__attn).

import * as wasm from '../pkg/attn_web.js';
import { poolBusy, setWorkers, usesPool, workerCount } from './pool_run.js';
import { runHistory } from './history.js';
import { app, ui } from './state.js';

/** The run's state for the API: t, step, status (playing, paused, seeking, finished, diverged),
 * the configuration and the last metrics computed ({ step, t, clusters, boolean_distance,
 * effective_rank, energy, hyperplanes } or null); null before a run. */
export function runState() {
  const s = app.stepper;
  if (!s) return null;
  const run = s.status();
  const loop = ui.loop;
  const status = run === 'diverged' ? 'diverged' : loop.seeking ? 'seeking' : loop.playing ? 'playing' : run === 'finished' ? 'finished' : 'paused';
  const m = app.metrics;
  return {
    t: s.t(),
    step: s.step_count(),
    dt: s.dt(),
    until: s.until(),
    n: s.n(),
    d: s.d(),
    status,
    config: app.canonical,
    metrics: m ? { step: m.step, t: m.t, clusters: m.clusters, boolean_distance: m.boolean_distance, effective_rank: m.effective_rank, energy: m.energy ?? null, hyperplanes: m.hyperplanes ?? null } : null,
  };
}

/** window.__attn: read-only hooks into the run for the browser tests and the console. */
export function installHooks() {
  window.__attn = Object.freeze({
    t: () => app.stepper.t(),
    step: () => app.stepper.step_count(),
    n: () => app.stepper.n(),
    d: () => app.stepper.d(),
    dt: () => app.stepper.dt(),
    configString: () => app.stepper.config_string(),
    /** The tokens in the configuration's coords (n x d, row-major Float64Array). */
    tokens: () => app.stepper.tokens(app.stepper.coords()),
    seeking: () => ui.loop.seeking !== null,
    status: () => app.stepper.status(),
    playing: () => ui.loop.playing,
    metrics: () => app.metrics ?? null,
    /** Who computed the last metrics: 'page' (this thread), 'workers' (the pool's analyses). */
    metricsBy: () => app.metricsBy,
    /** Cluster label of each token at the last metrics (Uint32Array n). */
    labels: () => app.stepper.labels(),
    /** Colour slot of each token at the last metrics (stable cluster identities; 0xffffffff: none). */
    slots: () => app.stepper.colour_slots(),
    /** The cluster identities committed so far: [last sample step or -1, slot per token]. */
    identities: () => Array.from(app.stepper.identity_state()),
    /** The heatmap shown: its order's permutation (position -> token) and group starts. */
    heatmapOrder: () => ({ perm: Array.from(ui.heatmap.perm ?? []), starts: [...ui.heatmap.starts] }),
    /** The overlays drawn (names) and where the token view drew them (CSS px): { hull, hullEdges,
     * centres, psi: { from, to }, lines } (null before a draw); the heatmap's leader columns. */
    overlays: () => app.overlays.slice(),
    overlayDrawn: () => ui.tokens.overlayDrawn ?? null,
    heatmapMarks: () => ui.heatmap.markRects ?? null,
    /** The core's geometry of the overlays: the initial hull, psi1, the plateaus. */
    initialHull: () => app.stepper.initial_hull(),
    psi1: () => app.stepper.psi1(),
    plateaus: () => app.stepper.plateaus(),
    counted: () => app.stepper.counted(),
    /** The run's resolved matrices { q, k, v } (d x d, row-major). */
    matrices: () => app.stepper.matrices(),
    /** Where the token view last drew each token, [x, y] in CSS pixels (2-D and 3-D views). */
    drawnTokens: () => (ui.tokens.drawn ?? []).map((p) => [p[0], p[1]]),
    /** The metrics chart's layout (CSS px: x0, x1, panels, labels), or null before a draw. */
    chartLayout: () => ui.chart?.layout ?? null,
    historyLen: () => app.stepper.history_len(),
    /** The metrics chart's samples as drawn: { step, t, clusters, boolean_distance,
     * effective_rank, energy, hyperplanes }, an array each (NaN: not defined). */
    chartSamples: () => app.stepper.history_samples(),
    /** The states the token trails join (1-D: the plot against time), oldest first, the state
     * shown last: [{ step, t, x: n x k view coordinates }]. */
    trail: () => ui.tokens.traced.map((e) => ({ step: e.step, t: e.t, x: Array.from(e.x) })),
    /** The steps whose states the page kept (the timeline continues from them). */
    keptSteps: () => runHistory.steps(),
    historyNear: (t) => app.stepper.history_near(t),
    /** Worker pool: force `k` workers (0 = step on the main thread, null = automatic). */
    setWorkers,
    workers: () => (usesPool(app.stepper) ? workerCount() : 0),
    /** Whether a step is in flight in the worker pool. */
    stepping: () => poolBusy() || app.poolPending === true,
    wasm,
  });
}
