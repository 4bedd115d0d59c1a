//! `cargo xtask bench`: each instruction set's peak ([`peak`]), the particle stepper against
//! NumPy and JAX, natively and in wasm, on one and on all cores (unless `--model-only`), then
//! (unless `--particles-only`) the model benchmark ([`model`]) and the training and depth labs'
//! timings. A benchmark that prints numbers, never a timed test.
//!
//! Particles ([`particles`]): for each case of the grid ([`cases`]), the native stepper on one
//! thread and on all cores (`attn bench --threads N`), on one thread built for the default
//! x86-64 target (the same SIMD width as wasm; `target/bench-baseline`), the wasm stepper under Node on one thread
//! and with the worker pool (`bench/wasm_bench.mjs`), a vectorised NumPy reference and a
//! jit-compiled JAX version of the same equations (`bench/reference.py`, in a virtual
//! environment made by [`python`]), all from the same initial tokens and for the same number of
//! steps; then one table ([`table`]) with ms per step, ns per pair-evaluation, ratios, the
//! check that the results agree, and peak memory; then the streaming-memory line and the
//! targets ([`table::targets`] at d <= 3, [`targets_wide`] at d = 16 and 128, [`page`]: the particle
//! page in Chromium beside the Node pool at n = 4096) and the GFLOP/s per d as a fraction of the
//! peaks ([`fractions`]). Training lab: `attn bench --training` and `bench/training_bench.mjs`;
//! depth lab: `attn bench --depth` and `bench/depth_bench.mjs`. Last, or alone with
//! `--open-only`, how fast each lab opens in Chromium ([`open`]).

mod cases;
mod fractions;
mod load;
mod model;
mod model_report;
mod open;
mod page;
mod particles;
mod peak;
mod python;
mod table;
mod targets_wide;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Result;

use crate::util::{self, cargo, output_of, phase, target_dir};
use crate::{toolchain, wasm};

/// Flags of `cargo xtask bench`.
pub struct Options {
    /// Minimum seconds timed per case and backend (the native single-thread run, which fixes the
    /// number of steps, takes this times the number of cores).
    pub min_seconds: f64,
    /// Only the particle comparison (no model benchmark, no training or depth lab phases).
    pub particles_only: bool,
    /// Only the model benchmark (and the peaks it is compared with).
    pub model_only: bool,
    /// Only n <= 1024 (and no streaming line at n = 16384).
    pub quick: bool,
    /// Rounds of the particle comparison; each case keeps each backend's fastest round.
    pub rounds: usize,
    /// Only the opening times: each lab's first picture in Chromium ([`open`]).
    pub open_only: bool,
}

/// Builds what is needed and runs the benchmark.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    toolchain::ensure_wasm_target()?;
    toolchain::ensure_wasm_bindgen_cli(root)?;
    wasm::build(root)?;
    crate::bundle::build(root)?;
    if options.open_only {
        return opening(root, options.rounds.max(3));
    }
    phase("build attn CLI (cargo build --release -p attn-cli)");
    util::run(cargo().args(["build", "--release", "-p", "attn-cli"]).current_dir(root), "CLI build")?;
    let attn = target_dir().join("release").join("attn");
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let peaks = measure_peaks(root, threads);
    let python = python::setup(&root.join("crates/xtask/bench/reference.py"));
    if !options.model_only {
        let baseline = build_baseline(root);
        particles_comparison(root, &attn, baseline, options, &python, &peaks)?;
    }
    if options.particles_only {
        return Ok(());
    }
    phase("model benchmark");
    model::run(&model::Setup {
        root,
        attn: attn.clone(),
        python: &python,
        threads,
        rounds: options.rounds.max(5),
        peaks: &peaks,
    })?;
    if options.model_only {
        return Ok(());
    }
    lab_phases(root, &attn)?;
    opening(root, options.rounds.max(3))
}

/// The opening times ([`open`]), printed: `/`'s first token frame, each lab's first picture and
/// the model lab's skeleton against their budgets, with the load average.
fn opening(root: &Path, rounds: usize) -> Result<()> {
    for line in open::lines(&open::measure(root, rounds)) {
        println!("{line}");
    }
    Ok(())
}

/// Seconds of 2 ms chunks per instruction set and thread count (a process shared with 10 others
/// on 2 cores gets about 40 chunks uninterrupted or not in a second).
const PEAK_SECONDS: f64 = 1.0;

/// The peak of each instruction set, natively and in wasm under Node; printed.
fn measure_peaks(root: &Path, threads: usize) -> peak::Peaks {
    phase("peaks: independent vector multiplies and adds (no FMA), native and wasm");
    let mut peaks = peak::native(threads, PEAK_SECONDS);
    let wasm = peak::wasm(root, threads, &mut peaks);
    println!("{}", machine_line(threads));
    for line in peak::lines(&peaks, threads) {
        println!("  {line}");
    }
    if let Err(why) = wasm {
        println!("  wasm peaks not measured: {why}");
    }
    peaks
}

