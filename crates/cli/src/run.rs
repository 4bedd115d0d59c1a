//! `attn run`: frames at a fixed step interval, as JSON or CSV.

use crate::{Format, RunArgs};
use attn_core::analysis::{Metrics, MetricsScratch};
use attn_core::config::format_f64;
use attn_core::sim::steps_for;
use attn_core::{parse, Simulation};
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
struct Frame<'a> {
    step: u64,
    t: f64,
    tokens: Vec<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attention: Option<Vec<&'a [f64]>>,
    metrics: &'a Metrics,
}

/// Runs `args`, writing the output to `out`. Errors are messages for the user.
pub fn run(args: &RunArgs, out: &mut dyn Write) -> Result<(), String> {
    let config = parse(&args.config).map_err(|e| format!("invalid --config: {}", e))?;
    let dt = config.dt;
    let until = args.until.unwrap_or(config.until);
    if !(until >= 0.0 && until.is_finite()) {
        return Err("--until must be a finite time >= 0".into());
    }
    let last = steps_for(until, dt);
    let every = match args.every {
        None => 1,
        Some(e) if e.is_finite() && e >= dt * (1.0 - 1e-9) => steps_for(e, dt).max(1),
        Some(e) => return Err(format!("--every {} is below dt = {}; use at least dt", e, format_f64(dt))),
    };
    let mut sim = Simulation::new(&config);
    let (n, d) = (sim.n(), sim.d());
    let mut scratch = MetricsScratch::default();
    let io = |e: std::io::Error| e.to_string();
    let mut first = true;
    match args.format {
        Format::Json => write!(out, "{{\"config\":{},\"frames\":[", json(&config.to_canonical_string())).map_err(io)?,
        Format::Csv => {
            let coords: Vec<String> = (0..d).map(|c| format!("coord_{}", c)).collect();
            writeln!(out, "step,t,i,{}", coords.join(",")).map_err(io)?
        }
    }
    let mut emit = |sim: &mut Simulation, out: &mut dyn Write, first: &mut bool| -> Result<(), String> {
        let metrics = Metrics::compute(sim, &mut scratch)?;
        match args.format {
            Format::Json => {
                let frame = Frame {
                    step: sim.step_count(),
                    t: sim.t(),
                    tokens: scratch.tokens.chunks(d).collect(),
                    attention: args.attention.then(|| scratch.p.chunks(n).collect()),
                    metrics: &metrics,
                };
                if !*first {
                    out.write_all(b",").map_err(io)?;
                }
                serde_json::to_writer(&mut *out, &frame).map_err(|e| e.to_string())?;
            }
            Format::Csv => {
                for (i, row) in scratch.tokens.chunks(d).enumerate() {
                    let cells: Vec<String> = row.iter().map(|&x| format_f64(x)).collect();
                    writeln!(out, "{},{},{},{}", sim.step_count(), format_f64(sim.t()), i, cells.join(",")).map_err(io)?;
                }
            }
        }
        *first = false;
        Ok(())
    };
    loop {
        let step = sim.step_count();
        let due = step % every == 0 || step == last;
        if due {
            emit(&mut sim, out, &mut first)?;
        }
        if step >= last {
            break;
        }
        if let Err(e) = sim.step() {
            // The state is the last good one: show it, then stop with the explanation.
            if !due {
                emit(&mut sim, out, &mut first)?;
            }
            if args.format == Format::Json {
                out.write_all(b"]}\n").map_err(io)?;
            }
            return Err(e.message);
        }
    }
    if args.format == Format::Json {
        out.write_all(b"]}\n").map_err(io)?;
    }
    Ok(())
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}
