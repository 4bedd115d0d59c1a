// Colours shared by the canvases: a colour-blind-safe categorical palette (Okabe-Ito) for
// clusters, and the page theme read from the CSS custom properties (light or dark; the system's,
// or forced by the `theme` view key with setTheme).

import { significant } from '../ui/format.js';
import { viridis_stops } from '../pkg/attn_web.js';

/**
 * Cluster colours, 12 per theme, told apart on the theme's panel (Okabe-Ito first, then Tol's
 * and a few more; no grey: grey means "in no cluster"). A cluster's colour is its slot (core
 * `analysis::identity`, stable over the run) modulo 12; past 12 live clusters the marker shape
 * (SHAPES) tells them apart.
 */
export const CLUSTER_LIGHT = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9',
  '#882255', '#DDCC77', '#332288', '#8C564B', '#222222', '#7A8B1E'];
export const CLUSTER_DARK = ['#3C9BE0', '#E69F00', '#00B386', '#E08FC0', '#F0702A', '#8FD0F5',
  '#F0E442', '#9A8CF0', '#FF9DA7', '#B5C94A', '#F5F5F5', '#D62728'];
/** Marker shapes after the 12 colours: slot / 12 picks one (0 circle). */
export const SHAPES = ['circle', 'square', 'triangle', 'diamond'];
/** The colours for clusters in the current theme. */
export function clusterPalette() {
  return isDark() ? CLUSTER_DARK : CLUSTER_LIGHT;
}
/** Slot of a token in no cluster (core identity::NONE, u32::MAX). */
export const NO_SLOT = 0xffffffff;

const dark = matchMedia('(prefers-color-scheme: dark)');
let cached = null;
let forced = null; // 'light' or 'dark' from the link's `theme` key; null follows the system
const listeners = [];
dark.addEventListener('change', () => {
  cached = null;
  if (!forced) for (const fn of listeners) fn();
});

/** Whether the dark theme is active. */
export function isDark() {
  return forced ? forced === 'dark' : dark.matches;
}

/** Calls `fn` when the colour scheme changes (the system's, or the one a link forces). */
export function onThemeChange(fn) {
  listeners.push(fn);
}

/**
 * Forces the theme: 'light' or 'dark', or 'auto' to follow the system (the `theme` view key).
 * Sets `data-theme` on the root element (style.css / share.css read it) and redraws.
 */
export function setTheme(name) {
  const next = name === 'light' || name === 'dark' ? name : null;
  if (next === forced) return;
  forced = next;
  const root = document.documentElement;
  if (next) root.dataset.theme = next;
  else delete root.dataset.theme;
  cached = null;
  for (const fn of listeners) fn();
}

/** The CSS custom properties of the charts' theme, in the order web charts::plot::theme reads. */
const CHART_PROPERTIES = ['--panel', '--fg', '--muted', '--chart-grid',
  '--series-1', '--series-2', '--series-3', '--series-4', '--series-5', '--series-6', '--series-7'];

/** `0xRRGGBB` of a CSS colour written `#rrggbb` or `#rgb` (custom property `name`). */
function rgbOf(name, value) {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1];
  if (!hex) throw new Error(`style.css: ${name} is ${JSON.stringify(value)}, not a #rrggbb colour`);
  return parseInt(hex.length === 3 ? hex.replace(/./g, '$&$&') : hex, 16);
}

/**
 * The theme colours: { bg, panel, fg, muted, border, accent, neutral, outline, chart }; `chart`
 * is the charts' theme, read when a chart first asks for it (chartColours).
 */
export function theme() {
  if (cached) return cached;
  const css = getComputedStyle(document.documentElement);
  const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  cached = {
    /** @type {Uint32Array|null} */
    chart: null,
    bg: v('--bg', '#f4f5f7'),
    panel: v('--panel', '#ffffff'),
    fg: v('--fg', '#1f2328'),
    muted: v('--muted', '#5c636a'),
    border: v('--border', '#d8dce0'),
    accent: v('--accent', '#0072b2'),
    neutral: isDark() ? '#8a9099' : '#9aa0a6',
    outline: isDark() ? 'rgba(0,0,0,0.55)' : 'rgba(0,0,0,0.45)',
  };
  return cached;
}

/** The charts' colours in the theme shown (`0xRRGGBB`: --panel, --fg, --muted, --chart-grid,
 * --series-1 … --series-7), as the wasm chart functions take them (web charts::plot::theme). */
export function chartColours() {
  const th = theme();
  if (!th.chart) {
    const css = getComputedStyle(document.documentElement);
    th.chart = Uint32Array.from(CHART_PROPERTIES, (name) => rgbOf(name, css.getPropertyValue(name).trim()));
  }
  return th.chart;
}

/**
 * Colour and shape of each token from its colour slot (ParticleLab.colour_slots: a stable
 * cluster identity, NO_SLOT for a token in no cluster of two or more): colour slot % 12, shape
 * index slot / 12 (in SHAPES, wrapping); tokens in no cluster are neutral grey circles.
 * @param {Uint32Array|null} slots
 * @param {number} n
 * @returns {{ colours: string[], shapes: Uint8Array }}
 */
