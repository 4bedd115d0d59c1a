// The model lab's tokens through the layers (science.md §7.5, docs/model-lab.md): the page's
// layers view of the served all-MiniLM-L6-v2 on a text equals `attn encode --layers-view` bit for
// bit (every PCA coordinate, histogram count, cluster label, mean cosine and effective rank, and
// the numbers its table shows); the panel draws the tokens (a canvas that is not blank), and the
// layer scrubber (slider and arrow keys) changes the layer drawn, whose tokens sit elsewhere, and
// the link (view key hidden_layer), which reopens at that layer and which `attn encode` reads.

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

/** The page's layers view as plain arrays (NaN as null, the CLI's non-finite). */
function layersOf(page) {
  return page.evaluate(() => {
    const v = window.__attnModel.layersView();
    const list = (a) => Array.from(a, (x) => (Number.isFinite(x) ? x : null));
    return {
      n: v.n, states: v.states, k: v.k, bins: v.bins, coords: list(v.coords), variance: list(v.variance),
      total_variance: v.total_variance, finite: Array.from(v.finite), histograms: list(v.histograms),
      clusters: list(v.clusters), labels: Array.from(v.labels), mean_cos: list(v.mean_cos), effective_rank: list(v.effective_rank),
    };
  });
}

/** Every number of the page's view `got` is the CLI's `want` (its "layers_view"), bit for bit. */
export function sameLayersView(got, want) {
  const states = want.coords.length;
  assert.equal(got.states, states, 'one entry per layer 0..=L');
  assert.equal(got.k, want.components);
  assert.equal(got.bins, want.bins);
  const same = (a, b, what) => assert.ok(Object.is(a, b), `${what}: page ${a} cli ${b}`);
  want.variance.forEach((v, a) => same(got.variance[a], v, `variance[${a}]`));
  same(got.total_variance, want.total_variance, 'total_variance');
  let compared = 0;
  for (let l = 0; l < states; l++) {
    assert.equal(got.finite[l], 1, `layer ${l} is finite`);
    want.coords[l].forEach((row, i) => row.forEach((v, a) => {
      same(got.coords[(l * got.n + i) * got.k + a], v, `coords[${l}][${i}][${a}]`);
      compared += 1;
    }));
    assert.deepEqual(got.histograms.slice(l * got.bins, (l + 1) * got.bins), want.histograms[l], `histogram of layer ${l}`);
    same(got.clusters[l], want.clusters[l], `clusters[${l}]`);
    assert.deepEqual(got.labels.slice(l * got.n, (l + 1) * got.n), want.labels[l], `labels of layer ${l}`);
    same(got.mean_cos[l], want.mean_cos[l], `mean_cos[${l}]`);
    same(got.effective_rank[l], want.effective_rank[l], `effective_rank[${l}]`);
  }
  return compared;
}

