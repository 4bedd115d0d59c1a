// Browser tests of the theorems drawn (view key overlays): the convex hull of the
// initial rescaled tokens and ψ₁ come from the core (wasm) and are drawn where the token view puts
// those points; the overlays key round-trips in the address bar; the PNG export holds the overlay;
// the hyperplanes preset's chart shows the hyperplanes count; plateaus are shaded on the chart.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ATTN_BIN, assertNoErrors, canvasSnapshot, launch, openPage, runCli } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const HULL_LIGHT = [0x5a, 0x3d, 0x00];
const PSI_LIGHT = [0xd5, 0x5e, 0x00];

/** Opens `hash` (which names t= or step=) and waits until the page shows that step, paused. */
async function openAt(hash, step) {
  const page = await openPage(browser, hash);
  await page.waitForFunction((s) => window.__attn.step() === s && !window.__attn.seeking() && !window.__attn.playing()
    && window.__attn.overlayDrawn() !== undefined, step, { timeout: 60_000 });
  // One more frame so the token view has drawn the state shown.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page;
}

/** The RGBA of device pixel (x, y) of a snapshot. */
function rgbAt(snap, x, y) {
  const i = 4 * (Math.round(y) * snap.width + Math.round(x));
  return [snap.pixels[i], snap.pixels[i + 1], snap.pixels[i + 2]];
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** The closest colour to `want` among the device pixels within `r` of CSS point p (dpr 1). */
function nearest(snap, p, want, r = 2) {
  let best = Infinity;
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) best = Math.min(best, dist(rgbAt(snap, p[0] + dx, p[1] + dy), want));
  }
  return best;
}

const mid = ([a, b]) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/** Monotone-chain hull (counter-clockwise indices) of 2-D points: the test's own. */
function hull2d(pts) {
  const idx = pts.map((_, i) => i).sort((a, b) => pts[a][0] - pts[b][0] || pts[a][1] - pts[b][1]);
  const cross = (o, a, b) => (pts[a][0] - pts[o][0]) * (pts[b][1] - pts[o][1]) - (pts[a][1] - pts[o][1]) * (pts[b][0] - pts[o][0]);
  const half = (list) => {
    const h = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(idx), ...half([...idx].reverse())];
}

