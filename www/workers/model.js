// The model lab's worker: a module Web Worker that owns the wasm instance and the model's weights
// (the page never holds them, and never freezes while they load or run). It fetches the model
// folder's files from the same origin (Cache API first: a second visit reads them from the
// browser's cache), reporting progress; streams model.safetensors into wasm memory, hashing it
// there (the link's NAME@SHA16; no second full copy in the worker); loads the core's encoder
// (ModelLab); then analyses links.
//
// In:  { kind: 'load', base, name }   base: the folder's URL ending in '/'; name: the model's name
//      { kind: 'files', files, device, text, refused }   the user's own files (File[];
//        workers/model_files.js): the model in use is replaced only once the new one has loaded
//        and takes the link the page opens next (`refused`, a link refused for naming other
//        weights, when it names these; else the shown `text`), so a refused file keeps it
//      { kind: 'analyse', id, link, maxSide }
//      { kind: 'head', id, layer, head }
//      { kind: 'repeat', id, layer, iterations, variant }   a layer repeated on the analysed text,
//        in chunks of REPEAT_CHUNK repetitions (a newer 'repeat' ends an older one between chunks)
//      { kind: 'repeat-attention', id, t, head }   head's P of the repeated layer at repetition t,
//        answered { kind: 'repeat-attention', id, t, head, p } (p: n x n Float32Array)
// Out: { kind: 'progress', file, loaded, total, cached }
//      { kind: 'loaded', info, sha256, ms, cached, memory }  (cached: every file came from the
//        Cache API; memory: the estimate in bytes)
//      { kind: 'result', id, result, tiles: { side, attention, similarity }, p, s, spectrum, layers, ms }
//        (spectrum: the link's head's spectra and §1.3's verdict, ModelLab.head_spectrum; layers:
//        the tokens through the layers, ModelLab.layers_view's typed arrays)
//      { kind: 'dynamics-progress', id, step, steps }, then { kind: 'dynamics', id, dynamics, ms }
//        (after each result: the link's head as a particle system, ModelLab.head_particles run in
//        slices of about DYNAMICS_SLICE_MS with a turn of the event loop between them, so a newer
//        'analyse' is read and the older run dropped, answered { kind: 'dynamics-dropped', id,
//        step }; dynamics: ModelLab.head_dynamics's typed arrays)
//      { kind: 'head', id, layer, head, p, s }
//      { kind: 'repeat-progress', id, done, iterations }, then { kind: 'repeat', id, view, ms }
//        (view: ModelLab.repeat_view) or { kind: 'repeat-error', id, error }
//      { kind: 'loaded', own: true, ... } after 'files' (own files are not cached)
//      { kind: 'error', id, error, stage }  (stage: 'load', 'files' or 'analyse')
// A result's `workers` says how many workers computed it: 2 when the pool's helper
// (workers/model_pool.js) computed the surgery variants, which it does when the model fits twice.

import init, { model_memory, model_text } from '../pkg/attn_web_full.js';
import { loadFiles, streamInto } from './model_files.js';
import { HelperPool, withSurgery } from './model_pool.js';

// The worker's global scope, typed as one (globals.d.ts: lib.dom calls `self` a Window).
const self = /** @type {WorkerScope} */ (/** @type {unknown} */ (globalThis));

const ready = init();
// This script also runs as the pool's helper (model_pool.js): it loads its own copy and answers
// 'surgery'; only the lab's own worker starts a helper.
const HELPER = new URL(self.location.href).searchParams.get('role') === 'helper';
const pool = HELPER ? null : new HelperPool();
const CACHE = 'attn-models-v1';
/** @type {TypedModelLab|null} */
let lab = null;
let fromCache = 0; // files of the current load read from the Cache API

/** The model cache (null without a Cache API, e.g. an opaque origin: fetch every time) and its
 * response for `url` (null when it holds none; a hit counts in `fromCache`). */
async function cached(url) {
  try {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(url);
    if (hit) fromCache += 1;
    return { cache, hit: hit ?? null };
  } catch {
    return { cache: null, hit: null };
  }
}

