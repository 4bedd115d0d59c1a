// The particle lab (science.md §1-2): wires the wasm Stepper (crates/web) to its panels (tokens,
// heatmap, metrics chart, controls). main.js routes between the labs and calls `particles`.
//
// Data flow: URL hash / controls -> Draft (state/) -> check_config -> Stepper -> views (render/).
// The run advances in requestAnimationFrame with a per-frame time budget; metrics (O(n^2)) and
// the heatmap are refreshed at a cadence that adapts to their cost.

import * as wasm from '../pkg/attn_web.js';
import { Draft } from '../state/draft.js';
import { writeLink } from '../lab/address_bar.js';
import { Controls, SPEEDS } from './controls.js';
import { Summary } from '../ui/summary.js';
import { RateMeter } from '../ui/rate.js';
import { chunkFor, updateCost } from '../ui/budget.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { showRefusal } from '../ui/config_error.js';
import { TokenView } from './tokens.js';
import { HeatmapView } from './heatmap.js';
import { ChartView } from './chart.js';
import { onThemeChange } from '../render/palette.js';
import { runHistory } from '../export/history.js';
import { advanceTo } from './seek.js';
import { poolAdvance, poolBusy, setWorkers, usesPool, workerCount } from './pool_run.js';
import { applyView, showHeatScale, viewPairs } from './view_keys.js';
import { showSeek } from '../share/seek_note.js';

const FRAME_BUDGET_MS = 10; // time spent stepping per animation frame (of ~16 ms)
const CHART_INTERVAL_MS = 200; // chart redraws while playing
const $ = (id) => document.getElementById(id);

/** Sets element `id`'s text when it differs (no DOM write, so no relayout, otherwise). */
function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

const app = {
  stepper: null,
  canonical: '',
  draft: new Draft(),
  playing: false,
  userPaused: false, // the user paused: configuration changes keep the run paused
  pastUntil: false, // the user asked to continue after `until`
  stepsPerFrame: 1,
  /** A worker-pool step is in flight (particles/pool_run.js). */
  poolPending: false,
  /** Step clicks waiting for the pool (large runs). */
  queuedSteps: 0,
  speedChosen: false, // the speed was chosen (slider or link), so the link carries it
  costPerStep: NaN, // measured ms per step of the current run
  projection: { mode: 'pca2', a: 1, b: 2 },
  axes: null, // k x d projection axes for d > 3 (fixed at reset)
  k: 2,
  needs: { data: true, metrics: true, heat: true, chart: true, draw: true },
  metricsCost: 0,
  lastMetricsAt: -Infinity,
  heatCost: 0,
  lastHeatAt: -Infinity,
  lastChartAt: -Infinity,
  sps: new RateMeter(), // steps per second over the last second
  heatHover: null,
  chartHover: null,
  hidden: false, // the training lab is shown: the particle run neither steps nor draws
  seek: null, // the seek in progress (seekStep), if any
};

let controls;
let tokenView;
let heatmapView;
let chartView;
let summary;
/** Called when the link changes: 'push' (a committed change) or 'replace' (dragging, loading). */
let onLink = () => writeLink(app.canonical, 'replace');

// ---- device cap ---------------------------------------------------------------------------

// One step is never split on the main thread, so the page refuses runs whose step costs far more
// than a frame. Cost model: n² d pair-coordinate evaluations per step (4x for rk4's four stages).
// Measured with the wasm stepper (crates/xtask/bench/wasm_bench.mjs / `cargo xtask bench`, Node,
// one thread): ~1.3-2 ns per pair-coordinate at d >= 128 (n = 512, d = 256: ~100 ms/step), while
// at d <= 3 the per-pair exp dominates (~18-20 ns per pair: n = 4096, d = 2: ~300 ms/step).
// The budget admits the largest runs the page promises (n = 4096 at d <= 3, Euler) and keeps
// high-d steps under ~100 ms (d = 256: n <= 443, ~70 ms/step). The CLI has no such limit.
const STEP_BUDGET = 4096 * 4096 * 3; // n² d (x4 for rk4) per step
/** Most tokens the page runs (its views and analyses are sized for this); the core allows more. */
const PAGE_MAX_N = 4096;

/** A check_config result, refused when the run is too heavy for the page (see STEP_BUDGET). */
function checkPage(text, edited = null) {
  const res = wasm.check_config(text);
  if (!res.ok) return res;
  const v = new Map(res.pairs);
  const n = Number(v.get('n'));
  const d = Number(v.get('d'));
  const stages = v.get('integrator') === 'rk4' ? 4 : 1;
  const cost = n * n * d * stages;
  if (n > PAGE_MAX_N) {
    return { ok: false, key: 'n', message: `n = ${n} is more tokens than the page draws; allowed: 1..=${PAGE_MAX_N} (the CLI \`attn run\` takes up to 16384)` };
  }
  if (cost <= STEP_BUDGET) return res;
  const nMax = Math.floor(Math.sqrt(STEP_BUDGET / (d * stages)));
  const dMax = Math.floor(STEP_BUDGET / (n * n * stages));
  const rk4 = stages > 1 ? ' with rk4 (4 evaluations per step)' : '';
  const work = `(n² d${stages > 1 ? ' x 4' : ''} = ${cost.toLocaleString('en-US')}, the page allows ${STEP_BUDGET.toLocaleString('en-US')})`;
  const cli = 'the CLI `attn run` has no such limit';
  if (edited === 'd' && dMax >= 1) {
    return { ok: false, key: 'd', message: `d = ${d} with n = ${n}${rk4} is too much work per step for the page ${work}; at n = ${n} the page allows d <= ${dMax}; ${cli}` };
  }
  return { ok: false, key: 'n', message: `n = ${n} with d = ${d}${rk4} is too much work per step for the page ${work}; at d = ${d} the page allows n <= ${nMax}; ${cli}` };
}

