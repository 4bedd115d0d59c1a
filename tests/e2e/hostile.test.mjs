// Every link of the hostile corpus (hostile_links.mjs) opened in real Chromium, from a fresh load:
// the lab it asks for shows a visible message naming the wrong key (or, for a valid or empty
// link, runs it without a message), the page still computes (token pixels change after Play; the
// training lab's heatmap grows; the depth lab draws its chart), no dialog opens, no payload sets
// `window.__pwned`, and nothing throws or breaks the Content-Security-Policy.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_URL, canvasSnapshot, launch, watchCsp } from './helpers.mjs';
import { HOSTILE_LINKS } from './hostile_links.mjs';

/** Each lab's panel and error box. */
const BOXES = { particles: 'config-error', training: 'tr-config-error', depth: 'dp-config-error', model: 'md-error' };

/** The model lab's default link (main.js, model/texts.js: the tour's head, layer 2 head 3), canonical. */
const MODEL_DEFAULT = 'version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=The%20quick%20brown%20fox%20jumps%20over%20the%20lazy%20dog.%20The%20dog%20does%20not%20move.%20Later%2C%20the%20fox%20runs%20back%20into%20the%20forest.&layer=2&head=3';

/**
 * The model lab's refusal: its message (plain text, `\`key\`: …`) names the key, and the served
 * model on the first text is analysed instead while the address bar keeps the refused link.
 */
async function modelRefused(link) {
  await page.waitForFunction(() => window.__attnModel?.result() && !window.__attnModel.busy(), null, { timeout: 240_000 });
  const said = await page.locator('#md-error').textContent();
  if (link.key !== undefined) assert.ok(said.startsWith(`\`${link.key}\`: `), `the message names the key ${JSON.stringify(link.key)}: ${JSON.stringify(said)}`);
  assert.match(said, /Showing the served model on “The fox” instead\.$/);
  assert.equal(await page.evaluate(() => window.__attnModel.configString()), MODEL_DEFAULT, 'the default is shown');
  assert.equal(await page.evaluate(() => location.hash), `#${link.hash}`, 'the address bar keeps the refused link');
  return said;
}

