// The training lab's markup, built with DOM calls (ui/dom.js): the status area, the run panel,
// the training keys' fields, the c_n heatmap, the loss chart and the sweep panel; its header line
// and footer citation.

import { h, selectField, textField } from '../ui/dom.js';

const sub = (text) => h('sub', {}, text);

function statusArea() {
  const stat = (label, id, value) => h('span.stat', {}, h('span.stat-label', {}, label), ' ', h(`output#${id}`, {}, value));
  return h('section.status-area', { 'aria-label': 'Training status' },
    h('p.status-line', {},
      stat('iteration', 'tr-iteration', '0'),
      stat('loss', 'tr-loss', '–'),
      stat('entropy', 'tr-entropy', '–'),
      stat('snap', 'tr-snap', '–'),
      h('span.stat', {}, h('output#tr-ips', {}, '0'), ' ', h('span.stat-label', {}, 'iterations/s')),
      h('span.stat', {}, h('output#tr-state.state', {}, 'loading')),
    ),
    h('p#tr-description.description'),
    h('div#tr-config-error.alert', { role: 'alert' }),
    h('div#tr-divergence.alert.divergence', { role: 'alert', hidden: true },
      h('p#tr-divergence-message'),
      h('button#tr-halve-eta', { type: 'button' }, 'Halve eta_z'),
    ),
    h('p#tr-summary.sr-only', { 'aria-live': 'polite' }),
  );
}

function runPanel() {
  return h('section.panel.run-panel', { 'aria-labelledby': 'tr-run-heading' },
    h('h2#tr-run-heading', {}, 'Run'),
    h('div.field', {}, h('label', { for: 'tr-preset' }, 'Preset'), h('select#tr-preset')),
    h('div.buttons', { role: 'group', 'aria-label': 'Training run control' },
      h('button#tr-play.play', { type: 'button', 'aria-keyshortcuts': 'Space' }, 'Pause'),
      h('button#tr-step', { type: 'button', 'aria-keyshortcuts': 'ArrowRight', title: 'One SGD iteration (→)' }, 'Step'),
      h('button#tr-reset', { type: 'button', 'aria-keyshortcuts': 'R', title: 'Back to iteration 0, same seed (R)' }, 'Reset'),
      h('button#tr-new-seed', { type: 'button', title: 'Reset with a new random seed' }, 'New seed'),
    ),
    h('div.field', {},
      h('label', { for: 'tr-speed' }, 'Speed ', h('output#tr-speed-out', { for: 'tr-speed' }, '1 iteration/frame')),
      h('input#tr-speed', { type: 'range', min: '0', max: '7', step: '1', value: '0' }),
    ),
    h('p.hint', {}, 'Keys: Space play/pause, → step, R reset. Iterations per frame are capped to a ~10 ms frame budget.'),
  );
}

function configPanel() {
  const group = (legend, ...children) => h('fieldset.group', {}, h('legend', {}, legend), ...children);
  return h('section.panel.config-panel', { 'aria-labelledby': 'tr-config-heading' },
    h('h2#tr-config-heading', {}, 'Training'),
    h('form#tr-form', { novalidate: true },
      group('Synthetic data', h('div.grid2', {},
        textField('tr-queries', 'queries', 'queries|query tokens', 'numeric'),
        textField('tr-next_per_query', 'next_per_query', 'next_per_query|classes each', 'numeric'),
        textField('tr-commons', 'commons', 'commons|shared tokens', 'numeric'),
        textField('tr-commons_per_query', 'commons_per_query', 'commons_per_query', 'numeric'),
        textField('tr-distinct', 'distinct', 'distinct|per class', 'numeric'),
        textField('tr-seq_len', 'seq_len', 'seq_len|tokens', 'numeric'),
        textField('tr-weight_lo', 'weight_lo', 'weight_lo|first distinct', 'decimal'),
        textField('tr-weight_hi', 'weight_hi', 'weight_hi|last distinct', 'decimal'),
      )),
      group('Optimiser', h('div.grid2', {},
        textField('tr-eta_z', 'eta_z', ['η', sub('Z'), ' ', h('span.muted', {}, 'eta_z')], 'decimal'),
        textField('tr-ratio', 'ratio', ['r = η', sub('Y'), '/η', sub('Z'), ' ', h('span.muted', {}, 'ratio')], 'decimal'),
        textField('tr-momentum', 'momentum', 'momentum', 'decimal'),
        textField('tr-batch', 'batch', 'batch', 'numeric'),
        textField('tr-iterations', 'iterations', 'iterations', 'numeric'),
        textField('tr-seed', 'seed', 'seed', 'numeric'),
        selectField('tr-weights_init', 'weights_init', 'weights_init|Y, Z',
          ['zero', ['uniform', 'uniform', 'every entry uniform in [−1/√M, 1/√M) from the seed']]),
      )),
      group('View', h('div.grid2', {},
        textField('tr-query_row', 'query_row', 'query_row|shown query', 'numeric'),
        textField('tr-snap_tol', 'snap_tol', 'snap_tol|max |Δc|', 'decimal'),
      )),
      group(['Your text ', h('span.muted', {}, '(replaces the synthetic data)')],
        textField('tr-vocab', 'vocab', 'vocab|vocabulary cap', 'numeric'),
        h('div.field', {},
          h('label', { for: 'tr-text' }, 'text'),
          h('textarea#tr-text', { 'data-key': 'text', rows: '4', spellcheck: 'false', placeholder: 'Paste a paragraph: words and punctuation become tokens; each (query, next word) pair is a class.' }),
        ),
        h('div.shortcuts', { role: 'group', 'aria-label': 'Text' },
          h('button#tr-text-apply', { type: 'button', title: 'Train on this text (Ctrl+Enter in the box)' }, 'Use text'),
          h('button#tr-text-clear', { type: 'button', title: 'Back to the synthetic data' }, 'Clear text'),
        ),
      ),
      h('p.hint', {}, 'Press Enter (Ctrl+Enter in the text box) to apply. Out-of-range values are refused, never clamped.'),
      h('p#tr-config-note.hint', { 'aria-live': 'polite' }),
    ),
  );
}

