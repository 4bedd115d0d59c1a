// Browser tests of sharing and embedding (share/, particles/view_keys.js): a link copied from
// the page reopens the same run bit for bit with the same view; `t=` opens paused at the same
// tokens as stepping there by hand; the address bar follows the state (slider drags replace the
// history entry, committed changes push one, back and forward restore); embed mode shows only
// the named panels (checked by pixels) and pauses when scrolled away or hidden.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_URL, READY_TIMEOUT_MS, assertNoErrors, canvasSnapshot, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** The run's tokens as raw bytes (n x d f64, row-major), for bit-for-bit comparisons. */
function tokenBytes(page) {
  return page.evaluate(() => Array.from(new Uint8Array(window.__attn.tokens().buffer)));
}

/** Pauses the page if it is playing. */
async function pause(page) {
  if (await page.evaluate(() => window.__attn.playing())) await page.click('#play');
  await page.waitForFunction(() => !window.__attn.playing());
}

/** Waits until the run sits at `step`, not seeking. */
async function atStep(page, step) {
  await page.waitForFunction((s) => window.__attn.step() === s && !window.__attn.seeking(), step, { timeout: 30_000 });
}

/** Types `value` into the field of configuration key `key` and commits it (Enter). */
async function commitField(page, key, value) {
  await page.fill(`#cfg-${key}`, value);
  await page.press(`#cfg-${key}`, 'Enter');
}

/** Moves the speed slider to position `i` with input events only (a drag, not a commit). */
async function dragSpeed(page, i) {
  await page.evaluate((v) => {
    const s = document.getElementById('speed');
    s.value = String(v);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, i);
}

/** Opens `hash` in a fresh page with options newPage takes (reduced motion), waits until ready. */
async function openWith(hash, options) {
  const page = await browser.newPage(options);
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
  await page.goto(`${ATTN_URL}#${hash}`);
  await page.waitForFunction(() => window.__attnReady === true, null, { timeout: READY_TIMEOUT_MS });
  return page;
}

/** Pixels of a PNG screenshot close to the heatmap's dark purple (viridis 0: #440154). */
async function purplePixels(page) {
  const png = await page.screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let k = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - 68) < 10 && d[i + 1] < 12 && Math.abs(d[i + 2] - 84) < 12) k += 1;
    }
    return k;
  }, png.toString('base64'));
}