describe('overlays: the theorems drawn', () => {
  test('polytope: the hull of the initial tokens is the core\'s, drawn at the tokens\' places; centres marked', { skip: !ATTN_BIN && 'ATTN_BIN is not set' }, async () => {
    const config = 'version=4&preset=polytope&seed=4';
    // The initial tokens from the CLI, and the test's own hull of them.
    const frames = JSON.parse(await runCli(['run', '--config', config, '--until', '0']));
    const z0 = frames.frames[0].tokens;
    const page = await openAt(`${config}&step=0`, 0);
    try {
      assert.deepEqual(await page.evaluate(() => window.__attn.overlays()), ['hull', 'plateaus']);
      const hull = await page.evaluate(() => window.__attn.initialHull());
      assert.deepEqual(hull.points, z0, 'the hull is of the initial tokens');
      assert.deepEqual([...hull.vertices].sort((a, b) => a - b), hull2d(z0).sort((a, b) => a - b), 'the core\'s vertices');
      // At step 0 every hull vertex is drawn where its token is.
      const drawn = await page.evaluate(() => window.__attn.overlayDrawn());
      const tokens = await page.evaluate(() => window.__attn.drawnTokens());
      assert.equal(drawn.hull.length, hull.vertices.length);
      hull.vertices.forEach((i, k) => {
        assert.ok(dist([...drawn.hull[k], 0], [...tokens[i], 0]) < 1e-6, `vertex ${i} at its token`);
      });
    } finally {
      await page.close();
    }

    // Later (t = 15): the hull's edges are drawn in the hull colour; without the overlay they are not.
    const later = `${config}&t=15`;
    const on = await openAt(later, 150);
    const off = await openAt(`${later}&overlays=`, 150);
    try {
      const drawn = await on.evaluate(() => window.__attn.overlayDrawn());
      assert.equal(await off.evaluate(() => window.__attn.overlayDrawn().hullEdges), undefined);
      const a = await canvasSnapshot(on, '#tokens', { pixels: true });
      const b = await canvasSnapshot(off, '#tokens', { pixels: true });
      assert.notEqual(a.hash, b.hash);
      const edges = drawn.hullEdges;
      assert.ok(edges.length >= 3);
      const coloured = edges.filter((e) => nearest(a, mid(e), HULL_LIGHT) < 60).length;
      const before = edges.filter((e) => nearest(b, mid(e), HULL_LIGHT) < 60).length;
      assert.ok(coloured >= edges.length - 1, `hull colour at ${coloured} of ${edges.length} edge midpoints`);
      assert.equal(before, 0, 'no hull colour there without the overlay');
      // The cluster centres: one cross per cluster of two or more tokens, from the core's centres.
      const sizes = await on.evaluate(() => {
        const count = new Map();
        for (const l of window.__attn.labels()) count.set(l, (count.get(l) || 0) + 1);
        return [...count.values()];
      });
      assert.equal(drawn.centres.length, sizes.filter((k) => k >= 2).length);
      assert.ok(drawn.centres.length >= 3);
      for (const c of drawn.centres) assert.ok(nearest(a, c, [0, 0, 0], 1) < 90, `a dark cross at ${c}`);
      assertNoErrors(on);
      assertNoErrors(off);
    } finally {
      await on.close();
      await off.close();
    }
  });

  test('polytope-3d: hull edges projected with the camera, vertices at the tokens\' places', async () => {
    const link = 'version=4&preset=polytope-3d&step=0&camera=0.4,0.3';
    const page = await openAt(link, 0);
    const off = await openAt(`${link}&overlays=`, 0);
    try {
      const hull = await page.evaluate(() => window.__attn.initialHull());
      assert.ok(hull.vertices.length >= 8 && hull.vertices.length < 40, `${hull.vertices.length} vertices`);
      // Euler's formula for a simplicial polytope: 2E = 3F, V - E + F = 2.
      const [V, E] = [hull.vertices.length, hull.edges.length];
      assert.equal(3 * (2 - V + E), 2 * E);
      const drawn = await page.evaluate(() => window.__attn.overlayDrawn());
      const tokens = await page.evaluate(() => window.__attn.drawnTokens());
      for (const p of drawn.hull) {
        assert.ok(tokens.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-6), `vertex drawn at ${p} is a token's place`);
      }
      assert.equal(drawn.hullEdges.length, E);
      const a = await canvasSnapshot(page, '#tokens', { pixels: true });
      const b = await canvasSnapshot(off, '#tokens', { pixels: true });
      // Edge midpoints away from every token (a token's dot may cover an edge).
      const clear = drawn.hullEdges.map(mid).filter((m) => tokens.every((q) => Math.hypot(m[0] - q[0], m[1] - q[1]) > 9));
      assert.ok(clear.length >= E / 2, `${clear.length} of ${E} midpoints clear of tokens`);
      // Nearer edges are drawn darker: each clear midpoint is darker than without the overlay,
      // and tinted towards the hull colour (red above blue, as #5a3d00).
      const changed = clear.filter((m) => {
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const p = rgbAt(a, m[0] + dx, m[1] + dy);
            const q = rgbAt(b, m[0] + dx, m[1] + dy);
            if (p[0] + p[1] + p[2] < q[0] + q[1] + q[2] - 45 && p[0] > p[2]) return true;
          }
        }
        return false;
      }).length;
      assert.ok(changed >= 0.9 * clear.length, `hull drawn at ${changed} of ${clear.length} edge midpoints`);
      // Rotating the camera moves the projected edges.
      await page.evaluate(() => { location.hash = location.hash.replace('camera=0.4,0.3', 'camera=1.2,0.3'); });
      await page.waitForFunction((old) => JSON.stringify(window.__attn.overlayDrawn()?.hull) !== old, JSON.stringify(drawn.hull));
      assertNoErrors(page);
    } finally {
      await page.close();
      await off.close();
    }
  });

  test('hyperplanes: ψ₁ from the core is V\'s left eigenvector, drawn as an arrow along it; the chart shows hyperplanes', async () => {
    const page = await openAt('version=4&preset=hyperplanes&t=15', 150);
    try {
      const psi = await page.evaluate(() => window.__attn.psi1());
      const { v } = await page.evaluate(() => window.__attn.matrices());
      // The test's own psi1: (V^T - lambda I) y = 0 for the larger root of the 2 x 2 characteristic polynomial.
      const [a, b, c, d] = v;
      const tr = a + d;
      const det = a * d - b * c;
      const lambda = tr / 2 + Math.sqrt((tr * tr) / 4 - det);
      let y = [c, lambda - a]; // (V^T - lambda I) = [[a - l, c], [b, d - l]]: y ⟂ its first row
      const len = Math.hypot(...y);
      y = y.map((t) => t / len);
      if (Math.abs(y[1]) > Math.abs(y[0]) ? y[1] < 0 : y[0] < 0) y = y.map((t) => -t);
      assert.ok(Math.abs(psi.lambda - lambda) < 1e-12, `${psi.lambda} vs ${lambda}`);
      assert.ok(Math.abs(psi.psi[0] - y[0]) < 1e-12 && Math.abs(psi.psi[1] - y[1]) < 1e-12, `${psi.psi} vs ${y}`);
      // The arrow points along psi1 on screen (equal axes; screen y grows downwards).
      const drawn = await page.evaluate(() => window.__attn.overlayDrawn());
      const dx = drawn.psi.to[0] - drawn.psi.from[0];
      const dy = drawn.psi.to[1] - drawn.psi.from[1];
      const l = Math.hypot(dx, dy);
      assert.ok(Math.abs(dx / l - psi.psi[0]) < 1e-9 && Math.abs(-dy / l - psi.psi[1]) < 1e-9, 'arrow along psi1');
      const snap = await canvasSnapshot(page, '#tokens', { pixels: true });
      // Tokens are drawn over the overlays: look along the shaft for the points no dot covers.
      const along = [0.3, 0.45, 0.6, 0.75].map((f) => [drawn.psi.from[0] + f * dx, drawn.psi.from[1] + f * dy]);
      const inPsi = along.filter((p) => nearest(snap, p, PSI_LIGHT, 1) < 40).length;
      assert.ok(inPsi >= 2, `the arrow is drawn in the psi colour (${inPsi} of 4 points along its shaft)`);
      assert.equal(drawn.lines.length, 2, 'the two limiting lines');
      // The chart counts hyperplanes (1 to 3 by the theorem), not 40 clusters.
      const m = await page.evaluate(() => window.__attn.metrics());
      assert.ok(m.hyperplanes >= 1 && m.hyperplanes <= 3, `hyperplanes = ${m.hyperplanes}`);
      assert.equal(await page.evaluate(() => window.__attn.counted()), 'hyperplanes');
      const labels = JSON.parse(await page.locator('#chart').getAttribute('data-labels')).map((t) => t.text);
      assert.ok(labels.some((t) => t.startsWith(`hyperplanes: ${m.hyperplanes}`)), labels.join(' | '));
      assert.ok(!labels.some((t) => t.startsWith('clusters:')), 'no clusters title');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('psi1 has the same bits in the page (wasm) as natively (core tests/spectrum.rs)', async () => {
    const kept = JSON.parse(await readFile(new URL('../../crates/core/tests/fixtures/psi1_bits.json', import.meta.url), 'utf8'));
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      const got = await page.evaluate((configs) => {
        const hex = (x) => {
          const v = new DataView(new ArrayBuffer(8));
          v.setFloat64(0, x);
          return v.getBigUint64(0).toString(16).padStart(16, '0');
        };
        const out = {};
        for (const c of configs) {
          const lab = new window.__attn.wasm.ParticleLab(c);
          const e = lab.psi1();
          lab.free();
          out[c] = { lambda: hex(e.lambda), psi: e.psi.map(hex) };
        }
        return out;
      }, Object.keys(kept));
      assert.deepEqual(got, kept);
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('the overlays key round-trips in the address bar and the checkboxes', async () => {
    const page = await openPage(browser, 'version=4&preset=polytope');
    try {
      const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
      assert.equal(await hash(), '#version=4&preset=polytope', 'the suggestion is not written');
      assert.ok(await page.isChecked('#overlay-hull'));
      assert.ok(!(await page.isChecked('#overlay-psi')));
      await page.check('#overlay-depth');
      await page.waitForFunction(() => location.hash.includes('overlays='));
      assert.equal(await hash(), '#version=4&preset=polytope&overlays=hull,plateaus,depth');
      assert.deepEqual(await page.evaluate(() => window.__attn.overlays()), ['hull', 'plateaus', 'depth']);
      // Back to the suggestion: the key is dropped again.
      await page.uncheck('#overlay-depth');
      await page.waitForFunction(() => !location.hash.includes('overlays='));
      // History: Back restores the list and its checkboxes.
      await page.goBack();
      await page.waitForFunction(() => location.hash.includes('overlays=hull,plateaus,depth'));
      await page.waitForFunction(() => document.getElementById('overlay-depth').checked);
      // A link's list is applied; none at all is `overlays=`.
      await page.evaluate(() => { location.hash = '#version=4&preset=hyperplanes&overlays='; });
      await page.waitForFunction(() => window.__attn.overlays().length === 0 && location.hash.endsWith('overlays='));
      assert.ok(!(await page.isChecked('#overlay-psi')));
      // A bad value is refused naming the key.
      await page.evaluate(() => { location.hash = '#version=4&preset=polytope&overlays=hull,nope'; });
      await page.waitForFunction(() => document.querySelector('#config-error code.key')?.textContent === 'overlays');
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('leaders: the leaders\' columns are marked on the heatmap of a 1-D run', async () => {
    const page = await openAt('version=4&preset=leaders&t=10', 100);
    try {
      const leaders = await page.evaluate(() => window.__attn.metrics().leaders);
      const marks = await page.evaluate(() => window.__attn.heatmapMarks());
      assert.ok(leaders.length >= 1 && leaders.length <= 2, `leaders ${leaders}`);
      assert.deepEqual(marks.map((m) => m.j).sort(), [...leaders].sort());
      const snap = await canvasSnapshot(page, '#heatmap', { pixels: true });
      for (const m of marks) assert.ok(nearest(snap, [m.x + 1, snap.height / 2], PSI_LIGHT, 1) < 40, `column of ${m.j} outlined`);
      const labels = JSON.parse(await page.locator('#chart').getAttribute('data-labels')).map((t) => t.text);
      assert.ok(labels.includes('limit 0 (P Boolean)'), labels.join(' | '));
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('metastability: the plateau of 2 clusters is the core\'s and is shaded on the chart', async () => {
    // Played to the end (the chart samples the run as it plays).
    const played = async (hash) => {
      const page = await openPage(browser, hash);
      await page.waitForFunction(() => window.__attn.status() === 'finished' && !window.__attn.playing(), null, { timeout: 60_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page;
    };
    const on = await played('version=4&preset=metastability&speed=100');
    const off = await played('version=4&preset=metastability&speed=100&overlays=');
    try {
      const plateaus = await on.evaluate(() => window.__attn.plateaus());
      const two = plateaus.find((p) => p.value === 2);
      assert.ok(two && two.t0 < 20 && two.t1 - two.t0 > 100, JSON.stringify(plateaus));
      const L = await on.evaluate(() => window.__attn.chartLayout());
      const p0 = L.panels[0];
      const x = L.x0 + ((two.t0 + two.t1) / 2 - L.start) / (L.end - L.start) * (L.x1 - L.x0);
      const y = p0.y0 + 0.15 * (p0.y1 - p0.y0); // above the series (2 of at least 5 at the top)
      const a = await canvasSnapshot(on, '#chart', { pixels: true });
      const b = await canvasSnapshot(off, '#chart', { pixels: true });
      const dpr = a.width / (await on.evaluate(() => document.getElementById('chart').clientWidth));
      assert.ok(dist(rgbAt(a, x * dpr, y * dpr), rgbAt(b, x * dpr, y * dpr)) > 10, 'the plateau is shaded');
      const labels = JSON.parse(await on.locator('#chart').getAttribute('data-labels')).map((t) => t.text);
      assert.ok(labels.some((t) => t.includes('plateaus')), labels.join(' | '));
    } finally {
      await on.close();
      await off.close();
    }
  });

  test('polytope-line: 30 lone tokens over the whole run are no plateau, and the chart is not shaded', async () => {
    const at = async (overlays) => {
      const page = await openPage(browser, `preset=polytope-line&step=150${overlays}`);
      await page.waitForFunction(() => window.__attn.step() === 150 && !window.__attn.playing(), null, { timeout: 60_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page;
    };
    const on = await at('&overlays=plateaus');
    const off = await at('&overlays=');
    try {
      const count = await on.evaluate(() => window.__attn.metrics().clusters);
      assert.equal(count, 30, 'every token alone in z');
      assert.deepEqual(await on.evaluate(() => window.__attn.plateaus()), []);
      const L = await on.evaluate(() => window.__attn.chartLayout());
      const p0 = L.panels[0];
      const a = await canvasSnapshot(on, '#chart', { pixels: true });
      const b = await canvasSnapshot(off, '#chart', { pixels: true });
      const dpr = a.width / (await on.evaluate(() => document.getElementById('chart').clientWidth));
      // Below the series (30 at the top of its axis), across the run: the same pixels.
      for (const f of [0.2, 0.5, 0.8]) {
        const x = L.x0 + f * (L.x1 - L.x0);
        const y = p0.y0 + 0.6 * (p0.y1 - p0.y0);
        assert.ok(dist(rgbAt(a, x * dpr, y * dpr), rgbAt(b, x * dpr, y * dpr)) <= 10, `not shaded at ${f} of the run`);
      }
    } finally {
      await on.close();
      await off.close();
    }
  });

  test('a step= link samples the chart on its way: the same plateau of 2 clusters as playing there', async () => {
    const page = await openPage(browser, 'version=4&preset=metastability&step=4000');
    try {
      await page.waitForFunction(() => window.__attn.step() === 4000 && !window.__attn.playing(), null, { timeout: 60_000 });
      const plateaus = await page.evaluate(() => window.__attn.plateaus());
      const two = plateaus.find((p) => p.value === 2);
      assert.ok(two && two.t0 < 20 && two.t1 - two.t0 > 100, JSON.stringify(plateaus));
      await page.waitForFunction(() => JSON.parse(document.getElementById('chart').dataset.labels || '[]').some((t) => t.text.includes('plateaus')));
    } finally {
      await page.close();
    }
  });

  test('the PNG export of the token view holds the overlay', async () => {
    const page = await openAt('version=4&preset=polytope&seed=4&t=15', 150);
    try {
      const drawn = await page.evaluate(() => window.__attn.overlayDrawn());
      await page.click('#export-menu > summary');
      const button = page.locator('#export-body button', { hasText: 'Tokens' }).first();
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      const bytes = await readFile(await download.path());
      // Decode the PNG in the page and read the pixels at the hull's edge midpoints.
      const found = await page.evaluate(async ({ b64, points }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const dpr = img.width / document.getElementById('tokens').clientWidth;
        return points.map(([x, y]) => {
          let best = Infinity;
          for (let dy = -2; dy <= 2; dy++) {
            for (let dx = -2; dx <= 2; dx++) {
              const [r, g, b] = ctx.getImageData(Math.round(x * dpr) + dx, Math.round(y * dpr) + dy, 1, 1).data;
              best = Math.min(best, Math.hypot(r - 0x5a, g - 0x3d, b));
            }
          }
          return best;
        });
      }, { b64: bytes.toString('base64'), points: drawn.hullEdges.map(mid) });
      const coloured = found.filter((d) => d < 60).length;
      assert.ok(coloured >= found.length - 1, `hull colour at ${coloured} of ${found.length} edges in the PNG`);
    } finally {
      await page.close();
    }
  });
});