function heatmapPanel() {
  return h('section.panel.cn-panel', { 'aria-labelledby': 'tr-heat-heading' },
    h('h2#tr-heat-heading', {}, 'Attention c', sub('n'), ' per iteration'),
    h('div#tr-heat-box.canvas-box.cn-box', {},
      h('canvas#tr-heatmap', { role: 'img', 'aria-label': 'Heatmap of the attention c of each class: rows are iterations, columns are tokens grouped into common and distinct blocks; hover, tap or use the arrow keys for values' }),
      h('div#tr-heat-tip.tip', { hidden: true }),
    ),
    h('div.legend', { 'aria-hidden': 'true' }, h('span', {}, '0'), h('span.viridis-bar'), h('span#tr-heat-max', {}, 'max c')),
    h('p#tr-heat-caption.caption'),
  );
}

function chartPanel() {
  return h('section.panel.tchart-panel', { 'aria-labelledby': 'tr-chart-heading' },
    h('h2#tr-chart-heading', {}, 'Loss, entropy and snap'),
    h('div#tr-chart-box.canvas-box.tchart-box', {},
      h('canvas#tr-chart', { role: 'img', 'aria-label': 'Loss, distinct-token entropy and max |Δc| against iteration, with reference lines and the snap iteration; hover, tap or use the arrow keys for values' }),
      h('div#tr-chart-cursor.cursor', { hidden: true }),
      h('div#tr-chart-tip.tip', { hidden: true }),
    ),
    h('p#tr-chart-caption.caption'),
  );
}

function sweepPanel() {
  const listField = (id, label, value, inputmode) => h('div.field', {},
    h('label', { for: id }, label),
    h(`input#${id}`, { type: 'text', inputmode, value, autocomplete: 'off', spellcheck: 'false' }),
  );
  return h('section.panel.sweep-panel', { 'aria-labelledby': 'sw-heading' },
    h('h2#sw-heading', {}, 'Sweep: final entropy over η', sub('Z'), ' and r'),
    h('form#sw-form.sweep-form', { novalidate: true },
      listField('sw-eta', ['η', sub('Z'), ' values ', h('span.muted', {}, 'eta_z')], '0.5, 1, 2, 3'),
      listField('sw-ratio', ['r values ', h('span.muted', {}, 'ratio')], '1, 2, 5, 10'),
      listField('sw-seeds', 'seeds per cell', '10', 'numeric'),
      h('div.buttons', {},
        h('button#sw-run.play', { type: 'submit' }, 'Run sweep'),
        h('button#sw-cancel', { type: 'button', disabled: true }, 'Cancel'),
      ),
    ),
    h('p#sw-base.hint'),
    h('div.progress-row', {},
      h('progress#sw-progress', { max: '1', value: '0', 'aria-labelledby': 'sw-progress-text' }),
      h('output#sw-progress-text', { 'aria-live': 'polite' }, 'not started'),
    ),
    h('div#sw-error.alert', { role: 'alert' }),
    h('div.sweep-body', {},
      h('div.canvas-box.sweep-box', {},
        h('canvas#sw-chart', { role: 'img', 'aria-label': 'Final distinct-token entropy against r, one curve per eta_z, error bars one standard deviation' })),
      h('div.table-box', {},
        h('table#sw-table', {},
          h('caption', {}, 'Final distinct-token entropy (nats) per cell'),
          h('thead', {}, h('tr', {}, [['η', sub('Z')], 'r', 'mean', '± std', 'snap'].map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody'),
        ),
      ),
    ),
    h('p#sw-caption.caption'),
  );
}

/** The timeline over the iterations computed (training/timeline.js builds it). */
function timelinePanel() {
  return h('section.panel.timeline-panel', { 'aria-label': 'Timeline' },
    h('div#tr-timeline.timeline', { role: 'group', 'aria-label': 'Timeline of the training run' }),
  );
}

/** Builds the lab's panels in `root` (its <main>). */
export function buildMarkup(root) {
  root.className = 'layout training-layout';
  root.append(
    statusArea(),
    h('div.col.col-side', {}, runPanel(), configPanel()),
    h('div.col.col-heat', {}, heatmapPanel()),
    h('div.col.col-tchart', {}, timelinePanel(), chartPanel()),
    h('div.col.col-sweep', {}, sweepPanel()),
  );
}

/** The header's lines for this lab: a plain one-line lede, then the model in symbols. */
export function subtitle() {
  return h('div.lab-head', {},
    h('p.lede', {}, 'Watch a small transformer learn where to look: its attention first moves, then freezes.'),
    h('p.subtitle', {}, 'Training a 1-layer transformer: its attention ',
      h('span.eq', {}, 'b', sub('t'), ' = softmax', sub('t'), '(Z[m, x', sub('t'), '])'),
      ' first scans from common to distinct tokens, then snaps (freezes).'));
}

/** The footer's citation for this lab. */
export function citation() {
  return h('span', {}, 'Tian, Wang, Chen, Du: ',
    h('cite', {}, 'Scan and Snap: understanding training dynamics and token composition in 1-layer transformer'),
    ' (NeurIPS 2023, arXiv 2305.16380).');
}
