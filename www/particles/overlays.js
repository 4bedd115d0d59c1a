// The theorems drawn over the particle lab's panels (the view key `overlays`): the convex hull of
// the initial rescaled tokens with the centres of the clusters that hold a meaningful share of the
// tokens (`hull`), ψ₁ as an arrow and the limiting
// lines ⟨ψ₁, z⟩ = const (`psi`), the leaders' columns on the heatmap of 1-D runs (`leaders`; the
// chart's Boolean limit is drawn in Rust), depth shading in 3-D (`depth`); the chart's plateaus
// are drawn in Rust (ParticleLab.draw_chart). Every position comes from the core (wasm
// ParticleLab.initial_hull, psi1, centre_marks); this module only draws them, in the theme's
// colours, and keeps where it drew (for the hooks and the browser tests).

import { drawLabel, isDark } from '../render/palette.js';
import { $, app, ui } from './state.js';

/** The overlays, in canonical order (the core's view::OVERLAYS). */
export const OVERLAY_NAMES = ['hull', 'psi', 'leaders', 'plateaus', 'depth'];

/** Colours of the overlays in the current theme. */
export function overlayColours() {
  return isDark()
    ? { hull: '#f0e4b0', fill: 'rgba(240,228,176,0.07)', psi: '#ff7f3a', centre: '#ffffff' }
    : { hull: '#5a3d00', fill: 'rgba(90,61,0,0.06)', psi: '#d55e00', centre: '#000000' };
}

/**
 * Shows the overlays `list` (names of OVERLAY_NAMES): the run draws them, the checkboxes say so,
 * and the geometry they need is read from the core.
 * @param {string[]} list
 */
export function showOverlays(list) {
  app.overlays = OVERLAY_NAMES.filter((o) => list.includes(o));
  for (const o of OVERLAY_NAMES) {
    const box = /** @type {HTMLInputElement|null} */ ($(`overlay-${o}`));
    if (box) box.checked = app.overlays.includes(o);
  }
  loadOverlays();
}

/** Reads the geometry of the overlays shown from the run (after a new run or a new choice). */
export function loadOverlays() {
  const s = app.stepper;
  const tv = ui.tokens;
  if (!s || !tv) return;
  s.set_overlays(app.overlays.join(','));
  const on = new Set(app.overlays);
  tv.overlay = {
    on,
    coords: s.coords(),
    hull: on.has('hull') && s.d() <= 3 ? s.initial_hull() : null,
    psi: on.has('psi') && s.d() <= 3 ? s.psi1() : null,
    centres: null,
  };
  tv.overlayDrawn = null;
  overlayMetrics();
  app.needs.draw = true;
  app.needs.chart = true;
  app.needs.heat = true;
}

/** After the metrics: the centres marked (hull; the core's rule, science.md §1.7) and the
 * heatmap's leader columns (1-D runs). */
export function overlayMetrics() {
  const s = app.stepper;
  const tv = ui.tokens;
  if (!s || !tv || !tv.overlay) return;
  tv.overlay.centres = tv.overlay.hull ? s.centre_marks() : null;
  if (ui.heatmap) ui.heatmap.marks = tv.overlay.on.has('leaders') && s.d() === 1 ? Array.from(s.leaders()) : null;
}

/** Whether the 3-D view shades depth (farther tokens fainter and smaller). */
export function depthShading(tv) {
  return Boolean(tv.overlay && tv.overlay.on.has('depth'));
}

function cross(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x - r, y + r);
  ctx.lineTo(x + r, y - r);
  ctx.stroke();
}

function arrow(ctx, from, to, colour) {
  const [x0, y0] = from;
  const [x1, y1] = to;
  const a = Math.atan2(y1 - y0, x1 - x0);
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - 8 * Math.cos(a), y1 - 8 * Math.sin(a));
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - 12 * Math.cos(a - 0.4), y1 - 12 * Math.sin(a - 0.4));
  ctx.lineTo(x1 - 12 * Math.cos(a + 0.4), y1 - 12 * Math.sin(a + 0.4));
  ctx.closePath();
  ctx.fill();
}

