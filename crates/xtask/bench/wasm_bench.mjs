// Times the wasm particle stepper under Node for `cargo xtask bench`, on the same cases and the
// same number of steps as the native run it is compared with:
//   wasm-1:    one thread: a worker thread with its own wasm instance (a fresh one per case, so
//              its memory size is the case's own), stepping with `ParticleLab.advance_past_end`;
//   wasm-pool: the worker pool of the page (`createPoolStepper` of ./pool.mjs: one wasm
//              instance per worker_thread, each computing a block of rows); its memory is the
//              largest worker instance's.
// Each case takes one warm-up step, then exactly `steps` timed steps; the tokens x after them are
// written to `out1` / `outPool` (n x d little-endian f64) for the bit-identity check.
// Usage: node wasm_bench.mjs <path to www/pkg> <cases.json> <pool workers> [streaming config]
// cases.json: [{ "id", "config", "steps", "out1", "outPool" }]. Prints one JSON line per case and
// backend: { id, backend, warmup_ms, ms_per_step, steps, memory_bytes, instances } (the pool also
// main_memory_bytes) or
// { id, backend, error }; with a streaming config, then { backend: "streaming", memory_bytes }
// (one instance after one step) or { backend: "streaming", error }.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const HERE = dirname(fileURLToPath(import.meta.url));

function writeTokens(path, tokens) {
  writeFileSync(path, Buffer.from(tokens.buffer, tokens.byteOffset, tokens.byteLength));
}

/** One case on one thread, inside a worker with a fresh wasm instance. */
async function singleInWorker({ pkg, module, config, steps, out }) {
  const glue = await import(pathToFileURL(join(pkg, 'attn_web.js')).href);
  const wasm = glue.initSync({ module });
  const stepper = new glue.ParticleLab(config);
  const take = (k) => {
    const taken = stepper.advance_past_end(k);
    if (taken !== k) throw new Error(`the run stopped after ${taken} of ${k} steps: ${stepper.message()}`);
  };
  let start = performance.now();
  take(1);
  const warmupMs = performance.now() - start;
  start = performance.now();
  if (steps > 0) take(steps);
  const msPerStep = steps > 0 ? (performance.now() - start) / steps : null;
  if (out) writeTokens(out, stepper.tokens('x'));
  const memoryBytes = wasm.memory.buffer.byteLength;
  stepper.free();
  return { warmup_ms: warmupMs, ms_per_step: msPerStep, steps, memory_bytes: memoryBytes, instances: 1 };
}

if (!isMainThread) {
  try {
    parentPort.postMessage({ ok: true, result: await singleInWorker(workerData) });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e?.message ?? e) });
  }
} else {
  const pkg = resolve(process.argv[2] ?? 'www/pkg');
  const specs = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const workers = Number(process.argv[4] ?? 2);
  const streaming = process.argv[5];
  const module = new WebAssembly.Module(readFileSync(join(pkg, 'attn_web_bg.wasm')));
  const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

  const inWorker = (data) =>
    new Promise((done) => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { pkg, module, ...data } });
      worker.once('message', (msg) => {
        done(msg.ok ? msg.result : { error: msg.error });
        worker.terminate();
      });
      worker.once('error', (e) => done({ error: String(e?.message ?? e) }));
    });

  let createPoolStepper = null;
  let poolError = null;
  try {
    ({ createPoolStepper } = await import(pathToFileURL(join(HERE, 'pool.mjs')).href));
  } catch (e) {
    poolError = e?.code === 'ERR_MODULE_NOT_FOUND'
      ? 'worker pool not built yet (crates/xtask/bench/pool.mjs)'
      : `cannot load crates/xtask/bench/pool.mjs: ${e?.message ?? e}`;
  }

  async function timePool({ config, steps, outPool }) {
    const pool = await createPoolStepper(pkg, config, workers);
    try {
      const take = async (k) => {
        const taken = await pool.advance(k);
        if (taken !== k) throw new Error(`the pool stopped after ${taken} of ${k} steps`);
      };
      let start = performance.now();
      await take(1);
      const warmupMs = performance.now() - start;
      start = performance.now();
      await take(steps);
      const msPerStep = (performance.now() - start) / steps;
      writeTokens(outPool, pool.tokens());
      // The main instance (which holds the ParticleLab and lives across cases) first, then each worker's.
      const [main, ...perWorker] = await pool.memoryBytes();
      return { warmup_ms: warmupMs, ms_per_step: msPerStep, steps, memory_bytes: Math.max(...perWorker), main_memory_bytes: main, instances: perWorker.length };
    } finally {
      await pool.close();
    }
  }

  for (const spec of specs) {
    print({ id: spec.id, backend: 'wasm-1', ...(await inWorker({ config: spec.config, steps: spec.steps, out: spec.out1 })) });
    if (!createPoolStepper) {
      print({ id: spec.id, backend: 'wasm-pool', error: poolError });
      continue;
    }
    try {
      print({ id: spec.id, backend: 'wasm-pool', ...(await timePool(spec)) });
    } catch (e) {
      print({ id: spec.id, backend: 'wasm-pool', error: String(e?.message ?? e) });
    }
  }
  if (streaming) {
    print({ backend: 'streaming', config: streaming, ...(await inWorker({ config: streaming, steps: 0, out: null })) });
  }
}
