// The depth lab's markup, built with DOM calls (ui/dom.js): the status area, the run panel, the
// stack's fields, the rank-collapse chart, the similarity grid and the statistics charts; its
// header line (the papers are cited there: the lab has no footer citation).

import { h, selectField, textField } from '../ui/dom.js';

const ON_OFF = ['on', 'off'];

function statusArea() {
  return h('section.status-area', { 'aria-label': 'Depth run status' },
    h('p.status-line', {},
      h('span.stat', {}, h('span.stat-label', {}, 'variants'), ' ', h('output#dp-done', {}, '0 / 0')),
      h('span.stat', {}, h('output#dp-state.state', {}, 'loading')),
      h('span.stat.progress-row', {}, h('progress#dp-progress', { max: '1', value: '0', 'aria-label': 'Variants computed' })),
      h('button#dp-cancel.idle', { type: 'button', disabled: true }, 'Cancel'),
    ),
    h('p#dp-description.description'),
    h('div#dp-config-error.alert', { role: 'alert' }),
    h('div#dp-overflow.alert.divergence', { role: 'alert', hidden: true }),
    h('p#dp-summary.sr-only', { 'aria-live': 'polite' }),
  );
}

function runPanel() {
  return h('section.panel.run-panel', { 'aria-labelledby': 'dp-run-heading' },
    h('h2#dp-run-heading', {}, 'Run'),
    h('div.field', {}, h('label', { for: 'dp-preset' }, 'Preset'), h('select#dp-preset')),
    h('div.buttons', { role: 'group', 'aria-label': 'Run control' },
      h('button#dp-run.play', { type: 'button', title: 'Compute every variant again (R)' }, 'Recompute'),
      h('button#dp-new-seed', { type: 'button', title: 'New random weights and input' }, 'New seed'),
    ),
    h('button#dp-use-particle', { type: 'button', title: "Set particle= to the particle lab's configuration, with input=particle (and weights=particle when it fits)" },
      "Use the particle lab's configuration"),
    h('p.hint', {}, 'The variants are computed in background workers, side by side (one per core, at most two); each curve appears when it is ready.'),
  );
}

function stackPanel() {
  const group = (legend, ...children) => h('fieldset.group', {}, h('legend', {}, legend), ...children);
  const text = (key, label, inputmode) => textField(`dp-${key}`, key, label, inputmode);
  const select = (key, label, list) => selectField(`dp-${key}`, key, label, list);
  return h('section.panel.config-panel', { 'aria-labelledby': 'dp-config-heading' },
    h('h2#dp-config-heading', {}, 'Stack'),
    h('form#dp-form', { novalidate: true },
      group('Architecture', h('div.grid2', {},
        text('layers', 'layers|L', 'numeric'),
        text('heads', 'heads|H', 'numeric'),
        text('d_model', 'd_model', 'numeric'),
        text('d_head', 'd_head', 'numeric'),
        text('tokens', 'tokens|n', 'numeric'),
        text('mlp_width', 'mlp_width', 'numeric'),
        select('skip', 'skip|configured', ON_OFF),
        select('mlp', 'mlp|configured', ON_OFF),
        select('mlp_residual', 'mlp_residual', ON_OFF),
        select('activation', 'activation', ['gelu', 'relu', 'tanh']),
        select('layernorm', 'layernorm', ['post', 'pre', 'none']),
        select('shared', 'shared|weights', ON_OFF),
      )),
      group('Weights', h('div.grid2', {},
        text('weight_scale', 'weight_scale|σ of V, O, MLP', 'decimal'),
        text('qk_scale', 'qk_scale|σ of Q, K', 'decimal'),
        text('bias_scale', 'bias_scale', 'decimal'),
        text('seed', 'seed', 'numeric'),
        select('weights', 'weights', ['random', 'particle']),
        select('precision', 'precision', ['f32', 'f64']),
      )),
      group('Input',
        h('div.grid2', {},
          select('input', 'input', ['gaussian', 'particle', 'text']),
          text('sentences', 'sentences|lengths', 'text'),
          select('separators', 'separators', ON_OFF),
        ),
        h('div.field', {},
          h('label', { for: 'dp-text' }, 'text ', h('span.muted', {}, '(input=text)')),
          h('textarea#dp-text', { 'data-key': 'text', rows: '3', spellcheck: 'false', placeholder: 'Paste a paragraph: words and punctuation become tokens, sentences end at . ! ?' }),
        ),
        text('particle', 'particle|configuration'),
      ),
      group('Analysis', h('div.grid2', {},
        select('similarity_norm', 'similarity_norm', ['raw', 'max-abs', 'cosine']),
        select('select', 'select|pairs', ['quantile', 'threshold']),
        text('quantile', 'quantile', 'decimal'),
        text('threshold', 'threshold', 'decimal'),
        select('residual_def', 'residual_def', ['mean', 'argmin']),
        text('variants', 'variants', 'text'),
      )),
      h('p.hint', {}, 'Press Enter (Ctrl+Enter in the text box) to apply. Out-of-range values are refused, never clamped. variants: comma-separated san, san-mlp, san-skip, transformer, configured.'),
    ),
  );
}

