// The particle run's recorded states, for the CSV and JSON exports and the timeline: at every
// step where the page computed the metrics (the chart's history samples and the frames it drew),
// a copy of the tokens in the configuration's `coords`, the metrics and the integrated state
// (`integrate_in`'s coordinates: the same array as the tokens when they are the same
// coordinates), from which the timeline continues bit for bit (particles/timeline.js). run.js
// calls `record` after each metrics evaluation and `reset` when a run starts. Steps are whatever
// the page sampled: the export says which.
//
// Memory: at most MAX_NUMBERS numbers (tokens and separate states) are kept; past that every
// other sample is dropped (the first and the newest are kept), so a long run keeps an evenly
// thinned record.

/** Most token coordinates kept (8 bytes each: 64 MB). */
export const MAX_NUMBERS = 8 * 1024 * 1024;

/** Most states kept, whatever their size. */
export const MAX_SAMPLES = 20000;

export class RunHistory {
  constructor() {
    this.reset('', 0, 0, 'x');
  }

  /**
   * Forgets every sample: a new run of configuration `canonical` with n tokens of dimension d,
   * recorded in coordinates `coords`.
   */
  reset(canonical, n, d, coords) {
    this.canonical = canonical;
    this.n = n;
    this.d = d;
    this.coords = coords;
    /** @type {Array<{ step: number, t: number, tokens: Float64Array, state: Float64Array, metrics: object }>} */
    this.samples = [];
    this.thinned = false;
    this.perSample = n * d; // numbers kept per sample (twice that with separate states)
  }

  /**
   * Records the state at `step` (time `t`): `tokens()` gives the n x d row-major tokens in
   * `coords` (a fresh array, kept as it is; called only when the step is new) and `metrics` is
   * the object ParticleLab.metrics() returned, or null when they could not be computed (the last
   * good state of a diverging run); `state()` gives the integrated state when it is not the
   * tokens (null: the tokens are the integrated state); `ids()` gives the run's cluster
   * identities at that step (ParticleLab.identity_state, kept so colours continue as they were).
   * A step already recorded is kept as it is.
   */
  record(step, t, tokens, metrics, state = null, ids = null) {
    const last = this.samples.at(-1);
    if (last && last.step === step) return;
    if (last && last.step > step && this.samples.some((x) => x.step === step)) return;
    const x = tokens();
    if (x.length !== this.n * this.d) return;
    const y = state ? state() : x;
    if (y.length !== x.length) return;
    if (y !== x) this.perSample = 2 * this.n * this.d;
    const sample = { step, t, tokens: x, state: y, ids: ids ? ids() : null, metrics: plainMetrics(metrics) };
    if (last && last.step > step) {
      this.samples.splice(this.samples.findIndex((y) => y.step > step), 0, sample);
    } else {
      this.samples.push(sample);
    }
    if (this.samples.length > MAX_SAMPLES || this.samples.length * this.perSample > MAX_NUMBERS) this.thin();
  }

  /** Whether step `step` has a sample. */
  has(step) {
    return this.keptAtOrBefore(step)?.step === step;
  }

  /** The latest sample at or before `step` (its `state` continues the run), or null. */
  keptAtOrBefore(step) {
    let lo = 0;
    let hi = this.samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.samples[mid].step <= step) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? this.samples[lo - 1] : null;
  }

  /** Drops every other sample but the first and the newest. */
  thin() {
    const last = this.samples.length - 1;
    this.samples = this.samples.filter((_, i) => i % 2 === 0 || i === last);
    this.thinned = true;
  }

  /** The recorded steps, in order. */
  steps() {
    return this.samples.map((s) => s.step);
  }

  /** A short description of the recorded steps: "3 states, at steps 0, 10, 20". */
  describe() {
    const steps = this.steps();
    if (!steps.length) return 'no states yet';
    const shown = steps.length > 12 ? [...steps.slice(0, 6), '…', ...steps.slice(-3)] : steps;
    const thin = this.thinned ? ' (thinned to fit in memory)' : '';
    return `${steps.length} state${steps.length === 1 ? '' : 's'}${thin}, at step${steps.length === 1 ? '' : 's'} ${shown.join(', ')}`;
  }
}

/** The metrics of a sample as the CLI writes them (leaders as an array). */
function plainMetrics(m) {
  if (!m) return null;
  return {
    clusters: m.clusters,
    boolean_distance: m.boolean_distance,
    effective_rank: m.effective_rank,
    energy: m.energy ?? null,
    hyperplanes: m.hyperplanes ?? null,
    leaders: Array.from(m.leaders ?? []),
  };
}

/** The particle lab's record: run.js writes it, particles/exports.js reads it. */
export const runHistory = new RunHistory();
