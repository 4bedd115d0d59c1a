// The model lab (docs/model-lab.md, science.md §6): a pretrained BERT encoder on a text. Its interface to
// the page (lab/labs.js) and its page object: the worker (workers/model.js) downloads the model
// once and analyses each link; the page draws the token strip, the attention and context-
// similarity grids (render/tile_grid.js's SimilarityGrid, shared with the depth lab) and the residual
// curves of the four variants (the depth lab's Rust chart, draw_depth_residual).
//
// Data flow: link -> worker 'analyse' (the core parses it, refusing other weights or a layer /
// head out of range, naming the key) -> { result, tiles, p, s } -> drawn; the canonical link
// (result.config) goes to the address bar. Picking a head is a new link (layer=, head=).

import { writeCaptions } from './captions.js';
import { concatLinks, joinPairs, keysOf, onlyKeys, valueOf, withoutKeys } from '../lab/pairs.js';
import { h } from '../ui/dom.js';
import { HeadPanel } from './head_panel.js';
import { HeadDynamics } from './head_dynamics.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { fitCanvas, chartColours, onThemeChange, setLabels } from '../render/palette.js';
import { SimilarityGrid } from '../render/tile_grid.js';
import { buildMarkup, citation, subtitle } from './markup.js';
import { mountFiles, servedMissing } from './files.js';
import { DEFAULT_MODEL, DEFAULT_MODEL_ID, OPENING_HEAD, TEXTS } from './texts.js';
import { firstPicture, markOnce } from '../lab/marks.js';
import { ScaleControl, scalePair } from './scale.js';
import { matrixExports } from './exports.js';
import { statisticsExports } from './stat_exports.js';
import { pageLab } from '../lab/page_lab.js';
import { applyModelHints } from './hints.js';
import { LayersPanel } from './layers.js';
import { RepeatPanel } from './repeat.js';

const $ = (id) => document.getElementById(id);
const MAX_SIDE = 128; // pixels per side of a tile at most

/**
 * The link shown for `text`: a bare link (`lab=model` and view keys only, as the depth lab's
 * bare link means bert-init) is the default link, the served model on the first built-in text,
 * with `text`'s view keys (so `lab=model&embed=1` embeds it); any other link is itself, so a key
 * the lab does not have (`lab=model&bogus=1`) is refused naming it, as `attn encode` refuses it.
 * `viewKeys`: the view keys a bare link keeps (wasm model_bare_view_keys, from the core's tables).
 */
function linkFor(text, defaultLink, viewKeys) {
  const keys = keysOf(text);
  if (keys.some((k) => k !== 'version' && k !== 'lab' && !viewKeys.includes(k))) return text;
  // The default's own view keys (the opening head) unless the bare link names them.
  return concatLinks(withoutKeys(defaultLink, keys.filter((k) => viewKeys.includes(k))), onlyKeys(text, viewKeys));
}

