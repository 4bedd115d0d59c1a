// The sweep panel: a grid of eta_Z and r values, several seeds per cell, run in a module Web
// Worker (workers/sweep.js, its own wasm instance) one cell per message, with a progress bar,
// cancel, a table that fills cell by cell, and the plot (drawn by the web crate with plotters).
// The form shows the grid's estimated time before it starts; a grid above the core's limit
// (400 cells, 40 000 runs: sweep_plan) is refused naming the list that is too long.

import { Draft } from '../lab/draft.js';
import { fitCanvas, chartColours, setLabels } from '../render/palette.js';

const $ = (id) => document.getElementById(id);

/** "0.5, 1 2" -> ['0.5', '1', '2'] (commas and/or spaces separate values). */
function splitList(text) {
  return String(text).split(/[\s,;]+/).filter((s) => s !== '');
}

/** 8 -> "about 8 s", 150 -> "about 3 min", 5400 -> "about 1 h 30 min". */
function aboutTime(seconds) {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function fmt(v, digits = 4) {
  return v === null || v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits);
}

export class SweepPanel {
  /** @param {AttnPageWasm} wasm the attn_web module (main thread) */
  constructor(wasm) {
    this.wasm = wasm;
    this.base = '';
    this.worker = null;
    this.run = null; // { id, base, cells, results, next, started, state, reference }
    this.runId = 0;
    this.canvas = /** @type {HTMLCanvasElement} */ ($('sw-chart'));
    this.progress = /** @type {HTMLProgressElement} */ ($('sw-progress'));
    this.progressText = $('sw-progress-text');
    this.error = $('sw-error');
    this.tbody = $('sw-table').querySelector('tbody');
    this.runButton = /** @type {HTMLButtonElement} */ ($('sw-run'));
    this.cancelButton = /** @type {HTMLButtonElement} */ ($('sw-cancel'));
    $('sw-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.start();
    });
    // The estimated time of the grid in the form, updated as it is edited (before starting).
    this.estimate = Object.assign(document.createElement('p'), { id: 'sw-estimate', className: 'hint' });
    this.estimate.setAttribute('aria-live', 'polite');
    $('sw-form').after(this.estimate);
    $('sw-form').addEventListener('input', () => this.showEstimate());
    this.cancelButton.addEventListener('click', () => this.cancel());
  }

  /** The training configuration the next sweep starts from (the run above). */
  setBase(canonical) {
    this.base = canonical;
    try {
      this.baseReference = this.wasm.uniform_entropy_of(canonical);
    } catch {
      this.baseReference = NaN;
    }
    $('sw-base').replaceChildren(
      document.createTextNode('Base configuration: the run above, '),
      Object.assign(document.createElement('code'), { textContent: canonical }),
      document.createTextNode('; each cell sets eta_z, ratio and seeds seed, seed + 1, …'),
    );
    this.showEstimate();
  }

  /** The form's grid: its size and estimated time, or a dash while it cannot start. */
  showEstimate() {
    let grid;
    try {
      grid = this.readGrid();
    } catch {
      this.estimate.textContent = 'Estimated time: – (the grid cannot start as it is; Run sweep says why)';
      return;
    }
    const { cells, runs, seconds } = grid.plan;
    this.estimate.textContent = `Estimated time: ${aboutTime(seconds)} (${cells} cells × ${grid.seeds} seeds = ${runs} runs, within about a factor 2)`;
  }

  /** The grid from the form, validated by the core (errors name the key). */
  readGrid() {
    const check = (key, label, list) => {
      const values = [];
      for (const text of splitList(list)) {
        const res = this.wasm.check_link(Draft.fromText(this.base).set(key, text).text(), 'training');
        if (!res.ok) throw Object.assign(new Error(`${label}: ${res.message}`), { key: res.key });
        const v = Number(new Map(res.pairs).get(key));
        if (!values.includes(v)) values.push(v);
      }
      if (!values.length) throw Object.assign(new Error(`${label}: give at least one value`), { key });
      return values;
    };
    const etas = check('eta_z', 'η_Z values', /** @type {HTMLInputElement} */ ($('sw-eta')).value);
    const ratios = check('ratio', 'r values', /** @type {HTMLInputElement} */ ($('sw-ratio')).value);
    const seedsText = /** @type {HTMLInputElement} */ ($('sw-seeds')).value.trim();
    const seeds = Number(seedsText);
    const max = this.wasm.sweep_max_seeds();
    if (!/^\d+$/.test(seedsText) || seeds < 1 || seeds > max) {
      throw Object.assign(new Error(`${JSON.stringify(seedsText)} is not allowed; allowed: 1..=${max}`), { key: 'seeds' });
    }
    // The core's one limit on a sweep (400 cells, 40 000 runs), and its estimated time.
    const plan = this.wasm.sweep_plan(this.base, etas.length, ratios.length, seeds);
    if (plan.ok === false) throw Object.assign(new Error(plan.message), { key: plan.key });
    const cells = [];
    for (const eta_z of etas) for (const ratio of ratios) cells.push({ eta_z, ratio });
    return { cells, seeds, plan };
  }

  showError(key, message) {
    const lead = document.createElement('strong');
    lead.textContent = 'Sweep not started. ';
    const code = document.createElement('code');
    code.className = 'key';
    code.textContent = key;
    this.error.replaceChildren(lead, code, document.createTextNode(`: ${message}`));
  }

  start() {
    if (this.run && this.run.state === 'running') return;
    let grid;
    try {
      grid = this.readGrid();
    } catch (err) {
      this.showError(err.key ?? 'sweep', err.message);
      return;
    }
    this.error.replaceChildren();
    const queries = Number(new Map(this.wasm.check_link(this.base, 'training').pairs).get('queries'));
    this.run = {
      id: ++this.runId,
      base: this.base,
      queries,
      seeds: grid.seeds,
      cells: grid.cells,
      results: [],
      next: 0,
      started: performance.now(),
      ended: null,
      state: 'running',
      reference: this.baseReference,
    };
    this.tbody.replaceChildren();
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    if (!this.worker) this.spawn();
    this.showProgress();
    this.draw();
    this.sendNext();
  }

  spawn() {
    this.worker = new Worker(new URL('../workers/sweep.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.onResult(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.fail(`the sweep worker failed: ${e.message || 'could not start'}`);
    };
  }

  sendNext() {
    const r = this.run;
    const cell = r.cells[r.next];
    this.worker.postMessage({ id: r.id, config: r.base, queries: r.queries, eta_z: cell.eta_z, ratio: cell.ratio, seeds: r.seeds });
  }

  onResult(msg) {
    const r = this.run;
    if (!r || msg.id !== r.id || r.state !== 'running') return;
    if (!msg.ok) {
      this.fail(msg.error);
      return;
    }
    r.results.push(msg.result);
    r.next += 1;
    this.addRow(msg.result);
    if (r.next >= r.cells.length) {
      r.state = 'done';
      r.ended = performance.now();
      this.runButton.disabled = false;
      this.cancelButton.disabled = true;
    } else {
      this.sendNext();
    }
    this.showProgress();
    this.draw();
  }

  fail(message) {
    if (this.run) {
      this.run.state = 'failed';
      this.run.ended = performance.now();
    }
    this.stopWorker();
    const lead = document.createElement('strong');
    lead.textContent = 'Sweep stopped. ';
    this.error.replaceChildren(lead, document.createTextNode(message));
    this.showProgress();
  }

  cancel() {
    const r = this.run;
    if (!r || r.state !== 'running') return;
    r.state = 'cancelled';
    r.ended = performance.now();
    this.stopWorker();
    this.showProgress();
  }

  stopWorker() {
    // Terminating stops a cell mid-run at once; a new worker is made for the next sweep.
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
  }

  addRow(res) {
    const tr = document.createElement('tr');
    const snap = res.mean_snap_iteration === null
      ? 'none'
      : `${res.mean_snap_iteration.toFixed(1)}${res.unsnapped ? ` (${res.unsnapped} not)` : ''}`;
    for (const text of [String(res.eta_z), String(res.ratio), fmt(res.mean), fmt(res.std), snap]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    this.tbody.append(tr);
  }

  showProgress() {
    const r = this.run;
    if (!r) return;
    const total = r.cells.length;
    const done = r.results.length;
    this.progress.max = total;
    this.progress.value = done;
    const secs = (((r.ended ?? performance.now()) - r.started) / 1000).toFixed(1);
    const pct = Math.round((100 * done) / total);
    const tail = {
      running: `${secs} s`,
      done: `done in ${secs} s`,
      cancelled: `cancelled after ${secs} s`,
      failed: 'stopped',
    }[r.state];
    this.progressText.textContent = `${done} / ${total} cells (${pct}%) × ${r.seeds} seeds · ${tail}`;
  }

  /** Redraws the plot of the finished cells (also on resize and theme change). */
  draw() {
    const { dpr } = fitCanvas(this.canvas);
    const res = this.run ? this.run.results : [];
    const col = (k) => Float64Array.from(res, (c) => c[k]);
    try {
      const layout = this.wasm.draw_sweep_chart(this.canvas, col('eta_z'), col('ratio'), col('mean'), col('std'),
        this.run ? this.run.reference : this.baseReference ?? NaN, dpr, chartColours());
      setLabels(this.canvas, layout);
    } catch (e) {
      console.warn(e);
    }
  }

  /** State for tests and the summary. */
  status() {
    const r = this.run;
    return r ? { state: r.state, done: r.results.length, total: r.cells.length, results: r.results } : { state: 'idle', done: 0, total: 0, results: [] };
  }
}
