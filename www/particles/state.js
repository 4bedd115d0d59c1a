// The particle lab's state, shared by its modules: the run shown (the wasm ParticleLab and its
// canonical configuration), how it is viewed (projection axes), what needs redrawing and the
// analyses' timing; and the lab's objects (panels, controls, run loop, configuration page), set
// once when the lab mounts (lab.js).

export const app = {
  /** @type {TypedParticleLab|null} the run shown */
  stepper: null,
  canonical: '',
  projection: { mode: 'pca2', a: 1, b: 2 },
  axes: null, // k x d projection axes for d > 3 (fixed at reset)
  axesChosen: false, // the view key `axes` was written or chosen (else the preset's suggestion)
  overlays: [], // the overlays drawn (the view key `overlays`; overlays.js)
  overlaysChosen: false, // the view key `overlays` was written or chosen (else the preset's suggestion)
  orderChosen: false, // the view key `order` was written or chosen (else the preset's suggestion)
  heatScaleChosen: false, // the view key `heatmap` likewise
  k: 2,
  needs: { data: true, metrics: true, heat: true, chart: true, draw: true },
  /** @type {ParticleMetrics|null} the last metrics computed */
  metrics: null,
  metricsBy: null, // who computed them: 'page' (this thread) or 'workers' (the pool's analyses)
  metricsCost: 0,
  lastMetricsAt: -Infinity,
  heatCost: 0,
  lastHeatAt: -Infinity,
  lastChartAt: -Infinity,
  /** When a step's tokens were last taken for drawing, and the token view's drawing time (ms, average). */
  lastStepDrawAt: -Infinity,
  drawCost: 0,
  heatHover: null,
  chartHover: null,
  /** The next pool step's workers analyse the state it starts from (render.js, poolAnalyses). */
  analysesWanted: false,
  /** ms this thread spent asking the last pool analyses (ParticleLab.analysis_spec). */
  specCost: 0,
  /** A worker-pool step is in flight (pool_run.js). */
  poolPending: false,
  /** Step clicks waiting for the pool (large runs). */
  queuedSteps: 0,
};

/**
 * The lab's objects: tokens, heatmap, chart (views), controls, summary, loop (lab/run_loop.js),
 * config (lab/config_page.js) and ctx (what main.js gave the lab: linkChanged, ...).
 */
export const ui = {};

export const $ = (id) => document.getElementById(id);

/** Sets element `id`'s text when it differs (no DOM write, so no relayout, otherwise). */
export function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

/** Every view needs redrawing (the tokens: `data`, drawn once taken, render.js). */
export function markAll() {
  Object.assign(app.needs, { data: true, metrics: true, heat: true, chart: true });
}

/** The tokens need redrawing at the current step (not the analyses). */
export function markTokens() {
  app.needs.data = true;
}
