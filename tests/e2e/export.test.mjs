// The Export menu in real Chromium: a PNG of a canvas holds the configuration (and the step) in
// a tEXt chunk and loads back to the same state bit for bit (file input and drop); a PNG with a
// bad configuration is refused with the key named and the run kept; the trajectory CSV rows and
// the frames JSON equal `attn run` at the same steps; the configuration JSON; a WebM recording.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { CONFIG_KEYWORD, STEP_KEYWORD, chunk, chunks, readText, withText } from '../../www/export/png_text.js';

/** `png` with its attn-config tEXt chunk followed by a second one, an iTXt holding `text`. */
function secondConfig(png, text) {
  const first = chunks(png).find((c) => c.type === 'tEXt');
  const utf8 = new TextEncoder().encode(`${CONFIG_KEYWORD}\0\0\0\0\0${text}`);
  const extra = chunk('iTXt', utf8);
  const out = new Uint8Array(png.length + extra.length);
  out.set(png.subarray(0, first.end));
  out.set(extra, first.end);
  out.set(png.subarray(first.end), first.end + extra.length);
  return out;
}

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Pauses the particle run and waits until it is paused. */
async function pause(page) {
  if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
  await page.waitForFunction(() => !window.__attn.playing());
}

/** The particle lab's tokens (in coords) as base64 of their f64 bytes. */
function tokenBytes(page) {
  return page.evaluate(() => {
    const x = window.__attn.tokens();
    const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  });
}

/** Opens the Export menu (a click elsewhere closes it). */
async function openMenu(page) {
  if (!(await page.evaluate(() => document.getElementById('export-menu').open))) await page.click('#export-menu > summary');
}

/** Clicks the Export menu's button `label` and returns the download's name and bytes. */
async function exportFile(page, label) {
  await openMenu(page);
  const button = page.locator('#export-body button', { hasText: label }).first();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const bytes = new Uint8Array(await readFile(await download.path()));
  return { name: download.suggestedFilename(), bytes };
}

/** Drops a file with `bytes` on the page, as a user dragging it from their desktop would. */
async function dropFile(page, bytes, name) {
  await page.evaluate(({ b64, name }) => {
    const bin = atob(b64);
    const data = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], name, { type: 'image/png' }));
    const target = document.querySelector('#tokens');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { b64: Buffer.from(bytes).toString('base64'), name });
}

const waitRestored = (page, config, step) => page.waitForFunction(
  ({ config, step }) => window.__attn.configString() === config && window.__attn.step() === step && !window.__attn.seeking(),
  { config, step },
  { timeout: 20_000 },
);

