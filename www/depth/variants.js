// Computing the depth lab's variants in its workers (workers/depth.js, each its own wasm
// instance; one per core, at most two, computing variants side by side): one message per
// variant, each reply's result kept and drawn as it arrives, with progress, Cancel and the
// summary for screen readers. Similarity tiles (f32 values and pixels,
// L·H·n²·4 bytes and more) are kept for one variant only, the one the grid's selector shows:
// the worker sends them with that variant's result, or on request when the selector changes
// (running the variant again when the worker's records hold another one). Methods of the lab's
// page (lab.js mixes them in).

import { fmt } from '../ui/format.js';
import { measureOnce } from '../lab/marks.js';

/** Pixels per similarity tile side (larger n is downsampled, block maximum). */
export const MAX_SIDE = 128;
// The path decomposition costs about as much as the forward pass again (more for SAN): it is
// computed in the page only up to this n * d_model * layers (bert-init is 1.2e6: use the CLI).
const MAX_PATHS_SIZE = 5e5;
const $ = (id) => document.getElementById(id);

/** Workers computing variants side by side: one per core, at most 2 (a variant's records,
 * L·H·n² similarities and more, are held once per worker). */
const WORKERS = Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));

/**
 * @typedef {{ variant: string, result: boolean, tiles: boolean, shared: boolean }} DepthJob
 * @typedef {{ worker: Worker, job: DepthJob|null, last: string|null }} DepthWorker
 *   (job: the message it is on; last: the variant its records hold)
 */

