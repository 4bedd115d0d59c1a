// The model lab's markup, built with DOM calls (ui/dom.js): the status area (model download
// progress, errors), the text panel, the token strip, the attention and context-similarity grids
// with the chosen head enlarged, the rank-collapse chart of Dong et al.'s four variants, the tokens
// through the layers (layers.js builds its panel), and the
// context-similarity statistics (distances and same-sentence share of each layer's high pairs).

import { CAPTIONS } from './captions.js';
import { h } from '../ui/dom.js';
import { headPanel } from './head_panel.js';
import { headDynamicsPanel } from './head_dynamics.js';
import { TEXTS } from './texts.js';
import { layersPanel } from './layers.js';
import { repeatPanel } from './repeat.js';

function statusArea() {
  return h('section.status-area', { 'aria-label': 'Model lab status' },
    h('p.status-line', {},
      h('span.stat', {}, h('span.stat-label', {}, 'model'), ' ', h('output#md-model', {}, '—')),
      h('span.stat', {}, h('output#md-state.state', {}, 'loading')),
      h('span.stat.progress-row', {}, h('progress#md-progress', { max: '1', value: '0', 'aria-label': 'Model download' })),
      h('span.stat', {}, h('output#md-file', {}, '')),
    ),
    h('div#md-error.alert', { role: 'alert' }),
  );
}

function textPanel() {
  return h('section.panel.md-text-panel', { 'aria-labelledby': 'md-text-heading' },
    h('h2#md-text-heading', {}, 'Text'),
    h('div.field', {}, h('label', { for: 'md-example' }, 'Example'),
      h('select#md-example', {}, ...TEXTS.map(([v, t]) => h('option', { value: v }, t)), h('option', { value: '' }, 'your own'))),
    h('div.field', {},
      h('label', { for: 'md-text' }, 'text ', h('span.muted', {}, '(one segment [CLS] … [SEP])')),
      h('textarea#md-text', { rows: '5', spellcheck: 'false' }),
    ),
    h('div.buttons', {}, h('button#md-run.play', { type: 'button', title: 'Analyse the text (Ctrl+Enter)' }, 'Analyse')),
    h('p.hint', {}, 'The model runs in a background worker: the unmodified encoder keeps every head, then the three variants of Dong et al.\'s surgery give their residual curves.'),
  );
}

function gridPanel() {
  const box = (id, label) => h(`div.canvas-box.md-${id}-box`, {},
    h(`canvas#md-${id}`, { role: 'img', 'aria-label': label }), h(`div#md-${id}-tip.tip`, { hidden: true }));
  return h('section.panel.md-wide', { 'aria-labelledby': 'md-grid-heading' },
    h('h2#md-grid-heading', {}, 'Attention P and context similarity S = O O', h('sup', {}, 'T'), ' per layer and head'),
    h('div.md-grid-row', {},
      h('div', {}, h('h3', {}, 'Attention P'), box('att-grid', 'Grid of attention maps, rows are layers, columns are heads; click a head to enlarge it')),
      h('div', {}, h('h3', {}, 'Context similarity S'), box('sim-grid', 'Grid of context similarity matrices, rows are layers, columns are heads; click a head to enlarge it')),
    ),
    h('div.md-grid-row', {},
      box('att-zoom', "The chosen head's attention with token labels; hover, tap or use the arrow keys for values"),
      box('sim-zoom', "The chosen head's context similarity with token labels; hover, tap or use the arrow keys for values"),
    ),
    h('div.legend', { 'aria-hidden': 'true' }, h('span', {}, "0 / head's min"), h('span.viridis-bar'), h('span', {}, "head's max")),
    h('p#md-grid-caption.caption'),
  );
}

function residualPanel() {
  return h('section.panel.md-wide', { 'aria-labelledby': 'md-res-heading' },
    h('h2#md-res-heading', {}, 'Rank collapse on the trained weights: residual against layer'),
    h('div.canvas-box.md-res-box', {},
      h('canvas#md-residual', { role: 'img', 'aria-label': 'Relative residual of X_l against layer for SAN, SAN+MLP, SAN+skip and the transformer' })),
    h('p#md-res-note.caption', {}, CAPTIONS.resNote),
    h('p#md-res-caption.caption'),
  );
}

/** A statistics chart (the depth lab's, drawn on the unmodified model's heads). */
function chartPanel(key, title, label) {
  return h('section.panel', { 'aria-labelledby': `md-${key}-heading` },
    h(`h2#md-${key}-heading`, {}, title),
    h('div.canvas-box.md-chart-box', {}, h(`canvas#md-${key}`, { role: 'img', 'aria-label': label })),
    h(`p#md-${key}-caption.caption`),
  );
}

/** Builds the lab's panels in `root` (its <main>); `wasm`: the lab's module (the variants' names). */
export function buildMarkup(root, wasm) {
  // md-loading: the panels' skeleton (model.css) until the first analysis is drawn (lab.js).
  root.className = 'layout model-layout md-loading';
  root.append(
    statusArea(),
    h('div.col.col-side', {}, textPanel()),
    h('div.col.col-main.model-panels', {},
      h('section.panel.md-wide', { 'aria-labelledby': 'md-tokens-heading' },
        h('h2#md-tokens-heading', {}, 'Tokens'),
        h('p#md-tokens.token-strip', { 'aria-live': 'polite' }),
        h('p#md-tokens-note.caption', { role: 'note', hidden: true })),
      gridPanel(),
      headPanel(),
      headDynamicsPanel(),
      residualPanel(),
      layersPanel(),
      repeatPanel(wasm),
      h('div.md-stats-row', {},
        chartPanel('hist', 'Distances of similar pairs', 'Ridge plot: per layer, the histogram of |i - j| over the high-similarity pairs of every head'),
        chartPanel('same', 'Same-sentence pairs', 'Same-sentence share of high-similarity pairs against layer, with the chance level'),
      ),
    ),
  );
}

/** The header's lines for this lab: the one-line lede (what to do), then what it shows. */
export function subtitle() {
  return h('div.lab-head', {}, h('p#md-lede.lede', {}, CAPTIONS.lede), h('p.subtitle', {},
    'A pretrained BERT encoder (all-MiniLM-L6-v2) on your text: what each head attends to, what it outputs, ',
    h('span.eq', {}, 'S = O O', h('sup', {}, 'T')), ' (Halevi et al. 2025), and how fast its tokens collapse when the skips and MLPs are removed ',
    h('span.eq', {}, '(Dong et al. 2021)'), '.'));
}

/** The lab has no footer citation (its header line names the papers). */
export function citation() {
  return null;
}
