// The particle run's state as drawn and as recorded: the tokens in the view's coordinates, and the
// state kept for the exports and the timeline (history.js). A leaf: run.js and render.js read it.

import { runHistory } from './history.js';
import { app } from './state.js';

/** Tokens as drawn: n x k (k = d for d <= 3, else projected on the fixed axes). */
export function viewTokens() {
  const s = app.stepper;
  const coords = s.coords();
  if (!app.axes) return s.tokens(coords);
  return s.project(coords, app.axes, app.k);
}

/**
 * Keeps the state shown for the exports (history.js) and the timeline (with the integrated
 * state when the coordinates shown are not the integrated ones), with the metrics `m` just computed, or
 * null when they cannot be (the attention scores overflow: `attn run` prints such a state's
 * tokens with `"metrics": null`).
 */
export function recordState(m) {
  const s = app.stepper;
  runHistory.record(s.step_count(), s.t(), () => s.tokens(s.coords()), m, app.stateShown ? null : () => s.state(), () => s.identity_state());
}
