// Computing the depth lab's variants in its workers (workers/depth.js, each its own wasm
// instance; one per core, at most two, computing variants side by side): one message per
// variant (the first in halves on both workers when the core says it pays: each computes half
// the heads and half the columns of O W_O, handing the other what it computed through a
// MessageChannel), each reply's result kept and drawn as it arrives, with progress, Cancel and the
// summary for screen readers. Similarity tiles (f32 values and pixels,
// L·H·n²·4 bytes and more) are kept for one variant only, the one the grid's selector shows:
// the worker sends them with that variant's result, or on request when the selector changes
// (running the variant again when the worker's records hold another one). The lab's page
// (lab.js) owns one DepthVariants.

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
 * @typedef {{ variant: string, result: boolean, tiles: boolean, shared: boolean, paths: boolean, halves?: boolean }} DepthJob
 * @typedef {{ worker: Worker, job: DepthJob|null, last: string|null }} DepthWorker
 *   (job: the message it is on; last: the variant its records hold)
 */

export class DepthVariants {
  /** @param {import('./lab.js').DepthLabPage} page the lab's page: the configuration (`info`),
   *   the variants' results, the drawing objects and the state they share */
  constructor(page) {
    this.page = page;
  }

  /** Computes every configured variant again, one message per variant, on the workers side by
   * side: the first configured variant first (the first curve drawn), then the heaviest first
   * (info.schedule, the core's estimate), so the workers finish close together. */
  compute() {
    if (!this.page.info) return;
    if (this.jobs().length) this.stopWorker();
    this.page.job += 1;
    this.page.results = [];
    this.page.charted.free();
    this.page.charted = new this.page.wasm.DepthResults(this.page.info.variants);
    this.page.tiles = null;
    this.page.times = new Map();
    this.page.halvesRun = null;
    this.page.queue = this.page.info.schedule.map((variant) => ({ variant, result: true }));
    // The first variant in halves on both workers when that pays (core depth::halves).
    if (this.page.info.halves && WORKERS === 2 && this.page.queue.length) this.page.queue[0].halves = true;
    this.overflow([]);
    this.page.busy = true;
    this.page.controls.setBusy(true);
    this.page.panels.fillVariantSelect();
    this.page.startedAt = performance.now();
    this.page.panels.drawAll();
    this.sendNext();
  }

  /** The workers, started when first needed. @returns {DepthWorker[]} */
  ensureWorkers() {
    if (this.page.workers.length === 0) {
      this.page.workerCreatedAt = performance.now();
      for (let k = 0; k < WORKERS; k++) {
        /** @type {DepthWorker} */
        const w = { worker: new Worker(new URL('../workers/depth.js', import.meta.url), { type: 'module' }), job: null, last: null };
        w.worker.onmessage = (e) => this.onReply(e.data, w);
        w.worker.onerror = (e) => {
          this.finish(`worker error: ${e.message || 'unknown'}`);
          this.stopWorker();
        };
        this.page.workers.push(w);
      }
    }
    return this.page.workers;
  }

  /** Stops every worker (a computation cancelled or replaced). */
  stopWorker() {
    for (const w of this.page.workers) w.worker.terminate();
    this.page.workers = [];
  }

  /** The messages the workers are on. @returns {DepthJob[]} */
  jobs() {
    return this.page.workers.flatMap((w) => (w.job ? [w.job] : []));
  }

  /** The label (`SAN`, ...) of variant name `name` (`san`, ...). */
  labelOf(name) {
    return this.page.info.variant_labels[this.page.info.variants.indexOf(name)] ?? name;
  }

  /** Gives each idle worker its next message: a variant to compute (with its tiles when it is
   * the one the grid's selector shows), or the tiles of the variant shown (to the worker whose
   * records hold it, when that one is idle). */
  sendNext() {
    const first = this.page.queue[0];
    if (first?.halves) {
      first.halves = false;
      const workers = this.ensureWorkers();
      if (workers.length === 2 && workers.every((w) => !w.job)) this.sendHalves(this.page.queue.shift(), workers);
    }
    for (const w of this.ensureWorkers()) {
      if (w.job) continue;
      const at = this.page.queue.findIndex((j) => j.result || w.last === j.variant || !this.page.workers.some((o) => !o.job && o.last === j.variant));
      if (at < 0) continue;
      const [queued] = this.page.queue.splice(at, 1);
      this.assign(w, this.jobFor(queued));
    }
    const jobs = this.jobs();
    if (jobs.length) {
      if (jobs.some((j) => j.result)) this.updateStatus();
    } else if (this.page.busy) {
      this.finish(null);
    }
  }

