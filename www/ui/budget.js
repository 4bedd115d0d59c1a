// The frame budget of the particle and training run loops: how much work fits in what is left of
// a frame, from a running estimate of the cost of one step (or iteration).

/** Items that fit in `left` ms at `cost` ms each: 1 to `remaining`; 1 while the cost is unknown. */
export function chunkFor(remaining, left, cost) {
  return Number.isFinite(cost) ? Math.max(1, Math.min(remaining, Math.floor(left / Math.max(cost, 1e-4)))) : 1;
}

/** The cost estimate updated with a measured `per` ms per item (exponential average). */
export function updateCost(cost, per) {
  return Number.isFinite(cost) ? 0.7 * cost + 0.3 * per : per;
}
