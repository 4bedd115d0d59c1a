// Browser tests of the particle lab's timeline: a state shown from the
// timeline, and the run continued from it, equal `attn run --every 1` bit for bit (with
// integrate_in=z&coords=x, where the shown tokens are not the integrated ones, and on the
// sphere), for a step the page never recorded; what a user sees (the step label, the drawn
// tokens, the address bar, one history entry per drag); the keyboard (Home, End, arrows); a
// click on the metrics chart; Replay; `t=` links; reduced motion; the suggested slow speeds.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, launch, openPage, runCli } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const settled = (page, step) => page.waitForFunction(
  (k) => !window.__attn.seeking() && window.__attn.step() === k, step, { timeout: 60_000 },
);
const tokens = (page) => page.evaluate(() => Array.from(window.__attn.tokens()));
const drawn = (page) => page.evaluate(() => window.__attn.drawnTokens());
const stepOfUrl = (page) => new URL(page.url()).hash.match(/[#&]step=(\d+)/)?.[1] ?? null;

/** Frames of `attn run --config config --every DT` (`--every` is a time: every step), by step. */
async function cliFrames(config, dt) {
  const out = JSON.parse(await runCli(['run', '--config', config, '--every', String(dt)]));
  return new Map(out.frames.map((f) => [f.step, f.tokens.flat()]));
}

/** Every number equal bit for bit (Object.is tells -0 from 0). */
function sameBits(page, native, what) {
  assert.equal(page.length, native.length, `${what}: as many numbers`);
  const bad = page.findIndex((x, i) => !Object.is(x, native[i]));
  assert.equal(bad, -1, `${what}: entry ${bad} is ${page[bad]} in the page, ${native[bad]} in attn run`);
}

/** Moves the timeline to `step` as a user does (the range's value; input and change fire). */
async function scrub(page, step) {
  await page.locator('#timeline-range').fill(String(step));
  await settled(page, step);
}

async function stepTimes(page, m) {
  for (let i = 0; i < m; i += 1) await page.click('#step');
  await page.waitForFunction(() => !window.__attn.stepping());
}

describe('timeline', () => {
  for (const [name, link, last, k, m, workers] of [
    // until=300: 3000 steps, chart samples every 10 steps (a seek samples them on its way), so
    // steps 61 and 45 are never recorded.
    ['integrate_in=z&coords=x', 'version=4&preset=polytope&n=12&until=300&integrate_in=z&coords=x', 150, 61, 17, null],
    ['a sphere run', 'version=4&preset=sphere-sa-clusters&n=16&until=300', 120, 45, 11, null],
    ['the worker pool (2 workers)', 'version=4&preset=polytope&n=600&integrate_in=z&coords=x', 40, 23, 5, 2],
  ]) {
    test(`${name}: a step never recorded, shown and continued, equals attn run bit for bit`, async () => {
      const page = await openPage(browser, `${link}&step=${workers ? 0 : last}`);
      try {
        if (workers) {
          // The pool steps the run from here on (a link's seek and the timeline's).
          await settled(page, 0);
          await page.evaluate((w) => window.__attn.setWorkers(w), workers);
          assert.equal(await page.evaluate(() => window.__attn.workers()), workers);
          await page.evaluate((s) => { location.hash = `${location.hash.slice(1).replace(/&step=\d+/, '')}&step=${s}`; }, last);
        }
        await settled(page, last);
        const kept = await page.evaluate(() => window.__attn.keptSteps());
        assert.ok(!kept.includes(k), `step ${k} was not recorded (kept: ${kept})`);
        assert.ok(kept.includes(last), `the link's step ${last} was recorded (kept: ${kept})`);
        assert.equal(await page.inputValue('#timeline-range'), String(last), 'the link set the timeline');
        const live = await drawn(page);
        const config = await page.evaluate(() => window.__attn.configString());
        const native = await cliFrames(config, await page.evaluate(() => window.__attn.dt()));
        assert.ok([k, k + 3, k + m].every((j) => native.has(j)), 'attn run printed every step');

        await scrub(page, k);
        sameBits(await tokens(page), native.get(k), `the state shown at step ${k}`);
        assert.match(await page.textContent('#timeline-label'), new RegExp(`step ${k} of`));
        assert.match(await page.textContent('#status-step'), new RegExp(`^${k} /`));
        assert.equal(stepOfUrl(page), String(k), 'the address bar has step=k');
        const shown = await drawn(page);
        assert.equal(shown.length, live.length);
        assert.ok(shown.some((p, i) => p[0] !== live[i][0] || p[1] !== live[i][1]), 'the drawn tokens are not the last state\'s');

        await stepTimes(page, m);
        await settled(page, k + m);
        sameBits(await tokens(page), native.get(k + m), `continued ${m} steps to ${k + m}`);

        // Back past the continued steps, then forward from a kept state: the same bits again.
        await scrub(page, k + 3);
        sameBits(await tokens(page), native.get(k + 3), `step ${k + 3} from the kept step ${k}`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }

  test('colours: a state shown from the timeline, and the run continued from it, has the colours of a step= link', async () => {
    const link = 'version=4&preset=polytope-3d&n=40&speed=50';
    // The colour slots drawn, and the identities committed so far (which colour the steps to come).
    const slots = (page) => page.evaluate(() => [Array.from(window.__attn.slots()), window.__attn.identities()]);
    const page = await openPage(browser, link);
    try {
      await page.waitForFunction(() => window.__attn.step() >= 200 && !window.__attn.playing(), null, { timeout: 60_000 });
      const end = await slots(page);
      await scrub(page, 15);
      const back = await slots(page);
      await stepTimes(page, 9);
      await settled(page, 24);
      const on = await slots(page);
      for (const [k, got] of [[15, back], [24, on]]) {
        const fresh = await openPage(browser, `${link}&step=${k}`);
        try {
          await settled(fresh, k);
          assert.deepEqual(got, await slots(fresh), `step ${k}: the timeline's colours are the step= link's`);
        } finally {
          await fresh.close();
        }
      }
      assert.notDeepEqual(back[1], end[1], 'the identities at step 15 are not those at the end');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('keyboard: Home, End and arrows move it; a drag is one history entry; its name and value text', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&n=10&step=40');
    try {
      await settled(page, 40);
      const range = page.locator('#timeline-range');
      assert.equal(await range.getAttribute('aria-label'), 'Run timeline: the step shown');
      await range.focus();
      await page.keyboard.press('Home');
      await settled(page, 0);
      assert.match(await range.getAttribute('aria-valuetext'), /t = 0\.0 · step 0 of 200/);
      await page.keyboard.press('ArrowRight');
      await settled(page, 1);
      await page.keyboard.press('ArrowRight');
      await settled(page, 2);
      assert.equal(stepOfUrl(page), '2');
      await page.keyboard.press('ArrowLeft');
      await settled(page, 1);
      await page.keyboard.press('PageUp');
      await page.waitForFunction(() => window.__attn.step() > 2 && !window.__attn.seeking());
      assert.equal(Number(await range.inputValue()), await page.evaluate(() => window.__attn.step()), 'Page Up jumps');
      await page.keyboard.press('End');
      await settled(page, 200);
      assert.equal(await page.evaluate(() => window.__attn.status()), 'finished');
      assert.equal(stepOfUrl(page), '200');
      assert.equal(await page.evaluate(() => window.__attn.playing()), false, 'the timeline pauses');

      // A drag: many pointer moves, one history entry (written on release).
      const before = await page.evaluate(() => history.length);
      const box = await range.boundingBox();
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width * 0.9, y);
      await page.mouse.down();
      for (const f of [0.8, 0.7, 0.6, 0.5, 0.4]) await page.mouse.move(box.x + box.width * f, y, { steps: 3 });
      await page.mouse.up();
      await page.waitForFunction(() => !window.__attn.seeking());
      const at = Number(await range.inputValue());
      await settled(page, at);
      assert.ok(at > 40 && at < 120, `dragged to about 40% (${at})`);
      assert.equal(await page.evaluate(() => history.length), before + 1, 'one history entry for the drag');
      assert.equal(stepOfUrl(page), String(at));
      await page.goBack();
      await page.waitForFunction(() => /step=200/.test(location.hash));
      await settled(page, 200);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a click on the metrics chart jumps there; Replay plays from step 0; t= sets the timeline', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&n=10&t=12.5');
    try {
      await settled(page, 125);
      assert.equal(await page.inputValue('#timeline-range'), '125');
      const L = await page.evaluate(() => window.__attn.chartLayout());
      await page.locator('#chart').scrollIntoViewIfNeeded();
      const box = await page.locator('#chart').boundingBox();
      const u = 0.3;
      await page.mouse.click(box.x + L.x0 + u * (L.x1 - L.x0), box.y + (L.panels[0].y0 + L.panels[0].y1) / 2);
      const want = Math.round((L.start + u * (L.end - L.start)) / 0.1);
      await page.waitForFunction((w) => Math.abs(window.__attn.step() - w) <= 1 && !window.__attn.seeking(), want);
      const at = await page.evaluate(() => window.__attn.step());
      assert.equal(stepOfUrl(page), String(at), 'the jump is written as step=');
      assert.equal(await page.locator('#chart-now').isVisible(), true, 'the chart marks the step shown');

      await page.click('#timeline-replay');
      await page.waitForFunction(() => window.__attn.playing() && window.__attn.step() > 0);
      assert.equal(stepOfUrl(page), null, 'Replay drops step=');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('reduced motion: a preset does not autoplay and the timeline still works; presets suggest slow speeds', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      const { ATTN_URL } = await import('./helpers.mjs');
      await page.goto(`${ATTN_URL}#version=4&preset=polytope`);
      await page.waitForFunction(() => window.__attnReady === true);
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => window.__attn.playing()), false, 'no autoplay');
      assert.equal(await page.evaluate(() => window.__attn.step()), 0);
      assert.equal(await page.textContent('#speed-out'), '1 step / 5 frames', "polytope's suggested speed: 0.2");
      await page.locator('#timeline-range').focus();
      await page.keyboard.press('End');
      await settled(page, 200);
      await page.keyboard.press('Home');
      await settled(page, 0);
      // A fractional speed from a link plays a step every few frames.
      await page.goto(`${ATTN_URL}#version=4&preset=leaders&speed=0.5`);
      await page.waitForFunction(() => /speed=0\.5/.test(location.hash) && window.__attn.configString().includes('leaders'));
      assert.equal(await page.textContent('#speed-out'), '1 step / 2 frames');
    } finally {
      await context.close();
    }
  });
});
