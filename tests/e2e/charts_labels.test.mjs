// Browser tests of what the charts' texts look like. Every chart sets
// `data-labels` on its canvas: the ink boxes of the texts it drew ({ text, x, y, w, h }, CSS px);
// these tests read them and check that no two texts overlap, that the depth lab's rank-collapse
// chart labels its log axis below 1 and says where it drew a zero or an overflow, that its
// legend stays out of the plot area (so it never covers a curve, also 320 px wide), that its
// round-off line's label sits where no curve passes (no curve's colour inside its box), and that
// a single token (n = 1, a constant series) gets a padded, readable axis.

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

/** The text boxes a canvas reported (throws when it reported none). */
async function labelsOf(page, selector) {
  const raw = await page.getAttribute(selector, 'data-labels');
  assert.ok(raw, `${selector} has a data-labels attribute`);
  return JSON.parse(raw);
}

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Asserts that no two texts of `labels` overlap and that each lies inside the canvas. */
function assertApart(labels, size, what) {
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i];
    assert.ok(a.x >= -0.5 && a.y >= -0.5 && a.x + a.w <= size.width + 0.5 && a.y + a.h <= size.height + 0.5,
      `${what}: ${JSON.stringify(a.text)} lies inside the canvas (${JSON.stringify(a)}, canvas ${size.width} x ${size.height})`);
    for (let j = i + 1; j < labels.length; j++) {
      assert.ok(!overlap(a, labels[j]), `${what}: ${JSON.stringify(a.text)} and ${JSON.stringify(labels[j].text)} overlap`);
    }
  }
}

/** Waits until the depth lab has computed every variant of link `link`. */
async function settled(page, link) {
  await page.waitForFunction((l) => {
    const d = window.__attnDepth;
    return d && !d.busy() && d.total() > 0 && d.done() === d.total() && d.configString() === d.wasm.check_link(l).canonical;
  }, link, { timeout: 60_000 });
}

const ZERO = 'lab=depth&preset=collapse-small&tokens=2&heads=1&d_model=1&d_head=1&layers=1';
const OVERFLOW = 'lab=depth&preset=bert-init&qk_scale=10&weight_scale=10&layernorm=none&layers=4&heads=2&tokens=16';
// f32, SAN and SAN+MLP at the round-off floor from layer 3 on, just above its line (12 layers:
// on a phone, the line's left end lies under the curves' fall).
const ROUND_OFF = 'version=7&lab=depth&preset=bert-init&variants=san,san-mlp';

/** The rank-collapse chart's texts and layout, checked: texts apart, legend out of the plot. */
async function residualChart(page, what) {
  await page.waitForFunction(() => window.__attnDepth.residualLayout()?.legend);
  const layout = await page.evaluate(() => window.__attnDepth.residualLayout());
  const box = await page.locator('#dp-residual').boundingBox();
  const labels = await labelsOf(page, '#dp-residual');
  assertApart(labels, box, what);
  assert.ok(!overlap(layout.legend, layout.plot), `${what}: the legend ${JSON.stringify(layout.legend)} is outside the plot ${JSON.stringify(layout.plot)}`);
  // The y tick labels: left of the plot.
  const { plot } = layout;
  const yTicks = labels.filter((l) => l.x + l.w <= plot.x && l.h < 20 && l.y >= plot.y - 10 && l.y + l.h <= plot.y + plot.h + 10).map((l) => l.text);
  return { layout, labels, yTicks };
}

