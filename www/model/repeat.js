// The model lab's "A layer repeated" panel (science.md §7.4): one trained layer applied again and
// again to the text's tokens, the weights constant (as ALBERT shares its layers), repetition 0
// being h_{L−1} of the unmodified model. Its controls (layer, repetitions, variant, Run) write the
// link's keys repeat_layer, iterations and variant; a link with them reopens the same run. The
// worker (workers/model.js 'repeat') runs the repetitions in chunks, reporting progress, then
// sends ModelLab.repeat_view: the same arrays as the tokens through the layers, one state per
// repetition, on one PCA fitted over every repetition's tokens; layers.js draws them (the same
// component as the layers panel, here over repetitions), with play/pause over the repetitions.
// A non-finite state stops the run: the core's message, naming the repetition and what
// overflowed, is shown in the panel (the numbers before it are kept).

import { h } from '../ui/dom.js';
import { joinPairs, valueOf } from '../lab/pairs.js';
import { LayersPanel, layersPanel } from './layers.js';
import { RepeatHeads, repeatHeadsMarkup } from './repeat_heads.js';
import { Timeline } from '../lab/timeline.js';

const $ = (id) => document.getElementById(id);

/** The layer the panel offers first: on the default text, [CLS] parts from the rest there. */
const FIRST_LAYER = 3;
const PLAY_MS = 80; // per repetition while playing

/** How the shared panel (layers.js) names the repetitions. */
export const REPEAT = {
  prefix: 'md-repeat',
  timeline: true, // scrubbed with the labs' shared timeline (lab/timeline.js)
  title: 'A layer repeated',
  step: 'repetition',
  name: (t) => `t=${t}`,
  long: (t) => `repetition ${t}${t === 0 ? ' (the layer\'s input)' : ''}`,
  tokensLabel: 'The tokens after the repetition shown, on the PCA axes of every repetition, with trails from repetition 0; arrow keys change the repetition, hover names a token',
  histLabel: 'Histograms of the pairwise cosines over the repetitions, one row per repetition, the repetition shown highlighted',
  caption: ['Layer L applied again and again with its trained weights (every bias, the trained LayerNorms, in f32): repetition 0 is h_{L−1}, ',
    'the input of layer L in the unmodified model. One PCA of every repetition\'s tokens stacked. Clusters: tokens linked when 1 − cos ≤ cos_tol ',
    '(grey: a token alone); colour by cluster to watch [CLS] part from the rest. The same numbers as attn encode --repeat.'],
};

/** The panel's markup (markup.js places it); `wasm`: the lab's module, whose table names key
 * `variant`'s choices ([name, text] pairs, the unmodified layer first). */
export function repeatPanel(wasm) {
  const variantChoices = /** @type {[string, string][]} */ (wasm.model_variant_choices());
  const controls = h('div.md-repeat-controls', {},
    h('label', { for: 'md-repeat-layer' }, 'layer '),
    h('select#md-repeat-layer', {}, ...[1, 2, 3, 4, 5, 6].map((l) => h('option', { value: String(l), ...(l === FIRST_LAYER ? { selected: true } : {}) }, String(l)))),
    h('label', { for: 'md-repeat-iterations' }, 'repetitions '),
    h('input#md-repeat-iterations', { type: 'number', min: '1', max: '1000', step: '1', value: '100', inputmode: 'numeric' }),
    h('label', { for: 'md-repeat-variant' }, 'variant '),
    // §6.3's variants under the names the link and `attn encode --variant` read (the core's
    // table; the model lab's module is running before its markup is built).
    h('select#md-repeat-variant', {}, ...variantChoices.map(([v, label]) => h('option', { value: v }, label))),
    h('button#md-repeat-run', { type: 'button' }, 'Run'),
    h('button#md-repeat-play', { type: 'button', 'aria-pressed': 'false', disabled: true }, 'Play'),
    h('button#md-repeat-step', { type: 'button', disabled: true, title: 'Show the next repetition' }, 'Step'),
    h('progress#md-repeat-progress', { max: '1', value: '0', hidden: true }));
  const status = h('p#md-repeat-status.md-repeat-status', { role: 'status', 'aria-live': 'polite' },
    'Choose a layer and press Run: the layer is applied again and again to the text\'s tokens.');
  return layersPanel(REPEAT, [controls, status], [repeatHeadsMarkup()]);
}

