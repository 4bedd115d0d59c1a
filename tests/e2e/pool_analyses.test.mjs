// The analyses of a pooled run computed by the workers in real Chromium: each
// worker folds its rows of P during a step's first stage, the page combines them; the metrics
// and the heatmap's pixels equal those the main thread computes over all of P, bit for bit, with
// 1, 2 and 3 workers (n not a multiple of 3); and the page, playing a pooled run, shows the
// metrics `attn run` prints at the same step.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, runCli, assertNoErrors, ATTN_BIN } from './helpers.mjs';

describe('analyses in the workers', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('workers\' analyses = the main thread\'s metrics and heatmap, 1-3 workers', async () => {
    const page = await openPage(browser, 'preset=polytope&n=20&until=0.1');
    try {
      const config = 'preset=polytope-3d&n=1100&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.01&until=10';
      const result = await page.evaluate(async (config) => {
        const base = new URL('.', location.href);
        const { Pool } = await import(new URL('particles/pool.js', base).href);
        const module = await WebAssembly.compileStreaming(fetch(new URL('pkg/attn_web_bg.wasm', base)));
        const spawn = () => {
          const w = new Worker(new URL('workers/rows.js', base), { type: 'module' });
          return { post: (m, t = []) => w.postMessage(m, t), listen: (f) => { w.onmessage = (e) => f(e.data); }, terminate: () => w.terminate() };
        };
        const hash = (x) => {
          const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
          let h = 2166136261;
          for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
          return `${bytes.length}:${h}`;
        };
        const bitsOf = (m) => JSON.stringify(m, (k, v) => (typeof v === 'number' ? hash(Float64Array.of(v)) : v));
        const { ParticleLab } = window.__attn.wasm;
        const out = [];
        for (const order of ['cluster', 'index']) {
          // The main thread: 5 steps, then the metrics and the heatmap over all of P.
          const one = new ParticleLab(config);
          one.set_heatmap_order(order);
          one.advance_past_end(5);
          const expected = { metrics: bitsOf(one.metrics()), rgba: hash(one.heatmap_rgba_scaled(512, 0)), perm: hash(one.heatmap_perm()), pMax: one.p_max() };
          one.free();
          for (const workers of [1, 2, 3]) {
            const s = new ParticleLab(config);
            s.set_heatmap_order(order);
            const pool = new Pool(workers, spawn, module);
            let got = null;
            let pooled = null;
            // The analyses ride on the first stage of step 6, which starts from step 5's state.
            // The effective rank is finished later, once the workers have step 6's stage.
            const analyses = {
              spec: (st) => (st.step_count() === 5 ? st.analysis_spec() : null),
              take: (st, partials) => {
                st.supply_analyses(partials);
                got = { step: st.step_count(), parts: partials.length };
                pooled = st.pool_heatmap();
                got.rgba = hash(st.heatmap_rgba_scaled(512, 0));
                got.perm = hash(st.heatmap_perm());
                return () => {
                  // After step 6 went on: the heatmap of the state analysed, as the page draws it.
                  got.rgbaLater = hash(st.analysed_heatmap_rgba(512, 0));
                  got.pMaxLater = st.analysed_p_max();
                  got.metrics = bitsOf(st.finish_analyses());
                  got.finishedAt = st.step_count();
                };
              },
            };
            const taken = await pool.advance(s, s.config_string(), 6, { pastEnd: true, analyses });
            out.push({ order, workers, taken, expected, got, pooled, after: s.step_count() });
            pool.terminate();
            s.free();
          }
        }
        return out;
      }, config);
      for (const r of result) {
        const what = `order ${r.order}, ${r.workers} workers`;
        assert.equal(r.taken, 6, what);
        assert.ok(r.got, `${what}: the analyses landed`);
        assert.equal(r.got.step, 5, `${what}: before the step completed`);
        assert.equal(r.got.parts, r.workers, what);
        assert.equal(r.pooled, true, `${what}: the workers made the heatmap's view`);
        assert.equal(r.got.finishedAt, 6, `${what}: the rank was finished after the step`);
        assert.equal(r.got.metrics, r.expected.metrics, `${what}: metrics`);
        assert.equal(r.got.perm, r.expected.perm, `${what}: heatmap order`);
        assert.equal(r.got.rgba, r.expected.rgba, `${what}: heatmap pixels`);
        assert.equal(r.got.rgbaLater, r.expected.rgba, `${what}: heatmap pixels drawn once the next stage is sent`);
        assert.equal(r.got.pMaxLater, r.expected.pMax, `${what}: max P drawn once the next stage is sent`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the page playing a pooled run shows the metrics of attn run at that step', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, async () => {
    const page = await openPage(browser, 'version=2&preset=polytope-3d&n=1100&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.001&until=1000&speed=1000');
    try {
      await page.evaluate(() => window.__attn.setWorkers(2));
      if (!(await page.evaluate(() => window.__attn.playing()))) await page.keyboard.press('Space');
      // Metrics the workers computed while the page played, past the first steps.
      const seen = await page.waitForFunction(() => {
        const a = window.__attn;
        const m = a.metrics();
        return a.playing() && a.metricsBy() === 'workers' && m && m.step >= 3 ? { m, config: a.configString(), dt: a.dt() } : null;
      }, null, { timeout: 60_000, polling: 50 });
      const { m, config, dt } = await seen.jsonValue();
      const until = String(m.step * dt);
      const cli = JSON.parse(await runCli(['run', '--config', config, '--until', until, '--every', until, '--threads', '2']));
      const frame = cli.frames.at(-1);
      assert.equal(frame.step, m.step, 'the CLI stopped at the step shown');
      for (const key of Object.keys(frame.metrics)) {
        assert.deepEqual(m[key], frame.metrics[key], `${key} at step ${m.step}`);
      }
      const bits = (x) => Buffer.from(Float64Array.of(x).buffer).toString('hex');
      assert.equal(bits(m.boolean_distance), bits(frame.metrics.boolean_distance));
      assert.equal(bits(m.effective_rank), bits(frame.metrics.effective_rank));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
