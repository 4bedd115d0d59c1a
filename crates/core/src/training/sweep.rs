//! The learning-rate sweep of science.md §5: final distinct-token entropy over a grid of
//! `eta_Z` and `r = eta_Y / eta_Z` (and optionally the number of query tokens), mean and standard
//! deviation over seeds. [`run_cell`] runs one cell, so a Web Worker can run cells one by one
//! and report progress; [`sweep`] runs a whole grid. [`check_sweep_size`] is the one limit on a
//! sweep's size (page and CLI), and [`estimated_run_seconds`] what the page's form shows before
//! a sweep starts.

use super::analysis::snap_iteration;
use super::config::TrainingConfig;
use super::trainer::Trainer;
use crate::link::ConfigError;
use serde::Serialize;

/// The paper's `eta_Z` values.
pub const PAPER_ETA_Z: [f64; 4] = [0.5, 1.0, 2.0, 3.0];
/// The paper's `r = eta_Y / eta_Z` values.
pub const PAPER_RATIO: [f64; 4] = [1.0, 2.0, 5.0, 10.0];
/// Most seeds per cell.
pub const MAX_SEEDS: u32 = 1000;
/// Most cells of one sweep (the page's form and `attn sweep` alike).
pub const MAX_CELLS: usize = 400;
/// Most runs of one sweep: cells × seeds.
pub const MAX_RUNS: u64 = 40_000;

/// The size of a sweep that [`check_sweep_size`] accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SweepSize {
    /// Cells of the grid (`queries × eta_z × ratio` values).
    pub cells: usize,
    /// Runs: cells × seeds.
    pub runs: u64,
}

/// Checks the size of a sweep over lists of `queries`, `eta_z` and `ratio` values (their
/// lengths) with `seeds` seeds per cell: every list non-empty, `seeds` in `1..=1000`, at most
/// [`MAX_CELLS`] cells and [`MAX_RUNS`] runs. One limit for the page and the CLI: a sweep the
/// page would run for hours is refused before it starts. A grid too large is refused on its
/// longest list (`eta_z`, then `ratio`, then `queries` when as long), whose key the error names.
pub fn check_sweep_size(queries: usize, eta_z: usize, ratio: usize, seeds: u32) -> Result<SweepSize, ConfigError> {
    let lists = [("eta_z", eta_z), ("ratio", ratio), ("queries", queries)];
    if let Some((key, _)) = lists.iter().find(|(_, n)| *n == 0) {
        return Err(ConfigError::new(key, "give at least one value"));
    }
    if seeds == 0 || seeds > MAX_SEEDS {
        return Err(ConfigError::new("seeds", format!("{} is out of range; allowed: 1..={}", seeds, MAX_SEEDS)));
    }
    let longest = lists.iter().fold(lists[0], |best, l| if l.1 > best.1 { *l } else { best }).0;
    let cells = queries.saturating_mul(eta_z).saturating_mul(ratio);
    let grid = if queries > 1 {
        format!("{} eta_z × {} ratio × {} queries values", eta_z, ratio, queries)
    } else {
        format!("{} eta_z × {} ratio values", eta_z, ratio)
    };
    if cells > MAX_CELLS {
        return Err(ConfigError::new(
            longest,
            format!(
                "{} = {} cells; a sweep runs at most {} cells: shorten the list of {}",
                grid, cells, MAX_CELLS, longest
            ),
        ));
    }
    let runs = cells as u64 * seeds as u64;
    if runs > MAX_RUNS {
        return Err(ConfigError::new(
            longest,
            format!(
                "{} = {} cells × {} seeds = {} runs; a sweep trains at most {} runs: shorten the list of {} or use fewer seeds",
                grid, cells, seeds, runs, MAX_RUNS, longest
            ),
        ));
    }
    Ok(SweepSize { cells, runs })
}

/// Native nanoseconds per context token drawn, per `M × (3 |S| + 1)` (the output logits, their
/// gradient and `Yᵀ δ` over the context's support `S`, and the softmax over `M`) and per `M²`
/// of each iteration (the updates): a fit over eleven configurations (M from 16 to 468, batch 4
/// to 1024, seq_len 4 to 1024) on the 2-core development machine; runs longer than 10 ms came
/// within a factor 2 of the measured time.
const NS_PER_DRAW: f64 = 8.0;
const NS_PER_PRODUCT: f64 = 0.4;
const NS_PER_UPDATE: f64 = 6.0;

/// An estimate of the seconds one run of `c` takes natively (within about a factor 2; wasm in a
/// browser takes about twice as long): its iterations × (batch × the work of a sequence + the
/// updates), with the context's support size measured on 64 sequences of its data.
pub fn estimated_run_seconds(c: &TrainingConfig) -> f64 {
    let data = super::data::Dataset::new(c);
    let m = data.m();
    let mut rng = crate::rng::Rng::new(c.seed, 0xe57_1a7e);
    let (mut dense, mut support, mut counts) = (vec![0u32; m], Vec::new(), Vec::new());
    let draws = 64;
    let mut total = 0usize;
    for _ in 0..draws {
        data.draw(&mut rng, &mut dense, &mut support, &mut counts);
        total += support.len();
    }
    let s = total as f64 / draws as f64;
    let m = m as f64;
    let sequence = NS_PER_DRAW * (c.seq_len - 1) as f64 + NS_PER_PRODUCT * m * (3.0 * s + 1.0);
    let iteration = c.batch as f64 * sequence + NS_PER_UPDATE * m * m;
    c.iterations as f64 * iteration * 1e-9
}