// ---- formatting -------------------------------------------------------------------------

/** Decimals needed to show multiples of dt exactly as typed (dt = 0.05 -> 2). */
function decimalsOf(dt) {
  const s = String(dt);
  const m = /e-(\d+)$/.exec(s);
  if (m) return Math.min(12, Number(m[1]) + (s.split('e')[0].split('.')[1]?.length ?? 0));
  return Math.min(12, s.split('.')[1]?.length ?? 0);
}

function fmtT(t, dt) {
  return t.toFixed(decimalsOf(dt));
}

/** A metric value for text: a few significant digits. */
const fmtValue = (v) => fmt(v, 'n/a');

// ---- the run ----------------------------------------------------------------------------

/**
 * The configuration string of preset `name` at configuration `version` (default today's; a
 * string without `version` is an old link, which keeps the old arithmetic: see the core's
 * link/version.rs).
 */
function presetLink(name, version = wasm.config_version()) {
  return `version=${version}&preset=${name}`;
}

/** Replaces the run by a new Stepper for a valid canonical configuration. */
function startRun(canonical) {
  const s = new wasm.Stepper(canonical);
  if (app.stepper) app.stepper.free();
  app.stepper = s;
  app.canonical = s.config_string();
  app.pastUntil = false;
  app.seek = null;
  runHistory.reset(app.canonical, s.n(), s.d(), s.coords());
  app.costPerStep = NaN;
  app.sps.clear();
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
  setPlaying(!app.userPaused && s.status() === 'running');
  refreshText();
  // First paint at once; for large runs the O(n^2 d) analyses follow in the next frames.
  render(performance.now(), true, heavy);
}

/** Projection and token view for the current run (PCA axes are fixed here, at reset). */
function setupView() {
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
  tokenView.configure({
    n: s.n(),
    k,
    sphere: s.model() !== 'euclidean',
    tMax: until > 0 ? until : 10 * s.dt(),
    names,
  });
  controls.setDimension(d);
  markAll();
}

function markAll() {
  Object.assign(app.needs, { data: true, metrics: true, heat: true, chart: true, draw: true });
}

/** Tokens as drawn: n x k (k = d for d <= 3, else projected on the fixed axes). */
function viewTokens() {
  const s = app.stepper;
  const coords = s.coords();
  if (!app.axes) return s.tokens(coords);
  return s.project(coords, app.axes, app.k);
}

/**
 * Steps between history samples (chart and trails) taken inside a frame: about 300 samples over
 * [0, until], whatever the speed, so fast runs are not drawn as one chord per frame.
 */
function sampleEvery() {
  const u = app.stepper.until_steps();
  // Each sample costs one metrics evaluation, counted in the frame's time budget: when samples
  // are dense the run advances fewer steps per frame rather than skipping them.
  return u > 0 ? Math.max(1, Math.floor(u / 300)) : 10;
}

/** Records a history sample (metrics for the chart, positions for the trails) at this step. */
function recordSample() {
  const s = app.stepper;
  const c0 = performance.now();
  try {
    recordState(s.metrics()); // pushes the sample into the chart's history
  } catch {
    return;
  }
  tokenView.push(s.step_count(), s.t(), viewTokens());
  app.metricsCost = 0.7 * app.metricsCost + 0.3 * (performance.now() - c0);
}

/** Keeps the state whose metrics `m` were just computed for the exports (export/history.js). */
function recordState(m) {
  const s = app.stepper;
  runHistory.record(s.step_count(), s.t(), () => s.tokens(s.coords()), m);
}

/** Advances while playing, within the frame budget; returns the steps taken. */
function runSteps(now) {
  const s = app.stepper;
  const target = app.stepsPerFrame;
  const t0 = performance.now();
  // In-frame samples only when metrics are cheap and a frame covers more than one sample.
  const every = app.metricsCost < FRAME_BUDGET_MS / 2 ? sampleEvery() : 0;
  const sampling = every > 0 && target > every;
  let taken = 0;
  while (taken < target) {
    const elapsed = performance.now() - t0;
    if (taken > 0 && elapsed >= FRAME_BUDGET_MS) break;
    const left = FRAME_BUDGET_MS - elapsed;
    let chunk = chunkFor(target - taken, left, app.costPerStep);
    if (sampling) chunk = Math.min(chunk, every - (s.step_count() % every));
    const c0 = performance.now();
    const got = app.pastUntil ? s.advance_past_until(chunk) : s.advance(chunk);
    const ms = performance.now() - c0;
    if (got > 0) {
      app.costPerStep = updateCost(app.costPerStep, ms / got);
    }
    taken += got;
    if (got < chunk) break;
    if (sampling && s.step_count() % every === 0 && taken < target) recordSample();
  }
  app.sps.record(now, taken);
  afterSteps();
  return taken;
}

