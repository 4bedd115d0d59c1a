//! The learning-rate sweep of science.md §5: final distinct-token entropy over a grid of
//! `eta_Z` and `r = eta_Y / eta_Z` (and optionally the number of query tokens), mean and standard
//! deviation over seeds. [`run_cell`] runs one cell, so a Web Worker can run cells one by one
//! and report progress; [`sweep`] runs a whole grid.

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
    (mean, libm::sqrt(var))
}