export class RepeatPanel {
  /** `lab`: the model lab's page (lab.js): its worker, `linkWith`, `writeLink`. */
  constructor(lab) {
    this.lab = lab;
    this.panel = new LayersPanel((t) => this.seek(t), REPEAT);
    this.heads = new RepeatHeads((t, head) => this.lab.worker.postMessage({ kind: 'repeat-attention', id: this.job, t, head }));
    /** @type {HTMLSelectElement} */ ($('md-repeat-colour')).value = 'clusters';
    this.keys = { layer: 0, iterations: 100, variant: 'transformer' }; // the link's
    this.runKey = null; // what the run shown (or on its way) is of
    this.job = 0;
    /** @type {ModelRepeatView|null} */
    this.view = null; // ModelLab.repeat_view's arrays
    this.timer = null;
    this.wantStep = null; // the link's step=, shown when its run arrives
    // The shared timeline over the repetitions: dragging shows each, letting go (or a key)
    // writes it in the link; Replay plays from repetition 0.
    this.timeline = new Timeline(/** @type {HTMLElement} */ ($('md-repeat-timeline')), {
      id: 'md-repeat',
      label: 'Repetition shown',
      states: () => (this.view ? { step: this.panel.layer, end: this.view.states - 1 } : null),
      seekTo: (t) => {
        this.pause(false);
        this.show(t);
        return Promise.resolve(this.panel.layer);
      },
      text: (t) => REPEAT.long(t),
      commit: () => this.writeStep(),
      replay: () => {
        if (!this.view) return;
        this.show(0);
        this.play();
      },
    });
    $('md-repeat-run').addEventListener('click', () => this.runClicked());
    $('md-repeat-play').addEventListener('click', () => this.togglePlay());
    $('md-repeat-step').addEventListener('click', () => {
      this.pause(false);
      if (this.view && this.panel.layer < this.view.states - 1) this.seek(this.panel.layer + 1);
    });
  }

  /** The model's layers: the layer menu offers 1..=layers. */
  setLayers(layers) {
    const sel = /** @type {HTMLSelectElement} */ ($('md-repeat-layer'));
    const keep = Number(sel.value) || FIRST_LAYER;
    sel.replaceChildren(...Array.from({ length: layers }, (_, i) => h('option', { value: String(i + 1) }, String(i + 1))));
    sel.value = String(Math.min(keep, layers));
  }

  /**
   * The link's pairs (`repeat_layer=0`: no run), for lab.js's linkWith; with `keepStep`, the
   * shown run's repetition as view key `step` (a new run, `keys` given, starts without one).
   * @returns {Array<[string, string|number]>}
   */
  linkPairs(keys = this.keys, keepStep = true) {
    const step = keepStep && keys === this.keys && keys.layer > 0 ? this.shownStep() : null;
    /** @type {Array<[string, string|number]>} */
    const pairs = [['repeat_layer', keys.layer], ['iterations', keys.iterations], ['variant', keys.variant]];
    return step === null ? pairs : [...pairs, ['step', step]];
  }

  /** The repetition the link names (null: the last): the link's, or the one the reader chose. */
  shownStep() {
    return this.wantStep;
  }

  /** An accepted analysis (`config`, its canonical link): the link's run is started unless it is
   * the one shown or on its way. */
  accepted(config) {
    const keys = {
      layer: Number(valueOf(config, 'repeat_layer') ?? 0),
      iterations: Number(valueOf(config, 'iterations') ?? 100),
      variant: valueOf(config, 'variant') ?? 'transformer',
    };
    this.keys = keys;
    const step = valueOf(config, 'step');
    this.wantStep = step === null ? null : Number(step);
    if (keys.layer > 0) {
      /** @type {HTMLSelectElement} */ ($('md-repeat-layer')).value = String(keys.layer);
      /** @type {HTMLInputElement} */ ($('md-repeat-iterations')).value = String(keys.iterations);
      /** @type {HTMLSelectElement} */ ($('md-repeat-variant')).value = keys.variant;
    }
    const key = keys.layer > 0 ? `${valueOf(config, 'text')}|${valueOf(config, 'cos_tol')}|${joinPairs(this.linkPairs(keys))}` : null;
    if (key === this.runKey) {
      if (this.view && this.wantStep !== null && this.wantStep !== this.panel.layer) this.show(Math.min(this.wantStep, this.view.states - 1));
      return;
    }
    this.runKey = key;
    if (key) this.start(keys);
    else this.clear();
  }

  /** Run: the controls' run, written in the link (the core checks it, naming a bad key). */
  runClicked() {
    const keys = {
      layer: Number(/** @type {HTMLSelectElement} */ ($('md-repeat-layer')).value),
      iterations: Number(/** @type {HTMLInputElement} */ ($('md-repeat-iterations')).value),
      variant: /** @type {HTMLSelectElement} */ ($('md-repeat-variant')).value,
    };
    const checked = this.lab.writeLink(this.lab.linkWith({ repeat: keys }), 'push');
    if (!checked.ok) {
      this.status(`${checked.message ?? 'refused'}`, true);
      return;
    }
    if (checked.canonical) this.accepted(checked.canonical);
  }

