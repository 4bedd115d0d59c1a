// The depth lab (science.md §3-4: rank collapse with depth, context similarity): wires the
// worker (workers/depth.js, its own wasm instance: one variant per message) to the panels.
// Loaded by main.js (dynamic import) only when the lab is first shown.
//
// Data flow: link / fields -> Draft -> check_lab_config (lab/config_page.js) -> DepthLab.info
// (labels, chance level, path shares; cheap, on the main thread) -> the worker runs the variants in order ->
// each reply (result JSON + similarity tiles) is kept and every chart is redrawn, so the curves
// appear one by one. The main thread only draws (Rust/plotters charts, ImageData tiles).

import { ConfigPage, decodedValues } from '../lab/config_page.js';
import { presetOf } from '../lab/pairs.js';
import { Summary } from '../ui/summary.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { fitCanvas, isDark, onThemeChange } from '../render/palette.js';
import { DepthControls } from './controls.js';
import { SimilarityGrid } from './grid.js';
import { buildMarkup, citation, subtitle } from './markup.js';

const MAX_SIDE = 128; // pixels per similarity tile side (larger n is downsampled, block maximum)
// The path decomposition costs about as much as the forward pass again (more for SAN): it is
// computed in the page only up to this n * d_model * layers (bert-init is 1.2e6: use the CLI).
const MAX_PATHS_SIZE = 5e5;
const KEPT = 'The last valid result is kept.';
const $ = (id) => document.getElementById(id);

/** The core's [key, value] pairs as a Map for the controls (text-like values decoded). */
const valuesOf = (pairs) => decodedValues(pairs, ['text', 'particle']);

/**
 * The depth lab (lab/labs.js says what each member does). It does not step: play, pause and step
 * do nothing, reset (R) computes every variant again, seekTo resolves at once.
 */
export function createLab(ctx) {
  let page = null;
  const lab = {
    id: ctx.id,
    title: ctx.title,
    defaultLink: ctx.defaultLink,
    root: null,
    panels: {
      residual: '#dp-res-heading', similarity: '#dp-grid-heading', histogram: '#dp-hist-heading',
      same_sentence: '#dp-same-heading', paths: '#dp-paths-heading', spectrum: '#dp-sv-heading',
    },
    controls: {
      preset: '#dp-preset', recompute: '#dp-run', seed: '#dp-new-seed',
      layers: '#dp-layers', heads: '#dp-heads', tokens: '#dp-tokens', variants: '#dp-variants',
    },
    pageViewInLink: false,
    pausesOffscreen: false,
    subtitle,
    citation,
    mount(root) {
      lab.root = root;
      buildMarkup(root);
      page = new DepthLabPage(ctx);
    },
    show: (text) => page.show(text),
    hide: () => page.hide(),
    canonical: () => page.canonical,
    viewPairs: () => page.viewPairs(),
    play() {},
    pause() {},
    togglePlay() {},
    step() {},
    reset: () => page.compute(),
    seekTo: async () => 0,
    check: (text) => ctx.wasm.check_lab_config(text),
    refuse: (res, tail) => page.config.refuse(res, tail),
    state: () => null,
    exports: () => {
      const config = page.canonical || ctx.defaultLink;
      return { config, step: null, stem: `${ctx.id}-${presetOf(config)}` };
    },
  };
  return lab;
}

