// Browser tests of the readouts and hints for a finger and a keyboard (www/ui/probe.js,
// www/ui/hint_bubble.js): a tap on the heatmap shows the entry tapped and the tip stays until a
// tap elsewhere; the arrow keys walk the heatmap's cells and the chart's samples; a tapped or
// keyboard-focused field shows its key's hint in a bubble that fits the screen.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const LINK = 'version=7&preset=polytope&step=60';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Waits for the particle lab paused at the link's step, its heatmap drawn. */
async function paused(page, step) {
  await page.waitForFunction((s) => window.__attnReady && window.__attn?.step() === s && !window.__attn.playing(), step, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The tip's lines, or null when hidden. */
async function tip(page, id) {
  return page.evaluate((sel) => {
    const el = document.getElementById(sel);
    return el.hidden ? null : [...el.children].map((c) => c.textContent);
  }, id);
}

/** The token pair the heatmap shows at fractions (u, v) of its width and height. */
async function pairAt(page, u, v) {
  return page.evaluate(([u, v]) => {
    const { perm } = window.__attn.heatmapOrder();
    const n = window.__attn.n();
    const at = (f) => perm[Math.min(n - 1, Math.floor(f * n))];
    return `(i, j) = (${at(v)}, ${at(u)})`;
  }, [u, v]);
}

describe('readouts and hints by touch and keyboard', () => {
  test('a tap on the heatmap shows the entry tapped, and it stays until a tap elsewhere', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    try {
      await page.goto(`${process.env.ATTN_URL}#${LINK}`);
      await paused(page, 60);
      const box = await page.locator('#heatmap').boundingBox();
      await page.locator('#heatmap').scrollIntoViewIfNeeded();
      const b = await page.locator('#heatmap').boundingBox();
      await page.touchscreen.tap(b.x + b.width * 0.3, b.y + b.height * 0.7);
      await sleep(400);
      const lines = await tip(page, 'heatmap-tip');
      assert.ok(lines, 'the tip is shown after the tap and is still there 400 ms later');
      assert.equal(lines[0], await pairAt(page, 0.3, 0.7));
      const value = Number(lines[1].split('= ')[1]);
      assert.ok(value >= 0 && value <= 1, lines[1]);
      // A tap on the page elsewhere hides it.
      await page.touchscreen.tap(8, Math.max(8, b.y - 40));
      await sleep(100);
      assert.equal(await tip(page, 'heatmap-tip'), null, 'hidden by a tap elsewhere');
      assert.ok(box.width >= 160, 'the heatmap is at least 160 px wide on a phone');
    } finally {
      await context.close();
    }
  });

  test('a tapped field shows its key hint in a bubble that fits the phone; a tap elsewhere hides it', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    try {
      await page.goto(`${process.env.ATTN_URL}#${LINK}`);
      await paused(page, 60);
      const field = page.locator('#cfg-beta');
      await field.scrollIntoViewIfNeeded();
      const title = await field.getAttribute('title');
      assert.match(title, /^beta: /);
      await field.tap();
      await sleep(200);
      const bubble = await page.evaluate(() => {
        const el = document.getElementById('hint-bubble');
        const r = el.getBoundingClientRect();
        return { hidden: el.hidden, text: el.textContent, left: r.left, right: r.right, scroll: el.scrollWidth > el.clientWidth,
          described: document.getElementById('cfg-beta').getAttribute('aria-describedby') };
      });
      assert.equal(bubble.hidden, false, 'the bubble shows on a tap');
      assert.equal(bubble.text, title, 'the whole hint, as the key table writes it');
      assert.ok(bubble.left >= 0 && bubble.right <= 390, `inside the screen: ${bubble.left}..${bubble.right}`);
      assert.equal(bubble.scroll, false, 'wrapped, not cut');
      assert.equal(bubble.described, 'hint-bubble');
      await page.locator('h1').first().tap();
      await sleep(100);
      assert.equal(await page.evaluate(() => document.getElementById('hint-bubble').hidden), true);
    } finally {
      await context.close();
    }
  });

  test('the keyboard walks the heatmap by cells and the chart by samples; Escape hides; fields show their hint on Tab', async () => {
    const page = await openPage(browser, LINK);
    try {
      await paused(page, 60);
      const n = await page.evaluate(() => window.__attn.n());
      // Tab from the field before the heatmap's would take many presses: focus it as a keyboard
      // would leave it (no pointer has been used on the page).
      await page.focus('#heatmap');
      const first = await tip(page, 'heatmap-tip');
      assert.ok(first, 'focus shows the centre cell');
      const centre = Math.floor(n / 2); // the cell holding the centre
      const pos = (k) => (k + 0.5) / n;
      assert.equal(first[0], await pairAt(page, pos(centre), pos(centre)));
      await page.keyboard.press('ArrowRight');
      assert.equal((await tip(page, 'heatmap-tip'))[0], await pairAt(page, pos(centre + 1), pos(centre)), 'one column right');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      assert.equal((await tip(page, 'heatmap-tip'))[0], await pairAt(page, pos(centre + 1), pos(centre + 2)), 'two rows down');
      await page.keyboard.press('End');
      assert.equal((await tip(page, 'heatmap-tip'))[0], await pairAt(page, pos(n - 1), pos(centre + 2)), 'End: the last column');
      assert.equal(await page.evaluate(() => window.__attn.step()), 60, 'the arrow keys did not step the run');
      await page.keyboard.press('Escape');
      assert.equal(await tip(page, 'heatmap-tip'), null);

      await page.focus('#chart');
      await page.keyboard.press('End');
      const last = await tip(page, 'chart-tip');
      assert.ok(last, 'the chart reads by keyboard');
      assert.match(last[0], /\(step 60\)$/, last[0]);
      await page.keyboard.press('Home');
      assert.match((await tip(page, 'chart-tip'))[0], /\(step 0\)$/);
      await page.keyboard.press('Tab');
      assert.equal(await tip(page, 'chart-tip'), null, 'leaving the chart hides its tip');

      await page.focus('#cfg-n');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const shown = await page.evaluate(() => ({
        key: document.activeElement.dataset.key,
        hidden: document.getElementById('hint-bubble').hidden,
        text: document.getElementById('hint-bubble').textContent,
      }));
      assert.equal(shown.key, 'n');
      assert.equal(shown.hidden, false, 'a field reached by Tab shows its hint');
      assert.match(shown.text, /^n: /);
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.getElementById('hint-bubble').hidden), true);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the depth grid by keyboard: the arrow keys read each tile, Enter enlarges it', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&layers=3&variants=transformer');
    try {
      await page.waitForFunction(() => {
        const d = window.__attnDepth;
        return d && !d.busy() && !d.pending() && d.total() > 0 && d.done() === d.total() && d.gridGeometry();
      }, null, { timeout: 60_000 });
      const g = await page.evaluate(() => window.__attnDepth.gridGeometry());
      const zoomTitle = async () => (await page.evaluate(() => JSON.parse(document.getElementById('dp-zoom').dataset.labels || '[]').map((l) => l.text)))
        .find((t) => /^layer \d+, head \d+/.test(t));
      await page.focus('#dp-grid');
      const layer = Math.floor(g.layers / 2) + 1;
      const head = Math.floor(g.heads / 2);
      assert.deepEqual(await tip(page, 'dp-grid-tip').then((l) => l[0]), `layer ${layer}, head ${head} (click, tap or Enter to enlarge)`);
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowRight');
      assert.match((await tip(page, 'dp-grid-tip'))[0], /^layer 1, head 1 /, 'Home, up to the top, one right');
      const before = await zoomTitle();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /layer 1, head 1 /.test(document.getElementById('dp-zoom').dataset.labels || ''), null, { timeout: 10_000 });
      assert.notEqual(before, await zoomTitle(), 'Enter enlarged another head');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
