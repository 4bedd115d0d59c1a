// The training lab (science.md §5, scan and snap): wires the wasm TrainingLab (crates/web) to
// its panels. Loaded by main.js (dynamic import) only when the lab is first shown.
//
// Data flow, as in the particle lab: URL hash / controls -> Draft -> check_lab_config ->
// TrainingLab -> views (c_n heatmap, chart). The run advances in requestAnimationFrame within a
// per-frame time budget while the lab is visible. The sweep runs in a Web Worker (sweep.js).

import { Draft } from '../state/draft.js';
import { writeLink } from '../lab/address_bar.js';
import { decodedValues, draftValues, editConfig } from '../state/lab_config.js';
import { Summary } from '../ui/summary.js';
import { RateMeter } from '../ui/rate.js';
import { chunkFor, updateCost } from '../ui/budget.js';
import { fmt } from '../ui/format.js';
import { placeTip, tipLines } from '../ui/tip.js';
import { showRefusal } from '../ui/config_error.js';
import { onThemeChange } from '../render/palette.js';
import { SPEEDS, TrainingControls } from './controls.js';
import { CnHeatmap } from './heatmap.js';
import { TrainingChart } from './chart.js';
import { SweepPanel } from './sweep.js';

const FRAME_BUDGET_MS = 10; // time spent training per animation frame (of ~16 ms)
const CHART_INTERVAL_MS = 150; // chart redraws while playing
/** The training lab's default configuration. */
export const DEFAULT_TRAINING = 'lab=training&preset=scan-snap';
const $ = (id) => document.getElementById(id);

/** The core's [key, value] pairs as a Map for the controls (its `text` value is percent-encoded). */
const valuesOf = (pairs) => decodedValues(pairs, ['text']);

/** @param {object} wasm the attn_web module, initialised */
export function createTrainingLab(wasm) {
  return new TrainingLabPage(wasm);
}

