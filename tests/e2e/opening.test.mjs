// Every lab opens on something to see and is still moving ten seconds later (the budgets in
// milliseconds are the opening benchmark's, `cargo xtask bench --open-only`, not this test's):
// - `/` and the training lab's default link (the Training tab's) are still playing 10 s after
//   opening at their default speed, their timeline short of its end;
// - the depth lab's default (`version=7&lab=depth`, and the Depth tab) is `collapse-small`, every
//   variant drawn within a generous 15 s (bert-init, the old default, took 10 to 34 s);
// - the model lab shows its lede and a skeleton of its panels before its model has loaded, then
//   opens on the tour's head (layer 2, head 3);
// - on a phone (390 x 844) each lab's main picture starts at most 844 - 240 px down the page;
// - the particle, training and depth labs download the page's module (pkg/attn_web_bg.wasm)
//   alone; the module with the model lab (pkg/attn_web_full_bg.wasm: its encoder, tokenizer and
//   Unicode tables) is asked for when that lab is first shown;
// - `/` asks for two scripts before its first frame: the page's modules in one file
//   (bundle/main.js, crates/xtask/bundle/) and the wasm module's glue.

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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

describe('still moving ten seconds later', () => {
  test('/ (polytope) is playing at 10 s, short of its last step', { timeout: 120_000 }, async () => {
    const page = await openPage(browser, '');
    try {
      const opened = Date.now();
      await sleep(10_000 - (Date.now() - opened));
      const s = await page.evaluate(() => ({ playing: window.__attn.playing(), status: window.__attn.status(), step: window.__attn.step(), config: window.__attn.configString() }));
      assert.ok(s.playing, `not playing at 10 s: ${JSON.stringify(s)}`);
      assert.notEqual(s.status, 'finished', JSON.stringify(s));
      assert.ok(s.step > 0, 'it moved');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the training lab\'s default is playing at 10 s, short of its last iteration', { timeout: 120_000 }, async () => {
    const page = await openPage(browser, '');
    try {
      // The Training tab: its default link, as a reader opens it.
      await page.click('#tab-training');
      await page.waitForFunction(() => window.__attnTraining?.iteration() > 0, null, { timeout: 30_000 });
      const opened = Date.now();
      const first = await page.evaluate(() => window.__attnTraining.configString());
      assert.equal(first, 'version=7&lab=training&preset=scan-snap');
      await sleep(10_000 - (Date.now() - opened));
      const s = await page.evaluate(() => {
        const t = window.__attnTraining;
        return { it: t.iteration(), of: t.iterations(), playing: t.playing(), status: t.status() };
      });
      assert.equal(s.of, 1000);
      assert.ok(s.playing && s.it < s.of && s.status !== 'finished', `at 10 s: ${JSON.stringify(s)}`);
      assert.ok(s.it >= 10, `it moved: ${JSON.stringify(s)}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

describe('each lab downloads the wasm it needs', () => {
  test('/ and the Training and Depth tabs without the model lab\'s module; the Model tab with it', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const asked = [];
    const scripts = [];
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      const m = /\/pkg\/([^/?#]+)$/.exec(path);
      if (m) asked.push(m[1]);
      if (req.resourceType() === 'script') scripts.push(path.slice(1));
    });
    const wasmAsked = () => asked.filter((f) => f.endsWith('.wasm'));
    try {
      await page.goto(`${process.env.ATTN_URL}`);
      await page.waitForFunction(() => window.__attnReady === true && window.__attn.step() > 0, null, { timeout: 30_000 });
      assert.deepEqual(wasmAsked(), ['attn_web_bg.wasm'], `/ asked for ${asked.join(', ')}`);
      assert.deepEqual([...scripts].sort(), ['bundle/main.js', 'pkg/attn_web.js'], `/'s scripts: ${scripts.join(', ')}`);
      await page.click('#tab-training');
      await page.waitForFunction(() => window.__attnTraining?.iteration() > 0, null, { timeout: 30_000 });
      assert.deepEqual(wasmAsked(), ['attn_web_bg.wasm'], `the training lab asked for ${asked.join(', ')}`);
      await page.click('#tab-depth');
      await page.waitForFunction(() => performance.getEntriesByName('attn-first-picture:depth', 'mark').length === 1, null, { timeout: 30_000 });
      // The depth lab's workers instantiate the page's module too.
      assert.deepEqual([...new Set(wasmAsked())], ['attn_web_bg.wasm'], `the depth lab asked for ${asked.join(', ')}`);
      assert.ok(!asked.some((f) => f.startsWith('attn_web_full')), `no part of the full module: ${asked.join(', ')}`);
      await page.click('#tab-model');
      await page.waitForFunction(() => performance.getEntriesByName('attn-model-skeleton', 'mark').length === 1, null, { timeout: 30_000 });
      assert.deepEqual([...new Set(wasmAsked())], ['attn_web_bg.wasm', 'attn_web_full_bg.wasm'], `the model lab asked for ${asked.join(', ')}`);
      assert.ok(asked.includes('attn_web_full.js'), `the full module's glue: ${asked.join(', ')}`);
    } finally {
      await context.close();
    }
  });
});

describe('the depth lab opens drawn', () => {
  for (const [name, how] of [['version=7&lab=depth', 'link'], ['the Depth tab', 'tab']]) {
    test(`${name}: collapse-small, every variant drawn within 15 s`, { timeout: 120_000 }, async () => {
      const page = await openPage(browser, how === 'link' ? name : '');
      try {
        const t0 = Date.now();
        if (how === 'tab') await page.click('#tab-depth');
        await page.waitForFunction(() => {
          const d = window.__attnDepth;
          return d && d.total() > 0 && d.done() === d.total() && !d.pending();
        }, null, { timeout: 15_000 });
        const ms = Date.now() - t0;
        assert.match(await page.evaluate(() => window.__attnDepth.configString()), /^version=7&lab=depth&preset=collapse-small$/);
        const marks = await page.evaluate(() => ['attn-first-picture:depth', 'attn-depth-complete'].map((m) => performance.getEntriesByName(m, 'mark').length));
        assert.deepEqual(marks, [1, 1], 'the page marks its first curve and its last variant drawn');
        process.stdout.write(`# depth (${name}) fully drawn ${ms} ms after opening\n`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }
});

describe('the model lab before and after its model', () => {
  test('the lede and the skeleton show while the model loads; it opens on layer 2, head 3', { timeout: 300_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let release;
    const held = new Promise((r) => {
      release = r;
    });
    // The model's files wait until the skeleton has been read.
    await page.route('**/models/**', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${process.env.ATTN_URL}#lab=model`);
      await page.waitForSelector('#md-lede', { state: 'visible', timeout: 60_000 });
      const before = await page.evaluate(() => {
        const root = document.querySelector('.model-layout');
        const box = (id) => document.getElementById(id).parentElement.getBoundingClientRect();
        return {
          lede: document.getElementById('md-lede').textContent,
          loading: root.classList.contains('md-loading'),
          grid: box('md-att-grid').height,
          zoom: box('md-att-zoom').height,
          residual: box('md-residual').height,
          skeleton: performance.getEntriesByName('attn-model-skeleton', 'mark').length,
          result: Boolean(window.__attnModel?.result()),
        };
      });
      assert.equal(before.lede, 'Type a sentence; click a tile to enlarge a head.');
      assert.ok(before.loading && !before.result, JSON.stringify(before));
      for (const k of ['grid', 'zoom', 'residual']) assert.ok(before[k] > 100, `${k}'s skeleton box is ${before[k]} px high`);
      assert.equal(before.skeleton, 1);
      release();
      await page.waitForFunction(() => window.__attnModel?.result() && !window.__attnModel.busy(), null, { timeout: 240_000 });
      const r = await page.evaluate(() => ({
        layer: window.__attnModel.result().layer,
        head: window.__attnModel.result().head,
        loading: document.querySelector('.model-layout').classList.contains('md-loading'),
        hash: location.hash,
      }));
      assert.deepEqual([r.layer, r.head, r.loading], [2, 3, false], JSON.stringify(r));
      assert.match(r.hash, /&layer=2&head=3$/);
    } finally {
      release();
      await context.close();
    }
  });
});

describe('on a phone the main picture is in the first screen', () => {
  const LABS = [
    ['particles', '', '#tokens', () => window.__attn?.step() >= 0],
    ['training', 'version=7&lab=training&preset=scan-snap', '#tr-heatmap', () => window.__attnTraining?.iteration() >= 0],
    ['depth', 'version=7&lab=depth', '#dp-residual', () => window.__attnDepth?.done() > 0],
    ['model', 'lab=model', '#md-att-grid', () => Boolean(window.__attnModel?.result())],
  ];
  for (const [lab, hash, sel, ready] of LABS) {
    test(`${lab}: ${sel}'s top <= 604 px`, { timeout: 300_000 }, async () => {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      try {
        await page.goto(`${process.env.ATTN_URL}#${hash}`);
        await page.waitForFunction(ready, null, { timeout: 240_000 });
        await sleep(300); // the layout after the first results
        const top = await page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY, sel);
        assert.ok(top <= 844 - 240, `${lab}: ${sel} starts at ${top.toFixed(0)} px`);
        process.stdout.write(`# phone ${lab}: ${sel} at ${top.toFixed(0)} px\n`);
      } finally {
        await context.close();
      }
    });
  }
});
