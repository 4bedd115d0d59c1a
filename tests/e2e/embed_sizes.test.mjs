// Browser tests of embeds that fit a blog: Copy embed code offers size
// presets, each with the panels that fit it, and a responsive snippet; the embed bar shows the
// preset's one-line caption from the core; and every chart's drawn texts (data-labels) stay
// apart and inside their canvas at 320, 360, 640 and 900 px wide, in the particle, training and
// depth labs' embeds. At 640 x 420 with all three particle panels the heatmap keeps a real size;
// the model lab's five panels embedded at 640 x 420 stack without overlapping.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';
import { analysed } from './model_helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Every visible canvas's drawn texts: apart from each other and inside the canvas. */
async function assertLabelsApart(page, what) {
  const charts = await page.evaluate(() => [...document.querySelectorAll('canvas[data-labels]')]
    .filter((c) => c.getBoundingClientRect().width > 0)
    .map((c) => ({ id: c.id, w: c.getBoundingClientRect().width, h: c.getBoundingClientRect().height, labels: JSON.parse(c.dataset.labels) })));
  assert.ok(charts.length > 0, `${what}: some chart reported its texts`);
  for (const c of charts) {
    for (let i = 0; i < c.labels.length; i++) {
      const a = c.labels[i];
      assert.ok(a.x >= -0.5 && a.y >= -0.5 && a.x + a.w <= c.w + 0.5 && a.y + a.h <= c.h + 0.5,
        `${what} #${c.id}: ${JSON.stringify(a.text)} inside the ${c.w} x ${c.h} canvas (${JSON.stringify(a)})`);
      for (let j = i + 1; j < c.labels.length; j++) {
        assert.ok(!overlap(a, c.labels[j]), `${what} #${c.id}: ${JSON.stringify(a.text)} and ${JSON.stringify(c.labels[j].text)} overlap`);
      }
    }
  }
  return charts;
}

async function snippetFor(page, size) {
  await page.selectOption('#embed-size', size);
  await page.click('#copy-embed');
  await page.waitForFunction(() => document.getElementById('share-text').value.startsWith('<iframe'));
  const s = await page.inputValue('#share-text');
  await page.evaluate(() => { document.getElementById('share-text').value = ''; });
  return s;
}

