// The particle run's data files for the Export menu, built from its record (history.js). The
// trajectory CSV is `attn run --format csv` (header `step,t,i,coord_0,...`, one row per token per
// recorded state, numbers formatted by the core, crates/web/src/export.rs), so its rows equal the
// CLI's rows at the same steps; the frames JSON has the schema of `attn run --format json`
// ({ config, frames: [{ step, t, tokens, metrics }] }).

/**
 * The trajectory CSV of `history` (a RunHistory).
 * @param {import('./history.js').RunHistory} history
 * @param {{ csv_token_header(d: number): string, csv_token_rows(step: number, t: number, tokens: Float64Array, d: number): string }} wasm
 */
export function trajectoryCsv(history, wasm) {
  const parts = [`${wasm.csv_token_header(history.d)}\n`];
  for (const s of history.samples) parts.push(wasm.csv_token_rows(s.step, s.t, s.tokens, history.d));
  return parts.join('');
}

/**
 * The metrics CSV of `history`: `step,t,clusters,boolean_distance,effective_rank,energy,hyperplanes`,
 * one row per recorded state (energy and hyperplanes empty where not defined; numbers as the CLI
 * writes them).
 */
export function metricsCsv(history, wasm) {
  const num = (v) => (v === null || v === undefined ? '' : wasm.format_number(v));
  const rows = ['step,t,clusters,boolean_distance,effective_rank,energy,hyperplanes'];
  for (const s of history.samples) {
    const m = s.metrics;
    if (!m) continue;
    rows.push([String(s.step), num(s.t), String(m.clusters), num(m.boolean_distance), num(m.effective_rank), num(m.energy), m.hyperplanes === null || m.hyperplanes === undefined ? '' : String(m.hyperplanes)].join(','));
  }
  return `${rows.join('\n')}\n`;
}

/** The frames JSON of `history`: `attn run --format json`'s schema, one frame per recorded state. */
export function framesJson(history) {
  const d = history.d;
  const frames = history.samples.map((s) => {
    const tokens = [];
    for (let i = 0; i < history.n; i += 1) tokens.push(Array.from(s.tokens.subarray(i * d, (i + 1) * d)));
    return { step: s.step, t: s.t, tokens, metrics: s.metrics };
  });
  return `${JSON.stringify({ config: history.canonical, frames })}\n`;
}
