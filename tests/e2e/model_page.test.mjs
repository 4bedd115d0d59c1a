// The model lab's page, second slice: lab=model goes through the page's
// generic link machinery (check_link, the configuration JSON, a PNG's link loaded back, view
// keys, no console warning); the grids' colour scale (view key `grid_scale`: per head or shared, the
// pixels follow the heads' largest weights as attn encode computes them); the enlarged head's
// P and S exported as CSV and JSON equal `attn encode --attention L,H` / `--similarity L,H`
// bit for bit; Copy embed code, and the embed at 640 x 420 showing the grids and the enlarged
// head with nothing overlapping.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ATTN_BIN, assertNoErrors, launch, openPage, runCli } from './helpers.mjs';
import { LINK, MODEL_DIR, analysed } from './model_helpers.mjs';


/** @type {import('playwright-core').Browser} */
let browser;
let cli = null; // attn encode's output for LINK with every head's attention and S of layer 2, head 3

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});


/** attn encode on the page's link: every head's P (to know each head's largest weight) and S of 2,3. */
async function encode(config) {
  if (cli && cli.config === config) return cli;
  const heads = [];
  for (let l = 1; l <= 6; l++) for (let h = 0; h < 12; h++) heads.push('--attention', `${l},${h}`);
  cli = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config, ...heads, '--similarity', '2,3']));
  return cli;
}

/** The mean green channel inside each tile of grid `id` (viridis' green grows with the value). */
async function tileGreens(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const g = window.__attnModel.gridGeometry();
    const k = c.width / c.getBoundingClientRect().width;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let l = 0; l < g.layers; l++) {
      for (let h = 0; h < g.heads; h++) {
        let sum = 0;
        let count = 0;
        // The tile's inside (3 CSS px in: the gap and the chosen head's frame left out).
        const x0 = Math.ceil((g.x0 + h * g.cell + 3) * k);
        const x1 = Math.floor((g.x0 + (h + 1) * g.cell - 3) * k);
        const y0 = Math.ceil((g.y0 + l * g.cell + 3) * k);
        const y1 = Math.floor((g.y0 + (l + 1) * g.cell - 3) * k);
        for (let y = y0; y < y1; y++) {
          for (let x = x0; x < x1; x++) {
            sum += data[(y * c.width + x) * 4 + 1];
            count += 1;
          }
        }
        out.push(sum / count);
      }
    }
    return out;
  }, id);
}

/** Opens the Export menu and clicks its button `label` (the `nth` of that label); the download. */
async function exported(page, label, nth = 0) {
  if (!(await page.evaluate(() => document.getElementById('export-menu').open))) await page.click('#export-menu summary');
  const button = page.locator('#export-body button', { hasText: label }).nth(nth);
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(await download.path())) };
}