describe('sharing and embedding', () => {
  test('a copied link reopens the same run bit for bit, with the same view', async () => {
    const page = await openPage(browser, 'preset=hyperplanes');
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ATTN_URL).origin });
      // Parameters through the UI: fields committed with Enter, the view switches.
      await commitField(page, 'n', '25');
      await commitField(page, 'beta', '2');
      await commitField(page, 'seed', '17');
      await page.selectOption('#heat-scale', 'max');
      await page.uncheck('#trails');
      await page.selectOption('#colour', 'index');
      await page.selectOption('#theme', 'dark');
      // Paused first, at the preset's slow speed (a run of 150 steps at 5 steps per frame ends
      // within half a second: the Pause click could land after its end and play past it).
      await pause(page);
      await dragSpeed(page, 7); // 5 steps per frame (the slider starts at 0.1, 0.2, 0.3, 0.5, 1, ...)
      // A moment: reset, then eleven steps by hand.
      await page.click('#reset');
      for (let i = 0; i < 11; i += 1) await page.click('#step');
      await atStep(page, 11);
      await page.check('#share-moment');
      await page.click('#copy-link');
      await page.waitForFunction(() => /copied|Ctrl\+C/.test(document.getElementById('share-status').textContent));
      const url = await page.inputValue('#share-text');
      const copied = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
      if (copied !== null) assert.equal(copied, url, 'the clipboard holds the link shown');
      assert.ok(url.startsWith(ATTN_URL), url);
      const hash = new URL(url).hash.slice(1);
      assert.equal(hash, 'version=1&preset=hyperplanes&n=25&seed=17&beta=2&step=11&theme=dark&speed=5&heatmap=max&trails=0&colour=index');
      const config = await page.evaluate(() => window.__attn.configString());
      const tokens = await tokenBytes(page);

      // The link in a new page: same configuration, paused at step 11, same bytes, same view.
      const other = await openPage(browser, hash);
      try {
        await atStep(other, 11);
        assert.equal(await other.evaluate(() => window.__attn.configString()), config);
        assert.equal(await other.evaluate(() => window.__attn.playing()), false, 'a link with a moment opens paused');
        assert.deepEqual(await tokenBytes(other), tokens, 'tokens differ bit for bit');
        assert.equal(await other.inputValue('#heat-scale'), 'max');
        assert.equal(await other.isChecked('#trails'), false);
        assert.equal(await other.inputValue('#colour'), 'index');
        assert.equal(await other.inputValue('#theme'), 'dark');
        assert.equal(await other.evaluate(() => document.documentElement.dataset.theme), 'dark');
        assert.match(await other.locator('#speed-out').textContent(), /^5 steps/);
        assert.match(await other.locator('#modified').textContent(), /n = 25/);
        // The page background follows the forced theme (dark), whatever the system's.
        const bg = await other.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(bg, 'rgb(17, 20, 24)');
        assertNoErrors(other);
      } finally {
        await other.close();
      }

      // Copy embed code: an iframe of the same link with embed=1 and the panels shown.
      await page.uncheck('[data-panel-toggle="heatmap"]');
      assert.equal(await page.locator('.heatmap-panel').isVisible(), false);
      await page.uncheck('#share-moment');
      await page.selectOption('#embed-size', '640x420');
      await page.click('#copy-embed');
      const snippet = await page.inputValue('#share-text');
      const m = /^<iframe src="([^"]+)" width="640" height="420" style="border:0" title="Attention Dynamics Playground" loading="lazy"><\/iframe>$/.exec(snippet);
      assert.ok(m, snippet);
      const src = m[1].replace(/&amp;/g, '&');
      assert.match(src, /&embed=1&panels=tokens,chart&/);
      assert.doesNotMatch(src, /step=/);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('t= opens paused at the tokens that stepping there by hand gives', async () => {
    // t = 1.26 with dt = 0.1 is rounded to step 13.
    const linked = await openPage(browser, 'preset=polytope-3d&n=25&seed=4&integrator=rk4&t=1.26');
    const byHand = await openPage(browser, 'preset=polytope-3d&n=25&seed=4&integrator=rk4');
    try {
      await atStep(linked, 13);
      assert.equal(await linked.evaluate(() => window.__attn.playing()), false);
      assert.equal(await linked.locator('#status-step').textContent(), '13 / 200');
      await linked.waitForFunction(() => /Opened at step 13, paused/.test(document.getElementById('seek-text').textContent));
      assert.match(await linked.evaluate(() => location.hash), /&t=1\.26$/);

      await pause(byHand);
      await byHand.click('#reset');
      await atStep(byHand, 0);
      for (let i = 0; i < 13; i += 1) await byHand.click('#step');
      await atStep(byHand, 13);
      assert.deepEqual(await tokenBytes(linked), await tokenBytes(byHand), 'tokens differ bit for bit');
      // Both pictures are the same run at the same moment.
      assert.equal((await canvasSnapshot(linked, '#tokens')).inked > 100, true);

      // A moment past the end of the run is refused, naming `t`, and the page keeps working.
      await linked.evaluate(() => {
        location.hash = 'preset=polytope&t=99';
      });
      await linked.waitForFunction(() => document.querySelector('#config-error code.key')?.textContent === 't');
      assert.match(await linked.locator('#config-error').textContent(), /allowed: 0 <= t <= until = 20/);
      assertNoErrors(linked);
      assertNoErrors(byHand);
    } finally {
      await linked.close();
      await byHand.close();
    }
  });

  test('the training lab opens a link with step= paused at that iteration, at its speed', async () => {
    const page = await openPage(browser, 'lab=training&preset=scan-snap&iterations=60&step=25&speed=3&theme=dark');
    try {
      await page.waitForFunction(() => window.__attnTraining?.iteration() === 25 && !window.__attnTraining.playing(), null, { timeout: 30_000 });
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.__attnTraining.iteration()), 25, 'stays paused at the link\'s step');
      assert.equal(await page.locator('#tr-iteration').textContent(), '25 / 60');
      assert.match(await page.locator('#tr-speed-out').textContent(), /^3 iterations/);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      assert.equal(await page.evaluate(() => window.__attnTraining.configString()), 'version=7&lab=training&preset=scan-snap&iterations=60');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the address bar follows the state: drags replace, commits push, back and forward restore', async () => {
    const page = await openPage(browser, 'preset=polytope');
    try {
      const length = () => page.evaluate(() => history.length);
      const hash = () => page.evaluate(() => location.hash);
      const start = await length();
      assert.equal(await hash(), '#version=1&preset=polytope');

      // Dragging the speed slider: the hash follows, no history entry.
      await dragSpeed(page, 6);
      await dragSpeed(page, 8); // 10 steps per frame
      assert.equal(await hash(), '#version=1&preset=polytope&speed=10');
      assert.equal(await length(), start);

      // Committed changes: one entry each.
      await commitField(page, 'n', '15');
      await page.waitForFunction(() => window.__attn.n() === 15);
      assert.equal(await hash(), '#version=1&preset=polytope&n=15&speed=10');
      assert.equal(await length(), start + 1);
      await page.selectOption('#heat-scale', 'max');
      assert.equal(await hash(), '#version=1&preset=polytope&n=15&speed=10&heatmap=max');
      assert.equal(await length(), start + 2);
      await page.selectOption('#preset', 'leaders');
      // A new preset takes its own suggestions (speed, overlays, order, heatmap scale).
      await page.waitForFunction(() => window.__attn.configString() === 'version=7&preset=leaders');
      assert.equal(await hash(), '#version=7&preset=leaders');
      assert.equal(await length(), start + 3);

      // Back: each earlier state is reloaded (run and view), without new entries.
      await page.evaluate(() => history.back());
      await page.waitForFunction(() => window.__attn.configString() === 'version=1&preset=polytope&n=15');
      assert.equal(await page.inputValue('#heat-scale'), 'max');
      await page.evaluate(() => history.back());
      await page.waitForFunction(() => document.getElementById('heat-scale').value === 'one');
      assert.equal(await page.evaluate(() => window.__attn.n()), 15);
      await page.evaluate(() => history.back());
      await page.waitForFunction(() => window.__attn.n() === 20);
      assert.equal(await hash(), '#version=1&preset=polytope&speed=10');
      assert.match(await page.locator('#speed-out').textContent(), /^10 steps/);
      assert.equal(await length(), start + 3);
      // Forward again.
      await page.evaluate(() => history.forward());
      await page.waitForFunction(() => window.__attn.n() === 15);
      assert.equal(await hash(), '#version=1&preset=polytope&n=15&speed=10');
      assert.equal(await length(), start + 3);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('embed mode shows only the named panels and controls, with a link to the full page', async () => {
    const size = { viewport: { width: 640, height: 420 } };
    const page = await openPage(browser, 'preset=hyperplanes&embed=1&panels=tokens,chart', size);
    const all = await openPage(browser, 'preset=hyperplanes&embed=1', size);
    try {
      await page.waitForTimeout(500);
      // Chrome hidden; the named panels drawn; the heatmap absent from the picture.
      for (const sel of ['header.top', '.lab-tabs', '.foot', '.run-panel', '.config-panel', '.share-bar .share-row', '.heatmap-panel']) {
        assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} is hidden`);
      }
      assert.ok((await canvasSnapshot(page, '#tokens')).inked > 500, 'tokens drawn');
      assert.ok((await canvasSnapshot(page, '#chart')).inked > 500, 'chart drawn');
      const tokensBox = await page.locator('#tokens').boundingBox();
      const chartBox = await page.locator('#chart').boundingBox();
      assert.ok(tokensBox.width > 250 && tokensBox.height > 250, JSON.stringify(tokensBox));
      assert.ok(chartBox.x >= tokensBox.x + tokensBox.width - 1, 'chart beside the tokens');
      assert.ok(tokensBox.y + tokensBox.height <= 420 && chartBox.y + chartBox.height <= 420, 'fits the frame');
      // The heatmap's purple shows only when it is named (pixels of the whole screenshot).
      assert.ok(await purplePixels(page) < 50, 'no heatmap pixels when it is not named');
      assert.ok(await purplePixels(all) > 2000, 'heatmap pixels when every panel is shown');
      // The default controls only, and the full playground's link (same run, no embed keys).
      for (const sel of ['#play', '#step', '#reset']) assert.equal(await page.locator(sel).isVisible(), true, sel);
      for (const sel of ['#new-seed', '#cfg-n', '#preset', '#speed', '#trails']) assert.equal(await page.locator(sel).isVisible(), false, sel);
      const open = page.locator('a.embed-open');
      assert.equal(await open.getAttribute('target'), '_blank');
      assert.equal(await open.getAttribute('rel'), 'noopener');
      assert.equal(new URL(await open.getAttribute('href')).hash, '#version=1&preset=hyperplanes&panels=tokens,chart');

      // controls= names what the bar shows; the named field works.
      const custom = await openPage(browser, 'preset=hyperplanes&embed=1&panels=tokens&controls=play,beta,view', size);
      try {
        for (const sel of ['#play', '#cfg-beta', '#trails']) assert.equal(await custom.locator(sel).isVisible(), true, sel);
        for (const sel of ['#step', '#reset', '#cfg-n', '.chart-panel', '.heatmap-panel']) assert.equal(await custom.locator(sel).isVisible(), false, sel);
        await commitField(custom, 'beta', '3');
        await custom.waitForFunction(() => window.__attn.configString().includes('beta=3'));
        assert.match(await custom.evaluate(() => location.hash), /beta=3.*&embed=1&panels=tokens&controls=play,beta,view$/);
        assertNoErrors(custom);
      } finally {
        await custom.close();
      }
      assertNoErrors(page);
      assertNoErrors(all);
    } finally {
      await page.close();
      await all.close();
    }
  });

  test('an embedded view pauses off-screen or hidden, resumes when visible, starts paused under reduced motion', async () => {
    // The host page is served by the test's request routing, at an address Chromium cannot
    // place in the local network, so its local-network-access checks would block the frame at
    // 127.0.0.1 (a real blog and a hosted playground are both public): that check is off here.
    const hostBrowser = await launch({ args: ['--disable-features=LocalNetworkAccessChecks'] });
    const host = await hostBrowser.newPage({ viewport: { width: 900, height: 600 } });
    try {
      // A blog post on another origin (served by the test) embeds the playground, then text.
      const src = `${ATTN_URL}#preset=polytope&until=10000&embed=1&panels=tokens`;
      await host.route('http://localhost:9/blog.html', (route) => route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><body style="margin:0"><iframe src="${src}" width="640" height="420" style="border:0"></iframe><div style="height:3000px"></div></body>`,
      }));
      await host.goto('http://localhost:9/blog.html');
      let f;
      for (let i = 0; i < 300 && !f; i += 1) {
        f = host.frames().find((fr) => fr.url().startsWith(ATTN_URL));
        if (!f) await host.waitForTimeout(100);
      }
      assert.ok(f, 'the embedded playground loads');
      // Polling by timer: an off-screen (or not yet painted) frame gets no animation frames,
      // which waitForFunction polls with by default.
      const poll = { polling: 100, timeout: 30_000 };
      await f.waitForFunction(() => window.__attnReady === true && window.__attn.playing(), null, { ...poll, timeout: READY_TIMEOUT_MS });

      // Scrolled out of view: paused; back in view: playing again.
      await host.evaluate(() => window.scrollTo(0, 2000));
      await f.waitForFunction(() => !window.__attn.playing(), null, poll);
      const stepAway = await f.evaluate(() => window.__attn.step());
      await host.waitForTimeout(400);
      assert.equal(await f.evaluate(() => window.__attn.step()), stepAway, 'no steps while off-screen');
      await host.evaluate(() => window.scrollTo(0, 0));
      await f.waitForFunction((s) => window.__attn.playing() && window.__attn.step() > s, stepAway, poll);

      // The tab hidden (visibilitychange): paused; visible again: playing.
      const setVisibility = (state) => f.evaluate((v) => {
        Object.defineProperty(document, 'visibilityState', { value: v, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
      await setVisibility('hidden');
      await f.waitForFunction(() => !window.__attn.playing(), null, poll);
      await setVisibility('visible');
      await f.waitForFunction(() => window.__attn.playing(), null, poll);

      // A run the user paused stays paused when it comes back into view.
      await f.click('#play');
      await host.evaluate(() => window.scrollTo(0, 2000));
      await host.waitForTimeout(300);
      await host.evaluate(() => window.scrollTo(0, 0));
      await host.waitForTimeout(300);
      assert.equal(await f.evaluate(() => window.__attn.playing()), false);
    } finally {
      await hostBrowser.close();
    }

    const reduced = await openWith('preset=polytope&embed=1', { viewport: { width: 640, height: 420 }, reducedMotion: 'reduce' });
    try {
      await reduced.waitForTimeout(300);
      assert.equal(await reduced.evaluate(() => window.__attn.playing()), false);
      assert.equal(await reduced.evaluate(() => window.__attn.step()), 0);
      assert.equal(await reduced.locator('#motion-note').isVisible(), true);
      assert.deepEqual(reduced.errors, []);
    } finally {
      await reduced.close();
    }
  });
});
