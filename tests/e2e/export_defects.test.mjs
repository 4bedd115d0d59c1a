// Export defects a demanding user found, in real Chromium:
//   - the trajectories CSV and frames JSON of a run that diverged hold the state shown (the
//     last finite one), as `attn run` prints it: a link seeking past the divergence, and a
//     played run;
//   - the Export menu's status line follows the PNG being loaded (an earlier refusal is not
//     left shown during a long seek; an older load finishing late does not overwrite it),
//     and a step the lab shown did not reach is not claimed;
//   - a WebM recording has a Duration and Cues (the EBML is parsed here, independently of
//     www/export/webm_fix.js), and a <video> of it has a finite duration and seeks.
// And the Export menu's PNG buttons: in every lab no two read the same, and a title's
// superscript or subscript keeps its meaning (S = O Oᵀ, cₙ, η_Z).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ATTN_BIN, assertNoErrors, launch, openPage } from './helpers.mjs';
import { CONFIG_KEYWORD, STEP_KEYWORD, withText } from '../../www/export/png_text.js';
import { all, child, floatOf, parseEbml, uintOf } from './ebml.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Opens the Export menu (a click elsewhere closes it). */
async function openMenu(page) {
  if (!(await page.evaluate(() => document.getElementById('export-menu').open))) await page.click('#export-menu > summary');
}

/** Clicks the Export menu's button `label` and returns the download's name and bytes. */
async function exportFile(page, label) {
  await openMenu(page);
  const button = page.locator('#export-body button', { hasText: label }).first();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(await download.path())) };
}

const text = (bytes) => new TextDecoder().decode(bytes);

/** `attn ARGS`' standard output; a diverged run (exit status 3) still prints its frames. */
function cli(args) {
  return new Promise((resolve, reject) => {
    execFile(ATTN_BIN, args, { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && err.code !== 3) reject(new Error(`attn ${args.join(' ')}: ${stderr}`));
      else resolve({ stdout, stderr, code: err ? err.code : 0 });
    });
  });
}

/** The CSV's rows grouped by step (header dropped): Map step -> rows. */
function rowsByStep(csv) {
  const by = new Map();
  for (const row of csv.trimEnd().split('\n').slice(1)) {
    const step = Number(row.split(',')[0]);
    if (!by.has(step)) by.set(step, []);
    by.get(step).push(row);
  }
  return by;
}

/**
 * The particle lab's exports of the run shown (diverged, paused) against `attn run --every dt`:
 * the last exported state is the step shown, and every exported row and frame equals the CLI's.
 * Returns the exported steps.
 */
async function exportsMatchCli(page) {
  const shown = await page.evaluate(() => window.__attn.step());
  assert.equal(await page.evaluate(() => window.__attn.status()), 'diverged');
  assert.match(await page.locator('#status-step').textContent(), new RegExp(`^${shown} /`), 'the status line shows the step');
  assert.match(await page.locator('#divergence-message').textContent(), new RegExp(`\\(step ${shown}\\)`));
  const config = await page.evaluate(() => window.__attn.configString());
  const dt = String(await page.evaluate(() => window.__attn.dt()));
  const n = await page.evaluate(() => window.__attn.n());

  const csv = text((await exportFile(page, 'Trajectories CSV')).bytes);
  const native = await cli(['run', '--config', config, '--every', dt, '--format', 'csv']);
  assert.equal(native.code, 3, 'the CLI run diverges too');
  assert.match(native.stderr, new RegExp(`\\(step ${shown}\\)`), 'at the same step');
  const mine = rowsByStep(csv);
  const theirs = rowsByStep(native.stdout);
  const steps = [...mine.keys()];
  assert.equal(steps.at(-1), shown, `the CSV ends at the step shown (${shown}): ${steps.slice(-5)}`);
  assert.equal([...theirs.keys()].at(-1), shown, 'the CLI prints the step shown last');
  assert.equal(csv.split('\n')[0], native.stdout.split('\n')[0], 'same header');
  for (const s of steps) {
    assert.equal(mine.get(s).length, n, `one row per token at step ${s}`);
    assert.deepEqual(mine.get(s), theirs.get(s), `rows at step ${s} equal the CLI's byte for byte`);
  }

  const json = JSON.parse(text((await exportFile(page, 'Frames JSON')).bytes));
  const nativeJson = JSON.parse((await cli(['run', '--config', config, '--every', dt, '--format', 'json'])).stdout);
  const byStep = new Map(nativeJson.frames.map((f) => [f.step, f]));
  assert.deepEqual(json.frames.map((f) => f.step), steps, 'the JSON holds the same states');
  for (const f of json.frames) {
    const c = byStep.get(f.step);
    assert.equal(f.t, c.t);
    assert.deepEqual(f.tokens, c.tokens, `tokens at step ${f.step}`);
    assert.deepEqual(f.metrics, c.metrics, `metrics at step ${f.step} (null where they overflow)`);
  }
  assert.equal(json.frames.at(-1).metrics, null, 'the attention scores of the last state overflow: no metrics, as the CLI');
  await openMenu(page);
  assert.match(await page.locator('#export-body .hint').textContent(), new RegExp(`${shown}\\.$`), 'the menu lists the step shown last');
  return steps;
}

