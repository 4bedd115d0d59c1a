// Browser tests of the playground page (run by `cargo xtask test`, which serves www/ at ATTN_URL
// and sets ATTN_BIN). They check what a user sees: pixels that move, the status line, the URL
// hash, messages naming the wrong key, hover readouts, and that the browser computes the same
// bits as the native CLI.

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

/** The number shown after "t =" in the status line. */
async function shownT(page) {
  return Number(await page.locator('#status-t').textContent());
}

/** Pauses the page if it is playing and waits until the status line says so. */
async function pause(page) {
  if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
  await page.waitForFunction(() => !window.__attn.playing() && document.getElementById('status-state').textContent !== 'playing');
}

describe('playground page', () => {
  test('the default preset loads and plays: tokens, heatmap and chart change; no console errors', async () => {
    const page = await openPage(browser, '');
    try {
      // The default preset, announced in the hash and the description.
      assert.equal(await page.evaluate(() => location.hash), '#version=7&preset=polytope');
      assert.match(await page.locator('#description').textContent(), /polytope/);
      assert.equal(await page.inputValue('#preset'), 'polytope');

      // It plays on its own.
      await page.waitForFunction(() => window.__attn.playing() && window.__attn.step() >= 2);
      assert.ok((await canvasSnapshot(page, '#tokens')).inked > 100, 'tokens are drawn');

      // P turns Boolean within ~2 time units, so compare pictures from t = 0: pause (Space),
      // reset (R: stays paused at step 0), snapshot, play again (Space).
      await page.locator('body').press(' ');
      await page.locator('body').press('r');
      await page.waitForFunction(() => !window.__attn.playing() && window.__attn.step() === 0
        && document.getElementById('status-t').textContent === '0.0');
      const tokens0 = await canvasSnapshot(page, '#tokens');
      const heat0 = await canvasSnapshot(page, '#heatmap');
      assert.ok(heat0.inked > 0, 'the heatmap is drawn');
      await page.locator('body').press(' ');
      await page.waitForFunction(() => window.__attn.step() >= 8);
      const tokens1 = await canvasSnapshot(page, '#tokens');
      const heat1 = await canvasSnapshot(page, '#heatmap');
      assert.notEqual(tokens1.hash, tokens0.hash, 'token pixels change over time');
      assert.notEqual(heat1.hash, heat0.hash, 'heatmap pixels change over time');
      assert.ok((await canvasSnapshot(page, '#chart')).inked > 1000, 'the metrics chart is drawn');

      // ...and stops at its `until` (t = 20, step 200).
      await page.waitForFunction(() => window.__attn.status() === 'finished', null, { timeout: 30_000 });
      await page.waitForFunction(() => document.getElementById('status-state').textContent.includes('finished'));
      assert.equal(await shownT(page), 20);
      assert.equal(await page.locator('#status-step').textContent(), '200 / 200');
      assert.equal(await page.evaluate(() => window.__attn.playing()), false);
      assert.ok((await page.locator('#summary').textContent()).includes('polytope'), 'screen-reader summary is filled');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('pause, then step: the displayed t advances by exactly dt', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      await page.waitForFunction(() => window.__attn.step() >= 3);
      await pause(page);
      const dt = await page.evaluate(() => window.__attn.dt());
      const t0 = await shownT(page);
      const step0 = await page.evaluate(() => window.__attn.step());

      await page.click('#step');
      await page.waitForFunction((s) => window.__attn.step() === s + 1, step0);
      await page.waitForFunction((t) => Number(document.getElementById('status-t').textContent) !== t, t0);
      const t1 = await shownT(page);
      assert.ok(Math.abs(t1 - t0 - dt) < 1e-9, `t went from ${t0} to ${t1}, expected +${dt}`);

      // The keyboard does the same: ArrowRight steps, R resets to t = 0.
      await page.locator('body').press('ArrowRight');
      await page.waitForFunction((t) => Number(document.getElementById('status-t').textContent) !== t, t1);
      assert.ok(Math.abs((await shownT(page)) - t1 - dt) < 1e-9);
      assert.equal(await page.evaluate(() => window.__attn.playing()), false, 'stepping keeps the run paused');
      await page.locator('body').press('r');
      await page.waitForFunction(() => document.getElementById('status-t').textContent === '0.0');
      assert.equal(await page.evaluate(() => window.__attn.step()), 0);
      // Space plays again.
      await page.locator('body').press(' ');
      await page.waitForFunction(() => window.__attn.playing() && window.__attn.step() > 0);
      assert.equal(await page.locator('#play').textContent(), 'Pause');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('switching preset changes n shown and the URL hash', async () => {
    const page = await openPage(browser, '');
    try {
      assert.equal(await page.inputValue('#cfg-n'), '20');
      await page.selectOption('#preset', 'polytope-3d');
      await page.waitForFunction(() => window.__attn.n() === 40);
      assert.equal(await page.inputValue('#cfg-n'), '40');
      assert.equal(await page.inputValue('#cfg-d'), '3');
      assert.equal(await page.evaluate(() => location.hash), '#version=7&preset=polytope-3d');
      assert.match(await page.locator('#description').textContent(), /3-D/);
      // The 3-D view is drawn and keeps playing.
      await page.waitForFunction(() => window.__attn.step() >= 5);
      assert.ok((await canvasSnapshot(page, '#tokens')).inked > 100);

      // A committed edit puts the canonical string in the hash, as one new history entry.
      const before = await page.evaluate(() => history.length);
      await page.fill('#cfg-n', '25');
      await page.press('#cfg-n', 'Enter');
      await page.waitForFunction(() => window.__attn.n() === 25);
      assert.equal(await page.evaluate(() => location.hash), '#version=7&preset=polytope-3d&n=25');
      assert.equal(await page.evaluate(() => history.length), before + 1);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a malformed configuration names the key and the last good run keeps working', async () => {
    // d = 3 does not fit the preset's 2 x 2 V: refused, shown with the key, preset run instead.
    const page = await openPage(browser, 'preset=hyperplanes&d=3');
    try {
      const alert = page.locator('#config-error');
      await assert.doesNotReject(alert.waitFor({ state: 'visible' }));
      assert.equal(await alert.getAttribute('role'), 'alert');
      assert.equal(await alert.locator('code.key').textContent(), 'v');
      assert.match(await alert.textContent(), /d x d = 3 x 3/);
      assert.equal(await page.evaluate(() => window.__attn.configString()), 'version=1&preset=hyperplanes');
      assert.equal(await page.inputValue('#cfg-d'), '3', 'the controls show what the link asked for');
      assert.equal(await page.getAttribute('#cfg-v', 'aria-invalid'), 'true');

      // Typing a bad matrix into V: the message names `v` and says what is wrong.
      await page.fill('#cfg-v', '1,2;3');
      await page.press('#cfg-v', 'Enter');
      await page.waitForFunction(() => document.querySelector('#config-error code.key')?.textContent === 'v'
        && /row 2 has 1 entries/.test(document.getElementById('config-error').textContent));
      assert.equal(await page.evaluate(() => window.__attn.configString()), 'version=1&preset=hyperplanes');

      // The last good run still steps.
      await pause(page);
      const step0 = await page.evaluate(() => window.__attn.step());
      const t0 = await shownT(page);
      await page.click('#step');
      await page.waitForFunction((s) => window.__attn.step() === s + 1, step0);
      await page.waitForFunction((t) => Number(document.getElementById('status-t').textContent) > t, t0);

      // A valid 3 x 3 V applies the link's d = 3.
      await page.fill('#cfg-v', '1,0,0;0,1,0;0,0,-0.5');
      await page.press('#cfg-v', 'Enter');
      await page.waitForFunction(() => window.__attn.d() === 3);
      assert.equal(await alert.textContent(), '');
      assert.equal(await page.evaluate(() => location.hash), '#version=1&preset=hyperplanes&d=3&v=1,0,0;0,1,0;0,0,-0.5');

      // A bad number in the hash: named too, and nothing breaks.
      await page.evaluate(() => {
        location.hash = 'preset=polytope&beta=abc';
      });
      await page.waitForFunction(() => document.querySelector('#config-error code.key')?.textContent === 'beta');
      assert.equal(await page.evaluate(() => window.__attn.d()), 3, 'the last good run is kept');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('wasm and the native CLI produce bit-identical tokens', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, async () => {
    const page = await openPage(browser, '');
    try {
      // Integrated coordinates on both sides: polytope-3d integrates z, sphere-sa integrates x.
      for (const config of ['preset=polytope-3d&coords=z', 'preset=sphere-sa&integrator=rk4&coords=x']) {
        const steps = 200;
        const web = await page.evaluate(({ config, steps }) => {
          const s = new window.__attn.wasm.ParticleLab(config);
          const taken = s.advance_past_end(steps);
          const coords = s.integrate_in();
          const x = s.tokens(coords);
          const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
          let bin = '';
          for (const b of bytes) bin += String.fromCharCode(b);
          const out = { taken, coords, dt: s.dt(), n: s.n(), d: s.d(), b64: btoa(bin) };
          s.free();
          return out;
        }, { config, steps });
        assert.equal(web.taken, steps);
        assert.ok(config.endsWith(`coords=${web.coords}`), 'compare the integrated coordinates');

        const until = String(steps * web.dt);
        const out = JSON.parse(await runCli(['run', '--config', config, '--until', until, '--every', until, '--format', 'json']));
        const last = out.frames.at(-1);
        assert.equal(last.step, steps);
        const native = Float64Array.from(last.tokens.flat());
        assert.equal(native.length, web.n * web.d);
        const webBytes = Buffer.from(web.b64, 'base64');
        const nativeBytes = Buffer.from(native.buffer);
        assert.ok(webBytes.equals(nativeBytes), `${config}: wasm and native tokens differ after ${steps} steps`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('hovering the heatmap shows (i, j) and the exact P_ij; hovering the chart shows values', async () => {
    const page = await openPage(browser, 'preset=polytope&order=index');
    try {
      await page.waitForFunction(() => window.__attn.step() >= 5);
      await pause(page);
      const heatmap = page.locator('#heatmap');
      const box = await heatmap.boundingBox();
      // n = 20: column j = floor(0.275 * 20) = 5, row i = floor(0.725 * 20) = 14.
      await heatmap.hover({ position: { x: 0.275 * box.width, y: 0.725 * box.height } });
      const tip = page.locator('#heatmap-tip');
      await tip.waitFor({ state: 'visible' });
      const text = await tip.textContent();
      assert.match(text, /\(i, j\) = \(14, 5\)/);
      const m = /P\[14, 5\] = ([0-9.eE+-]+)/.exec(text);
      assert.ok(m, `tooltip shows the value: ${text}`);
      // Exactly P_14,5 of the same state, computed separately.
      const expected = await page.evaluate(() => {
        const s = new window.__attn.wasm.ParticleLab(window.__attn.configString());
        s.advance(window.__attn.step());
        const p = s.attention();
        const v = p[14 * s.n() + 5];
        s.free();
        return String(v);
      });
      assert.equal(m[1], expected);

      const chart = page.locator('#chart');
      const cbox = await chart.boundingBox();
      await chart.hover({ position: { x: cbox.width * 0.3, y: cbox.height * 0.3 } });
      const ctip = page.locator('#chart-tip');
      await ctip.waitFor({ state: 'visible' });
      assert.match(await ctip.textContent(), /t = [0-9.]+ \(step \d+\).*clusters: \d+.*Boolean distance: .*effective rank: /);
      assert.doesNotMatch(await ctip.textContent(), /energy/, 'no energy row where it is not defined');
      const names = await page.evaluate(() => window.__attn.chartLayout().panels.map((p) => p.name));
      assert.deepEqual(names, ['clusters', 'boolean_distance', 'effective_rank'], 'no energy row on a Euclidean preset');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('model switch and matrix shortcuts build valid configurations', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      // Switching to the sphere model also sets the keys it requires, and says so.
      await page.selectOption('#cfg-model', 'sphere-sa');
      await page.waitForFunction(() => window.__attn.configString().includes('model=sphere-sa'));
      assert.equal(
        await page.evaluate(() => window.__attn.configString()),
        'version=1&preset=polytope&model=sphere-sa&integrate_in=x&integrator=retraction&coords=x',
      );
      assert.match(await page.locator('#config-note').textContent(), /integrate_in = x/);
      assert.equal(await page.isDisabled('input[name="coords"][value="z"]'), true, 'z is for the euclidean model');
      assert.match(await page.locator('#chart-caption').textContent(), /Energy Eβ = 1\/\(2βn²\)/, 'energy is defined: Q = K = V = I');
      assert.equal(await page.locator('#chart-caption sub').first().textContent(), 'β', 'Eβ: β as a subscript');

      // The paper's 2-D V from its shortcut button.
      await page.click('[data-set="v"][data-value="paper-2d"]');
      await page.waitForFunction(() => window.__attn.configString().includes('&v=0.64709742,0.81911926;0.61210449,0.63263484'));
      assert.equal(await page.inputValue('#cfg-v'), '0.64709742,0.81911926;0.61210449,0.63263484');
      assert.equal(await page.locator('#config-error').textContent(), '');
      assert.match(await page.locator('#chart-caption').textContent(), /Energy: defined for sphere models with Q = K = V = I/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('polytope-line shows its polytope: per-axis scales by default; axes=equal flattens it; the scale select writes axes', async () => {
    const spread = async (page) => {
      const pts = await page.evaluate(() => window.__attn.drawnTokens());
      const xs = pts.map((p) => p[0]);
      const width = await page.evaluate(() => document.querySelector('#tokens').getBoundingClientRect().width);
      return (Math.max(...xs) - Math.min(...xs)) / width;
    };
    const base = 'version=4&preset=polytope-line&t=15';
    const page = await openPage(browser, base);
    try {
      await page.waitForFunction(() => window.__attn.step() === 150 && window.__attn.drawnTokens().length === 30);
      assert.equal(await page.inputValue('#scale'), 'per-axis', "the preset's suggestion");
      assert.equal(await page.evaluate(() => location.hash), `#${base}`, 'a suggestion is not written');
      const perAxis = await spread(page);
      assert.ok(perAxis > 0.4, `per-axis: the polytope of z1, z2 spreads across the view (${perAxis})`);
      const start = await page.evaluate(() => history.length);
      await page.selectOption('#scale', 'equal');
      await page.waitForFunction(() => location.hash.endsWith('&axes=equal'));
      assert.equal(await page.evaluate(() => history.length), start + 1, 'a chosen scale is a history entry');
      await page.waitForFunction(() => window.__attn.drawnTokens().length === 30);
      const equal = await spread(page);
      assert.ok(equal < 0.1, `equal axes: the diverging z3 flattens the polytope into a line (${equal})`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
    const linked = await openPage(browser, `${base}&axes=equal`);
    try {
      await linked.waitForFunction(() => window.__attn.step() === 150 && window.__attn.drawnTokens().length === 30);
      assert.equal(await linked.inputValue('#scale'), 'equal');
      assert.ok(await spread(linked) < 0.1);
      assertNoErrors(linked);
    } finally {
      await linked.close();
    }
  });

  test('the heatmap orders rows and columns by cluster (default), by leader or by index, with lines between groups; hovers name the tokens', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope&t=20');
    try {
      await page.waitForFunction(() => window.__attn.step() === 200 && window.__attn.metrics()?.step === 200
        && window.__attn.heatmapOrder().perm.length === 20);
      assert.equal(await page.inputValue('#heat-order'), 'cluster');
      const { perm, starts } = await page.evaluate(() => window.__attn.heatmapOrder());
      const labels = Array.from(await page.evaluate(() => Array.from(window.__attn.labels())));
      assert.deepEqual([...perm].sort((a, b) => a - b), [...Array(20).keys()], 'a permutation of the tokens');
      // Groups: one cluster each, largest first.
      const bounds = [0, ...starts, 20];
      const sizes = [];
      for (let g = 0; g + 1 < bounds.length; g += 1) {
        const group = perm.slice(bounds[g], bounds[g + 1]).map((i) => labels[i]);
        assert.equal(new Set(group).size, 1, `group ${g} is one cluster: ${group}`);
        sizes.push(group.length);
      }
      assert.ok(starts.length >= 2, `polytope ends in several clusters (${starts})`);
      assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a), 'largest cluster first');
      // A separator line in the panel's colour at the first group start, across the image.
      const snap = await canvasSnapshot(page, '#heatmap', { pixels: true });
      const x = Math.round((starts[0] / 20) * snap.width);
      const px = (xx, yy) => Array.from(snap.pixels.slice((yy * snap.width + xx) * 4, (yy * snap.width + xx) * 4 + 3));
      const line = px(x, Math.floor(((bounds[0] + bounds[1]) / 2 / 20) * snap.height));
      assert.ok(line.every((c) => c > 200), `the separator is drawn in the light panel colour: ${line}`);
      // Mid-height of the first and the last group's rows (off the horizontal separators).
      const mid = (g) => Math.floor(((bounds[g] + bounds[g + 1]) / 2 / 20) * snap.height);
      for (const y of [mid(0), mid(bounds.length - 2)]) {
        assert.deepEqual(px(x, y), line, `separator at x = ${x}, y = ${y}`);
        assert.notDeepEqual(px(x - 4, y), line, 'the image either side of it');
      }
      // Hover the first cell: the tokens of position 0.
      const heatmap = page.locator('#heatmap');
      const box = await heatmap.boundingBox();
      await heatmap.hover({ position: { x: 0.5 / 20 * box.width, y: 0.5 / 20 * box.height } });
      const tip = page.locator('#heatmap-tip');
      await tip.waitFor({ state: 'visible' });
      assert.match(await tip.textContent(), new RegExp(`\\(i, j\\) = \\(${perm[0]}, ${perm[0]}\\)`));
      // Token order: the identity, no lines; the link writes order=index, Back restores.
      await page.selectOption('#heat-order', 'index');
      await page.waitForFunction(() => location.hash.endsWith('&order=index'));
      await page.waitForFunction(() => window.__attn.heatmapOrder().starts.length === 0);
      assert.deepEqual((await page.evaluate(() => window.__attn.heatmapOrder())).perm, [...Array(20).keys()]);
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#heat-order').value === 'cluster');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
    // Leaders: in the 1-D preset every row's largest entry is its leader; each group starts with it.
    const leaders = await openPage(browser, 'version=4&preset=leaders&t=10&order=leader');
    try {
      await leaders.waitForFunction(() => window.__attn.step() === 100 && window.__attn.heatmapOrder().perm.length === 40);
      const { perm, starts } = await leaders.evaluate(() => window.__attn.heatmapOrder());
      const p = await leaders.evaluate(() => {
        const s = new window.__attn.wasm.ParticleLab(window.__attn.configString());
        s.advance(100);
        const out = Array.from(s.attention());
        s.free();
        return out;
      });
      const argmax = (i) => p.slice(i * 40, (i + 1) * 40).reduce((best, x, j, row) => (x > row[best] ? j : best), 0);
      const bounds = [0, ...starts, 40];
      assert.ok(starts.length >= 1 && starts.length <= 10, `a few leaders (${starts.length + 1})`);
      for (let g = 0; g + 1 < bounds.length; g += 1) {
        const group = perm.slice(bounds[g], bounds[g + 1]);
        const leader = argmax(group[0]);
        assert.ok(group.every((i) => argmax(i) === leader), `group ${g} follows one leader`);
        if (group.includes(leader)) assert.equal(group[0], leader, 'the leader heads its group');
      }
      assertNoErrors(leaders);
    } finally {
      await leaders.close();
    }
  });

  test('on a phone-sized screen the panels stack in one column without sideways scrolling', async () => {
    const page = await openPage(browser, 'preset=polytope', { viewport: { width: 390, height: 844 } });
    try {
      const layout = await page.evaluate(() => {
        const left = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().left);
        const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top);
        return {
          scrollWidth: document.documentElement.scrollWidth,
          lefts: ['.tokens-panel', '.run-panel', '.heatmap-panel', '.chart-panel', '.config-panel'].map(left),
          tops: ['.tokens-panel', '.run-panel', '.heatmap-panel', '.chart-panel', '.config-panel'].map(top),
        };
      });
      assert.ok(layout.scrollWidth <= 390, `no horizontal scroll (scrollWidth ${layout.scrollWidth})`);
      assert.equal(new Set(layout.lefts).size, 1, `one column: ${layout.lefts}`);
      assert.deepEqual([...layout.tops].sort((a, b) => a - b), layout.tops, 'tokens (right after the status line), run controls, heatmap, chart, model');
      assert.ok((await canvasSnapshot(page, '#tokens')).inked > 100);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('divergence pauses with the message and a one-click fix (halve dt)', async () => {
    // Raw tokens growing like e^(100 t): the attention scores overflow after about 74 steps.
    const page = await openPage(browser, 'preset=polytope&integrate_in=x&coords=x&v=100,0;0,100');
    try {
      await page.waitForFunction(() => window.__attn.status() === 'diverged', null, { timeout: 20_000 });
      const box = page.locator('#divergence');
      await box.waitFor({ state: 'visible' });
      assert.match(await box.textContent(), /overflowed/);
      assert.equal(await page.evaluate(() => window.__attn.playing()), false);
      assert.match(await page.locator('#status-state').textContent(), /diverged/);
      await page.click('#halve-dt');
      // The fix restarts the run at once (it overflows again later, at 1 step per frame ~1.6 s on).
      await page.waitForFunction(() => window.__attn.dt() === 0.05
        && document.getElementById('divergence').hidden && window.__attn.status() === 'running');
      assert.match(await page.evaluate(() => location.hash), /dt=0\.05/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
