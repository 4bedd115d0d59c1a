// The depth lab's worker: a module Web Worker with its own wasm instance. A message runs one
// variant of a depth configuration (forward pass and all analyzers, the core's run_variant) and
// replies with its result and, when asked, the context similarity tiles of every layer and head
// as viridis pixels (layer-major, then head; `side x side x 4` each) and their values (f32,
// `n x n` each), both transferred (the worker keeps no copy). The DepthLab of the last
// configuration is kept between messages, with the records of the one variant it ran last: a
// tiles-only request for that variant does not run it again. The page sends the next message
// when a reply arrives; cancelling terminates the worker.
//
// In:  { id, config, variant, maxSide, result, tiles, paths, half, port } (result: run the variant
//      and send its result; tiles: send its similarity tiles; paths: also decompose by path
//      length; half, port: run half 0 or 1 of the variant's pass, the other half in the worker
//      at the other end of `port`, each layer's heads and output columns handed over through it;
//      both halves end with the whole pass's records, and half 1 is asked for no result)
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
  const { id, config, variant, maxSide, shared, result: wantResult, tiles: wantTiles, paths: wantPaths, half, port } = e.data;
  const inbox = port ? portInbox(port) : null; // listening before the first await
  try {
    await ready;
    const t0 = performance.now();
    if (!lab || labConfig !== config) {
      if (lab) lab.free();
      lab = null;
      lab = /** @type {TypedDepthLab} */ (new DepthLab(config)); // its results typed (wasm.d.ts)
      labConfig = config;
    }
    const result = inbox ? await runHalves(lab, variant, half, inbox, port, wantResult)
      : wantResult || lab.last_variant() !== variant ? lab.run_variant(variant) : null;
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

/**
 * The messages arriving on `port`, taken one at a time in order.
 * @param {MessagePort} port
 */
function portInbox(port) {
  /** @type {Float64Array[]} */
  const arrived = [];
  /** @type {((v: Float64Array) => void)[]} */
  const waiting = [];
  port.onmessage = (e) => {
    const take = waiting.shift();
    if (take) take(e.data);
    else arrived.push(e.data);
  };
  return {
    /** @returns {Promise<Float64Array>} */
    next: () => (arrived.length ? Promise.resolve(/** @type {Float64Array} */ (arrived.shift())) : new Promise((take) => waiting.push(take))),
  };
}

/**
 * Half `half` of `variant`'s pass, layer by layer with the other half at the end of `port`
 * (core depth::halves): this half's heads go out and the other's come in, then the columns of
 * O W_O. Then half 1 (`analyze` false) computes the singular values for half 0, which computes
 * the rest of the analysis and returns the variant's result; half 1 returns null.
 * @param {TypedDepthLab} lab
 * @param {string} variant
 * @param {number} half
 * @param {{ next: () => Promise<Float64Array> }} inbox
 * @param {MessagePort} port
 * @param {boolean} analyze
 */
async function runHalves(lab, variant, half, inbox, port, analyze) {
  lab.half_start(variant, half);
  for (;;) {
    const heads = lab.half_heads();
    if (!heads) break;
    port.postMessage(heads, [heads.buffer]);
    const columns = lab.half_take_heads(await inbox.next());
    port.postMessage(columns, [columns.buffer]);
    lab.half_take_output(await inbox.next());
  }
  lab.half_finish();
  // The analysis in two parts side by side: half 1 the singular values, half 0 the rest.
  if (!analyze) {
    const values = lab.singular_values();
    port.postMessage(values, [values.buffer]);
    port.close();
    return null;
  }
  lab.half_analyse();
  const result = lab.half_result(await inbox.next());
  port.close();
  return result;
}
