// The postMessage API (www/embed/api.js, schema in www/embed/protocol.js): the schema in Node,
// then the example host page (www/host.html) driving an embedded playground in real Chromium:
// play -> t increases, pause -> t stays, seek -> the reported t (tokens bit for bit as stepping
// there), setConfig -> the new n, invalid commands -> error events naming the field, the origin
// of every command reported, height events resizing the iframe.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_URL, launch } from './helpers.mjs';
import { MAX_CONFIG, parseCommand } from '../../www/embed/protocol.js';

describe('postMessage command schema', () => {
  const ok = (data) => {
    const r = parseCommand(data);
    assert.equal(r?.ok, true, JSON.stringify(r));
    return r.command;
  };
  const bad = (data, field) => {
    const r = parseCommand(data);
    assert.equal(r?.ok, false, `${JSON.stringify(data)} should be refused`);
    assert.equal(r.field, field, r.message);
    return r;
  };
  const T = 'attn-playground';

  test('messages not addressed to the playground are ignored', () => {
    for (const data of [null, undefined, 'play', 42, [], { type: 'play' }, { target: 'other', type: 'play' }, { source: T, type: 'state' }]) {
      assert.equal(parseCommand(data), null, JSON.stringify(data));
    }
  });

  test('valid commands', () => {
    assert.deepEqual(ok({ target: T, type: 'play' }), { type: 'play', id: null });
    assert.deepEqual(ok({ target: T, type: 'pause', id: 7 }), { type: 'pause', id: 7 });
    assert.deepEqual(ok({ target: T, type: 'seek', t: 2.5, id: 'a' }), { type: 'seek', id: 'a', t: 2.5 });
    assert.deepEqual(ok({ target: T, type: 'seek', t: 0 }).t, 0);
    assert.equal(ok({ target: T, type: 'setConfig', config: 'preset=leaders' }).config, 'preset=leaders');
    assert.equal(ok({ target: T, type: 'getState' }).type, 'getState');
  });

  test('invalid commands name the field that is wrong', () => {
    assert.match(bad({ target: T, type: 'explode' }, 'type').message, /unknown command "explode"; allowed: play, pause, getState, seek, setConfig/);
    bad({ target: T }, 'type');
    bad({ target: T, type: 7 }, 'type');
    bad({ target: T, type: '__proto__' }, 'type');
    bad({ target: T, type: 'toString' }, 'type');
    bad({ target: T, type: 'seek' }, 't');
    for (const t of ['5', NaN, Infinity, -Infinity, -1, 1e7, null, [1], { v: 1 }]) bad({ target: T, type: 'seek', t }, 't');
    bad({ target: T, type: 'setConfig' }, 'config');
    bad({ target: T, type: 'setConfig', config: 3 }, 'config');
    assert.match(bad({ target: T, type: 'setConfig', config: 'x'.repeat(MAX_CONFIG + 1) }, 'config').message, /at most/);
    bad({ target: T, type: 'play', id: 'x'.repeat(65) }, 'id');
    bad({ target: T, type: 'play', id: NaN }, 'id');
    bad({ target: T, type: 'play', id: {} }, 'id');
    assert.match(bad({ target: T, type: 'play', speed: 3 }, 'speed').message, /unknown field for play/);
    bad({ target: T, type: 'seek', t: 1, config: 'preset=polytope' }, 'config');
  });
});

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Opens the host page embedding `link`; returns the page, the playground's frame and helpers. */
async function openHost(link) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console.error: ${m.text()}`));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  await page.goto(`${ATTN_URL}host.html#${link}`);
  await page.waitForFunction(() => window.__hostEvents?.some((e) => e.type === 'ready'), null, { timeout: 30_000 });
  const frame = page.frames().find((f) => f.url().includes('index.html'));
  assert.ok(frame, 'the playground frame');
  /** Events received so far. */
  const events = () => page.evaluate(() => window.__hostEvents);
  /** Sends a command through the host page; resolves to the reply (state or error). */
  const send = async (type, fields = {}) => {
    const id = await page.evaluate(({ type, fields }) => window.__hostSend(type, fields), { type, fields });
    const handle = await page.waitForFunction((id) => window.__hostEvents.find((e) => e.replyTo === id), id, { timeout: 30_000 });
    return handle.jsonValue();
  };
  return { page, frame, events, send, errors };
}

