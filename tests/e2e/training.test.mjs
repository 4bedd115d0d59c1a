// Browser tests of the training lab (scan and snap, science.md §5), run by `cargo xtask test`.
// They check what a user sees: the c_n heatmap gaining rows, the loss shown falling, the snap
// marked, the sweep table and plot filling with a progress bar that reaches 100%, cancel,
// messages naming the wrong key, switching labs both ways, and the same numbers as the CLI.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const T = '() => window.__attnTraining';

/** Waits until the training lab is loaded and its run exists. */
async function trainingReady(page) {
  await page.waitForFunction(() => window.__attnTraining && window.__attnTraining.iteration() >= 0);
}

/** Pauses the training run if it plays. */
async function pause(page) {
  if (await page.evaluate(() => window.__attnTraining.playing())) await page.click('#tr-play');
  await page.waitForFunction(() => !window.__attnTraining.playing());
}

const shownLoss = async (page) => Number(await page.locator('#tr-loss').textContent());

describe('training lab', () => {
  test('runs: the c_n heatmap gains rows, the loss shown falls, snap is marked; same numbers as the CLI', async () => {
    const page = await openPage(browser, 'version=7&lab=training&preset=scan-snap&iterations=100');
    try {
      await trainingReady(page);
      assert.equal(await page.evaluate(() => location.hash), '#version=7&lab=training&preset=scan-snap&iterations=100');
      assert.equal(await page.isVisible('#lab-training'), true);
      assert.equal(await page.isVisible('#lab-particles'), false);
      assert.equal(await page.getAttribute('#tab-training', 'aria-selected'), 'true');
      assert.equal(await page.inputValue('#tr-preset'), 'scan-snap');

      // From iteration 0 (Space pauses, R resets and stays paused), then one step at a time.
      await page.waitForFunction(`(${T})().iteration() >= 1`);
      await page.locator('body').press(' ');
      await page.locator('body').press('r');
      await page.waitForFunction(() => window.__attnTraining.iteration() === 0 && !window.__attnTraining.playing()
        && document.getElementById('tr-iteration').textContent === '0 / 100');
      const heat0 = await canvasSnapshot(page, '#tr-heatmap');
      assert.equal(await page.locator('#tr-loss').textContent(), '–', 'no loss before the first iteration');
      await page.locator('body').press('ArrowRight');
      await page.waitForFunction(() => document.getElementById('tr-iteration').textContent === '1 / 100');
      const loss1 = await shownLoss(page);
      assert.ok(Math.abs(loss1 - Math.log(34)) < 1e-3, `first loss ${loss1} = ln 34 (Y = Z = 0)`);
      const heat1 = await canvasSnapshot(page, '#tr-heatmap');
      assert.ok(heat1.inked > heat0.inked, `a row was added (${heat0.inked} -> ${heat1.inked} inked pixels)`);

      // Play (Space): rows keep coming, the loss falls, then it stops at `iterations` with the snap marked.
      await page.locator('body').press(' ');
      await page.waitForFunction(() => window.__attnTraining.iteration() >= 30);
      const heat30 = await canvasSnapshot(page, '#tr-heatmap');
      assert.ok(heat30.inked > heat1.inked + 1000, `rows keep coming (${heat1.inked} -> ${heat30.inked})`);
      const loss30 = await shownLoss(page);
      assert.ok(loss30 < loss1 / 10, `the loss shown falls: ${loss1} -> ${loss30}`);
      await page.waitForFunction(() => window.__attnTraining.status() === 'finished', null, { timeout: 20_000 });
      await page.waitForFunction(() => document.getElementById('tr-state').textContent === 'finished');
      assert.equal(await page.locator('#tr-iteration').textContent(), '100 / 100');
      const snap = await page.evaluate(() => window.__attnTraining.snap());
      assert.ok(snap > 5 && snap < 80, `snap iteration ${snap}`);
      assert.equal(await page.locator('#tr-snap').textContent(), `iteration ${snap}`);
      assert.ok((await canvasSnapshot(page, '#tr-chart')).inked > 1000, 'the chart is drawn');
      assert.match(await page.locator('#tr-chart-caption').textContent(), /snap_tol = 0\.001/);
      assert.match(await page.locator('#tr-heat-caption').textContent(), /common tokens, then its distinct tokens ordered by co-occurrence weight/);
      assert.match(await page.locator('#tr-summary').textContent(), /scan-snap: iteration/);

      // Hover: the value under the pointer.
      const heat = page.locator('#tr-heatmap');
      const box = await heat.boundingBox();
      await heat.hover({ position: { x: box.width * 0.7, y: box.height * 0.9 } });
      await page.locator('#tr-heat-tip').waitFor({ state: 'visible' });
      assert.match(await page.locator('#tr-heat-tip').textContent(), /iteration \d+token d0\.\d \(distinct, class q0 → n0\)p\(l\|n\) = [0-9.]+c = [0-9.]+/);

      if (ATTN_BIN) {
        // Same link, same numbers: the CLI's entropies and snap iteration, bit for bit.
        const web = await page.evaluate(() => {
          const lab = new window.__attnTraining.wasm.TrainingLab(window.__attnTraining.configString());
          lab.advance(1000);
          const out = { entropy: Array.from(lab.entropies()), loss: Array.from(lab.loss()), snap: lab.snap() };
          lab.free();
          return out;
        });
        const cli = JSON.parse(await runCli(['train', '--config', 'version=7&lab=training&preset=scan-snap&iterations=100']));
        assert.deepEqual(web.loss, cli.iterations.map((r) => r.loss));
        assert.deepEqual(web.entropy, [...cli.iterations.map((r) => r.entropy), cli.final_entropy]);
        assert.equal(web.snap, cli.snap_iteration);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the sweep panel completes a small grid in a worker: progress reaches 100%, table and plot fill', async () => {
    const base = 'lab=training&preset=scan-snap-sweep&iterations=20';
    const page = await openPage(browser, base);
    try {
      await trainingReady(page);
      await page.fill('#sw-eta', '1, 2');
      await page.fill('#sw-ratio', '1, 5');
      await page.fill('#sw-seeds', '2');
      const plot0 = await canvasSnapshot(page, '#sw-chart');
      await page.click('#sw-run');
      await page.waitForFunction(() => window.__attnTraining.sweep().state === 'done', null, { timeout: 30_000 });
      assert.equal(await page.evaluate(() => document.getElementById('sw-progress').value), 4);
      assert.equal(await page.evaluate(() => document.getElementById('sw-progress').max), 4);
      assert.match(await page.locator('#sw-progress-text').textContent(), /^4 \/ 4 cells \(100%\) × 2 seeds · done in/);
      const rows = await page.locator('#sw-table tbody tr').allTextContents();
      assert.equal(rows.length, 4);
      assert.match(rows[0], /^11\d\.\d{4}0\.\d{4}/, `eta_z 1, r 1, mean, std: ${rows[0]}`);
      assert.ok((await canvasSnapshot(page, '#sw-chart')).hash !== plot0.hash, 'the plot is drawn');
      assert.equal(await page.isEnabled('#sw-run'), true);
      assert.equal(await page.isDisabled('#sw-cancel'), true);

      if (ATTN_BIN) {
        const results = await page.evaluate(() => window.__attnTraining.sweep().results);
        const cli = JSON.parse(await runCli(['sweep', '--config', base, '--seeds', '2', '--eta-z', '1,2', '--ratio', '1,5']));
        assert.deepEqual(results.map((c) => [c.eta_z, c.ratio, c.mean, c.std]), cli.cells.map((c) => [c.eta_z, c.ratio, c.mean, c.std]));
      }

      // A bad grid value is refused with the key named; nothing starts.
      await page.fill('#sw-ratio', '1, 2000');
      await page.click('#sw-run');
      await page.waitForFunction(() => document.querySelector('#sw-error code.key')?.textContent === 'ratio');
      assert.match(await page.locator('#sw-error').textContent(), /0 < ratio <= 1000/);
      assert.equal(await page.locator('#sw-table tbody tr').count(), 4, 'the last results stay');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  // Row 14 of "Defects found by a demanding user": 300 x 300 values were accepted (hours of work).
  test('the sweep form shows its estimated time; a grid above 400 cells or 40 000 runs is refused naming the list', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap-sweep&iterations=20');
    try {
      await trainingReady(page);
      const estimate = () => page.locator('#sw-estimate').textContent();
      // The paper's grid, before anything starts.
      assert.match(await estimate(), /^Estimated time: (about \d+ s|under a second) \(16 cells × 10 seeds = 160 runs/);
      await page.fill('#sw-eta', '1, 2');
      await page.fill('#sw-ratio', '1, 5');
      await page.fill('#sw-seeds', '2');
      assert.match(await estimate(), /^Estimated time: (about \d+ s|under a second) \(4 cells × 2 seeds = 8 runs/);
      const list = (n) => Array.from({ length: n }, (_, i) => String((i + 1) / 100)).join(', ');
      for (const [eta, ratio, seeds, key, said] of [
        [list(300), list(300), '10', 'eta_z', /300 eta_z × 300 ratio values = 90000 cells; a sweep runs at most 400 cells/],
        ['1, 2', list(201), '1', 'ratio', /402 cells; a sweep runs at most 400 cells: shorten the list of ratio/],
        [list(20), '1, 2, 3', '1000', 'eta_z', /60 cells × 1000 seeds = 60000 runs; a sweep trains at most 40000 runs/],
      ]) {
        await page.fill('#sw-eta', eta);
        await page.fill('#sw-ratio', ratio);
        await page.fill('#sw-seeds', seeds);
        assert.match(await estimate(), /^Estimated time: –/);
        await page.evaluate(() => document.getElementById('sw-error').replaceChildren());
        await page.click('#sw-run');
        await page.waitForFunction((k) => document.querySelector('#sw-error code.key')?.textContent === k, key);
        assert.match(await page.locator('#sw-error').textContent(), said);
        assert.equal(await page.evaluate(() => window.__attnTraining.sweep().state), 'idle', 'nothing started');
      }
      // 400 cells is allowed: the estimate shows and nothing is refused until Run.
      await page.fill('#sw-eta', list(20));
      await page.fill('#sw-ratio', list(20));
      await page.fill('#sw-seeds', '100');
      assert.match(await estimate(), /^Estimated time: about \d+ (s|min)\b.*\(400 cells × 100 seeds = 40000 runs/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('cancel stops a running sweep', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap-sweep');
    try {
      await trainingReady(page);
      await page.click('#sw-run'); // the paper's 4 x 4 grid, 10 seeds
      await page.waitForFunction(() => window.__attnTraining.sweep().done >= 1, null, { timeout: 20_000 });
      await page.click('#sw-cancel');
      const s = await page.evaluate(() => window.__attnTraining.sweep());
      assert.equal(s.state, 'cancelled');
      assert.ok(s.done < 16, `stopped early at ${s.done} / 16`);
      await page.waitForTimeout(1500);
      assert.equal((await page.evaluate(() => window.__attnTraining.sweep())).done, s.done, 'no cell finishes after cancel');
      assert.match(await page.locator('#sw-progress-text').textContent(), /cancelled after/);
      assert.equal(await page.isEnabled('#sw-run'), true);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('an invalid training key shows a message naming it; the last good run is kept', async () => {
    const page = await openPage(browser, 'version=7&lab=training&preset=scan-snap&eta_z=abc');
    try {
      await trainingReady(page);
      const alert = page.locator('#tr-config-error');
      await alert.waitFor({ state: 'visible' });
      assert.equal(await alert.getAttribute('role'), 'alert');
      assert.equal(await alert.locator('code.key').textContent(), 'eta_z');
      assert.match(await alert.textContent(), /showing the scan-snap preset instead/);
      assert.equal(await page.evaluate(() => window.__attnTraining.configString()), 'version=7&lab=training&preset=scan-snap');
      assert.equal(await page.inputValue('#tr-eta_z'), 'abc', 'the controls show what the link asked for');
      assert.equal(await page.getAttribute('#tr-eta_z', 'aria-invalid'), 'true');

      // Typing an out-of-range momentum: named, with the allowed range; the run is kept.
      await page.fill('#tr-eta_z', '2');
      await page.press('#tr-eta_z', 'Enter');
      await page.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap&eta_z=2');
      assert.equal(await alert.textContent(), '');
      assert.equal(await page.evaluate(() => location.hash), '#version=7&lab=training&preset=scan-snap&eta_z=2');
      await page.fill('#tr-momentum', '1');
      await page.press('#tr-momentum', 'Enter');
      await page.waitForFunction(() => document.querySelector('#tr-config-error code.key')?.textContent === 'momentum');
      assert.match(await alert.textContent(), /0 <= momentum < 1/);
      assert.equal(await page.evaluate(() => window.__attnTraining.configString()), 'version=7&lab=training&preset=scan-snap&eta_z=2');

      // The user's text is a training key like the others (a valid momentum first).
      await page.fill('#tr-momentum', '0.5');
      await page.press('#tr-momentum', 'Enter');
      await page.fill('#tr-text', 'the cat sat on the mat and the dog sat on the log');
      await page.click('#tr-text-apply');
      await page.waitForFunction(() => window.__attnTraining.configString()
        === 'version=7&lab=training&preset=scan-snap&eta_z=2&momentum=0.5&text=the%20cat%20sat%20on%20the%20mat%20and%20the%20dog%20sat%20on%20the%20log');
      assert.match(await page.locator('#tr-description').textContent(), /Training on your text: M = 8 tokens/);

      // An unknown key in the hash is named too.
      const good = await page.evaluate(() => window.__attnTraining.configString());
      await page.evaluate(() => {
        location.hash = 'lab=training&beta=2';
      });
      await page.waitForFunction(() => document.querySelector('#tr-config-error code.key')?.textContent === 'beta');
      assert.match(await alert.textContent(), /unknown key for lab=training/);
      assert.equal(await page.evaluate(() => window.__attnTraining.configString()), good);

      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('switching between the particle lab and the training lab works both ways, by the tabs and by the hash', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      // The particle page does not load the training lab.
      const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/training/')));
      assert.equal(await loaded(), false);
      assert.equal(await page.isVisible('#lab-training'), false);

      await page.click('#tab-training');
      await trainingReady(page);
      await page.waitForFunction(() => !document.getElementById('lab-training').hidden);
      assert.equal(await page.evaluate(() => location.hash), '#version=7&lab=training&preset=scan-snap');
      assert.equal(await page.isVisible('#lab-training'), true);
      assert.equal(await page.isVisible('#lab-particles'), false);
      assert.equal(await page.getAttribute('#tab-training', 'aria-selected'), 'true');
      assert.equal(await page.isVisible('.foot [data-for-lab="training"]'), true, 'the footer cites the training paper');
      assert.equal(await page.isVisible('.foot [data-for-lab="particles"]'), false);

      // Back to particles with the keyboard (tabs pattern: ArrowLeft moves and activates).
      await page.focus('#tab-training');
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => location.hash === '#version=1&preset=polytope' && !document.getElementById('lab-particles').hidden);
      assert.equal(await page.isVisible('#lab-particles'), true);
      assert.equal(await page.isVisible('#lab-training'), false);
      assert.equal(await page.getAttribute('#tab-particles', 'aria-selected'), 'true');
      assert.equal(await page.evaluate(() => window.__attn.configString()), 'version=1&preset=polytope');
      await page.waitForFunction(() => window.__attn.playing() || window.__attn.status() === 'finished');

      // Browser history: Back returns to the training lab, as it was.
      await page.goBack();
      await page.waitForFunction(() => location.hash === '#version=7&lab=training&preset=scan-snap');
      await page.waitForFunction(() => !document.getElementById('lab-training').hidden);

      // Through the hash, both ways.
      await page.evaluate(() => {
        location.hash = 'lab=training&preset=scan-snap-sweep';
      });
      await page.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap-sweep');
      assert.equal(await page.inputValue('#tr-preset'), 'scan-snap-sweep');
      await page.evaluate(() => {
        location.hash = 'preset=leaders';
      });
      await page.waitForFunction(() => !document.getElementById('lab-particles').hidden && window.__attn.n() === 40);
      assert.equal(await page.inputValue('#preset'), 'leaders');
      assert.equal(await page.isVisible('#lab-training'), false);

      // The training tab brings back the last training configuration.
      await page.click('#tab-training');
      await page.waitForFunction(() => location.hash === '#version=7&lab=training&preset=scan-snap-sweep'
        && !document.getElementById('lab-training').hidden && document.getElementById('lab-particles').hidden);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('on a phone-sized screen the training panels stack in one column without sideways scrolling', async () => {
    const page = await openPage(browser, 'version=7&lab=training&preset=scan-snap', { viewport: { width: 390, height: 844 } });
    try {
      await trainingReady(page);
      // The heatmap right under the status line (phone.css: the main picture in the first screen).
      const sel = ['.training-layout .status-line', '.cn-panel', '.training-layout .run-panel', '.tchart-panel', '.sweep-panel', '.training-layout .config-panel'];
      const layout = await page.evaluate((sel) => ({
        scrollWidth: document.documentElement.scrollWidth,
        lefts: sel.map((s) => Math.round(document.querySelector(s).getBoundingClientRect().left)),
        tops: sel.map((s) => Math.round(document.querySelector(s).getBoundingClientRect().top)),
      }), sel);
      assert.ok(layout.scrollWidth <= 390, `no horizontal scroll (scrollWidth ${layout.scrollWidth})`);
      assert.equal(new Set(layout.lefts).size, 1, `one column: ${layout.lefts}`);
      assert.deepEqual([...layout.tops].sort((a, b) => a - b), layout.tops, 'status, heatmap, run, chart, sweep, controls');
      await page.waitForFunction(() => window.__attnTraining.iteration() >= 5);
      assert.ok((await canvasSnapshot(page, '#tr-heatmap')).inked > 1000);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
