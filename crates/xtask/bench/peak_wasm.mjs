// The peak of wasm simd128 under Node for `cargo xtask bench` (issue 13 part 1): the web crate's
// bench-only `peak_flops` (6 independent f64x2 or f32x4 multiply chains and 6 add chains, no
// FMA) on one worker_thread, then on `threads` worker_threads at once (flops over wall time);
// about 0.3 s per run after calibration, the fastest of 3 runs kept.
// Usage: node peak_wasm.mjs <www/pkg> <threads>
// Prints one JSON line: { f64x2: { one, all }, f32x4: { one, all } } in GFLOP/s, or { error }.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const SECONDS = 0.3;
const flopsPerIter = (f64) => 2 * 6 * (f64 ? 2 : 4);

if (!isMainThread) {
  const glue = await import(pathToFileURL(join(workerData.pkg, 'attn_web.js')).href);
  glue.initSync({ module: workerData.module });
  parentPort.on('message', ({ f64, iters }) => {
    const t0 = performance.now();
    glue.peak_flops(f64, iters);
    parentPort.postMessage(performance.now() - t0);
  });
} else {
  const pkg = resolve(process.argv[2] ?? 'www/pkg');
  const threads = Number(process.argv[3] ?? 2);
  const module = new WebAssembly.Module(readFileSync(join(pkg, 'attn_web_bg.wasm')));
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url), { workerData: { pkg, module } }));
  const run = (w, msg) => new Promise((done) => { w.once('message', done); w.postMessage(msg); });
  try {
    const out = {};
    for (const f64 of [true, false]) {
      let iters = 1 << 16;
      for (;;) {
        const ms = await run(workers[0], { f64, iters });
        if (ms > (SECONDS * 1000) / 4 || iters > 2 ** 30) {
          iters = Math.min(2 ** 32 - 1, Math.round((iters * SECONDS * 1000) / Math.max(ms, 1e-3)));
          break;
        }
        iters *= 4;
      }
      const gflops = async (n) => {
        let best = 0;
        for (let r = 0; r < 3; r++) {
          const t0 = performance.now();
          await Promise.all(workers.slice(0, n).map((w) => run(w, { f64, iters })));
          best = Math.max(best, (n * iters * flopsPerIter(f64)) / ((performance.now() - t0) * 1e6));
        }
        return best;
      };
      out[f64 ? 'f64x2' : 'f32x4'] = { one: await gflops(1), all: await gflops(threads) };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: String(e?.message ?? e) })}\n`);
  } finally {
    for (const w of workers) await w.terminate();
  }
}
