// Browser tests of the chosen head's particles in the model lab (www/model/head_dynamics.js):
// every listed sample's time, clusters, labels, mean cosine, Boolean distance, leaders and
// hyperplane groups equal `attn encode --config LINK --head-dynamics L,H` bit for bit, for `x`,
// for the rescaled `z` and on the sphere (key head_space, which reopens from the link); the
// tokens, P and the chart are drawn; the arrow keys move the moment shown; on a long text the
// run's progress shows, and a head picked mid-run is analysed at once (the older run dropped).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';
import { LINK, MODEL_DIR, analysed } from './model_helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Waits for the head particles of the page's link, and returns them as plain arrays. */
async function dynamics(page) {
  await page.waitForFunction(() => {
    const m = window.__attnModel;
    const d = m?.dynamics();
    return d && !m.busy() && m.configString().includes(`layer=${d.layer}`) && d.layer === m.result().layer && d.head === m.result().head;
  }, null, { timeout: 240_000 });
  return page.evaluate(() => {
    const d = window.__attnModel.dynamics();
    const plain = {};
    for (const [k, v] of Object.entries(d)) plain[k] = ArrayBuffer.isView(v) ? Array.from(v) : v;
    delete plain.p_rgba;
    delete plain.coords;
    delete plain.p;
    return { ...plain, ms: window.__attnModel.dynamicsMs(), config: window.__attnModel.configString() };
  });
}

/** attn encode's head particles of `config` (its own layer, head, bilinear and head_space). */
async function cliDynamics(config, layer, head) {
  const out = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', config, '--head-dynamics', `${layer},${head}`]));
  return out.head_dynamics;
}

const same = (a, b) => Object.is(a, b);

/** Asserts each of the page's samples equals the CLI's, every number by Object.is. */
function sameBits(page, cli, what) {
  assert.equal(page.samples, cli.samples.length, `${what}: samples`);
  assert.equal(page.stopped, null);
  assert.equal(cli.stopped, null);
  const n = page.n;
  cli.samples.forEach((s, r) => {
    const at = `${what} sample ${r} (step ${s.step})`;
    assert.ok(same(page.t[r], s.t) && same(page.step[r], s.step), `${at}: t ${page.t[r]} against ${s.t}`);
    const drawn = page.space === 'z' ? s.z : s;
    assert.ok(same(page.clusters[r], drawn.clusters), `${at}: clusters ${page.clusters[r]} against ${drawn.clusters}`);
    assert.ok(same(page.mean_cos[r], drawn.mean_cos), `${at}: mean cosine ${page.mean_cos[r]} against ${drawn.mean_cos}`);
    assert.deepEqual(page.labels.slice(r * n, (r + 1) * n), drawn.labels, `${at}: labels`);
    assert.ok(same(page.boolean_distance[r], s.boolean_distance), `${at}: Boolean distance`);
    assert.ok(same(page.max_norm[r], s.max_norm), `${at}: max |x_i|`);
    const lead = [];
    for (let i = 0; i < n; i++) if (page.leaders[r * n + i]) lead.push(i);
    assert.deepEqual(lead, s.leaders, `${at}: leaders`);
    assert.ok(s.hyperplanes === null ? Number.isNaN(page.hyperplanes[r]) : same(page.hyperplanes[r], s.hyperplanes), `${at}: hyperplanes`);
  });
}

