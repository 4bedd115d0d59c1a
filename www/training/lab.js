// The training lab (science.md §5, scan and snap): its interface to the page (lab/labs.js) and its
// page object, which wires the wasm TrainingLab (crates/web) to the controls, the run loop, the
// configuration and the panels (panels.js). Loaded by main.js (dynamic import) only when the lab
// is first shown.
//
// Data flow, as in the particle lab: link / fields -> Draft -> check_link (lab/config_page.js)
// -> TrainingLab -> views (c_n heatmap, chart). The run advances in animation frames within a
// per-frame time budget while the lab is visible (lab/run_loop.js). The sweep runs in a Web
// Worker (sweep.js).

import { ConfigPage, decodedValues, presetLinkOr } from '../lab/config_page.js';
import { Draft } from '../lab/draft.js';
import { pageLab } from '../lab/page_lab.js';
import { RunLoop } from '../lab/run_loop.js';
import { Summary } from '../ui/summary.js';
import { onThemeChange } from '../render/palette.js';
import { SPEEDS, TrainingControls } from './controls.js';
import { CnHeatmap } from './heatmap.js';
import { buildMarkup, citation, subtitle } from './markup.js';
import { writeSweepCaption } from './captions.js';
import { TrainingPanels } from './panels.js';
import { TrainingChart } from './chart.js';
import { SweepPanel } from './sweep.js';
import { setupTimeline } from './timeline.js';

const KEPT = 'The last valid run keeps going.';
const $ = (id) => document.getElementById(id);

/** The core's [key, value] pairs as a Map for the controls (its `text` value is percent-encoded). */
const valuesOf = (pairs) => decodedValues(pairs, ['text']);

/**
 * The training lab (lab/labs.js says what each member does).
 * @param {import('../lab/labs.js').LabContext} ctx
 */
export function createLab(ctx) {
  return pageLab(ctx, {
    lab: 'training',
    share: { prefix: 'tr-', what: 'training run' },
    panels: { heatmap: '.cn-panel', chart: '.tchart-panel', sweep: '.sweep-panel' },
    controls: {
      play: '#tr-play', step: '#tr-step', reset: '#tr-reset', seed: '#tr-new-seed',
      speed: '#tr-speed', preset: '#tr-preset',
      eta_z: '#tr-eta_z', ratio: '#tr-ratio', momentum: '#tr-momentum', iterations: '#tr-iterations',
    },
    subtitle,
    citation,
    buildMarkup,
    createPage: (c) => new TrainingLabPage(c),
  });
}