class DepthLabPage {
  /** @param {{ wasm: object, defaultLink: string, linkChanged: (how: string|null) => void,
   *   canonicalOf: (lab: string) => string }} ctx */
  constructor(ctx) {
    const { wasm } = ctx;
    this.ctx = ctx;
    this.wasm = wasm;
    this.canonical = '';
    this.info = null;
    this.results = []; // run_variant objects, in arrival order
    this.tiles = new Map(); // variant label -> { side, pixels, values, layers, heads, n, variant }
    this.times = new Map(); // variant label -> ms in the worker
    this.worker = null;
    this.job = 0; // id of the current computation
    this.queue = [];
    this.busy = false;
    this.visible = false;
    this.log = true;
    this.svLayer = 1;
    this.resLayout = null;
    this.resHover = null;

    this.controls = new DepthControls({
      presets: wasm.depth_presets(),
      onPreset: (name) => {
        const res = wasm.check_lab_config(`lab=depth&preset=${name}`);
        if (res.ok) this.apply(res);
      },
      onEdit: (key, value, commit) => this.config.edit(key, value, commit),
      onRun: () => this.compute(),
      onCancel: () => this.cancel(),
      onNewSeed: () => this.newSeed(),
      onUseParticle: () => this.useParticle(),
    });
    this.config = new ConfigPage({
      check: (text) => wasm.check_lab_config(text),
      presetPairs: (name) => wasm.depth_preset_pairs(name),
      defaultPreset: 'collapse-small',
      defaultLink: ctx.defaultLink,
      fallbackLink: (draft) => `lab=depth&preset=${draft.get('preset') ?? 'collapse-small'}`,
      valuesOf,
      controls: this.controls,
      errorBox: $('dp-config-error'),
      current: () => this.canonical,
      apply: (res, note, how) => this.apply(res, how),
      // The refused link stays in the address bar.
      startFallback: (res) => this.apply(res, null),
      keptTail: KEPT,
      adjust: (draft) => {
        draft.set('lab', 'depth');
        return '';
      },
    });
    this.grid = new SimilarityGrid($('dp-grid'), $('dp-zoom'), {
      onPick: (layer, head) => {
        this.grid.choose(layer, head);
        this.grid.draw();
      },
      onGridHover: (t) => this.gridTip(t),
      onZoomHover: (c) => this.zoomTip(c),
    });
    this.summary = new Summary($('dp-summary'));
    for (const r of document.querySelectorAll('input[name="dp-scale"]')) {
      r.addEventListener('change', () => {
        this.log = document.querySelector('input[name="dp-scale"]:checked').value === 'log';
        this.drawResidual();
        this.linkChanged('push'); // the view key residual_axis
      });
    }
    $('dp-grid-variant').addEventListener('change', () => this.drawSimilarity());
    $('dp-sv-layer').addEventListener('input', () => {
      this.svLayer = Number($('dp-sv-layer').value);
      $('dp-sv-layer-out').textContent = String(this.svLayer);
      this.drawSpectrum();
    });
    const canvas = $('dp-residual');
    const hover = (e) => {
      const r = canvas.getBoundingClientRect();
      const L = this.resLayout;
      const x = e.clientX - r.left;
      if (!L || !(L.x1 > L.x0)) return this.resTip(null);
      const u = (x - L.x0) / (L.x1 - L.x0);
      const layer = Math.round(L.l0 + u * (L.l1 - L.l0));
      if (layer < L.l0 || layer > L.l1) return this.resTip(null);
      this.resTip({ layer, x, y: e.clientY - r.top, w: r.width });
    };
    canvas.addEventListener('pointermove', hover);
    canvas.addEventListener('pointerdown', hover);
    canvas.addEventListener('pointerleave', () => this.resTip(null));

    const redraw = () => {
      if (this.visible) this.drawAll();
    };
    onThemeChange(redraw);
    const ro = new ResizeObserver(redraw);
    for (const id of ['dp-residual', 'dp-grid', 'dp-zoom', 'dp-hist', 'dp-same', 'dp-paths', 'dp-spectrum']) ro.observe($(id));

    window.__attnDepth = Object.freeze({
      configString: () => this.canonical,
      done: () => this.results.length,
      total: () => this.info?.variants.length ?? 0,
      busy: () => this.busy,
      results: () => this.results,
      times: () => Object.fromEntries(this.times),
      wasm,
    });
  }

  // ---- showing -------------------------------------------------------------------------

  /**
   * Shows link `text`: its configuration (computed again when it differs from the one shown)
   * and its view key `residual_axis` (absent: the default, log).
   */
  show(text) {
    this.visible = true;
    const link = this.wasm.check_link(text || this.ctx.defaultLink);
    const ok = link.ok && link.lab === 'depth';
    if (ok) this.setAxis(link.view.residual_axis);
    const config = ok ? link.canonical : text;
    if (!this.info || config !== this.canonical) this.config.load(config || this.ctx.defaultLink);
    else this.linkChanged('replace');
    this.drawAll();
  }

  /** The rank-collapse chart's y axis: 'log' or 'linear' (the radio buttons follow). */
  setAxis(axis) {
    this.log = axis !== 'linear';
    for (const r of document.querySelectorAll('input[name="dp-scale"]')) r.checked = r.value === axis;
  }

  /** The depth lab's view keys that differ from their defaults. */
  viewPairs() {
    return this.log ? [] : [['residual_axis', 'linear']];
  }

  hide() {
    this.visible = false;
  }

