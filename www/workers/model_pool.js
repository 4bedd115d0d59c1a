// The model lab's worker pool: when the model fits twice (wasm model_fits_twice: each
// worker holds its own copy of the weights), the lab's worker starts a second one, a helper
// running this same script with `?role=helper`, that loads the same model and computes the three
// surgery variants' residual curves (ModelLab.surgery) while the first runs the unmodified model
// (ModelLab.analyse_unmodified). The curves are the same bits wherever they are computed (core
// Encoder::surgery, tested against Encoder::analyse); a helper that is not ready, fails or holds
// other weights is not asked: the first worker computes everything, as with one worker.
//
// Helper in:  the first worker's { kind: 'load' | 'files', ... } (its own copy), then
//             { kind: 'surgery', id, link }
// Helper out: { kind: 'loaded', sha256, ... }, { kind: 'surgery', id, variants }, { kind: 'error', id, stage, error }

import { model_fits_twice } from '../pkg/attn_web_full.js';
import { rawPair } from '../lab/pairs.js';

/** The `text=` pair of a link as written: the key of the helper's last curves. */
function textKey(link) {
  return rawPair(link, 'text');
}

export class HelperPool {
  constructor() {
    this.worker = null;
    this.sha256 = null; // the weights the helper holds (null while it loads)
    this.want = null; // the weights the first worker holds
    this.next = 0;
    this.waiting = new Map(); // id -> { resolve, reject }
    this.last = null; // { key, promise }: the last surgery asked (a new head reuses it)
  }

  /**
   * The first worker loaded a model (`sha256`) described by `configText`: the helper loads its
   * own copy with message `msg` when the model fits twice on this device, else it is stopped.
   */
  loaded(msg, sha256, configText, device) {
    this.want = sha256;
    this.last = null;
    if (!model_fits_twice(configText, device)) {
      this.stop();
      return;
    }
    if (!this.worker) {
      this.worker = new Worker(new URL('./model.js?role=helper', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this.onMessage(e.data);
      this.worker.onerror = () => this.stop();
    }
    this.sha256 = null;
    this.worker.postMessage(msg);
  }

  /** Whether the helper holds the first worker's weights. */
  ready() {
    return Boolean(this.worker) && this.sha256 !== null && this.sha256 === this.want;
  }

  /** The surgery variants' curves of `link` (a promise), or null when the helper is not ready. */
  surgery(link) {
    if (!this.ready()) return null;
    const key = textKey(link);
    if (this.last && this.last.key === key && this.last.sha256 === this.want) return this.last.promise;
    const id = ++this.next;
    const promise = new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.last = { key, sha256: this.want, promise };
    promise.catch(() => { if (this.last?.promise === promise) this.last = null; });
    this.worker.postMessage({ kind: 'surgery', id, link });
    return promise;
  }

  onMessage(m) {
    if (m.kind === 'loaded') this.sha256 = m.sha256;
    else if (m.kind === 'surgery') this.settle(m.id, (w) => w.resolve(m.variants));
    else if (m.kind === 'error') {
      if (m.stage === 'analyse') this.settle(m.id, (w) => w.reject(new Error(m.error)));
      else this.stop(); // the helper could not load its copy: one worker
    }
  }

  settle(id, f) {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    f(w);
  }

  stop() {
    this.worker?.terminate();
    this.worker = null;
    this.sha256 = null;
    this.last = null;
    for (const w of this.waiting.values()) w.reject(new Error('model: the helper worker stopped'));
    this.waiting.clear();
  }
}

/** `result.variants` with the curves the first worker left empty filled from `curves`. */
export function withSurgery(result, curves) {
  for (const v of result.variants) {
    if (v.residual.length === 0) v.residual = curves.find((c) => c.variant === v.variant)?.residual ?? [];
  }
  return result;
}
