// Browser tests of the heatmap's colour scale: the preset's suggestion (view key `heatmap`) puts
// the sphere presets on 0 … max P, where their clusters show as bright diagonal blocks, and says
// so in the legend; links of version 6 and older keep 0 … 1; a scale chosen is written in the link.

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

/** Opens `hash` paused at its `step=` and waits for the heatmap of that state. */
async function openAt(hash, step) {
  const page = await openPage(browser, hash);
  await page.waitForFunction((s) => window.__attn.step() === s && !window.__attn.playing(), step, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page;
}

/** Share of the heatmap's pixels that are bright (viridis above about 0.75: yellow-green; not
 * the white lines between groups). */
async function brightShare(page) {
  const s = await canvasSnapshot(page, '#heatmap', { pixels: true });
  let bright = 0;
  for (let i = 0; i < s.pixels.length; i += 4) {
    const [r, g, b] = [s.pixels[i], s.pixels[i + 1], s.pixels[i + 2]];
    if (g > 180 && b < 140 && r > 60) bright += 1; // viridis from about 0.75 up
  }
  return bright / (s.pixels.length / 4);
}

describe('heatmap colour scale', () => {
  test('sphere-sa-clusters opens on 0 … max P: its three clusters are bright blocks, and the legend says max P', async () => {
    const page = await openAt('version=7&preset=sphere-sa-clusters&step=150', 150);
    try {
      assert.equal(await page.inputValue('#heat-scale'), 'max');
      assert.equal(await page.textContent('#heatmap-top'), 'max P');
      const max = await page.textContent('#heatmap-max');
      assert.match(max, /max P = 0\.0\d/, 'the largest entry is printed: no entry comes near 1');
      const share = await brightShare(page);
      // Three diagonal blocks of about a third of the tokens each: about 1/3 of the area.
      assert.ok(share > 0.2, `bright share ${share}`);
      assert.ok(!(await page.evaluate(() => location.hash)).includes('heatmap='), 'the suggestion is not written');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a version 6 link keeps 0 … 1: the same state is near-black', async () => {
    const page = await openAt('version=6&preset=sphere-sa-clusters&step=150', 150);
    try {
      assert.equal(await page.inputValue('#heat-scale'), 'one');
      assert.equal(await page.textContent('#heatmap-top'), '1');
      assert.ok(!(await page.evaluate(() => location.hash)).includes('heatmap='), 'the old default is not written');
      assert.ok((await brightShare(page)) < 0.01);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('polytope keeps 0 … 1 (its P turns Boolean); choosing a scale writes it, a new preset takes its own suggestion', async () => {
    const page = await openAt('version=7&preset=polytope&step=10', 10);
    try {
      assert.equal(await page.inputValue('#heat-scale'), 'one');
      await page.selectOption('#heat-scale', 'max');
      await page.waitForFunction(() => location.hash.includes('heatmap=max'));
      await page.selectOption('#preset', 'sphere-sa');
      await page.waitForFunction(() => location.hash.includes('preset=sphere-sa') && !location.hash.includes('heatmap='));
      assert.equal(await page.inputValue('#heat-scale'), 'max');
      await page.selectOption('#preset', 'leaders');
      await page.waitForFunction(() => location.hash.includes('preset=leaders'));
      assert.equal(await page.inputValue('#heat-scale'), 'one');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