  /** The address bar follows the configuration (the page writes it while the lab is shown): a
   * committed change is a history entry ('push'), loading a link replaces it. */
  linkChanged(how) {
    this.ctx.linkChanged(how);
  }

  // ---- configuration -------------------------------------------------------------------

  /** Applies a valid check result (`how`: its history entry; null: the address bar is kept). */
  apply(res, how = 'push') {
    const lab = new this.wasm.DepthLab(res.canonical);
    try {
      this.info = lab.info();
    } finally {
      lab.free();
    }
    this.canonical = this.info.canonical;
    if (how) this.linkChanged(how);
    this.config.show(res);
    $('dp-description').textContent = this.info.description;
    this.refreshText();
    this.compute();
  }

  newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.config.edit('seed', String(seed), true);
  }

  /** input=particle with the particle lab's configuration (and its Q, K, V when they fit). */
  useParticle() {
    const particle = this.ctx.canonicalOf('particles') || 'preset=polytope';
    const check = this.wasm.check_lab_config(particle);
    const pairs = check.ok ? new Map(check.pairs) : new Map();
    const n = pairs.get('n');
    const d = pairs.get('d');
    const draft = this.config.draft.clone();
    draft.set('lab', 'depth');
    draft.set('particle', particle);
    draft.set('input', 'particle');
    if (n) draft.set('tokens', n);
    if (d) draft.set('d_model', d);
    let res = this.wasm.check_lab_config(draft.clone().set('weights', 'particle').set('heads', '1').set('d_head', d ?? '2').text());
    if (!res.ok) res = this.wasm.check_lab_config(draft.text());
    this.config.draft = draft;
    if (!res.ok) {
      this.config.refuse(res, KEPT);
      this.controls.showValues(this.config.effectiveValues(draft), res.key);
      return;
    }
    this.apply(res);
  }

  // ---- the worker ----------------------------------------------------------------------

  /** Computes every configured variant again, one message per variant. */
  compute() {
    if (!this.info) return;
    if (this.busy) this.stopWorker();
    this.job += 1;
    this.results = [];
    this.tiles = new Map();
    this.times = new Map();
    this.queue = [...this.info.variants];
    this.overflow([]);
    this.busy = true;
    this.controls.setBusy(true);
    this.fillVariantSelect();
    this.startedAt = performance.now();
    this.drawAll();
    this.sendNext();
  }

  ensureWorker() {
    if (!this.worker) {
      this.worker = new Worker(new URL('../workers/depth.js', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this.onReply(e.data);
      this.worker.onerror = (e) => {
        this.finish(`worker error: ${e.message || 'unknown'}`);
        this.stopWorker();
      };
    }
    return this.worker;
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  sendNext() {
    const variant = this.queue.shift();
    if (!variant) {
      this.finish(null);
      return;
    }
    this.ensureWorker().postMessage({ id: this.job, config: this.canonical, variant, maxSide: MAX_SIDE, paths: this.pathsWanted() });
    this.updateStatus(variant);
  }

  onReply(msg) {
    if (msg.id !== this.job) return;
    if (!msg.ok) {
      this.finish(msg.error);
      return;
    }
    if (msg.kind === 'paths') {
      // The variant's last message: its path decomposition (or null); then the next variant.
      const r = this.results.at(-1);
      if (r) r.paths = msg.paths;
      if (msg.paths && this.visible) this.drawPaths();
      this.sendNext();
      return;
    }
    const label = msg.result.variant;
    this.results.push(msg.result);
    this.times.set(label, msg.ms);
    this.tiles.set(label, {
      variant: label,
      side: msg.side,
      pixels: msg.pixels,
      values: msg.values,
      layers: this.info.layers,
      heads: this.info.heads,
      n: this.info.n,
    });
    this.overflow(this.results);
    if (this.visible) this.drawAll();
  }

  cancel() {
    if (!this.busy) return;
    this.stopWorker();
    this.job += 1;
    this.queue = [];
    this.finish('cancelled');
  }

  finish(error) {
    this.busy = false;
    this.controls.setBusy(false);
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    $('dp-progress').value = total ? done / total : 0;
    const secs = ((performance.now() - this.startedAt) / 1000).toFixed(1);
    $('dp-state').textContent = error === 'cancelled' ? `cancelled after ${done} of ${total}`
      : error ? `error: ${error}` : `done in ${secs} s`;
    this.offerSummary();
  }

  updateStatus(running) {
    const total = this.info.variants.length;
    const done = this.results.length;
    $('dp-done').textContent = `${done} / ${total}`;
    $('dp-progress').value = total ? done / total : 0;
    const label = this.info.variant_labels[this.info.variants.indexOf(running)] ?? running;
    $('dp-state').textContent = `computing ${label} (${done + 1} of ${total})…`;
  }

  overflow(results) {
    const msgs = results.filter((r) => r.overflow).map((r) => `${r.variant}: ${r.overflow}`);
    $('dp-overflow').hidden = msgs.length === 0;
    $('dp-overflow').textContent = msgs.join(' ');
  }

  offerSummary() {
    const parts = this.results.map((r) => `${r.variant} ${fmt(r.residual[0])} → ${fmt(r.residual.at(-1))}`);
    this.summary.offer(`${this.info.preset}: relative residual from the input to layer ${this.info.layers}: ${parts.join('; ')}.`);
  }

  pathsWanted() {
    return this.info.n * this.info.d_model * this.info.layers <= MAX_PATHS_SIZE;
  }

  // ---- drawing -------------------------------------------------------------------------

  fillVariantSelect() {
    const sel = $('dp-grid-variant');
    const keep = sel.value;
    sel.replaceChildren(...this.info.variant_labels.map((l) => {
      const o = document.createElement('option');
      o.value = l;
      o.textContent = l;
      return o;
    }));
    const labels = this.info.variant_labels;
    sel.value = labels.includes(keep) ? keep : labels.includes('transformer') ? 'transformer' : labels[0];
    const slider = $('dp-sv-layer');
    slider.max = String(this.info.layers);
    if (this.svLayer > this.info.layers) this.svLayer = this.info.layers;
    slider.value = String(this.svLayer);
    $('dp-sv-layer-out').textContent = String(this.svLayer);
  }

  /** The variant whose similarity is shown: the chosen one when ready, else the latest. */
  shownVariant() {
    const want = $('dp-grid-variant').value;
    if (this.tiles.has(want)) return want;
    return this.results.at(-1)?.variant ?? null;
  }

  drawAll() {
    if (!this.info || !this.visible) return;
    this.drawResidual();
    this.drawSimilarity();
    this.drawSame();
    this.drawPaths();
    this.drawSpectrum();
  }

  chart(id, fn) {
    try {
      const { dpr } = fitCanvas($(id));
      return fn($(id), dpr, isDark());
    } catch (e) {
      console.warn(e);
      return null;
    }
  }

  drawResidual() {
    this.resLayout = this.chart('dp-residual', (c, dpr, dark) =>
      this.wasm.draw_depth_residual(c, this.results, this.info.layers, this.log, dpr, dark));
    if (this.resHover) this.resTip(this.resHover);
  }

  drawSimilarity() {
    const v = this.shownVariant();
    // The grid's box follows the layers x heads shape (labels take about half a cell).
    $('dp-grid').parentElement.style.aspectRatio = `${this.info.heads + 0.6} / ${this.info.layers + 0.4}`;
    this.grid.set(v ? this.tiles.get(v) : null, this.info.labels);
    this.grid.draw();
    const r = this.results.find((x) => x.variant === v);
    this.chart('dp-hist', (c, dpr, dark) => this.wasm.draw_depth_histograms(c, r ? [r] : [], dpr, dark));
  }

  drawSame() {
    this.chart('dp-same', (c, dpr, dark) =>
      this.wasm.draw_depth_same_sentence(c, this.results, this.info.layers, this.info.chance_level, dpr, dark));
  }

  drawPaths() {
    this.chart('dp-paths', (c, dpr, dark) =>
      this.wasm.draw_depth_paths(c, new Float64Array(this.info.path_shares), this.results, dpr, dark));
  }

  drawSpectrum() {
    this.chart('dp-spectrum', (c, dpr, dark) => this.wasm.draw_depth_spectrum(c, this.results, this.svLayer, dpr, dark));
  }

  refreshText() {
    const i = this.info;
    $('dp-res-caption').textContent = `res(X) = X − 1 xᵀ with x the ${this.config.draft.get('residual_def') === 'argmin' ? 'minimiser of the norm' : 'mean of the tokens'}; ||X||_{1,∞} = √(||X||₁ ||X||_∞) (max column and max row abs-sum). Plotted: ||res(X_l)|| / ||X_l|| for layer l = 0 (the input) to L = ${i.layers}, n = ${i.n} tokens, d_model = ${i.d_model}, ${i.heads} heads of ${i.d_head}. SAN: attention only, collapses to rank 1 doubly exponentially; SAN+MLP: attention and MLP without skips, the MLP only slows the collapse; SAN+skip: attention with its skip connection, stays near its start; transformer: skips and MLP (as BERT). LayerNorm (the layernorm key) sits in every variant. Hover for values.`;
    $('dp-grid-caption').textContent = `For each layer l (rows) and head (columns), S = O Oᵀ with O = P V the head's output before W_O (n × n, diagonal set to 0, similarity_norm applied), coloured from the head's smallest to its largest off-diagonal value${i.n > MAX_SIDE ? ` (n = ${i.n} > ${MAX_SIDE}: each pixel shows the largest value of its block)` : ''}. Click a head to enlarge it with the token labels; hover for S_ij.`;
    $('dp-hist-caption').textContent = 'Per layer, the histogram of |i − j| over the high-similarity pairs of all heads (select, quantile, threshold), each ridge scaled to its own peak: mass near 0 is short-range similarity, a flat ridge long-range (Halevi et al. 2025). The variant is the one chosen above the grid.';
    $('dp-same-caption').textContent = `The share of high-similarity pairs whose two tokens lie in the same sentence, per layer and variant; dashed: chance Σ_s n_s(n_s − 1)/(n(n − 1)) = ${fmt(i.chance_level)}${i.chance_level >= 0.999 ? ' (one sentence: use input=text or sentences= to compare)' : ''}.`;
    $('dp-paths-caption').textContent = `With skip connections the output of L layers of H heads is a sum over (H+1)^L paths; the share of paths through k attention layers is C(L,k) H^k / (H+1)^L (bars). For a linear, bias-free stack without MLP or LayerNorm the core also splits the output exactly by path length: the line is each length's share of Σ_k ||S^(k)||_F (${this.pathsWanted() ? 'shown for the variants that have one' : 'not computed in the page at this size: n · d_model · L > 5·10⁵; `attn depth --paths` prints it'}).`;
    $('dp-sv-caption').textContent = 'Singular values of the hidden state X_l (n × d_model) divided by the largest, per variant, on a log scale: a collapsed state (rank 1) has one singular value and the rest at round-off. Move the slider to pick the layer.';
  }

  // ---- hover ---------------------------------------------------------------------------

  resTip(h) {
    this.resHover = h;
    const tip = $('dp-res-tip');
    const cursor = $('dp-res-cursor');
    if (!h || !this.results.length) {
      tip.hidden = true;
      cursor.hidden = true;
      return;
    }
    const L = this.resLayout;
    cursor.style.left = `${L.x0 + ((h.layer - L.l0) / (L.l1 - L.l0)) * (L.x1 - L.x0)}px`;
    cursor.hidden = false;
    tipLines(tip, [`layer ${h.layer}`, ...this.results.map((r) => `${r.variant}: ${fmt(r.residual[h.layer])}`)]);
    placeTip(tip, h.x, h.y, h.w);
  }

  gridTip(t) {
    const tip = $('dp-grid-tip');
    if (!t || !this.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const r = this.results.find((x) => x.variant === this.grid.tiles.variant);
    const head = r?.similarity[t.layer - 1]?.heads[t.head];
    const lines = [`layer ${t.layer}, head ${t.head} (click to enlarge)`];
    if (head) {
      lines.push(`high pairs: ${head.pairs}, mean |i − j| ${fmt(head.mean_distance)}`);
      if (head.same_sentence !== null) lines.push(`same sentence: ${fmt(head.same_sentence)}`);
      if (head.top_token !== null) lines.push(`top token: ${this.info.labels[head.top_token]} (${fmt(head.top_token_share)} of pairs)`);
      if (head.separator_mass !== null) lines.push(`attention on separators: ${fmt(head.separator_mass)}`);
    }
    tipLines(tip, lines);
    placeTip(tip, t.x, t.y, t.w);
  }

  zoomTip(c) {
    const tip = $('dp-zoom-tip');
    if (!c || !this.grid.tiles) {
      tip.hidden = true;
      return;
    }
    const lab = this.info.labels;
    tipLines(tip, [`i = ${c.i} (${lab[c.i]}), j = ${c.j} (${lab[c.j]})`, `S_ij = ${fmt(this.grid.value(c.i, c.j))}`,
      `sentences ${this.info.sentence[c.i]}, ${this.info.sentence[c.j]}`]);
    placeTip(tip, c.x, c.y, c.w);
  }
}
