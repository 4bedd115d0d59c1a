// Times the model lab's wasm under Node for `cargo xtask bench`: in a worker_thread with a fresh
// wasm instance (+simd128, one thread: the page's model worker runs the encoder on one thread),
// the calls the page's worker makes (www/workers/model.js): ModelLab from the folder's files,
// then `forward` (the unmodified encoder, every head kept: the forward NumPy is compared with)
// once as a warm-up and `rounds` times; then the page's full analysis of the text (`analyse`: the
// forward, the other three variants and every head's statistics; `tiles`, the chosen head's
// `attention` and `similarity`), after a shorter text each round so the text is new each time.
// Its memory is the instance's WebAssembly memory after all of it (it never shrinks).
// Usage: node model_wasm.mjs <www/pkg> <model folder> <model name> <text file> <rounds>
// Prints one JSON line: { n, rounds, forward_best_ms, forward_median_ms, analysis_best_ms,
// analysis_median_ms, memory_bytes } (with rounds 0: one analysis, no forward timings) or
// { error }.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const MAX_SIDE = 128; // www/model/lab.js
const OTHER = 'The quick brown fox jumps over the lazy dog.';

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return [s[0] ?? null, s[Math.floor(s.length / 2)] ?? null];
};

async function bench({ pkg, dir, name, textFile, rounds }) {
  const glue = await import(pathToFileURL(join(pkg, 'attn_web_full.js')).href);
  const wasm = glue.initSync({ module: readFileSync(join(pkg, 'attn_web_full_bg.wasm')) });
  const weights = readFileSync(join(dir, 'model.safetensors'));
  const sha = createHash('sha256').update(weights).digest('hex');
  const tokPath = join(dir, 'tokenizer_config.json');
  const id = `${name}@${sha.slice(0, 16)}`;
  // The text files by the core's rule, as the page's worker reads them (model_text).
  const fileText = (file) => glue.model_text(file, readFileSync(join(dir, file)));
  const lab = new glue.ModelLab(
    weights,
    fileText('config.json'),
    fileText('vocab.txt'),
    existsSync(tokPath) ? fileText('tokenizer_config.json') : undefined,
    id,
  );
  const link = (t) => `lab=model&model=${id}&text=${encodeURIComponent(t)}`;
  const text = readFileSync(textFile, 'utf8').trimEnd();
  const forward = [];
  let n = 0;
  for (let r = 0; rounds > 0 && r <= rounds; r++) {
    const t0 = performance.now();
    n = lab.forward(link(text));
    if (r > 0) forward.push(performance.now() - t0);
  }
  const analysis = [];
  for (let r = 0; r < Math.max(rounds, 1); r++) {
    lab.analyse(link(OTHER));
    const t0 = performance.now();
    const result = lab.analyse(link(text));
    lab.tiles(MAX_SIDE);
    lab.attention(result.layer, result.head);
    lab.similarity(result.layer, result.head);
    analysis.push(performance.now() - t0);
    n = result.n;
  }
  const [fb, fm] = stats(forward);
  const [ab, am] = stats(analysis);
  const memory = wasm.memory.buffer.byteLength;
  lab.free();
  return { n, rounds, forward_best_ms: fb, forward_median_ms: fm, analysis_best_ms: ab, analysis_median_ms: am, memory_bytes: memory };
}

if (!isMainThread) {
  try {
    parentPort.postMessage({ ok: true, result: await bench(workerData) });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e?.message ?? e) });
  }
} else {
  const [pkg, dir, name, textFile, rounds] = process.argv.slice(2);
  const data = { pkg: resolve(pkg), dir: resolve(dir), name, textFile: resolve(textFile), rounds: Number(rounds ?? 5) };
  const worker = new Worker(new URL(import.meta.url), { workerData: data, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
  worker.once('message', (msg) => {
    process.stdout.write(`${JSON.stringify(msg.ok ? msg.result : { error: msg.error })}\n`);
    worker.terminate();
  });
  worker.once('error', (e) => process.stdout.write(`${JSON.stringify({ error: String(e?.message ?? e) })}\n`));
}
