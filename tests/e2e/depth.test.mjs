// Browser tests of the depth lab (rank collapse and context similarity, science.md §3-4), run by
// `cargo xtask test`. They check what a user sees: the four residual curves (pixels of each
// variant's colour), the layers x heads similarity grid, redraws when a switch or the preset
// changes, a message naming a refused key with the last result kept, and switching labs by tab
// and by hash. Small presets only (collapse-small, context-text) to stay fast.

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

/** The light theme's variant colours (crates/web/src/plot.rs, Okabe-Ito). */
const COLOURS = {
  SAN: [0x00, 0x72, 0xb2],
  'SAN+MLP': [0xd5, 0x5e, 0x00],
  'SAN+skip': [0x00, 0x9e, 0x73],
  transformer: [0xcc, 0x79, 0xa7],
};

/** Waits until every configured variant of configuration `config` (without its leading
 * `version=7&`) has been drawn. */
async function settled(page, config) {
  await page.waitForFunction((c) => {
    const d = window.__attnDepth;
    return d && !d.busy() && d.total() > 0 && d.done() === d.total() && (!c || d.configString() === c);
  }, config ? `version=7&${config}` : null, { timeout: 60_000 });
}

/** Pixels of `canvas` close to `rgb`. */
function count(snap, rgb, tol = 6) {
  let k = 0;
  const p = snap.pixels;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.abs(p[i] - rgb[0]) <= tol && Math.abs(p[i + 1] - rgb[1]) <= tol && Math.abs(p[i + 2] - rgb[2]) <= tol) k += 1;
  }
  return k;
}

/** Distinct colours of a canvas (quantised to 4 bits per channel). */
function colours(snap) {
  const seen = new Set();
  const p = snap.pixels;
  for (let i = 0; i < p.length; i += 4) seen.add(((p[i] >> 4) << 8) | ((p[i + 1] >> 4) << 4) | (p[i + 2] >> 4));
  return seen.size;
}

