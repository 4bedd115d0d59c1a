// The training lab (science.md §5, scan and snap): wires the wasm TrainingLab (crates/web) to
// its panels. Loaded by main.js (dynamic import) only when the lab is first shown.
//
// Data flow, as in the particle lab: link / fields -> Draft -> check_lab_config (lab/config_page.js)
// -> TrainingLab -> views (c_n heatmap, chart). The run advances in animation frames within a
// per-frame time budget while the lab is visible (lab/run_loop.js). The sweep runs in a Web
// Worker (sweep.js).

import { ConfigPage, decodedValues } from '../lab/config_page.js';
import { Draft } from '../lab/draft.js';
import { presetOf } from '../lab/pairs.js';
import { RunLoop } from '../lab/run_loop.js';
import { Summary } from '../ui/summary.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { onThemeChange } from '../render/palette.js';
import { SPEEDS, TrainingControls } from './controls.js';
import { CnHeatmap } from './heatmap.js';
import { buildMarkup, citation, subtitle } from './markup.js';
import { TrainingChart } from './chart.js';
import { SweepPanel } from './sweep.js';

const CHART_INTERVAL_MS = 150; // chart redraws while playing
const KEPT = 'The last valid run keeps going.';
const $ = (id) => document.getElementById(id);

/** The core's [key, value] pairs as a Map for the controls (its `text` value is percent-encoded). */
const valuesOf = (pairs) => decodedValues(pairs, ['text']);