/** The bytes at `url`, from the Cache API when it holds them, else fetched with progress and
 * stored there. `optional`: a 404 gives null. */
async function bytesOf(url, file, optional = false) {
  const { cache, hit } = await cached(url);
  if (hit) {
    const buf = new Uint8Array(await hit.arrayBuffer());
    self.postMessage({ kind: 'progress', file, loaded: buf.length, total: buf.length, cached: true });
    return buf;
  }
  const res = await fetch(url);
  if (!res.ok) {
    if (optional && res.status === 404) return null;
    throw new Error(`${file}: HTTP ${res.status} for ${url}`);
  }
  // A compressed response's length is not the file's: read it as a Blob first.
  const total = res.headers.get('content-encoding') ? 0 : Number(res.headers.get('content-length')) || 0;
  const out = total ? new Uint8Array(total) : null;
  const parts = [];
  let loaded = 0;
  let last = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (out && loaded + value.length <= total) out.set(value, loaded);
    else parts.push(value);
    loaded += value.length;
    const now = performance.now();
    if (now - last > 100) {
      last = now;
      self.postMessage({ kind: 'progress', file, loaded, total, cached: false });
    }
  }
  let buf = out && loaded === total ? out : null;
  if (!buf) {
    buf = new Uint8Array(loaded);
    let at = 0;
    if (out) {
      buf.set(out.subarray(0, Math.min(loaded, total)), 0);
      at = Math.min(loaded, total);
    }
    for (const p of parts) {
      buf.set(p, at);
      at += p.length;
    }
  }
  self.postMessage({ kind: 'progress', file, loaded, total: loaded, cached: false });
  if (cache) {
    try {
      await cache.put(url, new Response(buf));
    } catch {
      // a full quota only costs the next visit a download
    }
  }
  return buf;
}

/** model.safetensors at `url` streamed into wasm memory (a ModelUpload, hashed as it arrives:
 * workers/model_files.js), from the Cache API when it holds it (read as a Blob, not into the JS
 * heap), else downloaded with progress while a clone of the response goes into the cache; the
 * worker never holds a second full copy. A response without a plain length is read as a Blob first. */