  /** The message for queued entry `queued` ({ variant, result }): with the variant's tiles when
   * the grid's selector shows it, on the grid's scale, and its paths when they are wanted.
   * @param {{ variant: string, result: boolean }} queued @returns {DepthJob} */
  jobFor(queued) {
    const tiles = this.labelOf(queued.variant) === this.page.panels.selectedVariant();
    return { variant: queued.variant, result: queued.result, tiles, shared: this.page.sharedScale, paths: queued.result && this.pathsWanted() };
  }

  /** Gives worker `w` job `job` (`extra`: more fields of its message, `transfer` their buffers).
   * @param {DepthWorker} w @param {DepthJob} job @param {object} [extra] @param {Transferable[]} [transfer] */
  assign(w, job, extra = {}, transfer = []) {
    w.job = job;
    w.last = job.variant;
    w.worker.postMessage({
      id: this.page.job, config: this.page.canonical, variant: job.variant, maxSide: MAX_SIDE, shared: job.shared,
      result: job.result, tiles: job.tiles, paths: job.paths, ...extra,
    }, transfer);
  }

  /** Sends queued entry `queued` to both workers in halves, joined by a MessageChannel: half 0
   * answers with the result (and the tiles and paths when asked), half 1 is asked for nothing
   * but its half; both then hold the variant's records.
   * @param {{ variant: string, result: boolean }} queued @param {DepthWorker[]} workers */
  sendHalves(queued, workers) {
    this.page.halvesRun = queued.variant;
    const channel = new MessageChannel();
    const whole = this.jobFor(queued);
    workers.forEach((w, half) => {
      const port = half === 0 ? channel.port1 : channel.port2;
      const job = half === 0 ? whole : { ...whole, result: false, tiles: false, paths: false };
      this.assign(w, job, { half, port }, [port]);
    });
  }

  /** A worker's reply (`w`: that worker). */
  onReply(msg, w) {
    if (msg.id !== this.page.job) return;
    if (!msg.ok) {
      this.finish(msg.error);
      return;
    }
    if (msg.kind === 'paths') {
      // A variant's last message: its path decomposition (or null); then the worker's next message.
      this.page.charted.set_paths(msg.variant, msg.paths);
      if (msg.paths && this.page.visible) this.page.panels.drawPaths();
      w.job = null;
      this.sendNext();
      return;
    }
    const label = this.labelOf(msg.variant);
    this.page.workerBytes = msg.wasmBytes;
    measureOnce('attn-depth-worker-start', this.page.workerCreatedAt, msg.startMs);
    if (msg.result) {
      // Kept in the configured order whichever worker finished first (the charts, the summary).
      const order = (r) => this.page.info.variant_labels.indexOf(r.variant);
      this.page.results.push(msg.result);
      this.page.charted.add(msg.result);
      this.page.results.sort((a, b) => order(a) - order(b));
      this.page.lastDone = label;
      this.page.times.set(label, msg.ms);
      this.overflow(this.page.results);
    }
    if (msg.tiles) this.keepTiles(label, msg.shared, msg.tiles);
    this.ensureTiles();
    // Without a paths message to follow (tiles only, or no paths asked), the worker is done: its
    // next message goes before the drawing, so that it computes while the page draws.
    if (!msg.result || !w.job?.paths) {
      w.job = null;
      this.sendNext();
    } else {
      this.updateStatus();
    }
    // Half 1 of a pass in halves brings neither a result nor tiles: nothing to draw again.
    if (this.page.visible && (msg.result || msg.tiles)) this.page.panels.drawAll();
  }

