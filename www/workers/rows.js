// A row worker of the particle lab's worker pool: a module Web Worker in the page, a
// worker thread under Node (the benchmark), each with its own wasm instance. It holds one
// RowWorker (the run's field) and answers each request with the velocity of a block of rows;
// each row's sums are computed here in the core's fixed order, so the tokens do not depend on
// how many workers share a step.
//
// In:  { type: 'init', module }            a compiled WebAssembly.Module of attn_web
//      { type: 'config', seq, config }     the run's configuration string
//      { type: 'rows', seq, t, state, block, blocks, projected, analyse? }   state: Float64Array
//                                          n x d; rows of block `block` of `blocks`
//                                          (RowWorker.block_rows); with analyse = { side, block,
//                                          positions, rank } (ParticleLab.analysis_spec) also the
//                                          analyses of those rows of P (RowWorker.rows_analysed);
//                                          each reply also says its computing time (ms)
//      { type: 'memory', seq }             the size of this worker's wasm memory
// Out: { type: 'hello' } once listening, { type: 'ready' } after init,
//      { type: 'configured', seq, error? }, { type: 'rows', seq, lo, velocity?, partial?, error? },
//      { type: 'memory', seq, bytes }

import { initSync, RowWorker } from '../pkg/attn_web.js';

// The worker's global scope, typed as one (globals.d.ts: lib.dom calls `self` a Window).
const self = /** @type {WorkerScope} */ (/** @type {unknown} */ (globalThis));

/** The message port of this worker, in a browser or in Node. */
async function openPort() {
  if (typeof WorkerGlobalScope !== 'undefined') {
    return {
      post: (m, transfer = []) => self.postMessage(m, transfer),
      listen: (f) => { self.onmessage = (e) => f(e.data); },
    };
  }
  const { parentPort } = await import('node:worker_threads');
  return {
    post: (m, transfer = []) => parentPort.postMessage(m, transfer),
    listen: (f) => parentPort.on('message', f),
  };
}

const errorText = (err) => String(err && err.message ? err.message : err);

const port = await openPort();
let field = null;
let wasm = null;

port.listen((msg) => {
  switch (msg.type) {
    case 'init':
      wasm = initSync({ module: msg.module });
      port.post({ type: 'ready' });
      break;
    case 'config':
      try {
        if (field) field.free();
        field = null;
        field = new RowWorker(msg.config);
        port.post({ type: 'configured', seq: msg.seq });
      } catch (err) {
        port.post({ type: 'configured', seq: msg.seq, error: errorText(err) });
      }
      break;
    case 'rows':
      try {
        const [lo, hi] = field.block_rows(msg.blocks, msg.block);
        const a = msg.analyse;
        const t0 = performance.now();
        if (a) {
          const [velocity, partial] = field.rows_analysed(msg.t, msg.state, lo, hi, msg.projected, a.side, a.block, a.positions, a.rank);
          const ms = performance.now() - t0;
          port.post({ type: 'rows', seq: msg.seq, lo, velocity, partial, ms }, [velocity.buffer, partial.buffer]);
          break;
        }
        const velocity = field.rows(msg.t, msg.state, lo, hi, msg.projected);
        const ms = performance.now() - t0;
        port.post({ type: 'rows', seq: msg.seq, lo, velocity, ms }, [velocity.buffer]);
      } catch (err) {
        port.post({ type: 'rows', seq: msg.seq, lo: 0, error: errorText(err) });
      }
      break;
    case 'memory':
      port.post({ type: 'memory', seq: msg.seq, bytes: wasm ? wasm.memory.buffer.byteLength : 0 });
      break;
    default:
      port.post({ type: 'error', error: `unknown message type ${String(msg.type)}` });
  }
});
port.post({ type: 'hello' });
