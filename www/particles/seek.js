// Seeking: advances a particle Stepper to a target step in short slices, yielding to the browser
// between slices, so that computing up to a far moment never freezes the page. The steps are
// the run's own steps (Stepper.advance_past_until, which stops only at a divergence, or the worker
// pool's, which give the same bits): the state reached is bit for bit the state stepping there by
// hand gives.

/** Time spent stepping per slice before yielding to the browser (ms). */
export const SLICE_MS = 12;

/** Resolves after the browser has had a turn (a macrotask; not tied to animation frames, which
 * hidden or off-screen frames throttle). */
function yieldToBrowser() {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

/**
 * Advances `stepper` from its current step to step `target` (a whole number >= its current step)
 * in slices of about SLICE_MS, calling `onProgress(step)` after each slice. Stops early when the
 * run diverges or `alive()` returns false (another command took over). With `pool` (a function
 * `(k, budgetMs) => Promise<steps taken>` stepping in the worker pool), the slices are the pool's
 * and the main thread stays free while they run.
 * @param {{ step_count(): number, advance_past_until(k: number): number }} stepper
 * @param {number} target
 * @param {{ alive?: () => boolean, onProgress?: (step: number) => void,
 *   pool?: ((k: number, budgetMs: number) => Promise<number>) | null }} [options]
 * @returns {Promise<number>} the step reached
 */
export async function advanceTo(stepper, target, { alive = () => true, onProgress = () => {}, pool = null } = {}) {
  // After every await, `alive()` is asked before the stepper is touched: another command may
  // have replaced (and freed) it meanwhile.
  let step = stepper.step_count();
  if (pool) {
    while (step < target) {
      const got = await pool(target - step, 4 * SLICE_MS);
      if (!alive()) return step;
      step = stepper.step_count();
      onProgress(step);
      if (got === 0) break; // diverged, or another command took over
    }
    return step;
  }
  let chunk = 1;
  for (;;) {
    const t0 = performance.now();
    let diverged = false;
    while (stepper.step_count() < target && performance.now() - t0 < SLICE_MS) {
      const k = Math.min(chunk, target - stepper.step_count());
      const c0 = performance.now();
      const got = stepper.advance_past_until(k);
      if (got < k) {
        diverged = true;
        break;
      }
      // Grow the chunk while a chunk costs well under the slice (fewer calls into wasm).
      if (performance.now() - c0 < SLICE_MS / 4) chunk = Math.min(chunk * 2, 1 << 20);
      else chunk = Math.max(1, chunk >> 1);
    }
    step = stepper.step_count();
    onProgress(step);
    if (diverged || step >= target) return step;
    await yieldToBrowser();
    if (!alive()) return step;
  }
}
