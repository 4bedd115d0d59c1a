// The PNG text-chunk writer and reader of the Export menu (www/export/png_text.js), checked in
// Node against independent references: zlib's CRC-32 and a PNG that node:zlib compresses here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import {
  CONFIG_KEYWORD, PNG_SIGNATURE, STEP_KEYWORD, chunk, chunks, crc32, readText, textChunk, withText,
} from '../../www/export/png_text.js';
import { readPngState } from '../../www/export/png.js';

/** A 2 x 1 RGBA PNG built from scratch (IHDR, IDAT, IEND) with zlib's CRC. */
function tinyPng() {
  const part = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.from([0, 255, 0, 0, 255, 0, 0, 255, 255]); // filter 0, red, blue
  return new Uint8Array(Buffer.concat([Buffer.from(PNG_SIGNATURE), part('IHDR', ihdr), part('IDAT', zlib.deflateSync(raw)), part('IEND', Buffer.alloc(0))]));
}

test('crc32 matches the standard check value and zlib', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  const bytes = new Uint8Array(4096).map((_, i) => (i * 131 + 7) & 0xff);
  assert.equal(crc32(bytes), zlib.crc32(bytes));
  // The IEND chunk's well-known CRC.
  assert.deepEqual([...chunk('IEND', new Uint8Array(0)).subarray(8)], [0xae, 0x42, 0x60, 0x82]);
});

test('a tEXt chunk goes right after IHDR with a correct CRC, and reads back', () => {
  const png = tinyPng();
  const config = 'version=1&preset=polytope&n=30&v=1,0;0,-0.5';
  const out = withText(png, [[CONFIG_KEYWORD, config], ['attn-step', '120']]);
  const list = chunks(out);
  assert.deepEqual(list.map((c) => c.type), ['IHDR', 'tEXt', 'tEXt', 'IDAT', 'IEND']);
  assert.ok(list.every((c) => c.crcOk), 'every chunk has a correct CRC');
  for (const c of list) {
    const b = Buffer.from(out.subarray(c.start, c.end));
    assert.equal(b.readUInt32BE(b.length - 4), zlib.crc32(b.subarray(4, b.length - 4)), `${c.type}: CRC as zlib computes it`);
  }
  // keyword NUL text, as the PNG specification lays out tEXt.
  assert.equal(Buffer.from(list[1].data).toString('latin1'), `attn-config\0${config}`);
  const text = readText(out);
  assert.equal(text.get(CONFIG_KEYWORD), config);
  assert.equal(text.get('attn-step'), '120');
  // The image data is untouched.
  assert.deepEqual(chunks(out).find((c) => c.type === 'IDAT').data, chunks(png).find((c) => c.type === 'IDAT').data);
});

test('writing again replaces the chunk instead of adding a second one', () => {
  const once = withText(tinyPng(), [[CONFIG_KEYWORD, 'preset=polytope']]);
  const twice = withText(once, [[CONFIG_KEYWORD, 'preset=leaders']]);
  assert.equal(chunks(twice).filter((c) => c.type === 'tEXt').length, 1);
  assert.equal(readText(twice).get(CONFIG_KEYWORD), 'preset=leaders');
});

test('text that is not printable ASCII goes in an uncompressed iTXt chunk as UTF-8', () => {
  const text = 'lab=training&text=Grüße ‮ zero​width 東京\ttab';
  const c = textChunk(CONFIG_KEYWORD, text);
  assert.equal(String.fromCharCode(...c.subarray(4, 8)), 'iTXt');
  const out = withText(tinyPng(), [[CONFIG_KEYWORD, text]]);
  assert.equal(readText(out).get(CONFIG_KEYWORD), text);
});

test('damaged or foreign files are refused with a message, never a crash', () => {
  const out = withText(tinyPng(), [[CONFIG_KEYWORD, 'preset=polytope']]);
  const bad = out.slice();
  const at = chunks(bad).find((c) => c.type === 'tEXt').start + 12; // a byte of the keyword
  bad[at] ^= 0x20;
  assert.throws(() => readText(bad), /CRC mismatch/);
  assert.throws(() => readText(out.subarray(0, out.length - 6)), /truncated PNG/);
  assert.throws(() => readText(new TextEncoder().encode('GIF89a not a png')), /not a PNG/);
  assert.throws(() => readText(new Uint8Array(0)), /not a PNG/);
  const huge = out.slice();
  new DataView(huge.buffer).setUint32(8, 0xfffffff0); // IHDR claims ~4 GB
  assert.throws(() => readText(huge), /runs past the end/);
  // A PNG without our chunk reads as no text.
  assert.equal(readText(tinyPng()).size, 0);
  assert.throws(() => textChunk('', 'x'), /keyword/);
  assert.throws(() => textChunk('x'.repeat(80), 'x'), /keyword/);
});

/** `png` with `extra` chunks inserted right after IHDR (as another tool might write them). */
function withChunks(png, ...extra) {
  const ihdr = chunks(png)[0];
  return new Uint8Array(Buffer.concat([Buffer.from(png.subarray(0, ihdr.end)), ...extra.map((c) => Buffer.from(c)), Buffer.from(png.subarray(ihdr.end))]));
}

/** An uncompressed iTXt chunk (keyword NUL 0 0 NUL NUL text), even for ASCII text. */
function itxt(keyword, text) {
  return chunk('iTXt', new Uint8Array(Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')])));
}

// Row 8 of "Defects found by a demanding user": the last of two attn-config chunks loaded silently.
test('two chunks of the same keyword of ours are refused as ambiguous, naming the keyword', async () => {
  const png = tinyPng();
  const cases = [
    [withChunks(png, textChunk(CONFIG_KEYWORD, 'version=2&preset=polytope'), itxt(CONFIG_KEYWORD, 'version=2&preset=leaders')), CONFIG_KEYWORD, /a tEXt and an iTXt chunk/],
    [withChunks(png, textChunk(CONFIG_KEYWORD, 'version=2&preset=polytope'), textChunk(CONFIG_KEYWORD, 'version=2&preset=polytope')), CONFIG_KEYWORD, /a tEXt and a tEXt chunk/],
    [withChunks(withText(png, [[CONFIG_KEYWORD, 'version=2&preset=polytope']]), textChunk(STEP_KEYWORD, '3'), textChunk(STEP_KEYWORD, '4')), STEP_KEYWORD, /more than once/],
  ];
  for (const [bytes, key, said] of cases) {
    assert.throws(() => readText(bytes), (e) => e.key === key && /appears more than once in the PNG/.test(e.message) && /ambiguous/.test(e.message));
    const state = await readPngState(new Blob([bytes]));
    assert.equal(state.ok, false);
    assert.equal(state.key, key);
    assert.match(state.message, said);
  }
  // Other tools' keywords may repeat (PNG allows it); ours still read.
  const foreign = withChunks(withText(png, [[CONFIG_KEYWORD, 'version=2&preset=polytope']]), textChunk('Comment', 'a'), textChunk('Comment', 'b'));
  assert.deepEqual(await readPngState(new Blob([foreign])), { ok: true, config: 'version=2&preset=polytope', step: null });
  // One chunk of each: fine.
  const one = withText(png, [[CONFIG_KEYWORD, 'version=2&preset=polytope'], [STEP_KEYWORD, '7']]);
  assert.deepEqual(await readPngState(new Blob([one])), { ok: true, config: 'version=2&preset=polytope', step: 7 });
});