  /** Asks the worker for the run `keys`. */
  start(keys) {
    this.pause(false);
    this.job += 1;
    this.view = null;
    const p = /** @type {HTMLProgressElement} */ ($('md-repeat-progress'));
    p.max = keys.iterations;
    p.value = 0;
    p.hidden = false;
    /** @type {HTMLButtonElement} */ ($('md-repeat-play')).disabled = true;
    /** @type {HTMLButtonElement} */ ($('md-repeat-step')).disabled = true;
    this.status(`repeating layer ${keys.layer} (${keys.variant}) ${keys.iterations} times…`);
    this.lab.worker.postMessage({ kind: 'repeat', id: this.job, layer: keys.layer, iterations: keys.iterations, variant: keys.variant });
  }

  /** No run in the link. */
  clear() {
    this.pause(false);
    this.job += 1;
    $('md-repeat-progress').hidden = true;
    /** @type {HTMLButtonElement} */ ($('md-repeat-play')).disabled = true;
    /** @type {HTMLButtonElement} */ ($('md-repeat-step')).disabled = true;
  }

  /** The worker's 'repeat', 'repeat-progress' and 'repeat-error' messages; true when handled. */
  onMessage(m) {
    if (!String(m.kind).startsWith('repeat')) return false;
    if (m.id !== this.job) return true; // an older run's
    if (m.kind === 'repeat-progress') /** @type {HTMLProgressElement} */ ($('md-repeat-progress')).value = m.done;
    else if (m.kind === 'repeat-attention') this.heads.attention(m.t, m.head, m.p);
    else if (m.kind === 'repeat-error') {
      $('md-repeat-progress').hidden = true;
      this.status(m.error, true);
    } else this.set(m.view, m.ms);
    return true;
  }

  /** A finished run: drawn at the link's repetition (step=), else at its last.
   * @param {ModelRepeatView} view */
  set(view, ms) {
    this.view = view;
    $('md-repeat-progress').hidden = true;
    /** @type {HTMLButtonElement} */ ($('md-repeat-play')).disabled = view.states < 2;
    /** @type {HTMLButtonElement} */ ($('md-repeat-step')).disabled = view.states < 2;
    this.heads.set(view, this.lab.result, this.lab.result?.head);
    const shown = this.wantStep === null ? view.states - 1 : Math.min(this.wantStep, view.states - 1);
    this.panel.set(view, this.lab.result, shown);
    this.heads.show(this.panel.layer);
    this.timeline.sync();
    const last = view.states - 1;
    const said = `layer ${view.layer} (${view.variant}) repeated ${view.done} times in ${Math.round(ms)} ms: ${view.clusters[last]} cluster${view.clusters[last] === 1 ? '' : 's'} at repetition ${last}.`;
    if (view.stopped) this.status(`Stopped at repetition ${view.stopped.iteration}: ${view.stopped.what}. Repetitions 0–${last} are shown.`, true);
    else this.status(said);
  }

  status(text, bad = false) {
    const s = $('md-repeat-status');
    s.textContent = text;
    s.classList.toggle('stopped', bad);
    s.setAttribute('role', bad ? 'alert' : 'status');
  }

  show(t) {
    this.panel.show(t);
    this.heads.show(this.panel.layer);
    this.timeline.sync();
  }

  /** Shows repetition `t` chosen by the reader (scrubber, keys, Step) and writes it in the link
   * (view key step). */
  seek(t) {
    this.show(t);
    this.writeStep();
  }

  /** The repetition shown, in the address bar (replacing the entry: a position, not a new run). */
  writeStep() {
    if (!this.view) return;
    this.wantStep = this.panel.layer;
    this.lab.writeLink(this.lab.linkWith({}), 'replace');
  }

  togglePlay() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.view) return;
    const last = this.view.states - 1;
    if (this.panel.layer >= last) this.show(0);
    $('md-repeat-play').textContent = 'Pause';
    $('md-repeat-play').setAttribute('aria-pressed', 'true');
    this.timer = setInterval(() => {
      if (!this.view || this.panel.layer >= this.view.states - 1) return this.pause();
      this.show(this.panel.layer + 1);
    }, PLAY_MS);
  }

  /** Stops playing; with `write`, the repetition it stopped at goes in the link. */
  pause(write = true) {
    const was = this.timer !== null;
    clearInterval(this.timer);
    this.timer = null;
    if (was && write) this.writeStep(); // the repetition the playing stopped at
    $('md-repeat-play').textContent = 'Play';
    $('md-repeat-play').setAttribute('aria-pressed', 'false');
  }

  draw() {
    if (!this.view) return;
    this.panel.draw();
    this.heads.draw();
  }
}
