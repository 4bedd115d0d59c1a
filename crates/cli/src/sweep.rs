//! `attn sweep`: the learning-rate sweep of science.md §5, final distinct-token entropy (mean
//! and standard deviation over seeds) per cell of a grid of `queries`, `eta_z` and `ratio`.

use attn_core::training::{check_sweep_size, grid, parse, run_cell, CellResult, PAPER_ETA_Z, PAPER_RATIO};
use clap::ValueEnum;
use serde::Serialize;
use std::io::Write;

/// Output formats of `attn sweep`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum SweepFormat {
    /// `{"config", "seeds", "iterations", "cells": [{"queries", "eta_z", "ratio", "mean", "std", ...}]}`.
    Json,
    /// A table for reading: one row per cell.
    Table,
}

/// Arguments of `attn sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Base training configuration; each cell overrides `queries`, `eta_z`, `ratio`, and
    /// `seed` (base seed + 0, 1, ...).
    #[arg(long, default_value = "lab=training&preset=scan-snap-sweep")]
    pub config: String,
    /// Seeds per cell (1..=1000; at most 40000 runs, cells × seeds, per sweep).
    #[arg(long, default_value_t = 10)]
    pub seeds: u32,
    /// Values of eta_z (comma-separated); default the paper's 0.5,1,2,3. At most 400 cells
    /// (queries × eta_z × ratio values) per sweep.
    #[arg(long, value_delimiter = ',')]
    pub eta_z: Vec<f64>,
    /// Values of ratio = eta_Y / eta_Z (comma-separated); default the paper's 1,2,5,10.
    #[arg(long, value_delimiter = ',')]
    pub ratio: Vec<f64>,
    /// Numbers of query tokens (comma-separated); default the configuration's `queries`.
    #[arg(long, value_delimiter = ',')]
    pub queries: Vec<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SweepFormat::Json)]
    pub format: SweepFormat,
    /// Print one line per finished cell on standard error.
    #[arg(long)]
    pub progress: bool,
}

#[derive(Serialize)]
struct Cell<'a> {
    #[serde(flatten)]
    result: &'a CellResult,
    /// Mean snap iteration over the seeds that snapped (null if none did).
    mean_snap_iteration: Option<f64>,
    /// Seeds whose attention had not snapped by the end of the run.
    unsnapped: usize,
}

#[derive(Serialize)]
struct Output<'a> {
    config: String,
    seeds: u32,
    iterations: usize,
    cells: Vec<Cell<'a>>,
}

fn mean_snap(r: &CellResult) -> (Option<f64>, usize) {
    let snapped: Vec<f64> = r.snap_iterations.iter().flatten().map(|&s| s as f64).collect();
    let unsnapped = r.snap_iterations.len() - snapped.len();
    if snapped.is_empty() {
        (None, unsnapped)
    } else {
        (Some(snapped.iter().sum::<f64>() / snapped.len() as f64), unsnapped)
    }
}

/// Runs `args`, writing the output to `out`. Errors are messages for the user.
pub fn run(args: &SweepArgs, out: &mut dyn Write) -> Result<(), String> {
    crate::check_lab(&args.config, "training", "attn sweep")?;
    let base = parse(&args.config).map_err(|e| format!("invalid --config: {}", e))?;
    let eta_z = if args.eta_z.is_empty() { PAPER_ETA_Z.to_vec() } else { args.eta_z.clone() };
    let ratio = if args.ratio.is_empty() { PAPER_RATIO.to_vec() } else { args.ratio.clone() };
    let queries = if args.queries.is_empty() { vec![base.queries] } else { args.queries.clone() };
    // The flag of a key the grid sets, if any.
    let flag = |key: &str| match key {
        "seeds" => Some("--seeds"),
        "eta_z" => Some("--eta-z"),
        "ratio" => Some("--ratio"),
        "queries" => Some("--queries"),
        _ => None,
    };
    // The one limit on a sweep's size (the page's form has the same), before any cell runs.
    check_sweep_size(queries.len(), eta_z.len(), ratio.len(), args.seeds)
        .map_err(|e| format!("invalid {}: {}", flag(&e.key).unwrap_or("sweep"), e))?;
    let cells = grid(&queries, &eta_z, &ratio);
    let mut results = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        let r = run_cell(&base, cell, args.seeds).map_err(|e| {
            let flag = flag(&e.key).map(String::from).unwrap_or_else(|| {
                format!("cell queries={} eta_z={} ratio={}, key {}", cell.queries, cell.eta_z, cell.ratio, e.key)
            });
            format!("invalid {}: {}", flag, e)
        })?;
        if args.progress {
            eprintln!(
                "cell {}/{}: queries {} eta_z {} ratio {}: entropy {:.4} +- {:.4}",
                i + 1,
                cells.len(),
                r.queries,
                r.eta_z,
                r.ratio,
                r.mean,
                r.std
            );
        }
        results.push(r);
    }
    let io = |e: std::io::Error| e.to_string();
    match args.format {
        SweepFormat::Json => {
            let output = Output {
                config: base.to_canonical_string(),
                seeds: args.seeds,
                iterations: base.iterations,
                cells: results
                    .iter()
                    .map(|r| {
                        let (mean_snap_iteration, unsnapped) = mean_snap(r);
                        Cell { result: r, mean_snap_iteration, unsnapped }
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut *out, &output).map_err(|e| e.to_string())?;
            out.write_all(b"\n").map_err(io)?;
        }
        SweepFormat::Table => {
            writeln!(
                out,
                "final distinct-token entropy (nats) over {} seeds, {} iterations; {}",
                args.seeds,
                base.iterations,
                base.to_canonical_string()
            )
            .map_err(io)?;
            writeln!(out, "{:>7} {:>7} {:>7} {:>8} {:>8} {:>10}", "queries", "eta_z", "ratio", "mean", "std", "snap")
                .map_err(io)?;
            for r in &results {
                let snap = match mean_snap(r) {
                    (Some(s), 0) => format!("{:.1}", s),
                    (Some(s), u) => format!("{:.1} ({} no)", s, u),
                    (None, _) => "-".into(),
                };
                writeln!(
                    out,
                    "{:>7} {:>7} {:>7} {:>8.4} {:>8.4} {:>10}",
                    r.queries, r.eta_z, r.ratio, r.mean, r.std, snap
                )
                .map_err(io)?;
            }
        }
    }
    Ok(())
}