/// One grid point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SweepCell {
    /// Number of query tokens (`queries`).
    pub queries: usize,
    /// Learning rate of `Z`.
    pub eta_z: f64,
    /// `eta_Y / eta_Z`.
    pub ratio: f64,
}

/// The result of one cell over its seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellResult {
    /// Number of query tokens.
    pub queries: usize,
    /// Learning rate of `Z`.
    pub eta_z: f64,
    /// `eta_Y / eta_Z`.
    pub ratio: f64,
    /// Mean of the final distinct-token entropies (nats).
    pub mean: f64,
    /// Population standard deviation (divide by the number of seeds) of the final entropies (nats).
    pub std: f64,
    /// Final distinct-token entropy of each seed (nats), in seed order.
    pub entropies: Vec<f64>,
    /// Snap iteration of each seed ([`snap_iteration`] with the configuration's `snap_tol`).
    pub snap_iterations: Vec<Option<usize>>,
    /// Final loss of each seed (the last iteration's batch loss, nats; NaN with 0 iterations).
    pub final_losses: Vec<f64>,
}

impl CellResult {
    /// Mean snap iteration over the seeds whose attention snapped (`None` if none did), and the
    /// number of seeds that had not snapped by the end of their run.
    pub fn mean_snap_iteration(&self) -> (Option<f64>, usize) {
        let snapped: Vec<f64> = self.snap_iterations.iter().flatten().map(|&s| s as f64).collect();
        let unsnapped = self.snap_iterations.len() - snapped.len();
        if snapped.is_empty() {
            (None, unsnapped)
        } else {
            (Some(snapped.iter().sum::<f64>() / snapped.len() as f64), unsnapped)
        }
    }
}

/// The cells of a grid, in the order queries, then `eta_z`, then `ratio` (the last fastest).
pub fn grid(queries: &[usize], eta_z: &[f64], ratio: &[f64]) -> Vec<SweepCell> {
    let mut out = Vec::with_capacity(queries.len() * eta_z.len() * ratio.len());
    for &q in queries {
        for &e in eta_z {
            for &r in ratio {
                out.push(SweepCell { queries: q, eta_z: e, ratio: r });
            }
        }
    }
    out
}

/// The configuration of `cell` and seed number `s` (`0..seeds`): `base` with the cell's
/// `queries`, `eta_z`, `ratio` and `seed = base.seed + s` (wrapping), validated.
pub fn cell_config(base: &TrainingConfig, cell: &SweepCell, s: u32) -> Result<TrainingConfig, ConfigError> {
    let c = TrainingConfig {
        queries: cell.queries,
        eta_z: cell.eta_z,
        ratio: cell.ratio,
        seed: base.seed.wrapping_add(s),
        ..base.clone()
    };
    c.validate()?;
    Ok(c)
}

/// Runs one cell: `seeds` runs of `base.iterations` iterations (seeds `base.seed + 0 ..
/// base.seed + seeds - 1`), each reporting its final entropy. `seeds` in 1..=1000.
pub fn run_cell(base: &TrainingConfig, cell: &SweepCell, seeds: u32) -> Result<CellResult, ConfigError> {
    if seeds == 0 || seeds > MAX_SEEDS {
        return Err(ConfigError::new("seeds", format!("{} is out of range; allowed: 1..={}", seeds, MAX_SEEDS)));
    }
    let mut entropies = Vec::with_capacity(seeds as usize);
    let mut snap_iterations = Vec::with_capacity(seeds as usize);
    let mut final_losses = Vec::with_capacity(seeds as usize);
    for s in 0..seeds {
        let c = cell_config(base, cell, s)?;
        let mut t = Trainer::new(&c);
        t.run();
        entropies.push(t.entropy());
        snap_iterations.push(snap_iteration(&t.record().max_dc, c.snap_tol));
        final_losses.push(t.last_loss());
    }
    let (mean, std) = mean_std(&entropies);
    Ok(CellResult {
        queries: cell.queries,
        eta_z: cell.eta_z,
        ratio: cell.ratio,
        mean,
        std,
        entropies,
        snap_iterations,
        final_losses,
    })
}

/// Runs every cell of `cells` with [`run_cell`], in order.
pub fn sweep(base: &TrainingConfig, cells: &[SweepCell], seeds: u32) -> Result<Vec<CellResult>, ConfigError> {
    cells.iter().map(|cell| run_cell(base, cell, seeds)).collect()
}

/// Mean and population standard deviation of `xs` (`(NaN, NaN)` when empty).
pub fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}
