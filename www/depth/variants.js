// Computing the depth lab's variants in its worker (workers/depth.js, its own wasm instance):
// one message per variant, each reply (result JSON and similarity tiles) kept and drawn as it
// arrives, with progress, Cancel and the summary for screen readers. Methods of the lab's page
// (lab.js mixes them in).

import { fmt } from '../ui/format.js';

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
    if (this.busy) this.stopWorker();
    this.job += 1;
    this.results = [];
    this.tiles = new Map();
    this.times = new Map();
    this.queue = [...this.info.variants];
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

  sendNext() {
    const variant = this.queue.shift();
    if (!variant) {
      this.finish(null);
      return;
    }
    this.ensureWorker().postMessage({ id: this.job, config: this.canonical, variant, maxSide: MAX_SIDE, paths: this.pathsWanted() });
    this.updateStatus(variant);
  },

  onReply(msg) {
    if (msg.id !== this.job) return;
    if (!msg.ok) {
      this.finish(msg.error);
      return;
    }
    if (msg.kind === 'paths') {
      // The variant's last message: its path decomposition (or null); then the next variant.
      const r = this.results.at(-1);
      if (r) r.paths = msg.paths;
      if (msg.paths && this.visible) this.drawPaths();
      this.sendNext();
      return;
    }
    const label = msg.result.variant;
    this.results.push(msg.result);
    this.times.set(label, msg.ms);
    this.tiles.set(label, {
      variant: label,
      side: msg.side,
      pixels: msg.pixels,
      values: msg.values,
      layers: this.info.layers,
      heads: this.info.heads,
      n: this.info.n,
    });
    this.overflow(this.results);
    if (this.visible) this.drawAll();
  },

  cancel() {
    if (!this.busy) return;
    this.stopWorker();
    this.job += 1;
    this.queue = [];
    this.finish('cancelled');
  },

  finish(error) {
    this.busy = false;
    this.controls.setBusy(false);
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    $('dp-progress').value = total ? done / total : 0;
    const secs = ((performance.now() - this.startedAt) / 1000).toFixed(1);
    $('dp-state').textContent = error === 'cancelled' ? `cancelled after ${done} of ${total}`
      : error ? `error: ${error}` : `done in ${secs} s`;
    this.offerSummary();
  },

  updateStatus(running) {
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    $('dp-progress').value = total ? done / total : 0;
    const label = this.info.variant_labels[this.info.variants.indexOf(running)] ?? running;
    $('dp-state').textContent = `computing ${label} (${done + 1} of ${total})…`;
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
