// A tiny random BERT written by the browser tests (the core's tests/tiny_bert in JavaScript): a
// config.json, a vocab.txt and a model.safetensors serialised by hand (8-byte header length, JSON
// header padded to 8 bytes, little-endian F32 data), plus the hostile files the model lab refuses
// (truncated, a header claiming 1e12 elements, a wrong dtype, duplicate vocabulary pieces, 0 heads,
// a non-BERT model_type, a model too big for the page's memory; text files with a byte-order mark
// or in UTF-16, a tensor named twice) and finite weights that overflow f32 in the forward. Each
// set is written to its own
// folder under a temporary directory, for playwright's setInputFiles and for `attn encode`.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const D = 8;
export const HEADS = 2;
export const LAYERS = 2;
export const FF = 16;
export const POSITIONS = 48;
export const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'quick', 'brown', 'fox', 'dog', 'lazy', '.', ',', '##s', 'a', 'jumps'];

/** config.json of the tiny model with `extra` fields over it. */
export function config(extra = {}) {
  return JSON.stringify({
    _name_or_path: 'tests/tiny-bert', model_type: 'bert', hidden_act: 'gelu', hidden_size: D, num_attention_heads: HEADS,
    num_hidden_layers: LAYERS, intermediate_size: FF, max_position_embeddings: POSITIONS, vocab_size: VOCAB.length,
    type_vocab_size: 2, layer_norm_eps: 1e-12, position_embedding_type: 'absolute', ...extra,
  });
}

/** The safetensors bytes of `tensors` ([{ name, shape, dtype, data: Uint8Array }], a name may
 * come twice: the header is written entry by entry); `claim` overrides a tensor's header entry
 * ({ name: { shape, data_offsets } }). */
export function serialize(tensors, claim = {}) {
  const entries = [];
  let offset = 0;
  for (const t of tensors) {
    const entry = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.length], ...(claim[t.name] ?? {}) };
    entries.push(`${JSON.stringify(t.name)}:${JSON.stringify(entry)}`);
    offset += t.data.length;
  }
  let json = `{${entries.join(',')}}`;
  while (json.length % 8) json += ' ';
  const out = Buffer.alloc(8 + json.length + offset);
  out.writeBigUInt64LE(BigInt(json.length), 0);
  out.write(json, 8, 'latin1');
  let at = 8 + json.length;
  for (const t of tensors) {
    out.set(t.data, at);
    at += t.data.length;
  }
  return out;
}

/** Every tensor of the tiny model, random (a 32-bit LCG) from `seed`; `dtypes` sets some dtypes;
 * `positions`: rows of the position embedding (config.json's max_position_embeddings). */
export function tensors(seed = 7, dtypes = {}, positions = POSITIONS) {
  let s = seed >>> 0;
  const next = (scale) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (2 * (s / 2 ** 32) - 1) * scale;
  };
  const out = [];
  const add = (name, shape, scale, offset = 0) => {
    const len = shape.reduce((a, b) => a * b, 1);
    const dtype = dtypes[name] ?? 'F32';
    const width = dtype === 'F32' ? 4 : dtype === 'F16' ? 2 : 8;
    const data = new Uint8Array(len * width);
    const f = new Float32Array(len);
    for (let i = 0; i < len; i++) f[i] = next(scale) + offset;
    if (dtype === 'F32') data.set(new Uint8Array(f.buffer));
    out.push({ name, shape, dtype, data });
  };
  add('embeddings.word_embeddings.weight', [VOCAB.length, D], 1);
  add('embeddings.position_embeddings.weight', [positions, D], 0.5);
  add('embeddings.token_type_embeddings.weight', [2, D], 0.5);
  add('embeddings.LayerNorm.weight', [D], 0.2, 1);
  add('embeddings.LayerNorm.bias', [D], 0.1);
  for (let l = 0; l < LAYERS; l++) {
    const p = `encoder.layer.${l}`;
    for (const m of ['query', 'key', 'value']) {
      add(`${p}.attention.self.${m}.weight`, [D, D], 0.6);
      add(`${p}.attention.self.${m}.bias`, [D], 0.1);
    }
    add(`${p}.attention.output.dense.weight`, [D, D], 0.4);
    add(`${p}.attention.output.dense.bias`, [D], 0.1);
    add(`${p}.attention.output.LayerNorm.weight`, [D], 0.2, 1);
    add(`${p}.attention.output.LayerNorm.bias`, [D], 0.1);
    add(`${p}.intermediate.dense.weight`, [FF, D], 0.4);
    add(`${p}.intermediate.dense.bias`, [FF], 0.1);
    add(`${p}.output.dense.weight`, [D, FF], 0.3);
    add(`${p}.output.dense.bias`, [D], 0.1);
    add(`${p}.output.LayerNorm.weight`, [D], 0.2, 1);
    add(`${p}.output.LayerNorm.bias`, [D], 0.1);
  }
  return out;
}

/** A temporary folder for this run's model folders. */
export function tmpRoot() {
  return mkdtempSync(join(tmpdir(), 'attn-model-files-'));
}

/** Writes the files `files` ({ name: contents }) into `root/folder`; returns their paths. */
export function writeModel(root, folder, files) {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  return Object.entries(files).map(([name, data]) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  });
}

/** The tiny model's three files. */
export function tinyFiles(seed = 7) {
  return { 'model.safetensors': serialize(tensors(seed)), 'config.json': config(), 'vocab.txt': `${VOCAB.join('\n')}\n` };
}

/** `text`'s UTF-8 bytes after a UTF-8 byte-order mark. */
export const withBom = (text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);

/** `text` as UTF-16 (little-endian) with its byte-order mark. */
export const utf16 = (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

/** The tiny model whose layer 0 feed-forward output weights are all 3e38: finite weights that
 * overflow f32 in the forward, so the transformer and SAN+MLP have no value from layer 1 on (SAN
 * and SAN+skip never run the feed-forward). */
export function overflowFiles(seed = 7) {
  const t = tensors(seed);
  const w = t.find((x) => x.name === 'encoder.layer.0.output.dense.weight');
  w.data = new Uint8Array(new Float32Array(w.data.length / 4).fill(3e38).buffer);
  return { 'model.safetensors': serialize(t), 'config.json': config(), 'vocab.txt': `${VOCAB.join('\n')}\n` };
}

/** The tiny model whose layer 2 attention LayerNorm gains are 1e30 times the usual: its forward
 * is finite (the feed-forward's LayerNorm rescales), but layer 2 repeated without its MLP
 * (SAN+skip) gives about 1e30 once and overflows f32 at the next repetition. */
export function repeatOverflowFiles(seed = 7) {
  const t = tensors(seed);
  const w = t.find((x) => x.name === 'encoder.layer.1.attention.output.LayerNorm.weight');
  const f = new Float32Array(w.data.buffer.slice(w.data.byteOffset, w.data.byteOffset + w.data.byteLength));
  w.data = new Uint8Array(f.map((g) => g * 1e30).buffer);
  return { 'model.safetensors': serialize(t), 'config.json': config(), 'vocab.txt': `${VOCAB.join('\n')}\n` };
}
