// The Content-Security-Policy: the server sends it with every response, index.html and host.html
// carry it in a <meta> for static hosts, no page has inline script or style, and the three labs
// and the host page run without a single `securitypolicyviolation` event while they are used
// (charts with legends and axis titles, the sweep's worker, the depth lab's worker, exports).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { ATTN_URL, assertNoErrors, launch, openPage, watchCsp } from './helpers.mjs';

const WWW = new URL('../../www/', import.meta.url);

/** The policy the server sends (crates/xtask/src/server.rs, CSP). */
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src blob:; worker-src 'self'; connect-src 'self'; frame-ancestors *; base-uri 'none'; form-action 'none'; object-src 'none'";

/** The same policy without frame-ancestors (a <meta> cannot carry it). */
const META_POLICY = POLICY.replace(" frame-ancestors *;", '');

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** The violations the page saw (watchCsp keeps them). */
const violations = (page) => page.evaluate(() => window.__csp);

describe('content security policy', () => {
  test('every response carries the policy; it allows no inline script, style or eval', async () => {
    assert.ok(!/unsafe-inline|'unsafe-eval'/.test(POLICY));
    for (const path of ['', 'host.html', 'main.js', 'style.css', 'pkg/attn_web_bg.wasm', 'workers/sweep.js', 'no-such-file']) {
      const res = await fetch(new URL(path, ATTN_URL));
      await res.arrayBuffer();
      assert.equal(res.headers.get('content-security-policy'), POLICY, `/${path}`);
    }
  });

  test('the HTML pages carry the policy in a <meta> and have no inline script, style or handlers', async () => {
    const pages = (await readdir(WWW)).filter((f) => f.endsWith('.html'));
    assert.ok(pages.includes('index.html') && pages.includes('host.html'));
    for (const name of pages) {
      const html = await readFile(new URL(name, WWW), 'utf8');
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
      assert.ok(meta, `${name} has a CSP <meta>`);
      assert.equal(meta[1], META_POLICY, name);
      assert.ok(html.indexOf(meta[0]) < html.search(/<script|<link rel="stylesheet"/), `${name}: the <meta> comes before scripts and styles`);
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${name}: inline <script>`);
      assert.doesNotMatch(html, /<style[\s>]/, `${name}: <style> element`);
      assert.doesNotMatch(html, /\sstyle=/, `${name}: style="" attribute`);
      assert.doesNotMatch(html, /\son[a-z]+=/, `${name}: inline event handler`);
      assert.doesNotMatch(html, /javascript:/i, `${name}: javascript: URL`);
    }
  });

  test('the policy is in force: an injected inline script does not run and is reported', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      const ran = await page.evaluate(async () => {
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.body.append(s);
        const d = document.createElement('div');
        d.setAttribute('style', 'color: red');
        document.body.append(d);
        await new Promise((r) => setTimeout(r, 100));
        return window.__inline;
      });
      assert.equal(ran, undefined, 'inline script blocked');
      const seen = await violations(page);
      assert.ok(seen.some((v) => v.startsWith('script-src-elem')), seen.join('\n'));
      assert.ok(seen.some((v) => v.startsWith('style-src-attr')), seen.join('\n'));
    } finally {
      await page.close();
    }
  });

  test('the particle lab, used, reports no violation', async () => {
    const page = await openPage(browser, 'preset=polytope-3d');
    try {
      await page.waitForFunction(() => window.__attn.step() >= 10);
      const heat = await page.locator('#heatmap').boundingBox();
      await page.mouse.move(heat.x + heat.width / 3, heat.y + heat.height / 2);
      const chart = await page.locator('#chart').boundingBox();
      await page.mouse.move(chart.x + chart.width / 2, chart.y + chart.height / 3);
      const tokens = await page.locator('#tokens').boundingBox();
      await page.mouse.move(tokens.x + tokens.width / 2, tokens.y + tokens.height / 2);
      await page.mouse.down();
      await page.mouse.move(tokens.x + tokens.width / 2 + 60, tokens.y + tokens.height / 2 + 20);
      await page.mouse.up();
      await page.selectOption('#preset', 'sphere-usa');
      await page.fill('#cfg-v', '1,2;3'); // refused: the error box
      await page.press('#cfg-v', 'Enter');
      await page.click('#export-menu > summary');
      await page.waitForTimeout(300);
      assert.deepEqual(await violations(page), []);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the training lab with its sweep worker and the depth lab with its worker report no violation', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap-sweep&iterations=20');
    try {
      await page.waitForFunction(() => window.__attnTraining?.iteration() >= 5, null, { timeout: 20_000 });
      await page.fill('#sw-eta', '1, 2');
      await page.fill('#sw-ratio', '1, 5');
      await page.fill('#sw-seeds', '2');
      await page.click('#sw-run');
      await page.waitForFunction(() => window.__attnTraining.sweep().state === 'done', null, { timeout: 30_000 });
      const chart = await page.locator('#tr-chart').boundingBox();
      await page.mouse.move(chart.x + chart.width / 2, chart.y + chart.height / 3);

      await page.click('#tab-depth');
      await page.waitForFunction(() => window.__attnDepth && !window.__attnDepth.busy() && window.__attnDepth.done() === window.__attnDepth.total() && window.__attnDepth.total() > 0, null, { timeout: 60_000 });
      const grid = await page.locator('#dp-grid').boundingBox();
      await page.mouse.click(grid.x + grid.width / 3, grid.y + grid.height / 3);
      const res = await page.locator('#dp-residual').boundingBox();
      await page.mouse.move(res.x + res.width / 2, res.y + res.height / 2);
      await page.waitForTimeout(300);
      assert.deepEqual(await violations(page), []);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the example host page and its embedded playground report no violation', async () => {
    const page = await browser.newPage();
    try {
      const errors = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(watchCsp);
      await page.goto(`${ATTN_URL}host.html#preset=polytope&embed=1`);
      await page.waitForFunction(() => window.__hostEvents?.some((e) => e.type === 'ready'), null, { timeout: 30_000 });
      await page.click('#cmd-seek');
      await page.click('#cmd-bad');
      await page.waitForFunction(() => window.__hostEvents.some((e) => e.type === 'error'));
      for (const frame of page.frames()) assert.deepEqual(await frame.evaluate(() => window.__csp), [], frame.url());
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