/**
 * Draws the hull and ψ₁ under the tokens of a 2-D view. `at(a, b)` maps data coordinates to
 * canvas CSS px; `box` is the plot square { x0, y0, size } (the drawing is clipped to it).
 */
export function drawOverlay2d(tv, ctx, at, box) {
  const ov = tv.overlay;
  tv.overlayDrawn = null;
  if (!ov || tv.k !== 2) return;
  const col = overlayColours();
  const drawn = {};
  if (ov.hull && ov.hull.vertices.length > 1) {
    const pts = ov.hull.points;
    const ring = ov.hull.vertices.map((i) => at(pts[i][0], pts[i][1]));
    ctx.fillStyle = col.fill;
    ctx.strokeStyle = col.hull;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ring.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    drawn.hull = ring;
    drawn.hullEdges = ov.hull.edges.map(([i, j]) => [at(pts[i][0], pts[i][1]), at(pts[j][0], pts[j][1])]);
  }
  if (ov.psi && ov.psi.psi.length === 2) {
    const [px, py] = ov.psi.psi;
    // The limiting lines <psi1, z> = lo and = hi (z coordinates): c psi1 + s psi1⊥.
    if (ov.coords === 'z') {
      ctx.strokeStyle = col.psi;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([7, 5]);
      const far = 1e3 * Math.max(1, Math.abs(ov.psi.lo), Math.abs(ov.psi.hi), ...tv.view.hs);
      drawn.lines = [];
      for (const c of [ov.psi.lo, ov.psi.hi]) {
        const a = at(c * px - far * py, c * py + far * px);
        const b = at(c * px + far * py, c * py - far * px);
        ctx.beginPath();
        ctx.moveTo(a[0], a[1]);
        ctx.lineTo(b[0], b[1]);
        ctx.stroke();
        drawn.lines.push([a, b]);
      }
      ctx.setLineDash([]);
    }
    // The arrow: from the plot's centre, a quarter of its side long, along psi1 on screen.
    drawn.psi = psiArrow(ctx, [box.x0 + box.size / 2, box.y0 + box.size / 2], box.size, at(0, 0), at(px, py), col.psi);
  }
  tv.overlayDrawn = drawn;
}

/**
 * ψ₁ as an arrow labelled "ψ₁" from screen point `from`, a quarter of `size` long, in the screen
 * direction from `o` (the origin drawn) to `e` (ψ₁ drawn); returns `{ from, to }` (CSS px).
 */
function psiArrow(ctx, from, size, o, e, colour) {
  const dx = e[0] - o[0];
  const dy = e[1] - o[1];
  const len = Math.hypot(dx, dy) || 1;
  const to = [from[0] + (dx / len) * size * 0.25, from[1] + (dy / len) * size * 0.25];
  arrow(ctx, from, to, colour);
  ctx.font = '600 14px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  const labels = [];
  drawLabel(ctx, 'ψ₁', to[0] + 5, to[1] - 3, labels);
  return { from, to, label: labels[0] };
}

/** Draws the centres marked over the tokens of a 2-D or 3-D view (`at` maps a data point). */
export function drawCentres(tv, ctx, at) {
  const ov = tv.overlay;
  if (!ov || !ov.centres || tv.k !== ov.hull?.points?.[0]?.length) return;
  const k = tv.k;
  const col = overlayColours();
  ctx.strokeStyle = col.centre;
  ctx.lineWidth = 2;
  const out = [];
  for (let c = 0; c < ov.centres.length / k; c++) {
    const p = at(...Array.from(ov.centres.subarray(c * k, (c + 1) * k)));
    if (!p || !Number.isFinite(p[0] + p[1])) continue;
    cross(ctx, p[0], p[1], 5);
    out.push([p[0], p[1]]);
  }
  if (tv.overlayDrawn) tv.overlayDrawn.centres = out;
}