class TrainingLabPage {
  constructor(wasm) {
    this.wasm = wasm;
    this.lab = null;
    this.canonical = '';
    this.draft = new Draft();
    this.playing = false;
    this.userPaused = false; // configuration changes keep a paused run paused
    this.pastEnd = false; // the user asked to continue after `iterations`
    this.perFrame = 1;
    this.cost = NaN; // measured ms per iteration
    this.ips = new RateMeter(); // iterations per second over the last second
    this.visible = false;
    this.raf = 0;
    this.needs = { heat: true, chart: true };
    this.lastChartAt = -Infinity;
    this.heatHover = null;
    this.chartHover = null;

    this.controls = new TrainingControls({
      presets: wasm.training_presets(),
      onPreset: (name) => {
        const res = wasm.check_lab_config(`lab=training&preset=${name}`);
        if (res.ok) {
          this.apply(res);
          this.suggestSpeed();
        }
      },
      onEdit: (key, value, commit) => this.edit(key, value, commit),
      onPlay: () => this.togglePlay(),
      onStep: () => this.step(),
      onReset: () => this.reset(),
      onNewSeed: () => this.newSeed(),
      onSpeed: (k) => {
        this.perFrame = k;
      },
      onHalveEta: () => this.halveEta(),
    });
    this.controls.showSpeed(this.perFrame);
    this.heatmap = new CnHeatmap($('tr-heatmap'), (cell) => this.onHeatHover(cell));
    this.chart = new TrainingChart($('tr-chart'), (h) => this.onChartHover(h));
    this.sweep = new SweepPanel(wasm);
    this.summary = new Summary($('tr-summary'));

    const redraw = () => {
      if (!this.visible) return;
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
      playing: () => this.playing,
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
    this.visible = true;
    const link = this.wasm.check_link(text || DEFAULT_TRAINING);
    const config = link.ok && link.lab === 'training' ? link.canonical : text;
    if (!this.lab || config !== this.canonical) this.load(config || DEFAULT_TRAINING);
    else writeLink(this.canonical, 'replace');
    if (link.ok && link.lab === 'training') {
      if (link.view.speed !== null) {
        this.perFrame = link.view.speed;
        this.controls.showSpeed(link.view.speed);
      }
      if (link.open_step !== null) this.seekIteration(link.open_step);
    }
    this.markAll();
    this.sweep.draw();
    if (!this.raf) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /** Trains the current run to iteration `target` in slices of ~12 ms (the page keeps
   * responding) and leaves it paused there; stops when another run or Play takes over. */
  async seekIteration(target) {
    const lab = this.lab;
    this.userPaused = true;
    this.setPlaying(false);
    if (target < lab.iteration()) this.startRun(this.canonical);
    const run = this.lab;
    while (run === this.lab && !this.playing && run.iteration() < target && run.status() !== 'diverged') {
      const t0 = performance.now();
      while (run.iteration() < target && performance.now() - t0 < 12) {
        if (run.advance(Math.min(4, target - run.iteration())) === 0) break;
      }
      this.markAll();
      await new Promise((resolve) => {
        setTimeout(resolve, 0);
      });
    }
    if (run === this.lab) {
      if (run.status() === 'diverged') this.showDivergence(run.message());
      this.markAll();
      this.render(performance.now(), true);
    }
  }

  /** Stops drawing and training (the run and any sweep are kept). */
  hide() {
    this.visible = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  // ---- the run -------------------------------------------------------------------------

  startRun(canonical) {
    const lab = new this.wasm.TrainingLab(canonical);
    if (this.lab) this.lab.free();
    this.lab = lab;
    this.canonical = lab.config_string();
    this.pastEnd = false;
    this.cost = NaN;
    this.ips.clear();
    this.labels = lab.labels();
    this.heatmap.configure(lab.heatmap_layout(), this.labels);
    this.hideDivergence();
    this.setPlaying(!this.userPaused && lab.status() === 'running');
    this.refreshText();
    this.sweep.setBase(this.canonical);
    this.markAll();
    this.render(performance.now(), true);
  }

  markAll() {
    this.needs.heat = true;
    this.needs.chart = true;
  }

  frame(now) {
    this.raf = requestAnimationFrame((t) => this.frame(t));
    if (!this.lab || !this.visible) return;
    if (this.playing && this.runIterations(now) > 0) this.markAll();
    this.render(now, false);
  }

  /** Trains while playing, within the frame budget; returns the iterations taken. */
  runIterations(now) {
    const lab = this.lab;
    const target = this.perFrame;
    const t0 = performance.now();
    let taken = 0;
    while (taken < target) {
      const elapsed = performance.now() - t0;
      if (taken > 0 && elapsed >= FRAME_BUDGET_MS) break;
      const left = FRAME_BUDGET_MS - elapsed;
      const chunk = chunkFor(target - taken, left, this.cost);
      const c0 = performance.now();
      const got = this.pastEnd ? lab.advance_past_end(chunk) : lab.advance(chunk);
      if (got > 0) this.cost = updateCost(this.cost, (performance.now() - c0) / got);
      taken += got;
      if (got < chunk) break;
    }
    this.ips.record(now, taken);
    this.afterIterations();
    return taken;
  }

  /** Pauses at `iterations` or on divergence. */
  afterIterations() {
    const status = this.lab.status();
    if (status === 'diverged') {
      this.setPlaying(false);
      this.showDivergence(this.lab.message());
    } else if (status === 'finished' && !this.pastEnd) {
      this.setPlaying(false);
    }
  }

  setPlaying(on) {
    this.playing = on;
    this.controls.setPlaying(on);
    if (!on) this.ips.clear();
  }

  togglePlay() {
    const lab = this.lab;
    if (!lab) return;
    if (this.playing) {
      this.userPaused = true;
      this.setPlaying(false);
      this.render(performance.now(), true);
      return;
    }
    if (lab.status() === 'diverged') {
      this.showDivergence(lab.message());
      return;
    }
    if (lab.status() === 'finished') this.pastEnd = true;
    this.userPaused = false;
    this.setPlaying(true);
  }

  step() {
    const lab = this.lab;
    if (!lab) return;
    if (this.playing) {
      this.userPaused = true;
      this.setPlaying(false);
    }
    if (lab.status() === 'diverged') {
      this.showDivergence(lab.message());
      return;
    }
    const got = lab.status() === 'finished' ? lab.advance_past_end(1) : lab.advance(1);
    if (lab.status() === 'diverged') this.showDivergence(lab.message());
    if (got > 0) this.markAll();
    this.render(performance.now(), true);
  }

  reset() {
    if (this.lab) this.startRun(this.canonical);
  }

  /** A speed at which the run reaches `iterations` in about 3 s (set when a preset is opened). */
  suggestSpeed() {
    const target = Math.max(1, this.lab.iterations() / 180);
    const k = SPEEDS.filter((v) => v <= target).at(-1) ?? 1;
    this.perFrame = k;
    this.controls.showSpeed(k);
  }

  newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const res = this.wasm.check_lab_config(Draft.fromText(this.canonical).set('seed', String(seed)).text());
    if (res.ok) {
      this.userPaused = false;
      this.apply(res);
    }
  }

  halveEta() {
    const eta = this.lab.eta_z() / 2;
    const res = this.wasm.check_lab_config(Draft.fromText(this.canonical).set('eta_z', String(eta)).text());
    if (res.ok) {
      this.userPaused = false;
      this.apply(res, `eta_z halved to ${eta}.`);
    } else {
      this.showConfigError(res, 'The last valid run is kept.');
    }
  }

  // ---- configuration -------------------------------------------------------------------

  /** Every key's value to show for a draft that the core refused (preset values + the draft's). */
  effectiveValues(draft) {
    return draftValues(draft, (name) => this.wasm.training_preset_pairs(name), 'scan-snap', valuesOf);
  }

  /** Applies a valid check result: new run, canonical hash, controls. */
  apply(res, note = '') {
    this.startRun(res.canonical);
    if (this.visible) writeLink(res.canonical, 'replace');
    this.draft = Draft.fromText(res.canonical);
    this.clearConfigError();
    this.controls.showValues(valuesOf(res.pairs), null);
    $('tr-config-note').textContent = note;
  }

  /** Starts from a configuration string (the hash); falls back to its preset when refused. */
  load(text) {
    const res = this.wasm.check_lab_config(text);
    if (res.ok && res.lab === 'training') {
      this.apply(res);
      this.suggestSpeed();
      return;
    }
    const draft = Draft.fromText(text);
    this.draft = draft;
    const hadRun = Boolean(this.lab);
    if (!hadRun) {
      let fallback = this.wasm.check_lab_config(`lab=training&preset=${draft.get('preset') ?? 'scan-snap'}`);
      if (!fallback.ok) fallback = this.wasm.check_lab_config(DEFAULT_TRAINING);
      this.startRun(fallback.canonical);
      this.suggestSpeed();
    }
    this.showConfigError(res, hadRun
      ? 'The last valid run keeps going.'
      : `This link's configuration was refused; showing the ${this.lab.preset()} preset instead. Fix the value to apply it.`);
    this.controls.showValues(this.effectiveValues(draft), res.key);
  }

  /** A control changed `key`: validate the draft; apply it when committed and valid. */
  edit(key, value, commit) {
    editConfig(this, 'training', key, value, commit, 'The last valid run keeps going.', valuesOf);
  }

  showConfigError(res, tail) {
    showRefusal($('tr-config-error'), res, tail);
  }

  clearConfigError() {
    $('tr-config-error').replaceChildren();
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
    if (!lab || !this.visible) return;
    const settled = force || !this.playing;
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
    $('tr-ips').textContent = String(Math.round(this.ips.perSecond(now, this.playing)));
    const status = lab.status();
    const state = status === 'diverged' ? 'diverged (paused)'
      : this.playing ? (this.pastEnd ? 'playing past the last iteration' : 'playing')
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
