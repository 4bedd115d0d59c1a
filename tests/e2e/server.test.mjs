// Smoke test of the static server that `cargo xtask test` starts (no browser needed):
// the page and the wasm module are served, with the headers browsers need.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const base = process.env.ATTN_URL;

test('ATTN_URL is set to a base URL with a trailing slash', () => {
  assert.ok(base, 'ATTN_URL is not set (run with `cargo xtask test`)');
  assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('index.html is served at the base URL', async () => {
  const res = await fetch(base);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.match(await res.text(), /<html|<!doctype html/i);
});

test('the wasm module is served as application/wasm', async () => {
  const res = await fetch(new URL('pkg/attn_web_bg.wasm', base));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/wasm');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'wasm magic number');
  assert.ok(await WebAssembly.validate(bytes), 'the served module validates');
});

test('the wasm-bindgen glue is served as JavaScript', async () => {
  const res = await fetch(new URL('pkg/attn_web.js', base));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/javascript');
});

test('a missing file is a 404', async () => {
  const res = await fetch(new URL('no-such-file.js', base));
  assert.equal(res.status, 404);
  await res.arrayBuffer();
});
