// Browser tests of the stable cluster colours (view key `colour=clusters`): a token's colour at step k
// depends only on the configuration and k (core analysis::identity, committed at the fixed
// sample steps), so a played run and a `step=` link at the same step draw the same pixels; the
// legend names grey.

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

const NONE = 0xffffffff;

/** Slots, and for each token the RGB of the token canvas's pixel at the centre of its dot. */
async function tokenPixels(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('tokens');
    const dpr = canvas.width / canvas.getBoundingClientRect().width;
    const ctx = canvas.getContext('2d');
    const drawn = window.__attn.drawnTokens();
    const px = drawn.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data.slice(0, 3)));
    return { step: window.__attn.step(), slots: Array.from(window.__attn.slots()), px };
  });
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe('stable cluster colours', () => {
  for (const theme of ['light', 'dark']) {
    test(`a played run and a step= link at the same step draw the same colours (${theme})`, async () => {
      // until = 400: samples every 13 steps, so the step paused at is usually between samples.
      // No overlays: the hull overlay marks cluster centres with a cross over the dots.
      const link = `version=4&preset=polytope&until=400&speed=2&trails=0&overlays=&theme=${theme}`;
      const played = await openPage(browser, link);
      let jumped;
      try {
        await played.waitForFunction(() => window.__attn.step() >= 140, null, { timeout: 60_000 });
        await played.click('#play');
        await played.waitForFunction(() => !window.__attn.playing());
        await played.waitForTimeout(100);
        const a = await tokenPixels(played);
        const clustered = a.slots.filter((s) => s !== NONE).length;
        assert.ok(clustered >= 4, `tokens in clusters at step ${a.step}: ${clustered}`);
        jumped = await openPage(browser, `${link}&step=${a.step}`);
        await jumped.waitForFunction((k) => window.__attn.step() === k && !window.__attn.seeking(), a.step, { timeout: 60_000 });
        await jumped.waitForTimeout(100);
        const b = await tokenPixels(jumped);
        assert.equal(b.step, a.step);
        assert.deepEqual(b.slots, a.slots, 'the same colour slots');
        // The theme's palette as the module defines it (a module imported here is another instance
        // than the page's bundled one, with no theme forced: the link's theme picks the table).
        const palette = await played.evaluate(async (dark) => {
          const p = await import('./render/palette.js');
          return dark ? p.CLUSTER_DARK : p.CLUSTER_LIGHT;
        }, theme === 'dark');
        for (let i = 0; i < a.slots.length; i++) {
          if (a.slots[i] === NONE) continue;
          assert.deepEqual(b.px[i], a.px[i], `token ${i}: the same pixel in both pages`);
          const want = rgb(palette[a.slots[i] % palette.length]);
          assert.ok(a.px[i].every((v, c) => Math.abs(v - want[c]) <= 2), `token ${i}: drawn in its slot's colour ${want} (got ${a.px[i]})`);
        }
        assertNoErrors(played);
        assertNoErrors(jumped);
      } finally {
        await played.close();
        await jumped?.close();
      }
    });
  }

  test('12 cluster colours per theme, told apart from each other and from grey (CIE76 ΔE ≥ 20)', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      const { light, dark } = await page.evaluate(async () => {
        const p = await import('./render/palette.js');
        return { light: p.CLUSTER_LIGHT, dark: p.CLUSTER_DARK };
      });
      const lab = (hex) => {
        const lin = rgb(hex).map((u) => { const v = u / 255; return v > 0.04045 ? ((v + 0.055) / 1.055) ** 2.4 : v / 12.92; });
        const [r, g, b] = lin;
        const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
        const X = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
        const Y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
        const Z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
        return [116 * Y - 16, 500 * (X - Y), 200 * (Y - Z)];
      };
      const dE = (a, b) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]));
      for (const [name, pal, grey] of [['light', light, '#9aa0a6'], ['dark', dark, '#8a9099']]) {
        assert.equal(pal.length, 12, name);
        for (let i = 0; i < pal.length; i++) {
          assert.ok(dE(pal[i], grey) >= 20, `${name} ${pal[i]} is not grey`);
          for (let j = i + 1; j < pal.length; j++) assert.ok(dE(pal[i], pal[j]) >= 20, `${name}: ${pal[i]} and ${pal[j]} differ`);
        }
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the legend names grey; it shows only with cluster colours', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      const legend = page.locator('#tokens-legend');
      assert.ok(await legend.isVisible());
      assert.match(await legend.textContent(), /grey: in no cluster/);
      assert.equal(await page.locator('#tokens-legend .swatch-none').count(), 1);
      await page.selectOption('#colour', 'index');
      await page.waitForFunction(() => document.getElementById('tokens-legend').hidden);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test("the heatmap's colour bar is drawn with the heatmaps' own viridis stops", async () => {
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      const got = await page.evaluate(() => {
        const bar = document.querySelector('#heatmap-box ~ .legend .viridis-bar');
        const box = bar.getBoundingClientRect();
        return { image: getComputedStyle(bar).backgroundImage, width: box.width, height: box.height, stops: window.__attn.wasm.viridis_stops() };
      });
      const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      assert.deepEqual([got.stops.length, got.stops[0], got.stops[4], got.stops[8]], [9, '#440154', '#21908d', '#fde725'], 'matplotlib\'s viridis at 0, 1/2, 1');
      assert.equal(got.image, `linear-gradient(to right, ${got.stops.map(rgb).join(', ')})`);
      assert.ok(got.width >= 100 && got.height >= 8, `the bar is visible: ${got.width} x ${got.height}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
  for (const theme of ['light', 'dark']) {
    test(`the charts take their colours from the stylesheet (${theme})`, async () => {
      // Custom properties set on the root element override style.css's: a chart drawn after
      // them shows them (background --panel, grid --chart-grid, series --series-1 … 7).
      const css = { '--panel': '#fdfcf0', '--chart-grid': '#00ff00' };
      for (let k = 1; k <= 7; k++) css[`--series-${k}`] = '#ff00ff';
      for (const [link, id] of [[`version=7&preset=polytope&theme=${theme}`, 'chart'],
        [`version=7&lab=depth&preset=collapse-small&theme=${theme}`, 'dp-residual']]) {
        const plain = await openPage(browser, link);
        const page = await openPage(browser, link, { css });
        try {
          const count = (p) => p.evaluate((id) => {
            const c = /** @type {HTMLCanvasElement} */ (document.getElementById(id));
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const n = { magenta: 0, green: 0 };
            for (let i = 0; i < d.length; i += 4) {
              if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 255) n.magenta++;
              if (d[i] === 0 && d[i + 1] === 255 && d[i + 2] === 0) n.green++;
            }
            return { ...n, corner: Array.from(d.slice(0, 3)) };
          }, id);
          await page.waitForFunction((id) => document.getElementById(id).width > 0, id);
          await page.waitForTimeout(1500); // a few samples or the first variant drawn
          const got = await count(page);
          assert.deepEqual(got.corner, [0xfd, 0xfc, 0xf0], `${id}: the background is --panel`);
          assert.ok(got.magenta > 40, `${id}: the series are --series-k (${got.magenta} px)`);
          assert.ok(got.green > 50, `${id}: the grid is --chart-grid (${got.green} px)`);
          await plain.waitForTimeout(1500);
          const own = await count(plain);
          const panel = await plain.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--panel').trim());
          assert.deepEqual(own.corner, [1, 3, 5].map((i) => parseInt(panel.slice(i, i + 2), 16)), `${id}: style.css's --panel (${panel})`);
          assert.equal(own.magenta + own.green, 0, `${id}: no override, no magenta or green`);
          assertNoErrors(page);
        } finally {
          await page.close();
          await plain.close();
        }
      }
    });
  }
});
