//! `attn bench --config CONFIG`: times the native particle stepper on one configuration (a
//! benchmark that prints numbers, never a timed test). One warm-up step, then `--steps K` timed
//! steps, or as many as take `--min-seconds` (at least 2; 1 when the warm-up step alone took
//! [`LONG_STEP_SECONDS`] or more). Reports ms per step, ns per pair-evaluation (`n^2` per
//! attention evaluation, 4 evaluations per RK4 step) and the peak live heap of the case.
//!
//! For the cross-checks of `cargo xtask bench`, `--dump-initial DIR` writes the initial tokens
//! and `Q, K, V` with the equations' parameters (`case.json`, see [`dump_initial`]), and
//! `--tokens-out FILE` the tokens after the warm-up and timed steps; both as raw little-endian
//! f64, row-major.

use crate::heap;
use crate::threads::Threaded;
use attn_core::particles::config::{Integrator, Space};
use attn_core::particles::init;
use attn_core::{parse, Config, Simulation, Stepping};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// With no `--steps`, a warm-up step this long (seconds) or longer makes one timed step enough.
pub const LONG_STEP_SECONDS: f64 = 1.0;

/// Options of `attn bench` for a particle configuration.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Minimum seconds measured (after one warm-up step), unless --steps is given.
    #[arg(long, default_value_t = 0.3)]
    pub min_seconds: f64,
    /// Threads stepping the run: 1 is the core's single-thread stepper; more split the rows of
    /// each attention evaluation between threads (fewer are used when n is small).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Exactly this many timed steps after the warm-up step.
    #[arg(long)]
    pub steps: Option<u64>,
    /// Write the initial tokens, Q, K, V and `case.json` (the equations' parameters) into this folder.
    #[arg(long)]
    pub dump_initial: Option<PathBuf>,
    /// Write the tokens x after the warm-up and timed steps to this file (n x d little-endian f64).
    #[arg(long)]
    pub tokens_out: Option<PathBuf>,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    pub json: bool,
}

/// What the benchmark needs of a stepper: one step, the tokens x, the threads it uses.
trait Timed {
    /// One step; the error is the divergence message.
    fn step(&mut self) -> Result<(), String>;
    /// The tokens x (`n x d`, row-major).
    fn tokens_x(&mut self) -> Vec<f64>;
    /// Threads stepping the run.
    fn threads(&self) -> usize;
}

fn tokens_x(sim: &mut Simulation) -> Vec<f64> {
    let mut out = vec![0.0; sim.n() * sim.d()];
    sim.tokens_in(Space::X, &mut out);
    out
}

impl Timed for Simulation {
    fn step(&mut self) -> Result<(), String> {
        Simulation::step(self).map_err(|e| e.message)
    }

    fn tokens_x(&mut self) -> Vec<f64> {
        tokens_x(self)
    }

    fn threads(&self) -> usize {
        1
    }
}

impl Timed for Threaded {
    fn step(&mut self) -> Result<(), String> {
        Stepping::step(self).map_err(|e| e.message)
    }

    fn tokens_x(&mut self) -> Vec<f64> {
        tokens_x(self.sim_mut())
    }

    fn threads(&self) -> usize {
        Threaded::threads(self)
    }
}

/// The stepper for `threads` threads: the core's [`Simulation`] for 1 (nothing else allocated,
/// so its peak heap is the core's own), the CLI's [`Threaded`] stepper for more (the same bits;
/// it may use fewer threads when n is small).
fn stepper(config: &Config, threads: usize) -> Result<Box<dyn Timed>, String> {
    match threads {
        0 | 257.. => Err("--threads must be in 1..=256".into()),
        1 => Ok(Box::new(Simulation::new(config))),
        _ => Ok(Box::new(Threaded::new(config, threads))),
    }
}

/// Attention evaluations per step: 4 for RK4, 1 for Euler and the retraction.
pub fn evaluations_per_step(integrator: Integrator) -> u64 {
    match integrator {
        Integrator::Rk4 => 4,
        Integrator::Euler | Integrator::Retraction => 1,
    }
}