function afterSteps() {
  const s = app.stepper;
  const status = s.status();
  if (status === 'diverged') {
    setPlaying(false);
    showDivergence(s.message());
  } else if (status === 'finished' && !app.pastUntil) {
    setPlaying(false);
  }
}

function setPlaying(on) {
  app.playing = on;
  if (on) $('motion-note').hidden = true;
  controls.setPlaying(on);
  if (!on) app.sps.clear();
}

function togglePlay() {
  const s = app.stepper;
  if (!s) return;
  if (app.playing) {
    app.userPaused = true;
    setPlaying(false);
    return;
  }
  if (s.status() === 'diverged') {
    showDivergence(s.message());
    return;
  }
  if (s.status() === 'finished') app.pastUntil = true;
  app.userPaused = false;
  setPlaying(true);
}

function stepOnce() {
  const s = app.stepper;
  if (!s) return;
  app.seek = null;
  if (app.playing) {
    app.userPaused = true;
    setPlaying(false);
  }
  if (s.status() === 'diverged') {
    showDivergence(s.message());
    return;
  }
  const done = (got) => {
    if (s.status() === 'diverged') showDivergence(s.message());
    if (got > 0) markAll();
    // Not forced: a costly heatmap follows in the next frame rather than in this one.
    render(performance.now(), false);
  };
  if (usesPool(s)) {
    // Clicks while a pool step is in flight are queued, not dropped.
    app.queuedSteps += 1;
    if (poolBusy() || app.poolPending) return;
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
    return;
  }
  done(s.status() === 'finished' ? s.advance_past_until(1) : s.advance(1));
}

/** A speed at which a preset plays to its `until` in about 8 s (set when a preset is opened). */
function suggestSpeed() {
  const target = Math.max(1, app.stepper.until_steps() / 480);
  const k = SPEEDS.filter((v) => v <= target).at(-1) ?? 1;
  app.stepsPerFrame = k;
  app.speedChosen = false;
  controls.showSpeed(k);
}

function reset() {
  if (!app.stepper) return;
  // The run shown, from its start; the form and the message follow it (a refused draft's values
  // and message go).
  const res = checkPage(app.canonical);
  if (res.ok) {
    apply(res);
    return;
  }
  startRun(app.canonical);
  onLink('push');
}

// ---- configuration ----------------------------------------------------------------------

/** Every key's value to show in the controls for a draft (valid or not). */
function effectiveValues(draft, res) {
  if (res && res.ok) return new Map(res.pairs);
  let base;
  try {
    base = wasm.preset_pairs(draft.preset());
  } catch {
    base = wasm.preset_pairs('polytope');
  }
  const values = new Map(base);
  for (const [k, v] of draft.pairs) if (v !== undefined) values.set(k, v);
  return values;
}

/** Applies a valid check result: new run, controls, and the link in the address bar (`how`:
 * 'push' a history entry for a committed change, 'replace' when loading a link). */
function apply(res, note = '', how = 'push') {
  startRun(res.canonical);
  showConfig(res);
  $('config-note').textContent = note;
  showModified(res.differences);
  onLink(how);
}

/** The form shows valid check result `res` (its values, none marked) as the draft; a refused
 * draft's values and message go. */
function showConfig(res) {
  app.draft = Draft.fromText(res.canonical);
  clearConfigError();
  controls.showValues(new Map(res.pairs), null);
}

/** Under the preset's description: the keys that differ from the preset, so the sentence is
 * never taken to describe a different run. */
function showModified(differences) {
  const box = $('modified');
  const list = (differences || []).filter((d) => d.key !== 'preset');
  box.hidden = list.length === 0;
  const short = (v) => (v.length > 28 ? `${v.slice(0, 25)}…` : v);
  box.textContent = list.length
    ? `Modified from the preset: ${list.map((d) => `${d.key} = ${short(d.value)} (preset: ${short(d.preset)})`).join(', ')}.`
    : '';
}

function showConfigError(res, tail) {
  showRefusal($('config-error'), res, tail);
}

function clearConfigError() {
  $('config-error').replaceChildren();
}

/** Keys the sphere and Euclidean models require, set along with a model change. */
function adjustForModel(draft, model, values) {
  const changed = [];
  const set = (k, v) => {
    if (values.get(k) !== v) {
      draft.set(k, v);
      changed.push(`${k} = ${v}`);
    }
  };
  if (model === 'euclidean') {
    if (values.get('integrator') === 'retraction') set('integrator', 'euler');
  } else {
    set('integrate_in', 'x');
    set('coords', 'x');
    if (values.get('integrator') === 'euler') set('integrator', 'retraction');
  }
  return changed.length ? `Also set ${changed.join(', ')} (required by the ${model} model).` : '';
}

