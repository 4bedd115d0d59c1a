// Attention Dynamics Playground: wires the wasm Stepper (crates/web) to the page, and switches
// between the particle lab (this file) and the training lab (training/, loaded on first use).
//
// Data flow: URL hash / controls -> Draft (state/) -> check_config -> Stepper -> views (render/).
// The run advances in requestAnimationFrame with a per-frame time budget; metrics (O(n^2)) and
// the heatmap are refreshed at a cadence that adapts to their cost.
// Labs: the hash's `lab` key picks the lab (`lab=training` is the training lab, anything else
// the particle lab); the header's tabs put the chosen lab's last configuration in the hash.

import init, * as wasm from './pkg/attn_web.js';
import { Draft } from './state/draft.js';
import { readHash, writeHash } from './state/hash.js';
import { Controls, SPEEDS } from './ui/controls.js';
import { bindKeys } from './ui/keyboard.js';
import { LabTabs } from './ui/labs.js';
import { Summary } from './ui/summary.js';
import { TokenView } from './render/tokens.js';
import { HeatmapView } from './render/heatmap.js';
import { ChartView } from './render/chart.js';
import { onThemeChange } from './render/palette.js';

const FRAME_BUDGET_MS = 10; // time spent stepping per animation frame (of ~16 ms)
const CHART_INTERVAL_MS = 200; // chart redraws while playing
const DEFAULT_TRAINING = 'lab=training&preset=scan-snap'; // the training lab's first configuration
const $ = (id) => document.getElementById(id);

const app = {
  stepper: null,
  canonical: '',
  draft: new Draft(),
  playing: false,
  userPaused: false, // the user paused: configuration changes keep the run paused
  pastUntil: false, // the user asked to continue after `until`
  stepsPerFrame: 1,
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
  sps: [], // [time, steps] over the last second
  heatHover: null,
  chartHover: null,
  hidden: false, // the training lab is shown: the particle run neither steps nor draws
};

let controls;
let tokenView;
let heatmapView;
let chartView;
let summary;
let labTabs;
let activeLab = 'particles';
let training = null; // the training lab, once loaded
let trainingLoading = null;

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
function fmtValue(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a < 1e-3 || a >= 1e5) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

// ---- the run ----------------------------------------------------------------------------

/** Replaces the run by a new Stepper for a valid canonical configuration. */
function startRun(canonical) {
  const s = new wasm.Stepper(canonical);
  if (app.stepper) app.stepper.free();
  app.stepper = s;
  app.canonical = s.config_string();
  app.pastUntil = false;
  app.costPerStep = NaN;
  app.sps = [];
  app.lastMetricsAt = -Infinity;
  app.lastHeatAt = -Infinity;
  app.lastChartAt = -Infinity;
  setupView();
  hideDivergence();
  setPlaying(!app.userPaused && s.status() === 'running');
  refreshText();
  // First paint at once; for large runs the O(n^2 d) analyses follow in the next frames.
  render(performance.now(), true, s.n() * s.n() * s.d() > 2e6);
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

/** Advances while playing, within the frame budget; returns the steps taken. */
function runSteps(now) {
  const s = app.stepper;
  const target = app.stepsPerFrame;
  const t0 = performance.now();
  let taken = 0;
  while (taken < target) {
    const elapsed = performance.now() - t0;
    if (taken > 0 && elapsed >= FRAME_BUDGET_MS) break;
    const left = FRAME_BUDGET_MS - elapsed;
    const chunk = Number.isFinite(app.costPerStep)
      ? Math.max(1, Math.min(target - taken, Math.floor(left / Math.max(app.costPerStep, 1e-4))))
      : 1;
    const c0 = performance.now();
    const got = app.pastUntil ? s.advance_past_until(chunk) : s.advance(chunk);
    const ms = performance.now() - c0;
    if (got > 0) {
      const per = ms / got;
      app.costPerStep = Number.isFinite(app.costPerStep) ? 0.7 * app.costPerStep + 0.3 * per : per;
    }
    taken += got;
    if (got < chunk) break;
  }
  app.sps.push([now, taken]);
  afterSteps();
  return taken;
}

/** Pauses at `until` or on divergence. */
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
  controls.setPlaying(on);
  if (!on) app.sps = [];
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
  if (app.playing) {
    app.userPaused = true;
    setPlaying(false);
  }
  if (s.status() === 'diverged') {
    showDivergence(s.message());
    return;
  }
  const got = s.status() === 'finished' ? s.advance_past_until(1) : s.advance(1);
  if (s.status() === 'diverged') showDivergence(s.message());
  if (got > 0) markAll();
  renderNow();
}

/** A speed at which a preset plays to its `until` in about 8 s (set when a preset is opened). */
function suggestSpeed() {
  const target = Math.max(1, app.stepper.until_steps() / 480);
  const k = SPEEDS.filter((v) => v <= target).at(-1) ?? 1;
  app.stepsPerFrame = k;
  controls.showSpeed(k);
}

