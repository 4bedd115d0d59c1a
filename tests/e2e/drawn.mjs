// What the particle lab draws, read back from the page (window.__attn): the tokens' drawn
// positions and their groups, the cloud's drawn radius, the view's scale, the metrics of the
// state shown. The claim checks (claim_checks.mjs) and the front-page tests read the page here.

/** Waits until the run a page opened is shown: its `t=`/`step=` computed (no seek under way),
 * then drawn. */
export async function shown(page) {
  await page.waitForFunction(() => window.__attn && !window.__attn.seeking(), null, { timeout: 120_000 });
  await settle(page);
}

/** Waits two animation frames (the state shown is drawn). */
export async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The state shown, read in one go (no frame runs in between): t, step, the last metrics (and
 * their step), each token's drawn position (CSS px in the token canvas), its cluster label and
 * colour slot, and the view's scale (CSS px per unit of the drawn coordinates, from the ticks'
 * positions).
 */
export function snapshot(page) {
  return page.evaluate(() => {
    const a = window.__attn;
    const m = a.metrics();
    return {
      t: a.t(),
      step: a.step(),
      metrics: m ? { ...m, leaders: Array.from(m.leaders ?? []) } : null,
      drawn: a.drawnTokens(),
      labels: Array.from(a.labels()),
      slots: Array.from(a.slots()),
      tokens: Array.from(a.tokens()),
      d: a.d(),
      n: a.n(),
      config: a.configString(),
    };
  });
}

/** Number of groups of points linked by distances below `px` (single linkage). */
export function groups(points, px) {
  const n = points.length;
  const parent = [...Array(n).keys()];
  const find = (i) => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]) < px) {
        const a = find(i);
        const b = find(j);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  return new Set(points.map((_, i) => find(i))).size;
}

/** The largest distance of a point from the points' mean. */
export function radius(points) {
  const n = points.length;
  const c = [0, 1].map((k) => points.reduce((s, p) => s + p[k], 0) / n);
  return Math.max(...points.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1])));
}

/** The tokens' (n x d, row-major) largest distance from their mean, in their own units. */
export function tokenRadius(tokens, n, d) {
  const c = [...Array(d).keys()].map((k) => tokens.filter((_, i) => i % d === k).reduce((s, v) => s + v, 0) / n);
  let r = 0;
  for (let i = 0; i < n; i++) r = Math.max(r, Math.hypot(...c.map((ck, k) => tokens[i * d + k] - ck)));
  return r;
}

/** Viridis at 0, 1/8, ..., 1 (crates/web/src/charts/heatmap.rs), for reading heatmap pixels. */
const VIRIDIS = [[0x44, 0x01, 0x54], [0x47, 0x2c, 0x7a], [0x3b, 0x51, 0x8b], [0x2c, 0x71, 0x8e], [0x21, 0x90, 0x8d], [0x27, 0xad, 0x81], [0x5c, 0xc8, 0x63], [0xaa, 0xdc, 0x32], [0xfd, 0xe7, 0x25]];

/** The value in [0, 1] whose viridis colour is nearest to `rgb` (to 1/1000). */
export function unviridis(rgb) {
  let best = 0;
  let err = Infinity;
  for (let k = 0; k <= 1000; k += 1) {
    const x = (k / 1000) * 8;
    const i = Math.min(7, Math.floor(x));
    const f = x - i;
    const e = [0, 1, 2].reduce((s, c) => s + (VIRIDIS[i][c] + (VIRIDIS[i + 1][c] - VIRIDIS[i][c]) * f - rgb[c]) ** 2, 0);
    if (e < err) [best, err] = [k / 1000, e];
  }
  return best;
}

/**
 * The particle heatmap as drawn: the value of each cell read back from its centre pixel (scale
 * 0 to 1), the groups its order draws (separated by lines: `starts`, when it draws them), and the
 * share of the total inside the diagonal blocks of those groups.
 */
export async function heatmapBlocks(page) {
  const drawn = await page.evaluate(() => {
    const c = document.getElementById('heatmap');
    const ctx = c.getContext('2d', { willReadFrequently: true });
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const n = window.__attn.n();
    const { starts } = window.__attn.heatmapOrder();
    const cells = [];
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const x = Math.floor(((b + 0.5) / n) * c.width);
        const y = Math.floor(((a + 0.5) / n) * c.height);
        const k = (y * c.width + x) * 4;
        cells.push([data[k], data[k + 1], data[k + 2]]);
      }
    }
    return { n, starts, lines: starts.length > 0 && starts.length < n / 2, cells };
  });
  const { n, cells } = drawn;
  const starts = drawn.lines ? drawn.starts : [];
  const group = (a) => starts.filter((s) => s <= a).length;
  let inside = 0;
  let total = 0;
  cells.forEach((rgb, k) => {
    const v = unviridis(rgb);
    total += v;
    if (group(Math.floor(k / n)) === group(k % n)) inside += v;
  });
  return { share: inside / total, groups: starts.length + 1, total, n };
}
