// Browser tests of the page's layout and maths typography: the three particle
// views inside a 1440 x 900 screen, the token canvas right after the status line on a phone, the
// lab tabs whole on a 320 px phone, the model form folding away, no metrics row the model does not define, and no raw LaTeX in any
// lab's captions or chart texts (maths in Unicode or <sub>/<sup>).

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

/** Raw LaTeX or ASCII maths a reader should never see. */
const RAW = [/_\{/, /\^\{/, /\\[a-zA-Z]+/, /\|\|/, /psi1/, /\b[A-Za-z]_[A-Za-z0-9]{1,2}\b/, /\^[A-Za-z(]/, /\b1e-\d/];

function assertNoRawMaths(text, what) {
  for (const re of RAW) assert.doesNotMatch(text, re, `${what}: ${JSON.stringify(text.slice(0, 400))}`);
}

/** The captions' texts and every chart's drawn texts (data-labels) on the page. */
async function shownTexts(page) {
  return page.evaluate(() => {
    const captions = [...document.querySelectorAll('.caption, .description, .subtitle')].map((e) => e.textContent);
    const charts = [...document.querySelectorAll('canvas[data-labels]')].flatMap((c) => JSON.parse(c.dataset.labels).map((l) => l.text));
    return { captions, charts };
  });
}

describe('layout', () => {
  test('1440 x 900: tokens, heatmap and chart all inside the first screen', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope', { viewport: { width: 1440, height: 900 } });
    try {
      for (const id of ['tokens', 'heatmap', 'chart']) {
        const b = await page.locator(`#${id}`).boundingBox();
        assert.ok(b && b.width >= 250 && b.height >= 250, `#${id} is drawn at a useful size: ${JSON.stringify(b)}`);
        assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= 1440 && b.y + b.height <= 900, `#${id} lies inside 1440 x 900: ${JSON.stringify(b)}`);
      }
      assert.equal(await page.evaluate(() => scrollY), 0);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('390 x 844 (phone): the token canvas comes right after the status line', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope', { viewport: { width: 390, height: 844 } });
    try {
      // Both boxes from one layout: the status line and the canvas are measured together.
      const boxes = () => page.evaluate(() => {
        const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
        return { status: box('status'), canvas: box('tokens'), sps: document.getElementById('status-sps').textContent };
      });
      const first = await boxes();
      const { status, canvas } = first;
      const gap = canvas.y - (status.y + status.height);
      assert.ok(gap >= 0 && gap < 70, `the canvas starts ${gap} px under the status line (only the panel's title between)`);
      // The status line keeps its height while the numbers grow (steps/s appears, the step
      // count gains digits): the canvas under it does not move while the run plays.
      await page.waitForFunction(() => Number(document.getElementById('status-sps').textContent) >= 10 && window.__attn.step() >= 20);
      const later = await boxes();
      assert.deepEqual([later.status.height, later.canvas.y], [status.height, canvas.y], `the canvas stays put as the status line changes (${first.sps} -> ${later.sps} steps/s)`);
      assert.ok(canvas.y + canvas.height <= 844, `the whole canvas is on the first screen: ${JSON.stringify(canvas)}`);
      // Nothing else sits between them: the description and share bar come after the canvas.
      for (const sel of ['#description', '#share-bar', '.run-panel']) {
        const b = await page.locator(sel).boundingBox();
        assert.ok(b.y >= canvas.y + canvas.height, `${sel} follows the canvas`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  for (const [width, height] of [[320, 640], [390, 844]]) {
    test(`${width} x ${height}: every lab tab is whole and inside the screen`, async () => {
      const page = await openPage(browser, 'version=4&preset=polytope', { viewport: { width, height } });
      try {
        const tabs = await page.evaluate(() => [...document.querySelectorAll('.lab-tabs [role="tab"]')].map((t) => {
          const r = t.getBoundingClientRect();
          const list = t.parentElement.getBoundingClientRect();
          return { text: t.textContent, left: r.left, right: r.right, listRight: list.right, scroll: t.scrollWidth, client: t.clientWidth };
        }));
        assert.deepEqual(tabs.map((t) => t.text), ['Particles', 'Training', 'Depth', 'Model']);
        for (const t of tabs) {
          assert.ok(t.left >= 0 && t.right <= t.listRight + 0.5 && t.listRight <= width, `the ${t.text} tab lies inside the tab list and the screen: ${JSON.stringify(t)}`);
          assert.ok(t.scroll <= t.client, `the ${t.text} tab's name is not cut: ${JSON.stringify(t)}`);
        }
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'no sideways scroll');
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }

  test('the model form folds away and opens again', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      assert.ok(await page.locator('#cfg-n').isVisible());
      await page.click('#config-details > summary');
      await page.waitForFunction(() => !document.getElementById('config-details').open);
      assert.equal(await page.locator('#cfg-n').isVisible(), false);
      await page.click('#config-details > summary');
      assert.ok(await page.locator('#cfg-n').isVisible());
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the chart draws the energy row only where the energy is defined', async () => {
    const page = await openPage(browser, 'version=4&preset=sphere-sa');
    try {
      await page.waitForFunction(() => window.__attn.chartLayout()?.panels.length === 4);
      const labels = JSON.parse(await page.getAttribute('#chart', 'data-labels'));
      assert.ok(labels.some((l) => l.text.startsWith('interaction energy Eᵦ')), 'the energy row on a sphere preset');
      await page.evaluate(() => { location.hash = '#version=4&preset=hyperplanes'; });
      await page.waitForFunction(() => window.__attn.configString().includes('hyperplanes') && window.__attn.chartLayout()?.panels.length === 3);
      const after = JSON.parse(await page.getAttribute('#chart', 'data-labels'));
      assert.ok(!after.some((l) => /energy|not defined/.test(l.text)), 'no energy row on a Euclidean preset');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

describe('maths typography', () => {
  test('particle captions, descriptions and chart texts: no raw LaTeX; log ticks read 10ᵏ', async () => {
    for (const preset of ['polytope', 'hyperplanes', 'random-psd', 'collapse', 'sphere-usa']) {
      const page = await openPage(browser, `version=4&preset=${preset}`);
      try {
        await page.waitForFunction(() => document.getElementById('chart').dataset.labels);
        const { captions, charts } = await shownTexts(page);
        for (const c of captions) assertNoRawMaths(c, preset);
        for (const c of charts) assertNoRawMaths(c, `${preset} chart`);
        assert.ok(charts.some((t) => /^10⁻[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(t)), `a 10ᵏ tick on the log axis: ${charts.join(' | ')}`);
        if (preset === 'hyperplanes') assert.match(await page.locator('#description').textContent(), /ψ₁/);
        if (preset === 'random-psd') assert.match(await page.locator('#description').textContent(), /Qᵀ K/);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });

  test('training captions: c_{l|n}, η_Y as <sub>; no raw LaTeX', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap');
    try {
      await page.waitForFunction(() => window.__attnTraining && window.__attnTraining.iteration() >= 1);
      await page.waitForFunction(() => document.querySelector('#tr-chart[data-labels]'));
      const { captions, charts } = await shownTexts(page);
      for (const c of captions) assertNoRawMaths(c, 'training');
      for (const c of charts) assertNoRawMaths(c, 'training chart');
      const subs = await page.locator('#tr-heat-caption sub').allTextContents();
      assert.ok(subs.includes('l|n'), `c with the subscript l|n: ${subs}`);
      assert.ok((await page.locator('#tr-chart-caption sub').allTextContents()).includes('Y'));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('depth captions: ‖X‖ with sub- and superscripts; no raw LaTeX in captions or charts', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small');
    try {
      await page.waitForFunction(() => {
        const d = window.__attnDepth;
        return d && !d.busy() && d.total() > 0 && d.done() === d.total();
      }, null, { timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector('#dp-residual[data-labels]'));
      const { captions, charts } = await shownTexts(page);
      for (const c of captions) assertNoRawMaths(c, 'depth');
      for (const c of charts) assertNoRawMaths(c, 'depth chart');
      assert.match(await page.locator('#dp-res-caption').textContent(), /‖X‖1,∞/);
      assert.ok((await page.locator('#dp-paths-caption sup').allTextContents()).includes('L'));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
