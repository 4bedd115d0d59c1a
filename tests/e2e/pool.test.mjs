// The particle lab's worker pool in real Chromium: module Web Workers with their own
// wasm instances give tokens bit-identical to the single-thread stepper and to the native CLI
// with 1, 2 and 3 workers; and the page plays a large run (n = 4096, d = 3, Euler) with the pool:
// frames advance and the token canvas changes while the main thread stays responsive. The test
// prints the steps per second it saw; it asserts no time (a noisy machine must not fail it).

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, canvasSnapshot, runCli, assertNoErrors, ATTN_BIN } from './helpers.mjs';

describe('worker pool', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('1, 2 and 3 workers give the same bits as one thread and as the CLI', async () => {
    const page = await openPage(browser, 'preset=polytope&n=20&until=0.1');
    try {
      const cases = [
        { config: 'preset=polytope-3d&n=600&integrator=rk4', steps: 4 },
        { config: 'preset=sphere-sa&n=513&d=3', steps: 4 },
        { config: 'preset=random-psd&n=300&d=5&integrate_in=x', steps: 3 },
      ];
      for (const { config, steps } of cases) {
        const result = await page.evaluate(async ({ config, steps }) => {
          const base = new URL('.', location.href);
          const { Pool } = await import(new URL('particles/pool.js', base).href);
          const module = await WebAssembly.compileStreaming(fetch(new URL('pkg/attn_web_bg.wasm', base)));
          const spawn = () => {
            const w = new Worker(new URL('workers/rows.js', base), { type: 'module' });
            return { post: (m, t = []) => w.postMessage(m, t), listen: (f) => { w.onmessage = (e) => f(e.data); }, terminate: () => w.terminate() };
          };
          const b64 = (x) => {
            const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
            let bin = '';
            for (const b of bytes) bin += String.fromCharCode(b);
            return btoa(bin);
          };
          const { ParticleLab } = window.__attn.wasm;
          const one = new ParticleLab(config);
          one.advance_past_end(steps);
          const coords = one.integrate_in();
          const out = { single: b64(one.tokens(coords)), pools: [], dt: one.dt(), coords };
          one.free();
          for (const workers of [1, 2, 3]) {
            const s = new ParticleLab(config);
            const pool = new Pool(workers, spawn, module);
            const taken = await pool.advance(s, s.config_string(), steps, { pastEnd: true });
            out.pools.push({ workers, taken, tokens: b64(s.tokens(coords)), status: s.status() });
            pool.terminate();
            s.free();
          }
          return out;
        }, { config, steps });
        for (const p of result.pools) {
          assert.equal(p.taken, steps, `${config}, ${p.workers} workers: ${p.status}`);
          assert.equal(p.tokens, result.single, `${config}: ${p.workers} workers differ from one thread`);
        }
        if (ATTN_BIN) {
          const until = String(steps * result.dt);
          const cli = JSON.parse(await runCli(['run', '--config', `${config}&coords=${result.coords}`, '--until', until, '--every', until, '--threads', '2']));
          const native = Buffer.from(Float64Array.from(cli.frames.at(-1).tokens.flat()).buffer);
          assert.ok(native.equals(Buffer.from(result.single, 'base64')), `${config}: wasm pool and native CLI differ`);
        }
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the page plays n = 4096, d = 3, Euler with the pool and keeps drawing', async () => {
    const page = await openPage(browser, 'version=2&preset=polytope-3d&n=4096&integrator=euler&until=1000');
    try {
      // Pause whatever the page started, then play from a known state with the pool.
      await page.evaluate(() => window.__attn.setWorkers(null));
      const workers = await page.evaluate(() => window.__attn.workers());
      assert.ok(workers >= 1, 'n = 4096 steps in the pool');
      const before = await canvasSnapshot(page, '#tokens');
      const s0 = await page.evaluate(() => window.__attn.step());
      if (!(await page.evaluate(() => window.__attn.playing()))) await page.keyboard.press('Space');
      const t0 = Date.now();
      // The main thread answers while the workers step (a timer round trip, measured).
      let worstGap = 0;
      while (Date.now() - t0 < 8000) {
        const gap = await page.evaluate(() => new Promise((resolve) => {
          const start = performance.now();
          setTimeout(() => resolve(performance.now() - start), 0);
        }));
        worstGap = Math.max(worstGap, gap);
        await page.waitForTimeout(200);
      }
      const s1 = await page.evaluate(() => window.__attn.step());
      const seconds = (Date.now() - t0) / 1000;
      console.log(`# pool in Chromium: n = 4096, d = 3, Euler, ${workers} workers: ${((s1 - s0) / seconds).toFixed(1)} steps/s (${s1 - s0} steps in ${seconds.toFixed(1)} s); longest main-thread timer delay ${worstGap.toFixed(0)} ms`);
      assert.ok(s1 > s0 + 1, `frames advance (${s0} -> ${s1})`);
      const after = await canvasSnapshot(page, '#tokens');
      assert.notEqual(after.hash, before.hash, 'the token canvas changed');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
