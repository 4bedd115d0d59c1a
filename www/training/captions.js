// The training lab's description addition and panel captions. Every sentence is in CAPTIONS
// (`$name`: a value filled in), which tests/e2e/claims.json lists.

import { fmt } from '../ui/format.js';
import { fill, setMath } from '../ui/math.js';

/** The captions' sentences, by name. */
export const CAPTIONS = {
  textRun: ' Training on your text: M = $m tokens, K = $k classes (distinct query, next-word pairs).',
  heat: 'c_{l|n} ∝ p(l|n) e^{Z[m,l]} over the tokens l of class n, normalised: the attention query m = $q pays to token l in a context of class n (large-context limit). Rows: iterations (the state after i SGD steps), newest at the bottom; the view scrolls once there are more rows than fit. Columns: the tokens of each class of query $q$shown, its common tokens, then its distinct tokens ordered by co-occurrence weight p(l|n), largest first. Colour: viridis from 0 to the largest c so far. Dashed: the snap iteration. Hover for values.',
  heatFirst: ' (the first $shown of its $total classes)',
  heatSide: ' (its $count classes side by side)',
  chart: 'The model: the query token m attends to the context tokens x_{t} with b_{t} = softmax_{t}(Z[m, x_{t}]); f = Σ_{t} b_{t} onehot(x_{t}), f̃ = f/‖f‖, logits Y f̃, cross-entropy against the next token; Y and Z trained by SGD with momentum, η_{Y} = r η_{Z}. Loss: batch mean (nats); ln M is the loss of Y = Z = 0. Entropy: of c_{n} restricted to the class\'s distinct tokens (renormalised), averaged over classes; dashed: its value under uniform attention (Z = 0). Snap: the first iteration s from which max_{n,l} |Δc_{l|n}| per iteration stays below snap_tol = $tol to the end of the run (the core\'s snap criterion, after the attention has moved); while the run goes on, "so far" marks the first s followed by $window quiet iterations in a row. Hover for values.',
  sweep: 'Each cell trains the base configuration with that η_{Z} and r for every seed (seed, seed + 1, …) and records the final distinct-token entropy; cells run one per message in a Web Worker with its own wasm instance (core run_cell). Points: the mean over seeds; bars: ± one standard deviation (population); curves are offset sideways a little so bars do not overlap; dashed: the uniform-attention entropy (Z = 0). Snap column: mean snap iteration over the seeds that snapped. The paper: a larger η_{Z} gives sparser final attention (lower entropy); when one query serves two classes (preset scan-snap-sweep), a larger r = η_{Y}/η_{Z} freezes attention earlier (higher entropy).',
};

const $ = (id) => document.getElementById(id);

/** The description of `lab` (the wasm TrainingLab), with the text run's sizes when it has one. */
export function description(lab) {
  const desc = lab.description();
  return lab.is_text() ? desc + fill(CAPTIONS.textRun, { m: lab.m(), k: lab.k() }) : desc;
}

/** Writes the heatmap's and the chart's captions of `lab`; `q` is the query token's label. */
export function writeCaptions(lab, q) {
  const C = CAPTIONS;
  const layout = lab.heatmap_layout();
  const shown = layout.classes.length < layout.total_classes
    ? fill(C.heatFirst, { shown: layout.classes.length, total: layout.total_classes })
    : layout.classes.length > 1 ? fill(C.heatSide, { count: layout.classes.length }) : '';
  setMath($('tr-heat-caption'), fill(C.heat, { q, shown }));
  setMath($('tr-chart-caption'), fill(C.chart, { tol: fmt(lab.snap_tol()), window: lab.snap_window() }));
}

/** Writes the sweep's caption (static). */
export function writeSweepCaption() {
  setMath($('sw-caption'), CAPTIONS.sweep);
}
