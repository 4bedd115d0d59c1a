// The depth lab (science.md §3-4: rank collapse with depth, context similarity): its interface
// to the page (lab/labs.js) and its page object, which wires the controls, the configuration and
// the view key to the variants' computation (variants.js) and the panels (panels.js). Loaded by
// main.js (dynamic import) only when the lab is first shown.
//
// Data flow: link / fields -> Draft -> check_link (lab/config_page.js) -> depth_info
// (labels, chance level, path shares; on the main thread, without the input's tokens) -> the worker runs the variants
// in order -> each reply (result JSON + similarity tiles) is kept and every chart is redrawn, so
// the curves appear one by one. The main thread only draws (Rust/plotters charts, ImageData tiles).

import { ConfigPage, decodedValues, presetLinkOr } from '../lab/config_page.js';
import { pageLab } from '../lab/page_lab.js';
import { Summary } from '../ui/summary.js';
import { probe } from '../ui/probe.js';
import { onThemeChange } from '../render/palette.js';
import { DepthControls } from './controls.js';
import { SimilarityGrid } from '../render/tile_grid.js';
import { buildMarkup, citation, subtitle } from './markup.js';
import { DepthPanels } from './panels.js';
import { DepthVariants } from './variants.js';

const KEPT = 'The last valid result is kept.';
const $ = (id) => document.getElementById(id);

/** The core's [key, value] pairs as a Map for the controls (text-like values decoded). */
const valuesOf = (pairs) => decodedValues(pairs, ['text', 'particle']);

/**
 * The depth lab (lab/labs.js says what each member does). It does not step: play, pause and step
 * do nothing, reset (R) computes every variant again, seekTo resolves at once.
 * @param {import('../lab/labs.js').LabContext} ctx
 */
export function createLab(ctx) {
  return pageLab(ctx, {
    lab: 'depth',
    share: { prefix: 'dp-', what: 'comparison' },
    panels: {
      residual: '#dp-res-heading', similarity: '#dp-grid-heading', histogram: '#dp-hist-heading',
      same_sentence: '#dp-same-heading', paths: '#dp-paths-heading', spectrum: '#dp-sv-heading',
    },
    controls: {
      preset: '#dp-preset', recompute: '#dp-run', seed: '#dp-new-seed',
      layers: '#dp-layers', heads: '#dp-heads', tokens: '#dp-tokens', variants: '#dp-variants',
    },
    subtitle,
    citation,
    buildMarkup,
    createPage: (c) => new DepthLabPage(c),
  });
}

