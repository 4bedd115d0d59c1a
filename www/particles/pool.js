// The worker pool of the particle lab: one row worker per core, each with its own wasm
// instance, each computing a block of rows of every velocity evaluation. The run itself (the
// ParticleLab: state, clock, integrator arithmetic, status) stays with the caller; a step is driven
// stage by stage (ParticleLab.begin_step / stage_state / supply_velocity), so the tokens are
// bit-identical to ParticleLab.advance whatever the number of workers. Works in the page (module Web
// Workers) and under Node (worker_threads, crates/xtask/bench/pool.mjs) through `spawn`.

/**
 * @typedef {{ post(msg: object, transfer?: Transferable[]): void,
 *             listen(f: (msg: object) => void): void, terminate(): void }} WorkerPort
 */

export class Pool {
  /**
   * @param {number} size number of workers (>= 1)
   * @param {() => WorkerPort} spawn starts one row worker (www/workers/rows.js)
   * @param {WebAssembly.Module} module the compiled attn_web module, shared by every worker
   */
  constructor(size, spawn, module) {
    this.size = size;
    this.seq = 0;
    this.config = null;
    this.busy = false;
    this.later = null; // what the last analyses left for later (see step)
    this.stageMs = NaN; // the slowest worker's time for a stage without analyses (average)
    this.waiting = new Map();
    this.workers = [];
    const started = [];
    for (let w = 0; w < size; w += 1) {
      const port = spawn();
      this.workers.push(port);
      started.push(new Promise((resolve) => {
        port.listen((msg) => {
          if (msg.type === 'hello') port.post({ type: 'init', module });
          else if (msg.type === 'ready') resolve();
          else this.receive(msg);
        });
      }));
    }
    this.ready = Promise.all(started);
  }

  receive(msg) {
    const pending = this.waiting.get(msg.seq);
    if (pending) pending(msg);
  }

  /** Sends `msg` to worker `w` and resolves with its reply (matched by sequence number). */
  ask(w, msg, transfer = []) {
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, (reply) => {
        this.waiting.delete(seq);
        resolve(reply);
      });
      this.workers[w].post({ ...msg, seq }, transfer);
    });
  }

  /** Gives every worker the run's configuration (its field); rejects with the configuration error. */
  async configure(config) {
    await this.ready;
    if (this.config === config) return;
    this.config = null;
    this.stageMs = NaN;
    const replies = await Promise.all(this.workers.map((_, w) => this.ask(w, { type: 'config', config })));
    const bad = replies.find((r) => r.error);
    if (bad) throw new Error(bad.error);
    this.config = config;
  }

  /**
   * One velocity evaluation of `state` (n x d) at stage time `t`, split over the workers; with
   * `analyse` (ParticleLab.analysis_spec) each worker also analyses its rows of P, and the result
   * holds their analyses in block order (`partials`).
   */
  async velocity(state, n, d, t, projected, analyse = null) {
    const blocks = Math.min(this.size, n);
    const asks = [];
    for (let b = 0; b < blocks; b += 1) {
      // Every worker needs the whole state (keys and values of all tokens): a copy each, the
      // last one takes the original. Worker b computes block b of `blocks` (the core's row split,
      // as the CLI's threads); its reply says where its rows start.
      const copy = b === blocks - 1 ? state : state.slice();
      const msg = { type: 'rows', t, state: copy, block: b, blocks, projected };
      if (analyse) msg.analyse = analyse;
      asks.push(this.ask(b, msg, [copy.buffer]));
    }
    this.runLater(); // while the workers compute
    const replies = await Promise.all(asks);
    const out = new Float64Array(n * d);
    for (const r of replies) {
      if (r.error) return { error: r.error };
      out.set(r.velocity, r.lo * d);
    }
    // The slowest worker's computing time: a stage's, or with the analyses the time they added.
    const ms = Math.max(...replies.map((r) => r.ms ?? 0));
    if (!analyse) {
      this.stageMs = Number.isFinite(this.stageMs) ? 0.7 * this.stageMs + 0.3 * ms : ms;
      return { velocity: out };
    }
    const workerMs = Number.isFinite(this.stageMs) ? Math.max(0, ms - this.stageMs) : 0;
    return { velocity: out, partials: replies.map((r) => r.partial), workerMs };
  }

  /**
   * Takes one step of `stepper` (configuration `config`) with the workers. Resolves true when the
   * step was taken, false when it diverged (the stepper then holds the message and its last good
   * state) or was cancelled (`alive()` turned false: the stepper was replaced or stepped by
   * someone else).
   *
   * `analyses` ({ spec(stepper), take(stepper, partials, workerMs) }): when `spec` gives what to
   * analyse at the step's start (ParticleLab.analysis_spec, or null), the workers also analyse
   * the state the step starts from during its first stage (which sees the same P), and `take`
   * gets their analyses (for ParticleLab.supply_analyses) and the time they added to the slowest
   * worker's stage (ms, against its recent stages without) before the step completes, while the stepper
   * still holds that state; what it returns (a function, or nothing) runs once the workers have
   * the next stage (or when `advance` returns), so this thread's share overlaps their work.
   */
  async step(stepper, config, alive = () => true, analyses = null) {
    if (this.busy) throw new Error('the pool is already stepping');
    this.busy = true;
    try {
      await this.configure(config);
      if (!alive()) return false;
      stepper.begin_step();
      const n = stepper.n();
      const d = stepper.d();
      const spec = analyses?.spec(stepper) ?? null;
      let analyse = spec && { ...spec, positions: Uint32Array.from(spec.positions) };
      for (;;) {
        if (!alive() || !stepper.stage_pending()) return false;
        const t = stepper.stage_t();
        const projected = stepper.stage_projected();
        const result = await this.velocity(stepper.stage_state(), n, d, t, projected, analyse);
        analyse = null;
        if (!alive() || !stepper.stage_pending()) return false;
        if (result.error) {
          stepper.abort_step(result.error);
          return false;
        }
        if (result.partials) this.later = analyses.take(stepper, result.partials, result.workerMs) ?? null;
        try {
          if (stepper.supply_velocity(result.velocity)) return true;
        } catch {
          return false; // diverged: the stepper keeps the message and the last good state
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** Runs what the last analyses left for later (`take`'s result), once. */
  runLater() {
    const f = this.later;
    this.later = null;
    if (f) {
      try {
        f();
      } catch (e) {
        console.warn(e);
      }
    }
  }

  /**
   * Up to `k` steps, stopping after `budgetMs` (at least one step), at a divergence, at the run's
   * end unless `pastEnd`, or when `alive()` turns false; `analyses` as for `step`. Resolves with
   * the steps taken.
   */
  async advance(stepper, config, k, { budgetMs = Infinity, pastEnd = false, alive = () => true, analyses = null } = {}) {
    const t0 = performance.now();
    let taken = 0;
    while (taken < k && (taken === 0 || performance.now() - t0 < budgetMs)) {
      if (!pastEnd && stepper.status() !== 'running') break;
      if (!(await this.step(stepper, config, alive, analyses))) break;
      taken += 1;
    }
    this.runLater();
    return taken;
  }

  /** The wasm memory size (bytes) of each worker's instance. */
  async memoryBytes() {
    await this.ready;
    const replies = await Promise.all(this.workers.map((_, w) => this.ask(w, { type: 'memory' })));
    return replies.map((r) => r.bytes);
  }

  terminate() {
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }
}
