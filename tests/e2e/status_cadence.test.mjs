// The status line's cadence (www/particles/render.js): while the worker pool steps a playing run,
// the status line and the timeline are written at most every 250 ms (each write costs the page a
// style, layout and paint pass the two workers need the cores for); a small run on the main
// thread, and every paused run, shows each step at once.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertNoErrors } from './helpers.mjs';

/** Counts the writes of the status step and the steps taken over `ms` of play. */
function countWrites(page, ms) {
  return page.evaluate(async (ms) => {
    const el = document.getElementById('status-step');
    let writes = 0;
    const mo = new MutationObserver((list) => { writes += list.length; });
    mo.observe(el, { childList: true, characterData: true, subtree: true });
    const s0 = window.__attn.step();
    await new Promise((r) => { setTimeout(r, ms); });
    mo.disconnect();
    return { writes, steps: window.__attn.step() - s0 };
  }, ms);
}

describe('status line cadence', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('a pooled run writes its status at most every 250 ms; paused, it shows the exact step', async () => {
    const page = await openPage(browser, 'preset=polytope-3d&n=1024&init=gaussian&scale=1&integrate_in=x&coords=x&dt=0.0001&until=1000&speed=1000');
    try {
      await page.waitForFunction(() => window.__attn.workers() > 0 && window.__attn.step() > 3, null, { timeout: 30_000 });
      const { writes, steps } = await countWrites(page, 3000);
      // More steps than writes: the status skipped some; at most one write per 250 ms (+1 edge).
      assert.ok(steps > writes, `steps ${steps}, status writes ${writes}`);
      assert.ok(writes >= 4 && writes <= 13, `status writes in 3 s: ${writes}`);
      await page.click('#play');
      await page.waitForFunction(() => !window.__attn.playing() && !window.__attn.stepping());
      await page.waitForFunction(() => document.getElementById('status-step').textContent.startsWith(`${window.__attn.step()} / `));
      assert.equal(await page.locator('#status-state').textContent(), 'paused');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a small run on the main thread writes its status every step', async () => {
    const page = await openPage(browser, 'preset=polytope&n=20&until=1e6&speed=1');
    try {
      await page.waitForFunction(() => window.__attn.playing() && window.__attn.workers() === 0 && window.__attn.step() > 3);
      const { writes, steps } = await countWrites(page, 1500);
      assert.ok(steps >= 10, `steps ${steps}`);
      assert.ok(writes >= steps - 2, `status writes ${writes} for ${steps} steps`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
