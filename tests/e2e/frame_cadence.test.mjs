// The particle lab's frames while the worker pool plays a run (www/lab/run_loop.js `asleep`,
// www/particles/render.js `stepDrawPaced`): the loop asks for an animation frame when a batch of
// steps lands, not at every display refresh (a frame with nothing new still costs the page a
// main-frame pass and a commit), and the token view draws a new step at most every
// min(20 x its drawing time, 100 ms); pausing shows the exact state at once.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertNoErrors } from './helpers.mjs';

const BENCH = 'preset=polytope-3d&n=4096&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.0001&until=1000&speed=1000';

/**
 * Over `ms` of play: the animation frames the page asked for, the token view's draws (its
 * background fill, one per draw) with their times, and the steps taken.
 */
function countFrames(page, ms) {
  return page.evaluate(async (ms) => {
    const raf = window.requestAnimationFrame;
    let frames = 0;
    window.requestAnimationFrame = (f) => {
      frames += 1;
      return raf.call(window, f);
    };
    const canvas = document.getElementById('tokens');
    const ctx = canvas.getContext('2d');
    const fill = ctx.fillRect;
    const draws = [];
    ctx.fillRect = function (x, y, w, h) {
      if (x === 0 && y === 0 && w * h > 1000) draws.push(performance.now());
      return fill.call(this, x, y, w, h);
    };
    const s0 = window.__attn.step();
    await new Promise((r) => { setTimeout(r, ms); });
    const steps = window.__attn.step() - s0;
    window.requestAnimationFrame = raf;
    delete ctx.fillRect;
    return { frames, draws, steps };
  }, ms);
}

describe('frame cadence of a pooled run', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('frames follow the landed steps, draws are paced, a pause shows the state at once', async () => {
    const page = await openPage(browser, BENCH);
    try {
      await page.waitForFunction(() => window.__attn.workers() > 0 && window.__attn.step() > 5, null, { timeout: 60_000 });
      const { frames, draws, steps } = await countFrames(page, 3000);
      assert.ok(steps >= 5, `steps in 3 s: ${steps}`);
      // At every display refresh that would be ~180 frames; asleep, about one per landed batch
      // (a batch is one step at n = 4096), and a few for the analyses and the status line.
      assert.ok(frames <= steps + 10 && frames < 120, `frames ${frames} for ${steps} steps`);
      // Never more draws than steps, and never a long wait between draws while steps land.
      assert.ok(draws.length >= 5 && draws.length <= steps + 2, `draws ${draws.length} for ${steps} steps`);
      const gaps = draws.slice(1).map((t, i) => t - draws[i]);
      const slowest = Math.max(...gaps);
      assert.ok(slowest < 1500, `longest time between draws ${slowest.toFixed(0)} ms`);
      // Pause: the frame after shows the exact step the run stopped at.
      await page.click('#play');
      await page.waitForFunction(() => !window.__attn.playing() && !window.__attn.stepping());
      await page.waitForFunction(() => document.getElementById('status-step').textContent.startsWith(`${window.__attn.step()} / `));
      assert.equal(await page.locator('#status-state').textContent(), 'paused');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
