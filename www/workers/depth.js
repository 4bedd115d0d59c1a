// The depth lab's worker: a module Web Worker with its own wasm instance. A message runs one
// variant of a depth configuration (forward pass and all analyzers, the core's run_variant) and
// replies with its result and, when asked, the context similarity tiles of every layer and head
// as viridis pixels (layer-major, then head; `side x side x 4` each) and their values (f32,
// `n x n` each), both transferred (the worker keeps no copy). The DepthLab of the last
// configuration is kept between messages, with the records of the one variant it ran last: a
// tiles-only request for that variant does not run it again. The page sends the next message
// when a reply arrives; cancelling terminates the worker.
//
// In:  { id, config, variant, maxSide, result, tiles, paths } (result: run the variant and send
//      its result; tiles: send its similarity tiles; paths: also decompose by path length)
// Out: { id, ok: true, kind: 'result', variant, result: object | null,
//        tiles: { side, pixels, values } | null, ms, wasmBytes, startMs } (wasmBytes: the size of
//        this worker's wasm memory, which holds the records of one variant; startMs: the ms from
//        the worker's start to its wasm ready),
//      then, when a result and its paths were asked for, { id, ok: true, kind: 'paths', variant,
//      paths, ms } (paths: null when the stack has none);
//      or { id, ok: false, error }

import init, { DepthLab } from '../pkg/attn_web.js';

// The worker's global scope, typed as one (globals.d.ts: lib.dom calls `self` a Window).
const self = /** @type {WorkerScope} */ (/** @type {unknown} */ (globalThis));

const ready = init();
const started = ready.then(() => performance.now()); // the worker's clock starts with it
/** @type {TypedDepthLab|null} */
let lab = null;
let labConfig = '';

self.onmessage = async (e) => {
  const { id, config, variant, maxSide, shared, result: wantResult, tiles: wantTiles, paths: wantPaths } = e.data;
  try {
    await ready;
    const t0 = performance.now();
    if (!lab || labConfig !== config) {
      if (lab) lab.free();
      lab = null;
      lab = /** @type {TypedDepthLab} */ (new DepthLab(config)); // its results typed (wasm.d.ts)
      labConfig = config;
    }
    const result = wantResult || lab.last_variant() !== variant ? lab.run_variant(variant) : null;
    const tiles = wantTiles ? lab.similarity_tiles(maxSide, Boolean(shared)) : null;
    const ms = performance.now() - t0;
    const transfer = tiles ? [tiles.pixels.buffer, tiles.values.buffer] : [];
    const wasmBytes = (await ready).memory.buffer.byteLength;
    self.postMessage({ id, ok: true, kind: 'result', variant, shared: Boolean(shared), result: wantResult ? result : null, tiles, ms, wasmBytes, startMs: await started }, transfer);
    if (!wantResult || !wantPaths) return;
    // The path-length decomposition (linear, bias-free stacks) follows, so the curve shows first.
    const t1 = performance.now();
    const paths = lab.path_lengths();
    self.postMessage({ id, ok: true, kind: 'paths', variant, paths, ms: performance.now() - t1 });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
