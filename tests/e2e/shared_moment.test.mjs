// Browser tests of a shared moment: a `step=` link, the `t=` link of the same step (t maps to
// step round(t / dt)) and the same run played there draw the same metrics chart (its samples,
// hence its plateaus), the same cluster colours and the same token trails, bit for bit. The
// played run's frames stop wherever their time budget ends, so the page's samples must be a
// function of the steps taken: the chart keeps the run's fixed sample steps and the step shown,
// the trails the states at the sample steps before it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, canvasSnapshot, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/**
 * What the page draws at its step once `hash` has reached step `step` and stopped there (a link's
 * moment, or the run played to its `until`), then moved back to step `back` on the timeline when
 * given: the chart's samples, the colour slots, the trail
 * points and the plateaus, every number as its 64 bits (hex), so -0, 0 and NaN are told apart;
 * the token and chart canvases' pixel hashes.
 */
async function moment(hash, step, back = null) {
  const page = await openPage(browser, hash);
  const stopped = (k) => page.waitForFunction(
    (at) => window.__attn.step() === at && !window.__attn.playing() && !window.__attn.seeking(),
    k,
    { timeout: 90_000 },
  );
  try {
    await stopped(step);
    if (back !== null) {
      // The timeline moved back to step `back`, as a user drags it.
      await page.locator('#timeline-range').fill(String(back));
      await stopped(back);
    }
    // Two frames: the paused run's last render has drawn.
    await page.evaluate(() => new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); }));
    await page.waitForTimeout(250);
    const got = await page.evaluate(() => {
      const a = window.__attn;
      const view = new DataView(new ArrayBuffer(8));
      const bits = (x) => {
        view.setFloat64(0, x);
        return view.getBigUint64(0).toString(16);
      };
      const chart = a.chartSamples();
      const columns = {};
      for (const [k, v] of Object.entries(chart)) columns[k] = k === 'step' ? Array.from(v) : Array.from(v, bits);
      return {
        chart: columns,
        slots: Array.from(a.slots()),
        trail: a.trail().map((e) => ({ step: e.step, t: bits(e.t), x: e.x.map(bits) })),
        plateaus: JSON.stringify(a.plateaus()),
        metrics: JSON.stringify(a.metrics()),
      };
    });
    got.tokensPicture = (await canvasSnapshot(page, '#tokens')).hash;
    got.chartPicture = (await canvasSnapshot(page, '#chart')).hash;
    assertNoErrors(page);
    return got;
  } finally {
    await page.close();
  }
}

/** Asserts that moment `b` (named `what`) draws what moment `a` draws. */
function same(a, b, what, { pictures = true } = {}) {
  assert.deepEqual(b.chart.step, a.chart.step, `${what}: the chart's sample steps`);
  for (const k of Object.keys(a.chart)) assert.deepEqual(b.chart[k], a.chart[k], `${what}: the chart's ${k}, bit for bit`);
  assert.equal(b.plateaus, a.plateaus, `${what}: the plateaus`);
  assert.deepEqual(b.slots, a.slots, `${what}: the colour slots`);
  assert.deepEqual(b.trail.map((e) => e.step), a.trail.map((e) => e.step), `${what}: the trail's steps`);
  assert.deepEqual(b.trail, a.trail, `${what}: the trail points, bit for bit`);
  assert.equal(b.metrics, a.metrics, `${what}: the metrics shown`);
  if (pictures) {
    assert.equal(b.chartPicture, a.chartPicture, `${what}: the chart's pixels`);
    assert.equal(b.tokensPicture, a.tokensPicture, `${what}: the token view's pixels`);
  }
}

describe('a shared moment equals the played moment', () => {
  test('sphere-sa at step 150: step=150, t=15 and the run played there draw the same', async () => {
    const base = 'version=6&preset=sphere-sa';
    const byStep = await moment(`${base}&step=150`, 150);
    // Every step is a sample step (150 steps to until: sample_every 1), 0 to 150.
    assert.equal(byStep.chart.step.length, 151, 'a sample per step, not a line from start to end');
    assert.equal(byStep.trail.length, 41, 'the trail of the last 40 sample steps and the state shown');
    assert.deepEqual(byStep.trail.map((e) => e.step), Array.from({ length: 41 }, (_, i) => 110 + i));
    same(byStep, await moment(`${base}&t=15`, 150), 't=15');
    // Played at the suggested speed (a step every few frames) to until = 15, where it stops.
    same(byStep, await moment(base, 150), 'played to step 150');
  });

  test('the timeline moved back to a step draws what a link to it draws (the trail retraced)', async () => {
    const base = 'version=6&preset=sphere-sa';
    const byStep = await moment(`${base}&step=100`, 100);
    assert.deepEqual(byStep.trail.map((e) => e.step), Array.from({ length: 41 }, (_, i) => 60 + i));
    const back = await moment(`${base}&step=150`, 150, 100);
    // The chart keeps the samples computed up to step 150 (the timeline's range): the rest is
    // what the link to step 100 draws.
    assert.deepEqual(back.chart.step, Array.from({ length: 151 }, (_, i) => i));
    const first = (m) => ({ ...m, chart: Object.fromEntries(Object.entries(m.chart).map(([k, v]) => [k, v.slice(0, 101)])) });
    same(first(byStep), first(back), 'step=150, then the timeline at 100', { pictures: false });
  });

  test('a run whose sample steps are not every step: metastability at step 4000, played 7 steps a frame', async () => {
    // 4000 steps to until: a sample every 13 steps; 4000 is not one, and frames of 7 steps stop
    // at 7, 14, ... (speed is a view key: the same numbers).
    const base = 'version=6&preset=metastability';
    const byStep = await moment(`${base}&step=4000`, 4000);
    const steps = byStep.chart.step;
    assert.ok(steps.every((s, i) => s % 13 === 0 || (s === 4000 && i === steps.length - 1)), `sample steps: ${steps.slice(0, 8)}…${steps.slice(-3)}`);
    assert.equal(steps.at(-1), 4000, 'the step shown is the chart\'s last sample');
    same(byStep, await moment(`${base}&t=400`, 4000), 't=400');
    same(byStep, await moment(`${base}&speed=7`, 4000), 'played 7 steps a frame');
  });

  test('the front page\'s preset (polytope, autoscaled): the same samples, colours and trail', async () => {
    const base = 'version=6&preset=polytope';
    const byStep = await moment(`${base}&step=200`, 200);
    // The Euclidean view's autoscale follows the frames (it zooms smoothly): the pixels are not
    // compared, what they draw is.
    same(byStep, await moment(`${base}&speed=3`, 200), 'played 3 steps a frame', { pictures: false });
  });
});
