// The user's own model files in the model lab's worker: model.safetensors,
// config.json, vocab.txt and optionally tokenizer_config.json, picked or dropped on the page and
// posted here as File objects. A file name picked twice (two config.json) is refused as
// ambiguous. The text files are read by the core's rule (model_text: UTF-8, a leading byte-order
// mark dropped, other encodings refused naming the file; attn encode reads them so too).
// config.json is read first and the memory estimate checked (model_memory: weights + 3 n d_ff
// activations + one variant's attention maps, refused above the device's limit naming `model`
// and both numbers) before a byte of the weights is read; then model.safetensors' size and header
// (model_header: the file's first bytes only; a header over the page's MAX_MODEL_BYTES is refused
// naming its largest tensor); then model.safetensors streams from file.stream() into one wasm
// buffer of its size (ModelUpload,
// hashing each chunk: the link's NAME@SHA16), so neither the page nor the worker holds a second
// full copy. The model's name: the files' folder (a picked folder's webkitRelativePath), else
// config.json's _name_or_path (its last part), else "custom".
//
// In:  loadFiles(files, post, device) with files: File[]; post(message) reports progress; device:
//      the page's navigator.deviceMemory (GB, 0 when unknown).
// Out: { lab, sha256, memory, name } (lab: a ModelLab; the caller swaps it in), or throws an
//      Error naming the missing or faulty file.

import { ModelUpload, model_header, model_memory, model_text } from '../pkg/attn_web_full.js';

export const REQUIRED = ['model.safetensors', 'config.json', 'vocab.txt'];
const OPTIONAL = 'tokenizer_config.json';

/** The text of the picked file `file` (a model folder's text file), by the core's rule. */
const textOf = async (file) => model_text(file.name, new Uint8Array(await file.arrayBuffer()));

/** Refuses a pick holding two files of one model-folder name (which one is meant is ambiguous),
 * naming the first such name in sorted order and the files' paths. */
function oneOfEach(files) {
  const paths = new Map();
  for (const f of files) {
    if (!REQUIRED.includes(f.name) && f.name !== OPTIONAL) continue;
    paths.set(f.name, [...(paths.get(f.name) ?? []), f.webkitRelativePath || f.name]);
  }
  const twice = [...paths].filter(([, p]) => p.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (twice.length) {
    const [name, p] = twice[0];
    throw new Error(`${name}: ${p.length} files of that name were picked (${p.sort().join(', ')}); which one the model is read from is ambiguous: pick one model folder's files`);
  }
}

/** Checks the picked model.safetensors' size and header from its first bytes only (model_header),
 * before its data is read. Throws naming the file and the tensor at fault. */
async function checkHeader(weights, device) {
  let have = -1;
  for (let need = 8; need > have;) {
    const prefix = new Uint8Array(await weights.slice(0, need).arrayBuffer());
    have = prefix.length;
    need = model_header(prefix, weights.size, device);
    if (!need) return;
  }
  throw new Error('model.safetensors: its header could not be read');
}

/** A model name (the link's grammar: 1..=64 of [A-Za-z0-9._-]) made from `raw`, or null. */
export function modelName(raw) {
  const last = String(raw ?? '').split(/[\\/]/).filter(Boolean).pop() ?? '';
  const name = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return name || null;
}

/** The name the user sees: the folder of a picked folder, else config's _name_or_path, else "custom". */
function nameOf(weights, configText) {
  const folder = (weights.webkitRelativePath || '').split('/').slice(0, -1).pop();
  let fromConfig = null;
  try {
    fromConfig = JSON.parse(configText)._name_or_path;
  } catch {
    // the core names config.json's fault
  }
  return modelName(folder) ?? modelName(fromConfig) ?? 'custom';
}

/** A ModelUpload of `size` bytes filled from `stream` (a ReadableStream of Uint8Array chunks),
 * reporting `progress(loaded)` at most every 100 ms and at the end. Throws naming
 * model.safetensors (too big for the device, unreadable, or a size other than announced). */
export async function streamInto(stream, size, device, progress) {
  const upload = new ModelUpload(size, device);
  try {
    const reader = stream.getReader();
    let last = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      upload.push(value);
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        progress(upload.received());
      }
    }
  } catch (err) {
    upload.free();
    throw err instanceof Error && /model\.safetensors/.test(err.message) ? err : new Error(`model.safetensors: could not be read (${err?.message ?? err})`);
  }
  progress(upload.received());
  return upload;
}

export async function loadFiles(files, post, device = 0) {
  const byName = new Map();
  for (const f of files) byName.set(f.name, f);
  const missing = REQUIRED.filter((n) => !byName.has(n));
  if (missing.length) {
    const got = files.length ? files.map((f) => f.name).join(', ') : 'no file';
    throw new Error(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (got ${got}); pick model.safetensors, config.json and vocab.txt together (tokenizer_config.json optional)`);
  }
  oneOfEach(files);
  const weights = byName.get('model.safetensors');
  const configText = await textOf(byName.get('config.json'));
  const memory = model_memory(configText, device);
  const vocab = await textOf(byName.get('vocab.txt'));
  const tokFile = byName.get(OPTIONAL);
  const tok = tokFile ? await textOf(tokFile) : undefined;
  await checkHeader(weights, device);

  const upload = await streamInto(weights.stream(), weights.size, device, (loaded) =>
    post({ kind: 'progress', file: 'model.safetensors', loaded, total: weights.size, cached: false, own: true }));
  const sha256 = upload.sha256();
  const name = nameOf(weights, configText);
  const lab = upload.load(configText, vocab, tok, name); // consumes upload, frees its bytes
  return { lab, sha256, memory, name, configText };
}