export class TrainingLabPage {
  /** @param {{ wasm: AttnPageWasm, defaultLink: string, linkChanged: (how: string|null) => void }} ctx */
  constructor(ctx) {
    const { wasm } = ctx;
    this.ctx = ctx;
    this.wasm = wasm;
    /** @type {TypedTrainingLab|null} the run shown */
    this.lab = null;
    this.canonical = '';
    this.needs = { heat: true, chart: true };
    /** @type {[string, string]|null} */
    this.moment = null; // ['step', k]: the timeline's committed position (or the link's step=)
    /** @type {import('../lab/timeline.js').Timeline|null} */
    this.timeline = null; // the scrubber (timeline.js sets it up)
    this.panels = new TrainingPanels(this); // the heatmap, chart, texts and tips (panels.js)
    writeSweepCaption();

    this.controls = new TrainingControls({
      presets: wasm.presets('training'),
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
      render: (now, force) => this.panels.render(now, force),
      diverged: (message) => this.panels.showDivergence(message),
      playing: (on) => this.controls.setPlaying(on),
      showSpeed: (k) => this.controls.showSpeed(k),
      speeds: SPEEDS,
      framesToEnd: 900, // a preset plays its `iterations` for about 15 s (scan-snap: 1000 at 1 per frame, still moving 10 s after opening)
      renderOnPause: true,
      renderOnStep: true,
      seekProgress: () => this.markAll(),
    });
    this.config = new ConfigPage({
      check: (text) => wasm.check_link(text, 'training'),
      keys: wasm.key_table('training'),
      presetPairs: (name) => wasm.preset_pairs('training', name),
      defaultPreset: 'scan-snap',
      defaultLink: ctx.defaultLink,
      fallbackLink: (draft) => presetLinkOr(wasm, 'training', draft.get('preset'), 'scan-snap'),
      valuesOf,
      controls: this.controls,
      sliders: ['eta_z', 'ratio'],
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
    this.heatmap = new CnHeatmap(/** @type {HTMLCanvasElement} */ ($('tr-heatmap')), (cell) => this.panels.onHeatHover(cell));
    this.chart = new TrainingChart(/** @type {HTMLCanvasElement} */ ($('tr-chart')), (h) => this.panels.onChartHover(h));
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

    setupTimeline(this);
    window.__attnTraining = Object.freeze({
      iteration: () => this.lab?.iteration() ?? -1,
      iterations: () => this.lab?.iterations() ?? -1,
      status: () => this.lab?.status() ?? 'none',
      playing: () => this.loop.playing,
      configString: () => this.lab?.config_string() ?? '',
      snap: () => this.lab?.snap() ?? -1,
      loss: () => this.lab?.last_loss() ?? null,
      entropy: () => this.lab?.entropy() ?? null,
      // What the panels draw: the entropy of every state so far, the loss of every iteration,
      // the heatmap's columns ({ columns, blocks: [{ kind, start, end }], ... }) and c at a state.
      entropies: () => Array.from(this.lab?.entropies() ?? []),
      losses: () => Array.from(this.lab?.loss() ?? []),
      heatmapLayout: () => this.lab?.heatmap_layout() ?? null,
      cAt: (state, column) => this.lab?.c_at(state, column) ?? NaN,
      chartLayout: () => this.chart.layout, // { x0, x1, start, end, plot, ... } (CSS px)
      heatmapColumn: () => this.heatmap.view?.colW ?? null, // CSS px of a token's column in c_n
      sweep: () => this.sweep.status(),
      wasm,
    });
  }

  // ---- showing -------------------------------------------------------------------------

  /**
   * Shows the lab with link `text` (a training configuration string, with view keys or not):
   * `speed=` sets the iterations per frame, `step=` trains to that iteration on load, in short
   * slices, and shows the run paused there. `checked`: the core's check of `text`
   * (check_link), when the caller has it.
   */
  show(text, checked) {
    this.loop.show();
    const link = text && checked ? checked : this.wasm.check_link(text || this.ctx.defaultLink);
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
      this.moment = link.open_step !== null ? ['step', String(link.open_step)] : null;
      if (link.open_step !== null) this.loop.seekTo(link.open_step);
    }
    this.markAll();
    this.sweep.draw();
  }

  /** Stops drawing and training (the run and any sweep are kept). */
  hide() {
    this.loop.hide();
  }

  /** The view pairs of the link: the iteration the timeline was moved to (`step=`), if any. */
  viewPairs() {
    return this.moment ? [this.moment] : [];
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
    this.furthest = 0; // the furthest iteration this run was trained to (the timeline's end)
    this.canonical = lab.config_string();
    this.labels = lab.labels();
    this.heatmap.configure(lab.heatmap_layout(), this.labels);
    this.panels.hideDivergence();
    this.loop.started();
    this.panels.refreshText();
    this.sweep.setBase(this.canonical);
    this.markAll();
    this.panels.render(performance.now(), true);
  }

  markAll() {
    this.needs.heat = true;
    this.needs.chart = true;
  }

  reset() {
    this.loop.reset();
  }

  /** A refused link: the configuration page says why (the last run keeps going). */
  refuse(res, tail) {
    this.config.refuse(res, tail);
  }

  /** A speed at which the run reaches `iterations` in about 15 s, at least 1 per frame (set when a preset is opened). */
  suggestSpeed() {
    this.loop.suggestSpeed(this.lab.iterations());
  }

  // ---- configuration -------------------------------------------------------------------

  /** Applies a valid check result: new run, the address bar, the fields. */
  apply(res, note = '', how = 'push') {
    this.moment = null;
    this.startRun(res.canonical);
    if (how) this.linkChanged(how);
    this.config.show(res);
    $('tr-config-note').textContent = note;
  }

  pickPreset(name) {
    const res = this.wasm.check_link(this.wasm.preset_link('training', name), 'training');
    if (res.ok) {
      this.apply(res);
      this.suggestSpeed();
    }
  }

  newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const res = this.wasm.check_link(Draft.fromText(this.canonical).set('seed', String(seed)).text(), 'training');
    if (res.ok) {
      this.loop.userPaused = false;
      this.apply(res);
    }
  }

  halveEta() {
    const eta = this.lab.eta_z() / 2;
    const res = this.wasm.check_link(Draft.fromText(this.canonical).set('eta_z', String(eta)).text(), 'training');
    if (res.ok) {
      this.loop.userPaused = false;
      this.apply(res, `eta_z halved to ${eta}.`);
    } else {
      this.config.refuse(res, KEPT);
    }
  }
}

