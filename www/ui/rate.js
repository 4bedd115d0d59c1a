// Steps (or iterations) per second over the last second, for the labs' status lines. Slow runs
// (a step every few hundred ms, e.g. n = 4096 in the worker pool) keep their last few samples up
// to 10 s, so the rate shown is the real one rather than 0.

export class RateMeter {
  constructor() {
    this.samples = []; // [time ms, count] over the last second
  }

  /** Forgets the samples (a new run, or paused). */
  clear() {
    this.samples = [];
  }

  /** `count` items done at time `now` (ms). */
  record(now, count) {
    this.samples.push([now, count]);
  }

  /** Items per second at `now` over the last second, or over the last 3 samples when they are
   * sparser (at most 10 s); 0 when not `running`. */
  perSecond(now, running) {
    const s = this.samples;
    while (s.length && (now - s[0][0] > 10_000 || (s.length > 3 && now - s[0][0] > 1000))) s.shift();
    if (!running || s.length <= 1) return 0;
    const count = s.slice(1).reduce((a, [, k]) => a + k, 0);
    return count / Math.max(1e-3, (now - s[0][0]) / 1000);
  }
}
