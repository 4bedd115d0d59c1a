// The checks of the training, depth and model labs' sentences (claim_checks.mjs gathers every
// lab's): each opens the link its sentence talks about and reads the lab's own numbers as the
// page shows them (__attnTraining, __attnDepth, __attnModel).

import assert from 'node:assert/strict';
import { last, on } from './checks_common.mjs';
import { analysed } from './model_helpers.mjs';

const MODEL = 'all-MiniLM-L6-v2@53aa51172d142c89';
const FOX = 'The quick brown fox jumps over the lazy dog. The dog does not move. Later, the fox runs back into the forest.';
const BANK = 'She sat on the bank of the river. Then she went to the bank to open an account. The river was calm, but the bank was busy.';
const modelLink = (text) => `version=7&lab=model&model=${MODEL}&text=${encodeURIComponent(text)}`;

/** The training lab at `link` (a `step=` link: paused there). */
const training = (browser, link, read) => on(browser, link, async (page) => {
  await page.waitForFunction(() => {
    const t = window.__attnTraining;
    return t && t.iteration() >= 0 && !t.playing() && t.status() !== 'none';
  }, null, { timeout: 120_000 });
  return read(page);
});

/** The depth lab's results at `link`, every variant computed. */
const depth = (browser, link) => on(browser, link, async (page) => {
  await page.waitForFunction(() => {
    const d = window.__attnDepth;
    return d && d.total() > 0 && d.done() === d.total() && !d.pending();
  }, null, { timeout: 240_000 });
  return page.evaluate(() => ({ info: window.__attnDepth.info(), results: window.__attnDepth.results() }));
});

/** The model lab's analysis of `text`. */
const model = (browser, text) => on(browser, modelLink(text), async (page) => {
  await analysed(page);
  return page.evaluate(() => {
    const r = window.__attnModel.result();
    return { tokens: r.tokens, sentence: Array.from(r.sentence), chance: r.chance, same: r.statistics.map((l) => l.same_sentence), variants: r.variants.map((v) => ({ variant: v.variant, residual: Array.from(v.residual) })) };
  });
});

const residualOf = (results, name) => results.find((r) => r.variant === name).residual;

