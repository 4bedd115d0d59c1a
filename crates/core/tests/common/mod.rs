//! Shared helpers for the science checks.
#![allow(dead_code)]

pub mod alloc;
pub mod fuzz;
pub mod malformed;
pub mod model;

use attn_core::{parse, Simulation};

/// A simulation of `config`, panicking on a configuration error (tests only).
pub fn sim(config: &str) -> Simulation {
    Simulation::new(&parse(config).unwrap_or_else(|e| panic!("{}: {}", config, e)))
}

/// Runs `sim` for `steps` steps, panicking on divergence.
pub fn run(sim: &mut Simulation, steps: u64) {
    for _ in 0..steps {
        sim.step().unwrap_or_else(|e| panic!("diverged: {}", e.message));
    }
}

/// The attention matrix of the current state.
pub fn attention(sim: &mut Simulation) -> Vec<f64> {
    let n = sim.n();
    let mut p = vec![0.0; n * n];
    sim.attention(&mut p).expect("attention");
    p
}

/// The larger and the smaller of two numbers, NaN when either is NaN: the core's own folds
/// ([`attn_core::nan`]). `f64::max` returns the other argument when one is NaN, so a fold with it
/// drops a NaN output and a largest-difference check passes.
pub use attn_core::nan::{max as nan_max, min as nan_min};

/// Largest absolute difference (0 for empty slices); NaN when a difference is NaN, so that
/// `max_diff(..) < tol` fails on a NaN output.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| nan_max(m, (x - y).abs()))
}

/// [`max_diff`] of `f32` values against an `f64` reference of the same length.
pub fn max_diff_f32(a: &[f32], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).fold(0.0f64, |m, (&x, y)| nan_max(m, (x as f64 - y).abs()))
}

/// Largest `|x|` (0 for an empty slice); NaN when an entry is NaN.
pub fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0f64, |m, x| nan_max(m, x.abs()))
}
