// Browser tests of what the labs' shared interface (www/lab/) made the same in every lab: an
// embedded view's fields, the depth lab's view key, the history entries of committed changes, of
// embedded pages and of the postMessage API, and the one writer of the address bar.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { ATTN_URL, assertNoErrors, canvasSnapshot, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const EMBED = { viewport: { width: 640, height: 420 } };
const WWW = new URL('../../www/', import.meta.url);

/** The page's own modules (www/ but its build output, pkg/ and bundle/). */
async function sources(dir = WWW) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (e.name !== 'pkg' && e.name !== 'bundle' && e.name !== 'node_modules') out.push(...await sources(new URL(`${e.name}/`, dir)));
    } else if (/\.(js|mjs|html|css)$/.test(e.name)) {
      out.push(new URL(e.name, dir));
    }
  }
  return out;
}

/** Types `value` into field `#id` and presses Enter. */
async function enter(page, id, value) {
  await page.fill(id, value);
  await page.press(id, 'Enter');
}

/** Waits until the depth lab has computed every variant of `config`. */
async function depthSettled(page, config) {
  await page.waitForFunction((c) => {
    const d = window.__attnDepth;
    return d && !d.busy() && d.total() > 0 && d.done() === d.total() && d.configString() === c;
  }, config, { timeout: 60_000 });
}