/** A control changed `key`: validate the draft; apply it when committed and valid. */
function edit(key, value, commit) {
  const draft = app.draft.clone();
  let note = '';
  if (key === 'model' && commit) note = adjustForModel(draft, value, effectiveValues(app.draft, null));
  draft.set(key, value);
  if (key === 'init' && value === 'points' && commit) note = fillPoints(draft) || note;
  const res = checkPage(draft.text(), key);
  app.draft = draft;
  if (!res.ok) {
    // While typing only the field is marked; the message (an alert) comes with Enter or leaving it.
    controls.markKey(res.key);
    if (commit) {
      let tail = 'The last valid run keeps going.';
      if (res.key === 'points' && (key === 'n' || key === 'd')) {
        tail = `With init = points, the points must match n and d: edit the points below (n rows of d numbers) or choose another init. ${tail}`;
      }
      showConfigError(res, tail);
      controls.showValues(effectiveValues(draft, null), res.key);
    }
    return;
  }
  clearConfigError();
  controls.markKey(null);
  if (commit) {
    if (res.canonical === app.canonical) {
      app.draft = Draft.fromText(res.canonical);
      controls.showValues(new Map(res.pairs), null);
      return;
    }
    apply(res, note);
  }
}

/**
 * init=points chosen without points (or with points of the wrong shape): fills them with the
 * initial tokens (t = 0) of the configuration being edited, in shortest round-trip form (exact); returns a note.
 */
function fillPoints(draft) {
  const v = effectiveValues(draft, null);
  const n = Number(v.get('n'));
  const d = Number(v.get('d'));
  const have = (v.get('points') || '').split(';').filter(Boolean);
  if (have.length === n && have.every((r) => r.split(',').length === d)) return '';
  const before = effectiveValues(app.draft, null).get('init');
  const probe = draft.clone().set('init', before && before !== 'points' ? before : 'cube');
  let x;
  try {
    const st = new wasm.Stepper(probe.delete('points').text());
    x = st.tokens('x');
    st.free();
  } catch {
    return '';
  }
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    rows.push(Array.from(x.subarray(i * d, (i + 1) * d), (c) => String(c)).join(','));
  }
  draft.set('points', rows.join(';'));
  return `Points filled with the initial tokens of init = ${probe.get('init')} (exact, so the run is unchanged); edit them below.`;
}

/** A valid link of the run already shown (Back / Forward onto it, the same link opened again):
 * the form shows that run. */
function showRun() {
  const res = checkPage(app.canonical);
  if (res.ok) showConfig(res);
}

/** Starts from a configuration string (the hash); falls back to its preset when refused. */
function loadConfig(text) {
  const res = checkPage(text);
  if (res.ok) {
    apply(res, '', 'replace');
    return;
  }
  const draft = Draft.fromText(text);
  // No field can fix an unknown `version`: the draft takes today's, so the next edit applies.
  if (res.key === 'version') draft.set('version', String(wasm.config_version()));
  app.draft = draft;
  // The preset at the draft's version (none: an old link, version 1), the arithmetic a fixed
  // value will run with.
  const version = draft.get('version');
  let fallback = checkPage(version === undefined ? `preset=${draft.preset()}` : presetLink(draft.preset(), version));
  if (!fallback.ok) fallback = checkPage('');
  if (!app.stepper) startRun(fallback.canonical);
  const name = new Map(fallback.pairs).get('preset');
  showConfigError(res, app.stepper && app.canonical === fallback.canonical
    ? `This link's configuration was refused; showing the ${name} preset instead. Fix the value to apply it.`
    : 'The last valid run keeps going.');
  controls.showValues(effectiveValues(draft, null), res.key);
}

function newSeed() {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  const draft = Draft.fromText(app.canonical).set('seed', String(seed));
  const res = checkPage(draft.text());
  if (res.ok) {
    app.userPaused = false;
    apply(res);
  }
}

/** Restarts with `key` (dt or beta) halved: the fixes a divergence message names. */
function halve(key) {
  const draft = Draft.fromText(app.canonical);
  const value = (key === 'dt' ? app.stepper.dt() : app.stepper.beta()) / 2;
  draft.set(key, String(value));
  const res = checkPage(draft.text());
  if (res.ok) {
    app.userPaused = false;
    apply(res, `${key === 'dt' ? 'dt' : 'β'} halved to ${value}.`);
  } else {
    showConfigError(res, 'The last valid run keeps going.');
  }
}

// ---- divergence -------------------------------------------------------------------------