export function clusterStyle(slots, n) {
  const th = theme();
  const pal = clusterPalette();
  const colours = new Array(n).fill(th.neutral);
  const shapes = new Uint8Array(n);
  if (!slots || slots.length !== n) return { colours, shapes };
  for (let i = 0; i < n; i++) {
    const s = slots[i];
    if (s === NO_SLOT) continue;
    colours[i] = pal[s % pal.length];
    shapes[i] = Math.floor(s / pal.length) % SHAPES.length;
  }
  return { colours, shapes };
}

/** @type {string[] | null} */
let viridisStops = null;

/** The heatmaps' viridis stops (wasm viridis_stops), for colouring tokens by their index. */
function viridis() {
  viridisStops ??= viridis_stops();
  return viridisStops;
}

/** The colour-bar legends' gradient (CSS `--viridis-gradient`), from the heatmaps' stops. */
export function setViridisGradient() {
  document.documentElement.style.setProperty('--viridis-gradient', `linear-gradient(to right, ${viridis().join(', ')})`);
}

/**
 * Token colours and marker shapes for the `colour` view key: 'clusters' from the colour slots
 * (clusterStyle); 'index' gives token i the viridis colour of i / (n - 1) (follow one token
 * through the run); 'plain' one neutral colour. Shapes are circles except past 12 clusters.
 * @returns {{ colours: string[], shapes: Uint8Array }}
 */
export function tokenStyle(mode, slots, n) {
  if (mode === 'clusters') return clusterStyle(slots, n);
  const shapes = new Uint8Array(n);
  if (mode === 'plain') return { colours: new Array(n).fill(theme().accent), shapes };
  const colours = new Array(n);
  const stops = viridis();
  for (let i = 0; i < n; i++) {
    const u = n > 1 ? (i / (n - 1)) * (stops.length - 1) : 0;
    colours[i] = stops[Math.min(stops.length - 1, Math.round(u))];
  }
  return { colours, shapes };
}

/** Sets a canvas's backing size to its CSS size times devicePixelRatio; returns { w, h, dpr } (CSS px). */
export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(rect.width));
  const h = Math.max(1, Math.round(rect.height));
  const W = Math.round(w * dpr);
  const H = Math.round(h * dpr);
  if (canvas.width !== W) canvas.width = W;
  if (canvas.height !== H) canvas.height = H;
  return { w, h, dpr };
}

/**
 * Starts a frame on a 2D canvas: fits it to the screen (fitCanvas), scales `ctx` to CSS pixels
 * and fills it with the theme's panel colour. Returns { w, h, dpr, th } (th: the theme).
 */
export function clearCanvas(canvas, ctx) {
  const { w, h, dpr } = fitCanvas(canvas);
  const th = theme();
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = th.panel;
  ctx.fillRect(0, 0, w, h);
  return { w, h, dpr, th };
}

/**
 * Sets `canvas`'s `data-labels` attribute to the rectangles of the texts a chart drew
 * (`drawn.labels`, `[{ text, x, y, w, h }]` in CSS px: what the web crate's charts return, and
 * the token view's ticks), so tests can check that no two overlap. Nothing when there are none.
 */
export function setLabels(canvas, drawn) {
  if (!drawn || !Array.isArray(drawn.labels)) return;
  // Written only when changed: an attribute write is a DOM mutation (style invalidation) per frame.
  const text = JSON.stringify(drawn.labels);
  if (canvas.dataset.labels !== text) canvas.dataset.labels = text;
}

/**
 * Draws `s` at (x, y) in the context's font, align and baseline, and records its ink box
 * (`{ text, x, y, w, h }`, in the context's units: CSS px under fitCanvas's transform) in `out`,
 * for the canvas's `data-labels` (setLabels).
 */
export function drawLabel(ctx, s, x, y, out) {
  ctx.fillText(s, x, y);
  const m = ctx.measureText(s);
  const l = m.actualBoundingBoxLeft;
  const a = m.actualBoundingBoxAscent;
  out.push({ text: s, x: x - l, y: y - a, w: l + m.actualBoundingBoxRight, h: a + m.actualBoundingBoxDescent });
}

/** "Nice" tick values covering [lo, hi] (about `count` of them). */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    if (out.length > 50) break;
  }
  return out;
}

/**
 * Labels for a list of ticks: the fewest digits that tell every tick apart (two ticks never read
 * the same), exponent form for huge or tiny values written short ("-5e153", "1.2e-7").
 */
export function tickLabels(ticks) {
  const big = ticks.some((v) => v !== 0 && (Math.abs(v) >= 1e5 || Math.abs(v) < 1e-3));
  for (let p = big ? 0 : 4; p <= 16; p += 1) {
    const labels = ticks.map((v) => {
      if (v === 0) return '0';
      if (big) return v.toExponential(p).replace('e+', 'e');
      return significant(v, p);
    });
    if (new Set(labels).size === labels.length) return labels;
  }
  return ticks.map((v) => String(v));
}

/** Short label for a tick value. */
export function tickLabel(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(0);
  return significant(v);
}
