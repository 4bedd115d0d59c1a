// The particle lab's markup, built with DOM calls (ui/dom.js): the status area with the share
// bar, the run and model panels, the token, heatmap and chart panels; its header line and
// footer citation.

import { shareParts } from '../share/share_bar.js';
import { h, options, selectField, textField } from '../ui/dom.js';

/** A matrix key's field (Q, K, V) with its shortcut buttons ([value, text, title?] each). */
function matrixField(key, name, note, shortcuts) {
  return h('div.matrix-field', { 'data-matrix': key },
    h('label', { for: `cfg-${key}` }, `${name} `, h('span.muted', {}, note)),
    h(`input#cfg-${key}`, { 'data-key': key, type: 'text', autocomplete: 'off', spellcheck: 'false' }),
    h('div.shortcuts', { role: 'group', 'aria-label': `${name} shortcuts` },
      shortcuts.map(([value, text, title]) => h('button', { type: 'button', 'data-set': key, 'data-value': value, title }, text))),
  );
}

const PSD = ['psd', 'psd', 'random PSD construction from the seed'];

function statusArea() {
  const share = shareParts('', {
    what: 'run',
    extra: [
      h('label.share-check', { title: 'The link opens paused at the current step' },
        h('input#share-moment', { type: 'checkbox' }), ' at this moment'),
      h('span.share-panels', { role: 'group', 'aria-label': 'Panels shown' },
        ['tokens', 'heatmap', 'chart'].map((name) => h('label', {},
          h('input', { type: 'checkbox', 'data-panel-toggle': name, checked: true }), ` ${name}`))),
    ],
  });
  return h('section.status-area.particle-status', { 'aria-label': 'Run status' },
    h('p#status.status-line', {},
      h('span.stat', {}, h('span.stat-label', {}, 't ='), ' ', h('output#status-t', {}, '0')),
      h('span.stat', {}, h('span.stat-label', {}, 'step'), ' ', h('output#status-step', {}, '0')),
      h('span.stat', {}, h('output#status-sps', {}, '0'), ' ', h('span.stat-label', {}, 'steps/s')),
      h('span.stat', {}, h('output#status-state', {}, 'loading')),
    ),
    h('p#description.description'),
    h('div#share-bar.share-bar', {},
      share.row,
      h('p#modified.modified', { hidden: true }),
      share.out,
      h('p#seek-note.hint', { role: 'status', hidden: true },
        h('progress#seek-progress', { max: '1', value: '0' }),
        h('span#seek-text'),
      ),
    ),
    h('p#motion-note.hint', { hidden: true },
      'Paused because your system asks for reduced motion: press Play (or Space) to run.'),
    h('div#config-error.alert', { role: 'alert' }),
    h('div#divergence.alert.divergence', { role: 'alert', hidden: true },
      h('p#divergence-message'),
      h('button#halve-beta', { type: 'button', hidden: true }, 'Halve β'),
      ' ',
      h('button#halve-dt', { type: 'button' }, 'Halve dt'),
    ),
    h('p#summary.sr-only', { 'aria-live': 'polite' }),
  );
}

function runPanel() {
  return h('section.panel.run-panel', { 'aria-labelledby': 'run-heading' },
    h('h2#run-heading', {}, 'Run'),
    h('div.field', {}, h('label', { for: 'preset' }, 'Preset'), h('select#preset')),
    h('div.buttons', { role: 'group', 'aria-label': 'Run control' },
      h('button#play', { type: 'button', 'aria-keyshortcuts': 'Space' }, 'Pause'),
      h('button#step', { type: 'button', 'aria-keyshortcuts': 'ArrowRight', title: 'One step (→)' }, 'Step'),
      h('button#reset', { type: 'button', 'aria-keyshortcuts': 'R', title: 'Back to t = 0, same seed (R)' }, 'Reset'),
      h('button#new-seed', { type: 'button', title: 'Reset with a new random seed' }, 'New seed'),
    ),
    h('div.field', {},
      h('label', { for: 'speed' }, 'Speed ', h('output#speed-out', { for: 'speed' }, '1 step/frame')),
      h('input#speed', { type: 'range', min: '0', max: '10', step: '1', value: '0' }),
    ),
    h('p.hint', {}, 'Keys: Space play/pause, → step, R reset. Steps per frame are capped to a ~16 ms frame budget.'),
  );
}

