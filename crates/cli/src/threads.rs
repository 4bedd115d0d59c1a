//! The particle stepper on every core: each velocity evaluation is split into blocks of rows
//! (tokens), one per thread of a rayon pool kept for the run, each thread with its own [`Field`] (queries, keys and values are
//! recomputed per thread; O(n d^2) against the O(n^2 d) of the rows). A row's sums are computed
//! inside one thread in the core's fixed lane order, so the tokens are bit-identical to the
//! single-thread stepper and to the page's worker pool whatever the number of threads.

use attn_core::particles::field::{check_velocity, Field};
use attn_core::particles::integrate::Stage;
use attn_core::Divergence;
use attn_core::{Config, Simulation, Status, Stepping};

/// Below this many pair evaluations per velocity evaluation (`n^2`), one thread is used: the
/// cost of starting threads would exceed the work.
const MIN_PAIRS_PER_THREAD: usize = 64 * 64;

/// A [`Simulation`] whose velocity evaluations run on `threads` threads.
pub struct Threaded {
    sim: Simulation,
    fields: Vec<Field>,
    /// The threads (kept for the whole run: starting threads per evaluation cost ~10% of a step
    /// at n = 1024); `None` for one thread.
    pool: Option<rayon::ThreadPool>,
}

impl Threaded {
    /// The run of a validated configuration on `threads` threads (at least 1; fewer when `n` is
    /// small).
    pub fn new(config: &Config, threads: usize) -> Threaded {
        let sim = Simulation::new(config);
        let useful = (config.n * config.n / MIN_PAIRS_PER_THREAD).max(1);
        let threads = threads.clamp(1, useful.min(config.n));
        let fields: Vec<Field> = (0..threads).map(|_| Field::new(config, sim.matrices())).collect();
        // A pool that cannot start (no threads on this system) steps on the calling thread.
        let pool = if threads > 1 { rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok() } else { None };
        let fields = if pool.is_some() { fields } else { fields.into_iter().take(1).collect() };
        Threaded { sim, fields, pool }
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

pub use attn_core::particles::field::row_block as block;

/// One velocity evaluation over the pool's threads: block `b` of rows goes to `fields[b]`, one
/// task per block (which thread runs it does not change its bits). The first error in row order
/// is returned.
fn evaluate(
    pool: &rayon::ThreadPool,
    fields: &mut [Field],
    d: usize,
    st: Stage,
    x: &[f64],
    out: &mut [f64],
) -> Result<(), Divergence> {
    use rayon::prelude::*;
    let blocks = fields.len();
    let n = x.len() / d;
    let mut outs: Vec<(usize, usize, &mut [f64])> = Vec::with_capacity(blocks);
    let mut rest: &mut [f64] = out;
    for b in 0..blocks {
        let (lo, hi) = block(n, blocks, b);
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut((hi - lo) * d);
        rest = tail;
        outs.push((lo, hi, mine));
    }
    let results: Vec<Result<(), Divergence>> = pool.install(|| {
        fields
            .par_iter_mut()
            .zip(outs.par_iter_mut())
            .map(|(field, (lo, hi, mine))| field.velocity_rows(st.t, x, *lo, *hi, mine, st.projected))
            .collect()
    });
    results.into_iter().collect::<Result<(), Divergence>>()?;
    check_velocity(out)
}

impl Stepping for Threaded {
    fn step(&mut self) -> Result<(), Divergence> {
        let Some(pool) = &self.pool else {
            return self.sim.step();
        };
        let d = self.sim.d();
        let fields = &mut self.fields;
        let mut eval = |st: Stage, x: &[f64], out: &mut [f64]| evaluate(pool, fields, d, st, x, out);
        self.sim.step_with(Some(&mut eval))
    }

    fn status(&self) -> &Status {
        self.sim.status()
    }
}
