// When and how the particle lab steps with the worker pool (particles/pool.js): runs of at least
// POOL_MIN_N tokens step in one module Web Worker per core (navigator.hardwareConcurrency), so the
// main thread only hands states to the workers and draws the frames they send back. Smaller runs
// step on the main thread (a message round trip per stage would cost more than the step). The
// tokens are the same bits either way.

import { Pool } from './pool.js';

/** Smallest n stepped by the pool (n^2 pair evaluations per stage make the messages worth it). */
export const POOL_MIN_N = 512;

let pool = null;
/** Workers forced by a test or the console (`__attn.setWorkers(k)`): null = automatic, 0 = off. */
let forced = null;

/** The number of workers the pool uses: one per core, or the forced number. */
export function workerCount() {
  if (forced !== null) return forced;
  return Math.max(1, Math.min(16, navigator.hardwareConcurrency || 1));
}

/** Forces `k` workers (0: no pool, null: automatic); the next step starts a new pool. */
export function setWorkers(k) {
  forced = k;
  if (pool && pool.size !== workerCount()) {
    pool.terminate();
    pool = null;
  }
}

/** Whether `stepper`'s run steps with the pool. */
export function usesPool(stepper) {
  if (typeof Worker === 'undefined' || workerCount() === 0) return false;
  return forced !== null || stepper.n() >= POOL_MIN_N;
}

/** The compiled wasm module, shared by the workers (compiled once). */
async function compileModule() {
  const url = new URL('../pkg/attn_web_bg.wasm', import.meta.url);
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // Static hosts that serve .wasm with another MIME type.
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

let modulePromise = null;

function spawnRowWorker() {
  const w = new Worker(new URL('../workers/rows.js', import.meta.url), { type: 'module' });
  return {
    post: (m, transfer = []) => w.postMessage(m, transfer),
    listen: (f) => { w.onmessage = (e) => f(e.data); },
    terminate: () => w.terminate(),
  };
}

async function currentPool() {
  modulePromise ??= compileModule();
  const module = await modulePromise;
  const size = workerCount();
  if (!pool || pool.size !== size) {
    if (pool) pool.terminate();
    pool = new Pool(size, spawnRowWorker, module);
  }
  return pool;
}

/** Whether a pool step is in flight (a frame then only draws). */
export function poolBusy() {
  return pool !== null && pool.busy;
}

/**
 * Up to `k` steps of `stepper` with the pool (see Pool.advance for the options). Resolves with the
 * steps taken.
 */
export async function poolAdvance(stepper, k, options) {
  const p = await currentPool();
  return p.advance(stepper, stepper.config_string(), k, options);
}