/** Opens the Export menu and clicks its button `label`; the downloaded text. */
async function exported(page, label) {
  if (!(await page.evaluate(() => document.getElementById('export-menu').open))) await page.click('#export-menu summary');
  const button = page.locator('#export-body button', { hasText: label }).first();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

/** A CSV cell as the number it writes (NaN for `NaN`). */
const num = (c) => (c === 'NaN' ? NaN : Number(c));

/** Pixels of `selector` whose channels differ by more than 60 (coloured, not grey or white). */
async function coloured(page, selector) {
  const snap = await canvasSnapshot(page, selector, { pixels: true });
  let count = 0;
  for (let i = 0; i < snap.pixels.length; i += 4) {
    const [r, g, b] = [snap.pixels[i], snap.pixels[i + 1], snap.pixels[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) count += 1;
  }
  return count;
}

describe("model lab: the chosen head's particles", () => {
  test('x and z: every sample equals attn encode --head-dynamics bit for bit; drawn; keys move the moment', { timeout: 600_000 }, async () => {
    const page = await openPage(browser, LINK);
    try {
      await analysed(page);
      let d = await dynamics(page);
      assert.deepEqual([d.layer, d.head, d.space, d.steps, d.samples], [2, 3, 'x', 1000, 101]);
      sameBits(d, await cliDynamics(d.config, 2, 3), 'layer 2 head 3, x');
      // The sentence names the moment shown (the end) with the page's numbers.
      const status = await page.textContent('#md-dyn-status');
      assert.ok(status.startsWith(`Layer 2, head 3, t = 10: ${d.clusters[100]} clusters of x (of ${d.n} tokens), mean cosine ${d.mean_cos[100].toFixed(4)}`), status);
      // Drawn: coloured tokens (clusters), P's viridis pixels, the chart's two curves.
      for (const id of ['#md-dyn-tokens', '#md-dyn-heat', '#md-dyn-chart']) {
        const c = await coloured(page, id);
        assert.ok(c > 200, `${id}: ${c} coloured pixels`);
      }
      // λ₁ of this head is not real: no ψ₁, no hyperplanes strip.
      assert.ok(d.psi.every(Number.isNaN) && d.hyperplanes.every(Number.isNaN));
      assert.equal(await page.isVisible('#md-dyn-psi'), false);
      // The arrow keys move the moment shown; Home goes to t = 0 where no token has moved.
      await page.focus('#md-dyn-tokens');
      await page.keyboard.press('Home');
      assert.equal(await page.evaluate(() => window.__attnModel.dynamicsAt()), 0);
      assert.match(await page.textContent('#md-dyn-status'), new RegExp(`t = 0: ${d.clusters[0]} clusters`));
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => window.__attnModel.dynamicsAt()), 2);
      assert.equal(await page.inputValue('#md-dyn-slider'), '2');
      assert.equal(await page.textContent('#md-dyn-out'), String(d.t[2]));

      // The statistics export: every sample's numbers as attn encode prints them, and the layers'.
      const cli = await cliDynamics(d.config, 2, 3);
      const csv = await exported(page, 'Head particles CSV');
      assert.equal(csv.name, 'attn-model-l2-h3-particles.csv');
      const rows = csv.text.trim().split('\n').map((l) => l.split(','));
      assert.deepEqual(rows[0], ['t', 'step', 'clusters', 'mean_cos', 'boolean_distance', 'max_norm', 'hyperplanes', 'leaders', 'labels']);
      assert.equal(rows.length, 1 + cli.samples.length);
      cli.samples.forEach((s, r) => {
        const row = rows[r + 1];
        for (const [col, want] of [[0, s.t], [1, s.step], [2, s.clusters], [3, s.mean_cos], [4, s.boolean_distance], [5, s.max_norm]]) {
          assert.ok(same(num(row[col]), want), `CSV sample ${r} column ${rows[0][col]}: ${row[col]} against ${want}`);
        }
        assert.equal(row[6], 'NaN', 'no hyperplanes for this head: NaN, not 0');
        assert.equal(row[7], s.leaders.join(' '));
        assert.equal(row[8], s.labels.join(' '));
      });
      const lv = JSON.parse(await runCli(['encode', '--model', MODEL_DIR, '--config', d.config, '--layers-view'])).layers_view;
      const layers = (await exported(page, 'Layers statistics CSV')).text.trim().split('\n').map((l) => l.split(','));
      assert.deepEqual(layers[0], ['layer', 'clusters', 'mean_cos', 'effective_rank']);
      assert.equal(layers.length, 1 + lv.clusters.length);
      lv.clusters.forEach((c, l) => {
        assert.ok(same(num(layers[l + 1][1]), c) && same(num(layers[l + 1][2]), lv.mean_cos[l]) && same(num(layers[l + 1][3]), lv.effective_rank[l]),
          `layer ${l}: ${layers[l + 1]} against ${c}, ${lv.mean_cos[l]}, ${lv.effective_rank[l]}`);
      });
      const coords = (await exported(page, 'Head particles coordinates CSV')).text.trim().split('\n');
      assert.equal(coords.length, 1 + d.samples * d.n);
      assert.match(coords[0], /^t,token,text,PC1,PC2/);

      // head_space=z from the control: a new link, the same run drawn as z, equal to the CLI's z.
      await page.selectOption('#md-dyn-space', 'z');
      await page.waitForFunction(() => window.__attnModel.dynamics()?.space === 'z', null, { timeout: 240_000 });
      d = await dynamics(page);
      assert.match(d.config, /&head_space=z&layer=2&head=3/);
      assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /head_space=z/);
      sameBits(d, await cliDynamics(d.config, 2, 3), 'layer 2 head 3, z');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a link with head_space=sphere and bilinear=raw reopens that run; a head with §1.3\'s row shows its hyperplane groups', { timeout: 600_000 }, async () => {
    const link = LINK.replace('&layer=2&head=3', '&bilinear=raw&head_space=sphere&layer=4&head=9');
    const page = await openPage(browser, link);
    try {
      await analysed(page);
      let d = await dynamics(page);
      assert.deepEqual([d.layer, d.head, d.space], [4, 9, 'sphere']);
      assert.match(d.config, /&bilinear=raw&head_space=sphere&layer=4&head=9/);
      assert.equal(await page.inputValue('#md-dyn-space'), 'sphere');
      const cli = await cliDynamics(d.config, 4, 9);
      assert.deepEqual([cli.sphere, cli.bilinear], [true, 'raw']);
      sameBits(d, cli, 'layer 4 head 9, sphere, raw');

      // Picking another head on the grid keeps the run's keys (bilinear, head_space) in the link.
      const pick = async (layer, head) => {
        const g = await page.evaluate(() => window.__attnModel.gridGeometry());
        const box = await page.locator('#md-att-grid').boundingBox();
        await page.mouse.click(box.x + g.x0 + g.cell * (head + 0.5), box.y + g.y0 + g.cell * (layer - 0.5));
        await page.waitForFunction(([l, h]) => window.__attnModel.dynamics()?.layer === l && window.__attnModel.dynamics()?.head === h, [layer, head], { timeout: 240_000 });
      };
      await pick(4, 10);
      d = await dynamics(page);
      assert.match(d.config, /&bilinear=raw&head_space=sphere&layer=4&head=10/);
      assert.equal(d.space, 'sphere');
      await pick(4, 9);
      await page.selectOption('#md-dyn-space', 'x');
      await page.waitForFunction(() => window.__attnModel.dynamics()?.space === 'x', null, { timeout: 240_000 });
      d = await dynamics(page);
      assert.match(d.config, /&bilinear=raw&layer=4&head=9/);
      // §1.3's hyperplanes row applies to layer 4 head 9 (λ₁ real, positive, simple; φ₁ᵀS_hφ₁ > 0):
      // the groups of ⟨ψ₁, x_i⟩ are counted at every sample and named in the sentence.
      assert.ok(d.hyperplanes.every(Number.isFinite), 'hyperplane groups at every sample');
      sameBits(d, await cliDynamics(d.config, 4, 9), 'layer 4 head 9, x, raw');
      assert.match(await page.textContent('#md-dyn-status'), new RegExp(`⟨ψ₁, x_i⟩ takes ${d.hyperplanes[100]} value`));
      // The strip shows each token's ⟨ψ₁, x_i⟩ at the moment shown, and names the groups.
      assert.ok(d.psi.every(Number.isFinite), 'ψ₁ values at every sample');
      assert.ok(await page.isVisible('#md-dyn-psi'));
      const labels = JSON.parse(await page.evaluate(() => document.getElementById('md-dyn-psi').dataset.labels)).map((l) => l.text);
      const at = await page.evaluate(() => window.__attnModel.dynamicsAt());
      const groups = d.hyperplanes[at];
      assert.ok(labels.includes(`⟨ψ₁, x_i⟩: ${groups} group${groups === 1 ? '' : 's'} (§1.3's hyperplanes ⟨ψ₁, z⟩ = c)`), labels.join(' | '));
      assert.ok(await coloured(page, '#md-dyn-psi') > 50, 'the tokens are drawn on the strip');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('a 512-token text: the run counts its Euler steps, and a head picked mid-run is analysed without waiting for it', { timeout: 300_000 }, async () => {
    const text = (await readFile(new URL('../../crates/xtask/bench/model_text_512.txt', import.meta.url), 'utf8')).trim();
    const page = await openPage(browser, `lab=model&model=all-MiniLM-L6-v2@53aa51172d142c89&text=${encodeURIComponent(text)}&layer=2&head=0`);
    try {
      await page.waitForFunction(() => window.__attnModel?.result()?.head === 0, null, { timeout: 240_000 });
      // While the particles run, the panel says how far they are.
      const [step, steps] = await (await page.waitForFunction(() => {
        const m = document.getElementById('md-dyn-status').textContent.match(/Euler step (\d+) of (\d+)/);
        return m && [Number(m[1]), Number(m[2])];
      }, null, { timeout: 120_000, polling: 20 })).jsonValue();
      assert.ok(step > 0 && step < steps && steps === 1000, `step ${step} of ${steps}`);
      assert.equal(await page.evaluate(() => window.__attnModel.dynamics()), null, 'no run drawn yet');
      const job0 = await page.evaluate(() => window.__attnModel.job());
      // Head 1 of layer 2, picked on the grid mid-run.
      await page.locator('#md-att-grid').scrollIntoViewIfNeeded();
      const g = await page.evaluate(() => window.__attnModel.gridGeometry());
      const box = await page.locator('#md-att-grid').boundingBox();
      const t0 = Date.now();
      await page.mouse.click(box.x + g.x0 + g.cell * 1.5, box.y + g.y0 + g.cell * 1.5);
      await page.waitForFunction(() => window.__attnModel.result()?.head === 1, null, { timeout: 240_000 });
      const waited = Date.now() - t0;
      const d = await dynamics(page);
      assert.deepEqual([d.layer, d.head, d.n], [2, 1, 512]);
      // Head 0's run was dropped unfinished (the worker said so before head 1's run began), not
      // finished beside head 1's.
      const dropped = await page.evaluate(() => window.__attnModel.droppedRun());
      assert.ok(dropped && dropped.id === job0 && dropped.step > 0 && dropped.step < 1000, `dropped: ${JSON.stringify(dropped)} (head 0's job ${job0})`);
      // Its analysis came before the rest of head 0's run would have: a whole run (head 1's, the
      // same Euler steps on the same tokens) takes d.ms.
      assert.ok(waited < 0.6 * d.ms, `head 1 analysed ${waited} ms after the pick; a whole run takes ${Math.round(d.ms)} ms`);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('embedded alone (panels=head_particles) in a 640 x 420 and a 358 x 700 frame: no scrolling, the panel inside, tokens and P at a useful size', { timeout: 300_000 }, async () => {
    for (const [w, hgt] of [[640, 420], [358, 700]]) {
      const page = await openPage(browser, `${LINK}&panels=head_particles&embed=1`, { viewport: { width: w, height: hgt } });
      try {
        await analysed(page);
        await dynamics(page);
        const got = await page.evaluate(() => {
          const r = (el) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
          const panel = document.querySelector('section.panel.md-dyn');
          return {
            scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
            panel: r(panel),
            canvases: ['md-dyn-tokens', 'md-dyn-heat'].map((id) => r(document.getElementById(id))),
            shown: [...document.querySelectorAll('section.panel')].filter((s) => s.getClientRects().length > 0).length,
          };
        });
        const at = `${w} x ${hgt}`;
        assert.deepEqual(got.scroll, [w, hgt], `${at}: the frame does not scroll`);
        assert.equal(got.shown, 1, `${at}: one panel`);
        assert.ok(got.panel.y + got.panel.h <= hgt + 0.5 && got.panel.x + got.panel.w <= w + 0.5, `${at}: panel inside ${JSON.stringify(got.panel)}`);
        for (const c of got.canvases) {
          assert.ok(c.w >= 100 && c.h >= 100 && c.y + c.h <= hgt + 0.5, `${at}: canvas ${JSON.stringify(c)}`);
        }
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    }
  });
});
