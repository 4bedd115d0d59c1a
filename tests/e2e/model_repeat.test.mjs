// The model lab's "A layer repeated" (science.md §7.4, docs/model-lab.md): the page's run of the
// served all-MiniLM-L6-v2's layer repeated equals `attn encode --repeat` bit for bit (each listed
// repetition's clusters, labels and mean cosine), whether the CLI reads the page's link or the
// flags; the panel draws the repetitions; its controls (layer, repetitions, variant, Run) write
// the link's keys repeat_layer, iterations and variant, and the link reopens the same run; a bad
// value of these keys is refused naming the key.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { LINK, MODEL_DIR, analysed } from './model_helpers.mjs';
import { repeatOverflowFiles, tmpRoot, writeModel } from './tiny_bert.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Waits for the repeated layer's run of `states` states, and returns it as plain arrays. */
async function repeated(page, states) {
  await page.waitForFunction((s) => window.__attnModel.repeatView()?.states === s, states, { timeout: 240_000 });
  return page.evaluate(() => {
    const v = window.__attnModel.repeatView();
    return {
      n: v.n, states: v.states, layer: v.layer, variant: v.variant, iterations: v.iterations, done: v.done, stopped: v.stopped,
      clusters: Array.from(v.clusters), labels: Array.from(v.labels), mean_cos: Array.from(v.mean_cos),
      heads: v.heads, boolean_distance: Array.from(v.boolean_distance), leaders: Array.from(v.leaders),
    };
  });
}

/** Every listed step of the CLI's "repeat" section `cli` equals the page's run `got`, bit for bit. */
function sameRun(got, cli) {
  assert.equal(cli.stopped, null);
  assert.equal(got.stopped, null);
  assert.equal(got.layer, cli.layer);
  assert.equal(got.variant, cli.variant);
  assert.equal(cli.steps.length, got.states, 'every repetition 0..=T listed (every = 1)');
  for (const s of cli.steps) {
    const t = s.iteration;
    assert.ok(Object.is(got.clusters[t], s.clusters), `clusters at ${t}: page ${got.clusters[t]} cli ${s.clusters}`);
    assert.deepEqual(got.labels.slice(t * got.n, (t + 1) * got.n), s.labels, `labels at ${t}`);
    assert.ok(Object.is(got.mean_cos[t], s.mean_cos), `mean_cos at ${t}: page ${got.mean_cos[t]} cli ${s.mean_cos}`);
    // Each head's Boolean distance and leaders (science.md §1.7) of the layer's P at repetition t.
    assert.equal(s.heads.length, got.heads);
    s.heads.forEach((hb, hd) => {
      const b = got.boolean_distance[t * got.heads + hd];
      assert.ok(Object.is(b, hb.boolean_distance), `Boolean distance at ${t}, head ${hd}: page ${b} cli ${hb.boolean_distance}`);
      const at = (t * got.heads + hd) * got.n;
      const lead = [];
      for (let j = 0; j < got.n; j++) if (got.leaders[at + j]) lead.push(j);
      assert.deepEqual(lead, hb.leaders, `leaders at ${t}, head ${hd}`);
    });
  }
}