/** The model lab analyses `link` (valid) without a message. */
async function modelRuns(link) {
  const expected = await page.evaluate((hash) => window.__attn.wasm.check_link(hash).canonical, link.hash);
  await page.waitForFunction((c) => window.__attnModel?.result() && !window.__attnModel.busy() && window.__attnModel.configString() === c, expected, { timeout: 240_000 });
  assert.equal(await page.locator('#md-error').textContent(), '', 'no message');
  if (link.canonical !== undefined) assert.equal(expected, link.canonical, 'the canonical configuration');
}

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** What went wrong on the page during the current link. */
let problems = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text().slice(0, 300)}`));
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog (${d.type()}): ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  await page.addInitScript(watchCsp);
});

after(async () => {
  await browser?.close();
});

/** The particle lab computes: after Play, the step advances and the token pixels change. */
async function particlesStep() {
  await page.waitForFunction(() => window.__attn.status() !== undefined);
  if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
  await page.waitForFunction(() => !window.__attn.playing());
  const step0 = await page.evaluate(() => window.__attn.step());
  const before = await canvasSnapshot(page, '#tokens');
  await page.click('#play');
  await page.waitForFunction((s) => window.__attn.step() >= s + 5, step0, { timeout: 10_000 });
  await page.waitForFunction(async (hash) => {
    // The canvas is redrawn in the next animation frames.
    const c = document.getElementById('tokens');
    const x = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const d = new Uint8Array(await crypto.subtle.digest('SHA-256', x));
    return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('') !== hash;
  }, before.hash, { timeout: 10_000 });
  assert.ok(before.inked > 100, 'tokens were drawn');
}

/**
 * A run that diverged at step `step`: paused there with its message, the Export
 * menu's data end at that state; Reset takes the run back to its start (then it computes).
 */
async function particlesDiverged(step) {
  await page.waitForFunction(() => !window.__attn.seeking() && window.__attn.status() === 'diverged', null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => window.__attn.step()), step, 'the run is shown at the step it diverged');
  await page.locator('#divergence').waitFor({ state: 'visible' });
  assert.match(await page.locator('#divergence-message').textContent(), new RegExp(`\\(step ${step}\\)`));
  await page.click('#export-menu > summary');
  assert.match(await page.locator('#export-body .hint').textContent(), new RegExp(`, ${step}\\.$`), 'the exports end at the state shown');
  await page.click('#export-menu > summary');
  await page.click('#reset');
  await page.waitForFunction(() => window.__attn.status() !== 'diverged' && window.__attn.step() === 0);
}

/** The training lab computes: iterations advance and the heatmap's pixels change. */
async function trainingSteps() {
  await page.waitForFunction(() => window.__attnTraining && window.__attnTraining.iterations() > 0, null, { timeout: 10_000 });
  const it0 = await page.evaluate(() => window.__attnTraining.iteration());
  const before = await canvasSnapshot(page, '#tr-heatmap');
  if (!(await page.evaluate(() => window.__attnTraining.playing()))) await page.click('#tr-play');
  await page.waitForFunction((i) => window.__attnTraining.iteration() >= i + 3 || window.__attnTraining.status() !== 'running', it0, { timeout: 10_000 });
  await page.waitForTimeout(100);
  assert.notEqual((await canvasSnapshot(page, '#tr-heatmap')).hash, before.hash, 'the heatmap changes');
}

/** The depth lab computes: a variant finishes and the residual chart is drawn. */
async function depthComputes() {
  await page.waitForFunction(() => window.__attnDepth && window.__attnDepth.done() >= 1, null, { timeout: 20_000 });
  await page.waitForTimeout(100);
  assert.ok((await canvasSnapshot(page, '#dp-residual')).inked > 100, 'the residual chart is drawn');
}

describe('hostile links', () => {
  for (const link of HOSTILE_LINKS) {
    test(`${link.lab}: ${link.name}`, async () => {
      problems = [];
      await page.goto('about:blank');
      await page.goto(`${ATTN_URL}#${link.hash}`);
      await page.waitForFunction(() => window.__attnReady === true, null, { timeout: 20_000 });
      const box = BOXES[link.lab];
      assert.equal(await page.isVisible(`#lab-${link.lab}`), true, `the ${link.lab} lab is shown`);
      if (link.lab === 'model') {
        if (link.valid) await modelRuns(link);
        else {
          const said = await modelRefused(link);
          if (link.says !== undefined) assert.ok(said.includes(link.says), `the message says ${JSON.stringify(link.says)}: ${JSON.stringify(said)}`);
          if (link.unsaid !== undefined) assert.ok(!said.includes(link.unsaid), `the message does not say ${JSON.stringify(link.unsaid)}: ${JSON.stringify(said)}`);
        }
      } else if (link.key !== undefined || link.keyPrefix !== undefined) {
        await page.waitForSelector(`#${box} code.key`, { state: 'visible', timeout: 10_000 });
        const key = await page.locator(`#${box} code.key`).textContent();
        if (link.key !== undefined) assert.equal(key, link.key, 'the message names the key');
        else assert.ok(key.startsWith(link.keyPrefix) && key.length <= 41, `the message names the (shortened) key: ${JSON.stringify(key)}`);
        const said = await page.locator(`#${box}`).textContent();
        assert.match(said, /Not applied\./);
        if (link.says !== undefined) assert.ok(said.includes(link.says), `the message says ${JSON.stringify(link.says)}: ${JSON.stringify(said)}`);
      } else {
        await page.waitForTimeout(200);
        assert.equal(await page.locator(`#${box}`).textContent(), '', 'no message');
        const expected = await page.evaluate(({ hash, defaults }) => {
          const w = (window.__attn || window.__attnTraining || window.__attnDepth).wasm;
          return w.check_link(defaults ? '' : hash).canonical;
        }, { hash: link.hash, defaults: Boolean(link.defaults) });
        const shown = await page.evaluate((lab) => (lab === 'training' ? window.__attnTraining.configString()
          : lab === 'depth' ? window.__attnDepth.configString() : window.__attn.configString()), link.lab);
        assert.equal(shown, expected, link.defaults ? 'the default state' : 'the link runs');
        if (link.canonical !== undefined) assert.equal(shown, link.canonical, 'the canonical configuration');
      }
      if (link.diverges !== undefined) await particlesDiverged(link.diverges);
      if (link.lab === 'particles') await particlesStep();
      else if (link.lab === 'training') await trainingSteps();
      else if (link.lab === 'depth') await depthComputes();
      assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no payload ran');
      assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
      assert.deepEqual(problems, [], 'no uncaught error, console error or dialog');
    });
  }
});