/// The measurements of one case.
#[derive(serde::Serialize)]
struct Report {
    config: String,
    n: usize,
    d: usize,
    threads: usize,
    warmup_ms: f64,
    steps: u64,
    ms_per_step: f64,
    ns_per_pair: f64,
    pair_evaluations_per_step: u64,
    /// Peak live heap bytes from building the run to the last timed step, above the live bytes before.
    peak_heap_bytes: usize,
}

/// Runs `attn bench --config config` with `args`.
pub fn run(config: &str, args: &Args) -> Result<(), String> {
    let c = parse(config).map_err(|e| format!("invalid --config: {}", e))?;
    if !(args.min_seconds.is_finite() && args.min_seconds >= 0.0) {
        return Err("--min-seconds must be a number of seconds >= 0".into());
    }
    if args.steps == Some(0) {
        return Err("--steps must be at least 1".into());
    }
    if let Some(dir) = &args.dump_initial {
        dump_initial(&c, dir).map_err(|e| format!("--dump-initial {}: {}", dir.display(), e))?;
    }
    let base = heap::reset_peak();
    let mut sim = stepper(&c, args.threads)?;
    let start = Instant::now();
    sim.step()?;
    let warmup = start.elapsed().as_secs_f64();
    let min_steps = if warmup >= LONG_STEP_SECONDS { 1 } else { 2 };
    let start = Instant::now();
    let mut steps = 0u64;
    loop {
        let done = match args.steps {
            Some(k) => steps >= k,
            None => steps >= min_steps && start.elapsed().as_secs_f64() >= args.min_seconds,
        };
        if done {
            break;
        }
        sim.step()?;
        steps += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    let peak = heap::peak().saturating_sub(base);
    if let Some(path) = &args.tokens_out {
        write_f64(path, &sim.tokens_x()).map_err(|e| format!("--tokens-out {}: {}", path.display(), e))?;
    }
    let pairs = evaluations_per_step(c.integrator) * (c.n as u64) * (c.n as u64);
    let ms = seconds * 1e3 / steps as f64;
    let report = Report {
        config: c.to_canonical_string(),
        n: c.n,
        d: c.d,
        threads: sim.threads(),
        warmup_ms: warmup * 1e3,
        steps,
        ms_per_step: ms,
        ns_per_pair: ms * 1e6 / pairs as f64,
        pair_evaluations_per_step: pairs,
        peak_heap_bytes: peak,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        println!(
            "{}: {} thread(s), {:.4} ms per step, {:.2} ns per pair-evaluation ({} timed steps after a warm-up step of {:.1} ms); peak heap {} bytes",
            report.config, report.threads, report.ms_per_step, report.ns_per_pair, report.steps, report.warmup_ms, report.peak_heap_bytes
        );
    }
    Ok(())
}

/// Writes `values` as raw little-endian f64.
fn write_f64(path: &Path, values: &[f64]) -> std::io::Result<()> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(path, bytes)
}

/// Writes into `dir` (created if missing) what an independent implementation of the equations
/// needs: `x0.f64` (the initial tokens, `n x d`), `q.f64`, `k.f64`, `v.f64` (`d x d`, acting as
/// `Q x_i`), all raw little-endian f64 row-major, and `case.json`:
/// `{"config", "model", "integrator", "integrate_in", "n", "d", "beta", "dt", "tokens", "q", "k", "v"}`
/// (`model`, `integrator`, `integrate_in` as in configuration strings; the last four are file names).
pub fn dump_initial(c: &Config, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let m = init::matrices(c);
    let files = [("x0.f64", init::tokens(c)), ("q.f64", m.q), ("k.f64", m.k), ("v.f64", m.v)];
    for (name, values) in &files {
        write_f64(&dir.join(name), values).map_err(|e| format!("{}: {}", name, e))?;
    }
    let case = serde_json::json!({
        "config": c.to_canonical_string(),
        "model": c.model,
        "integrator": c.integrator,
        "integrate_in": c.integrate_in,
        "n": c.n,
        "d": c.d,
        "beta": c.beta,
        "dt": c.dt,
        "tokens": "x0.f64",
        "q": "q.f64",
        "k": "k.f64",
        "v": "v.f64",
    });
    std::fs::write(dir.join("case.json"), case.to_string()).map_err(|e| format!("case.json: {}", e))
}
