// Times the training lab's wasm under Node, the same two cases as `attn bench --training`:
// (1) 100 SGD iterations of the paper's setting (scan-snap), median and fastest of 20 runs;
// (2) the paper's 4 x 4 sweep with 10 seeds per cell (scan-snap-sweep), run as the page does:
//     in a worker (a Node worker thread with its own wasm instance), one cell per message
//     (run_sweep_cell), progress printed cell by cell.
// Usage: node training_bench.mjs <path to www/pkg>
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const SWEEP_BASE = 'lab=training&preset=scan-snap-sweep';
const ETA_Z = [0.5, 1, 2, 3];
const RATIO = [1, 2, 5, 10];
const SEEDS = 10;

async function load(pkg) {
  const glue = await import(pathToFileURL(join(pkg, 'attn_web.js')).href);
  glue.initSync({ module: readFileSync(join(pkg, 'attn_web_bg.wasm')) });
  return glue;
}

if (isMainThread) {
  const pkg = resolve(process.argv[2] ?? 'www/pkg');
  const glue = await load(pkg);
  const times = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    const lab = new glue.TrainingLab('lab=training&preset=scan-snap');
    const taken = lab.advance(100);
    times.push(performance.now() - start);
    lab.free();
    if (taken !== 100) throw new Error(`the run stopped after ${taken} iterations`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log('training lab, wasm under Node (one thread, +simd128)');
  console.log(`100 iterations of scan-snap (M = 34, batch 128, seq_len 128): median ${sorted[10].toFixed(1)} ms, fastest ${sorted[0].toFixed(1)} ms, first (cold) ${times[0].toFixed(1)} ms (20 runs)`);

  const cells = ETA_Z.flatMap((eta_z) => RATIO.map((ratio) => ({ eta_z, ratio })));
  const worker = new Worker(new URL(import.meta.url), { workerData: { pkg } });
  const start = performance.now();
  let next = 0;
  await new Promise((done, fail) => {
    const send = () => worker.postMessage({ config: SWEEP_BASE, queries: 1, seeds: SEEDS, ...cells[next] });
    worker.on('message', (msg) => {
      if (!msg.ok) {
        fail(new Error(msg.error));
        return;
      }
      next += 1;
      const r = msg.result;
      const secs = ((performance.now() - start) / 1000).toFixed(2);
      console.log(`  cell ${String(next).padStart(2)}/${cells.length}  eta_z ${r.eta_z}  r ${r.ratio}  entropy ${r.mean.toFixed(4)} ± ${r.std.toFixed(4)}  (${secs} s)`);
      if (next < cells.length) send();
      else done();
    });
    worker.on('error', fail);
    send();
  });
  console.log(`sweep 4 x 4 cells x 10 seeds of scan-snap-sweep (160 runs of 100 iterations), in a worker: ${((performance.now() - start) / 1000).toFixed(2)} s`);
  await worker.terminate();
} else {
  const glue = await load(workerData.pkg);
  parentPort.on('message', ({ config, queries, eta_z, ratio, seeds }) => {
    try {
      parentPort.postMessage({ ok: true, result: glue.run_sweep_cell(config, queries, eta_z, ratio, seeds) });
    } catch (err) {
      parentPort.postMessage({ ok: false, error: String(err?.message ?? err) });
    }
  });
}
