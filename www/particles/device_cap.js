// The particle lab's limit on the work a page may take on: a run whose step costs far more than
// a frame (one step is never split on the main thread), or with more tokens than the page's views
// are sized for, is refused with a message naming n or d and what the page allows.

import * as wasm from '../pkg/attn_web.js';

// One step is never split on the main thread, so the page refuses runs whose step costs far more
// than a frame. Cost model: n² d pair-coordinate evaluations per step (4x for rk4's four stages).
// Measured with the wasm stepper (crates/xtask/bench/wasm_bench.mjs / `cargo xtask bench`, Node,
// one thread): ~1.3-2 ns per pair-coordinate at d >= 128 (n = 512, d = 256: ~100 ms/step), while
// at d <= 3 the per-pair exp dominates (~18-20 ns per pair: n = 4096, d = 2: ~300 ms/step).
// The budget admits the largest runs the page promises (n = 4096 at d <= 3, Euler) and keeps
// high-d steps under ~100 ms (d = 256: n <= 443, ~70 ms/step). The CLI has no such limit.
const STEP_BUDGET = 4096 * 4096 * 3; // n² d (x4 for rk4) per step
/** Most tokens the page runs (its views and analyses are sized for this); the core allows more. */
const PAGE_MAX_N = 4096;

/** A check_link result, refused when the run is too heavy for the page (see STEP_BUDGET). */
export function checkPage(text, edited = null) {
  const res = wasm.check_link(text, 'particles');
  if (!res.ok) return res;
  const v = new Map(res.pairs);
  const n = Number(v.get('n'));
  const d = Number(v.get('d'));
  const stages = v.get('integrator') === 'rk4' ? 4 : 1;
  const cost = n * n * d * stages;
  if (n > PAGE_MAX_N) {
    return { ok: false, key: 'n', message: `n = ${n} is more tokens than the page draws; allowed: 1..=${PAGE_MAX_N} (the CLI \`attn run\` takes up to 16384)` };
  }
  if (cost <= STEP_BUDGET) return res;
  const nMax = Math.floor(Math.sqrt(STEP_BUDGET / (d * stages)));
  const dMax = Math.floor(STEP_BUDGET / (n * n * stages));
  const rk4 = stages > 1 ? ' with rk4 (4 evaluations per step)' : '';
  const work = `(n² d${stages > 1 ? ' x 4' : ''} = ${cost.toLocaleString('en-US')}, the page allows ${STEP_BUDGET.toLocaleString('en-US')})`;
  const cli = 'the CLI `attn run` has no such limit';
  if (edited === 'd' && dMax >= 1) {
    return { ok: false, key: 'd', message: `d = ${d} with n = ${n}${rk4} is too much work per step for the page ${work}; at n = ${n} the page allows d <= ${dMax}; ${cli}` };
  }
  return { ok: false, key: 'n', message: `n = ${n} with d = ${d}${rk4} is too much work per step for the page ${work}; at d = ${d} the page allows n <= ${nMax}; ${cli}` };
}
