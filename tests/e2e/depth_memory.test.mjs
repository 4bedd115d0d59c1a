// Browser tests of the depth lab's similarity grid and memory: while
// the variants compute, the grid shows the variant its selector shows (or says it is waiting for
// it), never another one; the page keeps one variant's similarity maps (f32, L·H·n²·4 bytes) at
// most, measured as the page's ArrayBuffer memory after a garbage collection (Chrome DevTools
// Protocol, Runtime.getHeapUsage); switching the selector drops the old maps and brings the new
// variant's. A lighter run than the largest the page takes (48 layers, 16 heads, 208 tokens: minutes here)
// shows the same: 12 layers, 8 heads, 256 tokens, 25 MB of maps per variant.

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

const LINK = 'version=7&lab=depth&preset=collapse-small&layers=12&heads=8&tokens=256&d_model=16&d_head=4&mlp_width=32';
const MAPS = 12 * 8 * 256 * 256 * 4; // bytes of one variant's f32 similarity maps

/** ArrayBuffer bytes the page holds after a garbage collection. */
async function buffers(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const u = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  assert.ok(Number.isFinite(u.backingStorageSize), 'Chromium reports backingStorageSize');
  return u.backingStorageSize;
}

describe('depth lab: one variant\'s maps', () => {
  test('while the variants compute, the grid shows the variant the selector shows', async () => {
    const page = await openPage(browser, LINK);
    try {
      // Samples every 50 ms until every variant is done: the selector, the grid's variant, the
      // distance ridges' title and the grid's inked share (heatmaps fill it, a note does not).
      const samples = await page.evaluate(() => new Promise((resolve) => {
        const out = [];
        const grid = document.getElementById('dp-grid');
        const scratch = document.createElement('canvas');
        const sample = () => {
          const d = window.__attnDepth;
          if (d && d.total() > 0) {
            scratch.width = grid.width;
            scratch.height = grid.height;
            const ctx = scratch.getContext('2d', { willReadFrequently: true });
            ctx.drawImage(grid, 0, 0);
            const px = ctx.getImageData(0, 0, scratch.width, scratch.height).data;
            let inked = 0;
            for (let i = 0; i < px.length; i += 16) if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) inked += 1;
            const hist = JSON.parse(document.getElementById('dp-hist').dataset.labels || '[]').map((l) => l.text);
            const selected = document.getElementById('dp-grid-variant').value;
            out.push({
              done: d.done(), total: d.total(), busy: d.busy(), selected,
              selectedDone: d.results().some((r) => r.variant === selected),
              shown: grid.dataset.variant, inked: inked / (px.length / 16),
              histTitle: hist.find((t) => /per layer|histogram/.test(t)) ?? null,
            });
            if (!d.busy() && d.done() === d.total()) return resolve(out);
          }
          setTimeout(sample, 50);
        };
        sample();
      }));
      const during = samples.filter((s) => s.busy && s.done >= 1 && s.done < s.total);
      const waiting = during.filter((s) => !s.selectedDone);
      assert.ok(waiting.length >= 2, `sampled while other variants were done and transformer computed: ${JSON.stringify(samples.map((s) => [s.done, s.selectedDone, s.shown]))}`);
      for (const s of during) {
        assert.equal(s.selected, 'transformer', 'the selector shows transformer (the default) while computing');
        assert.ok(s.histTitle === null || !/^(SAN|SAN\+MLP|SAN\+skip):/.test(s.histTitle), `the ridges show no other variant: ${s.histTitle}`);
        if (s.selectedDone) {
          // Transformer done before the others: its own heatmaps, never another variant's.
          assert.equal(s.shown, 'transformer', `with transformer done, the grid shows it (done ${s.done})`);
        } else {
          assert.ok(s.inked < 0.05, `the grid shows no other variant's heatmaps while transformer computes (${(100 * s.inked).toFixed(1)}% inked, done ${s.done})`);
          assert.ok(s.shown === '', `the grid shows no variant while transformer computes: ${JSON.stringify(s.shown)}`);
        }
      }
      const last = samples.at(-1);
      assert.equal(last.shown, 'transformer', 'when done, the grid shows transformer');
      assert.ok(last.inked > 0.3, `the grid shows heatmaps when done (${(100 * last.inked).toFixed(1)}% inked)`);
      assert.equal(last.histTitle, 'transformer: |i − j| per layer');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the page keeps one variant\'s similarity maps; switching variant drops them and brings the new ones', async () => {
    const page = await openPage(browser, LINK);
    try {
      await page.waitForFunction(() => {
        const d = window.__attnDepth;
        return d && !d.busy() && d.done() === 4 && !d.pending?.();
      }, null, { timeout: 60_000 });
      const held = await buffers(page);
      console.log(`page ArrayBuffers with every variant done: ${(held / 1e6).toFixed(1)} MB (one variant's maps: ${(MAPS / 1e6).toFixed(1)} MB)`);
      assert.ok(held > 0.9 * MAPS, `the shown variant's maps are held (${(held / 1e6).toFixed(1)} MB)`);
      assert.ok(held < 1.5 * MAPS, `at most one variant's maps are held: ${(held / 1e6).toFixed(1)} MB for ${(MAPS / 1e6).toFixed(1)} MB per variant`);
      assert.equal(await page.evaluate(() => window.__attnDepth.gridVariant()), 'transformer', 'the grid shows transformer');

      await page.selectOption('#dp-grid-variant', 'SAN');
      await page.waitForFunction(() => window.__attnDepth.gridVariant() === 'SAN' && !window.__attnDepth.pending(), null, { timeout: 60_000 });
      assert.equal(await page.getAttribute('#dp-grid', 'data-variant'), 'SAN');
      const hist = JSON.parse(await page.getAttribute('#dp-hist', 'data-labels')).map((l) => l.text);
      assert.ok(hist.includes('SAN: |i − j| per layer'), `the ridges show SAN: ${JSON.stringify(hist)}`);
      const after = await buffers(page);
      assert.ok(after < 1.5 * MAPS, `after switching, still one variant's maps: ${(after / 1e6).toFixed(1)} MB`);
      // Hovering the enlarged head reads SAN's values (a number, not a missing map).
      await page.locator('#dp-zoom').scrollIntoViewIfNeeded();
      const z = await page.locator('#dp-zoom').boundingBox();
      await page.mouse.move(z.x + z.width * 0.6, z.y + z.height * 0.5);
      await page.waitForSelector('#dp-zoom-tip:not([hidden])');
      assert.match(await page.locator('#dp-zoom-tip').textContent(), /S_ij = -?\d/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