/** The divergence message and one button per fix it names (smaller dt, smaller beta). */
function showDivergence(message) {
  $('divergence-message').textContent = message;
  const fix = /use a smaller ([^;.]*)/.exec(message)?.[1] ?? '';
  const names = (w) => new RegExp(`\\b${w}\\b`).test(fix);
  const dt = app.stepper.dt();
  const beta = app.stepper.beta();
  const offerDt = names('dt') || !names('beta');
  $('halve-dt').hidden = !offerDt;
  $('halve-dt').textContent = `Halve dt (${dt} → ${dt / 2}) and restart`;
  $('halve-beta').hidden = !names('beta');
  $('halve-beta').textContent = `Halve β (${beta} → ${beta / 2}) and restart`;
  $('divergence').hidden = false;
}

function hideDivergence() {
  $('divergence').hidden = true;
  $('divergence-message').textContent = '';
}

// ---- rendering --------------------------------------------------------------------------

/** Renders everything now (first frame, reset, single steps, pauses). */
function renderNow() {
  render(performance.now(), true);
}

/** Cheap metrics are taken every frame; costly ones (O(n^2 d)) at most every ~8 times their cost. */
function metricsInterval() {
  return app.metricsCost < 3 ? 0 : Math.max(150, 8 * app.metricsCost);
}

/** Computes the metrics when due; returns whether they were computed. */
function updateMetrics(now, force) {
  const s = app.stepper;
  if (!force && now - app.lastMetricsAt < metricsInterval()) return false;
  const t0 = performance.now();
  try {
    app.metrics = s.metrics();
    recordState(app.metrics);
    tokenView.setStyle(s.labels(), s.leaders());
  } catch {
    app.metrics = null; // P cannot be computed at this state (the divergence message says why)
  }
  app.metricsCost = performance.now() - t0;
  app.lastMetricsAt = now;
  app.needs.metrics = false;
  app.needs.chart = true;
  app.needs.draw = true;
  return true;
}

/** The heatmap follows every frame when cheap, else at most every ~8 times its cost. */
function heatInterval() {
  return app.heatCost < 2 ? 0 : Math.max(150, 8 * app.heatCost);
}

/** Whether costly analyses are due this frame (then the frame does not also step). */
function heavyAnalysesDue(now) {
  if (app.metricsCost + app.heatCost <= FRAME_BUDGET_MS) return false;
  return (app.needs.metrics && now - app.lastMetricsAt >= metricsInterval())
    || (app.needs.heat && now - app.lastHeatAt >= heatInterval());
}

function updateHeatmap(now, force) {
  if (!force && now - app.lastHeatAt < heatInterval()) return;
  const t0 = performance.now();
  try {
    heatmapView.update(app.stepper);
    $('heatmap-max').textContent = `(max P = ${fmtValue(app.stepper.p_max())})`;
  } catch {
    // keep the last picture
  }
  app.heatCost = performance.now() - t0;
  app.lastHeatAt = now;
  app.needs.heat = false;
  if (app.heatHover) showHeatTip(app.heatHover);
}

function render(now, force, tokensOnly = false) {
  const s = app.stepper;
  if (!s) return;
  const settled = force || !app.playing;
  if (tokensOnly) {
    tokenView.push(s.step_count(), s.t(), viewTokens());
    tokenView.draw();
    heatmapView.clear();
    app.needs.data = false;
    updateStatus(now);
    return;
  }
  if (app.needs.data) {
    tokenView.push(s.step_count(), s.t(), viewTokens());
    app.needs.data = false;
    app.needs.draw = true;
  }
  // At most one costly analysis per frame (unless forced): a costly metrics pass defers the
  // heatmap to the next frame, so no frame does both.
  const metricsRan = app.needs.metrics && updateMetrics(now, settled);
  const deferHeat = !force && metricsRan && app.metricsCost > FRAME_BUDGET_MS / 2;
  if (app.needs.heat && !deferHeat) updateHeatmap(now, settled);
  if (app.needs.chart && (settled || now - app.lastChartAt >= CHART_INTERVAL_MS)) {
    try {
      chartView.draw(s);
    } catch (e) {
      console.warn(e);
    }
    app.lastChartAt = now;
    app.needs.chart = false;
    if (app.chartHover) showChartTip(app.chartHover);
  }
  if (app.needs.draw) {
    tokenView.draw();
    app.needs.draw = false;
  }
  updateStatus(now);
}

function frame(now) {
  requestAnimationFrame(frame);
  if (!app.stepper || app.hidden) return;
  // Large runs: a frame either steps or refreshes the O(n^2 d) analyses, not both.
  // The pool steps while this thread draws and analyses (the state only changes when a step
  // completes, between frames), so it is started whatever the analyses cost.
  if (app.playing) {
    if (usesPool(app.stepper)) poolSteps();
    else if (!heavyAnalysesDue(now) && runSteps(now) > 0) markAll();
  }
  render(now, false);
}

/**
 * Large runs step in the worker pool (particles/pool_run.js): up to the frame's steps within the
 * frame budget, while the main thread keeps drawing; the frame after the batch shows it.
 */
