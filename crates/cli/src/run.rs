//! `attn run`: frames at a fixed step interval, as JSON or CSV.

use crate::threads::Threaded;
use crate::{Format, RunArgs};
use attn_core::link::format_f64;
use attn_core::particles::analysis::{Metrics, MetricsScratch};
use attn_core::particles::csv;
use attn_core::run::steps_for;
use attn_core::{parse, Simulation, Stepping};
use serde::Serialize;
use std::io::Write;

/// Largest `--until / dt`, as for the configuration's own `until`.
const MAX_STEPS: f64 = 1e8;

/// Why a run did not complete.
#[derive(Debug)]
pub enum Failure {
    /// Bad input (configuration or flags): exit status 2.
    Input(String),
    /// The run diverged; the frames up to the last good state were printed: exit status 3.
    Diverged(String),
    /// Writing the output failed.
    Output(String),
}

#[derive(Serialize)]
struct Frame<'a> {
    step: u64,
    t: f64,
    tokens: Vec<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attention: Option<Vec<&'a [f64]>>,
    /// `None` (null) only for the last good frame of a diverged run whose P overflows.
    metrics: Option<&'a Metrics>,
}

/// The run's frame schedule: steps 0, every, 2 every, ... and `last`.
struct Schedule {
    every: u64,
    last: u64,
}

fn schedule(args: &RunArgs, dt: f64, config_until: f64) -> Result<Schedule, Failure> {
    let until = args.until.unwrap_or(config_until);
    if !until.is_finite() || !(0.0..=1e6).contains(&until) || until / dt > MAX_STEPS {
        return Err(Failure::Input(format!(
            "--until must be a time in [0, 1e6] with until / dt <= 1e8 steps (dt = {})",
            format_f64(dt)
        )));
    }
    let every = match args.every {
        None => 1,
        Some(e) if !e.is_finite() || e <= 0.0 => return Err(Failure::Input("--every must be a positive time".into())),
        Some(e) if e >= dt * (1.0 - 1e-9) => steps_for(e, dt).max(1),
        Some(e) => {
            return Err(Failure::Input(format!("--every {} is below dt = {}; use at least dt", e, format_f64(dt))))
        }
    };
    if args.attention && args.format == Format::Csv {
        return Err(Failure::Input("--attention needs --format json (CSV rows hold tokens only)".into()));
    }
    Ok(Schedule { every, last: steps_for(until, dt) })
}

/// The configuration part of `--config`: a whole page address (`http://…/index.html#…`, as
/// "Copy link" gives it) is cut to its fragment; anything else is passed on as it is.
fn link_fragment(text: &str) -> &str {
    match text.find("://").and(text.find('#')) {
        Some(i) => &text[i + 1..],
        None => text,
    }
}

/// Runs `args`, writing the output to `out`.
pub fn run(args: &RunArgs, out: &mut dyn Write) -> Result<(), Failure> {
    crate::check_lab(link_fragment(&args.config), "particles", "attn run").map_err(Failure::Input)?;
    let config = parse(link_fragment(&args.config)).map_err(|e| Failure::Input(format!("invalid --config: {}", e)))?;
    let plan = schedule(args, config.dt, config.until)?;
    let threads = args.threads.unwrap_or_else(crate::default_threads);
    if threads == 0 || threads > 256 {
        return Err(Failure::Input("--threads must be in 1..=256".into()));
    }
    let mut run = Threaded::new(&config, threads);
    let mut scratch = MetricsScratch::default();
    scratch.keep_p = args.attention;
    let mut writer = Writer { args, out, first: true, scratch };
    writer.open(&config.to_canonical_string(), config.d)?;
    let result = frames(&mut run, &plan, &mut writer);
    writer.close()?;
    result
}

fn frames(run: &mut Threaded, plan: &Schedule, writer: &mut Writer) -> Result<(), Failure> {
    loop {
        let step = run.sim().step_count();
        let due = step.is_multiple_of(plan.every) || step == plan.last;
        // A due state whose metrics overflow is still printed (tokens, `"metrics": null`): the
        // next step needs the same attention scores, so it is the last good state, the one the
        // page shows and exports.
        let unmeasured = if due { writer.frame(run.sim_mut())? } else { None };
        if step >= plan.last {
            return unmeasured.map_or(Ok(()), |m| Err(Failure::Diverged(m)));
        }
        if let Err(e) = run.step() {
            // The state is the last good one: show it (tokens only when its metrics cannot be
            // computed), then stop with the explanation.
            if !due {
                writer.frame(run.sim_mut())?;
            }
            return Err(Failure::Diverged(e.message));
        }
    }
}

struct Writer<'a> {
    args: &'a RunArgs,
    out: &'a mut dyn Write,
    first: bool,
    scratch: MetricsScratch,
}

fn io(e: std::io::Error) -> Failure {
    Failure::Output(e.to_string())
}

impl Writer<'_> {
    fn open(&mut self, canonical: &str, d: usize) -> Result<(), Failure> {
        match self.args.format {
            Format::Json => {
                let config = serde_json::to_string(canonical).map_err(|e| Failure::Output(e.to_string()))?;
                write!(self.out, "{{\"config\":{},\"frames\":[", config).map_err(io)
            }
            Format::Csv => writeln!(self.out, "{}", csv::token_header(d)).map_err(io),
        }
    }

    /// Writes the state: with its metrics, or tokens only (`"metrics": null`) when they cannot be
    /// computed (the attention scores overflow: the run is at its last good state), returning
    /// then why.
    fn frame(&mut self, sim: &mut Simulation) -> Result<Option<String>, Failure> {
        match Metrics::compute(sim, &mut self.scratch) {
            Ok(metrics) => self.write_frame(sim, Some(&metrics)).map(|()| None),
            Err(why) => {
                let (n, d, coords) = (sim.n(), sim.d(), sim.config().coords);
                self.scratch.tokens.resize(n * d, 0.0);
                sim.tokens_in(coords, &mut self.scratch.tokens);
                self.write_frame(sim, None).map(|()| Some(why))
            }
        }
    }

    fn write_frame(&mut self, sim: &mut Simulation, metrics: Option<&Metrics>) -> Result<(), Failure> {
        let (n, d) = (sim.n(), sim.d());
        match self.args.format {
            Format::Json => {
                let frame = Frame {
                    step: sim.step_count(),
                    t: sim.t(),
                    tokens: self.scratch.tokens.chunks(d).collect(),
                    attention: (self.args.attention && metrics.is_some()).then(|| self.scratch.p.chunks(n).collect()),
                    metrics,
                };
                if !self.first {
                    self.out.write_all(b",").map_err(io)?;
                }
                serde_json::to_writer(&mut *self.out, &frame).map_err(|e| Failure::Output(e.to_string()))?;
            }
            Format::Csv => {
                let rows =
                    csv::token_rows(sim.step_count(), sim.t(), &self.scratch.tokens, d).map_err(Failure::Output)?;
                self.out.write_all(rows.as_bytes()).map_err(io)?;
            }
        }
        self.first = false;
        Ok(())
    }

    fn close(&mut self) -> Result<(), Failure> {
        if self.args.format == Format::Json {
            self.out.write_all(b"]}\n").map_err(io)?;
        }
        self.out.flush().map_err(io)
    }
}