  /**
   * Keeps the similarity tiles of variant `label` (coloured per head, or on one scale when
   * `shared`) when the grid shows them; the page holds one variant's tiles at most (the previous
   * ones are dropped), others are dropped at once.
   */
  keepTiles(label, shared, tiles) {
    if (label !== this.page.panels.selectedVariant() || shared !== this.page.sharedScale) return;
    const { side, pixels, values } = tiles;
    this.page.tiles = { variant: label, shared, side, pixels, values, layers: this.page.info.layers, heads: this.page.info.heads, n: this.page.info.n };
  }

  /** Whether the tiles held are those the grid shows: the chosen variant on the chosen scale. */
  tilesShown() {
    const t = this.page.tiles;
    return t && t.variant === this.page.panels.selectedVariant() && t.shared === this.page.sharedScale ? t : null;
  }

  /** The grid's selector or its colour scale changed: the previous tiles go, the chosen
   * variant's are asked for. */
  variantChosen() {
    if (this.page.tiles && !this.tilesShown()) this.page.tiles = null;
    this.ensureTiles();
    this.sendNext();
    this.page.panels.drawSimilarity();
  }

  /** Asks the worker for the shown variant's tiles when it has a result but no tiles are held
   * or on their way (a queued or running job of that variant brings them). */
  ensureTiles() {
    const want = this.page.panels.selectedVariant();
    if (!this.page.info || this.tilesShown()) return;
    const name = this.page.info.variants[this.page.info.variant_labels.indexOf(want)];
    if (!name || !this.page.results.some((r) => r.variant === want)) return;
    if (this.jobs().some((f) => f.variant === name && f.tiles && f.shared === this.page.sharedScale)) return;
    if (this.page.queue.some((j) => j.variant === name)) return;
    this.page.queue.unshift({ variant: name, result: false });
  }

  cancel() {
    if (this.page.busy) this.finish('cancelled'); // finish stops the workers and drops the queue
  }

  finish(error) {
    if (error) {
      // Nothing more of this computation: the other worker's replies would be stale.
      this.page.queue = [];
      this.page.job += 1;
      this.stopWorker();
    }
    this.page.busy = false;
    this.page.controls.setBusy(false);
    const total = this.page.info.variants.length;
    const done = this.page.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    /** @type {HTMLProgressElement} */ ($('dp-progress')).value = total ? done / total : 0;
    const secs = ((performance.now() - this.page.startedAt) / 1000).toFixed(1);
    $('dp-state').textContent = error === 'cancelled' ? `cancelled after ${done} of ${total}`
      : error ? `error: ${error}` : `done in ${secs} s`;
    this.offerSummary();
  }

  /** The variants in flight, the count done, and the last finished variant's time. */
  updateStatus() {
    const total = this.page.info.variants.length;
    const done = this.page.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    /** @type {HTMLProgressElement} */ ($('dp-progress')).value = total ? done / total : 0;
    const running = this.jobs().filter((j) => j.result).map((j) => this.labelOf(j.variant));
    // The variant that just finished and its time in its worker: how long the next may take.
    const previous = this.page.results.length ? this.page.lastDone : undefined;
    const ms = previous !== undefined ? this.page.times.get(previous) : undefined;
    const took = ms !== undefined ? `; ${previous} took ${(ms / 1000).toFixed(1)} s` : '';
    if (running.length) $('dp-state').textContent = `computing ${running.join(' and ')} (${done + 1} of ${total})…${took}`;
  }

  overflow(results) {
    const msgs = results.filter((r) => r.overflow).map((r) => `${r.variant}: ${r.overflow}`);
    $('dp-overflow').hidden = msgs.length === 0;
    $('dp-overflow').textContent = msgs.join(' ');
  }

  offerSummary() {
    const parts = this.page.results.map((r) => `${r.variant} ${fmt(r.residual[0])} → ${fmt(r.residual.at(-1))}`);
    this.page.summary.offer(`${this.page.info.preset}: relative residual from the input to layer ${this.page.info.layers}: ${parts.join('; ')}.`);
  }

  pathsWanted() {
    return this.page.info.n * this.page.info.d_model * this.page.info.layers <= MAX_PATHS_SIZE;
  }
}
