// The checks of the particle lab's sentences (claim_checks.mjs gathers every lab's): each opens
// the link its sentence talks about, at the moment it describes, and reads what the page shows
// (window.__attn: the metrics, the tokens and where they were drawn, the heatmap's pixels).

import assert from 'node:assert/strict';
import { on } from './checks_common.mjs';
import { groups, heatmapBlocks, radius, shown, snapshot, tokenRadius } from './drawn.mjs';

/** The particle lab's state at `link`'s moment (its `t=`/`step=`), as drawn. */
const particles = (browser, link, extra = async () => null) => on(browser, link, async (page) => {
  await shown(page);
  return { ...(await snapshot(page)), extra: await extra(page) };
});

/** The cluster count of `link`'s run at each time of `ts`, each opened at that moment (`t=`):
 * the metrics of the state itself, not the chart's nearest sample. */
async function moments(browser, link, ts) {
  const out = [];
  for (const t of ts) out.push((await particles(browser, `${link}&t=${t}`)).metrics.clusters);
  return out;
}

/** Directions to test hull vertices along: 360 in 2-D, a 90 x 180 grid of the sphere in 3-D. */
const DIRECTIONS = {
  2: [...Array(360).keys()].map((k) => [Math.cos((k * Math.PI) / 180), Math.sin((k * Math.PI) / 180)]),
  3: [...Array(90 * 180).keys()].map((k) => {
    const th = (Math.floor(k / 180) + 0.5) * (Math.PI / 90);
    const ph = (k % 180) * (Math.PI / 90);
    return [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
  }),
};

/** Whether point `p` is a vertex of the convex hull of `pts` (2-D or 3-D): some direction has
 * `p` strictly farthest. */
function isHullVertex(p, pts) {
  const dot = (q, u) => q.reduce((s, v, i) => s + v * u[i], 0);
  return DIRECTIONS[p.length].some((u) => pts.every((q) => q === p || dot(q, u) < dot(p, u) - 1e-9));
}

/** Whether 2-D point `p` lies in the convex polygon `poly` (counter-clockwise), within `eps`. */
function inPolygon(p, poly, eps) {
  return poly.every((a, i) => {
    const b = poly[(i + 1) % poly.length];
    const cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    return cross >= -eps * Math.hypot(b[0] - a[0], b[1] - a[1]);
  });
}

/** The centre of each cluster of a particle snapshot (its labels and tokens). */
function centres(s) {
  return [...Array(s.metrics.clusters)].map((_, c) => {
    const members = s.labels.map((l, i) => (l === c ? i : -1)).filter((i) => i >= 0);
    return [...Array(s.d).keys()].map((a) => members.reduce((sum, i) => sum + s.tokens[i * s.d + a], 0) / members.length);
  });
}

/** The particle lab's checks by name: `{ lab, run(browser) }`. */
export const PARTICLE_CHECKS = {
  // ---- particle lab ----------------------------------------------------------------------
  'polytope-five-corners': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=polytope&t=20', (page) => page.evaluate(() => window.__attn.initialHull()));
      assert.equal(s.metrics.clusters, 5, 'polytope ends as 5 clusters');
      const c = centres(s);
      assert.ok(c.every((p) => isHullVertex(p, c)), `every cluster is a corner: ${JSON.stringify(c)}`);
      const hull = s.extra.vertices.map((i) => s.extra.points[i]);
      assert.ok(c.every((p) => inPolygon(p, hull, 1e-9)), 'the polytope lies inside the initial hull');
      return `polytope t = 20: ${c.length} clusters of ${s.n}, each a corner of their hull, inside the initial hull`;
    },
  },
  'leaders-boolean': {
    lab: 'particles',
    async run(browser) {
      const start = await particles(browser, 'version=7&preset=leaders&step=0');
      const end = await particles(browser, 'version=7&preset=leaders&t=10');
      const x = start.tokens;
      const ends = [x.indexOf(Math.min(...x)), x.indexOf(Math.max(...x))].sort((a, b) => a - b);
      assert.ok(end.metrics.boolean_distance < 1e-6, `Boolean distance ${end.metrics.boolean_distance}`);
      assert.deepEqual([...end.metrics.leaders].sort((a, b) => a - b), ends, 'the two leaders are the smallest and the largest token');
      return `leaders t = 10: Boolean distance ${end.metrics.boolean_distance.toExponential(1)}, leaders ${ends} (argmin, argmax of x(0))`;
    },
  },
  'collapse-tenth': {
    lab: 'particles',
    async run(browser) {
      const start = await particles(browser, 'version=7&preset=collapse&step=0');
      const at = await particles(browser, 'version=7&preset=collapse&t=10');
      const scale = [start, at].map((s) => radius(s.drawn) / tokenRadius(s.tokens, s.n, s.d));
      assert.ok(Math.abs(scale[1] / scale[0] - 1) < 0.01, `one scale: ${scale} px per unit`);
      const ratio = radius(at.drawn) / radius(start.drawn);
      assert.ok(ratio <= 0.1, `drawn radius at t = 10 is ${ratio.toFixed(3)} of the start's`);
      return `collapse: drawn radius ${radius(at.drawn).toFixed(1)} px at t = 10 against ${radius(start.drawn).toFixed(1)} px at t = 0 (${ratio.toFixed(3)}), ${scale[0].toFixed(1)} px per unit at both`;
    },
  },
  'sphere-three-last': {
    lab: 'particles',
    async run(browser) {
      const at = await moments(browser, 'version=7&preset=sphere-sa-clusters', [10, 15, 20, 25, 30]);
      assert.ok(at.every((c) => c === 3), `counts at t = 10, 15, ..., 30: ${at}`);
      return `sphere-sa-clusters (64 tokens): 3 clusters at t = 10, 15, 20, 25 and 30`;
    },
  },
  'beta-sphere': {
    lab: 'particles',
    async run(browser) {
      const one = await particles(browser, 'version=7&preset=sphere-sa-clusters&beta=1&t=15');
      const four = await particles(browser, 'version=7&preset=sphere-sa-clusters&t=15');
      assert.equal(one.metrics.clusters, 1, 'β = 1: one cluster at t = 15');
      assert.equal(four.metrics.clusters, 3, 'β = 4: three clusters at t = 15');
      return `sphere-sa-clusters at t = 15: ${one.metrics.clusters} cluster at β = 1, ${four.metrics.clusters} at β = 4`;
    },
  },
  'metastability-two': {
    lab: 'particles',
    async run(browser) {
      const ts = [0, 10, 100, 200, 300];
      const at = await moments(browser, 'version=7&preset=metastability', ts);
      assert.deepEqual(at, [5, 2, 2, 2, 2], `five tokens, two clusters from t = 10 to 300: ${at}`);
      return `metastability: ${at.map((c, i) => `${c} at t = ${ts[i]}`).join(', ')}`;
    },
  },
  'beta-key': {
    lab: 'particles',
    async run(browser) {
      const sphere = await PARTICLE_CHECKS['beta-sphere'].run(browser);
      const corners = [];
      for (const beta of [1, 5]) corners.push(centres(await particles(browser, `version=7&preset=polytope&beta=${beta}&t=20`)));
      assert.equal(corners[0].length, corners[1].length, `polytope at t = 20: ${corners[0].length} clusters at β = 1, ${corners[1].length} at β = 5`);
      const apart = Math.max(...corners[0].map((p) => Math.min(...corners[1].map((q) => Math.hypot(p[0] - q[0], p[1] - q[1])))));
      assert.ok(apart < 0.1, `the same vertices: the farthest is ${apart} from its match`);
      return `${sphere}; polytope at t = 20: the same ${corners[0].length} vertices at β = 1 and 5 (within ${apart.toExponential(1)})`;
    },
  },
  'random-psd-lines': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=random-psd&t=20', (page) => page.evaluate(() => window.__attn.counted()));
      assert.equal(s.extra, 'hyperplanes', 'ψ₁ is defined: the chart counts hyperplanes');
      assert.equal(s.metrics.hyperplanes, 2, 'two parallel lines');
      return `random-psd t = 20: ${s.metrics.hyperplanes} lines, ${s.metrics.clusters} clusters of ${s.n} tokens`;
    },
  },

  'polytope-3d-corners': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=polytope-3d&t=20');
      const c = centres(s);
      assert.ok(c.length >= 6 && c.length <= 13, `${c.length} clusters`);
      assert.ok(c.every((p) => isHullVertex(p, c)), `every cluster is a vertex: ${JSON.stringify(c)}`);
      return `polytope-3d t = 20: ${c.length} clusters of ${s.n}, each a vertex of their hull`;
    },
  },
  'hyperplanes-lines': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=hyperplanes&t=15', (page) => page.evaluate(() => window.__attn.counted()));
      assert.equal(s.extra, 'hyperplanes');
      assert.ok(s.metrics.hyperplanes >= 1 && s.metrics.hyperplanes <= 3, `${s.metrics.hyperplanes} lines`);
      return `hyperplanes t = 15: ${s.metrics.hyperplanes} parallel lines normal to ψ₁ (${s.metrics.clusters} clusters of ${s.n})`;
    },
  },
  'polytope-line': {
    lab: 'particles',
    async run(browser) {
      const range = (s, a) => Math.max(...s.tokens.filter((_, i) => i % 3 === a)) - Math.min(...s.tokens.filter((_, i) => i % 3 === a));
      const z0 = await particles(browser, 'version=7&preset=polytope-line&step=0');
      const z = await particles(browser, 'version=7&preset=polytope-line&t=15');
      const x = await particles(browser, 'version=7&preset=polytope-line&coords=x&t=15');
      const absMax = (s) => Math.max(...s.tokens.filter((_, i) => i % 3 === 2).map(Math.abs));
      assert.ok(range(z, 2) > 100 * range(z0, 2), `z₃ diverges: range ${range(z0, 2)} -> ${range(z, 2)}`);
      assert.ok(absMax(x) <= absMax(z0), `x₃ stays bounded: ${absMax(z0)} -> ${absMax(x)}`);
      const plane = groups([...Array(z.n).keys()].map((i) => [z.tokens[3 * i], z.tokens[3 * i + 1]]), 1e-3 * range(z0, 0));
      assert.ok(plane >= 3 && plane <= 8, `(z₁, z₂) at ${plane} points`);
      return `polytope-line t = 15: (z₁, z₂) at ${plane} corners, z₃'s range ${range(z0, 2).toFixed(1)} -> ${range(z, 2).toExponential(1)}, |x₃| ≤ ${absMax(x).toFixed(2)}`;
    },
  },
  'collapse-origin': {
    lab: 'particles',
    async run(browser) {
      const at = async (t) => {
        const s = await particles(browser, `version=7&preset=collapse&t=${t}`);
        return Math.max(...[...Array(s.n).keys()].map((i) => Math.hypot(s.tokens[2 * i], s.tokens[2 * i + 1])));
      };
      const [r10, r20] = [await at(10), await at(20)];
      const rate = r20 / r10;
      assert.ok(Math.abs(rate - Math.SQRT1_2) < 0.1, `|x| at t = 20 / t = 10: ${rate} (t^-1/2: 0.707)`);
      return `collapse: the farthest token from the origin at ${r10.toFixed(3)} (t = 10), ${r20.toFixed(3)} (t = 20): ratio ${rate.toFixed(3)}, t^-1/2 gives 0.707`;
    },
  },
  'sphere-one': {
    lab: 'particles',
    async run(browser) {
      const at = await moments(browser, 'version=7&preset=sphere-sa', [12, 15]);
      assert.deepEqual(at, [1, 1], 'one cluster by t = 12, to the end');
      return 'sphere-sa (64 tokens): 1 cluster at t = 12 and 15';
    },
  },
  'energy-increases': {
    lab: 'particles',
    async run(browser) {
      const out = [];
      for (const preset of ['sphere-sa', 'sphere-usa']) {
        const s = await particles(browser, `version=7&preset=${preset}&t=10`, (page) => page.evaluate(() => {
          const h = [];
          for (let t = 0; t <= 10; t += 0.5) h.push(window.__attn.historyNear(t));
          return h.map((x) => [x.energy, x.clusters]);
        }));
        const e = s.extra.map((x) => x[0]);
        assert.ok(e.every((v, i) => i === 0 || v >= e[i - 1] * (1 - 1e-12)), `${preset}: energy ${e}`);
        assert.ok(s.extra.at(-1)[1] < s.n, `${preset}: clusters at t = 10: ${s.extra.at(-1)[1]}`);
        out.push(`${preset}: energy ${e[0].toFixed(3)} -> ${e.at(-1).toFixed(3)}, never down; ${s.extra.at(-1)[1]} cluster(s) of ${s.n} at t = 10`);
      }
      return out.join('; ');
    },
  },
  'heatmap-blocks-cluster': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=sphere-sa-clusters&order=cluster&t=30', heatmapBlocks);
      assert.ok(s.extra.groups > 1 && s.extra.share >= 0.9, JSON.stringify(s.extra));
      return `sphere-sa-clusters t = 30 by cluster: ${(100 * s.extra.share).toFixed(1)}% of P's mass in ${s.extra.groups} diagonal blocks`;
    },
  },
  'heatmap-blocks-leader': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=polytope&order=leader&t=20', heatmapBlocks);
      assert.ok(s.extra.groups > 1 && s.extra.share >= 0.9, JSON.stringify(s.extra));
      return `polytope t = 20 by leader: ${(100 * s.extra.share).toFixed(1)}% of P's mass in ${s.extra.groups} diagonal blocks (a full column each)`;
    },
  },
  'scale-key': {
    lab: 'particles',
    async run(browser) {
      const bd = [];
      for (const scale of [5, 10]) bd.push((await particles(browser, `version=7&preset=polytope&scale=${scale}&t=1`)).metrics.boolean_distance);
      assert.ok(bd[1] < bd[0] / 100, `Boolean distance at t = 1: ${bd}`);
      return `polytope at t = 1: Boolean distance ${bd[0].toExponential(1)} at scale 5, ${bd[1].toExponential(1)} at scale 10`;
    },
  },
  'clusters-as-drawn': {
    lab: 'particles',
    async run(browser) {
      const s = await particles(browser, 'version=7&preset=polytope&t=2.4', heatmapBlocks);
      const px = groups(s.drawn, 4);
      assert.ok(s.metrics.clusters < s.n && s.metrics.clusters === px, `${s.metrics.clusters} clusters, ${px} groups of dots within 4 px`);
      assert.ok(s.extra.share >= 0.9, JSON.stringify(s.extra));
      return `polytope t = 2.4: ${s.metrics.clusters} clusters, ${px} groups of dots drawn within 4 px; the heatmap's ${s.extra.groups} blocks hold ${(100 * s.extra.share).toFixed(1)}% of P`;
    },
  },
  'v-key': {
    lab: 'particles',
    async run(browser) {
      return [await PARTICLE_CHECKS['polytope-five-corners'].run(browser), await PARTICLE_CHECKS['hyperplanes-lines'].run(browser), await PARTICLE_CHECKS['collapse-tenth'].run(browser)].join('; ');
    },
  },

};