function poolSteps() {
  if (poolBusy() || app.poolPending) return;
  const s = app.stepper;
  app.poolPending = true;
  const alive = () => app.stepper === s;
  poolAdvance(s, app.stepsPerFrame, { budgetMs: FRAME_BUDGET_MS, pastEnd: app.pastUntil, alive })
    .then((taken) => {
      if (!alive()) return;
      app.sps.record(performance.now(), taken);
      if (taken > 0) markAll();
      afterSteps();
    })
    .catch((e) => console.warn(e))
    .finally(() => {
      app.poolPending = false;
      // The next batch starts at once, not at the next frame: the workers never wait for a
      // frame (or an analysis on this thread) to be handed the state they just computed.
      if (alive() && app.playing && !app.hidden) poolSteps();
    });
}

function updateStatus(now) {
  const s = app.stepper;
  const dt = s.dt();
  const t = fmtT(s.t(), dt);
  const step = s.step_count();
  const until = s.until_steps();
  // Written only when changed: the status is refreshed every frame, and rewriting the same text
  // still costs the page a style, layout and paint pass (a third of the main thread at n = 4096).
  setText('status-t', t);
  setText('status-step', `${step} / ${until}`);
  setText('status-sps', String(Math.round(app.sps.perSecond(now, app.playing))));
  const status = s.status();
  const state = status === 'diverged' ? 'diverged (paused)'
    : app.seek ? 'computing to the moment asked'
    : app.playing ? (app.pastUntil ? 'playing past until' : 'playing')
    : step > until && until > 0 ? 'paused (past until)'
    : status === 'finished' ? 'finished at until'
    : 'paused';
  setText('status-state', state);
  const m = app.metrics;
  const parts = [`${s.preset()}: t = ${t}, step ${step} of ${until}, ${state}.`];
  if (m) parts.push(`${m.clusters} clusters, Boolean distance ${fmtValue(m.boolean_distance)}, effective rank ${fmtValue(m.effective_rank)}${m.energy === null ? '' : `, energy ${fmtValue(m.energy)}`}.`);
  summary.offer(parts.join(' '));
}

/** Panel captions with the equations the panels show. */
function refreshText() {
  const s = app.stepper;
  $('description').textContent = s.description();
  const model = s.model();
  const coords = s.coords();
  const d = s.d();
  let eq;
  if (model === 'euclidean') {
    eq = 'dxᵢ/dt = Σⱼ Pᵢⱼ V xⱼ, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).';
    eq += coords === 'z'
      ? ' Shown: the rescaled tokens zᵢ = e⁻ᵗⱽ xᵢ, which obey dzᵢ/dt = Σⱼ Pᵢⱼ V (zⱼ − zᵢ).'
      : ' Shown: the raw tokens xᵢ (autoscaled as they grow or shrink).';
  } else if (model === 'sphere-sa') {
    eq = 'On the unit sphere (SA): dxᵢ/dt = Πₓᵢ(Σⱼ Pᵢⱼ V xⱼ), Πₓ(y) = y − ⟨x, y⟩ x, Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).';
  } else {
    eq = 'On the unit sphere (USA): dxᵢ/dt = Πₓᵢ(Σⱼ Wᵢⱼ V xⱼ), Wᵢⱼ = e^(β⟨Q xᵢ, K xⱼ⟩) / n (rows do not sum to 1).';
  }
  let view = '';
  if (d === 1) view = ' d = 1: each token’s position against time.';
  else if (d > 3) {
    view = app.projection.mode === 'axes'
      ? ` d = ${d}: two coordinates shown.`
      : ` d = ${d}: projected on principal axes fixed at reset.`;
  } else if (d === 3) view = ' Drag to rotate.';
  const colour = tokenView.colour === 'index'
    ? 'Colour: token index (viridis, token 0 dark)'
    : tokenView.colour === 'plain' ? 'Colour: one for all tokens' : 'Colour: clusters (grey: alone)';
  $('tokens-caption').textContent = `${eq}${view} ${colour}; ring: leaders (a column of P with an entry > ½).`;

  const block = s.heatmap_block(512);
  let heat = model === 'sphere-usa'
    ? 'Shows W row-normalised: Wᵢⱼ / Σₖ Wᵢₖ, which equals softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).'
    : 'Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩): row i is the query token, column j the key token; rows sum to 1.';
  heat += heatmapView.scale === 'one'
    ? ' Colour: viridis on the fixed scale 0 to 1 (a uniform P is dark, 1/n). Hover for the exact value.'
    : ' Colour: viridis from 0 to max P (the largest entry is yellow, whatever its size). Hover for the exact value.';
  if (block > 1) heat += ` Each pixel shows the largest entry of a ${block} × ${block} block.`;
  $('heatmap-caption').textContent = heat;

  const energy = s.energy_defined()
    ? 'Energy E_β = 1/(2βn²) Σᵢⱼ e^(β⟨xᵢ, xⱼ⟩), which the flow increases.'
    : 'Energy: defined for sphere models with Q = K = V = I.';
  $('chart-caption').textContent = `Clusters: single-linkage groups (distance < cluster_tol × the spread of the initial tokens) in ${coords}. Boolean distance: max |Pᵢⱼ − round Pᵢⱼ| (log scale; 0 drawn at 1e-16). Effective rank of P: exp of the entropy of its normalised singular values. ${energy} Hover for values.`;
}

