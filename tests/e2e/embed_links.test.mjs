// Browser tests of the embedded view's "Open in the full playground" link in the labs whose
// address bar carries only the configuration (training, depth, model): a pick inside the embed
// (a preset, an example) moves the link to the new configuration, with the theme and panels the
// embed shows, and without `embed` and `controls`; and a bare `lab=model&embed=1` embeds the
// served model. The particle lab's embed is in share.test.mjs.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage } from './helpers.mjs';
import { analysed, LINK } from './model_helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const EMBED = { viewport: { width: 640, height: 420 } };

/** The hash of the embed's "Open in the full playground" link (without '#'). */
async function fullLink(page) {
  const href = await page.locator('a.embed-open').getAttribute('href');
  return new URL(href).hash.slice(1);
}

/** The page's link after a pick: the frame's hash (the configuration), then `view`. */
async function expected(page, view) {
  return `${await page.evaluate(() => location.hash.slice(1))}&${view}`;
}

describe('the embed follows a pick in its "full playground" link', () => {
  test('depth: a preset picked in the embed', async () => {
    const page = await openPage(browser, 'lab=depth&preset=collapse-small&embed=1&panels=residual&theme=dark', EMBED);
    try {
      await page.waitForFunction(() => document.querySelector('a.embed-open')?.href.includes('preset=collapse-small'));
      assert.equal(await fullLink(page), 'version=7&lab=depth&preset=collapse-small&panels=residual&theme=dark');
      await page.selectOption('#dp-preset', 'bert-init');
      await page.waitForFunction(() => location.hash.includes('preset=bert-init'));
      await page.waitForFunction(() => document.querySelector('a.embed-open').href.includes('preset=bert-init'));
      const link = await fullLink(page);
      assert.equal(link, await expected(page, 'panels=residual&theme=dark'));
      assert.doesNotMatch(link, /embed|controls|collapse-small/);
      assert.match(await page.locator('.embed-caption').textContent(), /BERT/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('training: a preset picked in the embed', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap&embed=1&controls=preset,play&panels=heatmap', EMBED);
    try {
      await page.waitForFunction(() => document.querySelector('a.embed-open')?.href.includes('preset=scan-snap'));
      const other = await page.evaluate(() => [...document.querySelectorAll('#tr-preset option')].map((o) => o.value).find((v) => v && v !== 'scan-snap'));
      assert.ok(other, 'a second training preset');
      await page.selectOption('#tr-preset', other);
      await page.waitForFunction((p) => location.hash.includes(`preset=${p}`), other);
      await page.waitForFunction((p) => document.querySelector('a.embed-open').href.includes(`preset=${p}`), other);
      const link = await fullLink(page);
      assert.equal(link, await expected(page, 'panels=heatmap'));
      assert.doesNotMatch(link, /embed|controls|preset=scan-snap(&|$)/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('model: a bare lab=model&embed=1 embeds the served model on the first text', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, 'lab=model&embed=1&panels=grid&theme=dark', EMBED);
    try {
      await analysed(page);
      const config = await page.evaluate(() => window.__attnModel.configString());
      assert.match(config, /^version=\d+&lab=model&model=all-MiniLM-L6-v2@[0-9a-f]{16}&text=The%20quick/);
      const shown = await page.evaluate(() => {
        const visible = (sel) => { const el = document.querySelector(sel); return Boolean(el) && el.getClientRects().length > 0; };
        return { bar: visible('.embed-bar'), header: visible('header.top'), grid: visible('#md-grid-heading'), residual: visible('#md-res-heading'), theme: document.documentElement.dataset.theme };
      });
      assert.deepEqual(shown, { bar: true, header: false, grid: true, residual: false, theme: 'dark' }, 'embedded, with its panels and theme');
      assert.equal(await fullLink(page), `${config}&panels=grid&theme=dark`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('model: an example picked in the embed', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, `${LINK}&embed=1&panels=grid&controls=example`, EMBED);
    try {
      await analysed(page);
      const first = await page.evaluate(() => window.__attnModel.configString());
      assert.equal(await fullLink(page), `${first}&panels=grid`);
      const other = await page.evaluate(() => [...document.querySelectorAll('#md-example option')].map((o) => o.value).find((v) => v && v !== document.getElementById('md-example').value));
      await page.selectOption('#md-example', other);
      await page.waitForFunction((c) => window.__attnModel.configString() !== c, first);
      const now = await page.evaluate(() => window.__attnModel.configString());
      await page.waitForFunction((c) => new URL(document.querySelector('a.embed-open').href).hash === `#${c}&panels=grid`, now);
      assert.notEqual(now, first);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