const hashOf = (page) => page.evaluate(() => decodeURIComponent(location.hash.slice(1)));
const skip = (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model');

describe('model lab: a layer repeated', { skip }, () => {
  test('a link with repeat_layer runs it; the page equals attn encode --repeat bit for bit', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, `${LINK}&repeat_layer=3&iterations=60`, { viewport: { width: 1280, height: 900 } });
    await analysed(page);
    const got = await repeated(page, 61);
    const config = await page.evaluate(() => window.__attnModel.configString());
    assert.ok(config.includes('&repeat_layer=3&iterations=60&layer=2&head=3'), config);
    assert.equal(await hashOf(page), decodeURIComponent(config));
    assert.equal(got.done, 60);
    // The CLI reads the page's link whole, or the same run from its flags.
    const fromLink = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config])).repeat;
    sameRun(got, fromLink);
    const plain = config.replace('&repeat_layer=3&iterations=60', '');
    const fromFlags = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', plain, '--repeat', '3', '--iterations', '60'])).repeat;
    assert.deepEqual(fromFlags, fromLink);
    // The table shows every repetition's numbers exactly.
    const table = await page.$$eval('#md-repeat-stats tr', (rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (c) => Number(c.dataset.value))));
    assert.equal(table.length, 61);
    table.forEach(([clusters, mean], t) => assert.ok(Object.is(clusters, got.clusters[t]) && Object.is(mean, got.mean_cos[t]), `row ${t}`));
    // Drawn at the last repetition, coloured by cluster; the slider goes back to repetition 0.
    await page.locator('#md-repeat-tokens').scrollIntoViewIfNeeded();
    for (const id of ['md-repeat-tokens', 'md-repeat-hist']) {
      const snap = await canvasSnapshot(page, `#${id}`);
      assert.ok(snap.width > 50 && snap.inked > snap.width * 5, `#${id} is drawn (${snap.width}x${snap.height}, ${snap.inked} inked)`);
    }
    assert.equal(await page.evaluate(() => window.__attnModel.repeatShown()), 60);
    // The heads: one chart line per head, the table of the repetition shown (its numbers the
    // CLI's), and the chosen head's attention heatmap (the link's head, 3).
    await page.locator('#md-repeat-heat').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.__attnModel.repeatHeads()?.heat === '60,3', null, { timeout: 30_000 });
    for (const id of ['md-repeat-bool', 'md-repeat-heat']) {
      const snap = await canvasSnapshot(page, `#${id}`);
      assert.ok(snap.width > 50 && snap.inked > snap.width * 5, `#${id} is drawn (${snap.width}x${snap.height}, ${snap.inked} inked)`);
    }
    const headRows = await page.$$eval('#md-repeat-heads-stats tr', (rows) => rows.map((r) => Number(r.querySelector('td').dataset.value)));
    assert.equal(headRows.length, got.heads);
    const last = fromLink.steps.at(-1);
    headRows.forEach((b, hd) => assert.ok(Object.is(b, last.heads[hd].boolean_distance), `head ${hd} row: ${b}`));
    const heat0 = await canvasSnapshot(page, '#md-repeat-heat');
    await page.selectOption('#md-repeat-head', '0');
    await page.waitForFunction(() => window.__attnModel.repeatHeads()?.heat === '60,0', null, { timeout: 30_000 });
    assert.notEqual((await canvasSnapshot(page, '#md-repeat-heat')).hash, heat0.hash, 'head 0 is drawn instead');
    assert.equal(await page.$eval('#md-repeat-colour', (s) => s.value), 'clusters');
    assert.match(await page.$eval('#md-repeat-status', (s) => s.textContent), /layer 3 \(transformer\) repeated 60 times/);
    const before = await canvasSnapshot(page, '#md-repeat-tokens');
    await page.locator('#md-repeat-range').fill('0');
    assert.equal(await page.evaluate(() => window.__attnModel.repeatShown()), 0);
    assert.notEqual((await canvasSnapshot(page, '#md-repeat-tokens')).hash, before.hash, 'repetition 0 is drawn elsewhere');
    await page.locator('#md-repeat-tokens').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => window.__attnModel.repeatShown()), 1);
    // The repetition shown is in the link (view key step), the same analysis (no new run).
    assert.ok((await hashOf(page)).endsWith('&iterations=60&layer=2&head=3&step=1'), await hashOf(page));
    await page.click('#md-repeat-step');
    assert.equal(await page.evaluate(() => window.__attnModel.repeatShown()), 2);
    assert.ok((await hashOf(page)).endsWith('&step=2'), await hashOf(page));
    // Play steps through the repetitions; Pause writes the one it stopped at.
    await page.click('#md-repeat-play');
    await page.waitForFunction(() => window.__attnModel.repeatShown() >= 5, null, { timeout: 10_000 });
    await page.click('#md-repeat-play');
    const paused = await page.evaluate(() => window.__attnModel.repeatShown());
    assert.ok((await hashOf(page)).endsWith(`&step=${paused}`), `${await hashOf(page)} at ${paused}`);
    await page.locator('#md-repeat-range').fill('17');
    const at17 = await canvasSnapshot(page, '#md-repeat-tokens');
    const link17 = await hashOf(page);
    assert.ok(link17.endsWith('&step=17'), link17);
    assert.equal(await page.evaluate(() => window.__attnModel.repeatView().states), 61, 'still the same run');
    assertNoErrors(page);
    await page.close();

    // The link reopens that repetition: the same tokens drawn, bit for bit.
    const again = await openPage(browser, link17, { viewport: { width: 1280, height: 900 } });
    await analysed(again);
    await repeated(again, 61);
    assert.equal(await again.evaluate(() => window.__attnModel.repeatShown()), 17);
    // The shared timeline says so: its scrubber at 17 of 60, its label and value text.
    assert.deepEqual(await again.$eval('#md-repeat-range', (r) => [r.value, r.max, r.getAttribute('aria-valuetext')]), ['17', '60', 'repetition 17']);
    assert.equal(await again.textContent('#md-repeat-label'), 'repetition 17');
    assert.equal(await hashOf(again), link17);
    await again.locator('#md-repeat-tokens').scrollIntoViewIfNeeded();
    assert.equal((await canvasSnapshot(again, '#md-repeat-tokens')).hash, at17.hash, 'repetition 17 drawn as before');
    assertNoErrors(again);
    await again.close();
  });

  test('the controls write the keys; the link reopens the same run', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1280, height: 900 } });
    await analysed(page);
    assert.equal(await page.evaluate(() => window.__attnModel.repeatView()), null, 'no run without repeat_layer');
    await page.selectOption('#md-repeat-layer', '1');
    await page.fill('#md-repeat-iterations', '8');
    await page.selectOption('#md-repeat-variant', 'SAN+skip');
    await page.click('#md-repeat-run');
    const got = await repeated(page, 9);
    assert.equal(got.variant, 'SAN+skip');
    const config = await page.evaluate(() => window.__attnModel.configString());
    assert.ok(config.includes('&repeat_layer=1&iterations=8&variant=SAN+skip&'), config);
    assert.equal(await hashOf(page), decodeURIComponent(config));
    const cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config])).repeat;
    sameRun(got, cli);
    // Picking a head keeps the run's keys (the grid scrolled back into view: Run scrolled down).
    await page.locator('#md-att-grid').scrollIntoViewIfNeeded();
    const g = await page.evaluate(() => window.__attnModel.gridGeometry());
    const box = await page.locator('#md-att-grid').boundingBox();
    await page.mouse.click(box.x + g.x0 + g.cell / 2, box.y + g.y0 + g.cell / 2);
    await analysed(page, config.replace('&layer=2&head=3', ''));
    await page.close();

    const again = await openPage(browser, config, { viewport: { width: 1280, height: 900 } });
    await analysed(again);
    const reopened = await repeated(again, 9);
    assert.deepEqual(reopened, got);
    assert.equal(await again.$eval('#md-repeat-layer', (s) => s.value), '1');
    assert.equal(await again.$eval('#md-repeat-iterations', (s) => s.value), '8');
    assert.equal(await again.$eval('#md-repeat-variant', (s) => s.value), 'SAN+skip');
    await again.close();
  });

  test('a bad repeat_layer, iterations or variant is refused naming the key', { timeout: 300_000 }, async () => {
    for (const [tail, want] of [
      ['&iterations=0', /`iterations`/],
      ['&variant=san', /`variant`/],
      ['&repeat_layer=7', /`repeat_layer`: the model has layers 1..=6/],
      ['&repeat_layer=3&iterations=60&step=61', /`step`: .*0\.\.=60/],
      ['&step=2', /`step`: .*repeats none/],
    ]) {
      const page = await openPage(browser, `${LINK}${tail}`, { viewport: { width: 1280, height: 900 } });
      await page.waitForFunction((k) => document.getElementById('md-error').textContent.includes(k), tail.split('&').at(-1).split('=')[0], { timeout: 240_000 });
      assert.match(await page.$eval('#md-error', (e) => e.textContent), want, tail);
      await page.close();
    }
  });

  test('a repetition that overflows stops the run, naming it, as attn encode does', { timeout: 300_000 }, async () => {
    const root = tmpRoot();
    const page = await openPage(browser, LINK, { viewport: { width: 1280, height: 900 } });
    try {
      await analysed(page);
      const paths = writeModel(root, 'repeat-overflow', repeatOverflowFiles(7));
      await page.setInputFiles('#md-files', paths);
      await page.waitForFunction(() => {
        const a = window.__attnModel;
        return a.result() && !a.busy() && !a.configString().includes('all-MiniLM');
      }, null, { timeout: 120_000 });
      await page.selectOption('#md-repeat-layer', '2');
      await page.fill('#md-repeat-iterations', '10');
      await page.selectOption('#md-repeat-variant', 'SAN+skip');
      await page.click('#md-repeat-run');
      await page.waitForFunction(() => window.__attnModel.repeatView()?.stopped != null, null, { timeout: 60_000 });
      const got = await page.evaluate(() => {
        const v = window.__attnModel.repeatView();
        return { states: v.states, stopped: v.stopped, clusters: Array.from(v.clusters), mean_cos: Array.from(v.mean_cos) };
      });
      const config = await page.evaluate(() => window.__attnModel.configString());
      const name = decodeURIComponent(config).match(/model=([^@&]+)@/)[1]; // the name the page gave the files
      const cli = JSON.parse(await runCli(['encode', '--model', dirname(paths[0]), '--config', config, '--model-name', name])).repeat;
      assert.deepEqual(got.stopped, cli.stopped);
      assert.match(cli.stopped.what, new RegExp(`repetition ${cli.stopped.iteration} of layer 2 \\(SAN\\+skip\\).*non-finite`));
      // The repetitions before it are kept, the CLI's numbers; none after it is shown as a number.
      assert.equal(got.states, cli.steps.length);
      assert.equal(got.states, cli.stopped.iteration);
      cli.steps.forEach((st, t) => assert.ok(Object.is(got.mean_cos[t], st.mean_cos) && got.clusters[t] === st.clusters, `repetition ${t}`));
      const status = page.locator('#md-repeat-status');
      assert.equal(await status.getAttribute('role'), 'alert');
      const said = await status.textContent();
      assert.ok(said.startsWith(`Stopped at repetition ${cli.stopped.iteration}: ${cli.stopped.what}`), said);
      assert.match(said, new RegExp(`Repetitions 0–${got.states - 1} are shown`), said);
      assertNoErrors(page);
    } finally {
      await page.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