export const variantMethods = {
  /** Computes every configured variant again, one message per variant, on the workers side by
   * side: the first configured variant first (the first curve drawn), then the heaviest first
   * (info.schedule, the core's estimate), so the workers finish close together. */
  compute() {
    if (!this.info) return;
    if (this.jobs().length) this.stopWorker();
    this.job += 1;
    this.results = [];
    this.tiles = null;
    this.times = new Map();
    this.queue = this.info.schedule.map((variant) => ({ variant, result: true }));
    this.overflow([]);
    this.busy = true;
    this.controls.setBusy(true);
    this.fillVariantSelect();
    this.startedAt = performance.now();
    this.drawAll();
    this.sendNext();
  },

  /** The workers, started when first needed. @returns {DepthWorker[]} */
  ensureWorkers() {
    if (this.workers.length === 0) {
      this.workerCreatedAt = performance.now();
      for (let k = 0; k < WORKERS; k++) {
        /** @type {DepthWorker} */
        const w = { worker: new Worker(new URL('../workers/depth.js', import.meta.url), { type: 'module' }), job: null, last: null };
        w.worker.onmessage = (e) => this.onReply(e.data, w);
        w.worker.onerror = (e) => {
          this.finish(`worker error: ${e.message || 'unknown'}`);
          this.stopWorker();
        };
        this.workers.push(w);
      }
    }
    return this.workers;
  },

  /** Stops every worker (a computation cancelled or replaced). */
  stopWorker() {
    for (const w of this.workers) w.worker.terminate();
    this.workers = [];
  },

  /** The messages the workers are on. @returns {DepthJob[]} */
  jobs() {
    return this.workers.flatMap((w) => (w.job ? [w.job] : []));
  },

  /** The label (`SAN`, ...) of variant name `name` (`san`, ...). */
  labelOf(name) {
    return this.info.variant_labels[this.info.variants.indexOf(name)] ?? name;
  },

  /** Gives each idle worker its next message: a variant to compute (with its tiles when it is
   * the one the grid's selector shows), or the tiles of the variant shown (to the worker whose
   * records hold it, when that one is idle). */
  sendNext() {
    for (const w of this.ensureWorkers()) {
      if (w.job) continue;
      const at = this.queue.findIndex((j) => j.result || w.last === j.variant || !this.workers.some((o) => !o.job && o.last === j.variant));
      if (at < 0) continue;
      const [job] = this.queue.splice(at, 1);
      const tiles = this.labelOf(job.variant) === this.selectedVariant();
      const shared = this.sharedScale;
      w.job = { ...job, tiles, shared };
      w.last = job.variant;
      w.worker.postMessage({
        id: this.job, config: this.canonical, variant: job.variant, maxSide: MAX_SIDE, shared,
        result: job.result, tiles, paths: job.result && this.pathsWanted(),
      });
    }
    const jobs = this.jobs();
    if (jobs.length) {
      if (jobs.some((j) => j.result)) this.updateStatus();
    } else if (this.busy) {
      this.finish(null);
    }
  },

  /** A worker's reply (`w`: that worker). */
  onReply(msg, w) {
    if (msg.id !== this.job) return;
    if (!msg.ok) {
      this.finish(msg.error);
      return;
    }
    if (msg.kind === 'paths') {
      // A variant's last message: its path decomposition (or null); then the worker's next message.
      const r = this.results.find((x) => x.variant === this.labelOf(msg.variant));
      if (r) r.paths = msg.paths;
      if (msg.paths && this.visible) this.drawPaths();
      w.job = null;
      this.sendNext();
      return;
    }
    const label = this.labelOf(msg.variant);
    this.workerBytes = msg.wasmBytes;
    measureOnce('attn-depth-worker-start', this.workerCreatedAt, msg.startMs);
    if (msg.result) {
      // Kept in the configured order whichever worker finished first (the charts, the summary).
      const order = (r) => this.info.variant_labels.indexOf(r.variant);
      this.results.push(msg.result);
      this.results.sort((a, b) => order(a) - order(b));
      this.lastDone = label;
      this.times.set(label, msg.ms);
      this.overflow(this.results);
    }
    if (msg.tiles) this.keepTiles(label, msg.shared, msg.tiles);
    this.ensureTiles();
    if (this.visible) this.drawAll();
    if (!msg.result) {
      w.job = null; // a tiles-only reply has no paths message
      this.sendNext();
    } else {
      this.updateStatus();
    }
  },

  /**
   * Keeps the similarity tiles of variant `label` (coloured per head, or on one scale when
   * `shared`) when the grid shows them; the page holds one variant's tiles at most (the previous
   * ones are dropped), others are dropped at once.
   */
  keepTiles(label, shared, tiles) {
    if (label !== this.selectedVariant() || shared !== this.sharedScale) return;
    const { side, pixels, values } = tiles;
    this.tiles = { variant: label, shared, side, pixels, values, layers: this.info.layers, heads: this.info.heads, n: this.info.n };
  },

  /** Whether the tiles held are those the grid shows: the chosen variant on the chosen scale. */
  tilesShown() {
    const t = this.tiles;
    return t && t.variant === this.selectedVariant() && t.shared === this.sharedScale ? t : null;
  },

  /** The grid's selector or its colour scale changed: the previous tiles go, the chosen
   * variant's are asked for. */
  variantChosen() {
    if (this.tiles && !this.tilesShown()) this.tiles = null;
    this.ensureTiles();
    this.sendNext();
    this.drawSimilarity();
  },

  /** Asks the worker for the shown variant's tiles when it has a result but no tiles are held
   * or on their way (a queued or running job of that variant brings them). */
  ensureTiles() {
    const want = this.selectedVariant();
    if (!this.info || this.tilesShown()) return;
    const name = this.info.variants[this.info.variant_labels.indexOf(want)];
    if (!name || !this.results.some((r) => r.variant === want)) return;
    if (this.jobs().some((f) => f.variant === name && f.tiles && f.shared === this.sharedScale)) return;
    if (this.queue.some((j) => j.variant === name)) return;
    this.queue.unshift({ variant: name, result: false });
  },

  cancel() {
    if (this.busy) this.finish('cancelled'); // finish stops the workers and drops the queue
  },

  finish(error) {
    if (error) {
      // Nothing more of this computation: the other worker's replies would be stale.
      this.queue = [];
      this.job += 1;
      this.stopWorker();
    }
    this.busy = false;
    this.controls.setBusy(false);
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    /** @type {HTMLProgressElement} */ ($('dp-progress')).value = total ? done / total : 0;
    const secs = ((performance.now() - this.startedAt) / 1000).toFixed(1);
    $('dp-state').textContent = error === 'cancelled' ? `cancelled after ${done} of ${total}`
      : error ? `error: ${error}` : `done in ${secs} s`;
    this.offerSummary();
  },

  /** The variants in flight, the count done, and the last finished variant's time. */
  updateStatus() {
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    /** @type {HTMLProgressElement} */ ($('dp-progress')).value = total ? done / total : 0;
    const running = this.jobs().filter((j) => j.result).map((j) => this.labelOf(j.variant));
    // The variant that just finished and its time in its worker: how long the next may take.
    const previous = this.results.length ? this.lastDone : undefined;
    const ms = previous !== undefined ? this.times.get(previous) : undefined;
    const took = ms !== undefined ? `; ${previous} took ${(ms / 1000).toFixed(1)} s` : '';
    if (running.length) $('dp-state').textContent = `computing ${running.join(' and ')} (${done + 1} of ${total})…${took}`;
  },

  overflow(results) {
    const msgs = results.filter((r) => r.overflow).map((r) => `${r.variant}: ${r.overflow}`);
    $('dp-overflow').hidden = msgs.length === 0;
    $('dp-overflow').textContent = msgs.join(' ');
  },

  offerSummary() {
    const parts = this.results.map((r) => `${r.variant} ${fmt(r.residual[0])} → ${fmt(r.residual.at(-1))}`);
    this.summary.offer(`${this.info.preset}: relative residual from the input to layer ${this.info.layers}: ${parts.join('; ')}.`);
  },

  pathsWanted() {
    return this.info.n * this.info.d_model * this.info.layers <= MAX_PATHS_SIZE;
  },
};