async function weightsOf(url) {
  const file = 'model.safetensors';
  const device = navigator.deviceMemory ?? 0;
  const { cache, hit } = await cached(url);
  if (hit) {
    const blob = await hit.blob();
    return streamInto(blob.stream(), blob.size, device, (loaded) =>
      self.postMessage({ kind: 'progress', file, loaded, total: blob.size, cached: true }));
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${file}: HTTP ${res.status} for ${url}`);
  const stored = cache ? cache.put(url, res.clone()).catch(() => {}) : null; // a full quota only costs the next visit a download
  // A compressed response's length is not the file's: read it as a Blob first.
  const total = res.headers.get('content-encoding') ? 0 : Number(res.headers.get('content-length')) || 0;
  const progress = (loaded) => self.postMessage({ kind: 'progress', file, loaded, total, cached: false });
  let upload;
  if (total) upload = await streamInto(res.body, total, device, progress);
  else {
    const blob = await res.blob();
    upload = await streamInto(blob.stream(), blob.size, device, progress);
  }
  await stored;
  return upload;
}
async function load({ base, name }) {
  const t0 = performance.now();
  await ready;
  fromCache = 0;
  // The text files by the core's rule (model_text: UTF-8, a leading byte-order mark dropped).
  const config = model_text('config.json', await bytesOf(`${base}config.json`, 'config.json'));
  const memory = model_memory(config, navigator.deviceMemory ?? 0);
  const [vocab, tok, weights] = [
    model_text('vocab.txt', await bytesOf(`${base}vocab.txt`, 'vocab.txt')),
    await bytesOf(`${base}tokenizer_config.json`, 'tokenizer_config.json', true),
    await weightsOf(`${base}model.safetensors`),
  ];
  const sha256 = weights.sha256();
  const loaded = weights.load(config, vocab, tok ? model_text('tokenizer_config.json', tok) : undefined, name); // frees the bytes
  if (lab) lab.free();
  lab = /** @type {TypedModelLab} */ (loaded); // its results typed (wasm.d.ts)
  const cached = fromCache === (tok ? 4 : 3);
  self.postMessage({ kind: 'loaded', info: lab.info(), sha256, ms: performance.now() - t0, cached, memory });
  // The helper reads the same files, by then in the Cache API.
  pool?.loaded({ kind: 'load', base, name }, sha256, config, navigator.deviceMemory ?? 0);
}

async function files(msg) {
  const t0 = performance.now();
  await ready;
  const got = await loadFiles(msg.files, (m) => self.postMessage(m), msg.device ?? navigator.deviceMemory ?? 0);
  // Refused before the swap (the page keeps the model it shows and its analysis): the link the
  // page opens next on this model, a refused link naming these weights or the shown text.
  try {
    if (!(msg.refused && got.lab.opens(msg.refused)) && msg.text != null) got.lab.check_text(msg.text);
  } catch (err) {
    got.lab.free();
    throw err;
  }
  if (lab) lab.free();
  lab = /** @type {TypedModelLab} */ (got.lab);
  self.postMessage({ kind: 'loaded', own: true, info: lab.info(), sha256: got.sha256, ms: performance.now() - t0, cached: false, memory: got.memory });
  pool?.loaded({ kind: 'files', files: msg.files, device: msg.device }, got.sha256, got.configText, msg.device ?? navigator.deviceMemory ?? 0);
}

/** The head particles' Euler steps run in slices of about this many ms (then the worker reads
 * its messages), DYNAMICS_STEPS steps per call. */
const DYNAMICS_SLICE_MS = 50;
const DYNAMICS_STEPS = 5;
let analyseJob = 0; // the newest 'analyse'

/** A turn of this worker's event loop: the messages already queued are read first (a port's
 * message, not a timer: nested timers wait at least 4 ms). */
function nextTurn() {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port1.onmessage = () => {
      port1.close();
      resolve(undefined);
    };
    port2.postMessage(null);
  });
}

/** Analyses `link`: with a ready helper, the surgery variants there while this worker runs the
 * unmodified model (`result.workers`: 2), else everything here (1). */
async function analyse({ id, link, maxSide }) {
  analyseJob = id;
  const t0 = performance.now();
  const surgery = pool?.surgery(link) ?? null;
  const result = surgery ? lab.analyse_unmodified(link) : lab.analyse(link);
  const tiles = lab.tiles(maxSide);
  const p = lab.attention(result.layer, result.head);
  const s = lab.similarity(result.layer, result.head);
  const spectrum = lab.head_spectrum(result.layer, result.head);
  const layers = lab.layers_view();
  result.workers = 1;
  if (surgery) {
    const curves = await surgery.catch(() => null);
    withSurgery(result, curves ?? lab.surgery(link)); // the helper failed: computed here
    if (curves) result.workers = 2;
  }
  const ms = performance.now() - t0;
  const arrays = ['coords', 'histograms', 'labels', 'mean_cos', 'effective_rank', 'clusters', 'finite'].map((k) => layers[k].buffer);
  self.postMessage({ kind: 'result', id, result, tiles, p, s, spectrum, layers, ms },
    [tiles.attention.buffer, tiles.similarity.buffer, p.buffer, s.buffer, ...arrays]);
  // Then the chosen head's particles (about 1000 Euler steps: the result above is drawn meanwhile),
  // after a turn of this worker's event loop (the helper worker it may be starting gets going).
  await nextTurn();
  if (analyseJob !== id) return; // a newer link: its analysis first, this run is not wanted
  const t1 = performance.now();
  let run = null;
  let dyn;
  try {
    run = lab.head_particles();
    for (;;) {
      const t = performance.now();
      let done = false;
      while (!done && performance.now() - t < DYNAMICS_SLICE_MS) done = run.advance(DYNAMICS_STEPS);
      if (done) break;
      self.postMessage({ kind: 'dynamics-progress', id, step: run.step(), steps: run.steps() });
      await nextTurn();
      if (analyseJob !== id) {
        self.postMessage({ kind: 'dynamics-dropped', id, step: run.step() });
        return;
      }
    }
    dyn = run.finish();
  } catch (err) {
    self.postMessage({ kind: 'dynamics', id, error: String(err && err.message ? err.message : err) });
    return;
  } finally {
    run?.free();
  }
  const dynArrays = ['t', 'step', 'clusters', 'mean_cos', 'labels', 'boolean_distance', 'leaders', 'max_norm', 'hyperplanes', 'psi', 'coords', 'p', 'p_rgba'].map((k) => dyn[k].buffer);
  self.postMessage({ kind: 'dynamics', id, dynamics: dyn, ms: performance.now() - t1 }, dynArrays);
}

/** The helper's part: the surgery variants' curves of `link`. */
function surgeryOf({ id, link }) {
  self.postMessage({ kind: 'surgery', id, variants: lab.surgery(link) });
}

function head({ id, layer, head: h }) {
  const p = lab.attention(layer, h);
  const s = lab.similarity(layer, h);
  self.postMessage({ kind: 'head', id, layer, head: h, p, s }, [p.buffer, s.buffer]);
}

const REPEAT_CHUNK = 5;
let repeatJob = 0; // the newest 'repeat'

/** The repeated layer's run `id` (ModelLab.repeat_start / repeat_steps / repeat_view), in chunks
 * with a pause between them: progress goes out and a newer request is read. */
async function repeatRun({ id, layer, iterations, variant }) {
  repeatJob = id;
  const t0 = performance.now();
  try {
    lab.repeat_start(layer, iterations, variant);
    let done = 0;
    for (;;) {
      const now = lab.repeat_steps(REPEAT_CHUNK);
      if (now === done) break; // finished, or stopped at a non-finite state
      done = now;
      self.postMessage({ kind: 'repeat-progress', id, done, iterations });
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (repeatJob !== id) return;
    }
    const view = lab.repeat_view();
    const arrays = ['coords', 'histograms', 'labels', 'mean_cos', 'effective_rank', 'clusters', 'finite', 'boolean_distance', 'leaders'].map((k) => view[k].buffer);
    self.postMessage({ kind: 'repeat', id, view, ms: performance.now() - t0 }, arrays);
  } catch (err) {
    if (repeatJob === id) self.postMessage({ kind: 'repeat-error', id, error: String(err && err.message ? err.message : err) });
  }
}

/** Head `head`'s P of the repeated layer at repetition `t` (ModelLab.repeat_attention). */
function repeatAttention({ id, t, head: hd }) {
  if (id !== repeatJob) return; // a newer run's repetitions are on their way
  const p = lab.repeat_attention(t, hd);
  self.postMessage({ kind: 'repeat-attention', id, t, head: hd, p }, [p.buffer]);
}

let loads = Promise.resolve(); // loads run one after the other, the last one's model stays

self.onmessage = async (e) => {
  const msg = e.data;
  const stage = msg.kind === 'load' || msg.kind === 'files' ? msg.kind : 'analyse';
  try {
    if (stage !== 'analyse') {
      const run = loads.then(() => (stage === 'load' ? load(msg) : files(msg)));
      loads = run.catch(() => {});
      await run;
    } else if (!lab) throw new Error('model: no model is loaded');
    else if (msg.kind === 'analyse') await analyse(msg);
    else if (msg.kind === 'surgery') surgeryOf(msg);
    else if (msg.kind === 'head') head(msg);
    else if (msg.kind === 'repeat') await repeatRun(msg);
    else if (msg.kind === 'repeat-attention') repeatAttention(msg);
  } catch (err) {
    self.postMessage({ kind: 'error', id: msg.id, stage, error: String(err && err.message ? err.message : err) });
  }
};