describe('embed code', () => {
  test('size presets carry the panels that fit them; a responsive snippet keeps the aspect ratio', async () => {
    const page = await openPage(browser, 'version=4&preset=hyperplanes');
    try {
      const fixed = /^<iframe src="([^"]+)" width="(\d+)" height="(\d+)" style="border:0" title="Attention Dynamics Playground" loading="lazy"><\/iframe>$/;
      const src = (m) => m[1].replace(/&amp;/g, '&');
      let m = fixed.exec(await snippetFor(page, '640x420'));
      assert.ok(m && m[2] === '640' && m[3] === '420');
      assert.match(src(m), /&embed=1&panels=tokens,chart(&|$)/);
      m = fixed.exec(await snippetFor(page, '360x480'));
      assert.ok(m && m[2] === '360' && m[3] === '480');
      assert.match(src(m), /&embed=1&panels=tokens(&|$)/);
      m = fixed.exec(await snippetFor(page, '900x560'));
      assert.ok(m && m[2] === '900' && m[3] === '560');
      assert.match(src(m), /&embed=1(&|$)/);
      assert.doesNotMatch(src(m), /panels=/, 'all three panels: no panels key');
      const r = await snippetFor(page, 'responsive');
      assert.match(r, /^<iframe src="[^"]+" style="width:100%;aspect-ratio:640\/420;border:0" title="Attention Dynamics Playground" loading="lazy"><\/iframe>$/);
      // Panels the user unticked win over the size's own.
      await page.uncheck('[data-panel-toggle="chart"]');
      m = fixed.exec(await snippetFor(page, '640x420'));
      assert.match(src(m), /&panels=tokens,heatmap(&|$)/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the embed bar shows the preset\'s one-line caption from the core', async () => {
    for (const link of ['version=4&preset=hyperplanes', 'lab=training&preset=scan-snap', 'lab=depth&preset=collapse-small']) {
      const page = await openPage(browser, `${link}&embed=1`, { viewport: { width: 640, height: 420 } });
      try {
        await page.waitForFunction(() => window.__attn?.wasm);
        const want = await page.evaluate((l) => window.__attn.wasm.check_link(l).caption, link);
        const shown = await page.locator('.embed-caption').textContent();
        assert.ok(shown.length > 10 && !shown.includes('\n'), `a one-line caption: ${JSON.stringify(shown)}`);
        assert.equal(shown, want);
        assert.ok(await page.locator('.embed-caption').isVisible());
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });
});

describe('embedded charts at blog widths', () => {
  const LINKS = [
    ['particles', 'version=4&preset=polytope&embed=1', '#chart'],
    ['training', 'lab=training&preset=scan-snap&embed=1', '#tr-chart'],
    ['depth', 'lab=depth&preset=collapse-small&embed=1', '#dp-residual'],
  ];
  for (const [lab, link, chart] of LINKS) {
    test(`${lab}: texts apart at 320, 360, 640 and 900 px wide`, async () => {
      for (const width of [320, 360, 640, 900]) {
        const page = await openPage(browser, link, { viewport: { width, height: width < 480 ? 480 : 420 } });
        try {
          await page.waitForFunction((sel) => document.querySelector(`${sel}[data-labels]`), chart, { timeout: 60_000 });
          if (lab === 'depth') {
            await page.waitForFunction(() => {
              const d = window.__attnDepth;
              return d && !d.busy() && d.done() === d.total();
            }, null, { timeout: 60_000 });
          }
          await page.waitForTimeout(300);
          const charts = await assertLabelsApart(page, `${lab} at ${width} px`);
          assert.ok(charts.some((c) => `#${c.id}` === chart), `${chart} drawn at ${width} px`);
          if (width < 480) {
            // Stacked panels: one column, each canvas as wide as the frame allows.
            const b = await page.locator(chart).boundingBox();
            assert.ok(b.width >= width - 40, `${chart} spans the frame at ${width} px: ${b.width}`);
          }
          assertNoErrors(page);
        } finally {
          await page.close();
        }
      }
    });
  }

  test('640 x 420 with all three particle panels: a real heatmap and readable chart ticks', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&embed=1', { viewport: { width: 640, height: 420 } });
    try {
      await page.waitForFunction(() => window.__attn.chartLayout()?.panels.length === 3);
      const heat = await page.locator('#heatmap').boundingBox();
      assert.ok(Math.min(heat.width, heat.height) >= 150, `the heatmap is ${heat.width} x ${heat.height}`);
      const charts = await assertLabelsApart(page, '640 x 420');
      const chart = charts.find((c) => c.id === 'chart');
      const layout = await page.evaluate(() => window.__attn.chartLayout());
      for (const p of layout.panels) {
        const ticks = chart.labels.filter((l) => l.x + l.w <= layout.x0 + 1 && l.y >= p.y0 - 8 && l.y + l.h <= p.y1 + 8);
        assert.ok(ticks.length >= 2, `${p.name}: at least two y tick labels (${ticks.map((t) => t.text)})`);
        assert.ok(ticks.every((t) => t.h >= 7), `${p.name}: tick labels at a readable size`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('640 x 420 with all eight model panels: the panels stack, none overlaps, each holds its canvases', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, 'lab=model&embed=1', { viewport: { width: 640, height: 420 } });
    try {
      await analysed(page);
      const boxes = await page.evaluate(() => [...document.querySelectorAll('#lab-model section.panel')]
        .filter((s) => s.getClientRects().length > 0)
        .map((s) => {
          const r = (el) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
          return { id: s.getAttribute('aria-labelledby'), ...r(s), canvases: [...s.querySelectorAll('canvas')].filter((c) => c.getClientRects().length > 0).map((c) => ({ id: c.id, ...r(c) })) };
        }));
      assert.deepEqual(boxes.map((b) => b.id), ['md-tokens-heading', 'md-grid-heading', 'md-spec-heading', 'md-dyn-heading', 'md-res-heading', 'md-layers-heading', 'md-repeat-heading', 'md-hist-heading', 'md-same-heading']);
      for (let i = 0; i < boxes.length; i++) {
        const a = boxes[i];
        assert.ok(a.x >= 0 && a.x + a.w <= 640.5, `${a.id} inside the frame's width: ${JSON.stringify(a)}`);
        for (const c of a.canvases) {
          // The ψ₁ strip (one axis) is a row; every other canvas a picture.
          assert.ok(c.w >= 100 && c.h >= (c.id === 'md-dyn-psi' ? 48 : 100), `${c.id} at a useful size: ${JSON.stringify(c)}`);
          assert.ok(c.x >= a.x - 0.5 && c.y >= a.y - 0.5 && c.x + c.w <= a.x + a.w + 0.5 && c.y + c.h <= a.y + a.h + 0.5, `${c.id} inside its panel ${a.id}: ${JSON.stringify(c)} in ${JSON.stringify(a)}`);
        }
        for (let j = i + 1; j < boxes.length; j++) {
          const b = boxes[j];
          const apart = a.x + a.w <= b.x + 0.5 || b.x + b.w <= a.x + 0.5 || a.y + a.h <= b.y + 0.5 || b.y + b.h <= a.y + 0.5;
          assert.ok(apart, `${a.id} and ${b.id} overlap: ${JSON.stringify([a, b].map(({ canvases, ...r }) => r))}`);
        }
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