function modelPanel() {
  return h('section.panel.config-panel', { 'aria-labelledby': 'config-heading' },
    h('details#config-details', { open: true },
    h('summary', { title: 'Show or hide the model form' }, h('h2#config-heading', {}, 'Model')),
    h('form#config-form', { novalidate: true },
      h('div.grid2', {},
        textField('cfg-n', 'n', 'n|tokens', 'numeric'),
        textField('cfg-d', 'd', 'd|dimension', 'numeric'),
        textField('cfg-beta', 'beta', 'β|beta', 'decimal'),
        textField('cfg-dt', 'dt', 'dt|time step', 'decimal'),
        textField('cfg-until', 'until', 'until|stop time', 'decimal'),
        textField('cfg-seed', 'seed', 'seed', 'numeric'),
        selectField('cfg-model', 'model', 'model', ['euclidean', 'sphere-sa', 'sphere-usa']),
        selectField('cfg-integrator', 'integrator', 'integrator', ['euler', 'rk4', 'retraction']),
        selectField('cfg-integrate_in', 'integrate_in', 'integrate_in', [['z', 'z (rescaled)'], ['x', 'x (raw)']]),
        selectField('cfg-init', 'init', 'init', ['cube', 'gaussian', 'sphere', 'points']),
        textField('cfg-scale', 'scale', 'scale|of init', 'decimal'),
      ),
      h('div#points-field.matrix-field', { hidden: true },
        h('label', { for: 'cfg-points' }, 'points ', h('span.muted', {}, 'initial tokens: n rows of d numbers')),
        h('textarea#cfg-points', { 'data-key': 'points', rows: '4', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'points-hint' }),
        h('p#points-hint.hint', {},
          'One token per line (or rows separated by ', h('kbd', {}, ';'), '), coordinates separated by ',
          h('kbd', {}, ','), '. Enter applies; Shift+Enter starts a new line.'),
      ),
      h('p.hint', {},
        'Matrices are d × d: rows separated by ', h('kbd', {}, ';'), ', entries by ', h('kbd', {}, ','), '; or ',
        h('code', {}, 'identity'), ', ', h('code', {}, '-identity'), ', ', h('code', {}, 'psd'), '. Press Enter to apply.'),
      matrixField('q', 'Q', 'query', [['identity', 'identity'], PSD]),
      matrixField('k', 'K', 'key', [['identity', 'identity'], PSD]),
      matrixField('v', 'V', 'value', [
        ['identity', 'identity'],
        ['-identity', '−identity'],
        ['paper-2d', 'paper 2-D', "The paper's 2-D V (eigenvalues 1.348, −0.068); needs d = 2"],
        ['psd', 'psd', 'V = M Mᵀ with M uniform in [−1, 1] from the seed'],
      ]),
      h('p#config-note.hint', { 'aria-live': 'polite' }),
    ),
    ),
  );
}

function tokensPanel() {
  return h('section.panel.tokens-panel', { 'aria-labelledby': 'tokens-heading' },
    h('h2#tokens-heading', {}, 'Tokens'),
    h('div.view-controls', { role: 'group', 'aria-label': 'Token view' },
      h('fieldset#coords-group.inline', {},
        h('legend', {}, 'coords'),
        h('label', {}, h('input', { type: 'radio', name: 'coords', value: 'x' }), ' raw x'),
        h('label', {}, h('input', { type: 'radio', name: 'coords', value: 'z' }), ' rescaled z'),
      ),
      h('label', {}, h('input#trails', { type: 'checkbox', checked: true }), ' trails'),
      h('label', {}, 'colour ',
        h('select#colour', { title: 'Token colours: clusters (single linkage), index (token i in viridis, to follow tokens), plain' },
          options(['clusters', 'index', 'plain']))),
      h('label#scale-label', {}, 'scale ',
        h('select#scale', { title: 'Axis scales of the token view (view key axes): equal (one scale, distances true) or per-axis (each coordinate fills the view)' },
          options([['equal', 'equal axes'], ['per-axis', 'per axis']]))),
      h('fieldset#overlay-group.inline', { title: 'The theorems drawn (view key overlays)' },
        h('legend', {}, 'draw'),
        ...[
          ['hull', 'hull', 'Convex hull of the initial rescaled tokens and the centres of the clusters holding a share of the tokens (d = 2, 3)'],
          ['psi', 'ψ₁', 'ψ₁ (left eigenvector of V for its top eigenvalue) and the limiting lines ⟨ψ₁, z⟩ = const'],
          ['leaders', 'leaders', 'Leaders’ columns on the heatmap (1-D runs) and the Boolean distance’s limit 0 on the chart'],
          ['plateaus', 'plateaus', 'Plateaus of the count on the chart: at least 10 time units with the clusters settled (each cluster\'s radius at most a quarter of the distance between the closest centres)'],
          ['depth', 'depth', '3-D depth shading: farther tokens fainter and smaller'],
        ].map(([v, text, title]) => h('label', { title }, h(`input#overlay-${v}`, { type: 'checkbox', value: v }), ` ${text}`)),
      ),
      h('span#projection-group', { hidden: true },
        h('label', { for: 'projection' }, 'projection'),
        ' ',
        h('select#projection', {}, options([['pca2', 'PCA, 2 axes'], ['pca3', 'PCA, 3 axes (drag)'], ['axes', 'coordinates']])),
        ' ',
        h('span#axes-group', { hidden: true },
          h('label', { for: 'axis-a' }, 'axes'),
          ' ',
          h('input#axis-a.axis-input', { type: 'number', min: '1', value: '1', 'aria-label': 'first coordinate axis' }),
          ' ',
          h('input#axis-b.axis-input', { type: 'number', min: '1', value: '2', 'aria-label': 'second coordinate axis' }),
        ),
      ),
    ),
    h('div#tokens-box.canvas-box.square', {}, h('canvas#tokens', { role: 'img', 'aria-label': 'Token positions' })),
    h('p#tokens-legend.legend.token-legend', {},
      h('span.swatch.swatch-none', { 'aria-hidden': 'true' }), ' grey: in no cluster',
      h('span.muted', {}, ' · a cluster keeps its colour as it grows; past 12 clusters: ■ ▲ ◆')),
    h('p#tokens-caption.caption'),
  );
}