function reset() {
  if (app.stepper) startRun(app.canonical);
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

/** Applies a valid check result: new run, canonical hash, controls. */
function apply(res, note = '') {
  startRun(res.canonical);
  writeHash(res.canonical);
  app.draft = Draft.fromText(res.canonical);
  clearConfigError();
  controls.showValues(new Map(res.pairs), null);
  $('config-note').textContent = note;
}

function showConfigError(res, tail) {
  const box = $('config-error');
  const lead = document.createElement('strong');
  lead.textContent = 'Not applied. ';
  const key = document.createElement('code');
  key.className = 'key';
  key.textContent = res.key;
  const msg = String(res.message);
  box.replaceChildren(lead, key, document.createTextNode(`: ${msg}${/[.!?]$/.test(msg) ? '' : '.'} ${tail}`));
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
  const res = wasm.check_config(draft.text());
  app.draft = draft;
  if (!res.ok) {
    // While typing only the field is marked; the message (an alert) comes with Enter or leaving it.
    controls.markKey(res.key);
    if (commit) {
      showConfigError(res, 'The last valid run keeps going.');
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

/** Starts from a configuration string (the hash); falls back to its preset when refused. */
function loadConfig(text) {
  const res = wasm.check_config(text);
  if (res.ok) {
    apply(res);
    return;
  }
  const draft = Draft.fromText(text);
  app.draft = draft;
  let fallback = wasm.check_config(`preset=${draft.preset()}`);
  if (!fallback.ok) fallback = wasm.check_config('');
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
  const res = wasm.check_config(draft.text());
  if (res.ok) {
    app.userPaused = false;
    apply(res);
  }
}

function halveDt() {
  const draft = Draft.fromText(app.canonical);
  const dt = app.stepper.dt() / 2;
  draft.set('dt', String(dt));
  const res = wasm.check_config(draft.text());
  if (res.ok) {
    app.userPaused = false;
    apply(res, `dt halved to ${dt}.`);
  } else {
    showConfigError(res, 'The last valid run keeps going.');
  }
}

// ---- divergence -------------------------------------------------------------------------

function showDivergence(message) {
  $('divergence-message').textContent = message;
  const dt = app.stepper.dt();
  $('halve-dt').textContent = `Halve dt (${dt} → ${dt / 2}) and restart`;
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

function updateMetrics(now, force) {
  const s = app.stepper;
  if (!force && now - app.lastMetricsAt < metricsInterval()) return;
  const t0 = performance.now();
  try {
    app.metrics = s.metrics();
    tokenView.setStyle(s.labels(), s.leaders());
  } catch {
    app.metrics = null; // P cannot be computed at this state (the divergence message says why)
  }
  app.metricsCost = performance.now() - t0;
  app.lastMetricsAt = now;
  app.needs.metrics = false;
  app.needs.chart = true;
  app.needs.draw = true;
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
    $('heatmap-max').textContent = `max P = ${fmtValue(app.stepper.p_max())}`;
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
  if (app.needs.metrics) updateMetrics(now, settled);
  if (app.needs.heat) updateHeatmap(now, settled);
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
  if (app.playing && !heavyAnalysesDue(now) && runSteps(now) > 0) markAll();
  render(now, false);
}

function updateStatus(now) {
  const s = app.stepper;
  const dt = s.dt();
  const t = fmtT(s.t(), dt);
  const step = s.step_count();
  const until = s.until_steps();
  $('status-t').textContent = t;
  $('status-step').textContent = `${step} / ${until}`;
  while (app.sps.length && now - app.sps[0][0] > 1000) app.sps.shift();
  let sps = 0;
  if (app.playing && app.sps.length > 1) {
    const steps = app.sps.slice(1).reduce((a, [, k]) => a + k, 0);
    sps = steps / Math.max(1e-3, (now - app.sps[0][0]) / 1000);
  }
  $('status-sps').textContent = String(Math.round(sps));
  const status = s.status();
  const state = status === 'diverged' ? 'diverged (paused)'
    : app.playing ? (app.pastUntil ? 'playing past until' : 'playing')
    : status === 'finished' ? 'finished at until'
    : 'paused';
  $('status-state').textContent = state;
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
  $('tokens-caption').textContent = `${eq}${view} Colour: clusters (grey: alone); ring: leaders (a column of P with an entry > ½).`;

  const block = s.heatmap_block(512);
  let heat = model === 'sphere-usa'
    ? 'Shows W row-normalised: Wᵢⱼ / Σₖ Wᵢₖ, which equals softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩).'
    : 'Pᵢⱼ = softmaxⱼ(β⟨Q xᵢ, K xⱼ⟩): row i is the query token, column j the key token; rows sum to 1.';
  heat += ' Colour: viridis from 0 to max P. Hover for the exact value.';
  if (block > 1) heat += ` Each pixel shows the largest entry of a ${block} × ${block} block.`;
  $('heatmap-caption').textContent = heat;

  const energy = s.energy_defined()
    ? 'Energy E_β = 1/(2βn²) Σᵢⱼ e^(β⟨xᵢ, xⱼ⟩), which the flow increases.'
    : 'Energy: defined for sphere models with Q = K = V = I.';
  $('chart-caption').textContent = `Clusters: single-linkage groups (distance < cluster_tol × the spread of the initial tokens) in ${coords}. Boolean distance: max |Pᵢⱼ − round Pᵢⱼ| (log scale; 0 drawn at 1e-16). Effective rank of P: exp of the entropy of its normalised singular values. ${energy} Hover for values.`;
}

// ---- hover ------------------------------------------------------------------------------

function placeTip(tip, x, y, w) {
  tip.hidden = false;
  const width = tip.offsetWidth;
  const left = x + 14 + width > w ? Math.max(0, x - 14 - width) : x + 14;
  tip.style.left = `${left}px`;
  tip.style.top = `${Math.max(0, y + 14)}px`;
}

function tipLines(tip, lines) {
  tip.replaceChildren(...lines.map((text) => {
    const div = document.createElement('div');
    div.textContent = text;
    return div;
  }));
}

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

// ---- labs -------------------------------------------------------------------------------

/** Loads the training lab's modules (once, on first use). */
function loadTraining() {
  if (!trainingLoading) {
    trainingLoading = import('./training/lab.js').then((m) => {
      training = m.createTrainingLab(wasm);
      return training;
    });
  }
  return trainingLoading;
}

function showLab(lab) {
  activeLab = lab;
  labTabs.show(lab);
  app.hidden = lab !== 'particles';
  if (lab !== 'training' && training) training.hide();
  if (lab === 'particles') {
    markAll();
    heatmapView.draw();
  }
}

/** Shows the lab a configuration string asks for, with that configuration. */
async function route(text) {
  if (wasm.requested_lab(text) === 'training') {
    showLab('training');
    const lab = await loadTraining();
    if (activeLab === 'training') lab.show(text);
    return;
  }
  showLab('particles');
  const fresh = !app.stepper;
  if (fresh || text !== app.canonical) loadConfig(text);
  if (fresh) suggestSpeed();
}

/** A tab was picked: that lab's last configuration goes into the hash (a history entry). */
function selectLab(lab) {
  if (lab === activeLab) return;
  location.hash = lab === 'training'
    ? (training?.canonical || DEFAULT_TRAINING)
    : (app.canonical || 'preset=polytope');
}

/** Keyboard shortcuts act on the lab shown. */
function onKey(name) {
  return () => {
    if (activeLab === 'training') {
      if (training) training[name]();
    } else {
      ({ togglePlay, step: stepOnce, reset })[name]();
    }
  };
}

// ---- start ------------------------------------------------------------------------------

async function main() {
  await init();
  tokenView = new TokenView($('tokens'));
  tokenView.onChange = () => {
    app.needs.draw = true;
  };
  heatmapView = new HeatmapView($('heatmap'), onHeatHover);
  chartView = new ChartView($('chart'), onChartHover);
  summary = new Summary($('summary'));
  controls = new Controls({
    presets: wasm.presets(),
    paperV: wasm.paper_v_2d(),
    onPreset: (name) => {
      const res = wasm.check_config(`preset=${name}`);
      if (res.ok) {
        apply(res);
        suggestSpeed();
      }
    },
    onEdit: edit,
    onPlay: togglePlay,
    onStep: stepOnce,
    onReset: reset,
    onNewSeed: newSeed,
    onSpeed: (k) => {
      app.stepsPerFrame = k;
    },
    onCoords: (c) => edit('coords', c, true),
    onTrails: (on) => {
      tokenView.showTrails = on;
      app.needs.draw = true;
    },
    onProjection: (mode, a, b) => {
      app.projection = { mode, a, b };
      if (app.stepper) {
        setupView();
        refreshText();
        renderNow();
      }
    },
    onHalveDt: halveDt,
  });
  controls.showSpeed(app.stepsPerFrame);
  $('version').textContent = `attn-web ${wasm.version()}`;

  labTabs = new LabTabs(selectLab);
  await route(readHash());
  bindKeys({ togglePlay: onKey('togglePlay'), step: onKey('step'), reset: onKey('reset') });
  window.addEventListener('hashchange', () => route(readHash()));
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
    status: () => app.stepper.status(),
    playing: () => app.playing,
    metrics: () => app.metrics ?? null,
    wasm,
  });
  performance.mark('attn-ready');
  window.__attnReady = true;
  requestAnimationFrame(frame);
}

main().catch((err) => {
  const box = $('config-error');
  box.textContent = `The playground could not start: ${err && err.message ? err.message : err}`;
  console.error(err);
});
