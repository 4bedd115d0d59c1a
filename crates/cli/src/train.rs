//! `attn train`: one training-lab run (science.md §5), per-iteration loss, entropy and attention
//! change, then the final `c_n`, as JSON or CSV.

use attn_core::link::format_f64;
use attn_core::training::{parse, Trainer};
use clap::ValueEnum;
use serde::Serialize;
use std::io::Write;

/// Output formats of `attn train`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum TrainFormat {
    /// `{"config", "m", "labels", "classes", "iterations": [...], "final_entropy", "snap_iteration", "c"}`.
    Json,
    /// One row per iteration: `iteration,loss,entropy,max_dc` (a last row for the final state, loss empty).
    Csv,
}

/// Arguments of `attn train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training configuration (`lab=training&preset=scan-snap&...`); empty for `scan-snap`.
    #[arg(long, default_value = "")]
    pub config: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TrainFormat::Json)]
    pub format: TrainFormat,
    /// JSON only: add the recorded query row's attention logits `Z[query_row, :]` (M) and the
    /// `c_n` of its classes (K_q x M) to every iteration.
    #[arg(long)]
    pub query_record: bool,
}

#[derive(Serialize)]
struct Iteration<'a> {
    /// Iteration index `i`: the update from state `i` to state `i + 1`.
    iteration: usize,
    /// Batch loss at state `i` (nats).
    loss: f64,
    /// Distinct-token entropy at state `i` (nats).
    entropy: f64,
    /// `max |c(state i+1) - c(state i)|`.
    max_dc: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    query_logits: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    query_c: Option<Vec<&'a [f64]>>,
}

#[derive(Serialize)]
struct ClassOut<'a> {
    query: usize,
    next: usize,
    query_label: &'a str,
    next_label: &'a str,
    distinct: &'a [usize],
}

#[derive(Serialize)]
struct Output<'a> {
    config: String,
    m: usize,
    labels: &'a [String],
    classes: Vec<ClassOut<'a>>,
    query_token: usize,
    query_classes: &'a [usize],
    iterations: Vec<Iteration<'a>>,
    /// Entropy of the final state (after the last iteration).
    final_entropy: f64,
    snap_iteration: Option<usize>,
    snap_tol: f64,
    status: String,
    /// Final `c_n`, one row of M per class.
    c: Vec<&'a [f64]>,
}

/// Runs `args`, writing the output to `out`. Errors are messages for the user.
pub fn run(args: &TrainArgs, out: &mut dyn Write) -> Result<(), String> {
    crate::check_lab(&args.config, "training", "attn train")?;
    let config = parse(&args.config).map_err(|e| format!("invalid --config: {}", e))?;
    let mut trainer = Trainer::new(&config);
    let mut failure = None;
    while trainer.iteration() < config.iterations {
        if let Err(e) = trainer.step() {
            failure = Some(e.message);
            break;
        }
    }
    let t = &trainer;
    let r = t.record();
    let m = t.m();
    let kq = t.query_classes().len();
    let io = |e: std::io::Error| e.to_string();
    match args.format {
        TrainFormat::Json => {
            let labels = t.data().labels();
            let iterations = (0..r.loss.len())
                .map(|i| Iteration {
                    iteration: i,
                    loss: r.loss[i],
                    entropy: r.entropy[i],
                    max_dc: r.max_dc[i],
                    query_logits: args.query_record.then(|| &r.query_logits[i * m..(i + 1) * m]),
                    query_c: args.query_record.then(|| r.query_c[i * kq * m..(i + 1) * kq * m].chunks(m).collect()),
                })
                .collect();
            let output = Output {
                config: config.to_canonical_string(),
                m,
                labels,
                classes: t
                    .classes()
                    .iter()
                    .map(|c| ClassOut {
                        query: c.query,
                        next: c.next,
                        query_label: &labels[c.query],
                        next_label: &labels[c.next],
                        distinct: &c.distinct,
                    })
                    .collect(),
                query_token: t.query_token(),
                query_classes: t.query_classes(),
                iterations,
                final_entropy: t.entropy(),
                snap_iteration: t.snap_iteration(),
                snap_tol: config.snap_tol,
                status: failure.clone().unwrap_or_else(|| "finished".into()),
                c: t.c().chunks(m).collect(),
            };
            serde_json::to_writer(&mut *out, &output).map_err(|e| e.to_string())?;
            out.write_all(b"\n").map_err(io)?;
        }
        TrainFormat::Csv => {
            writeln!(out, "iteration,loss,entropy,max_dc").map_err(io)?;
            for i in 0..r.loss.len() {
                writeln!(
                    out,
                    "{},{},{},{}",
                    i,
                    format_f64(r.loss[i]),
                    format_f64(r.entropy[i]),
                    format_f64(r.max_dc[i])
                )
                .map_err(io)?;
            }
            writeln!(out, "{},,{},", r.loss.len(), format_f64(t.entropy())).map_err(io)?;
        }
    }
    match failure {
        Some(message) => Err(message),
        None => Ok(()),
    }
}
