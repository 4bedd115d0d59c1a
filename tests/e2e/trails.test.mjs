// Browser tests of the token trails' drawing (the page's budget): a trail
// segment shorter than half a pixel is not stroked (a token's dot covers it; at n = 4096 and
// dt = 1e-4 stroking them was half of the page's canvas work), so a run whose tokens move less
// than that per frame draws the same pixels with trails on and off; a run that moves draws them.

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

/** The token canvas's pixels with trails on, then off, of `link` paused after 30 steps. */
async function trailsOnOff(link) {
  const page = await openPage(browser, link);
  try {
    await page.waitForFunction(() => window.__attn.step() >= 30, null, { timeout: 30_000 });
    await page.click('#play');
    await page.waitForFunction(() => !window.__attn.playing());
    await page.waitForTimeout(150);
    const on = await canvasSnapshot(page, '#tokens');
    await page.uncheck('#trails');
    await page.waitForTimeout(150);
    const off = await canvasSnapshot(page, '#tokens');
    assertNoErrors(page);
    return { on, off };
  } finally {
    await page.close();
  }
}

describe('token trails', () => {
  test('tokens that move less than half a pixel per frame leave no trail ink', async () => {
    // dt = 1e-6: a token moves about 1e-6 of the view per step.
    const { on, off } = await trailsOnOff('version=4&preset=polytope&dt=1e-6&until=1e-3&overlays=');
    assert.ok(on.inked > 100, 'tokens drawn');
    assert.equal(on.hash, off.hash, 'the same pixels with trails on and off');
  });

  test('tokens that move draw their trails', async () => {
    const { on, off } = await trailsOnOff('version=4&preset=polytope&overlays=');
    assert.notEqual(on.hash, off.hash, 'trails drawn');
    assert.ok(on.inked > off.inked, `more ink with trails: ${on.inked} > ${off.inked}`);
  });
});