describe('the exports of a diverged run hold the state shown', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, () => {
  test('a link seeking past the divergence (step 5875): the exports hold steps 0, 3333 (the chart sample on the way) and 5875, as attn run --every 1', async () => {
    const page = await openPage(browser, 'version=2&preset=hyperplanes&dt=1&until=1e6&t=1e6');
    try {
      await page.waitForFunction(() => !window.__attn.seeking() && window.__attn.status() === 'diverged', null, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => window.__attn.step()), 5875);
      // until/dt = 1e6 steps: the chart samples every 3333 steps, and a seek takes them on its way.
      assert.deepEqual(await exportsMatchCli(page), [0, 3333, 5875]);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a played run diverging at step 510: the exports end at step 510, as attn run prints it', async () => {
    // Raw tokens growing like e^(10 t), integrated in x: the attention scores overflow at step 510.
    const page = await openPage(browser, 'version=4&preset=polytope&integrate_in=x&coords=x&v=10,0;0,10&until=100');
    try {
      await page.waitForFunction(() => window.__attn.status() === 'diverged', null, { timeout: 60_000 });
      await page.waitForFunction(() => !document.getElementById('divergence').hidden);
      assert.equal(await page.evaluate(() => window.__attn.step()), 510);
      const steps = await exportsMatchCli(page);
      assert.ok(steps.length > 100, `the played run recorded many states: ${steps.length}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

/** The Export menu's status line. */
const status = (page) => page.locator('#export-body .export-status').textContent();

/** Loads a PNG with `bytes` through the menu's file input (as Open a PNG… does). */
async function loadPng(page, bytes, name) {
  await openMenu(page);
  await page.setInputFiles('#png-input', { name, mimeType: 'image/png', buffer: Buffer.from(bytes) });
}

describe('the status line follows the PNG being loaded', () => {
  test('a refused file, then a long seek, then a training PNG with a step: each file\'s own message, the step claimed only when reached', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&seed=2');
    try {
      const png = (await exportFile(page, 'Tokens')).bytes;
      await loadPng(page, withText(png, [[CONFIG_KEYWORD, 'version=4&preset=polytope&beta=-1']]), 'refused.png');
      await page.waitForFunction(() => /^Not loaded: beta/.test(document.querySelector('#export-body .export-status').textContent));

      // A large valid step: while the run is computed to it the line names this file, not the
      // refusal before it.
      const big = withText(png, [[CONFIG_KEYWORD, 'version=4&preset=polytope&seed=2&n=300&until=1000'], [STEP_KEYWORD, '9000']]);
      await loadPng(page, big, 'big.png');
      await page.waitForFunction(() => window.__attn.seeking() && window.__attn.n() === 300, null, { timeout: 20_000 });
      assert.equal(await status(page), 'Loading big.png: computing the run to step 9000…');
      await page.waitForFunction(() => !window.__attn.seeking(), null, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => window.__attn.step()), 9000);
      assert.equal(await status(page), 'Loaded big.png at step 9000.');

      // A step past the run's divergence is not reached: not claimed.
      await loadPng(page, withText(png, [[CONFIG_KEYWORD, 'version=2&preset=hyperplanes&dt=1&until=1e6'], [STEP_KEYWORD, '9000']]), 'diverges.png');
      await page.waitForFunction(() => window.__attn.status() === 'diverged' && !window.__attn.seeking(), null, { timeout: 60_000 });
      await page.waitForFunction(() => /^Loaded diverges/.test(document.querySelector('#export-body .export-status').textContent));
      assert.equal(await page.evaluate(() => window.__attn.step()), 5875);
      assert.equal(await status(page), 'Loaded diverges.png, but not at its step 9000: the run stopped at step 5875.');

      // Another long seek, overtaken by a training PNG carrying a step: the older load never
      // speaks again; the training lab is shown at the step the line claims.
      await loadPng(page, big, 'big-again.png');
      await page.waitForFunction(() => window.__attn.seeking() && window.__attn.n() === 300, null, { timeout: 20_000 });
      await loadPng(page, withText(png, [[CONFIG_KEYWORD, 'version=7&lab=training&preset=scan-snap'], [STEP_KEYWORD, '50']]), 'training.png');
      await page.waitForFunction(() => !document.getElementById('lab-training').hidden, null, { timeout: 20_000 });
      await page.waitForFunction(() => /^Loaded training/.test(document.querySelector('#export-body .export-status').textContent), null, { timeout: 20_000 });
      assert.equal(await status(page), 'Loaded training.png at step 50.');
      // The particle lab's seek (hidden) ends; the line still speaks of the training PNG.
      await page.waitForFunction(() => !window.__attn.seeking(), null, { timeout: 60_000 });
      await page.waitForTimeout(300);
      assert.equal(await status(page), 'Loaded training.png at step 50.');
      assert.equal(await page.evaluate(() => window.__attnTraining.iteration()), 50, 'the training lab is at the step claimed');
      assert.equal(await page.evaluate(() => window.__attnTraining.playing()), false, 'paused there');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});

describe('a WebM recording has a Duration and Cues, and seeks', () => {
  test('Record WebM for 10 s, Stop: Duration within 0.5 s of the time recorded, Cues pointing at Clusters; a <video> of it has that duration and seeks to its middle', async () => {
    // A run that keeps moving for the whole recording (until = 10000: it plays for minutes), so
    // the recording has several key frames and Clusters.
    const page = await openPage(browser, 'version=4&preset=polytope&seed=4&until=10000');
    try {
      // The time recorded lies between `shortest` (from the recording seen started to the Stop
      // click) and `longest` (from the Record click to the file saved).
      await openMenu(page);
      const clicked = Date.now();
      await page.click('#export-body #export-record');
      await page.waitForFunction(() => window.__attnExport.recording());
      const started = Date.now();
      await page.waitForTimeout(10_000);
      await openMenu(page);
      const stopping = Date.now();
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-body #export-record')]);
      const shortest = (stopping - started) / 1000;
      const longest = (Date.now() - clicked) / 1000;
      const webm = new Uint8Array(await readFile(await download.path()));
      assert.match(download.suggestedFilename(), /\.webm$/);

      // The EBML, read with the tests' own parser: every size known, one Segment to the end.
      const tree = parseEbml(webm);
      assert.deepEqual(tree.map((e) => e.id), [0x1a45dfa3, 0x18538067], 'EBML header, then the Segment');
      const segment = tree[1];
      assert.equal(segment.end, webm.length);
      const info = child(segment, 0x1549a966);
      const scaleEl = child(info, 0x2ad7b1);
      const scale = scaleEl ? uintOf(webm, scaleEl) : 1e6;
      const durationEl = child(info, 0x4489);
      assert.ok(durationEl, 'Info has a Duration');
      const duration = (floatOf(webm, durationEl) * scale) / 1e9;
      assert.ok(duration >= shortest - 0.5 && duration <= longest + 0.5, `Duration ${duration} s within 0.5 s of the time recorded (${shortest} to ${longest} s)`);
      const cues = child(segment, 0x1c53bb6b);
      assert.ok(cues, 'the Segment has Cues');
      const points = all(cues, 0xbb);
      assert.ok(points.length >= 1, 'at least one CuePoint');
      const clusters = new Map(all(segment, 0x1f43b675).map((c) => [c.at - segment.dataAt, c]));
      for (const p of points) {
        const pos = uintOf(webm, child(child(p, 0xb7), 0xf1));
        assert.ok(clusters.has(pos), `CueClusterPosition ${pos} is the start of a Cluster`);
        assert.ok((uintOf(webm, child(p, 0xb3)) * scale) / 1e9 <= duration, 'CueTime within the Duration');
      }
      assert.match(await page.locator('#export-body .export-status').textContent(), new RegExp(`\\(\\d+ kB, ${duration.toFixed(1)} s\\)\\.$`));

      // Chromium plays it: a finite duration, and a seek to the middle lands there.
      const played = await page.evaluate(async (b64) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const video = document.createElement('video');
        video.muted = true;
        video.src = URL.createObjectURL(new Blob([data], { type: 'video/webm' }));
        document.body.append(video);
        await new Promise((resolve, reject) => {
          video.addEventListener('loadedmetadata', resolve, { once: true });
          video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}: ${video.error?.message}`)), { once: true });
        });
        const total = video.duration;
        if (!Number.isFinite(total)) return { total: String(total) };
        const seeked = new Promise((resolve) => video.addEventListener('seeked', () => resolve(true), { once: true }));
        video.currentTime = total / 2;
        const landed = await Promise.race([seeked, new Promise((resolve) => { setTimeout(() => resolve(false), 5000); })]);
        return { total, landed, at: video.currentTime, width: video.videoWidth, src: video.src };
      }, Buffer.from(webm).toString('base64'));
      assert.equal(typeof played.total, 'number', `<video>.duration is finite: ${played.total}`);
      assert.ok(Math.abs(played.total - duration) < 0.05, `<video>.duration ${played.total} is the file's Duration ${duration}`);
      assert.equal(played.landed, true, 'seeked fired');
      assert.ok(Math.abs(played.at - duration / 2) < 0.1, `currentTime ${played.at} is the middle (${duration / 2})`);
      assert.equal(played.width, await page.evaluate(() => document.getElementById('tokens').width), 'the token canvas\'s size');
      // The media loader aborts its own range requests of the test's blob: URL (seeking).
      page.errors = page.errors.filter((e) => !(e.startsWith('requestfailed:') && e.includes(played.src)));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('every lab: the PNG buttons are told apart, maths kept', { timeout: 300_000 }, async () => {
    const want = { model: /S = O Oᵀ|Grid of attention maps/, depth: /Grid of context similarity/, training: /cₙ/, particles: /Attention P\(t\)/ };
    for (const [lab, link] of [['particles', 'version=4&preset=polytope'], ['training', 'lab=training'], ['depth', 'lab=depth&preset=context-text'], ['model', 'lab=model']]) {
      const page = await openPage(browser, link);
      try {
        // Every panel drawn: the menu lists only canvases with a picture.
        await page.waitForFunction((id) => {
          const main = document.getElementById(`lab-${id}`);
          const shown = [...main.querySelectorAll('canvas')].filter((c) => c.getClientRects().length > 0);
          return shown.length > 0 && shown.every((c) => c.width > 0 && c.height > 0) && (id !== 'model' || window.__attnModel?.result());
        }, lab, { timeout: 240_000 });
        await page.click('#export-menu summary');
        const texts = await page.locator('#export-body .export-group').first().locator('button').allTextContents();
        assert.ok(texts.length >= 3, `${lab}: ${texts}`);
        assert.equal(new Set(texts).size, texts.length, `${lab}: two PNG buttons read the same: ${JSON.stringify(texts)}`);
        assert.ok(texts.some((t) => want[lab].test(t)), `${lab}: ${JSON.stringify(texts)}`);
        assert.ok(!texts.some((t) => /O OT|\bcn\b|ηZ/.test(t)), `${lab}: a lost superscript or subscript: ${JSON.stringify(texts)}`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });
});