/** `s` ending as a sentence (a full stop added unless it ends in . ! or ?). */
function sentence(s) {
  const t = String(s).trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * The model lab (lab/labs.js says what each member does). It does not step.
 * @param {import('../lab/labs.js').FullLabContext} ctx
 */
export function createLab(ctx) {
  const bare = (text) => linkFor(text, ctx.defaultLink, ctx.wasm.model_bare_view_keys());
  return pageLab(ctx, {
    lab: 'model',
    share: { prefix: 'md-', what: 'analysis' },
    panels: {
      tokens: '#md-tokens-heading', grid: '#md-grid-heading', residual: '#md-res-heading',
      histogram: '#md-hist-heading', same_sentence: '#md-same-heading', spectrum: '#md-spec-heading', head_particles: '#md-dyn-heading',
      layers: '#md-layers-heading',
      repeat: '#md-repeat-heading',
    },
    controls: { example: '#md-example', text: '#md-text', run: '#md-run', grid_scale: '#md-scale' },
    subtitle,
    citation,
    buildMarkup: (root) => {
      buildMarkup(root, ctx.wasm);
      markOnce('attn-model-skeleton'); // the lede and the panels' skeleton, before the model loads
    },
    createPage: (c) => new ModelLabPage(c),
    mounted: (root) => applyModelHints(ctx.wasm, root),
    linkFor: bare,
    stem: 'model',
    exportGroups: (page, menu) => [...matrixExports(ctx.wasm, page, menu), ...statisticsExports(page, menu)],
  });
}

class ModelLabPage {
  /** @param {import('../lab/labs.js').FullLabContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.wasm = ctx.wasm;
    this.canonical = '';
    this.visible = false;
    this.model = null; // { info, sha256 } once loaded
    this.loading = null; // the load's promise
    this.pending = null; // { link, how } waiting for the model
    this.job = 0;
    /** @type {ModelAnalysis|null} */
    this.result = null; // the last analysis (worker's result)
    this.head = null; // { layer, head, p, s } of the chosen head (Float32Arrays)
    this.ms = null; // the last analysis's time in the worker
    /** @type {ChartLayout|null} */
    this.resLayout = null;
    /** @type {{ id: number, step: number }|null} the last head-particle run the worker dropped */
    this.droppedRun = null;
    this.worker = new Worker(new URL('../workers/model.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.onMessage(e.data);

    const pick = (layer, head) => {
      if (!this.result) return;
      this.analyse(this.linkWith({ layer, head }), 'push');
    };
    const hovers = (kind) => ({
      onPick: pick,
      onGridHover: (t) => this.gridTip(`md-${kind}-grid-tip`, t),
      onZoomHover: (c) => this.zoomTip(kind, c),
    });
    this.attGrid = new SimilarityGrid(/** @type {HTMLCanvasElement} */ ($('md-att-grid')), /** @type {HTMLCanvasElement} */ ($('md-att-zoom')), hovers('att'));
    this.simGrid = new SimilarityGrid(/** @type {HTMLCanvasElement} */ ($('md-sim-grid')), /** @type {HTMLCanvasElement} */ ($('md-sim-zoom')), hovers('sim'));
    this.scale = new ScaleControl($('md-grid-heading').closest('section'), (scale) => {
      if (this.result) this.analyse(this.linkWith({ scale }), 'push');
    });

    $('md-example').addEventListener('change', () => {
      const t = TEXTS.find(([v]) => v === /** @type {HTMLSelectElement} */ ($('md-example')).value);
      if (!t) return;
      /** @type {HTMLTextAreaElement} */ ($('md-text')).value = t[2];
      // The served model opens each text on the tour's head; the user's own model on the first.
      this.analyse(this.linkWith({ text: t[2], ...(this.model?.own ? { layer: 1, head: 0 } : OPENING_HEAD) }), 'push');
    });
    $('md-run').addEventListener('click', () => this.analyse(this.linkWith({ text: /** @type {HTMLTextAreaElement} */ ($('md-text')).value }), 'push'));
    $('md-text').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        $('md-run').click();
      }
    });
    this.layersPanel = new LayersPanel((l) => this.showLayer(l)); // tokens through the layers (layers.js)
    this.repeatPanel = new RepeatPanel(this); // a layer repeated (repeat.js)
    const redraw = () => {
      if (this.visible) this.drawAll();
    };
    onThemeChange(redraw);
    const ro = new ResizeObserver(redraw);
    for (const id of ['md-att-grid', 'md-sim-grid', 'md-att-zoom', 'md-sim-zoom', 'md-residual', 'md-hist', 'md-same', 'md-spectrum', 'md-dyn-tokens', 'md-dyn-heat', 'md-dyn-psi', 'md-dyn-chart', 'md-layers-tokens', 'md-layers-hist', 'md-repeat-tokens', 'md-repeat-hist', 'md-repeat-bool', 'md-repeat-heat']) ro.observe($(id));

    this.files = mountFiles(this); // the user's own files: picker and drop (files.js)
    this.headPanel = new HeadPanel();
    this.headDyn = new HeadDynamics((space) => this.analyse(this.linkWith({ head_space: space }), 'push'));

    window.__attnModel = Object.freeze({
      configString: () => this.canonical,
      model: () => this.model,
      result: () => this.result,
      head: () => this.head,
      spectrum: () => this.headPanel.sp, // the chosen head's spectra and verdict (ModelLab.head_spectrum)
      dynamics: () => this.headDyn.dyn, // the chosen head's particles (ModelLab.head_dynamics)
      dynamicsAt: () => this.headDyn.at, // the sample shown
      dynamicsMs: () => this.headDyn.ms, // the worker's time for the run (ms)
      droppedRun: () => this.droppedRun, // { id, step }: the last run the worker dropped unfinished
      job: () => this.job, // the id of the last analysis sent to the worker
      layersView: () => this.layers, // ModelLab.layers_view's typed arrays (layers.js draws them)
      // The tokens through the layers as drawn: the layer shown and [x, y, token] per token (CSS px).
      layersShown: () => ({ layer: this.layersPanel.layer, drawn: (this.layersPanel.tokens.drawn ?? []).map((p) => [...p]) }),
      repeatView: () => this.repeatPanel.view, // ModelLab.repeat_view's arrays (repeat.js)
      repeatShown: () => this.repeatPanel.panel.layer, // the repetition shown
      // The heads' heatmap drawn: 't,head' of the P drawn (null before one).
      repeatHeads: () => { const p = this.repeatPanel.heads.p; return { heat: p ? `${p.t},${p.head}` : null }; },
      // Busy until the shown analysis's head particles arrived too (the worker runs them after it).
      busy: () => Boolean(this.pending) || this.inflight === true || this.dynFor != null,
      // Analysing until the latest text's analysis is shown (its head particles may still run).
      analysing: () => Boolean(this.pending) || this.inflight === true,
      ms: () => this.ms,
      residualLayout: () => this.resLayout,
      // The attention grid's layout ({ x0, y0, cell, layers, heads }, CSS px in its canvas).
      gridGeometry: () => this.attGrid.geom,
      zoomGeometry: () => this.attGrid.zgeom, // { x0, y0, cell, n } of the enlarged attention
    });
  }

  /** The text of the shown analysis (the first built-in text before any). */
  shownText() {
    return this.result ? this.result.text : TEXTS[0][2];
  }

  /** A link of the loaded (or default) model with the shown text, layer, head and hidden layer,
   * changed by `c` (a new text keeps the hidden layer: the core refuses one the model lacks). */
  linkWith(c) {
    const r = this.result;
    const text = c.text ?? this.shownText();
    const layer = c.layer ?? r?.layer ?? OPENING_HEAD.layer;
    const head = c.head ?? r?.head ?? OPENING_HEAD.head;
    const hidden = c.hidden ?? this.layersPanel.layer;
    const id = this.model ? this.model.info.id : DEFAULT_MODEL_ID;
    // The shown link's model keys after the text (the core's canonical form drops the defaults).
    /** @type {Array<[string, string|number]>} */
    const kept = ['cos_tol', 'bilinear', 'head_space'].map((k) => [k, c[k] ?? (this.result ? valueOf(this.canonical, k) : null)])
      .filter(([, v]) => v !== null).map(([k, v]) => [k, v]);
    const repeat = this.repeatPanel.linkPairs(c.repeat, c.text === undefined); // the repeated layer's keys and repetition shown (repeat.js)
    const scale = scalePair(c.scale ?? r?.scale ?? 'head');
    return joinPairs([['lab', 'model'], ['model', id], ['text', text], ...kept, ...repeat, ['layer', layer], ['head', head], ['hidden_layer', hidden], ...scale]);
  }

  /** Shows `link` (a bare one is the default already: linkFor). */
  show(link) {
    this.visible = true;
    if (link !== this.canonical) this.analyse(link, 'replace');
    else this.ctx.linkChanged('replace');
    this.drawAll();
  }

  hide() {
    this.visible = false;
  }

  /** The lab's view keys are part of its configuration (layer, head, scale): none apart. */
  viewPairs() {
    return [];
  }

  /** Analyses the shown link again (the first one before any). */
  reset() {
    this.analyse(this.canonical || this.ctx.defaultLink, null);
  }

  /** Shows a refused configuration's message (`tail`: what the page keeps meanwhile). */
  refuse(res, tail) {
    this.error(`${sentence(res.message ?? 'refused')} ${tail ?? ''}`);
  }

  /** Shows `message` in the lab's alert ('' clears it). */
  error(message) {
    $('md-error').textContent = message;
  }

  /** Loads the served default model (once). */
  load() {
    if (this.loading) return this.loading;
    $('md-state').textContent = 'downloading the model';
    const base = new URL(`models/${DEFAULT_MODEL}/`, location.href).href;
    this.loading = new Promise((resolve, reject) => {
      this.loaded = resolve;
      this.loadFailed = reject;
    });
    this.worker.postMessage({ kind: 'load', base, name: DEFAULT_MODEL });
    return this.loading;
  }

  /** Analyses link `link` (`how`: the history entry once it is accepted; null: keep the bar). */
  analyse(link, how) {
    this.pending = { link, how };
    if (!this.model) {
      this.load().then(() => this.send(), () => {});
      return;
    }
    this.send();
  }

  send() {
    if (!this.pending || this.inflight) return;
    const { link, how } = this.pending;
    this.pending = null;
    this.sentLink = link;
    this.inflight = true;
    this.how = how;
    this.job += 1;
    $('md-state').textContent = 'analysing';
    this.worker.postMessage({ kind: 'analyse', id: this.job, link, maxSide: MAX_SIDE });
  }

  onMessage(m) {
    if (this.files.onMessage(m) || this.repeatPanel.onMessage(m)) return;
    if (m.kind === 'progress') {
      const p = /** @type {HTMLProgressElement} */ ($('md-progress'));
      p.max = m.total || 1;
      p.value = m.loaded;
      const mb = (x) => (x / 1e6).toFixed(1);
      $('md-file').textContent = m.cached ? `${m.file}: from the browser's cache` : `${m.file}: ${mb(m.loaded)} / ${mb(m.total)} MB`;
    } else if (m.kind === 'loaded') {
      this.model = { info: m.info, sha256: m.sha256, cached: m.cached, memory: m.memory };
      $('md-model').textContent = `${m.info.id} (${m.info.layers} layers × ${m.info.heads} heads, hidden ${m.info.hidden})`;
      $('md-model').title = `page memory estimate: ${(m.memory / 2 ** 20).toFixed(0)} MiB for ${m.info.max_positions} tokens`;
      $('md-file').textContent = `loaded in ${(m.ms / 1000).toFixed(1)} s${m.cached ? " from the browser's cache" : ''}`;
      this.repeatPanel.setLayers(m.info.layers);
      this.loaded();
    } else if (m.kind === 'dynamics-dropped') {
      this.droppedRun = { id: m.id, step: m.step }; // a newer analysis took the worker
    } else if (m.kind === 'dynamics-progress') {
      if (m.id === this.job && this.result) this.headDyn.progress(m.step, m.steps);
    } else if (m.kind === 'dynamics') {
      if (m.id === this.dynFor) this.dynFor = null;
      if (m.id === this.job && this.result) this.headDyn.set(m.dynamics ?? null, m.error ?? null, this.result.tokens, m.ms);
    } else if (m.kind === 'result') {
      this.inflight = false;
      if (this.pending) return this.send(); // a newer link is waiting
      this.dynFor = m.id; // its head particles come next
      this.accept(m);
    } else if (m.kind === 'error') {
      if (m.stage === 'load') {
        $('md-state').textContent = 'no model';
        this.error(servedMissing(m.error));
        this.loadFailed(new Error(m.error));
        return;
      }
      this.inflight = false;
      if (!this.result && !this.pending && this.sentLink !== this.ctx.defaultLink) {
        // Nothing shown yet: the default runs instead, with the refusal kept above it (as the
        // other labs show their preset). The address bar keeps the refused link.
        this.refusal = `${sentence(m.error)} Showing the served model on “${TEXTS[0][1]}” instead.`;
        this.error(this.refusal);
        this.analyse(this.ctx.defaultLink, null);
        return;
      }
      $('md-state').textContent = this.result ? 'ready' : 'refused';
      this.error(`${sentence(m.error)}${this.result ? ' The last valid result is kept.' : ''}`);
      this.send();
    }
  }

  accept(m) {
    /** @type {ModelAnalysis} */
    const r = m.result;
    this.result = r;
    this.ms = m.ms;
    this.head = { layer: r.layer, head: r.head, p: m.p, s: m.s };
    this.headPanel.set(m.spectrum ?? null);
    this.headDyn.waiting(valueOf(r.config, 'head_space') ?? 'x');
    this.layers = m.layers;
    this.layersPanel.set(m.layers, r, r.hidden_layer);
    const n = r.n;
    const t = (pixels, variant) => ({ variant, side: m.tiles.side, pixels, values: new Float32Array(0), layers: r.layers, heads: r.heads, n });
    for (const g of [this.attGrid, this.simGrid]) {
      g.choose(r.layer, r.head);
      g.grid.parentElement.style.aspectRatio = `${r.heads + 0.6} / ${r.layers + 0.4}`;
    }
    this.attGrid.set(t(m.tiles.attention, 'attention P'), r.tokens);
    this.simGrid.set(t(m.tiles.similarity, 'similarity S'), r.tokens);
    this.canonical = r.config;
    this.error(this.refusal ?? ''); // a refused first link's message stays over its fallback
    this.refusal = null;
    // The time taken: the full page's (an embed's reader sees "ready").
    $('md-state').replaceChildren('ready', h('span.md-ms', {}, ` (${Math.round(m.ms)} ms)`));
    const text = r.text;
    if (document.activeElement !== $('md-text')) /** @type {HTMLTextAreaElement} */ ($('md-text')).value = text;
    /** @type {HTMLSelectElement} */ ($('md-example')).value = TEXTS.find(([, , x]) => x === text)?.[0] ?? '';
    $('md-tokens').replaceChildren(...r.tokens.map((tok, i) => {
      const s = document.createElement('span');
      s.className = `token sentence-${r.sentence[i] % 2}`;
      s.textContent = tok;
      s.title = `token ${i}, id ${r.ids[i]}, sentence ${r.sentence[i]}`;
      return s;
    }));
    // A link older than the tokenizer's Unicode tables, whose text has code points they treat
    // otherwise, names them (the core's note, as `attn encode` prints it).
    $('md-tokens-note').textContent = r.tokenizer_note ?? '';
    $('md-tokens-note').hidden = !r.tokenizer_note;
    this.scale.show(r.scale, m.tiles);
    writeCaptions(r);
    if (this.how) this.ctx.linkChanged(this.how);
    this.repeatPanel.accepted(r.config); // the link's repeated layer, run unless shown
    document.querySelector('.model-layout')?.classList.remove('md-loading'); // the skeleton gives way
    this.drawAll();
    firstPicture('model'); // the grids and the chosen head drawn (lab/marks.js)
  }

  /** The grid's hover readout: which head, and that a click enlarges it. */
  gridTip(id, t) {
    const tip = $(id);
    if (!t || !this.result) {
      tip.hidden = true;
      return;
    }
    tipLines(tip, [`layer ${t.layer}, head ${t.head} (click, tap or Enter to enlarge)`]);
    placeTip(tip, t.x, t.y, t.w);
  }

  /** The enlarged head's hover readout: the tokens and the value (P_ij or S_ij, as f32). */
  zoomTip(kind, c) {
    const tip = $(`md-${kind}-zoom-tip`);
    const r = this.result;
    const m = kind === 'att' ? this.head?.p : this.head?.s;
    if (!c || !r || !m) {
      tip.hidden = true;
      return;
    }
    const name = kind === 'att' ? 'P' : 'S';
    tipLines(tip, [`i = ${c.i} (${r.tokens[c.i]}), j = ${c.j} (${r.tokens[c.j]})`,
      `${name}_ij = ${fmt(m[c.i * r.n + c.j])}`, `sentences ${r.sentence[c.i]}, ${r.sentence[c.j]}`]);
    placeTip(tip, c.x, c.y, c.w);
  }

  drawAll() {
    if (!this.result) return;
    this.attGrid.draw();
    this.simGrid.draw();
    this.drawResidual();
    this.headPanel.draw();
    this.headDyn.draw();
    this.layersPanel.draw();
    this.repeatPanel.draw();
  }

  /** Shows layer `l` of the tokens through the layers, at once (nothing is recomputed), and writes
   * it in the link (view key hidden_layer; the core's canonical form, check_model_link). */
  showLayer(l) {
    this.layersPanel.show(l);
    if (!this.result || this.inflight || this.pending) return; // the analysis on its way keeps its link
    const checked = this.wasm.check_model_link(this.linkWith({ hidden: this.layersPanel.layer }));
    if (!checked.ok) return;
    this.canonical = checked.canonical;
    this.result.config = checked.canonical;
    this.result.hidden_layer = this.layersPanel.layer;
    this.ctx.linkChanged('replace');
  }

  /** Writes `link` in the address bar without a new analysis (a view or a run needing none),
   * as the core writes it (check_model_link); returns the check (`ok`, `canonical` or `message`). */
  writeLink(link, how) {
    const checked = this.wasm.check_model_link(link);
    if (!checked.ok || !this.result || this.inflight || this.pending) return checked;
    this.canonical = checked.canonical;
    this.result.config = checked.canonical;
    this.ctx.linkChanged(how);
    return checked;
  }

  /** Draws chart `id` with `fn(canvas, dpr, colours)`; its texts go to `data-labels`.
   * @param {string} id
   * @param {(c: HTMLCanvasElement, dpr: number, colours: Uint32Array) => ChartLayout} fn
   * @returns {ChartLayout|null} */
  chart(id, fn) {
    const c = /** @type {HTMLCanvasElement} */ ($(id));
    try {
      const { dpr } = fitCanvas(c);
      const drawn = fn(c, dpr, chartColours());
      setLabels(c, drawn);
      return drawn;
    } catch (e) {
      console.warn(e);
      return null;
    }
  }

  drawResidual() {
    const r = this.result;
    this.resLayout = this.chart('md-residual', (c, dpr, colours) => this.wasm.draw_model_residual(c, r.variants, r.layers, true, dpr, colours));
    // The statistics of the unmodified model (the depth lab's charts, drawn as its "transformer").
    this.chart('md-hist', (c, dpr, colours) => this.wasm.draw_model_histograms(c, r.statistics, dpr, colours));
    this.chart('md-same', (c, dpr, colours) => this.wasm.draw_model_same_sentence(c, r.statistics, r.layers, r.chance, dpr, colours));
  }
}