describe('postMessage API through www/host.html', () => {
  test('play, pause, seek, setConfig, getState drive the embedded playground', async () => {
    const { page, frame, events, send, errors } = await openHost('preset=polytope&seed=4&embed=1');
    try {
      const origin = new URL(ATTN_URL).origin;
      const ready = (await events()).find((e) => e.type === 'ready');
      assert.equal(ready.source, 'attn-playground');
      assert.equal(ready.version, 1);
      assert.deepEqual(ready.commands, ['play', 'pause', 'getState', 'seek', 'setConfig']);

      // pause -> t stays
      let reply = await send('pause');
      assert.equal(reply.type, 'state');
      assert.equal(reply.command, 'pause');
      assert.equal(reply.origin, origin, 'the reply reports the origin of the command');
      assert.equal(reply.status, 'paused');
      await page.waitForTimeout(400);
      const still = await send('getState');
      assert.equal(still.t, reply.t, 'paused: t stays');
      assert.match(await frame.locator('#api-status').textContent(), new RegExp(`Controlled by ${origin.replace(/[.]/g, '\\.')}: getState`));

      // play -> t increases; state events arrive on their own, at most ~4 per second
      reply = await send('play');
      assert.equal(reply.status, 'playing');
      const before = (await events()).length;
      await page.waitForTimeout(2000);
      const later = (await events()).slice(before).filter((e) => e.type === 'state' && e.replyTo === undefined);
      assert.ok(later.length >= 3 && later.length <= 10, `${later.length} state events in 2 s`);
      assert.ok(later.at(-1).t > reply.t, `t increased: ${reply.t} -> ${later.at(-1).t}`);
      assert.ok(later.every((e) => e.status === 'playing' && Number.isFinite(e.step)));
      const m = later.at(-1).metrics;
      assert.ok(m && Number.isInteger(m.clusters) && 'boolean_distance' in m && 'effective_rank' in m && 'energy' in m, JSON.stringify(m));

      // seek -> the reported t, paused there, tokens as stepping there by hand
      reply = await send('seek', { t: 3.26 });
      assert.equal(reply.command, 'seek');
      assert.equal(reply.step, 33, 't rounded to the nearest step');
      assert.ok(Math.abs(reply.t - 3.3) < 1e-9, `t = ${reply.t}`);
      assert.equal(reply.status, 'paused');
      const same = await frame.evaluate(() => {
        const s = new window.__attn.wasm.ParticleLab(window.__attn.configString());
        s.advance(33);
        const a = s.tokens(s.coords());
        const b = window.__attn.tokens();
        s.free();
        return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
      });
      assert.ok(same, 'seek gives the tokens of stepping there by hand, bit for bit');
      reply = await send('seek', { t: 1 }); // backwards: computed again from t = 0
      assert.equal(reply.step, 10);

      // setConfig -> new n; the frame's hash follows
      reply = await send('setConfig', { config: 'preset=polytope-3d&n=30' });
      assert.equal(reply.type, 'state');
      assert.equal(reply.n, 30);
      assert.equal(await frame.evaluate(() => window.__attn.n()), 30);
      assert.match(await frame.evaluate(() => location.hash), /preset=polytope-3d.*&embed=1/, 'still embedded');
      assert.equal(reply.config, await frame.evaluate(() => window.__attn.configString()));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('invalid commands get error events naming the field; the run is kept', async () => {
    const { page, frame, send, errors } = await openHost('preset=leaders');
    try {
      const config = await frame.evaluate(() => window.__attn.configString());
      let reply = await send('seek');
      assert.equal(reply.type, 'error');
      assert.equal(reply.command, 'seek');
      assert.equal(reply.field, 't');
      assert.equal(reply.origin, new URL(ATTN_URL).origin);
      reply = await send('seek', { t: 'soon' });
      assert.equal(reply.field, 't');
      assert.match(reply.message, /must be a number/);
      reply = await send('seek', { t: 1e6 });
      assert.equal(reply.field, 't', 'more steps than a run may take');
      reply = await send('warp');
      assert.equal(reply.field, 'type');
      reply = await send('play', { speed: 9 });
      assert.equal(reply.field, 'speed');
      reply = await send('setConfig', { config: 'preset=leaders&beta=-1' });
      assert.equal(reply.field, 'config');
      assert.equal(reply.key, 'beta');
      assert.equal(await frame.locator('#config-error code.key').textContent(), 'beta', 'the page names the key too');
      reply = await send('setConfig', { config: '<img src=x onerror=window.__pwned=1>' });
      assert.equal(reply.type, 'error');
      reply = await send('setConfig', { config: 'lab=training&preset=scan-snap' });
      assert.equal(reply.field, 'config');
      assert.match(reply.message, /training lab/);
      // Embed mode is the embedding page's: a setConfig that sets it is refused naming `embed`.
      for (const embed of ['0', '1']) {
        reply = await send('setConfig', { config: `version=4&preset=leaders&n=12&embed=${embed}` });
        assert.equal(reply.type, 'error');
        assert.equal(reply.field, 'config');
        assert.equal(reply.key, 'embed');
        assert.match(reply.message, /setConfig cannot change embed mode/);
      }
      assert.equal(await frame.evaluate(() => window.__attn.configString()), config, 'the run is kept');
      assert.equal(await frame.evaluate(() => window.__pwned), undefined);
      // The status line in the frame says who sent what.
      assert.match(await frame.locator('#api-status').textContent(), /Controlled by http:\/\/127\.0\.0\.1:\d+: /);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('an embed of another lab refuses a particle setConfig naming lab, and keeps its view', async () => {
    const embeds = [
      { lab: 'depth', link: 'version=4&lab=depth&preset=collapse-small&embed=1&panels=residual&controls=preset,recompute', box: '#dp-config-error' },
      { lab: 'model', link: 'lab=model&embed=1&panels=grid&controls=text,run', box: '#md-error' },
    ];
    for (const { lab, link, box } of embeds) {
      const { page, frame, send, errors } = await openHost(link);
      try {
        await frame.waitForFunction((id) => !document.getElementById(`lab-${id}`).hidden, lab);
        const hash = await frame.evaluate(() => location.hash);
        const reply = await send('setConfig', { config: 'version=4&preset=polytope&n=12' });
        assert.equal(reply.type, 'error', `${lab}: ${JSON.stringify(reply)}`);
        assert.equal(reply.field, 'config');
        assert.equal(reply.key, 'lab');
        assert.match(reply.message, new RegExp(`^\`lab\`: this embed shows the ${lab} lab .*embed a particle link to drive it$`));
        // The embed keeps its lab, its link (embed=1, panels, controls) and its layout.
        assert.equal(await frame.evaluate(() => location.hash), hash);
        assert.equal(await frame.evaluate((id) => document.getElementById(`lab-${id}`).hidden, lab), false);
        assert.equal(await frame.evaluate(() => document.getElementById('lab-particles').hidden), true);
        assert.equal(await frame.evaluate(() => document.documentElement.classList.contains('embed')), true);
        assert.match(await frame.locator(box).textContent(), new RegExp(`this embed shows the ${lab} lab`), 'the embed shows the refusal');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
    // The full page (no embed=1) opens a particle link sent to it in the particle lab, as a link.
    const { page, frame, send, errors } = await openHost('version=4&lab=depth&preset=collapse-small');
    try {
      const reply = await send('setConfig', { config: 'version=4&preset=polytope&n=12' });
      assert.equal(reply.type, 'state');
      assert.equal(reply.n, 12);
      assert.equal(await frame.evaluate(() => document.getElementById('lab-particles').hidden), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('height events resize the iframe to the document', async () => {
    // Embedded (embed=1) the playground fills the frame: its height is the frame's.
    const embedded = await openHost('preset=polytope&embed=1');
    try {
      await embedded.page.waitForFunction(() => window.__hostEvents.some((e) => e.type === 'height'));
      const h = (await embedded.events()).find((e) => e.type === 'height').px;
      assert.equal(h, await embedded.page.evaluate(() => Math.round(document.getElementById('embed').clientHeight)));
      assert.deepEqual(embedded.errors, []);
    } finally {
      await embedded.page.close();
    }
    // The full page has the height of its content, which the host follows.
    const { page, events, errors } = await openHost('preset=polytope');
    try {
      await page.waitForFunction(() => window.__hostEvents.some((e) => e.type === 'height'));
      const iframeHeight = () => page.evaluate(() => Math.round(document.getElementById('embed').getBoundingClientRect().height));
      const lastHeight = async () => (await events()).filter((e) => e.type === 'height').at(-1).px;
      await page.waitForFunction(() => {
        const h = window.__hostEvents.filter((e) => e.type === 'height').at(-1).px;
        return Math.abs(document.getElementById('embed').getBoundingClientRect().height - Math.min(6000, Math.max(200, h))) <= 2;
      });
      const px = await lastHeight();
      assert.ok(px > 150, `document height ${px}`);
      // A narrower frame reflows the playground: a new height arrives and the iframe follows.
      const count = (await events()).filter((e) => e.type === 'height').length;
      await page.evaluate(() => { document.getElementById('embed').style.width = '420px'; });
      await page.waitForFunction((n) => window.__hostEvents.filter((e) => e.type === 'height').length > n, count);
      const px2 = await lastHeight();
      assert.notEqual(px2, px);
      await page.waitForFunction((h) => Math.abs(document.getElementById('embed').getBoundingClientRect().height - Math.min(6000, Math.max(200, h))) <= 2, px2);
      assert.ok(Math.abs((await iframeHeight()) - Math.min(6000, px2)) <= 2);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
