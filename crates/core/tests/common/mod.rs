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

/// Largest absolute difference.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}
