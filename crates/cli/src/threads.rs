//! The particle stepper on every core: each velocity evaluation is split into blocks of rows
//! (tokens), one per thread, each thread with its own [`Field`] (queries, keys and values are
//! recomputed per thread; O(n d^2) against the O(n^2 d) of the rows). A row's sums are computed
//! inside one thread in the core's fixed lane order, so the tokens are bit-identical to the
//! single-thread stepper and to the page's worker pool whatever the number of threads.

use attn_core::integrate::Stage;
use attn_core::model::{check_velocity, Divergence, Field};
use attn_core::{Config, Simulation, Status, Stepping};

/// Below this many pair evaluations per velocity evaluation (`n^2`), one thread is used: the
/// cost of starting threads would exceed the work.
const MIN_PAIRS_PER_THREAD: usize = 64 * 64;

/// A [`Simulation`] whose velocity evaluations run on `threads` threads.
pub struct Threaded {
    sim: Simulation,
    fields: Vec<Field>,
}

impl Threaded {
    /// The run of a validated configuration on `threads` threads (at least 1; fewer when `n` is
    /// small).
    pub fn new(config: &Config, threads: usize) -> Threaded {
        let sim = Simulation::new(config);
        let useful = (config.n * config.n / MIN_PAIRS_PER_THREAD).max(1);
        let threads = threads.clamp(1, useful.min(config.n));
        let fields = (0..threads).map(|_| Field::new(config, sim.matrices())).collect();
        Threaded { sim, fields }
    }

    /// The number of threads used per evaluation.
    pub fn threads(&self) -> usize {
        self.fields.len()
    }

    /// The simulation (state, clock, status, views).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The simulation, mutably (views that need scratch, e.g. `tokens_in`).
    pub fn sim_mut(&mut self) -> &mut Simulation {
        &mut self.sim
    }
}

/// Rows `lo..hi` of block `b` of `blocks` over `n` tokens (sizes differ by at most one).
pub fn block(n: usize, blocks: usize, b: usize) -> (usize, usize) {
    (b * n / blocks, (b + 1) * n / blocks)
}

/// One velocity evaluation over the fields' threads: the first block on the calling thread, the
/// others on scoped threads. The first error in row order is returned.
fn evaluate(fields: &mut [Field], d: usize, st: Stage, x: &[f64], out: &mut [f64]) -> Result<(), Divergence> {
    let blocks = fields.len();
    let n = x.len() / d;
    let results: Vec<Result<(), Divergence>> = std::thread::scope(|scope| {
        let mut rest: &mut [f64] = out;
        let mut handles = Vec::with_capacity(blocks);
        let mut first = None;
        for (b, field) in fields.iter_mut().enumerate() {
            let (lo, hi) = block(n, blocks, b);
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut((hi - lo) * d);
            rest = tail;
            if b == 0 {
                first = Some((field, lo, hi, mine));
            } else {
                handles.push(scope.spawn(move || field.velocity_rows(st.t, x, lo, hi, mine, st.projected)));
            }
        }
        let mut results = Vec::with_capacity(blocks);
        if let Some((field, lo, hi, mine)) = first {
            results.push(field.velocity_rows(st.t, x, lo, hi, mine, st.projected));
        }
        for h in handles {
            results.push(h.join().unwrap_or_else(|_| Err(Divergence { message: "a stepping thread panicked".into() })));
        }
        results
    });
    results.into_iter().collect::<Result<(), Divergence>>()?;
    check_velocity(out)
}

impl Stepping for Threaded {
    fn step(&mut self) -> Result<(), Divergence> {
        if self.fields.len() == 1 {
            return self.sim.step();
        }
        let d = self.sim.d();
        let fields = &mut self.fields;
        let mut eval = |st: Stage, x: &[f64], out: &mut [f64]| evaluate(fields, d, st, x, out);
        self.sim.step_with(Some(&mut eval))
    }

    fn status(&self) -> &Status {
        self.sim.status()
    }
}
