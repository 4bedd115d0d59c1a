// The model lab's page (docs/model-lab.md): opened from a link with the served all-MiniLM-L6-v2,
// it analyses the text in its worker and shows the token strip, the attention and context-
// similarity grids, the chosen head enlarged and the four residual curves. Its numbers are
// `attn encode`'s bit for bit: tokens, ids, the residual curves (f64), and one head's attention
// and one head's similarity matrix (f32, compared as f32). Clicking a tile picks that head: a
// new link in the address bar, which the CLI reads too.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { LINK, MODEL_DIR, analysed } from './model_helpers.mjs';


/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});


/** `want` (the CLI's JSON numbers, f32 printed shortest) equals the page's Float32Array as f32. */
function sameF32(rows, got, what) {
  const flat = rows.flat();
  assert.equal(got.length, flat.length, `${what}: length`);
  let bad = 0;
  let first = '';
  for (let k = 0; k < flat.length; k++) {
    if (!Object.is(Math.fround(flat[k]), got[k])) {
      if (!bad) first = `[${k}] cli ${flat[k]} page ${got[k]}`;
      bad += 1;
    }
  }
  assert.equal(bad, 0, `${what}: ${bad} of ${flat.length} values differ, first ${first}`);
  return flat.length;
}

describe('model lab page', { skip: (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model') }, () => {
  test('analyses a link in its worker, draws it, and equals attn encode bit for bit', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1440, height: 900 } });
    const t0 = Date.now();
    await analysed(page);
    const seconds = (Date.now() - t0) / 1000;
    const state = await page.evaluate(() => {
      const m = window.__attnModel;
      const h = m.head();
      return {
        config: m.configString(),
        hash: decodeURIComponent(location.hash.slice(1)),
        model: m.model(),
        result: m.result(),
        ms: m.ms(),
        head: { layer: h.layer, head: h.head, p: Array.from(h.p), s: Array.from(h.s) },
        strip: Array.from(document.querySelectorAll('#md-tokens .token'), (e) => e.textContent),
        labels: JSON.parse(document.getElementById('md-residual').dataset.labels || '[]').map((l) => l.text),
        note: document.getElementById('md-res-note').textContent,
      };
    });
    console.log(`model lab: first analysis shown ${seconds.toFixed(1)} s after the page was ready (download included); the analysis took ${Math.round(state.ms)} ms in the worker`);
    assert.equal(state.model.sha256, '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db');
    assert.equal(state.hash, decodeURIComponent(state.config), 'the address bar holds the canonical link');
    assert.match(state.config, /layer=2&head=3/);

    const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', state.config, '--attention', '1,0', '--similarity', '2,3']));
    assert.equal(cli.config, state.config);
    const r = state.result;
    assert.deepEqual(r.tokens, cli.tokens);
    assert.deepEqual(r.ids, cli.ids);
    assert.deepEqual(r.sentence, cli.sentence);
    assert.deepEqual(state.strip, cli.tokens, 'the token strip shows the tokens');
    assert.deepEqual(r.variants.map((v) => v.variant), cli.variants.map((v) => v.variant));
    for (let i = 0; i < 4; i++) {
      const a = r.variants[i].residual;
      const b = cli.variants[i].residual;
      assert.equal(a.length, cli.model.layers + 1);
      for (let l = 0; l < a.length; l++) assert.ok(Object.is(a[l], b[l]), `${b.variant} residual[${l}]: page ${a[l]} cli ${b[l]}`);
    }
    // The link's head (layer 2, head 3): its similarity matrix.
    assert.deepEqual([state.head.layer, state.head.head], [2, 3]);
    const ns = sameF32(cli.similarity[0].s, state.head.s, 'S of layer 2, head 3');
    assert.equal(ns, r.n * r.n);
    // The residual chart names the four variants.
    for (const v of ['SAN', 'SAN+MLP', 'SAN+skip', 'transformer']) {
      assert.ok(state.labels.some((t) => t.startsWith(`${v}:`)), `residual legend has ${v}: ${state.labels}`);
    }
    assert.ok(state.labels.some((t) => t.includes('no attention skip, MLP with its skip')), 'SAN+MLP as in the BERT surgery');
    assert.ok(state.labels.includes('layer l (0 = the embeddings)'), `x axis: ${state.labels}`);
    assert.match(state.note, /removes only the attention's skip/);
    // Every grid and enlarged head is drawn.
    // The statistics: one entry per layer, one per head, and their charts.
    assert.equal(r.statistics.length, cli.model.layers);
    assert.ok(r.statistics.every((l, i) => l.layer === i + 1 && l.heads.length === cli.model.heads));
    assert.ok(r.chance > 0 && r.chance < 1, `chance ${r.chance}`);
    for (const id of ['md-att-grid', 'md-sim-grid', 'md-att-zoom', 'md-sim-zoom', 'md-residual', 'md-hist', 'md-same']) {
      const snap = await canvasSnapshot(page, `#${id}`);
      assert.ok(snap.width > 50 && snap.inked > snap.width * 5, `#${id} is drawn (${snap.width}x${snap.height}, ${snap.inked} inked)`);
    }

    // Click layer 1, head 0 in the attention grid: a new link, its attention map equals the CLI's.
    const g = await page.evaluate(() => window.__attnModel.gridGeometry());
    const box = await page.locator('#md-att-grid').boundingBox();
    await page.mouse.click(box.x + g.x0 + g.cell / 2, box.y + g.y0 + g.cell / 2);
    const picked = state.config.replace('&layer=2&head=3', '');
    await analysed(page, picked);
    const head = await page.evaluate(() => {
      const h = window.__attnModel.head();
      return { layer: h.layer, head: h.head, p: Array.from(h.p), hash: location.hash.slice(1) };
    });
    assert.deepEqual([head.layer, head.head], [1, 0]);
    assert.equal(head.hash, picked, 'the address bar follows the pick');
    sameF32(cli.attention[0].p, head.p, 'P of layer 1, head 0');

    // Hovering the enlarged attention's cell (0, 0) reads [CLS] -> [CLS] and its weight.
    const z = await page.locator('#md-att-zoom').boundingBox();
    const zg = await page.evaluate(() => window.__attnModel.zoomGeometry());
    await page.mouse.move(z.x + zg.x0 + zg.cell / 2, z.y + zg.y0 + zg.cell / 2);
    const tip = await page.evaluate(() => document.getElementById('md-att-zoom-tip').textContent);
    assert.match(tip, /i = 0 \(\[CLS\]\), j = 0 \(\[CLS\]\)/);
    assert.match(tip, /P_ij = /);

    // A second visit reads the weights from the browser's Cache API (no download).
    assert.equal(state.model.cached, false, 'a new browser context downloads the model');
    await page.reload();
    await page.waitForFunction(() => window.__attnReady === true);
    await analysed(page, picked);
    const again = await page.evaluate(() => window.__attnModel.model());
    assert.equal(again.cached, true, 'the reload reads every file from the Cache API');
    assert.equal(again.sha256, state.model.sha256);
    assertNoErrors(page);
    await page.close();
  });

  test('the worker pool: MiniLM fits twice, so a helper worker computes the surgery variants; the curves equal attn encode bit for bit', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1440, height: 900 } });
    try {
      await analysed(page);
      // The helper loads its copy after the first worker (from the Cache API): new texts are
      // analysed until one comes back from two workers.
      let state = null;
      for (let k = 0; k < 40; k++) {
        const text = `The pool test, round ${k}. A helper worker runs SAN, SAN+MLP and SAN+skip.`;
        await page.fill('#md-text', text);
        await page.click('#md-run');
        await page.waitForFunction((t) => {
          const m = window.__attnModel;
          return m.result() && !m.busy() && decodeURIComponent(m.configString()).includes(t);
        }, text, { timeout: 60_000 });
        state = await page.evaluate(() => ({ config: window.__attnModel.configString(), result: window.__attnModel.result() }));
        if (state.result.workers === 2) break;
        await page.waitForTimeout(500);
      }
      assert.equal(state.result.workers, 2, 'a new text is analysed by two workers');
      const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', state.config]));
      for (let i = 0; i < 4; i++) {
        const a = state.result.variants[i].residual;
        const b = cli.variants[i].residual;
        assert.equal(state.result.variants[i].variant, cli.variants[i].variant);
        assert.equal(a.length, b.length);
        for (let l = 0; l < a.length; l++) assert.ok(Object.is(a[l], b[l]), `${cli.variants[i].variant} residual[${l}]: page ${a[l]} cli ${b[l]}`);
      }
      // Another head of the same text: the helper's curves are reused, the same numbers.
      const g = await page.evaluate(() => window.__attnModel.gridGeometry());
      const box = await page.locator('#md-att-grid').boundingBox();
      await page.mouse.click(box.x + g.x0 + 1.5 * g.cell, box.y + g.y0 + 2.5 * g.cell);
      await page.waitForFunction((c) => window.__attnModel.configString() !== c && !window.__attnModel.busy(), state.config);
      const again = await page.evaluate(() => window.__attnModel.result());
      assert.equal(again.workers, 2);
      assert.deepEqual(again.variants, state.result.variants);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a bare lab=model opens the served model on the first built-in text', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, 'lab=model');
    try {
      await analysed(page);
      assert.equal(await page.locator('#md-error').textContent(), '');
      assert.match(page.url(), /[#&]model=all-MiniLM-L6-v2%4053aa51172d142c89|[#&]model=all-MiniLM-L6-v2@53aa51172d142c89/);
      assert.ok((await page.evaluate(() => window.__attnModel.result().tokens.length)) > 2, 'tokens analysed');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a refused first link (layer out of range) shows the default instead; a bare link keeps its view keys', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, `${LINK.replace('&layer=2', '&layer=7')}`);
    try {
      await analysed(page);
      const msg = await page.evaluate(() => document.getElementById('md-error').textContent);
      assert.match(msg, /^`layer`: .*1\.\.=6.*\. Showing the served model on “The fox” instead\.$/);
      assert.ok((await page.evaluate(() => window.__attnModel.result().tokens.length)) > 2, 'the default is analysed and drawn');
      assert.match(page.url(), /layer=7/, 'the address bar keeps the refused link');
      // A bare link with the lab's view keys: the default at that head.
      await page.evaluate(() => { location.hash = 'lab=model&layer=3&head=4'; });
      await page.waitForFunction(() => /&layer=3&head=4$/.test(window.__attnModel.configString()));
      await analysed(page);
      assert.equal(await page.evaluate(() => document.getElementById('md-error').textContent), '');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a link naming other weights is refused naming model, with both hashes; the default shows instead', { timeout: 300_000 }, async () => {
    const other = LINK.replace('53aa51172d142c89', '0123456789abcdef');
    const page = await openPage(browser, other);
    await page.waitForFunction(() => document.getElementById('md-error')?.textContent.includes('model'), null, { timeout: 240_000 });
    const msg = await page.evaluate(() => document.getElementById('md-error').textContent);
    assert.match(msg, /0123456789abcdef/);
    assert.match(msg, /53aa51172d142c89/);
    // Nothing was shown yet: the served model on the first text runs instead, the refusal stays
    // over it, and the address bar keeps the refused link.
    assert.match(msg, /^`model`: .*\. Showing the served model on “The fox” instead\.$/);
    await analysed(page);
    assert.match(await page.evaluate(() => window.__attnModel.configString()), /model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20quick/);
    assert.equal(await page.evaluate(() => document.getElementById('md-error').textContent), msg, 'the refusal stays over the default');
    assert.match(page.url(), /0123456789abcdef/, 'the address bar keeps the refused link');
    // The link check without a model, and the memory check before the weights download.
    const checks = await page.evaluate(async () => {
      const m = await import(new URL('pkg/attn_web_full.js', location.href).href);
      await m.default();
      const config = JSON.parse(await (await fetch('models/all-MiniLM-L6-v2/config.json')).text());
      const big = JSON.stringify({ ...config, hidden_size: 4096, num_attention_heads: 32, intermediate_size: 16384, num_hidden_layers: 48 });
      let refused = '';
      try {
        m.model_memory(big, 8);
      } catch (e) {
        refused = e.message;
      }
      let small = '';
      try {
        m.model_memory(JSON.stringify({ ...config, num_hidden_layers: 24, hidden_size: 1024, num_attention_heads: 16, intermediate_size: 4096 }), 4);
      } catch (e) {
        small = e.message;
      }
      return {
        good: m.check_model_link('lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=Hi%20there.&head=2'),
        bad: m.check_model_link('lab=model&model=nohash&text=Hi'),
        minilm: m.model_memory(JSON.stringify(config), 8),
        refused,
        small,
      };
    });
    assert.equal(checks.good.ok, true);
    assert.match(checks.good.canonical, /^version=\d+&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=Hi%20there\.&head=2$/);
    assert.deepEqual([checks.bad.ok, checks.bad.key], [false, 'model']);
    assert.ok(checks.minilm > 90e6 && checks.minilm < 300e6, `MiniLM's estimate ${checks.minilm}`);
    assert.match(checks.refused, /^`model`: needs about \d+\.\d+ GiB .* over this device's 2 GiB$/);
    assert.match(checks.small, /over this device's 1 GiB$/, 'bert-large-sized on a 4 GB device');
    // A text of only dropped characters has no WordPiece: refused naming text.
    await page.evaluate(() => {
      location.hash = 'lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=%E2%80%8B%E2%80%8B';
    });
    await page.waitForFunction(() => /`text`/.test(document.getElementById('md-error').textContent), null, { timeout: 60_000 });
    // Markup in the text is text: tokens in the strip, nothing run.
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await page.evaluate((t) => {
      location.hash = `lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=${encodeURIComponent(t)}`;
    }, hostile);
    await analysed(page);
    const seen = await page.evaluate(() => ({
      pwned: window.__pwned,
      strip: document.getElementById('md-tokens').textContent,
      imgs: document.querySelectorAll('#lab-model img, #lab-model script').length,
    }));
    assert.equal(seen.pwned, undefined);
    assert.equal(seen.imgs, 0);
    assert.match(seen.strip, /script/);
    assertNoErrors(page);
    await page.close();
  });
});