/** The other labs' checks by name: `{ lab, run(browser) }`. */
export const LAB_CHECKS = {
  // ---- training lab ----------------------------------------------------------------------
  'training-learns': {
    lab: 'training',
    async run(browser) {
      const loss = await training(browser, 'version=7&lab=training&preset=scan-snap&step=100', (page) => page.evaluate(() => window.__attnTraining.losses()));
      assert.ok(last(loss) < loss[0] / 10, `loss ${loss[0]} -> ${last(loss)}`);
      return `scan-snap: loss ${loss[0].toFixed(2)} -> ${last(loss).toExponential(1)} nats over ${loss.length} iterations`;
    },
  },
  'training-scan': {
    lab: 'training',
    async run(browser) {
      const r = await training(browser, 'version=7&lab=training&preset=scan-snap&step=15', (page) => page.evaluate(() => {
        const t = window.__attnTraining;
        const blocks = t.heatmapLayout().blocks.filter((b) => b.slot === 0);
        const share = (state, kind) => blocks.filter((b) => b.kind === kind)
          .reduce((s, b) => s + [...Array(b.end - b.start).keys()].reduce((a, k) => a + t.cAt(state, b.start + k), 0), 0);
        return { it: t.iteration(), snap: t.snap(), common: [share(0, 'common'), share(15, 'common')], distinct: [share(0, 'distinct'), share(15, 'distinct')] };
      }));
      assert.equal(r.it, 15);
      assert.ok(r.common[1] < r.common[0] - 0.05 && r.distinct[1] > r.distinct[0] + 0.05, JSON.stringify(r));
      assert.equal(r.snap, -1, 'not snapped yet: the scan is under way');
      return `scan-snap iteration 15: common tokens ${r.common[0].toFixed(3)} -> ${r.common[1].toFixed(3)}, distinct ${r.distinct[0].toFixed(3)} -> ${r.distinct[1].toFixed(3)}, no snap yet`;
    },
  },
  'training-snap-flat': {
    lab: 'training',
    async run(browser) {
      const r = await training(browser, 'version=7&lab=training&preset=scan-snap&step=1000', (page) => page.evaluate(() => ({ snap: window.__attnTraining.snap(), e: window.__attnTraining.entropies() })));
      assert.ok(r.snap > 0, `snap ${r.snap}`);
      const drop = r.e[0] - r.e[r.snap];
      const after = r.e.slice(2 * r.snap);
      const spread = Math.max(...after) - Math.min(...after);
      assert.ok(spread < 0.02 * drop, `entropy after ${2 * r.snap} moves ${spread} against a drop of ${drop}`);
      return `scan-snap, 1000 iterations: snap at ${r.snap}; from ${2 * r.snap} on the entropy moves ${spread.toExponential(1)} nats, against ${drop.toFixed(3)} before the snap`;
    },
  },
  'training-ratio': {
    lab: 'training',
    async run(browser) {
      const read = (page) => page.evaluate(() => ({ snap: window.__attnTraining.snap(), e: window.__attnTraining.entropy() }));
      const ten = await training(browser, 'version=7&lab=training&preset=scan-snap-sweep&ratio=10&step=100', read);
      const one = await training(browser, 'version=7&lab=training&preset=scan-snap-sweep&step=100', read);
      assert.ok(ten.snap >= 0 && ten.snap < one.snap, `snaps: r = 10 at ${ten.snap}, r = 1 at ${one.snap}`);
      assert.ok(ten.e > one.e, `final entropy: r = 10 ${ten.e}, r = 1 ${one.e}`);
      return `scan-snap-sweep: r = 10 snaps at ${ten.snap} (entropy ${ten.e.toFixed(3)}), r = 1 at ${one.snap} (${one.e.toFixed(3)})`;
    },
  },

  'scan-snap': {
    lab: 'training',
    async run(browser) {
      return `${await LAB_CHECKS['training-scan'].run(browser)}; ${await LAB_CHECKS['training-snap-flat'].run(browser)}`;
    },
  },
  'eta-z-sparser': {
    lab: 'training',
    async run(browser) {
      const out = [];
      for (const preset of ['scan-snap', 'scan-snap-sweep']) {
        const e = [];
        for (const eta of [0.5, 2]) e.push(await training(browser, `version=7&lab=training&preset=${preset}&eta_z=${eta}&step=100`, (page) => page.evaluate(() => window.__attnTraining.entropy())));
        assert.ok(e[1] < e[0], `${preset}: final entropy ${e}`);
        out.push(`${preset}: final entropy ${e[0].toFixed(3)} at eta_z 0.5, ${e[1].toFixed(3)} at 2`);
      }
      return out.join('; ');
    },
  },
  'sweep-preset': {
    lab: 'training',
    async run(browser) {
      return `${await LAB_CHECKS['eta-z-sparser'].run(browser)}; ${await LAB_CHECKS['training-ratio'].run(browser)}`;
    },
  },

  // ---- depth lab -------------------------------------------------------------------------
  'depth-san-collapses': {
    lab: 'depth',
    async run(browser) {
      const { results } = await depth(browser, 'version=7&lab=depth&preset=collapse-small&variants=san');
      const r = residualOf(results, 'SAN');
      const at = r.findIndex((v) => v < 1e-12);
      assert.ok(at > 0 && at <= 6, `SAN residual: ${r.map((v) => v.toExponential(1))}`);
      // Doubly exponential: once below 1/2, each layer at least squares it, down to round-off.
      const powers = r.slice(0, at).map((v, l) => Math.log(r[l + 1]) / Math.log(v)).filter((_, l) => r[l] < 0.5);
      assert.ok(powers.length >= 2 && powers.every((p) => p >= 2), `log r_(l+1) / log r_l: ${powers}`);
      return `collapse-small: SAN's residual below 1e-12 from layer ${at} (${r[at].toExponential(1)}), each layer raising it to a power ≥ ${Math.min(...powers).toFixed(1)} on the way`;
    },
  },
  'depth-skip-stays': {
    lab: 'depth',
    async run(browser) {
      const { results } = await depth(browser, 'version=7&lab=depth&preset=collapse-small&variants=san,san-skip');
      const r = residualOf(results, 'SAN+skip');
      assert.ok(Math.min(...r) > 0.5, `SAN+skip residual: ${r}`);
      return `collapse-small: SAN+skip's residual stays ≥ ${Math.min(...r).toFixed(2)} over ${r.length - 1} layers`;
    },
  },
  'depth-mlp-collapses': {
    lab: 'depth',
    async run(browser) {
      const { results } = await depth(browser, 'version=7&lab=depth&preset=collapse-small');
      const mlp = last(residualOf(results, 'SAN+MLP'));
      const skip = Math.min(...residualOf(results, 'SAN+skip'));
      assert.ok(mlp < 1e-12 && last(residualOf(results, 'SAN')) < 1e-12, `SAN+MLP ends at ${mlp}`);
      assert.ok(skip > 0.5, `SAN+skip stays near its start: ${skip}`);
      const m = await model(browser, FOX);
      const trained = last(m.variants.find((v) => v.variant === 'SAN+MLP').residual);
      assert.ok(trained < 1e-5, `the model lab's SAN+MLP ends at ${trained}`);
      return `SAN+MLP's last residual: ${mlp.toExponential(1)} on collapse-small, ${trained.toExponential(1)} on the model lab's fox text (SAN+skip ≥ ${skip.toFixed(2)})`;
    },
  },
  'depth-context-chance': {
    lab: 'depth',
    async run(browser) {
      const { info, results } = await depth(browser, 'version=7&lab=depth&preset=context-text');
      const shares = results.find((r) => r.variant === 'transformer').similarity.map((l) => l.same_sentence);
      const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
      assert.ok(Math.abs(mean - info.chance_level) < 0.1, `transformer's mean share ${mean} against chance ${info.chance_level}`);
      const trained = await LAB_CHECKS['model-same-sentence'].run(browser);
      return `context-text, random weights: the transformer's mean same-sentence share ${mean.toFixed(3)}, chance ${info.chance_level.toFixed(3)}; ${trained}`;
    },
  },

  'collapse-small-preset': {
    lab: 'depth',
    async run(browser) {
      return `${await LAB_CHECKS['depth-san-collapses'].run(browser)}; ${await LAB_CHECKS['depth-mlp-collapses'].run(browser)}`;
    },
  },
  'depth-sv-collapsed': {
    lab: 'depth',
    async run(browser) {
      const { results } = await depth(browser, 'version=7&lab=depth&preset=collapse-small&variants=san,san-skip');
      const ratio = (name) => {
        const sv = last(results.find((r) => r.variant === name).singular_values);
        return sv[1] / sv[0];
      };
      assert.ok(ratio('SAN') < 1e-12, `SAN: σ₂/σ₁ = ${ratio('SAN')}`);
      assert.ok(ratio('SAN+skip') > 0.1, `SAN+skip: σ₂/σ₁ = ${ratio('SAN+skip')}`);
      return `collapse-small, last layer: σ₂/σ₁ = ${ratio('SAN').toExponential(1)} for SAN (rank 1), ${ratio('SAN+skip').toFixed(2)} for SAN+skip`;
    },
  },
  'depth-bert-init': {
    lab: 'depth',
    async run(browser) {
      const { results } = await depth(browser, 'version=7&lab=depth&preset=bert-init&variants=san,san-skip');
      const san = residualOf(results, 'SAN');
      const skip = residualOf(results, 'SAN+skip');
      assert.ok(san[2] < 0.05, `SAN at layer 2: ${san[2]}`);
      assert.ok(Math.min(...skip) > 0.3, `SAN+skip: ${skip}`);
      return `bert-init: SAN's residual ${san[2].toExponential(1)} at layer 2, SAN+skip ≥ ${Math.min(...skip).toFixed(2)} at every layer`;
    },
  },

  // ---- model lab -------------------------------------------------------------------------
  'model-cls-sep': {
    lab: 'model',
    async run(browser) {
      const m = await model(browser, FOX);
      assert.equal(m.tokens[0], '[CLS]');
      assert.equal(last(m.tokens), '[SEP]');
      const sentences = new Set(m.sentence).size;
      assert.ok(sentences >= 3, `${sentences} sentences shaded`);
      return `fox text: ${m.tokens.length} word pieces from [CLS] to [SEP], ${sentences} sentences`;
    },
  },
  'model-san-collapses': {
    lab: 'model',
    async run(browser) {
      const m = await model(browser, FOX);
      const end = (name) => last(m.variants.find((v) => v.variant === name).residual);
      assert.ok(end('SAN') < 1e-5, `SAN ends at ${end('SAN')}`);
      assert.ok(end('transformer') > 0.5, `the transformer ends at ${end('transformer')}`);
      return `fox text at layer 6: SAN ${end('SAN').toExponential(1)}, transformer ${end('transformer').toFixed(2)}`;
    },
  },
  'model-same-sentence': {
    lab: 'model',
    async run(browser) {
      const m = await model(browser, BANK);
      const above = m.same.filter((v) => v > m.chance).length;
      assert.ok(above > m.same.length / 2, `shares ${m.same} against chance ${m.chance}`);
      return `the model lab's bank text: same-sentence share above chance ${m.chance.toFixed(2)} in ${above} of ${m.same.length} layers (${m.same.map((v) => v.toFixed(2)).join(', ')})`;
    },
  },
  'model-head-verdict': {
    lab: 'model',
    async run(browser) {
      const said = [];
      for (const [layer, head] of [[1, 0], [3, 7], [6, 11]]) {
        const { sp, text } = await on(browser, `${modelLink(FOX)}&layer=${layer}&head=${head}`, async (page) => {
          await analysed(page);
          return page.evaluate(() => ({ sp: window.__attnModel.spectrum(), text: document.getElementById('md-verdict').textContent }));
        });
        const v = sp.verdict;
        const mod = ([re, im]) => Math.hypot(re, im);
        assert.deepEqual(v.lambda1, sp.v[0], 'λ₁ is the eigenvalue of largest modulus');
        assert.equal(v.real, v.lambda1[1] === 0);
        assert.equal(v.positive, v.real && v.lambda1[0] > 0);
        assert.equal(v.simple, mod(sp.v[1]) < mod(sp.v[0]) * (1 - 1e-9));
        // rank S_h <= 2 d_k: at least d - 2 d_k exact zeros, so S_h is never positive definite.
        const zeros = sp.s.filter(([re]) => re === 0).length;
        assert.ok(zeros >= sp.d - 2 * sp.dk, `${layer},${head}: ${zeros} zero eigenvalues of S_h`);
        const row = !v.real ? /is not real/ : !v.positive ? /is not positive/ : !v.simple ? /is not simple/
          : v.phi1_s_phi1 > 0 ? /the hyperplanes row applies/ : /condition fails by/;
        assert.match(text, row, `${layer},${head}: ${text}`);
        assert.equal(v.hyperplanes_row, v.real && v.positive && v.simple && v.phi1_s_phi1 > 0);
        said.push(`${layer},${head}: λ₁ ${v.lambda1[0].toFixed(3)}${v.lambda1[1] ? ` ± ${Math.abs(v.lambda1[1]).toFixed(3)}i` : ''}, ${v.hyperplanes_row ? 'hyperplanes row' : 'no row'}, S_h ${zeros} zeros`);
      }
      return said.join('; ');
    },
  },
};
