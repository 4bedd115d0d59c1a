// The model lab never shows a number for a value that is not finite: a tiny random BERT whose
// layer 0 feed-forward weights are 3e38 (finite, but the forward overflows f32) loads with "Load
// your own BERT"; the transformer and SAN+MLP have no value from layer 1 on. The page shows it as
// such: the caption reads "no value (overflow at layer 1)" (before: "0.00"), the residual chart's
// note "overflow at layer 1" names both variants, layer 2's attention and similarity tiles are the
// grey "no value" colour (before: viridis' 0), layer 1's are not; `attn encode` on the same folder
// prints null at the same places and lists them in non_finite.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { overflowFiles, tmpRoot, writeModel } from './tiny_bert.mjs';

const MODEL_DIR = join(homedir(), '.cache/attn/models/all-MiniLM-L6-v2');
const MINILM = 'all-MiniLM-L6-v2@53aa51172d142c89';
const TEXT = 'The quick brown fox jumps over the lazy dog. The dog does not move.';
const LINK = `lab=model&model=${MINILM}&text=${encodeURIComponent(TEXT)}&layer=1&head=0`;
/** The grey of a tile with no value (web charts::heatmap::NO_VALUE). */
const GREY = [0x9e, 0x9e, 0x9e];

let browser;
let root;

before(async () => {
  browser = await launch();
  root = tmpRoot();
});

after(async () => {
  await browser?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function analysed(page, id) {
  await page.waitForFunction((want) => {
    const m = window.__attnModel;
    return m && m.result() && !m.busy() && m.configString().includes(`model=${want}&`);
  }, id, { timeout: 240_000 });
}

/** The RGB of the grid `selector`'s tile (layer, head) at (fx, fy) of the tile (device pixels). */
async function tilePixel(page, selector, layer, head, fx, fy) {
  const g = await page.evaluate(() => window.__attnModel.gridGeometry());
  const box = await page.locator(selector).boundingBox();
  const snap = await canvasSnapshot(page, selector, { pixels: true });
  const dpr = snap.width / box.width;
  const x = Math.round((g.x0 + (head + fx) * g.cell) * dpr);
  const y = Math.round((g.y0 + (layer - 1 + fy) * g.cell) * dpr);
  const i = (y * snap.width + x) * 4;
  return [snap.pixels[i], snap.pixels[i + 1], snap.pixels[i + 2]];
}

describe('model lab: an overflow is shown as no value', { skip: (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model') }, () => {
  test('caption, chart note and grey tiles say "no value", never 0; attn encode agrees', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    try {
      await analysed(page, MINILM);
      const paths = writeModel(root, 'overflow', overflowFiles(7));
      await page.setInputFiles('#md-files', paths);
      await page.waitForFunction((m) => {
        const a = window.__attnModel;
        return a.result() && !a.busy() && !a.configString().includes(m) && a.result().variants.every((v) => v.residual.length === 3);
      }, MINILM, { timeout: 120_000 });
      const r = await page.evaluate(() => window.__attnModel.result());
      const finite = (x) => typeof x === 'number' && Number.isFinite(x);
      const byName = Object.fromEntries(r.variants.map((v) => [v.variant, v.residual]));
      for (const v of ['transformer', 'SAN+MLP']) {
        assert.ok(finite(byName[v][0]) && !finite(byName[v][1]) && !finite(byName[v][2]), `${v}: ${JSON.stringify(byName[v])}`);
      }
      for (const v of ['SAN', 'SAN+skip']) assert.ok(byName[v].every(finite), `${v}: ${JSON.stringify(byName[v])}`);

      // The caption: no value, never Number(null).toPrecision(3) = "0.00".
      const caption = await page.locator('#md-res-caption').textContent();
      assert.match(caption, /SAN\+MLP no value \(overflow at layer 1\)/, caption);
      assert.match(caption, /transformer no value \(overflow at layer 1\)/, caption);
      assert.doesNotMatch(caption, /0\.00/, caption);

      // The chart's note (its drawn texts): overflow at layer 1 for both variants.
      await page.locator('#md-residual').scrollIntoViewIfNeeded();
      const labels = await page.evaluate(() => JSON.parse(document.getElementById('md-residual').dataset.labels).map((l) => l.text).join(' | '));
      assert.match(labels, /overflow at layer 1 \(SAN\+MLP, transformer\)/, labels);
      assert.doesNotMatch(labels, /drawn at the floor/, labels);

      // The tiles: layer 2 (fed by layer 1's hidden state, not finite) grey, layer 1 coloured.
      await page.locator('#md-att-grid').scrollIntoViewIfNeeded();
      for (const sel of ['#md-att-grid', '#md-sim-grid']) {
        for (const head of [0, 1]) {
          assert.deepEqual(await tilePixel(page, sel, 2, head, 0.2, 0.8), GREY, `${sel} layer 2 head ${head} is grey`);
          assert.notDeepEqual(await tilePixel(page, sel, 1, head, 0.2, 0.8), GREY, `${sel} layer 1 head ${head} has a value`);
        }
      }

      // attn encode on the same folder: null where the page has no value, listed in non_finite.
      const cli = JSON.parse(await runCli(['encode', '--model', dirname(paths[0]), '--text', TEXT, '--model-name', 'tiny-bert']));
      for (const v of cli.variants) {
        assert.deepEqual(v.residual.map((x) => x === null), byName[v.variant].map((x) => !finite(x)), v.variant);
      }
      assert.deepEqual(cli.non_finite.filter((e) => e.what === 'residual').map((e) => `${e.variant} ${e.layer}`),
        ['SAN+MLP 1', 'SAN+MLP 2', 'transformer 1', 'transformer 2']);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
