// The model lab's statistics as CSV, for the views on trained weights: the tokens through the
// layers (per layer: clusters, mean cosine, effective rank, as `attn encode --layers-view`) and
// the chosen head's particles (per listed sample: t, step, clusters, mean cosine, Boolean
// distance, largest |x_i|, hyperplane groups, leaders, cluster labels, as `attn encode
// --head-dynamics L,H`), and those particles' drawn coordinates (two or three PCA axes per token
// per sample). The numbers are the worker's f64 written as JavaScript writes them (the shortest
// decimal that reads back to the same f64); a non-finite value is written `NaN`, never 0.

import { download } from '../export/download.js';

const cell = (v) => (Number.isFinite(v) ? String(v) : 'NaN');

/** `rows` (arrays of cells) as CSV text with `header`. */
function csv(header, rows) {
  return `${[header, ...rows].map((r) => r.join(',')).join('\n')}\n`;
}

/** Per layer 0..L of ModelLab.layers_view's arrays `lv`. */
export function layersCsv(lv) {
  const rows = [];
  for (let l = 0; l < lv.states; l++) rows.push([l, cell(lv.clusters[l]), cell(lv.mean_cos[l]), cell(lv.effective_rank[l])]);
  return csv(['layer', 'clusters', 'mean_cos', 'effective_rank'], rows);
}

/** Per listed sample of ModelLab.head_dynamics's arrays `d`. */
export function headParticlesCsv(d) {
  const rows = [];
  const n = d.n;
  for (let r = 0; r < d.samples; r++) {
    const leaders = [];
    for (let i = 0; i < n; i++) if (d.leaders[r * n + i]) leaders.push(i);
    const labels = Array.from(d.labels.subarray(r * n, (r + 1) * n), (c) => (c === 0xffffffff ? 'NaN' : String(c)));
    rows.push([cell(d.t[r]), d.step[r], cell(d.clusters[r]), cell(d.mean_cos[r]), cell(d.boolean_distance[r]),
      cell(d.max_norm[r]), cell(d.hyperplanes[r]), leaders.join(' '), labels.join(' ')]);
  }
  return csv(['t', 'step', 'clusters', 'mean_cos', 'boolean_distance', 'max_norm', 'hyperplanes', 'leaders', 'labels'], rows);
}

/** The drawn coordinates: one row per sample and token. */
export function headCoordsCsv(d, tokens) {
  const { n, k } = d;
  const rows = [];
  for (let r = 0; r < d.samples; r++) {
    for (let i = 0; i < n; i++) {
      const at = (r * n + i) * k;
      rows.push([cell(d.t[r]), i, `"${String(tokens[i] ?? '').replace(/"/g, '""')}"`, ...Array.from(d.coords.subarray(at, at + k), cell)]);
    }
  }
  return csv(['t', 'token', 'text', ...Array.from({ length: k }, (_, a) => `PC${a + 1}`)], rows);
}

/**
 * The group's buttons for what `page` shows (none before the first analysis).
 * @param {{ result: object|null, layers: object|null, headDyn: { dyn: object|null } }} page
 * @param {{ button: Function, group: Function, say: (text: string) => void }} menu
 */
export function statisticsExports(page, menu) {
  const r = page.result;
  if (!r) return [];
  const save = (name, text, what) => {
    download(new Blob([text], { type: 'text/csv' }), name);
    menu.say(`Saved ${name} (${what}).`);
  };
  const buttons = [];
  const lv = page.layers;
  if (lv) {
    buttons.push(menu.button('Layers statistics CSV', () => save('attn-model-layers.csv', layersCsv(lv), `${lv.states} layers`),
      'Per layer: clusters, mean cosine, effective rank, as attn encode --layers-view'));
  }
  const d = page.headDyn?.dyn;
  if (d) {
    const stem = `attn-model-l${d.layer}-h${d.head}-particles`;
    buttons.push(menu.button('Head particles CSV', () => save(`${stem}.csv`, headParticlesCsv(d), `${d.samples} samples`),
      `Per sample of layer ${d.layer} head ${d.head}'s particles: clusters, mean cosine, Boolean distance, leaders, labels, as attn encode --head-dynamics ${d.layer},${d.head}`));
    buttons.push(menu.button('Head particles coordinates CSV', () => save(`${stem}-coords.csv`, headCoordsCsv(d, r.tokens), `${d.samples} samples × ${d.n} tokens`),
      'The drawn coordinates: each token on the PCA axes at each sample'));
  }
  return buttons.length ? [menu.group('Statistics (CSV)', ...buttons)] : [];
}
