// Same bits in the page and the CLI for the depth lab (docs/depth-lab.md): the page's wasm
// `DepthLab` (what the depth worker runs) and `attn depth --similarity --paths` give equal
// numbers — every residual, composite norm, singular value, similarity statistic and path
// length — for the four depth presets and one `weights=particle` configuration. Both sides run
// the core's depth stack on the shared kernels (`core::kernels`) with `libm` and the core's exp,
// so the last bits agree too.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTN_BIN, assertNoErrors, launch, openPage, runCli } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const CONFIGS = [
  'lab=depth&preset=bert-init',
  'lab=depth&preset=collapse-small',
  'lab=depth&preset=context-text',
  'lab=depth&preset=particle-euler',
  // weights=particle with another particle configuration (the hyperplanes preset's V).
  'lab=depth&preset=particle-euler&layers=24&particle=preset%3Dhyperplanes%26n%3D20',
];

/** Paths where `a` and `b` differ (numbers compared with Object.is, NaN as null). */
function differences(a, b, path = '', out = []) {
  if (out.length >= 8) return out;
  const norm = (v) => (typeof v === 'number' && Number.isNaN(v) ? null : v);
  a = norm(a);
  b = norm(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} != ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) differences(a[k], b[k], `${path}.${k}`, out);
  } else if (!Object.is(a, b) && !(a === undefined && b === null) && !(a === null && b === undefined)) {
    out.push(`${path}: page ${a} != cli ${b}`);
  }
  return out;
}

describe('depth lab: the page and `attn depth` give the same bits', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, () => {
  for (const config of CONFIGS) {
    test(config, { timeout: 300_000 }, async () => {
      const cli = JSON.parse(await runCli(['depth', '--config', config, '--similarity', '--paths']));
      const page = await openPage(browser, 'lab=depth&preset=collapse-small');
      try {
        const mine = await page.evaluate(async (cfg) => {
          const m = await import(new URL('pkg/attn_web.js', location.href).href);
          await m.default();
          const lab = new m.DepthLab(cfg);
          const info = lab.info();
          const shown = m.depth_info(cfg); // what the page shows, without making the input's tokens
          const variants = [];
          for (const v of info.variants) {
            const r = lab.run_variant(v);
            const paths = lab.path_lengths();
            variants.push({ ...r, paths });
          }
          lab.free();
          return { info, shown, variants };
        }, config);
        assert.deepEqual(mine.shown, mine.info, 'depth_info is DepthLab.info without the tokens');
        assert.equal(mine.info.canonical, cli.config);
        assert.deepEqual(mine.info.path_shares, cli.path_shares);
        assert.ok(Object.is(mine.info.chance_level, cli.chance_level) || (mine.info.chance_level === null && cli.chance_level === null));
        assert.equal(mine.variants.length, cli.variants.length);
        let compared = 0;
        for (let i = 0; i < cli.variants.length; i++) {
          const want = cli.variants[i];
          const got = mine.variants[i];
          // The CLI writes an unavailable decomposition as { unavailable: why }; the page as null.
          const wantPaths = want.paths && want.paths.unavailable !== undefined ? null : want.paths;
          const diff = differences(
            { residual: got.residual, composite_norm: got.composite_norm, singular_values: got.singular_values, similarity: got.similarity, paths: got.paths, overflow: got.overflow },
            { residual: want.residual, composite_norm: want.composite_norm, singular_values: want.singular_values, similarity: want.similarity, paths: wantPaths, overflow: want.overflow },
            want.variant,
          );
          assert.deepEqual(diff, [], `${config}: page and CLI differ`);
          assert.ok(want.residual.length > 1 && want.similarity.length > 0, 'the comparison covers numbers');
          compared += want.residual.length;
        }
        assert.ok(compared > 0);
        assertNoErrors(page);
      } finally {
        await page.close();
      }
    });
  }
});

describe('depth lab: the page\'s workers give `attn depth`\'s bits', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, () => {
  test('bert-init: its first variant in halves on the two workers, every variant as the CLI\'s', { timeout: 300_000 }, async () => {
    const config = 'lab=depth&preset=bert-init';
    const cli = JSON.parse(await runCli(['depth', '--config', config, '--similarity']));
    const page = await openPage(browser, config);
    try {
      // Done, or stopped by an error (the state line says which).
      await page.waitForFunction(() => window.__attnDepth && window.__attnDepth.total() > 0 && !window.__attnDepth.busy() && !window.__attnDepth.pending(), null, { timeout: 240_000 });
      const state = await page.evaluate(() => document.getElementById('dp-state').textContent);
      assert.match(state, /^done in /);
      const { results, halves, cores } = await page.evaluate(() => ({
        results: window.__attnDepth.results(),
        halves: window.__attnDepth.halves(),
        cores: navigator.hardwareConcurrency,
      }));
      // Two cores: the first variant ran in halves (each worker half the heads and half the
      // columns of O W_O).
      assert.equal(halves, cores >= 2 ? 'san' : null);
      assert.equal(results.length, cli.variants.length);
      for (const want of cli.variants) {
        const got = results.find((r) => r.variant === want.variant);
        assert.ok(got, `${want.variant} drawn`);
        const diff = differences(
          { residual: got.residual, composite_norm: got.composite_norm, singular_values: got.singular_values, similarity: got.similarity, overflow: got.overflow },
          { residual: want.residual, composite_norm: want.composite_norm, singular_values: want.singular_values, similarity: want.similarity, overflow: want.overflow },
          want.variant,
        );
        assert.deepEqual(diff, [], `${want.variant}: page and CLI differ`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });
});
