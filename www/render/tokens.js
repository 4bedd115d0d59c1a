// The token canvas: tokens as points, in 1-D (x against time), 2-D, or 3-D (drag to rotate),
// with trails, cluster colours, leader rings and an autoscale that follows growing tokens.
// Draws what it is given (k coordinates per token); it computes no science.

import { clearCanvas, niceTicks, tickLabel, tickLabels, tokenColours } from './palette.js';

const TRAIL_FRAMES = 40; // trail length in frames (fewer for large n)
const TRAIL_SEGMENTS = 20000; // upper bound on n * trail length
const HISTORY_MAX = 1200; // 1-D samples kept (decimated beyond)
const SHRINK = 0.12; // per-frame smoothing when the view zooms in (zooming out is immediate)
const MOVE = 0.3; // per-frame smoothing of the view centre

export class TokenView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.yaw = -0.65;
    this.pitch = 0.5;
    this.showTrails = true;
    this.colour = 'clusters'; // token colours: 'clusters', 'index' or 'plain' (the `colour` view key)
    this.highlight = null; // [i, j] from the heatmap hover
    this.labels = null;
    this.leaders = null;
    this.onChange = () => {};
    this.onCameraEnd = () => {}; // a drag that rotated the 3-D view ended (yaw, pitch are final)
    this.configure({ n: 0, k: 2, sphere: false, tMax: 1, names: ['x₁', 'x₂', 'x₃'] });
    this.bindDrag();
  }

  /**
   * Starts a new run's picture.
   * @param {{ n: number, k: 1|2|3, sphere: boolean, tMax: number, names: string[] }} o
   *   k: coordinates per token given to push (1: drawn against time); sphere: fixed unit view.
   */
  configure(o) {
    Object.assign(this, { n: o.n, k: o.k, sphere: o.sphere, tMax: o.tMax, names: o.names });
    this.trail = [];
    this.hist = [];
    this.lastStep = -1;
    this.pts = null;
    this.t = 0;
    this.view = null;
    this.labels = null;
    this.leaders = null;
    this.highlight = null;
  }

  /**
   * The tokens of step `step` at time `t`: `pts` is n x k row-major (a fresh array, kept).
   */
  push(step, t, pts) {
    this.pts = pts;
    this.t = t;
    if (step === this.lastStep) return;
    this.lastStep = step;
    if (this.k === 1) {
      this.hist.push({ t, x: pts });
      if (this.hist.length > HISTORY_MAX) {
        const last = this.hist.length - 1;
        this.hist = this.hist.filter((_, i) => i % 2 === 0 || i === last);
      }
    } else {
      this.trail.push(pts);
      const max = Math.max(0, Math.min(TRAIL_FRAMES, Math.floor(TRAIL_SEGMENTS / Math.max(1, this.n))));
      while (this.trail.length > max + 1) this.trail.shift();
    }
    this.updateView();
  }

  /** Starts the trails afresh at the current tokens (after a jump, e.g. a link's `t=`). */
  restartTrail() {
    this.trail = this.pts ? [this.pts] : [];
    this.onChange();
  }

  /** Cluster labels (Uint32Array n) and leaders (Uint32Array) from the latest metrics. */
  setStyle(labels, leaders) {
    this.labels = labels;
    this.leaders = leaders;
  }

  // ---- autoscale -------------------------------------------------------------------------

  /** Follows the data: centre moves smoothly, the half-extent grows at once and shrinks slowly. */
  updateView() {
    const k = this.k;
    if (this.sphere && k > 1) {
      this.view = { c: new Array(k).fill(0), h: 1.12 };
      return;
    }
    let lo = new Array(k).fill(Infinity);
    let hi = new Array(k).fill(-Infinity);
    const sources = k === 1 ? this.hist.map((s) => s.x) : [this.pts];
    for (const p of sources) {
      for (let i = 0; i < p.length; i += k) {
        let finite = true;
        for (let a = 0; a < k; a++) if (!Number.isFinite(p[i + a])) finite = false;
        if (!finite) continue;
        for (let a = 0; a < k; a++) {
          if (p[i + a] < lo[a]) lo[a] = p[i + a];
          if (p[i + a] > hi[a]) hi[a] = p[i + a];
        }
      }
    }
    if (!Number.isFinite(lo[0])) return;
    const target = lo.map((l, a) => (l + hi[a]) / 2);
    const first = !this.view;
    const c = first ? target : this.view.c.map((v, a) => v + (target[a] - v) * MOVE);
    let need = 0;
    if (k === 3) {
      for (let i = 0; i < this.pts.length; i += 3) {
        const dx = this.pts[i] - c[0];
        const dy = this.pts[i + 1] - c[1];
        const dz = this.pts[i + 2] - c[2];
        const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (Number.isFinite(r) && r > need) need = r;
      }
    } else {
      for (let a = 0; a < k; a++) need = Math.max(need, hi[a] - c[a], c[a] - lo[a]);
    }
    need *= 1.08;
    const floor = Math.max(1e-12, 1e-9 * Math.max(...c.map(Math.abs)));
    need = Math.max(need, floor);
    let h = first ? need : Math.max(need, Math.exp(Math.log(this.view.h) + (Math.log(need) - Math.log(this.view.h)) * SHRINK));
    if (!Number.isFinite(h)) h = need;
    this.view = { c, h };
  }

  // ---- drawing ---------------------------------------------------------------------------

  draw() {
    const ctx = this.ctx;
    const { w, h, th } = clearCanvas(this.canvas, ctx);
    if (!this.pts || !this.view) return;
    const colours = tokenColours(this.colour, this.labels, this.n);
    if (this.k === 1) this.drawTime(ctx, w, h, th, colours);
    else if (this.k === 2) this.draw2d(ctx, w, h, th, colours);
    else this.draw3d(ctx, w, h, th, colours);
  }

  radius() {
    return Math.max(1.6, Math.min(6, 22 / Math.sqrt(Math.max(1, this.n)) + 1.5));
  }

  dot(ctx, x, y, r, colour, th) {
    if (r <= 2.5) {
      // Small dots (thousands of tokens): a square of the same size looks the same and costs a
      // fraction of a filled arc to rasterise.
      ctx.fillStyle = colour;
      ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
      return;
    }
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
    if (r > 2.5) {
      ctx.lineWidth = 0.8;
      ctx.strokeStyle = th.outline;
      ctx.stroke();
    }
  }

  rings(ctx, pos, r, th) {
    // Leaders: a ring in the foreground colour.
    if (this.leaders) {
      ctx.lineWidth = 1.6;
      ctx.strokeStyle = th.fg;
      for (const j of this.leaders) {
        const p = pos(j);
        if (!p) continue;
        ctx.beginPath();
        ctx.arc(p[0], p[1], r + 3.5, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    // Heatmap hover: token i (solid ring) attends to token j (dashed ring), joined by a line.
    if (this.highlight) {
      const [i, j] = this.highlight;
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

  /** Square plot area with room for tick labels; equal scale on both axes. */
  frame2d(w, h, left = 46) {
    const bottom = 30;
    const size = Math.max(10, Math.min(w - left - 12, h - bottom - 12));
    const x0 = left + (w - left - 12 - size) / 2;
    const y0 = 12 + (h - bottom - 12 - size) / 2;
    return { x0, y0, size };
  }

  draw2d(ctx, w, h, th, colours) {
    const { c, h: half } = this.view;
    // Room on the left for the widest y tick label (huge coordinates have long labels).
    ctx.font = '11px system-ui, sans-serif';
    const xTicks = niceTicks(c[0] - half, c[0] + half, 5);
    const yTicks = niceTicks(c[1] - half, c[1] + half, 5);
    const xLabels = tickLabels(xTicks);
    const yLabels = tickLabels(yTicks);
    const widest = Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width));
    const { x0, y0, size } = this.frame2d(w, h, Math.max(46, Math.ceil(widest) + 24));
    const s = size / (2 * half);
    const X = (v) => x0 + (v - (c[0] - half)) * s;
    const Y = (v) => y0 + size - (v - (c[1] - half)) * s;

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
      ctx.fillText(xLabels[i], x, y0 + size + 4);
    });
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    yTicks.forEach((v, i) => {
      const y = Y(v);
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x0 + size, y);
      ctx.stroke();
      ctx.fillText(yLabels[i], x0 - 5, y);
    });
    ctx.fillStyle = th.fg;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(this.names[0], x0 + size - 4, y0 + size - 4);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(this.names[1], x0 + 5, y0 + 4);

    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, y0, size, size);
    ctx.clip();
    if (this.sphere) {
      ctx.strokeStyle = th.muted;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.arc(X(0), Y(0), s, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    this.drawTrails(ctx, th, (p, i) => [X(p[2 * i]), Y(p[2 * i + 1])]);
    const r = this.radius();
    const pts = this.pts;
    const pos = (i) => (i < this.n && Number.isFinite(pts[2 * i]) && Number.isFinite(pts[2 * i + 1]) ? [X(pts[2 * i]), Y(pts[2 * i + 1])] : null);
    for (let i = 0; i < this.n; i++) {
      const p = pos(i);
      if (p) this.dot(ctx, p[0], p[1], r, colours[i], th);
    }
    this.rings(ctx, pos, r, th);
    ctx.restore();
  }

  drawTrails(ctx, th, project) {
    if (!this.showTrails || this.trail.length < 2) return;
    const n = this.n;
    ctx.strokeStyle = th.muted;
    ctx.lineWidth = 1.2;
    const L = this.trail.length;
    for (let a = 1; a < L; a++) {
      const p = this.trail[a - 1];
      const q = this.trail[a];
      ctx.globalAlpha = 0.08 + 0.5 * (a / L);
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        const u = project(p, i);
        const v = project(q, i);
        if (!u || !v || !Number.isFinite(u[0] + u[1] + v[0] + v[1])) continue;
        ctx.moveTo(u[0], u[1]);
        ctx.lineTo(v[0], v[1]);
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  /** Rotation of data coordinates to screen: returns [X (right), Y (up), depth (towards viewer)]. */
  rotate(a, b, c) {
    const cy = Math.cos(this.yaw);
    const sy = Math.sin(this.yaw);
    const cp = Math.cos(this.pitch);
    const sp = Math.sin(this.pitch);
    const a1 = a * cy - b * sy;
    const b1 = a * sy + b * cy;
    return [a1, -b1 * sp + c * cp, b1 * cp + c * sp];
  }

  draw3d(ctx, w, h, th, colours) {
    const { c, h: half } = this.view;
    const size = Math.min(w, h);
    const s = (size / 2 - 18) / half;
    const cx = w / 2;
    const cy = h / 2;
    const proj = (p, i) => {
      const a = p[3 * i] - c[0];
      const b = p[3 * i + 1] - c[1];
      const z = p[3 * i + 2] - c[2];
      if (!Number.isFinite(a + b + z)) return null;
      const [X, Y, D] = this.rotate(a, b, z);
      return [cx + X * s, cy - Y * s, D / half];
    };

    // Axes through the view centre, parallel to the data axes, labelled at their + ends.
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const axisLen = half * 0.95;
    for (let a = 0; a < 3; a++) {
      const e = [0, 0, 0];
      e[a] = axisLen;
      const [X, Y] = this.rotate(e[0], e[1], e[2]);
      ctx.strokeStyle = th.border;
      ctx.lineWidth = 1.2;
      ctx.beginPath();
      ctx.moveTo(cx - X * s, cy + Y * s);
      ctx.lineTo(cx + X * s, cy - Y * s);
      ctx.stroke();
      ctx.fillStyle = th.muted;
      ctx.fillText(this.names[a], cx + X * s * 1.06, cy - Y * s * 1.06);
    }
    if (this.sphere) {
      ctx.strokeStyle = th.muted;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.arc(cx, cy, s, 0, 2 * Math.PI);
      ctx.stroke();
      // The equator (the circle in the plane of the first two axes).
      ctx.beginPath();
      for (let k = 0; k <= 72; k++) {
        const u = (k / 72) * 2 * Math.PI;
        const [X, Y] = this.rotate(Math.cos(u), Math.sin(u), 0);
        if (k === 0) ctx.moveTo(cx + X * s, cy - Y * s);
        else ctx.lineTo(cx + X * s, cy - Y * s);
      }
      ctx.stroke();
      ctx.setLineDash([]);
    }
    this.drawTrails(ctx, th, proj);
    const pts = this.pts;
    const projected = new Array(this.n);
    const order = [];
    for (let i = 0; i < this.n; i++) {
      projected[i] = proj(pts, i);
      if (projected[i]) order.push(i);
    }
    order.sort((i, j) => projected[i][2] - projected[j][2]);
    const r = this.radius();
    for (const i of order) {
      const [X, Y, D] = projected[i];
      const depth = Math.max(-1, Math.min(1, D));
      ctx.globalAlpha = 0.55 + 0.45 * (depth + 1) / 2;
      this.dot(ctx, X, Y, r * (0.85 + 0.3 * (depth + 1) / 2), colours[i], th);
    }
    ctx.globalAlpha = 1;
    this.rings(ctx, (i) => (i < this.n && projected[i] ? projected[i] : null), r, th);
    ctx.fillStyle = th.muted;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(this.sphere ? 'unit sphere (dashed); drag to rotate' : `axis half-length ${tickLabel(axisLen)}; drag to rotate`, 8, h - 6);
  }

  drawTime(ctx, w, h, th, colours) {
    const { c, h: half } = this.view;
    ctx.font = '11px system-ui, sans-serif';
    const yTicks = niceTicks(c[0] - half, c[0] + half, 6);
    const yLabels = tickLabels(yTicks);
    const tTicks = niceTicks(0, Math.max(this.tMax, this.t), 6);
    const tLabels = tickLabels(tTicks);
    const left = Math.max(50, Math.ceil(Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width))) + 26);
    const bottom = 32;
    const top = 12;
    const right = 14;
    const pw = w - left - right;
    const ph = h - top - bottom;
    const tMax = Math.max(this.tMax, this.t);
    const X = (t) => left + (t / tMax) * (pw - 8); // a little room for the dots at t = tMax
    const Y = (v) => top + ph - (v - (c[0] - half)) / (2 * half) * ph;

    ctx.font = '11px system-ui, sans-serif';
    ctx.strokeStyle = th.border;
    ctx.fillStyle = th.muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(left, top, pw, ph);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    tTicks.forEach((v, i) => {
      ctx.beginPath();
      ctx.moveTo(X(v), top);
      ctx.lineTo(X(v), top + ph);
      ctx.stroke();
      ctx.fillText(tLabels[i], X(v), top + ph + 4);
    });
    ctx.fillText('t', left + pw / 2, top + ph + 17);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    yTicks.forEach((v, i) => {
      ctx.beginPath();
      ctx.moveTo(left, Y(v));
      ctx.lineTo(left + pw, Y(v));
      ctx.stroke();
      ctx.fillText(yLabels[i], left - 5, Y(v));
    });
    ctx.save();
    ctx.translate(12, top + ph / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillStyle = th.fg;
    ctx.fillText(this.names[0], 0, 0);
    ctx.restore();

    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, pw, ph);
    ctx.clip();
    const n = this.n;
    const hist = this.hist;
    if (this.showTrails && hist.length > 1) {
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
    const r = this.radius();
    const pts = this.pts;
    const pos = (i) => (i < n && Number.isFinite(pts[i]) ? [X(this.t), Y(pts[i])] : null);
    for (let i = 0; i < n; i++) {
      const p = pos(i);
      if (p) this.dot(ctx, p[0], p[1], r, colours[i], th);
    }
    this.rings(ctx, pos, r, th);
    ctx.restore();
  }

  // ---- interaction -----------------------------------------------------------------------

  bindDrag() {
    let last = null;
    const canvas = this.canvas;
    canvas.addEventListener('pointerdown', (e) => {
      if (this.k !== 3) return;
      last = [e.clientX, e.clientY];
      canvas.setPointerCapture(e.pointerId);
      canvas.classList.add('dragging');
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!last) return;
      const dx = e.clientX - last[0];
      const dy = e.clientY - last[1];
      last = [e.clientX, e.clientY];
      this.yaw += dx * 0.01;
      this.pitch = Math.max(-1.55, Math.min(1.55, this.pitch + dy * 0.01));
      this.onChange();
    });
    const end = () => {
      if (last) this.onCameraEnd();
      last = null;
      canvas.classList.remove('dragging');
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
  }
}
