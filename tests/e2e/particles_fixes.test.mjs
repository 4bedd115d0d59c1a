// Browser tests of the particle lab's defects found in testing: init=points editing, the page's
// device cap for heavy runs, the chart's sampling at high speed, divergence fixes, the
// "modified from preset" line, the status past `until`, the heatmap's colour scale, tick labels
// of huge coordinates and prefers-reduced-motion. They check what a user sees.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_URL, assertNoErrors, canvasSnapshot, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const errorText = (page) => page.locator('#config-error').textContent();

/** Types `value` into the field `#id` and presses Enter. */
async function enter(page, id, value) {
  await page.fill(id, value);
  await page.locator(id).press('Enter');
}

async function pause(page) {
  if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
  await page.waitForFunction(() => !window.__attn.playing());
}

describe('particle lab fixes', () => {
  test('init=points: a points field appears prefilled; n changes explain the fix; the form never gets stuck', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      assert.equal(await page.locator('#cfg-points').isVisible(), false, 'no points field for init=cube');
      await page.selectOption('#cfg-init', 'points');
      await page.waitForFunction(() => location.hash.includes('init=points'));
      assert.equal(await errorText(page), '', 'choosing init=points is accepted');
      assert.ok(await page.locator('#cfg-points').isVisible(), 'the points field is shown');
      const lines = (await page.inputValue('#cfg-points')).split('\n');
      assert.equal(lines.length, 20, 'prefilled with n = 20 rows');
      assert.equal(lines[0].split(',').length, 2, 'of d = 2 numbers');
      // Other edits keep working while init=points.
      await enter(page, '#cfg-beta', '2');
      await page.waitForFunction(() => location.hash.includes('beta=2'));
      assert.equal(await errorText(page), '');
      assertNoErrors(page);
    } finally {
      await page.close();
    }

    const meta = await openPage(browser, 'preset=metastability');
    try {
      assert.equal((await meta.inputValue('#cfg-points')).split('\n').length, 5, 'the preset points, one per line');
      await enter(meta, '#cfg-n', '6');
      await meta.waitForFunction(() => /must be n x d = 6 x 2/.test(document.getElementById('config-error').textContent));
      const msg = await errorText(meta);
      assert.match(msg, /edit the points/);
      assert.match(msg, /choose another init/);
      assert.equal(await meta.getAttribute('#cfg-points', 'aria-invalid'), 'true');
      assert.equal(await meta.getAttribute('#cfg-init', 'aria-invalid'), 'true');
      // Fix it by adding a sixth row (Shift+Enter makes a new line, Enter applies).
      await meta.locator('#cfg-points').focus();
      await meta.keyboard.press('Control+End');
      await meta.keyboard.press('Shift+Enter');
      await meta.keyboard.type('0,1');
      await meta.keyboard.press('Enter');
      await meta.waitForFunction(() => window.__attn.n() === 6);
      assert.equal(await errorText(meta), '');
      assert.match(await meta.evaluate(() => location.hash), /n=6/);
      // Changing n again, then choosing another init, also recovers.
      await enter(meta, '#cfg-n', '7');
      await meta.waitForFunction(() => /6 x 2|7 x 2/.test(document.getElementById('config-error').textContent));
      await meta.selectOption('#cfg-init', 'sphere');
      await meta.waitForFunction(() => window.__attn.n() === 7);
      assert.equal(await errorText(meta), '');
      assert.equal(await meta.locator('#cfg-points').isVisible(), false);
      assertNoErrors(meta);
    } finally {
      await meta.close();
    }
  });

  test('a run too heavy for the page is refused with the allowed n; n = 4096 at d = 2 still runs and pauses', async () => {
    const page = await openPage(browser, 'preset=polytope&n=4096&d=256', { timeout: 10_000 });
    try {
      const msg = await errorText(page);
      assert.match(msg, /n = 4096 with d = 256 is too much work per step/);
      assert.match(msg, /at d = 256 the page allows n <= 672/);
      assert.match(msg, /attn run/);
      assert.equal(await page.evaluate(() => window.__attn.n()), 20, 'the preset runs instead');
      // The fields keep the link's values; lowering n names n, editing d names d and its maximum.
      assert.equal(await page.inputValue('#cfg-d'), '256');
      await enter(page, '#cfg-n', '1024');
      await page.waitForFunction(() => /n = 1024 with d = 256 .*allows n <= 672/.test(document.getElementById('config-error').textContent));
      await enter(page, '#cfg-d', '128');
      await page.waitForFunction(() => /d = 128 with n = 1024 .*allows d <= 108/.test(document.getElementById('config-error').textContent));
      assert.equal(await page.evaluate(() => window.__attn.n()), 20);
      // The budget n² (d + 4) <= 4096² x 7 (the page's budget) takes d = 108 at n = 1024.
      await enter(page, '#cfg-d', '108');
      await page.waitForFunction(() => window.__attn.n() === 1024 && window.__attn.d() === 108);
      assert.equal(await errorText(page), '');
      await enter(page, '#cfg-d', '2');
      await page.waitForFunction(() => window.__attn.n() === 1024 && window.__attn.d() === 2);
      assert.equal(await errorText(page), '');
      assertNoErrors(page);
    } finally {
      await page.close();
    }

    const big = await openPage(browser, 'preset=polytope&n=4096&d=2', { timeout: 15_000 });
    try {
      assert.equal(await errorText(big), '');
      await big.evaluate(() => {
        window.__longTasks = [];
        new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      });
      await big.waitForFunction(() => window.__attn.step() >= 3, null, { timeout: 20_000 });
      // No frame does more than one step or one analysis (~0.2-0.9 s at n = 4096 here).
      const longest = await big.evaluate(() => Math.max(0, ...window.__longTasks));
      assert.ok(longest < 2000, `longest task ${longest} ms`);
      // Pause (Space) responds within a frame or two: measured in the page, from the key press
      // to the first frame that shows "paused" (the remote-control round trips are slower).
      await big.evaluate(() => {
        document.addEventListener('keydown', () => { window.__keyAt = performance.now(); }, { capture: true, once: true });
        const watch = () => {
          if (window.__keyAt !== undefined && document.getElementById('status-state').textContent === 'paused') {
            window.__pausedAfter = performance.now() - window.__keyAt;
          } else requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      });
      await big.locator('body').press(' ');
      await big.waitForFunction(() => window.__pausedAfter !== undefined, null, { timeout: 10_000 });
      const took = await big.evaluate(() => window.__pausedAfter);
      const stepAt = await big.evaluate(() => window.__attn.step());
      await big.waitForTimeout(1500);
      assert.equal(await big.evaluate(() => window.__attn.step()), stepAt, 'paused: no more steps');
      assert.ok(took < 2000, `pause shown ${took} ms after the key press`);
      assertNoErrors(big);
    } finally {
      await big.close();
    }
  });

  test('at 1000 steps/frame the chart history is sampled over time, not once per frame', async () => {
    const page = await openPage(browser, 'preset=sphere-sa');
    try {
      await pause(page);
      await page.locator('body').press('r');
      await page.waitForFunction(() => window.__attn.step() === 0);
      await page.locator('#speed').fill('14'); // the last position: 1000 steps per frame
      await page.waitForFunction(() => document.getElementById('speed-out').textContent.startsWith('1000'));
      await page.click('#play');
      await page.waitForFunction(() => window.__attn.status() === 'finished', null, { timeout: 60_000 });
      const samples = await page.evaluate(() => window.__attn.historyLen());
      // The whole run is 150 steps: once per frame at 1000 steps/frame would give 2 samples. The
      // page samples in-frame only while metrics are cheap, so a loaded machine records fewer
      // than all 151; 30 is far above the per-frame count and safe under load.
      assert.ok(samples >= 30, `history has ${samples} samples`);
      // The fall in clusters is drawn through intermediate values: some sample lies strictly between.
      const counts = await page.evaluate(() => {
        const until = Number(new Map(window.__attn.wasm.preset_pairs('particles', 'sphere-sa')).get('until'));
        const out = [];
        for (let i = 0; i <= 200; i += 1) out.push(window.__attn.historyNear((i / 200) * until));
        return out;
      });
      const distinct = new Set(counts.map((s) => s.clusters));
      assert.ok(distinct.size >= 4, `cluster counts seen: ${[...distinct].join(', ')}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a divergence offers the fix its message names (halve beta for sphere-usa)', async () => {
    const page = await openPage(browser, 'preset=polytope&model=sphere-usa&beta=1000');
    try {
      await page.waitForFunction(() => window.__attn.status() === 'diverged', null, { timeout: 20_000 });
      await page.waitForFunction(() => !document.getElementById('divergence').hidden);
      assert.match(await page.locator('#divergence-message').textContent(), /smaller beta/);
      assert.ok(await page.locator('#halve-beta').isVisible(), 'Halve β is offered');
      assert.equal(await page.locator('#halve-dt').isVisible(), false, 'Halve dt is not offered');
      await page.click('#halve-beta');
      await page.waitForFunction(() => location.hash.includes('beta=500'));
      // Still too large for USA (500 x score overflows exp too): the next fix is offered.
      await page.waitForFunction(() => /500 → 250/.test(document.getElementById('halve-beta').textContent));
      // Switching preset after a divergence fully recovers.
      await page.selectOption('#preset', 'polytope');
      await page.waitForFunction(() => location.hash === '#version=7&preset=polytope' && window.__attn.step() > 3);
      assert.equal(await page.evaluate(() => window.__attn.status()), 'running');
      assert.equal(await page.locator('#divergence').isVisible(), false);
      assert.ok((await canvasSnapshot(page, '#heatmap')).inked > 0);
      assert.ok(await page.evaluate(() => window.__attn.metrics() !== null));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the description is followed by what differs from the preset', async () => {
    const page = await openPage(browser, 'preset=polytope&v=-identity&n=30');
    try {
      const line = await page.locator('#modified').textContent();
      assert.ok(await page.locator('#modified').isVisible());
      assert.match(line, /Modified from the preset/);
      assert.match(line, /n = 30/);
      assert.match(line, /v = -identity/);
      await page.selectOption('#preset', 'polytope-3d');
      await page.waitForFunction(() => location.hash === '#version=7&preset=polytope-3d');
      assert.equal(await page.locator('#modified').isVisible(), false, 'no line for the preset itself');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('stepping after the run finished says "past until"', async () => {
    const page = await openPage(browser, 'preset=polytope&until=0.5');
    try {
      await page.waitForFunction(() => document.getElementById('status-state').textContent === 'finished at until', null, { timeout: 20_000 });
      await page.click('#step');
      await page.waitForFunction(() => window.__attn.step() === 6);
      assert.equal(await page.locator('#status-state').textContent(), 'paused (past until)');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the heatmap colour scale can be 0..1 (default) or 0..max P; the legend says which', async () => {
    // beta = 1e-9: P is uniform to 9 digits (1/n everywhere).
    const page = await openPage(browser, 'preset=polytope&beta=0.000000001');
    try {
      await pause(page);
      assert.equal(await page.inputValue('#heat-scale'), 'one');
      assert.equal(await page.locator('#heatmap-top').textContent(), '1');
      assert.match(await page.locator('#heatmap-caption').textContent(), /fixed scale 0 to 1/);
      const dark = await canvasSnapshot(page, '#heatmap', { pixels: true });
      await page.selectOption('#heat-scale', 'max');
      await page.waitForFunction(() => document.getElementById('heatmap-top').textContent === 'max P');
      await page.waitForTimeout(200);
      const bright = await canvasSnapshot(page, '#heatmap', { pixels: true });
      const mid = (s) => {
        const o = ((s.height >> 1) * s.width + (s.width >> 1)) * 4;
        return s.pixels[o] + s.pixels[o + 1] + s.pixels[o + 2];
      };
      assert.ok(mid(bright) > mid(dark) + 200, `uniform P: 0..max P is bright (${mid(bright)}), 0..1 dark (${mid(dark)})`);
      assert.match(await page.locator('#heatmap-caption').textContent(), /0 to max P/);
      // Hover still reads the exact value, 1/n.
      const box = await page.locator('#heatmap').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(() => !document.getElementById('heatmap-tip').hidden);
      assert.match(await page.locator('#heatmap-tip').textContent(), /= 0\.0(5|49999)/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('huge coordinates: tick labels are distinct, keep their minus sign and fit on the canvas', async () => {
    const page = await openPage(browser, 'preset=polytope&integrate_in=x&coords=x&v=100,0;0,100&until=3.5');
    try {
      await page.waitForFunction(() => window.__attn.status() !== 'running', null, { timeout: 30_000 });
      const labels = await page.evaluate(async () => {
        const { niceTicks, tickLabels } = await import('./render/palette.js');
        return [tickLabels(niceTicks(-5e153, 1.04e154, 5)), tickLabels(niceTicks(9.99e153, 1.0004e154, 5)), tickLabels([-1e154, 0, 1e154])];
      });
      for (const l of labels) assert.equal(new Set(l).size, l.length, `distinct: ${l.join(' ')}`);
      assert.ok(labels[2][0].startsWith('-'), labels[2][0]);
      assert.ok(!labels[2].some((l) => l.includes('e+')), 'short exponent form');
      // The left-most inked column of the token canvas is not at its edge (labels not clipped).
      const snap = await canvasSnapshot(page, '#tokens', { pixels: true });
      const bg = snap.pixels.slice(0, 4);
      let firstInked = snap.width;
      for (let y = 0; y < snap.height; y += 1) {
        for (let x = 0; x < firstInked; x += 1) {
          const o = (y * snap.width + x) * 4;
          if (Math.abs(snap.pixels[o] - bg[0]) + Math.abs(snap.pixels[o + 1] - bg[1]) + Math.abs(snap.pixels[o + 2] - bg[2]) > 60) {
            firstInked = x;
            break;
          }
        }
      }
      assert.ok(firstInked > 2, `ink starts at column ${firstInked}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a refused link: the fallback runs at the link\'s version, and an unknown version does not block edits', async () => {
    // An old link (no version) refused for n: the preset shown and the fixed link are version 1.
    const old = await openPage(browser, 'preset=leaders&n=0');
    try {
      await old.waitForSelector('#config-error code.key', { state: 'visible' });
      assert.equal(await old.locator('#config-error code.key').textContent(), 'n');
      assert.equal(await old.evaluate(() => window.__attn.configString()), 'version=1&preset=leaders');
      // Reset restarts the run shown: the refused value and its message go.
      await old.click('#reset');
      await old.waitForFunction(() => document.getElementById('config-error').textContent === '');
      assert.equal(await old.inputValue('#cfg-n'), String(await old.evaluate(() => window.__attn.n())));
      // The refused link again, then its value fixed.
      await old.goto('about:blank');
      await old.goto(`${ATTN_URL}#preset=leaders&n=0`);
      await old.waitForSelector('#config-error code.key', { state: 'visible' });
      await old.fill('#cfg-n', '50');
      await old.press('#cfg-n', 'Enter');
      await old.waitForFunction(() => window.__attn.configString() === 'version=1&preset=leaders&n=50');
      assert.equal(await errorText(old), '');
      assertNoErrors(old);
    } finally {
      await old.close();
    }
    // A version this page does not know: named, today's version shown, and an edit applies.
    const page = await openPage(browser, 'version=8&preset=leaders&n=50');
    try {
      await page.waitForSelector('#config-error code.key', { state: 'visible' });
      assert.equal(await page.locator('#config-error code.key').textContent(), 'version');
      assert.equal(await page.evaluate(() => window.__attn.configString()), 'version=7&preset=leaders');
      await page.fill('#cfg-n', '60');
      await page.press('#cfg-n', 'Enter');
      await page.waitForFunction(() => window.__attn.configString() === 'version=7&preset=leaders&n=60');
      assert.equal(await page.evaluate(() => window.__attn.n()), 60);
      assert.equal(await errorText(page), '');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('Back and Forward across a refused link: the last good run is kept under its message, and a valid entry shows no stale message', async () => {
    const page = await openPage(browser, 'version=2&preset=polytope&n=30');
    try {
      // A refused link reached from a valid run, then New seed (a new entry of another run).
      await page.evaluate(() => { location.hash = 'version=2&preset=leaders&n=0'; });
      await page.waitForSelector('#config-error code.key', { state: 'visible' });
      assert.match(await errorText(page), /The last valid run keeps going/);
      assert.equal(await page.evaluate(() => window.__attn.configString()), 'version=2&preset=polytope&n=30');
      await page.click('#new-seed');
      await page.waitForFunction(() => /seed=/.test(location.hash));
      const seeded = await page.evaluate(() => window.__attn.configString());
      assert.match(seeded, /^version=2&preset=polytope&n=30&seed=\d+$/);
      assert.equal(await errorText(page), '');
      // Back: the refused link is named again; the last good run keeps going.
      await page.goBack();
      await page.waitForFunction(() => location.hash === '#version=2&preset=leaders&n=0');
      await page.waitForSelector('#config-error code.key', { state: 'visible' });
      assert.match(await errorText(page), /The last valid run keeps going/);
      assert.equal(await page.evaluate(() => window.__attn.configString()), seeded);
      assert.equal(await page.locator('#cfg-n').inputValue(), '0');
      // Forward: the seeded run, with no message left from the refused link and its own n.
      await page.goForward();
      await page.waitForFunction((c) => window.__attn.configString() === c, seeded);
      await page.waitForFunction(() => document.getElementById('config-error').textContent === '');
      assert.equal(await page.locator('#cfg-n').inputValue(), String(await page.evaluate(() => window.__attn.n())));
      // Back twice to the first valid entry: its run, no message.
      await page.goBack();
      await page.waitForSelector('#config-error code.key', { state: 'visible' });
      await page.goBack();
      await page.waitForFunction(() => window.__attn.configString() === 'version=2&preset=polytope&n=30');
      assert.equal(await errorText(page), '');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('prefers-reduced-motion: starts paused with a note and the Play button', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      const { ATTN_URL } = await import('./helpers.mjs');
      await page.goto(`${ATTN_URL}#preset=polytope`);
      await page.waitForFunction(() => window.__attnReady === true);
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.__attn.playing()), false);
      assert.equal(await page.evaluate(() => window.__attn.step()), 0);
      assert.ok(await page.locator('#motion-note').isVisible());
      assert.equal(await page.locator('#play').textContent(), 'Play');
      await page.click('#play');
      await page.waitForFunction(() => window.__attn.step() > 2);
      assert.equal(await page.locator('#motion-note').isVisible(), false);
    } finally {
      await context.close();
    }
  });
});