/** A tick label's value: `0.001`, `10⁻¹⁸`. */
function tickValue(text) {
  const sup = '⁰¹²³⁴⁵⁶⁷⁸⁹';
  const m = /^10(⁻?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(text);
  if (m) return 10 ** ((m[1] ? -1 : 1) * Number([...m[2]].map((c) => sup.indexOf(c)).join('')));
  return Number(text);
}

describe('chart texts', () => {
  for (const width of [1280, 320]) {
    test(`depth: a residual of exactly 0 is drawn at the floor with a note; ticks below 1; legend off the curves (${width} px)`, async () => {
      const page = await openPage(browser, `version=2&${ZERO}`, { viewport: { width, height: 900 } });
      try {
        await settled(page, ZERO);
        const residuals = await page.evaluate(() => window.__attnDepth.results().map((r) => r.residual));
        assert.ok(residuals.every((r) => r[1] === 0), `the link's residual at layer 1 is exactly 0: ${JSON.stringify(residuals)}`);
        await page.locator('#dp-residual').scrollIntoViewIfNeeded();
        const { layout, labels, yTicks } = await residualChart(page, `zero, ${width} px`);
        const values = yTicks.map(tickValue);
        assert.ok(values.every(Number.isFinite), `the y ticks read as numbers: ${JSON.stringify(yTicks)}`);
        assert.ok(values.some((v) => v < 1), `a y tick below 1: ${JSON.stringify(yTicks)}`);
        const floor = Math.min(...values);
        const note = labels.map((l) => l.text).join(' ');
        assert.match(note, /0 drawn at the floor/, 'the note says where the zero is drawn');
        const noted = labels.map((l) => /the floor (\S+)/.exec(l.text)?.[1]).find(Boolean);
        assert.equal(tickValue(noted), floor, `the note names the axis floor (${noted}; ticks ${JSON.stringify(yTicks)})`);
        assert.ok(layout.legend.y >= layout.plot.y + layout.plot.h, 'the legend is below the plot');
        // The zero sits on the floor: the transformer's colour at the bottom of the plot, at layer 1.
        const snap = await canvasSnapshot(page, '#dp-residual', { pixels: true });
        const dpr = snap.width / (await page.locator('#dp-residual').boundingBox()).width;
        const [cx, cy] = [Math.round(layout.x1 * dpr), Math.round((layout.plot.y + layout.plot.h) * dpr)];
        let hits = 0;
        for (let y = cy - 5; y <= cy + 2; y++) {
          for (let x = cx - 4; x <= cx + 4; x++) {
            const i = (y * snap.width + x) * 4;
            const p = snap.pixels;
            if (Math.abs(p[i] - 0xcc) < 30 && Math.abs(p[i + 1] - 0x79) < 30 && Math.abs(p[i + 2] - 0xa7) < 30) hits += 1;
          }
        }
        assert.ok(hits > 5, `the zero is drawn at the floor (${hits} transformer pixels there)`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });

    test(`depth: an f32 overflow is never drawn as a number, a note says "overflow at layer k"; legend off the curves (${width} px)`, async () => {
      const page = await openPage(browser, `version=2&${OVERFLOW}`, { viewport: { width, height: 900 } });
      try {
        await settled(page, OVERFLOW);
        const results = await page.evaluate(() => window.__attnDepth.results().map((r) => [r.variant, r.residual]));
        // NaN (null in JSON) from the overflowed layer on.
        const bad = results.filter(([, r]) => r.some((v) => !Number.isFinite(v)));
        assert.ok(bad.length > 0, `the link overflows: ${JSON.stringify(results)}`);
        await page.locator('#dp-residual').scrollIntoViewIfNeeded();
        const { labels, yTicks } = await residualChart(page, `overflow, ${width} px`);
        assert.ok(yTicks.map(tickValue).some((v) => v < 1), `a y tick below 1: ${JSON.stringify(yTicks)}`);
        const text = labels.map((l) => l.text).join(' ');
        assert.doesNotMatch(text, /drawn at the floor/, 'a value that is not finite is not drawn at the floor');
        for (const [variant, r] of bad) {
          const k = r.findIndex((v) => !Number.isFinite(v));
          const note = new RegExp(`overflow at layer ${k} \\([^)]*${variant.replace(/\+/g, '\\+')}[^)]*\\)`);
          assert.match(text, note, `the note names ${variant} and its first layer that is not finite: ${text}`);
        }
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }

  for (const width of [390, 1280]) {
    test(`depth: the round-off line's label sits where no curve passes (${width} px)`, async () => {
      const page = await openPage(browser, ROUND_OFF, { viewport: { width, height: 900 } });
      try {
        await settled(page, ROUND_OFF);
        const floors = await page.evaluate(() => window.__attnDepth.results().map((r) => Math.min(...r.residual)));
        assert.ok(floors.every((v) => v > 2 ** -24 && v < 1e-6), `both curves end just above f32's round-off: ${floors}`);
        await page.locator('#dp-residual').scrollIntoViewIfNeeded();
        const { labels } = await residualChart(page, `round-off, ${width} px`);
        const label = labels.find((l) => /^f32 round-off/.test(l.text));
        assert.ok(label, `the round-off line is labelled: ${labels.map((l) => l.text).join(' | ')}`);
        // Inside the label's box only the page's greys (text, grid, the dashed line): a pixel of a
        // curve's colour (its channels far apart) would be a curve under the text.
        const snap = await canvasSnapshot(page, '#dp-residual', { pixels: true });
        const dpr = snap.width / (await page.locator('#dp-residual').boundingBox()).width;
        let coloured = 0;
        for (let y = Math.floor(label.y * dpr); y < Math.ceil((label.y + label.h) * dpr); y++) {
          for (let x = Math.floor(label.x * dpr); x < Math.ceil((label.x + label.w) * dpr); x++) {
            const i = (y * snap.width + x) * 4;
            const [r, g, b] = [snap.pixels[i], snap.pixels[i + 1], snap.pixels[i + 2]];
            if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
          }
        }
        assert.equal(coloured, 0, `no curve under the label ${JSON.stringify(label)}: ${coloured} coloured pixels`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }

  test('depth: the other charts keep their texts apart and their legends out of the plot (320 px)', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small', { viewport: { width: 320, height: 900 } });
    try {
      await settled(page, 'lab=depth&preset=collapse-small');
      for (const id of ['#dp-hist', '#dp-same', '#dp-paths', '#dp-spectrum']) {
        await page.locator(id).scrollIntoViewIfNeeded();
        assertApart(await labelsOf(page, id), await page.locator(id).boundingBox(), id);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  for (const width of [1280, 375]) {
    test(`particles: a single token (n = 1) gets a padded axis with readable ticks (${width} px)`, async () => {
      const page = await openPage(browser, 'version=2&preset=polytope&n=1', { viewport: { width, height: 900 } });
      try {
        await page.waitForFunction(() => window.__attn.step() >= 20, null, { timeout: 20_000 });
        const box = await page.locator('#tokens').boundingBox();
        const labels = await labelsOf(page, '#tokens');
        assertApart(labels, box, 'tokens');
        // The x ticks: the row of labels under the plot.
        const bottom = Math.max(...labels.map((l) => l.y));
        const xTicks = labels.filter((l) => Math.abs(l.y - bottom) < 1).map((l) => l.text);
        assert.ok(xTicks.length >= 3, `at least three x ticks: ${JSON.stringify(xTicks)}`);
        assert.equal(new Set(xTicks).size, xTicks.length, 'the x ticks read apart');
        assert.ok(xTicks.every((t) => t.length <= 6), `short tick labels (a padded range, not a zoom onto round-off): ${JSON.stringify(xTicks)}`);
        const chart = await page.locator('#chart').boundingBox();
        assertApart(await labelsOf(page, '#chart'), chart, 'metrics chart');
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }

  test('particles: a constant energy gets a padded axis whose tick labels read apart', async () => {
    const page = await openPage(browser, 'version=4&preset=sphere-sa&n=1');
    try {
      await page.waitForFunction(() => window.__attn.step() >= 20, null, { timeout: 20_000 });
      const labels = await labelsOf(page, '#chart');
      assertApart(labels, await page.locator('#chart').boundingBox(), 'metrics chart');
      const layout = await page.evaluate(() => window.__attn.chartLayout?.() ?? null);
      const panel = layout?.panels.find((p) => p.name === 'energy');
      const ticks = labels.filter((l) => panel ? l.y >= panel.y0 - 8 && l.y + l.h <= panel.y1 + 8 && l.x + l.w <= layout.x0 : false).map((l) => l.text);
      assert.ok(ticks.length >= 2, `the energy panel has tick labels: ${JSON.stringify(ticks)}`);
      assert.equal(new Set(ticks).size, ticks.length, `the energy ticks read apart: ${JSON.stringify(ticks)}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
