// Browser tests of the training lab's timeline (lab/timeline.js on the training run loop): a
// step= link sets it; the keyboard, a drag and a click on the chart show an earlier or later
// iteration with the bits of training there directly (the loss and entropy equal a fresh link's);
// a committed position is written as step=; Replay trains again from iteration 0, playing.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const BASE = 'version=7&lab=training&preset=scan-snap&iterations=400';

async function at(page, k) {
  await page.waitForFunction((i) => window.__attnTraining?.iteration() === i && !window.__attnTraining.playing(), k, { timeout: 60_000 });
  return page.evaluate(() => ({ loss: window.__attnTraining.loss(), entropy: window.__attnTraining.entropy() }));
}

describe('training timeline', () => {
  test('step= sets it; keys, a drag and the chart move it with the bits of a step= link; Replay plays from 0', async () => {
    const fresh = await openPage(browser, `${BASE}&step=150`);
    const want = await at(fresh, 150);
    await fresh.close();

    const page = await openPage(browser, `${BASE}&step=300`);
    try {
      await at(page, 300);
      const range = page.locator('#tr-timeline-range');
      assert.equal(await range.inputValue(), '300');
      assert.equal(await page.textContent('#tr-timeline-label'), 'iteration 300 of 400');
      assert.equal(await range.getAttribute('aria-label'), 'Training timeline: the iteration shown');
      // End: the last iteration, written as step=.
      await range.focus();
      await page.keyboard.press('End');
      await at(page, 400);
      await page.waitForFunction(() => location.hash.endsWith('&step=400'));
      // Back to 150 (trained again from 0): the bits of a step=150 link.
      await range.fill('150');
      assert.deepEqual(await at(page, 150), want);
      await page.waitForFunction(() => location.hash.endsWith('&step=150'));
      await page.keyboard.press('ArrowRight');
      await at(page, 151);
      // A click on the chart's plot at iteration 200 jumps there (within a pixel's iterations).
      const box = await page.locator('#tr-chart').boundingBox();
      const layout = await page.evaluate(() => window.__attnTraining.chartLayout());
      const x = layout.x0 + ((200 - layout.start) / (layout.end - layout.start)) * (layout.x1 - layout.x0);
      const p0 = layout.panels[0];
      await page.mouse.click(box.x + x, box.y + (p0.y0 + p0.y1) / 2);
      await page.waitForFunction(() => Math.abs(window.__attnTraining.iteration() - 200) <= 2 && !window.__attnTraining.playing());
      // Replay: from iteration 0, playing, no step= in the link.
      await page.click('#tr-timeline-replay');
      await page.waitForFunction(() => window.__attnTraining.playing() || window.__attnTraining.iteration() === 400);
      await page.waitForFunction(() => !/step=/.test(location.hash));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
