// The run loop every stepping lab shares (Rust owns the run's state and its step; JS owns the
// loop and the drawing): play, pause, one step, reset, the speed (steps per animation frame),
// stepping within a per-frame time budget, and seeking to a step in short slices that never
// freeze the page. A lab hands it hooks into its wasm run (the ParticleLab, the TrainingLab) and its
// views; the loop never draws itself.

import { RateMeter } from '../ui/rate.js';

/** Time spent stepping per animation frame (ms, of ~16). */
export const FRAME_BUDGET_MS = 10;

/** Time spent stepping per slice of a seek before yielding to the browser (ms). */
export const SLICE_MS = 12;

/** Items that fit in `left` ms at `cost` ms each: 1 to `remaining`; 1 while the cost is unknown. */
export function chunkFor(remaining, left, cost) {
  return Number.isFinite(cost) ? Math.max(1, Math.min(remaining, Math.floor(left / Math.max(cost, 1e-4)))) : 1;
}

/** The cost estimate updated with a measured `per` ms per item (exponential average). */
export function updateCost(cost, per) {
  return Number.isFinite(cost) ? 0.7 * cost + 0.3 * per : per;
}

/** Resolves after the browser has had a turn (a macrotask: hidden frames throttle animation frames). */
function yieldToBrowser() {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

/**
 * Advances `run` to step `target` (at least its current step) in slices of about SLICE_MS,
 * calling `onProgress()` after each; the steps are the run's own (past its end, stopping only at
 * a divergence), so the state reached is bit for bit the one stepping there by hand gives. Stops
 * early when `alive()` turns false (another command took over). With `pool` (`(k, budgetMs) =>
 * Promise<steps taken>`, stepping elsewhere) the slices are the pool's.
 * @param {{ count(): number, advancePast(k: number): number }} run
 * @param {number} target
 * @param {{ alive?: () => boolean, onProgress?: (step: number) => void, pool?: ((k: number, budgetMs: number) => Promise<number>) | null }} [options]
 * @returns {Promise<number>} the step reached
 */
export async function advanceTo(run, target, { alive = () => true, onProgress = () => {}, pool = null } = {}) {
  // After every await, `alive()` is asked before the run is touched: another command may have
  // replaced (and freed) it meanwhile.
  let step = run.count();
  if (pool) {
    while (step < target) {
      const got = await pool(target - step, 4 * SLICE_MS);
      if (!alive()) return step;
      step = run.count();
      onProgress(step);
      if (got === 0) break; // diverged, or another command took over
    }
    return step;
  }
  let chunk = 1;
  for (;;) {
    const t0 = performance.now();
    let diverged = false;
    while (run.count() < target && performance.now() - t0 < SLICE_MS) {
      const k = Math.min(chunk, target - run.count());
      const c0 = performance.now();
      const got = run.advancePast(k);
      if (got < k) {
        diverged = true;
        break;
      }
      // Grow the chunk while a chunk costs well under the slice (fewer calls into wasm).
      if (performance.now() - c0 < SLICE_MS / 4) chunk = Math.min(chunk * 2, 1 << 20);
      else chunk = Math.max(1, chunk >> 1);
    }
    step = run.count();
    onProgress(step);
    if (diverged || step >= target) return step;
    await yieldToBrowser();
    if (!alive()) return step;
  }
}

export class RunLoop {
  /**
   * @param {object} h
   * @param {() => object | null} h.run the run shown (with status() and message()), null before one
   * @param {(run: object) => number} h.count its step (iteration)
   * @param {(run: object, k: number, pastEnd: boolean) => number} h.advance up to k steps; the steps taken
   * @param {() => void} h.restart starts the run shown again from its start (a new run object)
   * @param {() => void} h.changed steps were taken: the views need redrawing
   * @param {(now: number, force: boolean) => void} h.render
   * @param {(message: string) => void} h.diverged shows a divergence
   * @param {(on: boolean) => void} h.playing shows playing or paused
   * @param {(k: number) => void} h.showSpeed shows the speed
   * @param {number[]} h.speeds the speeds offered
   * @param {number} [h.framesToEnd] frames in which the suggested speed plays a run to its end
   *   (needed by suggestSpeed only)
   * @param {boolean} [h.renderOnPause] render at once (forced) on pause
   * @param {boolean} [h.renderOnStep] render at once (forced) on a step
   * @param {(now: number) => void} [h.frame] a playing frame's stepping when not `runFrame` (the pool)
   * @param {() => boolean} [h.asleep] after a frame: nothing is left to draw and the lab calls `wake()` when there is (steps stepped elsewhere landing), so no frame is asked for meanwhile
   * @param {(run: object, done: (got: number) => void) => boolean} [h.stepElsewhere] one step taken off this thread (true: handled, `done` called when it lands)
   * @param {() => number} [h.sampleEvery] steps between the lab's sample steps (0: none)
   * @param {() => void} [h.sample] takes the sample of the current step, one of the sample steps (called at each one a frame or a seek reaches; the lab keeps what it has already)
   * @param {(alive: () => boolean) => Promise<void>} [h.idle] resolves once no step is in flight
   * @param {(run: object, alive: () => boolean) => ((k: number, budgetMs: number) => Promise<number>) | null} [h.seekPool]
   * @param {() => void} [h.seekProgress] a slice of a seek was computed
   * @param {() => void} [h.sought] a seek reached its step (before the views are drawn)
   * @param {(run: object, target: number) => boolean} [h.rewind] puts the run back at the latest state the lab kept at or before step `target` when that is nearer than stepping on from where it is (true: it did; the run then steps on from there with the same bits)
   */
  constructor(h) {
    this.h = h;
    this.playing = false;
    this.userPaused = false; // the user paused: a new run keeps the page paused
    this.pastEnd = false; // the user asked to continue after the run's end
    this.perFrame = 1; // steps per frame (the speed); below 1, a step every few frames
    this.owed = 0; // the fraction of a step carried to the next frame (speeds below 1)
    this.speedChosen = false; // the speed was chosen (slider or link) rather than suggested
    this.cost = NaN; // measured ms per step of the current run
    this.rate = new RateMeter(); // steps per second over the last second
    this.seeking = null; // the seek in progress (a token), if any
    this.visible = false;
    this.raf = 0;
  }

  /** A new run was started: forget the last one's timing; it plays unless the user paused. */
  started() {
    this.pastEnd = false;
    this.owed = 0;
    this.seeking = null;
    this.cost = NaN;
    this.rate.clear();
    this.setPlaying(!this.userPaused && this.h.run().status() === 'running');
  }

  setPlaying(on) {
    this.playing = on;
    this.wake();
    this.h.playing(on);
    if (!on) this.rate.clear();
  }

  /** Play / Pause (the button, Space). A diverged run stays paused with its message. */
  togglePlay() {
    const run = this.h.run();
    if (!run) return;
    if (this.playing) {
      this.userPaused = true;
      this.setPlaying(false);
      if (this.h.renderOnPause) this.h.render(performance.now(), true);
      return;
    }
    if (run.status() === 'diverged') {
      this.h.diverged(run.message());
      return;
    }
    if (run.status() === 'finished') this.pastEnd = true;
    this.userPaused = false;
    this.setPlaying(true);
  }

  /** Plays (as the Play button: past the end it plays on). */
  play() {
    if (this.h.run() && !this.playing) this.togglePlay();
  }

  /** Pauses (as the Pause button) and stops a seek in progress. */
  pause() {
    this.seeking = null;
    if (this.playing) this.togglePlay();
    else this.userPaused = true;
  }

  /** The run shown, from its start (Reset, R): a paused run stays paused. */
  reset() {
    if (this.h.run()) this.h.restart();
  }

  /** One step (the Step button, →): pauses first; past the end it steps on. */
  step() {
    const run = this.h.run();
    if (!run) return;
    this.seeking = null;
    if (this.playing) {
      this.userPaused = true;
      this.setPlaying(false);
    }
    if (run.status() === 'diverged') {
      this.h.diverged(run.message());
      return;
    }
    const done = (got) => {
      if (run.status() === 'diverged') this.h.diverged(run.message());
      if (got > 0) this.h.changed();
      this.h.render(performance.now(), Boolean(this.h.renderOnStep));
    };
    if (this.h.stepElsewhere?.(run, done)) return;
    done(this.h.advance(run, 1, run.status() === 'finished'));
  }

  /** The speed chosen (slider or link): `k` steps per frame. */
  setSpeed(k) {
    this.perFrame = k;
    this.owed = 0;
    this.speedChosen = true;
  }

  /** The speed the run suggests (its link writes none): `k` steps per frame, shown. */
  suggested(k) {
    this.perFrame = k;
    this.owed = 0;
    this.speedChosen = false;
    this.h.showSpeed(k);
  }

  /**
   * The steps this frame takes at the speed: `perFrame`, or below 1 step per frame the whole
   * steps owed so far (0.2: one step every fifth frame).
   */
  frameSteps() {
    if (this.perFrame >= 1) return this.perFrame;
    this.owed += this.perFrame;
    const k = Math.floor(this.owed + 1e-9);
    this.owed = Math.max(0, this.owed - k);
    return k;
  }

  /** A speed at which a run of `total` steps plays to its end in about `framesToEnd` frames. */
  suggestSpeed(total) {
    const target = Math.max(1, total / this.h.framesToEnd);
    const k = this.h.speeds.filter((v) => v <= target).at(-1) ?? 1;
    this.perFrame = k;
    this.speedChosen = false;
    this.h.showSpeed(k);
  }

  // ---- animation frames ----------------------------------------------------------------

  /** The lab is shown: frames step and draw. */
  show() {
    this.visible = true;
    if (!this.raf) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /** Another lab is shown: no frames (the run is kept). */
  hide() {
    this.visible = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  frame(now) {
    this.raf = 0;
    if (!this.visible) return;
    if (this.h.run()) {
      if (this.playing) {
        if (this.h.frame) this.h.frame(now);
        else if (this.runFrame(now) > 0) this.h.changed();
      }
      this.h.render(now, false);
      // A frame asked for at every display refresh costs the page a main-frame pass and a
      // commit even when nothing changed (~1 ms each, 60 a second), time the worker pool's
      // steps need: while the lab's steps land elsewhere, it sleeps until they do.
      if (this.playing && this.h.asleep?.()) return;
    }
    this.wake();
  }

  /** Asks for the next animation frame (the lab shown, none asked yet). */
  wake() {
    if (this.visible && !this.raf) this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /** Steps while playing, within the frame budget; returns the steps taken. */
  runFrame(now) {
    const run = this.h.run();
    const target = this.frameSteps();
    if (target === 0) {
      this.rate.record(now, 0);
      return 0;
    }
    const t0 = performance.now();
    // The lab's sample steps (sampleEvery) are each stopped at and sampled, the frame's last step
    // too: the samples are a function of the steps taken, not of where the frames stop.
    const every = this.h.sample ? (this.h.sampleEvery?.() ?? 0) : 0;
    let taken = 0;
    while (taken < target) {
      const elapsed = performance.now() - t0;
      if (taken > 0 && elapsed >= FRAME_BUDGET_MS) break;
      let chunk = chunkFor(target - taken, FRAME_BUDGET_MS - elapsed, this.cost);
      if (every > 0) chunk = Math.min(chunk, every - (this.h.count(run) % every));
      const c0 = performance.now();
      const got = this.h.advance(run, chunk, this.pastEnd);
      if (got > 0) this.cost = updateCost(this.cost, (performance.now() - c0) / got);
      taken += got;
      if (got > 0) this.sampleHere(run, every);
      if (got < chunk) break;
    }
    this.rate.record(now, taken);
    this.afterSteps();
    return taken;
  }

  /** Pauses at the run's end (unless playing past it) or on a divergence. */
  afterSteps() {
    const run = this.h.run();
    const status = run.status();
    if (status === 'diverged') {
      this.setPlaying(false);
      this.h.diverged(run.message());
    } else if (status === 'finished' && !this.pastEnd) {
      this.setPlaying(false);
    }
  }

  // ---- seeking -------------------------------------------------------------------------

  /**
   * Takes up to `k` steps past the run's end (a seek), stopping at each of the lab's sample steps
   * to take its sample, as playing does, so a `t=`/`step=` link or a scrub forward leaves the
   * same chart samples (and plateaus) and trails as playing there. Returns the steps taken.
   */
  advanceSampling(run, k) {
    const every = this.h.sample ? (this.h.sampleEvery?.() ?? 0) : 0;
    if (every <= 0) return this.h.advance(run, k, true);
    let done = 0;
    while (done < k) {
      const m = Math.min(k - done, every - (this.h.count(run) % every));
      const got = this.h.advance(run, m, true);
      done += got;
      if (got > 0) this.sampleHere(run, every);
      if (got < m) break;
    }
    return done;
  }

  /** Takes the sample of the run's step when it is one of the lab's sample steps. */
  sampleHere(run, every) {
    if (every > 0 && this.h.count(run) % every === 0) this.h.sample();
  }

  /**
   * Shows the run paused at step `target` (a whole number >= 0), computed in slices from the
   * nearest state the lab kept at or before it (`rewind`, the timeline's kept states), else from
   * the current step when it lies before, else from the start. Resolves to the step reached:
   * less than `target` when the run diverged on the way or another command (play, a new run,
   * another seek) took over.
   */
  async seekTo(target) {
    this.pause();
    let run = this.h.run();
    if (!run) return 0;
    const token = {};
    this.seeking = token;
    const alive = () => this.seeking === token && this.h.run() === run && !this.playing;
    // A step in flight (the pool) lands before the run is put back at a kept state.
    if (this.h.rewind && this.h.idle) await this.h.idle(alive);
    if (!alive()) return this.h.run() ? this.h.count(this.h.run()) : 0;
    const rewound = this.h.rewind?.(run, target) ?? false;
    if (!rewound && (target < this.h.count(run) || run.status() === 'diverged')) {
      this.h.restart();
      run = this.h.run();
      this.seeking = token;
    }
    if (this.h.idle) await this.h.idle(alive);
    const steps = { count: () => this.h.count(run), advancePast: (k) => this.advanceSampling(run, k) };
    const pool = this.h.seekPool?.(run, alive) ?? null;
    const reached = await advanceTo(steps, target, { alive, onProgress: () => this.h.seekProgress?.(), pool });
    if (this.seeking === token) this.seeking = null;
    if (this.h.run() !== run) return reached;
    this.h.sought?.();
    this.h.changed();
    if (run.status() === 'diverged') this.h.diverged(run.message());
    this.h.render(performance.now(), true);
    return this.h.count(run);
  }
}