describe('export', () => {
  test('a PNG of the token canvas holds the configuration and loads back to the same state, bit for bit', async () => {
    const page = await openPage(browser, 'preset=polytope&seed=5&n=24');
    try {
      await page.waitForFunction(() => window.__attn.step() >= 23);
      await pause(page);
      const config = await page.evaluate(() => window.__attn.configString());
      const step = await page.evaluate(() => window.__attn.step());
      const tokens = await tokenBytes(page);

      const png = await exportFile(page, 'Tokens');
      assert.match(png.name, new RegExp(`^attn-polytope-step${step}-tokens\\.png$`));
      const text = readText(png.bytes);
      assert.equal(text.get(CONFIG_KEYWORD), config, 'the tEXt chunk holds the canonical configuration');
      assert.equal(text.get(STEP_KEYWORD), String(step));
      // Chromium decodes the file: same size as the canvas.
      const size = await page.evaluate(async (b64) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bmp = await createImageBitmap(new Blob([data], { type: 'image/png' }));
        const c = document.getElementById('tokens');
        return [bmp.width, bmp.height, c.width, c.height];
      }, Buffer.from(png.bytes).toString('base64'));
      assert.deepEqual(size.slice(0, 2), size.slice(2), 'the PNG decodes to the canvas size');

      // Elsewhere (another preset, another step), then the file input: the exact state returns.
      await page.selectOption('#preset', 'hyperplanes');
      await page.waitForFunction(() => window.__attn.configString().includes('hyperplanes'));
      await page.setInputFiles('#png-input', { name: 'run.png', mimeType: 'image/png', buffer: Buffer.from(png.bytes) });
      await waitRestored(page, config, step);
      assert.equal(await tokenBytes(page), tokens, 'tokens equal bit for bit after loading the PNG');
      assert.equal(await page.evaluate(() => window.__attn.playing()), false, 'loaded paused at the step');
      assert.match(await page.evaluate(() => location.hash), /preset=polytope/);

      // The same by drag and drop, from a later step of the same run (computed again from t = 0).
      await page.click('#reset');
      await page.waitForFunction(() => window.__attn.step() === 0);
      await dropFile(page, png.bytes, 'dropped.png');
      await waitRestored(page, config, step);
      assert.equal(await tokenBytes(page), tokens, 'tokens equal bit for bit after dropping the PNG');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a PNG whose configuration is bad is refused with the key named; the run is kept', async () => {
    const page = await openPage(browser, 'preset=polytope&seed=2');
    try {
      await pause(page);
      const png = await exportFile(page, 'Attention');
      const config = await page.evaluate(() => window.__attn.configString());
      const step = await page.evaluate(() => window.__attn.step());
      const cases = [
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, 'preset=polytope&beta=-1']]), key: 'beta' },
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, 'preset=<img src=x onerror=window.__pwned=1>']]), key: 'preset' },
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, 'preset=polytope&n=4096&d=256']]), key: 'n' },
        { bytes: withText(png.bytes, [[STEP_KEYWORD, '-3']]), key: 'attn-step' },
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, '']]).subarray(0, 60), key: 'file' },
        // Two attn-config chunks (tEXt, then iTXt): ambiguous, like a link's repeated key.
        { bytes: secondConfig(withText(png.bytes, [[CONFIG_KEYWORD, 'version=2&preset=leaders']]), 'version=2&preset=hyperplanes'), key: CONFIG_KEYWORD, says: 'appears more than once in the PNG (a tEXt and an iTXt chunk)' },
        // Control characters in the chunk's text are shown escaped, as in a link.
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, 'version=2&preset=polytope\u0000']]), key: 'preset', says: 'unknown preset "polytope\\u{0}"' },
        { bytes: withText(png.bytes, [[CONFIG_KEYWORD, 'version=2&preset=polytope\u001b[31m']]), key: 'preset', says: 'unknown preset "polytope\\u{1b}[31m"' },
      ];
      // A PNG without the chunk (the canvas as the browser encodes it).
      const plain = await page.evaluate(async () => {
        const blob = await new Promise((r) => document.getElementById('tokens').toBlob(r, 'image/png'));
        return btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
      });
      cases.push({ bytes: Buffer.from(plain, 'base64'), key: CONFIG_KEYWORD });
      for (const c of cases) {
        await page.evaluate(() => document.getElementById('config-error').replaceChildren());
        await dropFile(page, c.bytes, 'bad.png');
        await page.waitForFunction(() => document.querySelector('#config-error code.key') !== null);
        assert.equal(await page.locator('#config-error code.key').textContent(), c.key);
        const said = await page.locator('#config-error').textContent();
        assert.match(said, /PNG was not loaded; the last good run keeps going/);
        if (c.says) assert.ok(said.includes(c.says), `the message says ${JSON.stringify(c.says)}: ${JSON.stringify(said)}`);
        assert.equal(await page.evaluate(() => window.__attn.configString()), config, 'the run is kept');
        assert.equal(await page.evaluate(() => window.__attn.step()), step);
      }
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the metrics CSV has the hyperplanes count after energy, as attn run prints it', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, async () => {
    const page = await openPage(browser, 'version=4&preset=hyperplanes&v=1,0.5;0.2,0.3&until=8&speed=20');
    try {
      await page.waitForFunction(() => window.__attn.status() === 'finished', null, { timeout: 30_000 });
      const config = await page.evaluate(() => window.__attn.configString());
      const rows = new TextDecoder().decode((await exportFile(page, 'Metrics CSV')).bytes).trimEnd().split('\n');
      assert.equal(rows[0], 'step,t,clusters,boolean_distance,effective_rank,energy,hyperplanes');
      const native = JSON.parse(await runCli(['run', '--config', config, '--format', 'json', '--every', '0.1']));
      const byStep = new Map(native.frames.map((f) => [f.step, f.metrics]));
      assert.ok(rows.length > 5);
      for (const row of rows.slice(1)) {
        const cells = row.split(',');
        const m = byStep.get(Number(cells[0]));
        assert.equal(cells[5], '', 'energy is not defined');
        assert.equal(cells[6], String(m.hyperplanes), `hyperplanes at step ${cells[0]}`);
      }
      // At t = 8 the tokens are near their lines: 1 to 3 by the theorem, fewer than the tokens.
      const last = Number(rows.at(-1).split(',')[6]);
      assert.ok(last >= 1 && last < 40, `hyperplanes ${last}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('trajectory CSV rows and frames JSON equal `attn run` at the same steps', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, async () => {
    const page = await openPage(browser, 'preset=polytope-3d&seed=9&n=12&until=3');
    try {
      await page.waitForFunction(() => window.__attn.status() === 'finished', null, { timeout: 30_000 });
      const config = await page.evaluate(() => window.__attn.configString());
      const csv = new TextDecoder().decode((await exportFile(page, 'Trajectories CSV')).bytes).trimEnd().split('\n');
      const native = (await runCli(['run', '--config', config, '--format', 'csv'])).trimEnd().split('\n');
      assert.equal(csv[0], native[0], 'same header');
      assert.equal(csv[0], 'step,t,i,coord_0,coord_1,coord_2');
      const steps = [...new Set(csv.slice(1).map((r) => Number(r.split(',')[0])))];
      assert.ok(steps.length >= 5, `the page recorded several states: ${steps}`);
      assert.ok(steps.includes(0) && steps.includes(30), `first and last step recorded: ${steps}`);
      const wanted = new Set(steps);
      const nativeRows = native.slice(1).filter((r) => wanted.has(Number(r.split(',')[0])));
      assert.equal(csv.length - 1, steps.length * 12, 'one row per token per recorded state');
      assert.deepEqual(csv.slice(1), nativeRows, 'rows equal byte for byte');

      const json = JSON.parse(new TextDecoder().decode((await exportFile(page, 'Frames JSON')).bytes));
      const nativeJson = JSON.parse(await runCli(['run', '--config', config, '--format', 'json']));
      assert.equal(json.config, nativeJson.config);
      const byStep = new Map(nativeJson.frames.map((f) => [f.step, f]));
      assert.deepEqual(json.frames.map((f) => f.step), steps);
      for (const f of json.frames) {
        const n = byStep.get(f.step);
        assert.equal(f.t, n.t);
        assert.deepEqual(f.tokens, n.tokens, `tokens at step ${f.step}`);
        assert.deepEqual(f.metrics, n.metrics, `metrics at step ${f.step}`);
      }

      const metrics = new TextDecoder().decode((await exportFile(page, 'Metrics CSV')).bytes).trimEnd().split('\n');
      assert.equal(metrics[0], 'step,t,clusters,boolean_distance,effective_rank,energy,hyperplanes');
      assert.equal(metrics.length - 1, steps.length);
      const [s, t, clusters, bd, , energy, hyperplanes] = metrics.at(-1).split(',');
      const last = byStep.get(Number(s));
      assert.equal(Number(t), last.t);
      assert.equal(Number(clusters), last.metrics.clusters);
      assert.equal(Number(bd), last.metrics.boolean_distance);
      // polytope-3d: V = I has no simple top eigenvalue, so both are empty (null in attn run).
      assert.equal(energy, '');
      assert.equal(hyperplanes, '');
      assert.equal(last.metrics.hyperplanes, null);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('configuration JSON, a WebM recording, and PNGs of the training and depth labs', async () => {
    const page = await openPage(browser, 'preset=sphere-sa&n=16');
    try {
      const cfg = JSON.parse(new TextDecoder().decode((await exportFile(page, 'Configuration JSON')).bytes));
      assert.equal(cfg.lab, 'particles');
      assert.equal(cfg.config, await page.evaluate(() => window.__attn.configString()));
      assert.equal(cfg.keys.n, '16');
      assert.equal(cfg.keys.model, 'sphere-sa');
      assert.equal(cfg.keys.version, '1', 'an old link (no version) keeps version 1, and the keys say so');

      // Recording while the run plays: a WebM file (EBML magic) of a few kB at least.
      if (!(await page.evaluate(() => window.__attn.playing()))) await page.click('#play');
      await openMenu(page);
      await page.click('#export-body #export-record');
      await page.waitForFunction(() => window.__attnExport.recording());
      await page.waitForTimeout(1500);
      await openMenu(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-body #export-record')]);
      const webm = new Uint8Array(await readFile(await download.path()));
      assert.match(download.suggestedFilename(), /\.webm$/);
      assert.deepEqual([...webm.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'EBML header (WebM)');
      assert.ok(webm.length > 2000, `non-empty recording (${webm.length} bytes)`);
      const last = await page.evaluate(() => window.__attnExport.lastDownload());
      assert.equal(last.type, 'video/webm');
      assert.equal(last.size, webm.length);

      // The training lab: its canvases are offered; the PNG holds its configuration and opens it.
      // (Clicking the tab closes the menu; exportFile opens it again, listing the lab shown.)
      await page.click('#tab-training');
      await page.waitForFunction(() => window.__attnTraining?.iteration() > 3, null, { timeout: 20_000 });
      const training = await exportFile(page, 'Loss');
      const trainingConfig = await page.evaluate(() => window.__attnTraining.configString());
      assert.equal(readText(training.bytes).get(CONFIG_KEYWORD), trainingConfig);
      assert.equal(readText(training.bytes).has(STEP_KEYWORD), false);
      await page.click('#tab-particles');
      await page.waitForFunction(() => !document.getElementById('lab-particles').hidden);
      await page.setInputFiles('#png-input', { name: 't.png', mimeType: 'image/png', buffer: Buffer.from(training.bytes) });
      await page.waitForFunction(() => !document.getElementById('lab-training').hidden);
      assert.equal(await page.evaluate(() => window.__attnTraining.configString()), trainingConfig);

      await page.click('#tab-depth');
      await page.waitForFunction(() => window.__attnDepth?.done() >= 1, null, { timeout: 30_000 });
      const depth = await exportFile(page, 'Rank collapse');
      assert.equal(readText(depth.bytes).get(CONFIG_KEYWORD), await page.evaluate(() => window.__attnDepth.configString()));
      assert.ok((await canvasSnapshot(page, '#dp-residual')).inked > 100);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