/** Vertices above which a 3-D hull draws the edges behind it faintly (a 4096-token hull has
 * about 100 vertices and 290 edges: drawn alike they were a tangle). */
export const DENSE_HULL = 40;

/** Whether the edge p–q is behind the hull as seen: both faces it joins (outward `normals`) turn
 * away from the viewer, i.e. a small step along each normal from the edge's middle goes deeper. */
function behind(at, p, q, normals) {
  if (!normals) return false;
  const mid = [0, 1, 2].map((c) => (p[c] + q[c]) / 2);
  const step = 0.05 * Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  const m = at(...mid);
  if (!m) return false;
  return normals.every((n) => {
    const s = at(mid[0] + step * n[0], mid[1] + step * n[1], mid[2] + step * n[2]);
    return s !== null && s[2] < m[2];
  });
}

/**
 * Draws the hull's edges of a 3-D view projected with the current camera (`at(a, b, c)` gives
 * [x, y, depth] in CSS px, or null) and ψ₁ as an arrow from the view's centre.
 */
export function drawOverlay3d(tv, ctx, at, centre, size) {
  const ov = tv.overlay;
  tv.overlayDrawn = null;
  if (!ov || tv.k !== 3) return;
  const col = overlayColours();
  const drawn = {};
  if (ov.hull && ov.hull.points[0]?.length === 3) {
    const pts = ov.hull.points;
    const dense = ov.hull.vertices.length > DENSE_HULL;
    ctx.strokeStyle = col.hull;
    ctx.lineWidth = dense ? 1 : 1.2;
    drawn.hullEdges = [];
    drawn.hullHidden = [];
    ov.hull.edges.forEach(([i, j], e) => {
      const a = at(...pts[i]);
      const b = at(...pts[j]);
      if (!a || !b) return;
      // A dense hull's edges behind it (both faces turned away) are a faint hint, so the front
      // reads as a surface; the others nearer darker (depth in [-1, 1] towards the viewer).
      const hidden = dense && behind(at, pts[i], pts[j], ov.hull.normals?.[e]);
      ctx.globalAlpha = hidden ? 0.12 : 0.3 + 0.6 * Math.max(0, Math.min(1, ((a[2] + b[2]) / 2 + 1) / 2));
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.stroke();
      (hidden ? drawn.hullHidden : drawn.hullEdges).push([[a[0], a[1]], [b[0], b[1]]]);
    });
    ctx.globalAlpha = 1;
    drawn.hull = ov.hull.vertices.map((i) => at(...pts[i])).filter(Boolean).map((p) => [p[0], p[1]]);
  }
  if (ov.psi && ov.psi.psi.length === 3) {
    const o = at(0, 0, 0);
    const e = at(...ov.psi.psi);
    if (o && e) drawn.psi = psiArrow(ctx, centre, size, o, e, col.psi);
  }
  tv.overlayDrawn = drawn;
}

/** The leaders' columns on the heatmap (1-D runs): an outline around each leader's column. */
export function drawColumnMarks(view, ctx, W, H, dpr) {
  view.markRects = null;
  if (!view.marks || !view.marks.length || !view.n) return;
  const pos = new Map();
  const perm = view.perm && view.perm.length === view.n ? view.perm : null;
  for (let p = 0; p < view.n; p++) pos.set(perm ? perm[p] : p, p);
  const col = overlayColours();
  ctx.strokeStyle = col.psi;
  ctx.lineWidth = Math.max(2, Math.round(2 * dpr));
  view.markRects = [];
  for (const j of view.marks) {
    const p = pos.get(j);
    if (p === undefined) continue;
    const x0 = (p / view.n) * W;
    const w = Math.max(ctx.lineWidth + 2, W / view.n);
    ctx.strokeRect(x0 + ctx.lineWidth / 2, ctx.lineWidth / 2, w - ctx.lineWidth, H - ctx.lineWidth);
    view.markRects.push({ j, x: x0 / dpr, w: w / dpr });
  }
}