/** A chart panel: heading, canvas (with its accessible description) and caption. */
function chartPanel(key, title, canvas, label, ...extra) {
  return h('section.panel', { 'aria-labelledby': `dp-${key}-heading` },
    h(`h2#dp-${key}-heading`, {}, title),
    ...extra,
    h('div.canvas-box.dp-chart-box', {}, h(`canvas#dp-${canvas}`, { role: 'img', 'aria-label': label })),
    h(`p#dp-${key}-caption.caption`),
  );
}

function panels() {
  return h('div.col.col-main.depth-panels', {},
    h('section.panel.dp-wide', { 'aria-labelledby': 'dp-res-heading' },
      h('h2#dp-res-heading', {}, 'Rank collapse: residual against depth'),
      h('fieldset#dp-scale.inline', {},
        h('legend', {}, 'y axis'),
        h('label', {}, h('input', { type: 'radio', name: 'dp-scale', value: 'log', checked: true }), ' log'),
        h('label', {}, h('input', { type: 'radio', name: 'dp-scale', value: 'linear' }), ' linear'),
      ),
      h('div.canvas-box.dp-res-box', {},
        h('canvas#dp-residual', { role: 'img', 'aria-label': 'Relative residual of the hidden state against layer for each variant; hover, tap or use the arrow keys for values' }),
        h('div#dp-res-cursor.cursor', { hidden: true }),
        h('div#dp-res-tip.tip', { hidden: true }),
      ),
      h('p#dp-res-caption.caption'),
    ),
    h('section.panel.dp-wide', { 'aria-labelledby': 'dp-grid-heading' },
      h('h2#dp-grid-heading', {}, 'Context similarity S = O O', h('sup', {}, 'T'), ' per layer and head'),
      h('div.dp-grid-controls', {},
        h('div.field.dp-inline-field', {}, h('label', { for: 'dp-grid-variant' }, 'variant'), h('select#dp-grid-variant')),
        h('fieldset#dp-grid-scale.inline', {},
          h('legend', {}, 'colour scale'),
          h('label', { title: "each head from its own smallest to its largest off-diagonal value" },
            h('input', { type: 'radio', name: 'dp-grid-scale', value: 'head', checked: true }), ' per head'),
          h('label', { title: 'one scale for every layer and head: heads and layers compare' },
            h('input', { type: 'radio', name: 'dp-grid-scale', value: 'shared' }), ' shared'),
        ),
      ),
      h('div.dp-grid-row', {},
        h('div.canvas-box.dp-grid-box', {},
          h('canvas#dp-grid', { role: 'img', 'aria-label': 'Grid of context similarity heatmaps, rows are layers, columns are heads; click a head to enlarge it' }),
          h('div#dp-grid-tip.tip', { hidden: true }),
        ),
        h('div.canvas-box.dp-zoom-box', {},
          h('canvas#dp-zoom', { role: 'img', 'aria-label': "The chosen head's context similarity matrix with token labels; hover, tap or use the arrow keys for values" }),
          h('div#dp-zoom-tip.tip', { hidden: true }),
        ),
      ),
      h('div.legend', { 'aria-hidden': 'true' }, h('span#dp-grid-min', {}, "head's min"), h('span.viridis-bar'), h('span#dp-grid-max', {}, "head's max")),
      h('p#dp-grid-caption.caption'),
    ),
    chartPanel('hist', 'Distances of similar pairs', 'hist', 'Ridge plot: per layer, the histogram of |i - j| over the high-similarity pairs'),
    chartPanel('same', 'Same-sentence pairs', 'same', 'Same-sentence share of high-similarity pairs against layer, per variant, with the chance level'),
    chartPanel('paths', 'Path view', 'paths', 'Share of paths of each length through the skip connections'),
    chartPanel('sv', 'Singular values', 'spectrum', 'Singular values of the hidden state at a layer divided by the largest, per variant, log scale',
      h('div.field.dp-inline-field', {},
        h('label', { for: 'dp-sv-layer' }, 'layer l'),
        h('input#dp-sv-layer', { type: 'range', min: '0', max: '12', step: '1', value: '1' }),
        h('output#dp-sv-layer-out', { for: 'dp-sv-layer' }, '1'),
      )),
  );
}

/** Builds the lab's panels in `root` (its <main>). */
export function buildMarkup(root) {
  root.className = 'layout depth-layout';
  root.append(statusArea(), h('div.col.col-side', {}, runPanel(), stackPanel()), panels());
}

/** The header's lines for this lab: a plain one-line lede, then the model in symbols. */
export function subtitle() {
  return h('div.lab-head', {},
    h('p.lede', {}, 'Stack attention layers and watch the tokens become all alike, unless skip connections stop it.'),
    h('p.subtitle', {},
      'A stack of L multi-head attention layers: without skip connections the tokens collapse to rank 1 doubly exponentially with depth ',
      h('span.eq', {}, '(Dong et al. 2021)'), '; what each head outputs, ', h('span.eq', {}, 'S = O O', h('sup', {}, 'T')),
      ', shows what it attends to ', h('span.eq', {}, '(Halevi et al. 2025)'), '.'));
}

/** The lab has no footer citation (its header line names the papers). */
export function citation() {
  return null;
}
