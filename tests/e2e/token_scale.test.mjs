// Browser tests of the token view's scale: it grows with the tokens and never zooms in past the
// initial tokens' extent, so tokens that shrink are seen shrinking (V = −I: they collapse).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';
import { radius, shown, snapshot, tokenRadius } from './drawn.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

describe('token view scale', () => {
  test('collapse: the cloud drawn at t = 20 is at most 1/10 of its start, on the start\'s scale', async () => {
    const at = async (moment) => {
      const page = await openPage(browser, `version=4&preset=collapse&${moment}`);
      try {
        await shown(page);
        const s = await snapshot(page);
        assertNoErrors(page);
        return { drawn: radius(s.drawn), data: tokenRadius(s.tokens, s.n, s.d) };
      } finally {
        await page.close();
      }
    };
    const start = await at('step=0');
    const end = await at('t=20');
    // The same CSS px per unit at both moments: the scale is fixed.
    const scale = [start.drawn / start.data, end.drawn / end.data];
    assert.ok(Math.abs(scale[1] / scale[0] - 1) < 0.01, `px per unit at t = 0 and 20: ${scale}`);
    assert.ok(end.drawn <= start.drawn / 10, `drawn radius ${end.drawn.toFixed(1)} px at t = 20 against ${start.drawn.toFixed(1)} px at t = 0`);
  });
});