const skip = (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model');

describe('model lab: tokens through the layers', { skip }, () => {
  test('the page\'s layers view equals attn encode --layers-view bit for bit', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1280, height: 900 } });
    await analysed(page);
    const config = await page.evaluate(() => window.__attnModel.configString());
    const got = await layersOf(page);
    const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config, '--layers-view']));
    assert.equal(got.n, cli.tokens.length);
    assert.equal(got.states, cli.model.layers + 1);
    const compared = sameLayersView(got, cli.layers_view);
    assert.equal(compared, got.states * got.n * got.k);
    // The histogram of each layer counts every pair i < j once.
    for (let l = 0; l < got.states; l++) {
      const sum = got.histograms.slice(l * got.bins, (l + 1) * got.bins).reduce((s, c) => s + c, 0);
      assert.equal(sum, (got.n * (got.n - 1)) / 2);
    }
    // The table shows every layer's numbers, exactly (each cell's data-value).
    const table = await page.$$eval('#md-layers-stats tr', (rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (c) => Number(c.dataset.value))));
    assert.equal(table.length, got.states);
    const v = cli.layers_view;
    table.forEach(([clusters, mean, rank], l) => {
      assert.ok(Object.is(clusters, v.clusters[l]) && Object.is(mean, v.mean_cos[l]) && Object.is(rank, v.effective_rank[l]), `table row ${l}: ${[clusters, mean, rank]}`);
    });

    // The panel draws the tokens and the histograms.
    await page.locator('#md-layers-tokens').scrollIntoViewIfNeeded();
    for (const id of ['md-layers-tokens', 'md-layers-hist']) {
      const snap = await canvasSnapshot(page, `#${id}`);
      assert.ok(snap.width > 50 && snap.inked > snap.width * 5, `#${id} is drawn (${snap.width}x${snap.height}, ${snap.inked} inked)`);
    }
    const shown = () => page.evaluate(() => window.__attnModel.layersShown());
    const at0 = await shown();
    assert.equal(at0.layer, 0);
    assert.equal(at0.drawn.length, got.n, 'every token drawn');
    const before = await canvasSnapshot(page, '#md-layers-tokens');
    // The slider to the last layer: the tokens drawn are the last layer's, elsewhere.
    const last = got.states - 1;
    await page.locator('#md-layers-slider').fill(String(last));
    const atLast = await shown();
    assert.equal(atLast.layer, last);
    const moved = (a, b) => {
      const pos = (d) => new Map(d.map(([x, y, i]) => [i, [x, y]]));
      const pa = pos(a.drawn);
      const pb = pos(b.drawn);
      let sum = 0;
      for (const [i, [x, y]] of pa) sum += Math.hypot(x - pb.get(i)[0], y - pb.get(i)[1]);
      return sum / pa.size;
    };
    assert.ok(moved(at0, atLast) > 5, `the tokens move between layers 0 and ${last}: ${moved(at0, atLast).toFixed(1)} px on average`);
    assert.notEqual((await canvasSnapshot(page, '#md-layers-tokens')).hash, before.hash, 'the canvas changes');
    assert.equal(await page.$eval('#md-layers-stats tr.shown', (r) => r.dataset.layer), String(last), 'the table marks the layer shown');
    const hashAt = () => page.evaluate(() => decodeURIComponent(location.hash.slice(1)));
    assert.ok((await hashAt()).endsWith(`&hidden_layer=${last}`), `the link holds the layer: ${await hashAt()}`);
    assert.equal(await page.evaluate(() => window.__attnModel.configString()), `${config}&hidden_layer=${last}`);
    // Arrow keys on the canvas step the layer.
    await page.locator('#md-layers-tokens').focus();
    await page.keyboard.press('ArrowLeft');
    const back = await shown();
    assert.equal(back.layer, last - 1);
    assert.ok(moved(atLast, back) > 0.5, 'one layer back, the tokens are elsewhere');
    assert.ok((await hashAt()).endsWith(`&hidden_layer=${last - 1}`), await hashAt());
    await page.keyboard.press('Home');
    assert.equal((await shown()).layer, 0);
    assert.equal(await hashAt(), decodeURIComponent(config), 'layer 0, the default, is left out of the link');
    // Hovering a token names it.
    const box = await page.locator('#md-layers-tokens').boundingBox();
    const [x, y, i] = (await shown()).drawn[0];
    await page.mouse.move(box.x + x, box.y + y);
    const tip = await page.$eval('#md-layers-tip', (t) => t.textContent);
    const tokens = await page.evaluate(() => window.__attnModel.result().tokens);
    assert.ok(tip.startsWith(`token ${i}: ${tokens[i]}`), `tip: ${tip}`);
    assertNoErrors(page);
    await page.close();
  });

  test('a link with hidden_layer reopens at that layer; one past the model is refused naming the key', { timeout: 300_000 }, async () => {
    const link = `${LINK}&hidden_layer=4`;
    const page = await openPage(browser, link, { viewport: { width: 1280, height: 900 } });
    await analysed(page);
    const state = await page.evaluate(() => {
      const m = window.__attnModel;
      return { config: m.configString(), shown: m.layersShown(), slider: document.getElementById('md-layers-slider').value, hash: decodeURIComponent(location.hash.slice(1)) };
    });
    assert.ok(state.config.endsWith('&layer=2&head=3&hidden_layer=4'), state.config);
    assert.equal(state.hash, decodeURIComponent(state.config));
    assert.equal(state.shown.layer, 4);
    assert.equal(state.slider, '4');
    assert.equal(await page.$eval('#md-layers-stats tr.shown', (r) => r.dataset.layer), '4');
    // attn encode takes the page's link whole and prints it back.
    const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', state.config]));
    assert.equal(cli.config, state.config);
    // Picking a head keeps the layer shown.
    const g = await page.evaluate(() => window.__attnModel.gridGeometry());
    const box = await page.locator('#md-att-grid').boundingBox();
    await page.mouse.click(box.x + g.x0 + g.cell / 2, box.y + g.y0 + g.cell / 2);
    await analysed(page, state.config.replace('&layer=2&head=3', ''));
    assert.equal((await page.evaluate(() => window.__attnModel.layersShown())).layer, 4);
    await page.close();

    // MiniLM has 6 layers: hidden_layer=7 is refused naming the key, the default shown instead.
    const bad = await openPage(browser, `${LINK}&hidden_layer=7`, { viewport: { width: 1280, height: 900 } });
    await bad.waitForFunction(() => document.getElementById('md-error').textContent.includes('hidden_layer'), null, { timeout: 240_000 });
    const message = await bad.$eval('#md-error', (e) => e.textContent);
    assert.match(message, /`hidden_layer`: the model has hidden states 0..=6/);
    await bad.close();
  });
});