function heatmapPanel() {
  return h('section.panel.heatmap-panel', { 'aria-labelledby': 'heatmap-heading' },
    h('h2#heatmap-heading', {}, 'Attention P(t)'),
    h('div#heatmap-box.canvas-box.square', {},
      h('canvas#heatmap', { role: 'img', 'aria-label': 'Attention matrix heatmap; hover, tap or use the arrow keys for values' }),
      h('div#heatmap-tip.tip', { hidden: true }),
    ),
    h('div.legend', {},
      h('span', { 'aria-hidden': 'true' }, '0'),
      h('span.viridis-bar', { 'aria-hidden': 'true' }),
      h('span#heatmap-top', { 'aria-hidden': 'true' }, '1'),
      h('label.heat-scale', {}, 'scale ',
        h('select#heat-scale', { title: 'Colour scale of the heatmap (hover always shows the exact value)' },
          options([['one', '0 … 1 (fixed)'], ['max', '0 … max P']]))),
      h('label.heat-order', {}, 'order ',
        h('select#heat-order', { title: 'Order of the rows and columns (view key order): by cluster, by leader, or token order; thin lines separate the groups' },
          options([['cluster', 'by cluster'], ['leader', 'by leader'], ['index', 'token index']]))),
      h('span#heatmap-max.muted'),
    ),
    h('p#heatmap-caption.caption'),
  );
}

function timelinePanel() {
  return h('section.panel.timeline-panel', { 'aria-label': 'Timeline' },
    h('div#timeline.timeline', { role: 'group', 'aria-label': 'Timeline of the run' }),
    h('p.hint.timeline-hint', {}, 'Drag (or focus and use ←/→, Home/End) to show an earlier state; Play goes on from it. Click the metrics chart to jump to a time.'),
  );
}

function chartPanel() {
  return h('section.panel.chart-panel', { 'aria-labelledby': 'chart-heading' },
    h('h2#chart-heading', {}, 'Metrics over time'),
    h('div#chart-box.canvas-box.chart-box', {},
      h('canvas#chart', { role: 'img', 'aria-label': 'Metrics over time: clusters, Boolean distance, effective rank, energy; hover, tap or use the arrow keys for values' }),
      h('div#chart-cursor.cursor', { hidden: true }),
      h('div#chart-now.now-line', { hidden: true, title: 'The step shown (the timeline)' }),
      h('div#chart-tip.tip', { hidden: true }),
    ),
    h('p#chart-caption.caption'),
  );
}

/** Builds the lab's panels in `root` (its <main>). */
export function buildMarkup(root) {
  root.className = 'layout';
  root.append(
    statusArea(),
    h('div.col.col-side', {}, runPanel(), modelPanel()),
    h('div.col.col-main', {}, tokensPanel()),
    h('div.col.col-right', {}, heatmapPanel()),
    h('div.col.col-chart', {}, timelinePanel(), chartPanel()),
  );
}

/** The header's lines for this lab: a plain one-line lede, then the model in symbols. */
export function subtitle() {
  return h('div.lab-head', {},
    h('p.lede', {}, 'Watch the tokens of a transformer move like particles that attract each other, and form clusters.'),
    h('p.subtitle', {}, 'Tokens as interacting particles: ',
      h('span.eq', {}, 'dx', h('sub', {}, 'i'), '/dt = Σ', h('sub', {}, 'j'), ' P', h('sub', {}, 'ij'), ' V x', h('sub', {}, 'j')),
      ', a transformer with shared weights in continuous time.'));
}

/** The footer's citation for this lab. */
export function citation() {
  return h('span', {}, 'Geshkovski, Letrouit, Polyanskiy, Rigollet: ',
    h('cite', {}, 'The emergence of clusters in self-attention dynamics'), ' (arXiv 2305.05465); ',
    h('cite', {}, 'A mathematical perspective on Transformers'), ' (arXiv 2312.10794).');
}