/// The target of the baseline build: the default x86-64 target, whatever `.cargo/config.toml`
/// asks of native builds (the machine's widest SIMD).
const BASELINE_TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// Builds `attn` for the default x86-64 target (SSE2, the same f64 SIMD width as wasm's simd128)
/// into `target/bench-baseline`, so wasm can be compared with native code of the same width.
/// Returns the binary, or why there is none (another host, or a failed build).
fn build_baseline(root: &Path) -> std::result::Result<PathBuf, String> {
    if !(cfg!(target_arch = "x86_64") && cfg!(target_os = "linux")) {
        return Err(format!("the baseline build is for {BASELINE_TRIPLE} hosts"));
    }
    let dir = target_dir().join("bench-baseline");
    phase("build attn CLI for the default x86-64 target (target/bench-baseline)");
    let mut cmd = cargo();
    // RUSTFLAGS takes precedence over every `rustflags` of the config files (cargo uses the first
    // source it finds); `--config 'target.<triple>.rustflags=[]'` would not do: config arrays are
    // joined, so the repository's `-C target-cpu=native` stayed and this "baseline" was AVX-512.
    cmd.args(["build", "--release", "-p", "attn-cli", "--target-dir"])
        .arg(&dir)
        .env("RUSTFLAGS", "-C target-cpu=x86-64")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .current_dir(root);
    util::run(&mut cmd, "baseline CLI build").map_err(|e| format!("{e:#}"))?;
    Ok(dir.join("release").join("attn"))
}

/// The particle comparison: every backend, then the table.
fn particles_comparison(
    root: &Path,
    attn: &Path,
    attn_baseline: std::result::Result<PathBuf, String>,
    options: &Options,
    python: &python::Python,
    peaks: &peak::Peaks,
) -> Result<()> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let setup = particles::Setup {
        root,
        attn: attn.to_path_buf(),
        attn_baseline,
        threads,
        min_seconds: options.min_seconds,
        rounds: options.rounds,
        python,
        work: target_dir().join("bench").join("particles"),
    };
    let cases = cases::grid(options.quick);
    let streaming = (!options.quick).then(cases::streaming_config);
    let (rows, streamed) = particles::run(&setup, &cases, streaming.as_deref())?;
    let page_rate = page::measure(root, threads);

    phase("particles: comparison");
    println!("{}", machine_line(threads));
    let versions = [
        output_of(Command::new("node").arg("--version")).map(|v| format!("Node {}", v.trim())),
        python.numpy.as_ref().ok().cloned(),
        python.jax.as_ref().ok().cloned(),
    ];
    println!(
        "{}; all cores = {threads} threads / pool workers",
        versions.into_iter().flatten().collect::<Vec<_>>().join(", ")
    );
    println!();
    println!("{}", table::render(&rows));
    println!();
    println!("{}", table::LEGEND);
    for line in table::missing(&rows) {
        println!("{line}");
    }
    println!("{}", table::streaming_line(&streamed, streaming.as_deref().unwrap_or("")));
    println!();
    println!("Targets at d <= 3, per model:");
    for line in table::targets(&rows, &streamed) {
        println!("  {line}");
    }
    println!("Targets at d = 16 and 128, per model:");
    for line in targets_wide::targets(&rows) {
        println!("  {line}");
    }
    for line in page::lines(&page_rate) {
        println!("{line}");
    }
    println!();
    println!(
        "Achieved GFLOP/s (4d flops per pair-evaluation) as a fraction of each instruction set's measured peak (f64):"
    );
    println!("{}", fractions::render(&rows, peaks));
    Ok(())
}

/// Date, CPU, cores and load average, for the record.
fn machine_line(threads: usize) -> String {
    let date = output_of(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"])).unwrap_or_default();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into());
    format!("{}: {cpu}, {threads} cores, load average (1, 5, 15 min) {load}", date.trim())
}

/// The training and depth labs: native and wasm timings, as before the particle comparison.
fn lab_phases(root: &Path, attn: &Path) -> Result<()> {
    phase("training lab, native: attn bench --training");
    util::run(Command::new(attn).args(["bench", "--training"]), "native training bench")?;
    phase("training lab, wasm under Node: crates/xtask/bench/training_bench.mjs");
    util::run(
        Command::new("node")
            .arg(root.join("crates/xtask/bench/training_bench.mjs"))
            .arg(root.join("www/pkg"))
            .current_dir(root),
        "wasm training bench",
    )?;
    phase("depth lab, native: attn bench --depth");
    util::run(Command::new(attn).args(["bench", "--depth"]), "native depth bench")?;
    phase("depth lab, wasm under Node: crates/xtask/bench/depth_bench.mjs");
    util::run(
        Command::new("node")
            .arg(root.join("crates/xtask/bench/depth_bench.mjs"))
            .arg(root.join("www/pkg"))
            .current_dir(root),
        "wasm depth bench",
    )
}
