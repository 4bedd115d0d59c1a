// Steps (or iterations) per second over the last second, for the labs' status lines.

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

  /** Items per second at `now` over the last second (0 when not `running`). */
  perSecond(now, running) {
    const s = this.samples;
    while (s.length && now - s[0][0] > 1000) s.shift();
    if (!running || s.length <= 1) return 0;
    const count = s.slice(1).reduce((a, [, k]) => a + k, 0);
    return count / Math.max(1e-3, (now - s[0][0]) / 1000);
  }
}