describe('depth lab', () => {
  test('draws the four residual curves, the similarity grid and the statistics panels', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small');
    try {
      await settled(page, 'lab=depth&preset=collapse-small');
      assert.equal(await page.isVisible('#lab-depth'), true);
      assert.equal(await page.isVisible('#lab-particles'), false);
      assert.equal(await page.getAttribute('#tab-depth', 'aria-selected'), 'true');
      assert.equal(await page.inputValue('#dp-preset'), 'collapse-small');
      assert.equal(await page.locator('#dp-done').textContent(), '4 / 4');
      const results = await page.evaluate(() => window.__attnDepth.results().map((r) => [r.variant, r.residual.length]));
      assert.deepEqual(results, [['SAN', 13], ['SAN+MLP', 13], ['SAN+skip', 13], ['transformer', 13]]);

      // The log axis (default) reaches f64's round-off here: the floor is drawn and labelled.
      const resLabels = JSON.parse(await page.getAttribute('#dp-residual', 'data-labels')).map((t) => t.text);
      assert.ok(resLabels.includes('f64 round-off 2⁻⁵³ ≈ 1.1·10⁻¹⁶'), resLabels.join(' | '));
      const res = await canvasSnapshot(page, '#dp-residual', { pixels: true });
      for (const [name, rgb] of Object.entries(COLOURS)) {
        const k = count(res, rgb);
        assert.ok(k > 150, `the ${name} curve is drawn (${k} pixels of its colour)`);
      }
      const grid = await canvasSnapshot(page, '#dp-grid', { pixels: true });
      assert.ok(grid.inked > grid.width * grid.height * 0.2, `the grid is drawn (${grid.inked} inked pixels)`);
      assert.ok(colours(grid) > 40, `the grid shows heatmaps (${colours(grid)} colours)`);
      const zoom = await canvasSnapshot(page, '#dp-zoom', { pixels: true });
      assert.ok(colours(zoom) > 20, 'the enlarged head is drawn');
      for (const id of ['#dp-hist', '#dp-same', '#dp-paths', '#dp-spectrum']) {
        const s = await canvasSnapshot(page, id);
        assert.ok(s.inked > 2000, `${id} is drawn (${s.inked} inked pixels)`);
      }

      // Clicking another head enlarges it.
      await page.locator('#dp-grid').scrollIntoViewIfNeeded();
      const box = await page.locator('#dp-grid').boundingBox();
      await page.mouse.click(box.x + 40, box.y + box.height * 0.9); // head 0 of a deep layer
      const zoom2 = await canvasSnapshot(page, '#dp-zoom');
      assert.notEqual(zoom2.hash, zoom.hash, 'the enlarged head changed');
      // Hover shows values.
      await page.locator('#dp-residual').scrollIntoViewIfNeeded();
      const r = await page.locator('#dp-residual').boundingBox();
      await page.mouse.move(r.x + r.width * 0.5, r.y + r.height * 0.5);
      await page.waitForSelector('#dp-res-tip:not([hidden])');
      assert.match(await page.locator('#dp-res-tip').textContent(), /layer \d+.*SAN: /);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a switch or the preset redraws the curves and the grid', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&layers=6');
    try {
      await settled(page, 'lab=depth&preset=collapse-small&layers=6');
      const res0 = await canvasSnapshot(page, '#dp-residual');
      const grid0 = await canvasSnapshot(page, '#dp-grid');
      await page.selectOption('#dp-layernorm', 'none');
      await settled(page, 'lab=depth&preset=collapse-small&layers=6&layernorm=none');
      assert.equal(await page.evaluate(() => location.hash), '#version=7&lab=depth&preset=collapse-small&layers=6&layernorm=none');
      const res1 = await canvasSnapshot(page, '#dp-residual');
      const grid1 = await canvasSnapshot(page, '#dp-grid');
      assert.notEqual(res1.hash, res0.hash, 'the residual curves were redrawn');
      assert.notEqual(grid1.hash, grid0.hash, 'the grid was redrawn');

      await page.selectOption('#dp-preset', 'context-text');
      await settled(page, 'lab=depth&preset=context-text');
      const res2 = await canvasSnapshot(page, '#dp-residual');
      assert.notEqual(res2.hash, res1.hash, 'the preset redrew the curves');
      assert.equal(await page.inputValue('#dp-input'), 'text');
      // Text input: the chance level is below 1 and named in the caption.
      assert.match(await page.locator('#dp-same-caption').textContent(), /= 0\.\d+/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('an invalid key is named in an alert and the last result is kept', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&layers=99');
    try {
      await page.waitForFunction(() => document.getElementById('dp-config-error').textContent.includes('layers'));
      await settled(page, 'lab=depth&preset=collapse-small');
      assert.equal(await page.getAttribute('#dp-config-error', 'role'), 'alert');
      assert.equal(await page.getAttribute('#dp-layers', 'aria-invalid'), 'true');

      await page.fill('#dp-layers', '4');
      await page.press('#dp-layers', 'Enter');
      await settled(page, 'lab=depth&preset=collapse-small&layers=4');
      assert.equal(await page.locator('#dp-config-error').textContent(), '');
      const before = await canvasSnapshot(page, '#dp-residual');

      await page.fill('#dp-heads', '0');
      await page.press('#dp-heads', 'Enter');
      await page.waitForFunction(() => document.getElementById('dp-config-error').textContent.includes('heads'));
      assert.equal(await page.evaluate(() => window.__attnDepth.configString()), 'version=7&lab=depth&preset=collapse-small&layers=4');
      assert.equal(await page.evaluate(() => window.__attnDepth.done()), 4);
      assert.equal((await canvasSnapshot(page, '#dp-residual')).hash, before.hash, 'the last result stays drawn');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('while bert-init computes: the running variant and the previous one\'s time; Cancel shows only then', async () => {
    const page = await openPage(browser, 'lab=depth&preset=bert-init');
    try {
      const cancelShown = () => page.evaluate(() => getComputedStyle(document.getElementById('dp-cancel')).visibility === 'visible');
      // Two workers compute side by side: the variants in flight, the count, the last one's time.
      await page.waitForFunction(() => /computing \S+( and \S+)? \(2 of 4\)…; \S+ took \d+\.\d s/.test(document.getElementById('dp-state').textContent), null, { timeout: 120_000 });
      assert.equal(await cancelShown(), true, 'Cancel shows while a variant computes');
      const box = await page.locator('#dp-residual').boundingBox();
      await page.click('#dp-cancel');
      // One variant was done when the state was read; another may finish before the click lands.
      await page.waitForFunction(() => /cancelled after [12] of 4/.test(document.getElementById('dp-state').textContent));
      const done = await page.evaluate(() => window.__attnDepth.results().length);
      assert.match(await page.textContent('#dp-state'), new RegExp(`cancelled after ${done} of 4`), 'the count is of the results kept');
      assert.equal(await cancelShown(), false, 'Cancel is hidden when idle');
      assert.deepEqual(await page.locator('#dp-residual').boundingBox(), box, 'hiding Cancel moves nothing');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('tabs and the hash switch between the labs', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      assert.equal(await page.isVisible('#lab-particles'), true);
      await page.click('#tab-depth');
      await settled(page);
      assert.equal(await page.evaluate(() => location.hash), '#version=7&lab=depth&preset=collapse-small');
      assert.equal(await page.isVisible('#lab-depth'), true);
      assert.equal(await page.isVisible('#lab-particles'), false);
      await page.click('#tab-particles');
      await page.waitForFunction(() => !document.getElementById('lab-particles').hidden);
      assert.equal(await page.isVisible('#lab-depth'), false);
      assert.match(await page.evaluate(() => location.hash), /^#version=1&preset=polytope/);
      await page.goBack();
      await page.waitForFunction(() => !document.getElementById('lab-depth').hidden);
      await page.evaluate(() => {
        location.hash = 'lab=depth&preset=collapse-small&layers=3';
      });
      await settled(page, 'lab=depth&preset=collapse-small&layers=3');
      assert.equal(await page.getAttribute('#tab-depth', 'aria-selected'), 'true');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