/** The training lab (lab/labs.js says what each member does). */
export function createLab(ctx) {
  let page = null;
  const lab = {
    id: ctx.id,
    title: ctx.title,
    defaultLink: ctx.defaultLink,
    root: null,
    panels: { heatmap: '.cn-panel', chart: '.tchart-panel', sweep: '.sweep-panel' },
    controls: {
      play: '#tr-play', step: '#tr-step', reset: '#tr-reset', seed: '#tr-new-seed',
      speed: '#tr-speed', preset: '#tr-preset',
      eta_z: '#tr-eta_z', ratio: '#tr-ratio', momentum: '#tr-momentum', iterations: '#tr-iterations',
    },
    pageViewInLink: false,
    pausesOffscreen: false,
    subtitle,
    citation,
    mount(root) {
      lab.root = root;
      buildMarkup(root);
      page = new TrainingLabPage(ctx);
    },
    show: (text) => page.show(text),
    hide: () => page.hide(),
    canonical: () => page.canonical,
    viewPairs: () => [],
    play: () => page.loop.play(),
    pause: () => page.loop.pause(),
    togglePlay: () => page.loop.togglePlay(),
    step: () => page.loop.step(),
    reset: () => page.reset(),
    seekTo: (step) => page.loop.seekTo(step),
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

class TrainingLabPage {
  /** @param {{ wasm: object, defaultLink: string, linkChanged: (how: string|null) => void }} ctx */
  constructor(ctx) {
    const { wasm } = ctx;
    this.ctx = ctx;
    this.wasm = wasm;
    this.lab = null;
    this.canonical = '';
    this.needs = { heat: true, chart: true };
    this.lastChartAt = -Infinity;
    this.heatHover = null;
    this.chartHover = null;

    this.controls = new TrainingControls({
      presets: wasm.training_presets(),
      onPreset: (name) => this.pickPreset(name),
      onEdit: (key, value, commit) => this.config.edit(key, value, commit),
      onPlay: () => this.loop.togglePlay(),
      onStep: () => this.loop.step(),
      onReset: () => this.reset(),
      onNewSeed: () => this.newSeed(),
      onSpeed: (k) => this.loop.setSpeed(k),
      onHalveEta: () => this.halveEta(),
    });
    this.loop = new RunLoop({
      run: () => this.lab,
      count: (lab) => lab.iteration(),
      advance: (lab, k, pastEnd) => (pastEnd ? lab.advance_past_end(k) : lab.advance(k)),
      restart: () => this.startRun(this.canonical),
      changed: () => this.markAll(),
      render: (now, force) => this.render(now, force),
      diverged: (message) => this.showDivergence(message),
      playing: (on) => this.controls.setPlaying(on),
      showSpeed: (k) => this.controls.showSpeed(k),
      speeds: SPEEDS,
      framesToEnd: 180, // a preset reaches its `iterations` in about 3 s
      renderOnPause: true,
      renderOnStep: true,
      seekProgress: () => this.markAll(),
    });
    this.config = new ConfigPage({
      check: (text) => wasm.check_lab_config(text),
      presetPairs: (name) => wasm.training_preset_pairs(name),
      defaultPreset: 'scan-snap',
      defaultLink: ctx.defaultLink,
      fallbackLink: (draft) => `lab=training&preset=${draft.get('preset') ?? 'scan-snap'}`,
      valuesOf,
      controls: this.controls,
      errorBox: $('tr-config-error'),
      current: () => this.canonical,
      apply: (res, note, how) => this.apply(res, note, how),
      startFallback: (res) => {
        this.startRun(res.canonical);
        this.suggestSpeed();
      },
      keptTail: KEPT,
      adjust: (draft) => {
        draft.set('lab', 'training');
        return '';
      },
    });
    this.controls.showSpeed(this.loop.perFrame);
    this.heatmap = new CnHeatmap($('tr-heatmap'), (cell) => this.onHeatHover(cell));
    this.chart = new TrainingChart($('tr-chart'), (h) => this.onChartHover(h));
    this.sweep = new SweepPanel(wasm);
    this.summary = new Summary($('tr-summary'));

    const redraw = () => {
      if (!this.loop.visible) return;
      this.needs.heat = true;
      this.needs.chart = true;
      this.sweep.draw();
    };
    onThemeChange(redraw);
    const ro = new ResizeObserver(redraw);
    for (const id of ['tr-heatmap', 'tr-chart', 'sw-chart']) ro.observe($(id));

    window.__attnTraining = Object.freeze({
      iteration: () => this.lab?.iteration() ?? -1,
      iterations: () => this.lab?.iterations() ?? -1,
      status: () => this.lab?.status() ?? 'none',
      playing: () => this.loop.playing,
      configString: () => this.lab?.config_string() ?? '',
      snap: () => this.lab?.snap() ?? -1,
      sweep: () => this.sweep.status(),
      wasm,
    });
  }

  // ---- showing -------------------------------------------------------------------------

  /**
   * Shows the lab with link `text` (a training configuration string, with view keys or not):
   * `speed=` sets the iterations per frame, `step=` trains to that iteration on load, in short
   * slices, and shows the run paused there.
   */
  show(text) {
    this.loop.show();
    const link = this.wasm.check_link(text || this.ctx.defaultLink);
    const config = link.ok && link.lab === 'training' ? link.canonical : text;
    if (!this.lab || config !== this.canonical) {
      if (this.config.load(config || this.ctx.defaultLink)) this.suggestSpeed();
    } else {
      this.linkChanged('replace');
    }
    if (link.ok && link.lab === 'training') {
      if (link.view.speed !== null) {
        this.loop.setSpeed(link.view.speed);
        this.controls.showSpeed(link.view.speed);
      }
      if (link.open_step !== null) this.loop.seekTo(link.open_step);
    }
    this.markAll();
    this.sweep.draw();
  }

  /** Stops drawing and training (the run and any sweep are kept). */
  hide() {
    this.loop.hide();
  }

  /** The address bar follows the run (the page writes it while the lab is shown): a committed
   * change is a history entry ('push'), loading a link replaces it. */
  linkChanged(how) {
    this.ctx.linkChanged(how);
  }

  // ---- the run -------------------------------------------------------------------------

  startRun(canonical) {
    const lab = new this.wasm.TrainingLab(canonical);
    if (this.lab) this.lab.free();
    this.lab = lab;
    this.canonical = lab.config_string();
    this.labels = lab.labels();
    this.heatmap.configure(lab.heatmap_layout(), this.labels);
    this.hideDivergence();
    this.loop.started();
    this.refreshText();
    this.sweep.setBase(this.canonical);
    this.markAll();
    this.render(performance.now(), true);
  }

  markAll() {
    this.needs.heat = true;
    this.needs.chart = true;
  }

  reset() {
    if (this.lab) this.startRun(this.canonical);
  }

  /** A speed at which the run reaches `iterations` in about 3 s (set when a preset is opened). */
  suggestSpeed() {
    this.loop.suggestSpeed(this.lab.iterations());
  }

  // ---- configuration -------------------------------------------------------------------

  /** Applies a valid check result: new run, the address bar, the fields. */
  apply(res, note = '', how = 'push') {
    this.startRun(res.canonical);
    if (how) this.linkChanged(how);
    this.config.show(res);
    $('tr-config-note').textContent = note;
  }

  pickPreset(name) {
    const res = this.wasm.check_lab_config(`lab=training&preset=${name}`);
    if (res.ok) {
      this.apply(res);
      this.suggestSpeed();
    }
  }

  newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const res = this.wasm.check_lab_config(Draft.fromText(this.canonical).set('seed', String(seed)).text());
    if (res.ok) {
      this.loop.userPaused = false;
      this.apply(res);
    }
  }

  halveEta() {
    const eta = this.lab.eta_z() / 2;
    const res = this.wasm.check_lab_config(Draft.fromText(this.canonical).set('eta_z', String(eta)).text());
    if (res.ok) {
      this.loop.userPaused = false;
      this.apply(res, `eta_z halved to ${eta}.`);
    } else {
      this.config.refuse(res, KEPT);
    }
  }

  showDivergence(message) {
    $('tr-divergence-message').textContent = message;
    const eta = this.lab.eta_z();
    $('tr-halve-eta').textContent = `Halve eta_z (${eta} → ${eta / 2}) and restart`;
    $('tr-divergence').hidden = false;
  }

  hideDivergence() {
    $('tr-divergence').hidden = true;
    $('tr-divergence-message').textContent = '';
  }

  // ---- rendering -----------------------------------------------------------------------

  render(now, force) {
    const lab = this.lab;
    if (!lab || !this.loop.visible) return;
    const settled = force || !this.loop.playing;
    if (this.needs.heat) {
      this.heatmap.update(lab);
      $('tr-heat-max').textContent = `max c = ${fmt(lab.heatmap_scale())}`;
      this.needs.heat = false;
      if (this.heatHover) this.showHeatTip(this.heatHover);
    }
    if (this.needs.chart && (settled || now - this.lastChartAt >= CHART_INTERVAL_MS)) {
      try {
        this.chart.draw(lab);
      } catch (e) {
        console.warn(e);
      }
      this.lastChartAt = now;
      this.needs.chart = false;
      if (this.chartHover) this.showChartTip(this.chartHover);
    }
    this.updateStatus(now);
  }

  updateStatus(now) {
    const lab = this.lab;
    const it = lab.iteration();
    $('tr-iteration').textContent = `${it} / ${lab.iterations()}`;
    $('tr-loss').textContent = fmt(lab.last_loss());
    $('tr-entropy').textContent = `${fmt(lab.entropy())} nats`;
    const snap = lab.snap();
    const snapText = snap < 0 ? '–' : `iteration ${snap}${lab.snap_is_final() ? '' : ' (so far)'}`;
    $('tr-snap').textContent = snapText;
    $('tr-ips').textContent = String(Math.round(this.loop.rate.perSecond(now, this.loop.playing)));
    const status = lab.status();
    const state = status === 'diverged' ? 'diverged (paused)'
      : this.loop.playing ? (this.loop.pastEnd ? 'playing past the last iteration' : 'playing')
      : status === 'finished' ? 'finished'
      : 'paused';
    $('tr-state').textContent = state;
    this.summary.offer(`${lab.preset()}: iteration ${it} of ${lab.iterations()}, ${state}. Loss ${fmt(lab.last_loss())} nats, distinct-token entropy ${fmt(lab.entropy())} nats (uniform attention ${fmt(lab.uniform_entropy())}), snap ${snapText}.`);
  }

  /** Description and the captions with the equations the panels show. */
  refreshText() {
    const lab = this.lab;
    let desc = lab.description();
    if (lab.is_text()) desc += ` Training on your text: M = ${lab.m()} tokens, K = ${lab.k()} classes (distinct query, next-word pairs).`;
    $('tr-description').textContent = desc;
    const layout = lab.heatmap_layout();
    const q = this.labels[lab.query_token()] ?? String(lab.query_token());
    const shown = layout.classes.length < layout.total_classes
      ? ` (the first ${layout.classes.length} of its ${layout.total_classes} classes)`
      : layout.classes.length > 1 ? ` (its ${layout.classes.length} classes side by side)` : '';
    $('tr-heat-caption').textContent = `c_{l|n} ∝ p(l|n) e^{Z[m,l]} over the tokens l of class n, normalised: the attention query m = ${q} pays to token l in a context of class n (large-context limit). Rows: iterations (the state after i SGD steps), newest at the bottom; the view scrolls once there are more rows than fit. Columns: the tokens of each class of query ${q}${shown}, its common tokens, then its distinct tokens ordered by co-occurrence weight p(l|n), largest first. Colour: viridis from 0 to the largest c so far. Dashed: the snap iteration. Hover for values.`;
    const tol = lab.snap_tol();
    $('tr-chart-caption').textContent = `The model: the query token m attends to the context tokens x_t with b_t = softmax_t(Z[m, x_t]); f = Σ_t b_t onehot(x_t), f~ = f/||f||, logits Y f~, cross-entropy against the next token; Y and Z trained by SGD with momentum, η_Y = r η_Z. Loss: batch mean (nats); ln M is the loss of Y = Z = 0. Entropy: of c_n restricted to the class's distinct tokens (renormalised), averaged over classes; dashed: its value under uniform attention (Z = 0). Snap: the first iteration s from which max_{n,l} |Δc_{l|n}| per iteration stays below snap_tol = ${fmt(tol)} to the end of the run (the core's snap criterion, after the attention has moved); while the run goes on, "so far" marks the first s followed by ${lab.snap_window()} quiet iterations in a row. Hover for values.`;
  }

  // ---- hover ---------------------------------------------------------------------------

  showHeatTip(cell) {
    const tip = $('tr-heat-tip');
    if (!cell || !this.lab) {
      tip.hidden = true;
      return;
    }
    const c = this.lab.c_at(cell.iteration, cell.column);
    tipLines(tip, [
      `iteration ${cell.iteration}`,
      `token ${cell.label} (${cell.kind}, class ${cell.classLabel})`,
      `p(l|n) = ${fmt(cell.p)}`,
      `c = ${String(c)}`,
    ]);
    placeTip(tip, cell.x, cell.y, cell.w);
  }

  onHeatHover(cell) {
    this.heatHover = cell;
    this.showHeatTip(cell);
  }

  showChartTip(h) {
    const tip = $('tr-chart-tip');
    const cursor = $('tr-chart-cursor');
    if (!h || !this.lab) {
      tip.hidden = true;
      cursor.hidden = true;
      return;
    }
    const s = this.lab.sample(h.iteration);
    const x = this.chart.xOf(s.iteration);
    if (x !== null) {
      cursor.style.left = `${x}px`;
      cursor.hidden = false;
    }
    tipLines(tip, [
      `iteration ${s.iteration}`,
      `loss: ${s.loss === null ? 'not yet' : fmt(s.loss)}`,
      `entropy: ${s.entropy === null ? 'not yet' : fmt(s.entropy)}`,
      `max |Δc|: ${s.max_dc === null ? 'not yet' : fmt(s.max_dc)}`,
    ]);
    placeTip(tip, h.x, h.y, h.w);
  }

  onChartHover(h) {
    this.chartHover = h;
    this.showChartTip(h);
  }
}
