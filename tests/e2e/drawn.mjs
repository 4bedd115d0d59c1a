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
 * The state shown, read in one go: t, step, the last metrics (and their step), each token's
 * drawn position (CSS px in the token canvas), its cluster label, and the view's scale (CSS px
 * per unit of the drawn coordinates, from the ticks' positions).
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
