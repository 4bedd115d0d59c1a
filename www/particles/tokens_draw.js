// Drawing the token view (tokens.js holds its state): tokens as points in 2-D (equal
// scales, ticks), 3-D (rotated by the view's yaw and pitch, sorted by depth) or 1-D against time,
// with trails, leader rings and the heatmap hover's pair. Reads the view `tv`; computes no science.
// Each draw function returns the ink boxes of the texts it drew ({ text, x, y, w, h }, CSS px).

import { drawLabel, niceTicks, tickLabel, tickLabels } from '../render/palette.js';
import { depthShading, drawCentres, drawOverlay2d, drawOverlay3d } from './overlays.js';

function radius(tv) {
  return Math.max(1.6, Math.min(6, 22 / Math.sqrt(Math.max(1, tv.n)) + 1.5));
}

/**
 * The fill colour of the token markers drawn in a row: set on the canvas only when it changes
 * (thousands of tokens share a few colours; each assignment parses the colour string). Valid only
 * while nothing else sets the canvas's fill style: one per loop over the tokens.
 */
function pen(ctx) {
  let current = null;
  return (colour) => {
    if (colour !== current) {
      ctx.fillStyle = colour;
      current = colour;
    }
  };
}

/**
 * A token's marker: a circle, or past 12 clusters a square, triangle or diamond (`shape` 1-3);
 * `fill` sets its colour (a `pen`).
 */
function dot(ctx, x, y, r, colour, th, shape, fill) {
  if (r <= 2.5 && shape === 0) {
    // Small dots (thousands of tokens): a square of the same size looks the same and costs a
    // fraction of a filled arc to rasterise.
    fill(colour);
    ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
    return;
  }
  ctx.beginPath();
  if (shape === 1) ctx.rect(x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r);
  else if (shape === 2) {
    ctx.moveTo(x, y - 1.25 * r);
    ctx.lineTo(x + 1.15 * r, y + 0.8 * r);
    ctx.lineTo(x - 1.15 * r, y + 0.8 * r);
    ctx.closePath();
  } else if (shape === 3) {
    ctx.moveTo(x, y - 1.3 * r);
    ctx.lineTo(x + 1.1 * r, y);
    ctx.lineTo(x, y + 1.3 * r);
    ctx.lineTo(x - 1.1 * r, y);
    ctx.closePath();
  } else ctx.arc(x, y, r, 0, 2 * Math.PI);
  fill(colour);
  ctx.fill();
  if (r > 2.5) {
    ctx.lineWidth = 0.8;
    ctx.strokeStyle = th.outline;
    ctx.stroke();
  }
}