/** Parses CSV text (quoted fields with doubled quotes; every line ends in \n). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += ch;
  }
  return rows;
}

const skip = (!ATTN_BIN && 'ATTN_BIN is not set') || (!existsSync(join(MODEL_DIR, 'model.safetensors')) && 'the model is not cached: cargo xtask fetch-model');

describe('model lab page: registry, scale, exports, embed', { skip }, () => {
  test('lab=model is a lab of the registry: check_link, key table, configuration JSON, PNG link loaded back', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, `${LINK}&theme=dark`, { viewport: { width: 1440, height: 900 } });
    const warnings = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    try {
      await analysed(page);
      const config = await page.evaluate(() => window.__attnModel.configString());
      assert.match(config, /^version=7&lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=.*&layer=2&head=3$/);
      const checks = await page.evaluate(async (c) => {
        const m = await import(new URL('pkg/attn_web_full.js', location.href).href);
        await m.default();
        return {
          link: m.check_link(`${c}&embed=1&panels=grid&theme=dark`),
          lab: m.check_link(c, 'model'),
          other: m.check_link(c, 'depth'),
          bad: m.check_link(`${c}&panels=heatmap`),
          keys: m.key_table('model').map((k) => [k.name, k.kind, k.default]),
          spec: m.view_spec('model'),
          asked: m.requested_lab('lab=model&text='),
        };
      }, config);
      assert.equal(checks.link.ok, true, JSON.stringify(checks.link));
      assert.equal(checks.link.lab, 'model');
      assert.equal(checks.link.canonical, config);
      assert.equal(checks.link.link, `${config}&embed=1&panels=grid&theme=dark`);
      assert.equal(checks.link.view.embed, true);
      assert.ok(checks.link.caption.length > 20, checks.link.caption);
      assert.equal(checks.lab.ok, true);
      assert.deepEqual([checks.other.ok, checks.other.key], [false, 'lab']);
      assert.deepEqual([checks.bad.ok, checks.bad.key, checks.bad.lab], [false, 'panels', 'model']);
      assert.deepEqual(checks.keys.map((k) => k[0]), ['lab', 'model', 'text', 'cos_tol', 'bilinear', 'head_space', 'repeat_layer', 'iterations', 'variant', 'layer', 'head', 'grid_scale', 'hidden_layer', 'step']);
      assert.deepEqual(checks.keys[5], ['head_space', 'choice', 'x']);
      assert.deepEqual(checks.keys[6].slice(0, 1).concat(checks.keys[6].slice(2)), ['repeat_layer', '0']);
      assert.deepEqual(checks.keys[7].slice(0, 1).concat(checks.keys[7].slice(2)), ['iterations', '100']);
      assert.deepEqual(checks.keys[8], ['variant', 'choice', 'transformer']);
      assert.deepEqual(checks.keys[11], ['grid_scale', 'choice', 'head']);
      assert.deepEqual(checks.keys[12], ['hidden_layer', 'count', '0']);
      assert.deepEqual(checks.spec.panels, ['tokens', 'grid', 'spectrum', 'head_particles', 'residual', 'layers', 'repeat', 'histogram', 'same_sentence']);
      assert.equal(checks.asked, 'model');
      // The fields' hints come from the same key table.
      assert.match(await page.locator('#md-scale').getAttribute('title'), /^grid_scale: colour scale of the attention and similarity grids.*Allowed: head, shared\. Default: head\.$/);
      assert.match(await page.locator('#md-text').getAttribute('title'), /^text: the text analysed/);

      // The configuration JSON of the Export menu.
      const json = JSON.parse(new TextDecoder().decode((await exported(page, 'Configuration JSON')).bytes));
      assert.equal(json.lab, 'model');
      assert.equal(json.config, config);
      assert.equal(json.keys.head, '3');

      // A PNG of the attention grid carries the link; loaded on another lab, it opens lab=model.
      const png = await exported(page, 'Grid of attention maps', 0);
      assert.match(png.name, /^attn-model-md-att-grid\.png$/);
      await page.evaluate(() => { location.hash = 'lab=depth&preset=collapse-small'; });
      await page.waitForFunction(() => !document.getElementById('lab-depth').hidden);
      await page.setInputFiles('#png-input', { name: 'model.png', mimeType: 'image/png', buffer: Buffer.from(png.bytes) });
      await page.waitForFunction(() => !document.getElementById('lab-model').hidden && decodeURIComponent(location.hash).includes('head=3'));
      await analysed(page, config);
      assert.equal(await page.locator('#md-error').textContent(), '');
      assert.match(await page.locator('.export-status').textContent(), /Loaded model\.png/);
      assert.deepEqual(warnings.filter((w) => /refused|not yet/.test(w)), [], 'no console warning about the link');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the grids colour per head or on a shared scale (view key grid_scale); pixels follow the heads\' largest weights', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1440, height: 900 } });
    try {
      await analysed(page);
      const config = await page.evaluate(() => window.__attnModel.configString());
      const out = await encode(config);
      const maxP = out.attention.map((a) => Math.max(...a.p.flat()));
      const top = maxP.indexOf(Math.max(...maxP));
      const low = maxP.indexOf(Math.min(...maxP));
      assert.ok(maxP[low] < 0.75 * maxP[top], `some head's largest weight is well below the largest (${maxP[low]} vs ${maxP[top]})`);
      assert.equal(await page.locator('#md-scale input[value="head"]').isChecked(), true, 'per head by default');
      const perHead = await tileGreens(page, 'md-att-grid');
      assert.equal(perHead.length, 72);
      const simBefore = await tileGreens(page, 'md-sim-grid');

      await page.check('#md-scale input[value="shared"]');
      await analysed(page, `${config}&grid_scale=shared`);
      assert.equal(decodeURIComponent(await page.evaluate(() => location.hash.slice(1))), decodeURIComponent(`${config}&grid_scale=shared`));
      const shared = await tileGreens(page, 'md-att-grid');
      // The same pixels of each tile, each weight over the largest of all heads instead of its
      // own head's: the head holding the largest weight is unchanged, every other is no
      // brighter, and the head with the smallest largest weight is clearly darker.
      const grow = (a, b) => `${a.toFixed(1)} vs ${b.toFixed(1)}`;
      assert.ok(Math.abs(shared[top] - perHead[top]) < 0.01, `the top head (${top}) is unchanged: ${grow(shared[top], perHead[top])}`);
      for (let k = 0; k < 72; k++) assert.ok(shared[k] <= perHead[k] + 0.01, `head ${k} is no brighter: ${grow(shared[k], perHead[k])}`);
      assert.ok(shared[low] < perHead[low] - 10, `head ${low} (largest weight ${maxP[low].toFixed(3)}) is darker: ${grow(shared[low], perHead[low])}`);
      // The darkening follows the heads' largest weights: heads far below the top darken more
      // than the heads near it.
      const drop = (k) => perHead[k] - shared[k];
      const near = maxP.map((m, k) => [m, k]).filter(([m]) => m > 0.95 * maxP[top]).map(([, k]) => k);
      for (const k of near) assert.ok(drop(k) < drop(low), `head ${k} near the top darkens less than head ${low}`);
      const simAfter = await tileGreens(page, 'md-sim-grid');
      assert.ok(simAfter.some((g, k) => g < simBefore[k] - 30), 'similarity tiles change too');
      assert.match(await page.locator('#lab-model .legend').textContent(), /all heads/);
      assert.match(await page.locator('#md-grid-caption').textContent(), /shared scale/);
      // Picking a head keeps the scale; per head again drops the key.
      const g = await page.evaluate(() => window.__attnModel.gridGeometry());
      const box = await page.locator('#md-att-grid').boundingBox();
      await page.mouse.click(box.x + g.x0 + g.cell * 1.5, box.y + g.y0 + g.cell / 2);
      await analysed(page, `${config.replace('&layer=2&head=3', '&head=1')}&grid_scale=shared`);
      await page.check('#md-scale input[value="head"]');
      await analysed(page, config.replace('&layer=2&head=3', '&head=1'));
      assert.deepEqual(await tileGreens(page, 'md-att-grid'), perHead, 'per head again: the same pixels');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the enlarged head\'s P and S as CSV and JSON equal attn encode bit for bit; hover reads tokens and value', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1440, height: 900 } });
    try {
      await analysed(page);
      const config = await page.evaluate(() => window.__attnModel.configString());
      const out = await encode(config);
      const p23 = out.attention[12 + 3].p;
      assert.deepEqual([out.attention[15].layer, out.attention[15].head], [2, 3]);
      const s23 = out.similarity[0].s;
      const text = async (label) => {
        const d = await exported(page, label);
        return { name: d.name, text: new TextDecoder().decode(d.bytes) };
      };
      const pCsv = await text('Attention P CSV');
      assert.equal(pCsv.name, 'attn-model-l2-h3-attention.csv');
      const rows = parseCsv(pCsv.text);
      assert.deepEqual(rows[0].slice(1), out.tokens, 'header row: the tokens');
      assert.equal(rows.length, out.tokens.length + 1);
      const same = (cells, want, what) => {
        for (let i = 0; i < want.length; i++) {
          assert.equal(cells[i + 1][0], out.tokens[i], `${what} row ${i}: its token`);
          for (let j = 0; j < want.length; j++) {
            assert.ok(Object.is(Number(cells[i + 1][j + 1]), want[i][j]), `${what}[${i}][${j}]: csv ${cells[i + 1][j + 1]} cli ${want[i][j]}`);
          }
        }
      };
      same(rows, p23, 'P');
      same(parseCsv((await text('Similarity S CSV')).text), s23, 'S');
      const pJson = JSON.parse((await text('Attention P JSON')).text);
      assert.deepEqual(pJson, { config, tokens: out.tokens, layer: 2, head: 3, p: p23 });
      const sJson = JSON.parse((await text('Similarity S JSON')).text);
      assert.deepEqual(sJson, { config, tokens: out.tokens, layer: 2, head: 3, s: s23 });

      // Hovering the enlarged attention's cell (i, j) reads both tokens and P_ij.
      const z = await page.locator('#md-att-zoom').boundingBox();
      const zg = await page.evaluate(() => window.__attnModel.zoomGeometry());
      assert.ok(zg.x0 >= 20, `room for the token labels on the left (${zg.x0} px)`);
      const [i, j] = [4, 9];
      await page.mouse.move(z.x + zg.x0 + (j + 0.5) * zg.cell, z.y + zg.y0 + (i + 0.5) * zg.cell);
      const tip = await page.locator('#md-att-zoom-tip').textContent();
      assert.ok(tip.includes(`i = ${i} (${out.tokens[i]}), j = ${j} (${out.tokens[j]})`), tip);
      const shown = Number(/P_ij = (-?[\d.]+(?:e[-+]?\d+)?)/.exec(tip)?.[1]);
      assert.ok(Math.abs(shown - p23[i][j]) <= 1e-3 * Math.abs(p23[i][j]) + 1e-6, `tip ${shown} vs ${p23[i][j]}`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('Copy embed code gives the grid at 640 x 420, readable and with nothing overlapping', { timeout: 300_000 }, async () => {
    const page = await openPage(browser, LINK, { viewport: { width: 1440, height: 900 } });
    let embed = null;
    try {
      await analysed(page);
      const config = await page.evaluate(() => window.__attnModel.configString());
      await page.selectOption('#md-embed-size', '640x420');
      await page.click('#md-copy-embed');
      await page.waitForFunction(() => document.getElementById('md-share-text').value.startsWith('<iframe'));
      const snippet = await page.inputValue('#md-share-text');
      const m = /^<iframe src="([^"]+)" width="640" height="420" style="border:0" title="Attention Dynamics Playground" loading="lazy"><\/iframe>$/.exec(snippet);
      assert.ok(m, snippet);
      const src = m[1].replace(/&amp;/g, '&');
      const hash = src.slice(src.indexOf('#') + 1);
      assert.equal(hash, `${config}&embed=1&panels=grid&bg=transparent`);
      await page.click('#md-copy-link');
      await page.waitForFunction(() => document.getElementById('md-share-text').value.includes('#version='));
      assert.ok((await page.inputValue('#md-share-text')).endsWith(`#${config}`));
      assertNoErrors(page);

      embed = await openPage(browser, hash, { viewport: { width: 640, height: 420 } });
      await analysed(embed, config);
      const layout = await embed.evaluate(() => {
        const r = (el) => {
          const b = el.getBoundingClientRect();
          return { x: b.x, y: b.y, w: b.width, h: b.height };
        };
        const visible = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
        const grid = document.getElementById('md-grid-heading').closest('section');
        const parts = [...grid.querySelectorAll('h2, h3, fieldset, canvas, .legend')].filter(visible).map((el) => ({ id: el.id || el.tagName, ...r(el) }));
        const bar = document.querySelector('.embed-bar');
        return {
          parts,
          bar: bar && visible(bar) ? r(bar) : null,
          caption: document.querySelector('.embed-caption')?.textContent ?? '',
          hidden: ['md-residual', 'md-hist', 'md-tokens', 'md-text'].map((id) => visible(document.getElementById(id))),
          page: { w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight },
          zoom: window.__attnModel.zoomGeometry(),
        };
      });
      assert.ok(layout.bar, 'the embed bar is shown');
      assert.match(layout.caption, /attention/i);
      assert.deepEqual(layout.hidden, [false, false, false, false], 'only the grid panel is shown');
      assert.ok(layout.page.sw <= layout.page.w + 1 && layout.page.sh <= layout.page.h + 1, `no scrolling: ${JSON.stringify(layout.page)}`);
      const canvases = Object.fromEntries(layout.parts.filter((p) => p.id.startsWith('md-')).map((p) => [p.id, p]));
      for (const id of ['md-att-grid', 'md-sim-grid', 'md-att-zoom', 'md-sim-zoom']) {
        const c = canvases[id];
        assert.ok(c && c.w >= 140 && c.h >= 70, `${id} has a readable size: ${JSON.stringify(c)}`);
        assert.ok(c.x >= 0 && c.y >= 0 && c.x + c.w <= 640.5 && c.y + c.h <= 420.5, `${id} inside the frame: ${JSON.stringify(c)}`);
      }
      assert.ok(layout.zoom && layout.zoom.cell >= 3, `the enlarged head's cells: ${JSON.stringify(layout.zoom)}`);
      const all = [...layout.parts, { id: 'embed-bar', ...layout.bar }];
      const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
      for (let a = 0; a < all.length; a++) {
        for (let b = a + 1; b < all.length; b++) assert.ok(!overlap(all[a], all[b]), `${all[a].id} and ${all[b].id} overlap: ${JSON.stringify([all[a], all[b]])}`);
      }
      assertNoErrors(embed);
    } finally {
      await page.close();
      await embed?.close();
    }
  });
});