// ---- hover ------------------------------------------------------------------------------

function showHeatTip(cell) {
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

function onHeatHover(cell) {
  app.heatHover = cell;
  tokenView.highlight = cell ? [cell.i, cell.j] : null;
  app.needs.draw = true;
  showHeatTip(cell);
  if (!app.playing) render(performance.now(), false);
}

function showChartTip(h) {
  const tip = $('chart-tip');
  const cursor = $('chart-cursor');
  const sample = h && app.stepper ? app.stepper.history_near(h.t) : null;
  if (!sample) {
    tip.hidden = true;
    cursor.hidden = true;
    return;
  }
  const x = chartView.xOf(sample.t);
  if (x !== null) {
    cursor.style.left = `${x}px`;
    cursor.hidden = false;
  }
  tipLines(tip, [
    `t = ${fmtT(sample.t, app.stepper.dt())} (step ${sample.step})`,
    `clusters: ${sample.clusters}`,
    `Boolean distance: ${fmtValue(sample.boolean_distance)}`,
    `effective rank: ${fmtValue(sample.effective_rank)}`,
    `energy: ${sample.energy === null ? 'not defined here' : fmtValue(sample.energy)}`,
  ]);
  placeTip(tip, h.x, h.y, h.w);
}

function onChartHover(h) {
  app.chartHover = h;
  showChartTip(h);
}
// ---- the lab's interface -------------------------------------------------------------------

/** Builds the panels and their controls (the wasm module initialised). */
function setup() {
  tokenView = new TokenView($('tokens'));
  tokenView.onChange = () => {
    app.needs.draw = true;
  };
  tokenView.onCameraEnd = () => onLink('replace');
  heatmapView = new HeatmapView($('heatmap'), onHeatHover);
  chartView = new ChartView($('chart'), onChartHover);
  summary = new Summary($('summary'));
  controls = new Controls({
    presets: wasm.presets(),
    paperV: wasm.paper_v_2d(),
    onPreset: (name) => {
      const res = checkPage(presetLink(name));
      if (res.ok) {
        apply(res);
        suggestSpeed();
        onLink('replace'); // the new entry without the old speed
      }
    },
    onEdit: edit,
    onPlay: togglePlay,
    onStep: stepOnce,
    onReset: reset,
    onNewSeed: newSeed,
    onSpeed: (k) => {
      app.stepsPerFrame = k;
      app.speedChosen = true;
      onLink('replace');
    },
    onCoords: (c) => edit('coords', c, true),
    onTrails: (on) => {
      tokenView.showTrails = on;
      app.needs.draw = true;
      onLink('push');
    },
    onProjection: (mode, a, b) => {
      app.projection = { mode, a, b };
      if (app.stepper) {
        setupView();
        refreshText();
        renderNow();
      }
      onLink('push');
    },
    onHalveDt: () => halve('dt'),
    onHalveBeta: () => halve('beta'),
  });
  controls.showSpeed(app.stepsPerFrame);
  $('heat-scale').addEventListener('change', (e) => {
    showHeatScale(heatmapView, e.target.value);
    if (!app.stepper) return;
    refreshText();
    app.needs.heat = true;
    app.lastHeatAt = -Infinity;
    if (!app.playing) renderNow();
    onLink('push');
  });
  $('colour').addEventListener('change', (e) => {
    tokenView.colour = e.target.value;
    if (!app.stepper) return;
    refreshText();
    app.needs.draw = true;
    if (!app.playing) renderNow();
    onLink('push');
  });
  // prefers-reduced-motion: the run starts paused, with a note and the Play button.
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
    app.userPaused = true;
    $('motion-note').hidden = false;
  }
}

/** After the first configuration is shown: redraws on resize and theme changes, test hooks. */
function start() {
  const redraw = () => {
    app.needs.draw = true;
    app.needs.chart = true;
    heatmapView.draw();
  };
  onThemeChange(redraw);
  const ro = new ResizeObserver(redraw);
  for (const id of ['tokens', 'heatmap', 'chart']) ro.observe($(id));

  window.__attn = Object.freeze({
    t: () => app.stepper.t(),
    step: () => app.stepper.step_count(),
    n: () => app.stepper.n(),
    d: () => app.stepper.d(),
    dt: () => app.stepper.dt(),
    configString: () => app.stepper.config_string(),
    /** The tokens in the configuration's coords (n x d, row-major Float64Array). */
    tokens: () => app.stepper.tokens(app.stepper.coords()),
    seeking: () => app.seek !== null,
    status: () => app.stepper.status(),
    playing: () => app.playing,
    metrics: () => app.metrics ?? null,
    historyLen: () => app.stepper.history_len(),
    historyNear: (t) => app.stepper.history_near(t),
    /** Worker pool: force `k` workers (0 = step on the main thread, null = automatic). */
    setWorkers,
    workers: () => (usesPool(app.stepper) ? workerCount() : 0),
    /** Whether a step is in flight in the worker pool. */
    stepping: () => poolBusy() || app.poolPending === true,
    wasm,
  });
}