describe('one lab interface', () => {
  test('lab/address_bar.js is the only module that writes the address bar', async () => {
    const writes = /history\.(pushState|replaceState)|location\.hash\s*=(?!=)|location\.(replace|assign)\b|location\.href\s*=(?!=)|(?<![\w.])location\s*=(?!=)/;
    const found = [];
    for (const url of await sources()) {
      const path = url.pathname.slice(WWW.pathname.length);
      if (path === 'lab/address_bar.js') continue;
      (await readFile(url, 'utf8')).split('\n').forEach((line, i) => {
        if (writes.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, []);
    assert.match(await readFile(new URL('lab/address_bar.js', WWW), 'utf8'), /history\.pushState/);
  });

  test('every page file is at most 500 lines and every module starts with a comment saying what it is for', async () => {
    const long = [];
    const silent = [];
    for (const url of await sources()) {
      const path = url.pathname.slice(WWW.pathname.length);
      const text = await readFile(url, 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > 500) long.push(`${path}: ${lines} lines`);
      if (path.endsWith('.js') && !text.startsWith('// ')) silent.push(path);
    }
    assert.deepEqual(long, []);
    assert.deepEqual(silent, []);
  });

  test('embedded training and depth fields show the current values and Enter applies them', async () => {
    const tr = await openPage(browser, 'version=7&lab=training&preset=scan-snap&embed=1&panels=chart&controls=play,reset,eta_z,ratio,iterations,preset', EMBED);
    try {
      await tr.waitForFunction(() => window.__attnTraining?.configString() === 'version=7&lab=training&preset=scan-snap');
      for (const [id, value] of [['#tr-eta_z', '1'], ['#tr-ratio', '1'], ['#tr-iterations', '1000'], ['#tr-preset', 'scan-snap']]) {
        assert.equal(await tr.locator(`.embed-bar ${id}`).isVisible(), true, `${id} is in the embed's bar`);
        assert.equal(await tr.inputValue(id), value, `${id} shows the current value`);
      }
      await enter(tr, '#tr-eta_z', '2');
      await tr.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap&eta_z=2');
      assert.equal(await tr.inputValue('#tr-eta_z'), '2');
      assertNoErrors(tr);
    } finally {
      await tr.close();
    }

    const dp = await openPage(browser, 'version=7&lab=depth&preset=collapse-small&embed=1&panels=residual&controls=preset,layers,heads,variants', EMBED);
    try {
      await depthSettled(dp, 'version=7&lab=depth&preset=collapse-small');
      for (const [id, value] of [['#dp-layers', '12'], ['#dp-heads', '4'], ['#dp-variants', 'san,san-mlp,san-skip,transformer'], ['#dp-preset', 'collapse-small']]) {
        assert.equal(await dp.locator(`.embed-bar ${id}`).isVisible(), true, `${id} is in the embed's bar`);
        assert.equal(await dp.inputValue(id), value, `${id} shows the current value`);
      }
      await enter(dp, '#dp-layers', '6');
      await depthSettled(dp, 'version=7&lab=depth&preset=collapse-small&layers=6');
      assert.equal(await dp.inputValue('#dp-layers'), '6');
      assertNoErrors(dp);
    } finally {
      await dp.close();
    }
  });

  test('a committed edit in the training and depth labs is a history entry: Back restores the previous value', async () => {
    const tr = await openPage(browser, 'version=7&lab=training&preset=scan-snap');
    try {
      await tr.waitForFunction(() => window.__attnTraining?.configString() === 'version=7&lab=training&preset=scan-snap');
      const start = await tr.evaluate(() => history.length);
      await enter(tr, '#tr-eta_z', '2');
      await tr.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap&eta_z=2');
      assert.equal(await tr.evaluate(() => location.hash), '#version=7&lab=training&preset=scan-snap&eta_z=2');
      assert.equal(await tr.evaluate(() => history.length), start + 1, 'one history entry');
      await tr.goBack();
      await tr.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap');
      assert.equal(await tr.inputValue('#tr-eta_z'), '1', 'Back restores the previous value');
      assert.equal(await tr.evaluate(() => location.hash), '#version=7&lab=training&preset=scan-snap');
      await tr.goForward();
      await tr.waitForFunction(() => window.__attnTraining.configString() === 'version=7&lab=training&preset=scan-snap&eta_z=2');
      assert.equal(await tr.inputValue('#tr-eta_z'), '2');
      assertNoErrors(tr);
    } finally {
      await tr.close();
    }

    const dp = await openPage(browser, 'lab=depth&preset=collapse-small');
    try {
      await depthSettled(dp, 'version=7&lab=depth&preset=collapse-small');
      const start = await dp.evaluate(() => history.length);
      await enter(dp, '#dp-layers', '6');
      await depthSettled(dp, 'version=7&lab=depth&preset=collapse-small&layers=6');
      assert.equal(await dp.evaluate(() => location.hash), '#version=7&lab=depth&preset=collapse-small&layers=6');
      assert.equal(await dp.evaluate(() => history.length), start + 1, 'one history entry');
      await dp.goBack();
      await depthSettled(dp, 'version=7&lab=depth&preset=collapse-small');
      assert.equal(await dp.inputValue('#dp-layers'), '12', 'Back restores the previous value');
      assertNoErrors(dp);
    } finally {
      await dp.close();
    }
  });

  test('an embedded page and the postMessage API replace the history entry, never push', async () => {
    // Changes inside a page with embed=1: a particle field, a training field.
    for (const [link, id, value, done] of [
      ['version=2&preset=hyperplanes&embed=1&panels=tokens&controls=play,beta', '#cfg-beta', '3', () => window.__attn.configString().includes('beta=3')],
      ['version=7&lab=training&preset=scan-snap&embed=1&panels=chart&controls=play,eta_z', '#tr-eta_z', '2', () => window.__attnTraining?.configString().includes('eta_z=2')],
    ]) {
      const page = await openPage(browser, link, EMBED);
      try {
        await page.waitForSelector(`.embed-bar ${id}`);
        const start = await page.evaluate(() => history.length);
        await enter(page, id, value);
        await page.waitForFunction(done);
        await page.waitForFunction((v) => location.hash.includes(v), `=${value}`);
        assert.equal(await page.evaluate(() => history.length), start, `${link}: no history entry`);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }

    // A host page sends setConfig several times, to an embedded view and to a full page.
    for (const link of ['preset=polytope&embed=1', 'preset=polytope']) {
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      try {
        await page.goto(`${ATTN_URL}host.html#${link}`);
        await page.waitForFunction(() => window.__hostEvents?.some((e) => e.type === 'ready'), null, { timeout: 30_000 });
        const frame = page.frames().find((f) => f.url().includes('index.html'));
        const start = await page.evaluate(() => history.length);
        for (const n of [21, 22, 23]) {
          const id = await page.evaluate((config) => window.__hostSend('setConfig', { config }), `preset=polytope&n=${n}`);
          await page.waitForFunction((i) => window.__hostEvents.some((e) => e.replyTo === i), id, { timeout: 30_000 });
          assert.equal(await frame.evaluate(() => window.__attn.n()), n);
        }
        assert.match(await frame.evaluate(() => location.hash), /n=23/);
        assert.equal(await page.evaluate(() => history.length), start, `${link}: no history entry`);
      } finally {
        await page.close();
      }
    }
  });

  test('depth: residual_axis=linear opens the rank-collapse chart on a linear axis; switching the axis writes the key', async () => {
    const base = 'version=7&lab=depth&preset=collapse-small';
    const linked = await openPage(browser, `${base}&residual_axis=linear`);
    const switched = await openPage(browser, base);
    try {
      await depthSettled(linked, base);
      assert.equal(await linked.isChecked('input[name="dp-scale"][value="linear"]'), true, 'the linear axis is chosen');
      assert.equal(await linked.evaluate(() => location.hash), `#${base}&residual_axis=linear`);
      const linear = await canvasSnapshot(linked, '#dp-residual');

      await depthSettled(switched, base);
      const log = await canvasSnapshot(switched, '#dp-residual');
      const start = await switched.evaluate(() => history.length);
      await switched.check('input[name="dp-scale"][value="linear"]');
      await switched.waitForFunction((h) => location.hash === h, `#${base}&residual_axis=linear`);
      assert.equal(await switched.evaluate(() => history.length), start + 1, 'a view switch is a history entry');
      assert.equal((await canvasSnapshot(switched, '#dp-residual')).hash, linear.hash, 'the link drew the linear chart');
      assert.notEqual(linear.hash, log.hash);
      // Back: the log axis again (the key's default), without computing again.
      await switched.goBack();
      await switched.waitForFunction(() => document.querySelector('input[name="dp-scale"][value="log"]').checked);
      assert.equal(await switched.evaluate(() => location.hash), `#${base}`);
      assert.equal(await switched.evaluate(() => window.__attnDepth.busy()), false);
      assert.equal((await canvasSnapshot(switched, '#dp-residual')).hash, log.hash);
      assertNoErrors(linked);
      assertNoErrors(switched);
    } finally {
      await linked.close();
      await switched.close();
    }
  });

  test('every configuration field has its key table row as tooltip, and a select offers exactly the key\'s choices', async () => {
    const labs = [
      ['particles', 'version=4&preset=polytope', '#config-form', '__attn'],
      ['training', 'version=7&lab=training&preset=scan-snap', '#tr-form', '__attnTraining'],
      ['depth', 'version=7&lab=depth&preset=bert-init', '#dp-form', '__attnDepth'],
    ];
    for (const [lab, hash, form, handle] of labs) {
      const page = await openPage(browser, hash);
      try {
        await page.waitForFunction((h) => window[h] && window[h].wasm, handle);
        const rows = await page.evaluate(({ lab, form, handle }) => {
          const table = window[handle].wasm.key_table(lab);
          return [...document.querySelectorAll(`${form} [data-key]`)].map((el) => {
            const key = table.find((k) => k.name === el.dataset.key);
            return {
              name: el.dataset.key,
              meaning: key ? key.meaning.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') : null,
              choices: key && (key.kind === 'choice' || key.kind === 'switch') ? key.choices : null,
              title: el.title,
              label: document.querySelector(`label[for="${el.id}"]`)?.title ?? null,
              options: el.tagName === 'SELECT' ? [...el.options].map((o) => o.value) : null,
              value: el.value,
            };
          });
        }, { lab, form, handle });
        assert.ok(rows.length >= 10, `${lab}: its form has its fields (${rows.length})`);
        for (const r of rows) {
          assert.ok(r.meaning, `${lab}: field ${r.name} is a key of the table`);
          assert.ok(r.title.startsWith(`${r.name}: ${r.meaning}`), `${lab} ${r.name}: tooltip ${JSON.stringify(r.title)}`);
          assert.match(r.title, /Allowed: /);
          if (r.label !== null) assert.equal(r.label, r.title, `${lab} ${r.name}: the label has the same hint`);
          if (r.choices) assert.deepEqual(r.options, r.choices, `${lab} ${r.name}: the select offers the key's choices`);
        }
        if (lab === 'depth') {
          // bert-init's input=bert-embeddings is a choice the page's markup did not list.
          assert.equal(rows.find((r) => r.name === 'input').value, 'bert-embeddings');
        }
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });
  test('a link followed crosses into the core\'s check once: main.js hands its check to the page and the lab', async () => {
    const page = await openPage(browser, '');
    try {
      // The page's wasm glue, with every check_link call recorded (its first argument).
      await page.route('**/pkg/attn_web.js', async (route) => {
        const res = await route.fetch();
        const glue = await res.text();
        const head = 'export function check_link(text, lab, from_api, edited) {';
        assert.ok(glue.includes(head), 'the glue exports check_link(text, lab, from_api, edited)');
        const body = glue.replace(head, `${head} (globalThis.__checked ??= []).push(text);`);
        await route.fulfill({ response: res, body });
      });
      await page.reload();
      await page.waitForFunction(() => window.__attnReady === true);
      for (const link of [
        'version=7&preset=leaders&theme=dark',
        'version=7&lab=training&preset=scan-snap&theme=light',
        'version=7&lab=depth&preset=collapse-small&theme=dark&residual_axis=linear',
        'version=7&preset=sphere-sa&theme=light',
      ]) {
        const lab = new URLSearchParams(link).get('lab') ?? 'particles';
        await page.evaluate((text) => { globalThis.__checked = []; location.hash = text; }, link);
        await page.waitForFunction(({ lab, theme }) => document.querySelector(`[role="tab"][data-lab="${lab}"]`)?.getAttribute('aria-selected') === 'true'
          && document.documentElement.dataset.theme === theme && (globalThis.__checked ?? []).length > 0,
        { lab, theme: new URLSearchParams(link).get('theme') });
        await page.waitForTimeout(300); // any later check of the same text would be done by now
        const same = await page.evaluate((text) => globalThis.__checked.filter((t) => t === text).length, link);
        assert.equal(same, 1, `${link}: checked ${same} times`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
