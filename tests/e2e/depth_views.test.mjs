// Browser tests of the depth lab's views: the similarity grid's colour scale
// (view key grid_scale: per head or one scale for the grid) and the panels with nothing to say,
// which say so in one sentence instead of drawing a flat line.

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

/** Waits until every variant is drawn and the grid holds the tiles of scale `scale`. */
async function settled(page, scale) {
  await page.waitForFunction((s) => {
    const d = window.__attnDepth;
    return d && !d.busy() && !d.pending() && d.total() > 0 && d.done() === d.total() && d.gridScale() === s;
  }, scale, { timeout: 60_000 });
}

/** viridis(1), the top of the scale (crates/web/src/charts/heatmap.rs). */
const TOP = [253, 231, 37];

/** How many tiles of the grid show the top colour somewhere (tiles inset by a pixel). */
async function tilesWithTop(page) {
  const g = await page.evaluate(() => window.__attnDepth.gridGeometry());
  const dpr = await page.evaluate(() => window.devicePixelRatio);
  const snap = await canvasSnapshot(page, '#dp-grid', { pixels: true });
  let tiles = 0;
  for (let l = 0; l < g.layers; l++) {
    for (let h = 0; h < g.heads; h++) {
      const x0 = Math.ceil((g.x0 + h * g.cell + 2) * dpr);
      const x1 = Math.floor((g.x0 + (h + 1) * g.cell - 2) * dpr);
      const y0 = Math.ceil((g.y0 + l * g.cell + 2) * dpr);
      const y1 = Math.floor((g.y0 + (l + 1) * g.cell - 2) * dpr);
      let found = false;
      for (let y = y0; y < y1 && !found; y++) {
        for (let x = x0; x < x1 && !found; x++) {
          const i = (y * snap.width + x) * 4;
          const p = snap.pixels;
          found = Math.abs(p[i] - TOP[0]) <= 3 && Math.abs(p[i + 1] - TOP[1]) <= 3 && Math.abs(p[i + 2] - TOP[2]) <= 3;
        }
      }
      if (found) tiles += 1;
    }
  }
  return { tiles, all: g.layers * g.heads };
}

/** The texts a chart drew (its data-labels attribute). */
async function labels(page, id) {
  return page.evaluate((i) => JSON.parse(document.getElementById(i).dataset.labels || '[]').map((l) => l.text), id);
}

describe('depth lab views', () => {
  test('grid_scale: per head every tile reaches the top colour; shared only the heads holding the grid maximum; the radio writes the key', async () => {
    const base = 'lab=depth&preset=collapse-small&variants=transformer';
    const page = await openPage(browser, base);
    try {
      await settled(page, 'head');
      const perHead = await tilesWithTop(page);
      assert.equal(perHead.all, 12 * 4);
      assert.equal(perHead.tiles, perHead.all, 'per head: each tile spans its own range');
      assert.equal(await page.textContent('#dp-grid-max'), "head's max");
      await page.check('input[name="dp-grid-scale"][value="shared"]');
      await settled(page, 'shared');
      await page.waitForFunction(() => location.hash.endsWith('&grid_scale=shared'));
      const shared = await tilesWithTop(page);
      assert.ok(shared.tiles >= 1 && shared.tiles <= 2, `shared: the maximum's head (and at most a tie) in the top colour, got ${shared.tiles}`);
      assert.equal(await page.textContent('#dp-grid-max'), 'grid max');
      assert.match(await page.textContent('#dp-grid-caption'), /one scale/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
    // A link with the key opens on the shared scale, the radio checked.
    const linked = await openPage(browser, `${base}&grid_scale=shared`);
    try {
      await settled(linked, 'shared');
      assert.equal(await linked.isChecked('input[name="dp-grid-scale"][value="shared"]'), true);
      assert.ok((await tilesWithTop(linked)).tiles <= 2);
      assertNoErrors(linked);
    } finally {
      await linked.close();
    }
  });

  test('one sentence: the same-sentence panel says why it has nothing to show; several sentences draw the chart', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&layers=3&variants=san,transformer');
    try {
      await settled(page, 'head');
      const one = (await labels(page, 'dp-same')).join(' ');
      assert.match(one, /All tokens are in one sentence/);
      const drawn = await labels(page, 'dp-same');
      assert.ok(!drawn.includes('layer l') && !drawn.some((t) => /^chance /.test(t)), `no axes around a flat line: ${drawn.join(' | ')}`);
      // Singular values are still a chart here.
      assert.ok((await labels(page, 'dp-spectrum')).includes('k'));
      await page.evaluate(() => { location.hash = '#version=7&lab=depth&preset=context-text&layers=3&variants=san,transformer'; });
      await settled(page, 'head');
      await page.waitForFunction(() => JSON.parse(document.getElementById('dp-same').dataset.labels || '[]').some((l) => /^chance/.test(l.text)));
      const several = (await labels(page, 'dp-same')).join(' ');
      assert.doesNotMatch(several, /one sentence/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('d_model = 1: the singular-value panel says X has a single singular value, or none where a LayerNorm zeroes it', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&layers=2&d_model=1&d_head=1&layernorm=none&variants=san-skip');
    try {
      await settled(page, 'head');
      const text = (await labels(page, 'dp-spectrum')).join(' ');
      assert.match(text, /single singular value/);
      assert.ok(!(await labels(page, 'dp-spectrum')).includes('k'), text);
      // Post-LN of one coordinate is 0: layer 1 has no singular value to show, layer 0 has one.
      await page.evaluate(() => { location.hash = '#version=7&lab=depth&preset=collapse-small&layers=2&d_model=1&d_head=1&variants=san-skip'; });
      await page.waitForFunction(() => !window.__attnDepth.configString().includes('layernorm=none'));
      await settled(page, 'head');
      await page.waitForFunction(() => /zero \(or not finite\)/.test(document.getElementById('dp-spectrum').dataset.labels || ''));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
