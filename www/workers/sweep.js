// The sweep worker: a module Web Worker with its own wasm instance. Each message is one cell
// of the grid, run with the core's run_cell (all seeds of the cell); the reply carries its
// result or the error message. The page sends the next cell when a reply arrives, so progress
// is shown cell by cell and cancelling (terminating the worker) stops at once.
//
// In:  { id, config, queries, eta_z, ratio, seeds }
// Out: { id, ok: true, result } | { id, ok: false, error }

import init, { run_sweep_cell } from '../pkg/attn_web.js';

// The worker's global scope, typed as one (globals.d.ts: lib.dom calls `self` a Window).
const self = /** @type {WorkerScope} */ (/** @type {unknown} */ (globalThis));

const ready = init();

self.onmessage = async (e) => {
  const { id, config, queries, eta_z, ratio, seeds } = e.data;
  try {
    await ready;
    const result = run_sweep_cell(config, queries, eta_z, ratio, seeds);
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
