// The particle lab's worker pool under Node: the page's own coordinator (www/particles/pool.js)
// and row worker (www/workers/rows.js) on worker_threads, for the benchmark and the pool's
// bit-identity checks. Usage:
//   const run = await createPoolStepper('www/pkg', config, 2);
//   await run.advance(10); run.tokens(); await run.memoryBytes(); await run.close();
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const www = resolve(fileURLToPath(new URL('../../../www', import.meta.url)));
const { Pool } = await import(pathToFileURL(join(www, 'particles/pool.js')).href);

let glue = null;
let wasmModule = null;
let exportsOf = null;

/** Loads the wasm glue of `pkgDir` once (the main instance, which owns the ParticleLab). */
function load(pkgDir) {
  if (glue) return;
  const dir = resolve(pkgDir);
  wasmModule = new WebAssembly.Module(readFileSync(join(dir, 'attn_web_bg.wasm')));
  return import(pathToFileURL(join(dir, 'attn_web.js')).href).then((g) => {
    glue = g;
    exportsOf = g.initSync({ module: wasmModule });
  });
}

/** A worker_threads port with the interface Pool expects. */
function spawnNodeWorker() {
  const w = new Worker(new URL(pathToFileURL(join(www, 'workers/rows.js')).href));
  return {
    post: (m, transfer = []) => w.postMessage(m, transfer),
    listen: (f) => w.on('message', f),
    terminate: () => w.terminate(),
  };
}

/**
 * A particle run stepped by a pool of `workers` worker threads (www/pkg must be built; the pool
 * uses the wasm module of `pkgDir`).
 */
export async function createPoolStepper(pkgDir, config, workers) {
  await load(pkgDir);
  const stepper = new glue.ParticleLab(config);
  const canonical = stepper.config_string();
  const pool = new Pool(workers, spawnNodeWorker, wasmModule);
  await pool.configure(canonical);
  return {
    stepper,
    /** Up to `k` steps (past `until` too); resolves with the steps taken. */
    advance: (k) => pool.advance(stepper, canonical, k, { pastEnd: true }),
    /** The tokens in the integrated coordinates (n x d). */
    tokens: () => stepper.tokens(stepper.integrate_in()),
    /** wasm memory (bytes) of the main instance followed by each worker's. */
    memoryBytes: async () => [exportsOf.memory.buffer.byteLength, ...(await pool.memoryBytes())],
    close: async () => {
      pool.terminate();
      stepper.free();
    },
  };
}

/** The single-thread stepper of the same glue (for comparisons). */
export async function createStepper(pkgDir, config) {
  await load(pkgDir);
  return new glue.ParticleLab(config);
}
