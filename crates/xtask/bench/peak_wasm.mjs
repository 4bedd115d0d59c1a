// The peak of wasm simd128 under Node for `cargo xtask bench` (docs/bench.md, "Peaks and GFLOP/s"): the web crate's
// bench-only `peak_flops` (6 independent f64x2 or f32x4 multiply chains and 6 add chains, no
// FMA) in chunks of about 2 ms for SECONDS, the fastest chunk kept (on a shared machine some
// chunk runs without being interrupted): on one worker_thread, then on `threads` worker_threads
// at once, their peaks added up. A first 0.3 s lets V8 tier the function up.
// Usage: node peak_wasm.mjs <www/pkg> <threads>
// Prints one JSON line: { f64x2: { one, all }, f32x4: { one, all } } in GFLOP/s, or { error }.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const SECONDS = 1.0;
const flopsPerIter = (f64) => 2 * 6 * (f64 ? 2 : 4);

/** The fastest ~2 ms chunk of `peak_flops` over `seconds` (GFLOP/s). */
function bestRate(glue, f64, seconds) {
  let iters = 1 << 10;
  for (;;) {
    const t0 = performance.now();
    glue.peak_flops(f64, iters);
    if (performance.now() - t0 > 2 || iters > 2 ** 30) break;
    iters *= 2;
  }
  let best = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    const t0 = performance.now();
    glue.peak_flops(f64, iters);
    best = Math.max(best, (iters * flopsPerIter(f64)) / ((performance.now() - t0) * 1e6));
  }
  return best;
}

if (!isMainThread) {
  const glue = await import(pathToFileURL(join(workerData.pkg, 'attn_web.js')).href);
  glue.initSync({ module: workerData.module });
  parentPort.on('message', ({ f64 }) => {
    bestRate(glue, f64, 0.3); // warm-up: V8's optimising tier
    parentPort.postMessage(bestRate(glue, f64, SECONDS));
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
      const one = await run(workers[0], { f64 });
      const all = (await Promise.all(workers.map((w) => run(w, { f64 })))).reduce((a, b) => a + b, 0);
      out[f64 ? 'f64x2' : 'f32x4'] = { one, all };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: String(e?.message ?? e) })}\n`);
  } finally {
    for (const w of workers) await w.terminate();
  }
}