export class DepthLabPage {
  /** @param {{ wasm: AttnPageWasm, defaultLink: string, linkChanged: (how: string|null) => void,
   *   canonicalOf: (lab: string) => string }} ctx */
  constructor(ctx) {
    const { wasm } = ctx;
    this.ctx = ctx;
    this.wasm = wasm;
    this.canonical = '';
    /** @type {DepthInfo|null} */
    this.info = null;
    /** @type {DepthVariantResult[]} */
    this.results = []; // run_variant objects, in the configured variants' order
    // The same results (and their path lengths) read once into the core's types, which every
    // chart draws from (crates/web labs/depth_charts.rs); variants.js keeps both.
    this.charted = new wasm.DepthResults([]);
    this.lastDone = ''; // the label of the variant that finished last
    this.tiles = null; // the shown variant's { variant, shared, side, pixels, values, layers, heads, n }, or null
    this.times = new Map(); // variant label -> ms in the worker
    /** @type {string|null} */
    this.halvesRun = null; // the variant last run in halves on both workers (variants.js)
    /** @type {import('./variants.js').DepthWorker[]} */
    this.workers = []; // the workers computing the variants (variants.js)
    this.workerCreatedAt = 0; // performance.now() when the workers were created
    this.workerBytes = null; // size of a worker's wasm memory, as the last reply said
    this.job = 0; // id of the current computation
    this.queue = []; // messages still to send: { variant, result } (result false: tiles only)
    this.busy = false;
    this.visible = false;
    this.log = true;
    this.sharedScale = false; // view key grid_scale: one colour scale for every head
    this.svLayer = 1;
    /** @type {ChartLayout|null} */
    this.resLayout = null;
    this.resHover = null;
    this.startedAt = 0; // performance.now() when the computation started (variants.js)
    this.variants = new DepthVariants(this); // the workers and the results (variants.js)
    this.panels = new DepthPanels(this); // the charts, grid, texts and tips (panels.js)

    this.controls = new DepthControls({
      presets: wasm.presets('depth'),
      onPreset: (name) => {
        const res = wasm.check_link(wasm.preset_link('depth', name), 'depth');
        if (res.ok) this.apply(res);
      },
      onEdit: (key, value, commit) => this.config.edit(key, value, commit),
      onRun: () => this.variants.compute(),
      onCancel: () => this.variants.cancel(),
      onNewSeed: () => this.newSeed(),
      onUseParticle: () => this.useParticle(),
    });
    this.config = new ConfigPage({
      check: (text) => wasm.check_link(text, 'depth'),
      keys: wasm.key_table('depth'),
      presetPairs: (name) => wasm.preset_pairs('depth', name),
      defaultPreset: 'collapse-small',
      defaultLink: ctx.defaultLink,
      fallbackLink: (draft) => presetLinkOr(wasm, 'depth', draft.get('preset'), 'collapse-small'),
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
    this.grid = new SimilarityGrid(/** @type {HTMLCanvasElement} */ ($('dp-grid')), /** @type {HTMLCanvasElement} */ ($('dp-zoom')), {
      onPick: (layer, head) => {
        this.grid.choose(layer, head);
        this.grid.draw();
      },
      onGridHover: (t) => this.panels.gridTip(t),
      onZoomHover: (c) => this.panels.zoomTip(c),
    });
    this.summary = new Summary($('dp-summary'));
    for (const r of document.querySelectorAll('input[name="dp-scale"]')) {
      r.addEventListener('change', () => {
        this.log = /** @type {HTMLInputElement} */ (document.querySelector('input[name="dp-scale"]:checked')).value === 'log';
        this.panels.drawResidual();
        this.linkChanged('push'); // the view key residual_axis
      });
    }
    for (const r of document.querySelectorAll('input[name="dp-grid-scale"]')) {
      r.addEventListener('change', () => {
        this.setGridScale(/** @type {HTMLInputElement} */ (document.querySelector('input[name="dp-grid-scale"]:checked')).value);
        this.variants.variantChosen(); // the tiles of the new scale are asked for
        if (this.info) this.panels.refreshText();
        this.linkChanged('push'); // the view key grid_scale
      });
    }
    $('dp-grid-variant').addEventListener('change', () => this.variants.variantChosen());
    $('dp-sv-layer').addEventListener('input', () => {
      this.svLayer = Number(/** @type {HTMLInputElement} */ ($('dp-sv-layer')).value);
      $('dp-sv-layer-out').textContent = String(this.svLayer);
      this.panels.drawSpectrum();
    });
    const canvas = $('dp-residual');
    const hover = (e) => {
      const r = canvas.getBoundingClientRect();
      const L = this.resLayout;
      const x = e.clientX - r.left;
      if (!L || !(L.x1 > L.x0)) return this.panels.resTip(null);
      const u = (x - L.x0) / (L.x1 - L.x0);
      const layer = Math.round(L.start + u * (L.end - L.start));
      if (layer < L.start || layer > L.end) return this.panels.resTip(null);
      this.panels.resTip({ layer, x, y: e.clientY - r.top, w: r.width });
    };
    probe(canvas, {
      report: hover,
      hide: () => this.panels.resTip(null),
      step: () => {
        const L = this.resLayout;
        return L && L.end > L.start ? { dx: (L.x1 - L.x0) / (L.end - L.start), dy: 0 } : null;
      },
      area: () => {
        const L = this.resLayout;
        return L && L.x1 > L.x0 ? { x0: L.x0, x1: L.x1, y0: 0, y1: canvas.getBoundingClientRect().height } : null;
      },
      label: 'Residual by layer',
    });

    const redraw = () => {
      if (this.visible) this.panels.drawAll();
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
      info: () => this.info, // the run's sizes, labels and chance_level (the worker's info)
      // The variant whose similarity tiles the page holds (the grid shows), and the residual
      // chart's layout ({ plot, legend, labels, ... }, CSS px).
      gridVariant: () => this.tiles?.variant ?? null,
      gridScale: () => (this.tiles ? (this.tiles.shared ? 'shared' : 'head') : null),
      gridGeometry: () => this.grid.geom, // { x0, y0, cell, layers, heads } (CSS px) of the grid drawn
      zoomGeometry: () => this.grid.zgeom, // { x0, y0, cell, n } (CSS px) of the chosen head drawn
      pending: () => this.variants.jobs().length > 0 || this.queue.length > 0,
      residualLayout: () => this.resLayout,
      workerMemory: () => this.workerBytes ?? null, // bytes of the worker's wasm memory
      times: () => Object.fromEntries(this.times),
      halves: () => this.halvesRun ?? null, // the variant last run in halves on both workers
      wasm,
    });
  }

  // ---- showing -------------------------------------------------------------------------

  /**
   * Shows link `text`: its configuration (computed again when it differs from the one shown)
   * and its view key `residual_axis` (absent: the default, log). `checked`: the core's check of
   * `text` (check_link), when the caller has it.
   */
  show(text, checked) {
    this.visible = true;
    const link = text && checked ? checked : this.wasm.check_link(text || this.ctx.defaultLink);
    const ok = link.ok && link.lab === 'depth';
    if (ok) {
      this.setAxis(link.view.residual_axis);
      if (this.setGridScale(link.view.grid_scale) && this.info) {
        this.variants.variantChosen();
        this.panels.refreshText();
      }
    }
    const config = ok ? link.canonical : text;
    if (!this.info || config !== this.canonical) this.config.load(config || this.ctx.defaultLink);
    else this.linkChanged('replace');
    this.panels.drawAll();
  }

  /** The rank-collapse chart's y axis: 'log' or 'linear' (the radio buttons follow). */
  setAxis(axis) {
    this.log = axis !== 'linear';
    const radios = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="dp-scale"]'));
    for (const r of radios) r.checked = r.value === axis;
  }

