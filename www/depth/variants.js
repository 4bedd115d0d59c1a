// Computing the depth lab's variants in its worker (workers/depth.js, its own wasm instance):
// one message per variant, each reply's result kept and drawn as it arrives, with progress,
// Cancel and the summary for screen readers. Similarity tiles (f32 values and pixels,
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

export const variantMethods = {
  /** Computes every configured variant again, one message per variant. */
  compute() {
    if (!this.info) return;
    if (this.inflight) this.stopWorker();
    this.job += 1;
    this.results = [];
    this.tiles = null;
    this.times = new Map();
    this.queue = this.info.variants.map((variant) => ({ variant, result: true }));
    this.inflight = null;
    this.overflow([]);
    this.busy = true;
    this.controls.setBusy(true);
    this.fillVariantSelect();
    this.startedAt = performance.now();
    this.drawAll();
    this.sendNext();
  },

  ensureWorker() {
    if (!this.worker) {
      this.workerCreatedAt = performance.now();
      this.worker = new Worker(new URL('../workers/depth.js', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this.onReply(e.data);
      this.worker.onerror = (e) => {
        this.finish(`worker error: ${e.message || 'unknown'}`);
        this.stopWorker();
      };
    }
    return this.worker;
  },

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  },

  /** The label (`SAN`, ...) of variant name `name` (`san`, ...). */
  labelOf(name) {
    return this.info.variant_labels[this.info.variants.indexOf(name)] ?? name;
  },

  /** The next message to the worker: a variant to compute (with its tiles when it is the one
   * the grid's selector shows), or the tiles of the variant shown. */
  sendNext() {
    this.inflight = null;
    const job = this.queue.shift();
    if (!job) {
      if (this.busy) this.finish(null);
      return;
    }
    const tiles = this.labelOf(job.variant) === this.selectedVariant();
    const shared = this.sharedScale;
    this.inflight = { ...job, tiles, shared };
    this.ensureWorker().postMessage({
      id: this.job, config: this.canonical, variant: job.variant, maxSide: MAX_SIDE, shared,
      result: job.result, tiles, paths: job.result && this.pathsWanted(),
    });
    if (job.result) this.updateStatus(job.variant);
  },

  onReply(msg) {
    if (msg.id !== this.job) return;
    if (!msg.ok) {
      this.finish(msg.error);
      return;
    }
    if (msg.kind === 'paths') {
      // A variant's last message: its path decomposition (or null); then the next message.
      const r = this.results.at(-1);
      if (r) r.paths = msg.paths;
      if (msg.paths && this.visible) this.drawPaths();
      this.sendNext();
      return;
    }
    const label = this.labelOf(msg.variant);
    this.workerBytes = msg.wasmBytes;
    measureOnce('attn-depth-worker-start', this.workerCreatedAt, msg.startMs);
    if (msg.result) {
      this.results.push(msg.result);
      this.times.set(label, msg.ms);
      this.overflow(this.results);
    }
    if (msg.tiles) this.keepTiles(label, msg.shared, msg.tiles);
    this.ensureTiles();
    if (this.visible) this.drawAll();
    if (!msg.result) this.sendNext(); // a tiles-only reply has no paths message
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
    if (!this.inflight) this.sendNext();
    this.drawSimilarity();
  },

  /** Asks the worker for the shown variant's tiles when it has a result but no tiles are held
   * or on their way (a queued or running job of that variant brings them). */
  ensureTiles() {
    const want = this.selectedVariant();
    if (!this.info || this.tilesShown()) return;
    const name = this.info.variants[this.info.variant_labels.indexOf(want)];
    if (!name || !this.results.some((r) => r.variant === want)) return;
    const f = this.inflight;
    if (f && f.variant === name && f.tiles && f.shared === this.sharedScale) return;
    if (this.queue.some((j) => j.variant === name)) return;
    this.queue.unshift({ variant: name, result: false });
  },

  cancel() {
    if (!this.busy) return;
    this.stopWorker();
    this.job += 1;
    this.queue = [];
    this.inflight = null;
    this.finish('cancelled');
  },

  finish(error) {
    if (error) {
      this.queue = [];
      this.inflight = null;
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

  updateStatus(running) {
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    /** @type {HTMLProgressElement} */ ($('dp-progress')).value = total ? done / total : 0;
    const label = this.info.variant_labels[this.info.variants.indexOf(running)] ?? running;
    // The variant that just finished and its time in the worker: how long the next may take.
    const previous = this.results.at(-1)?.variant;
    const ms = previous !== undefined ? this.times.get(previous) : undefined;
    const took = ms !== undefined ? `; ${previous} took ${(ms / 1000).toFixed(1)} s` : '';
    $('dp-state').textContent = `computing ${label} (${done + 1} of ${total})…${took}`;
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
