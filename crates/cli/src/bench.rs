//! `attn bench`: milliseconds per step of the native stepper (a benchmark that prints numbers,
//! never a timed test).

use attn_core::{parse, Simulation};
use std::time::Instant;

/// The benchmark configuration for a case: V = I in z (the paper's setting), Gaussian tokens.
pub fn case_config(integrator: &str, n: usize, d: usize) -> String {
    format!("preset=polytope&n={}&d={}&integrator={}&init=gaussian&scale=1&until=1000000", n, d, integrator)
}

/// Times `config` for at least `min_seconds` (and at least 2 steps after one warm-up step).
pub fn time_config(config: &str, min_seconds: f64) -> Result<f64, String> {
    let c = parse(config).map_err(|e| e.to_string())?;
    let mut sim = Simulation::new(&c);
    sim.step().map_err(|e| e.message)?;
    let start = Instant::now();
    let mut steps = 0u32;
    while steps < 2 || start.elapsed().as_secs_f64() < min_seconds {
        sim.step().map_err(|e| e.message)?;
        steps += 1;
    }
    Ok(start.elapsed().as_secs_f64() * 1e3 / steps as f64)
}

/// Runs the grid: Euler and RK4, n in {64, 256, 1024}, d in {2, 3, 128}; prints a table.
pub fn run(min_seconds: f64) -> Result<(), String> {
    println!("native stepper (one thread), model euclidean in z, V = I");
    println!("{:<8} {:>6} {:>5} {:>12} {:>16}", "scheme", "n", "d", "ms/step", "ns/pair-eval");
    for integrator in ["euler", "rk4"] {
        for n in [64usize, 256, 1024] {
            for d in [2usize, 3, 128] {
                let ms = time_config(&case_config(integrator, n, d), min_seconds)?;
                let evals = if integrator == "rk4" { 4.0 } else { 1.0 };
                let ns_pair = ms * 1e6 / (evals * (n * n) as f64);
                println!("{:<8} {:>6} {:>5} {:>12.4} {:>16.2}", integrator, n, d, ms, ns_pair);
            }
        }
    }
    Ok(())
}