  /** The similarity grid's colour scale: 'head' or 'shared' (the radio buttons follow); true
   * when it changed. */
  setGridScale(scale) {
    const shared = scale === 'shared';
    const radios = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="dp-grid-scale"]'));
    for (const r of radios) r.checked = r.value === (shared ? 'shared' : 'head');
    const changed = shared !== this.sharedScale;
    this.sharedScale = shared;
    return changed;
  }

  /** The depth lab's view keys that differ from their defaults, in canonical order. */
  viewPairs() {
    /** @type {Array<[string, string]>} */
    const out = [];
    if (!this.log) out.push(['residual_axis', 'linear']);
    if (this.sharedScale) out.push(['grid_scale', 'shared']);
    return out;
  }

  hide() {
    this.visible = false;
  }

  /** Reset (R): every variant computed again. */
  reset() {
    this.variants.compute();
  }

  /** A refused link: the configuration page says why (the last result is kept). */
  refuse(res, tail) {
    this.config.refuse(res, tail);
  }

  /** The address bar follows the configuration (the page writes it while the lab is shown): a
   * committed change is a history entry ('push'), loading a link replaces it. */
  linkChanged(how) {
    this.ctx.linkChanged(how);
  }

  // ---- configuration -------------------------------------------------------------------

  /** Applies a valid check result (`how`: its history entry; null: the address bar is kept). */
  apply(res, how = 'push') {
    this.info = this.wasm.depth_info(res.canonical); // the workers make the input's tokens
    this.canonical = this.info.canonical;
    if (how) this.linkChanged(how);
    this.config.show(res);
    $('dp-description').textContent = this.info.description;
    this.panels.refreshText();
    this.variants.compute();
  }

  newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.config.edit('seed', String(seed), true);
  }

  /** input=particle with the particle lab's configuration (and its Q, K, V when they fit). */
  useParticle() {
    const particle = this.ctx.canonicalOf('particles') || 'preset=polytope';
    const check = this.wasm.check_link(particle, 'particles');
    const pairs = check.ok ? new Map(check.pairs) : new Map();
    const n = pairs.get('n');
    const d = pairs.get('d');
    const draft = this.config.draft.clone();
    draft.set('lab', 'depth');
    draft.set('particle', particle);
    draft.set('input', 'particle');
    if (n) draft.set('tokens', n);
    if (d) draft.set('d_model', d);
    let res = this.wasm.check_link(draft.clone().set('weights', 'particle').set('heads', '1').set('d_head', d ?? '2').text(), 'depth');
    if (!res.ok) res = this.wasm.check_link(draft.text(), 'depth');
    this.config.draft = draft;
    if (!res.ok) {
      this.config.refuse(res, KEPT);
      this.controls.showValues(this.config.effectiveValues(draft), res.key);
      return;
    }
    this.apply(res);
  }
}

