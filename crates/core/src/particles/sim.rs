//! A running simulation: the state, the clock, and the status shown to the user.

use super::config::{Config, Model, Space};
use super::field::Field;
use super::init::{self, Matrices};
use super::integrate::{self, Scratch};
use crate::linalg::apply_rows;
use crate::run::{format_time, steps_for, Divergence, Status, Stepping};

impl Stepping for Simulation {
    fn step(&mut self) -> Result<(), Divergence> {
        Simulation::step(self)
    }

    fn status(&self) -> &Status {
        Simulation::status(self)
    }
}

/// The particle simulation of one configuration.
///
/// Holds the integrated variable (x, or z = exp(-tV) x for the Euclidean model with
/// `integrate_in = z`), `n x d` row-major, and the step count; `t = step * dt`.
#[derive(Clone, Debug)]
pub struct Simulation {
    config: Config,
    field: Field,
    matrices: Matrices,
    state: Vec<f64>,
    backup: Vec<f64>,
    scratch: Scratch,
    step: u64,
    until_steps: u64,
    status: Status,
    view_m: Vec<f64>,
    initial_spread: f64,
    /// The stage of a step driven by [`Simulation::supply_velocity`], if one is in progress.
    pending_stage: Option<usize>,
}

impl Simulation {
    /// Builds the run of a validated configuration at `t = 0`.
    pub fn new(config: &Config) -> Simulation {
        let m = init::matrices(config);
        let state = init::tokens(config);
        let len = state.len();
        let d = config.d;
        Simulation {
            config: config.clone(),
            field: Field::new(config, &m),
            matrices: m,
            backup: state.clone(),
            state,
            scratch: Scratch::new(len),
            step: 0,
            until_steps: steps_for(config.until, config.dt),
            status: if config.until > 0.0 { Status::Running } else { Status::Finished },
            view_m: vec![0.0; d * d],
            initial_spread: crate::particles::analysis::spread(&init::tokens(config), config.n, d),
            pending_stage: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The resolved `Q, K, V` (`d x d` each).
    pub fn matrices(&self) -> &Matrices {
        &self.matrices
    }

    /// Number of tokens.
    pub fn n(&self) -> usize {
        self.config.n
    }

    /// Token dimension.
    pub fn d(&self) -> usize {
        self.config.d
    }

    /// Steps taken.
    pub fn step_count(&self) -> u64 {
        self.step
    }

    /// The step at which the run stops: `round(until / dt)`.
    pub fn until_steps(&self) -> u64 {
        self.until_steps
    }

    /// Current time `step * dt` (time units).
    pub fn t(&self) -> f64 {
        self.step as f64 * self.config.dt
    }

    /// The spread (largest coordinate range) of the initial tokens, where x = z: the length
    /// scale of the `clusters` metric.
    pub fn initial_spread(&self) -> f64 {
        self.initial_spread
    }

    /// Where the run stands.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The integrated variable (`n x d`, row-major): z for the Euclidean model integrated in z,
    /// otherwise x.
    pub fn state(&self) -> &[f64] {
        &self.state
    }

    /// Puts the run back at step `step` with integrated state `state` (`n x d`, row-major, as
    /// [`Simulation::state`] gave it at that step): the page's timeline shows a kept state and
    /// continues from it. Stepping from here gives the bits stepping from step 0 gives, since a
    /// step reads nothing but the state, the step index and the configuration. The status follows
    /// the step (running, or finished at `until`); a step in progress is dropped. Errors (the run
    /// unchanged) when the state has the wrong length or a non-finite entry.
    pub fn restore(&mut self, step: u64, state: &[f64]) -> Result<(), String> {
        if state.len() != self.state.len() {
            return Err(format!(
                "a state of {} numbers for {} tokens of dimension {}",
                state.len(),
                self.n(),
                self.d()
            ));
        }
        if !state.iter().all(|x| x.is_finite()) {
            return Err("a state with a non-finite entry".into());
        }
        self.pending_stage = None;
        self.state.copy_from_slice(state);
        self.backup.copy_from_slice(state);
        self.step = step;
        self.status = if step >= self.until_steps { Status::Finished } else { Status::Running };
        Ok(())
    }

    /// Takes one step regardless of `until`. On overflow the state is restored to the last good
    /// one and the status becomes [`Status::Diverged`]. Allocates nothing.
    pub fn step(&mut self) -> Result<(), Divergence> {
        self.step_with(None)
    }

    /// [`Simulation::step`] with the velocity evaluated by `eval` (the CLI's threads), or by the
    /// simulation's own field when `None`. Any evaluator that computes each row as
    /// [`Field::velocity_rows`] does gives the same bits.
    pub fn step_with(&mut self, eval: Option<&mut integrate::Evaluate>) -> Result<(), Divergence> {
        if let Status::Diverged(m) = &self.status {
            return Err(Divergence { message: m.clone() });
        }
        self.pending_stage = None;
        self.backup.copy_from_slice(&self.state);
        let c = &self.config;
        let sphere = c.model != Model::Euclidean;
        let field = &mut self.field;
        let mut own = |st: integrate::Stage, x: &[f64], out: &mut [f64]| field.velocity(st.t, x, out, st.projected);
        let eval: &mut integrate::Evaluate = match eval {
            Some(e) => e,
            None => &mut own,
        };
        let result =
            integrate::step_with(c.integrator, sphere, eval, &mut self.state, self.step, c.dt, c.d, &mut self.scratch);
        self.conclude(result)
    }

    /// Starts a step whose velocities are computed elsewhere (the page's worker pool): the
    /// caller then repeatedly takes [`Simulation::pending_stage`], evaluates the velocity of that
    /// state and hands it to [`Simulation::supply_velocity`]. Same arithmetic, same bits, as
    /// [`Simulation::step`]. Errors when the run has diverged.
    pub fn begin_step(&mut self) -> Result<(), Divergence> {
        if let Status::Diverged(m) = &self.status {
            return Err(Divergence { message: m.clone() });
        }
        self.backup.copy_from_slice(&self.state);
        self.pending_stage = Some(0);
        Ok(())
    }

    /// The stage of the step in progress and the state (`n x d`, row-major) at which its
    /// velocity is wanted; `None` when no step is in progress.
    pub fn pending_stage(&mut self) -> Option<(integrate::Stage, &[f64])> {
        let k = self.pending_stage?;
        let c = &self.config;
        let st = integrate::stage(c.integrator, c.model != Model::Euclidean, self.step, c.dt, k);
        let (input, _) = integrate::stage_buffers(c.integrator, k, &self.state, c.dt, &mut self.scratch);
        Some((st, input))
    }

    /// Hands in the velocity (`n x d`) of the pending stage. Returns `Ok(true)` when this
    /// completed the step, `Ok(false)` when another stage is pending. A non-finite velocity, or
    /// no step in progress, is an error; a divergence restores the last good state.
    pub fn supply_velocity(&mut self, velocity: &[f64]) -> Result<bool, Divergence> {
        let Some(k) = self.pending_stage else {
            return Err(Divergence { message: "no step in progress".into() });
        };
        if velocity.len() != self.state.len() {
            return Err(Divergence {
                message: format!("velocity of length {} for {} numbers", velocity.len(), self.state.len()),
            });
        }
        if let Err(e) = crate::particles::field::check_velocity(velocity) {
            return Err(self.fail(e));
        }
        let c = &self.config;
        let (_, out) = integrate::stage_buffers(c.integrator, k, &self.state, c.dt, &mut self.scratch);
        out.copy_from_slice(velocity);
        if k + 1 < integrate::stage_count(c.integrator) {
            self.pending_stage = Some(k + 1);
            return Ok(false);
        }
        let sphere = c.model != Model::Euclidean;
        let result = integrate::finish(c.integrator, sphere, &mut self.state, c.dt, c.d, &self.scratch);
        self.conclude(result).map(|()| true)
    }

    /// Ends the step in progress with a divergence found elsewhere (a worker's message): the last
    /// good state is restored and the run pauses with that message.
    pub fn abort_step(&mut self, message: &str) -> Divergence {
        self.fail(Divergence { message: message.to_string() })
    }

    /// Completes a step: checks the tokens, advances the clock, or restores the last good state
    /// and pauses with the message.
    fn conclude(&mut self, result: Result<(), Divergence>) -> Result<(), Divergence> {
        self.pending_stage = None;
        let result = result.and_then(|()| {
            if self.state.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(Divergence {
                    message:
                        "the tokens overflowed the f64 range; use a smaller dt or beta, integrate in z, or stop earlier"
                            .into(),
                })
            }
        });
        match result {
            Ok(()) => {
                self.step += 1;
                self.status = if self.step >= self.until_steps { Status::Finished } else { Status::Running };
                Ok(())
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Ends the step in progress with `e`: the last good state is restored and the run pauses
    /// with the message (which says when it happened).
    fn fail(&mut self, e: Divergence) -> Divergence {
        self.pending_stage = None;
        self.state.copy_from_slice(&self.backup);
        let message = format!("Paused at t = {} (step {}): {}.", format_time(self.t()), self.step, e.message);
        self.status = Status::Diverged(message.clone());
        Divergence { message }
    }

    /// Writes the tokens in coordinates `coords` into `out` (`n x d`): x, or the rescaled
    /// z = exp(-tV) x (Euclidean model; science.md §1). Converting z to x multiplies by
    /// `exp(tV)`, which may be infinite far out in time: such entries come out as ±inf.
    pub fn tokens_in(&mut self, coords: Space, out: &mut [f64]) {
        let (n, d) = (self.n(), self.d());
        let have = if self.config.model == Model::Euclidean { self.config.integrate_in } else { Space::X };
        if have == coords || self.config.model != Model::Euclidean {
            out.copy_from_slice(&self.state);
            return;
        }
        let t = self.t();
        // x = exp(tV) z = e^s M z, or z = exp(-tV) x.
        let s = self.field.exp_tv(t, coords == Space::Z, &mut self.view_m);
        apply_rows(&self.view_m, &self.state, n, d, out);
        let g = crate::exp::exp(s);
        out.iter_mut().for_each(|x| *x *= g);
    }

    /// Writes the attention matrix `P(t)` into `out` (`n x n`, row-major).
    pub fn attention(&mut self, out: &mut [f64]) -> Result<(), Divergence> {
        let t = self.t();
        self.field.attention(t, &self.state, out)
    }

    /// Row `i < n` of `P(t)` into `out` (length `n`); O(n d^2 + n d) (a hover on a large heatmap).
    pub fn attention_row(&mut self, i: usize, out: &mut [f64]) -> Result<(), Divergence> {
        let t = self.t();
        self.field.attention_row(t, &self.state, i, out)
    }

    /// Streams the rows of `P(t)`: `visit(i, row)` for `i = 0..n` in order (see
    /// [`Field::attention_rows`]); memory O(n), for analyses of large runs.
    pub fn attention_rows(&mut self, visit: &mut dyn FnMut(usize, &[f64])) -> Result<(), Divergence> {
        let t = self.t();
        self.field.attention_rows(t, &self.state, visit)
    }
}
