// Browser tests of the model lab's head panel (www/model/head_panel.js): the chosen head's
// eigenvalues of V_h and S_h and §1.3's verdict equal `attn encode --spectrum L,H` and
// `--head-dynamics L,H`'s verdict bit for bit, follow a head picked on the grid, are drawn (one
// dot per distinct V_h eigenvalue in the complex plane) and worded from those numbers.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { LINK, MODEL_DIR, analysed } from './model_helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** attn encode's spectrum and verdict of head `layer,head` on `config`. */
async function cliHead(config, layer, head) {
  const out = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config, '--spectrum', `${layer},${head}`,
    '--head-dynamics', `${layer},${head}`, '--until', '0.01']));
  return { spectrum: out.spectrum[0], verdict: out.head_dynamics.verdict };
}

/** Asserts the page's spectrum equals the CLI's, every number by Object.is (the same bits). */
function sameBits(page, cli, what) {
  assert.equal(page.v.length, cli.spectrum.v.length, `${what}: d_model eigenvalues of V_h`);
  for (const key of ['v', 's']) {
    page[key].forEach((e, k) => {
      assert.ok(Object.is(e[0], cli.spectrum[key][k][0]) && Object.is(e[1], cli.spectrum[key][k][1]),
        `${what} ${key}[${k}]: page ${e} against attn encode ${cli.spectrum[key][k]}`);
    });
  }
  assert.deepEqual(page.verdict, cli.verdict, `${what}: the verdict`);
}

describe('model lab: the chosen head as a particle system', () => {
  test('the spectra and the verdict equal attn encode bit for bit, follow a picked head, and are drawn and worded', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK);
    try {
      await analysed(page);
      let sp = await page.evaluate(() => window.__attnModel.spectrum());
      assert.deepEqual([sp.layer, sp.head], [2, 3]);
      const config = await page.evaluate(() => window.__attnModel.configString());
      sameBits(sp, await cliHead(config, 2, 3), 'layer 2 head 3');

      // The verdict's sentence says what the numbers say.
      const text = await page.textContent('#md-verdict');
      assert.match(text, /^Layer 2, head 3\. λ₁ = /);
      const v = sp.verdict;
      if (v.hyperplanes_row) assert.match(text, /the hyperplanes row applies/);
      else if (!v.real) assert.match(text, /is not real/);
      else if (!v.positive) assert.match(text, /is not positive/);
      else if (!v.simple) assert.match(text, /is not simple/);
      else assert.match(text, /condition fails by/);
      assert.match(text, /And rank S_h ≤ 2d_k = 64 < d_model = 384/);
      // The list: the largest 6 of each, as numbers the page holds.
      const rows = await page.$$eval('#md-eigs tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
      assert.equal(rows.length, 7);
      assert.equal(Number(rows[1][1].split(' ')[0]), Number(sp.v[0][0].toPrecision(4)));

      // Drawn: accent-coloured dots where V_h's eigenvalues are (the plot is not blank).
      const snap = await canvasSnapshot(page, '#md-spectrum', { pixels: true });
      let coloured = 0;
      for (let i = 0; i < snap.pixels.length; i += 4) {
        const [r, g, b] = [snap.pixels[i], snap.pixels[i + 1], snap.pixels[i + 2]];
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
      }
      assert.ok(coloured > 100, `coloured pixels on the spectrum plot: ${coloured}`);

      // Picking another head on the grid (by keyboard: focus, Home, up to layer 1, Enter) shows its spectrum.
      await page.focus('#md-att-grid');
      await page.keyboard.press('Home');
      for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__attnModel.spectrum()?.layer === 1 && window.__attnModel.spectrum()?.head === 0 && !window.__attnModel.busy(), null, { timeout: 120_000 });
      sp = await page.evaluate(() => window.__attnModel.spectrum());
      const config2 = await page.evaluate(() => window.__attnModel.configString());
      // Layer 1, head 0 are the keys' defaults: the canonical link leaves them out.
      assert.doesNotMatch(config2, /&(layer|head)=/);
      sameBits(sp, await cliHead(config2, 1, 0), 'layer 1 head 0');
      assert.match(await page.textContent('#md-verdict'), /^Layer 1, head 0\./);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