function rings(tv, ctx, pos, r, th) {
  // Leaders: a ring in the foreground colour.
  if (tv.leaders) {
    ctx.lineWidth = 1.6;
    ctx.strokeStyle = th.fg;
    for (const j of tv.leaders) {
      const p = pos(j);
      if (!p) continue;
      ctx.beginPath();
      ctx.arc(p[0], p[1], r + 3.5, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
  // Heatmap hover: token i (solid ring) attends to token j (dashed ring), joined by a line.
  if (tv.highlight) {
    const [i, j] = tv.highlight;
    const a = pos(i);
    const b = pos(j);
    ctx.strokeStyle = th.accent;
    ctx.lineWidth = 2;
    if (a && b) {
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.stroke();
    }
    if (a) {
      ctx.beginPath();
      ctx.arc(a[0], a[1], r + 6, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (b) {
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.arc(b[0], b[1], r + 6, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}

/** Draws `s` at (x, y), its ink box recorded in `out` (render/palette.js). */
const label = (ctx, s, x, y, out) => drawLabel(ctx, s, x, y, out);

/**
 * Ticks of a horizontal axis from `lo` to `hi` drawn over `length` CSS px whose labels (in the
 * context's font) fit side by side with a gap: up to `count`, fewer when long labels (a narrow
 * range far from 0) would overlap, at least one.
 */
function fittingTicks(ctx, lo, hi, count, length) {
  let last = { ticks: [], labels: [] };
  for (let k = count; k >= 1; k--) {
    const ticks = niceTicks(lo, hi, k);
    const labels = tickLabels(ticks);
    const widths = labels.map((l) => ctx.measureText(l).width);
    const px = length / (hi - lo);
    if (ticks.every((v, i) => i === 0 || (v - ticks[i - 1]) * px >= (widths[i] + widths[i - 1]) / 2 + 8)) return { ticks, labels };
    last = { ticks, labels };
  }
  const mid = Math.floor(last.ticks.length / 2);
  return { ticks: last.ticks.slice(mid, mid + 1), labels: last.labels.slice(mid, mid + 1) };
}

/** Square plot area with room for tick labels; equal scale on both axes. */
function frame2d(w, h, left = 46) {
  const bottom = 30;
  const size = Math.max(10, Math.min(w - left - 12, h - bottom - 12));
  const x0 = left + (w - left - 12 - size) / 2;
  const y0 = 12 + (h - bottom - 12 - size) / 2;
  return { x0, y0, size };
}

export function draw2d(tv, ctx, w, h, th, colours) {
  const { c, hs } = tv.view;
  const [hx, hy] = hs;
  // Room on the left for the widest y tick label (huge coordinates have long labels).
  ctx.font = '11px system-ui, sans-serif';
  const yTicks = niceTicks(c[1] - hy, c[1] + hy, 5);
  const yLabels = tickLabels(yTicks);
  const widest = Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width));
  const { x0, y0, size } = frame2d(w, h, Math.max(46, Math.ceil(widest) + 24));
  const { ticks: xTicks, labels: xLabels } = fittingTicks(ctx, c[0] - hx, c[0] + hx, 5, size);
  const out = [];
  const sx = size / (2 * hx);
  const sy = size / (2 * hy);
  const s = Math.min(sx, sy);
  const X = (v) => x0 + (v - (c[0] - hx)) * sx;
  const Y = (v) => y0 + size - (v - (c[1] - hy)) * sy;

  // Grid, ticks, axis names.
  ctx.font = '11px system-ui, sans-serif';
  ctx.lineWidth = 1;
  ctx.strokeStyle = th.border;
  ctx.fillStyle = th.muted;
  ctx.strokeRect(x0, y0, size, size);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  xTicks.forEach((v, i) => {
    const x = X(v);
    ctx.beginPath();
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y0 + size);
    ctx.stroke();
    label(ctx, xLabels[i], x, y0 + size + 4, out);
  });
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  yTicks.forEach((v, i) => {
    const y = Y(v);
    ctx.beginPath();
    ctx.moveTo(x0, y);
    ctx.lineTo(x0 + size, y);
    ctx.stroke();
    label(ctx, yLabels[i], x0 - 5, y, out);
  });
  ctx.fillStyle = th.fg;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  label(ctx, tv.names[0], x0 + size - 4, y0 + size - 4, out);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  label(ctx, tv.names[1], x0 + 5, y0 + 4, out);

  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y0, size, size);
  ctx.clip();
  if (tv.sphere) {
    ctx.strokeStyle = th.muted;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.arc(X(0), Y(0), s, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  drawTrails(tv, ctx, th, (p, i, out) => {
    out[0] = X(p[2 * i]);
    out[1] = Y(p[2 * i + 1]);
    return true;
  });
  drawOverlay2d(tv, ctx, (a, b) => [X(a), Y(b)], { x0, y0, size });
  if (tv.overlayDrawn?.psi?.label) out.push(tv.overlayDrawn.psi.label);
  const r = radius(tv);
  const pts = tv.pts;
  const pos = (i) => (i < tv.n && Number.isFinite(pts[2 * i]) && Number.isFinite(pts[2 * i + 1]) ? [X(pts[2 * i]), Y(pts[2 * i + 1])] : null);
  tv.drawn = [];
  const fill = pen(ctx);
  for (let i = 0; i < tv.n; i++) {
    const p = pos(i);
    if (p) {
      dot(ctx, p[0], p[1], r, colours[i], th, tv.shapes ? tv.shapes[i] : 0, fill);
      tv.drawn.push([p[0], p[1], i]); // screen x, y and the token (hover)
    }
  }
  drawCentres(tv, ctx, (a, b) => [X(a), Y(b)]);
  rings(tv, ctx, pos, r, th);
  ctx.restore();
  return out;
}

/** The trails; `place(p, i, out)` writes token `i` of state `p`'s screen x, y into `out` (false: not drawn). */
function drawTrails(tv, ctx, th, place) {
  if (!tv.showTrails || tv.trail.length < 2) return;
  const n = tv.n;
  ctx.strokeStyle = th.muted;
  ctx.lineWidth = 1.2;
  const L = tv.trail.length;
  // Each state of the trail projected once (screen x, y; NaN where it cannot be drawn), not
  // once per segment end.
  const u = [0, 0, 0];
  const screen = tv.trail.map((p) => {
    const xy = new Float64Array(2 * n).fill(NaN);
    for (let i = 0; i < n; i++) {
      if (place(p, i, u)) {
        xy[2 * i] = u[0];
        xy[2 * i + 1] = u[1];
      }
    }
    return xy;
  });
  for (let a = 1; a < L; a++) {
    const p = screen[a - 1];
    const q = screen[a];
    ctx.globalAlpha = 0.08 + 0.5 * (a / L);
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const ux = p[2 * i];
      const uy = p[2 * i + 1];
      const vx = q[2 * i];
      const vy = q[2 * i + 1];
      if (!Number.isFinite(ux + uy + vx + vy)) continue;
      // A segment shorter than half a pixel shows nothing a token's dot does not cover, and
      // stroking thousands of them (slow runs, large n) cost the page more than the dots.
      if (Math.abs(ux - vx) + Math.abs(uy - vy) < 0.5) continue;
      ctx.moveTo(ux, uy);
      ctx.lineTo(vx, vy);
    }
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

/**
 * Rotation of data coordinates to screen for the current camera, as a function returning
 * [X (right), Y (up), depth (towards viewer)] (the sines and cosines taken once), written into
 * `out` when given (no array per token).
 */
function rotation(tv) {
  const cy = Math.cos(tv.yaw);
  const sy = Math.sin(tv.yaw);
  const cp = Math.cos(tv.pitch);
  const sp = Math.sin(tv.pitch);
  return (a, b, c, out = [0, 0, 0]) => {
    const a1 = a * cy - b * sy;
    const b1 = a * sy + b * cy;
    out[0] = a1;
    out[1] = -b1 * sp + c * cp;
    out[2] = b1 * cp + c * sp;
    return out;
  };
}

export function draw3d(tv, ctx, w, h, th, colours) {
  const { c, h: half, hs } = tv.view;
  const rot = rotation(tv);
  const size = Math.min(w, h);
  const s = (size / 2 - 18) / half;
  const cx = w / 2;
  const cy = h / 2;
  // Per-axis scales: coordinate a is stretched by half / hs[a] (1 on equal axes).
  const f = hs.map((ha) => half / ha);
  // Token i of state p on screen: [x, y, depth] into `out`; false when it cannot be drawn.
  const place = (p, i, out) => {
    const a = (p[3 * i] - c[0]) * f[0];
    const b = (p[3 * i + 1] - c[1]) * f[1];
    const z = (p[3 * i + 2] - c[2]) * f[2];
    if (!Number.isFinite(a + b + z)) return false;
    rot(a, b, z, out);
    const X = out[0];
    const Y = out[1];
    const D = out[2];
    out[0] = cx + X * s;
    out[1] = cy - Y * s;
    out[2] = D / half;
    return true;
  };
  const proj = (p, i) => {
    const out = [0, 0, 0];
    return place(p, i, out) ? out : null;
  };

  // Axes through the view centre, parallel to the data axes, labelled at their + ends.
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const axisLen = half * 0.95;
  const out = [];
  for (let a = 0; a < 3; a++) {
    const e = [0, 0, 0];
    e[a] = axisLen;
    const [X, Y] = rot(e[0], e[1], e[2]);
    ctx.strokeStyle = th.border;
    ctx.lineWidth = 1.2;
    ctx.beginPath();
    ctx.moveTo(cx - X * s, cy + Y * s);
    ctx.lineTo(cx + X * s, cy - Y * s);
    ctx.stroke();
    ctx.fillStyle = th.muted;
    label(ctx, tv.names[a], cx + X * s * 1.06, cy - Y * s * 1.06, out);
  }
  if (tv.sphere) {
    ctx.strokeStyle = th.muted;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.arc(cx, cy, s, 0, 2 * Math.PI);
    ctx.stroke();
    // The equator (the circle in the plane of the first two axes).
    ctx.beginPath();
    for (let k = 0; k <= 72; k++) {
      const u = (k / 72) * 2 * Math.PI;
      const [X, Y] = rot(Math.cos(u), Math.sin(u), 0);
      if (k === 0) ctx.moveTo(cx + X * s, cy - Y * s);
      else ctx.lineTo(cx + X * s, cy - Y * s);
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  drawTrails(tv, ctx, th, place);
  const at3 = (a, b, z) => proj([a, b, z], 0);
  drawOverlay3d(tv, ctx, at3, [cx, cy], size);
  if (tv.overlayDrawn?.psi?.label) out.push(tv.overlayDrawn.psi.label);
  const pts = tv.pts;
  const n = tv.n;
  // Screen x, y and depth of each token (typed arrays: no array per token per frame).
  const px = new Float64Array(n);
  const py = new Float64Array(n);
  const pd = new Float64Array(n);
  const shown = new Uint8Array(n);
  const order = [];
  const u3 = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (!place(pts, i, u3)) continue;
    px[i] = u3[0];
    py[i] = u3[1];
    pd[i] = u3[2];
    shown[i] = 1;
    order.push(i);
  }
  order.sort((i, j) => pd[i] - pd[j]);
  tv.drawn = order.map((i) => [px[i], py[i], i]); // screen x, y and the token (hover)
  const r = radius(tv);
  // Depth shading (the overlay `depth`): farther tokens fainter and smaller.
  const shade = depthShading(tv);
  const fill = pen(ctx);
  ctx.globalAlpha = 1;
  for (const i of order) {
    const u = (Math.max(-1, Math.min(1, pd[i])) + 1) / 2; // 0 farthest, 1 nearest
    if (shade) ctx.globalAlpha = 0.25 + 0.75 * u;
    dot(ctx, px[i], py[i], shade ? r * (0.6 + 0.6 * u) : r, colours[i], th, tv.shapes ? tv.shapes[i] : 0, fill);
  }
  ctx.globalAlpha = 1;
  drawCentres(tv, ctx, at3);
  rings(tv, ctx, (i) => (i < n && shown[i] ? [px[i], py[i]] : null), r, th);
  ctx.fillStyle = th.muted;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  const perAxis = hs.some((ha) => ha !== half);
  const lengths = perAxis ? `axis half-lengths ${hs.map((ha, a) => `${tv.names[a]} ${tickLabel(ha * 0.95)}`).join(', ')} (per axis)` : `axis half-length ${tickLabel(axisLen)}`;
  label(ctx, tv.sphere ? 'unit sphere (dashed); drag to rotate' : `${lengths}; drag to rotate`, 8, h - 6, out);
  return out;
}

export function drawTime(tv, ctx, w, h, th, colours) {
  const { c, h: half } = tv.view;
  ctx.font = '11px system-ui, sans-serif';
  const yTicks = niceTicks(c[0] - half, c[0] + half, 6);
  const yLabels = tickLabels(yTicks);
  const tTicks = niceTicks(0, Math.max(tv.tMax, tv.t), 6);
  const tLabels = tickLabels(tTicks);
  const left = Math.max(50, Math.ceil(Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width))) + 26);
  const bottom = 32;
  const top = 12;
  const right = 14;
  const pw = w - left - right;
  const ph = h - top - bottom;
  const tMax = Math.max(tv.tMax, tv.t);
  const X = (t) => left + (t / tMax) * (pw - 8); // a little room for the dots at t = tMax
  const Y = (v) => top + ph - (v - (c[0] - half)) / (2 * half) * ph;

  ctx.font = '11px system-ui, sans-serif';
  ctx.strokeStyle = th.border;
  ctx.fillStyle = th.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(left, top, pw, ph);
  const out = [];
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  tTicks.forEach((v, i) => {
    ctx.beginPath();
    ctx.moveTo(X(v), top);
    ctx.lineTo(X(v), top + ph);
    ctx.stroke();
    label(ctx, tLabels[i], X(v), top + ph + 4, out);
  });
  label(ctx, 't', left + pw / 2, top + ph + 17, out);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  yTicks.forEach((v, i) => {
    ctx.beginPath();
    ctx.moveTo(left, Y(v));
    ctx.lineTo(left + pw, Y(v));
    ctx.stroke();
    label(ctx, yLabels[i], left - 5, Y(v), out);
  });
  ctx.save();
  ctx.translate(12, top + ph / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillStyle = th.fg;
  ctx.fillText(tv.names[0], 0, 0);
  // Its ink box, turned a quarter to the left about (12, top + ph / 2).
  const m = ctx.measureText(tv.names[0]);
  const [asc, dsc, mid] = [m.actualBoundingBoxAscent, m.actualBoundingBoxDescent, m.width / 2];
  out.push({ text: tv.names[0], x: 12 - asc, y: top + ph / 2 - mid, w: asc + dsc, h: 2 * mid });
  ctx.restore();

  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, pw, ph);
  ctx.clip();
  const n = tv.n;
  const hist = tv.hist;
  if (tv.showTrails && hist.length > 1) {
    ctx.lineWidth = 1.3;
    ctx.globalAlpha = 0.75;
    // One path per colour keeps the canvas calls few for large n.
    const byColour = new Map();
    for (let i = 0; i < n; i++) {
      const list = byColour.get(colours[i]) || [];
      list.push(i);
      byColour.set(colours[i], list);
    }
    for (const [colour, list] of byColour) {
      ctx.strokeStyle = colour;
      ctx.beginPath();
      for (const i of list) {
        let pen = false;
        for (const s of hist) {
          const v = s.x[i];
          if (!Number.isFinite(v)) {
            pen = false;
            continue;
          }
          if (pen) ctx.lineTo(X(s.t), Y(v));
          else ctx.moveTo(X(s.t), Y(v));
          pen = true;
        }
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
  const r = radius(tv);
  const pts = tv.pts;
  const pos = (i) => (i < n && Number.isFinite(pts[i]) ? [X(tv.t), Y(pts[i])] : null);
  const fill = pen(ctx);
  for (let i = 0; i < n; i++) {
    const p = pos(i);
    if (p) dot(ctx, p[0], p[1], r, colours[i], th, tv.shapes ? tv.shapes[i] : 0, fill);
  }
  rings(tv, ctx, pos, r, th);
  ctx.restore();
  return out;
}
