// The depth lab's worker: a module Web Worker with its own wasm instance. Each message runs one
// variant of a depth configuration (forward pass and all analyzers, the core's run_variant) and
// replies with its result, the context similarity tiles of every layer and head as viridis
// pixels (layer-major, then head; `side x side x 4` each) and their values (f32, `n x n` each),
// both transferred. The DepthLab of the last configuration is kept between messages. The page
// sends the next variant when a reply arrives, so each curve appears when it is ready; cancelling
// terminates the worker.
//
// In:  { id, config, variant, maxSide, paths } (paths: also decompose by path length)
// Out: { id, ok: true, kind: 'result', variant, result, side, pixels, values, ms }, then
//      { id, ok: true, kind: 'paths', variant, paths: object | null, ms } | { id, ok: false, error }

import init, { DepthLab } from '../pkg/attn_web.js';

const ready = init();
let lab = null;
let labConfig = '';

self.onmessage = async (e) => {
  const { id, config, variant, maxSide, paths: wantPaths } = e.data;
  try {
    await ready;
    const t0 = performance.now();
    if (!lab || labConfig !== config) {
      if (lab) lab.free();
      lab = null;
      lab = new DepthLab(config);
      labConfig = config;
    }
    const result = lab.run_variant(variant);
    const side = lab.tile_side(maxSide);
    const pixels = lab.similarity_rgba(maxSide);
    const values = lab.similarity_values();
    const ms = performance.now() - t0;
    self.postMessage({ id, ok: true, kind: 'result', variant, result, side, pixels, values, ms }, [pixels.buffer, values.buffer]);
    // The path-length decomposition (linear, bias-free stacks) follows, so the curve shows first.
    const t1 = performance.now();
    const paths = wantPaths ? lab.path_lengths() : null;
    self.postMessage({ id, ok: true, kind: 'paths', variant, paths, ms: performance.now() - t1 });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
