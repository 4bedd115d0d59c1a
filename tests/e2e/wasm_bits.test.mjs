// The wasm build of the particle stepper gives the native CLI's bits (the tiled kernels' tests): the page's
// module (www/pkg), loaded in Node, steps every model, space and scheme twice at token dimensions
// on both sides of the fused/tiled switch (d = 1, 2, 3 | 5, 16, 64, 128, 256) and numbers of
// tokens that are no multiple of any tile (1, 7, 513, 1000); its tokens must equal, byte for
// byte, `attn run`'s on 2 threads (the AVX-512 build on this machine, whose tiles differ from
// wasm's 2 x 4 simd128 ones). Needs no browser: the same module the page runs, in Node's V8.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli, ATTN_BIN } from './helpers.mjs';

const PKG = new URL('../../www/pkg/', import.meta.url);

/** The 8 combinations of model, space and scheme. */
const KINDS = [
  (n, d) => `version=${VERSION}&preset=polytope&n=${n}&d=${d}&integrate_in=x&integrator=euler`,
  (n, d) => `version=${VERSION}&preset=polytope&n=${n}&d=${d}&integrate_in=z&integrator=rk4`,
  (n, d) => `version=${VERSION}&preset=sphere-sa&n=${n}&d=${d}&integrator=retraction`,
  (n, d) => `version=${VERSION}&preset=sphere-usa&n=${n}&d=${d}&integrator=rk4`,
  (n, d) => `version=${VERSION}&preset=polytope&n=${n}&d=${d}&integrate_in=x&integrator=rk4`,
  (n, d) => `version=${VERSION}&preset=polytope&n=${n}&d=${d}&integrate_in=z&integrator=euler`,
  (n, d) => `version=${VERSION}&preset=sphere-sa&n=${n}&d=${d}&integrator=rk4`,
  (n, d) => `version=${VERSION}&preset=sphere-usa&n=${n}&d=${d}&integrator=retraction`,
];
/** The configuration version of today's links (older ones replay as they were; see docs/links.md). */
const VERSION = 4;
const DS = [1, 2, 3, 5, 16, 64, 128, 256];
const NS = [1, 7, 513, 1000];

/** Two kinds per (d, n), rotating, so every kind meets every d and every n. */
function cases() {
  const out = [];
  DS.forEach((d, di) => NS.forEach((n, ni) => {
    for (const k of [0, 1]) out.push(KINDS[(2 * (di * NS.length + ni) + k + di) % KINDS.length](n, d));
  }));
  return out;
}

test('wasm (Node) steps give the native CLI\'s bits, d from 1 to 256, n = 1, 7, 513, 1000', { skip: !ATTN_BIN && 'ATTN_BIN is not set', timeout: 600_000 }, async () => {
  const glue = await import(new URL('attn_web.js', PKG).href);
  glue.initSync({ module: new WebAssembly.Module(readFileSync(new URL('attn_web_bg.wasm', PKG))) });
  const all = cases();
  const kinds = new Set(all.map((c) => c.replace(/n=\d+&d=\d+&/, '')));
  assert.equal(kinds.size, KINDS.length, 'every model, space and scheme is covered');
  for (const config of all) {
    const s = new glue.ParticleLab(config);
    const steps = 2;
    assert.equal(s.advance_past_end(steps), steps, `${config}: ${s.message()}`);
    const coords = s.integrate_in();
    const wasm = Buffer.from(s.tokens(coords).buffer.slice(0));
    const until = String(steps * s.dt());
    s.free();
    const cli = JSON.parse(await runCli(['run', '--config', `${config}&coords=${coords}`, '--until', until, '--every', until, '--threads', '2']));
    const frame = cli.frames.at(-1);
    assert.equal(frame.step, steps, `${config}: the CLI's last frame`);
    const native = Buffer.from(Float64Array.from(frame.tokens.flat()).buffer);
    assert.ok(native.equals(wasm), `${config}: wasm and the native CLI differ after ${steps} steps`);
  }
});
