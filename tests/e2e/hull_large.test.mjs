// Browser test of the `hull` overlay at n = 4096 (science.md §1.7, the polytope overlay): the
// crosses mark only the clusters holding a meaningful share of the tokens (at least n / 256), at
// least 12 CSS px apart, where the tokens gather; the hundreds of clusters of two a forming
// polytope has are not crossed. The 20-token drawing is checked by overlays.test.mjs.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, canvasSnapshot, launch, openPage } from './helpers.mjs';

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Opens `preset=polytope&n=4096&step=S`, paused there with its metrics and overlay drawn. */
async function openAt(step) {
  const page = await openPage(browser, `preset=polytope&n=4096&step=${step}`, { timeout: 30_000 });
  await page.waitForFunction((s) => window.__attn.step() === s && !window.__attn.seeking() && !window.__attn.playing()
    && window.__attn.metrics()?.step === s && Array.isArray(window.__attn.overlayDrawn()?.centres), step, { timeout: 120_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page;
}

/** What the reader sees: the crosses drawn, the clusters' sizes, where each token is drawn. */
function seen(page) {
  return page.evaluate(() => {
    const sizes = new Map();
    for (const l of window.__attn.labels()) sizes.set(l, (sizes.get(l) || 0) + 1);
    const drawn = window.__attn.overlayDrawn();
    return { marks: drawn.centres, hull: drawn.hull, sizes: [...sizes.values()], tokens: window.__attn.drawnTokens() };
  });
}

const gap = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** The smallest distance between two of `marks` (CSS px). */
function closest(marks) {
  let best = Infinity;
  for (let i = 0; i < marks.length; i++) for (let j = i + 1; j < marks.length; j++) best = Math.min(best, gap(marks[i], marks[j]));
  return best;
}

describe('hull overlay at n = 4096', () => {
  test('as the polytope forms, a few crosses where the tokens gather, 12 px apart or more, not one per pair', async () => {
    const page = await openAt(25);
    try {
      const { marks, sizes, tokens } = await seen(page);
      // Hundreds of clusters of two or more (each drew a cross before), few of 16 or more.
      const pairs = sizes.filter((k) => k >= 2).length;
      const large = sizes.filter((k) => k >= 16).length;
      assert.ok(pairs > 300, `${pairs} clusters of two or more`);
      assert.ok(marks.length >= 1 && marks.length <= Math.min(large, 16), `${marks.length} crosses (${large} clusters of 16 or more, ${pairs} of 2 or more)`);
      assert.ok(closest(marks) >= 12, `crosses ${closest(marks).toFixed(2)} px apart`);
      // Each cross sits among at least 16 drawn tokens (within 6 px: where a share gathered).
      for (const m of marks) {
        const near = tokens.filter((p) => gap(p, m) < 6).length;
        assert.ok(near >= 16, `${near} tokens drawn within 6 px of the cross at ${m}`);
      }
      // Each cross is drawn: dark pixels at its centre.
      const snap = await canvasSnapshot(page, '#tokens', { pixels: true });
      const dpr = snap.width / (await page.evaluate(() => document.getElementById('tokens').clientWidth));
      for (const [x, y] of marks) {
        const i = 4 * (Math.round(y * dpr) * snap.width + Math.round(x * dpr));
        assert.ok(snap.pixels[i] + snap.pixels[i + 1] + snap.pixels[i + 2] < 200, `a dark cross at ${x}, ${y}`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('once gathered, one cross per corner of the initial hull, where its vertices are', async () => {
    const page = await openAt(40);
    try {
      const { marks, sizes, hull } = await seen(page);
      assert.equal(marks.length, 4, `${marks.length} crosses (${sizes.filter((k) => k >= 2).length} clusters of two or more)`);
      assert.ok(closest(marks) >= 200, `crosses ${closest(marks).toFixed(2)} px apart`);
      // Each cross within 12 px of a vertex of the initial hull drawn (science.md §1.3: the
      // tokens gather at the vertices of a polytope inside the initial hull).
      for (const m of marks) {
        const d = Math.min(...hull.map((v) => gap(v, m)));
        assert.ok(d < 12, `the cross at ${m} is ${d.toFixed(1)} px from the hull's nearest vertex`);
      }
      assertNoErrors(page);
    } finally {
      await page.close();
    }
  });

  test('in 3-D the edges behind the hull are faint, so its front reads as a surface', async () => {
    // polytope-3d at t = 5: the 4096 tokens have gathered at a few corners, leaving the edges clear.
    const link = 'version=7&preset=polytope-3d&n=4096&t=5';
    const open = async (overlays) => {
      const page = await openPage(browser, `${link}&overlays=${overlays}`, { timeout: 30_000 });
      await page.waitForFunction(() => window.__attn.step() > 0 && !window.__attn.seeking() && !window.__attn.playing()
        && window.__attn.metrics()?.step === window.__attn.step(), null, { timeout: 120_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page;
    };
    const on = await open('hull');
    const off = await open('');
    try {
      const hull = await on.evaluate(() => window.__attn.initialHull());
      const drawn = await on.evaluate(() => window.__attn.overlayDrawn());
      assert.ok(hull.vertices.length > 40, `${hull.vertices.length} vertices: a dense hull`);
      assert.equal(drawn.hullEdges.length + drawn.hullHidden.length, hull.edges.length);
      assert.equal(hull.normals.length, hull.edges.length, 'two face normals per edge');
      // About half the edges are behind (a convex solid seen from outside).
      const share = drawn.hullHidden.length / hull.edges.length;
      assert.ok(share > 0.3 && share < 0.7, `${drawn.hullHidden.length} of ${hull.edges.length} edges behind`);
      // The pixels: how much each edge's midpoint darkened against the same view without the
      // overlay (the most over 3 x 3 pixels), away from the tokens' clusters and the other edges.
      const a = await canvasSnapshot(on, '#tokens', { pixels: true });
      const b = await canvasSnapshot(off, '#tokens', { pixels: true });
      const dpr = a.width / (await on.evaluate(() => document.getElementById('tokens').clientWidth));
      const tokens = await on.evaluate(() => window.__attn.drawnTokens());
      const all = [...drawn.hullEdges, ...drawn.hullHidden];
      const mid = (e) => [(e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2];
      const nearSeg = (p, e) => {
        const [[x0, y0], [x1, y1]] = e;
        const L = (x1 - x0) ** 2 + (y1 - y0) ** 2 || 1;
        const t = Math.max(0, Math.min(1, ((p[0] - x0) * (x1 - x0) + (p[1] - y0) * (y1 - y0)) / L));
        return Math.hypot(p[0] - x0 - t * (x1 - x0), p[1] - y0 - t * (y1 - y0));
      };
      const darkening = (list) => list.map(mid)
        .filter((m, i) => tokens.every((q) => gap(m, q) > 9) && all.every((e) => e === list[i] || nearSeg(m, e) > 4))
        .map(([x, y]) => {
          let most = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const i = 4 * (Math.round(y * dpr + dy) * a.width + Math.round(x * dpr + dx));
              most = Math.max(most, (b.pixels[i] + b.pixels[i + 1] + b.pixels[i + 2]) - (a.pixels[i] + a.pixels[i + 1] + a.pixels[i + 2]));
            }
          }
          return most;
        }).sort((x, y) => x - y);
      const front = darkening(drawn.hullEdges);
      const back = darkening(drawn.hullHidden);
      assert.ok(front.length >= 10 && back.length >= 10, `${front.length} front and ${back.length} hidden midpoints clear`);
      const median = (v) => v[v.length >> 1];
      assert.ok(median(front) >= 3 * median(back) && median(back) > 0,
        `front edges darken their midpoints by ${median(front)}, hidden ones by ${median(back)} (median, RGB sum)`);
      assertNoErrors(on);
    } finally {
      await on.close();
      await off.close();
    }
  });
});