// ---- hooks for the postMessage API (embed/api.js) and PNG import (export/menu.js) ----------

/** Plays (as the Play button; a diverged run stays paused with its message). */
function play() {
  if (app.stepper && !app.playing) togglePlay();
}

/** Pauses (as the Pause button) and stops a seek in progress. */
function pause() {
  app.seek = null;
  if (app.playing) togglePlay();
  else app.userPaused = true;
}

/**
 * Shows the run paused at step `target` (a whole number >= 0), computed from the start (or from
 * the current step when it lies before) in slices that never freeze the page (particles/seek.js).
 * Resolves to the step reached: less than `target` when the run diverged on the way, or when
 * another command (play, a new configuration, another seek) took over.
 */
async function seekStep(target) {
  pause();
  if (!app.stepper) return 0;
  if (target < app.stepper.step_count() || app.stepper.status() === 'diverged') startRun(app.canonical);
  const s = app.stepper;
  const token = {};
  app.seek = token;
  const alive = () => app.seek === token && app.stepper === s && !app.playing;
  // Large runs step in the worker pool (once a frame's pool step in flight has landed).
  while (app.poolPending && alive()) await new Promise((r) => { setTimeout(r, 5); });
  const pool = usesPool(s) ? (k, budgetMs) => poolAdvance(s, k, { budgetMs, pastEnd: true, alive }) : null;
  // While computing, only the tokens and the status are redrawn; the analyses (O(n^2) each) wait
  // for the moment reached.
  const reached = await advanceTo(s, target, { alive, onProgress: markTokens, pool });
  if (app.seek === token) app.seek = null;
  if (app.stepper !== s) return reached;
  markAll();
  if (s.status() === 'diverged') showDivergence(s.message());
  render(performance.now(), true);
  return s.step_count();
}

/** Marks the tokens for redrawing at the current step (not the analyses). */
function markTokens() {
  Object.assign(app.needs, { data: true, draw: true });
}

/** The run's state for the API: t, step, status (playing, paused, seeking, finished, diverged),
 * the configuration and the last metrics computed ({ step, t, clusters, boolean_distance,
 * effective_rank, energy } or null). */
function runState() {
  const s = app.stepper;
  if (!s) return null;
  const run = s.status();
  const status = run === 'diverged' ? 'diverged' : app.seek ? 'seeking' : app.playing ? 'playing' : run === 'finished' ? 'finished' : 'paused';
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
    metrics: m ? { step: m.step, t: m.t, clusters: m.clusters, boolean_distance: m.boolean_distance, effective_rank: m.effective_rank, energy: m.energy ?? null } : null,
  };
}

/** What main.js uses of the particle lab. */
export const particles = Object.freeze({
  setup,
  start,
  frame,
  /** The last applied configuration string. */
  canonical: () => app.canonical,
  /**
   * Shows link `text`: its configuration (a new run when it differs from the current one), its
   * view keys (view_keys.js), and, for `t=` / `step=`, the run computed to that step and paused.
   */
  show(text) {
    const fresh = !app.stepper;
    const link = wasm.check_link(text);
    const ok = link.ok && link.lab === 'particles';
    const config = ok ? link.canonical : text;
    if (fresh || config !== app.canonical) loadConfig(config);
    else if (ok) showRun();
    if (!ok || app.canonical !== config) {
      // Refused (the message names the key): the fallback run keeps its own view.
      if (fresh) suggestSpeed();
      return;
    }
    applyView({ app, tokenView, heatmapView, controls }, link.view);
    if (link.view.speed === null) suggestSpeed();
    setupView();
    refreshText();
    app.needs.heat = true;
    renderNow();
    onLink('replace');
    if (link.open_step !== null) {
      const done = seekStep(link.open_step);
      showSeek(link.open_step, () => app.stepper.step_count(), done);
      done.then(() => tokenView.restartTrail());
    }
  },
  /** The view keys of the lab's current view, as [key, value] pairs (view_keys.js). */
  viewPairs: () => viewPairs({ app, tokenView, heatmapView, d: app.stepper ? app.stepper.d() : 0 }),
  /** `fn(how)` is called whenever the link changes: how = 'push' (a committed change: a history
   * entry) or 'replace' (dragging a slider, loading a link). */
  onLinkChange(fn) {
    onLink = fn;
  },
  /** Another lab is shown: the run neither steps nor draws. */
  setHidden(hidden) {
    app.hidden = hidden;
  },
  /** Shown again: redraw everything. */
  redraw() {
    markAll();
    heatmapView.draw();
  },
  togglePlay,
  step: stepOnce,
  reset,
  play,
  pause,
  seekStep,
  state: runState,
  /** Checks a particle configuration as a link is checked (the core's parser, then the page's
   * per-step budget): `{ ok, canonical, ... }` or `{ ok: false, key, message }`. */
  check: (text) => checkPage(text),
  /** Shows refusal `res` ({ key, message }) in the lab's error box, followed by `tail`. */
  refuse: (res, tail) => showConfigError(res, tail),
});
