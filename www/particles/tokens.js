// The token canvas's state: the tokens given (k coordinates each), trails, cluster colours,
// leaders, the autoscale that follows growing tokens (never zooming in past the initial tokens'
// extent, so shrinking tokens are seen shrinking) and the 3-D drag; tokens_draw.js draws it in
// 1-D (x against time), 2-D or 3-D. It computes no science.

import { clearCanvas, setLabels, tokenStyle } from '../render/palette.js';
import { draw2d, draw3d, drawTime } from './tokens_draw.js';

const TRAIL_SAMPLES = 40; // trail length in sample steps (fewer for large n)
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
    this.axes = 'equal'; // axis scales: 'equal' or 'per-axis' (the `axes` view key)
    this.highlight = null; // [i, j] from the heatmap hover
    this.slots = null; // colour slots (stable cluster identities) from the latest metrics
    this.shapes = null;
    this.leaders = null;
    this.onChange = () => {};
    this.onCameraEnd = () => {}; // a drag that rotated the 3-D view ended (yaw, pitch are final)
    // The run's picture, set by configure (Object.assign), declared for the type checker.
    /** @type {number} */ this.n;
    /** @type {1|2|3} */ this.k;
    /** @type {boolean} */ this.sphere;
    /** @type {number} */ this.tMax;
    /** @type {string[]} */ this.names;
    /** @type {number} */ this.floor;
    /** @type {number} */ this.every;
    /** @type {Array<[number, number, number]>|undefined} the tokens drawn last: screen x, y (CSS px) and the token (tokens_draw.js) */
    this.drawn;
    this.configure({ n: 0, k: 2, sphere: false, tMax: 1, names: ['x₁', 'x₂', 'x₃'] });
    this.bindDrag();
  }

  /**
   * Starts a new run's picture.
   * @param {{ n: number, k: 1|2|3, sphere: boolean, tMax: number, names: string[], floor?: number, every?: number }} o
   *   k: coordinates per token given to push (1: drawn against time); sphere: fixed unit view;
   *   floor: the smallest half-extent the view zooms in to (half the initial tokens' spread);
   *   every: steps between the run's sample steps (ParticleLab.sample_every), the states the
   *   trails keep.
   */
  configure(o) {
    Object.assign(this, { n: o.n, k: o.k, sphere: o.sphere, tMax: o.tMax, names: o.names, floor: o.floor ?? 0, every: o.every ?? 1 });
    this.clearTrail();
    this.pts = null;
    this.t = 0;
    this.view = null;
    this.slots = null;
    this.leaders = null;
    this.highlight = null;
  }

  /** No trail: the next state pushed starts it. */
  clearTrail() {
    this.kept = []; // { step, t, x } at the run's sample steps, in step order
    this.trail = []; // 2-D, 3-D: the states the trails join (the kept ones, then the state shown)
    this.hist = []; // 1-D: the same as { t, x }, drawn against time
    this.traced = []; // what the trails (1-D: the plot) draw, as { step, t, x }
    this.lastStep = -1;
  }

  /** States `push` keeps at most: 1-D, the plot against time; else the trail's length. */
  trailLimit() {
    return this.k === 1 ? Infinity : Math.max(0, Math.min(TRAIL_SAMPLES, Math.floor(TRAIL_SEGMENTS / Math.max(1, this.n)))) + 1;
  }

  /**
   * The tokens of step `step` at time `t`: `pts` is n x k row-major (a fresh array, kept). The
   * trails (1-D: the plot against time) keep the states of the run's sample steps (every
   * `every` steps) and join the state shown to them: what they draw at a step depends on that
   * step only, not on where the frames that played there stopped, so a `t=` / `step=` link
   * (`retrace`) draws the trails of the run played to its moment.
   */
  push(step, t, pts) {
    this.pts = pts;
    this.t = t;
    if (step === this.lastStep) return;
    this.lastStep = step;
    // The timeline went back: the states after the one shown are dropped.
    if (this.kept.length && this.kept.at(-1).step >= step) this.kept = this.kept.filter((e) => e.step < step);
    if (step % this.every === 0) {
      this.kept.push({ step, t, x: pts });
      if (this.k === 1 && this.kept.length > HISTORY_MAX) {
        const last = this.kept.length - 1;
        this.kept = this.kept.filter((_, i) => i % 2 === 0 || i === last);
      }
      const max = this.trailLimit();
      if (this.kept.length > max) this.kept = this.kept.slice(-max);
    }
    const shown = this.kept.at(-1)?.step === step ? this.kept : [...this.kept, { step, t, x: pts }];
    this.traced = this.k === 1 ? shown : shown.slice(-this.trailLimit());
    if (this.k === 1) this.hist = this.traced;
    else this.trail = this.traced.map((e) => e.x);
    if (!this.retracing) this.updateView();
  }

  /**
   * The trails as playing to the state shown leaves them: `states` are the run's states at its
   * sample steps before step `step`, in order (`{ step, t, x }`, x in this view's coordinates),
   * then `pts` at `step` and time `t` is shown; the view is fitted to the tokens at once (after
   * a jump: a link's moment, the timeline), not moved slowly from where it was.
   */
  retrace(states, step, t, pts) {
    this.clearTrail();
    this.retracing = true; // the view is fitted once, below (1-D: it reads every state kept)
    for (const e of states) this.push(e.step, e.t, e.x);
    this.push(step, t, pts);
    this.retracing = false;
    this.view = null;
    this.updateView();
    this.onChange();
  }

  /**
   * Colour slots (Uint32Array n, ParticleLab.colour_slots: stable cluster identities) and leaders
   * (Uint32Array) from the latest metrics.
   */
  setStyle(slots, leaders) {
    this.slots = slots;
    this.leaders = leaders;
  }

  // ---- autoscale -------------------------------------------------------------------------

  /**
   * Follows the data: centre moves smoothly, the half-extent grows at once and shrinks slowly,
   * never below `floor` (half the initial tokens' spread): tokens that shrink are drawn on the
   * scale they started on, and the clusters metric, whose tolerance is relative to the larger of
   * the initial and the current spread (core `Config::cluster_reference`), counts as one the
   * dots drawn within a few pixels (0.016 of the spread: 4 CSS px on the default 2-D plot).
   * `view.hs` holds each axis's half-extent: all equal to `view.h` on equal axes; with
   * `axes = 'per-axis'` (2-D and 3-D, not the sphere) each axis follows its own extent.
   */
  updateView() {
    const k = this.k;
    if (this.sphere && k > 1) {
      this.view = { c: new Array(k).fill(0), h: 1.12, hs: new Array(k).fill(1.12) };
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
    need = Math.max(need, this.floor);
    // A single point (n = 1, or every token at one place: no spread on any axis) gets a padded
    // view, ±5% of its largest coordinate (±1 at the origin), not a zoom onto round-off.
    if (lo.every((l, a) => hi[a] === l)) need = Math.max(need, (Math.max(...c.map(Math.abs)) * 0.05 || 1) / 1.08);
    const floor = Math.max(1e-12, 1e-9 * Math.max(...c.map(Math.abs)));
    const follow = (want, was) => {
      const n = Math.max(want * 1.08, floor);
      const h = was === undefined ? n : Math.max(n, Math.exp(Math.log(was) + (Math.log(n) - Math.log(was)) * SHRINK));
      return Number.isFinite(h) ? h : n;
    };
    const h = follow(need, first ? undefined : this.view.h);
    let hs = new Array(k).fill(h);
    if (this.axes === 'per-axis' && k > 1) {
      hs = hs.map((_, a) => {
        const want = Math.max(hi[a] - c[a], c[a] - lo[a]);
        // An axis whose extent is below 1e-3 of the largest keeps a 1e-3 share (a flat axis
        // is not blown up into noise).
        return follow(Math.max(want, need * 1e-3, this.floor), first || !this.view.hs ? undefined : this.view.hs[a]);
      });
    }
    this.view = { c, h, hs };
  }

  // ---- drawing ---------------------------------------------------------------------------

  draw() {
    const ctx = this.ctx;
    const { w, h, th } = clearCanvas(this.canvas, ctx);
    if (!this.pts || !this.view) return;
    const { colours, shapes } = tokenStyle(this.colour, this.slots, this.n);
    this.shapes = shapes;
    const draw = this.k === 1 ? drawTime : this.k === 2 ? draw2d : draw3d;
    // The boxes of the texts drawn (ticks, axis names) go to data-labels, as the charts' do.
    setLabels(this.canvas, { labels: draw(this, ctx, w, h, th, colours) });
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
