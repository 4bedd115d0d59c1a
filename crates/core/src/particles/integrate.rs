//! Time-stepping schemes: forward Euler, classical RK4 (projected and renormalised on the
//! sphere), and the sphere papers' retraction (science.md §1 and §2).
//!
//! Each scheme advances `y` (`n x d`, row-major) from time `t0 = step * dt` by one step, with the
//! stage times computed from the step index (never accumulated). Scratch buffers are passed in,
//! so a step allocates nothing.

use crate::linalg::normalize;
use crate::particles::config::Integrator;
use crate::particles::field::Field;
use crate::run::Divergence;

/// Scratch memory for one step (each `n x d`).
#[derive(Clone, Debug)]
pub struct Scratch {
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    k4: Vec<f64>,
    tmp: Vec<f64>,
}

impl Scratch {
    /// Buffers for `len = n * d` numbers.
    pub fn new(len: usize) -> Scratch {
        Scratch { k1: vec![0.0; len], k2: vec![0.0; len], k3: vec![0.0; len], k4: vec![0.0; len], tmp: vec![0.0; len] }
    }
}

/// Number of velocity evaluations (stages) in one step of `scheme`.
pub fn stage_count(scheme: Integrator) -> usize {
    match scheme {
        Integrator::Euler | Integrator::Retraction => 1,
        Integrator::Rk4 => 4,
    }
}

/// One velocity evaluation of a step: the time, and whether the sphere field is projected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// Stage time (time units), computed from the step index, never accumulated.
    pub t: f64,
    /// Project the field onto the tangent space (RK4 on the sphere); Euler and the retraction use
    /// the unprojected field.
    pub projected: bool,
}

/// Stage `stage` of step `step` (time `step * dt`) of `scheme`.
pub fn stage(scheme: Integrator, sphere: bool, step: u64, dt: f64, stage: usize) -> Stage {
    match scheme {
        Integrator::Euler | Integrator::Retraction => Stage { t: step as f64 * dt, projected: false },
        Integrator::Rk4 => {
            let t = match stage {
                0 => step as f64 * dt,
                1 | 2 => (step as f64 + 0.5) * dt,
                _ => (step + 1) as f64 * dt,
            };
            Stage { t, projected: sphere }
        }
    }
}

/// The state at which stage `stage` evaluates the field (`y` itself for stage 0, else `y` plus
/// the previous stage's velocity times the RK4 weight, written to the scratch), and the buffer
/// that receives its velocity (`n x d` each).
pub fn stage_buffers<'a>(
    scheme: Integrator,
    stage: usize,
    y: &'a [f64],
    dt: f64,
    s: &'a mut Scratch,
) -> (&'a [f64], &'a mut [f64]) {
    if stage > 0 {
        let (prev, h) = match stage {
            1 => (&s.k1, 0.5 * dt),
            2 => (&s.k2, 0.5 * dt),
            _ => (&s.k3, dt),
        };
        for ((o, yi), ki) in s.tmp.iter_mut().zip(y.iter()).zip(prev.iter()) {
            *o = yi + h * ki;
        }
    }
    let _ = scheme;
    let out = match stage {
        0 => &mut s.k1,
        1 => &mut s.k2,
        2 => &mut s.k3,
        _ => &mut s.k4,
    };
    let input: &[f64] = if stage == 0 { y } else { &s.tmp };
    (input, out)
}

/// Completes a step once every stage's velocity is in the scratch: the update of `y`, then (on
/// the sphere) each row put back on the sphere.
pub fn finish(
    scheme: Integrator,
    sphere: bool,
    y: &mut [f64],
    dt: f64,
    d: usize,
    s: &Scratch,
) -> Result<(), Divergence> {
    match scheme {
        // Euler: y += dt f(t0, y). Retraction: the same with the unprojected sphere field, then
        // each row is put back on the sphere.
        Integrator::Euler | Integrator::Retraction => {
            for (yi, ki) in y.iter_mut().zip(s.k1.iter()) {
                *yi += dt * ki;
            }
        }
        Integrator::Rk4 => {
            let sixth = dt / 6.0;
            #[allow(clippy::needless_range_loop, reason = "the index form is the formula; no change of arithmetic")]
            for i in 0..y.len() {
                y[i] += sixth * (s.k1[i] + 2.0 * s.k2[i] + 2.0 * s.k3[i] + s.k4[i]);
            }
        }
    }
    if sphere {
        for row in y.chunks_mut(d) {
            if !normalize(row) {
                return Err(Divergence {
                    message: "a token reached the origin and cannot be put back on the sphere; use a smaller dt".into(),
                });
            }
        }
    }
    Ok(())
}

/// Evaluates the velocity of a state: `(stage, state, out)`, `state` and `out` `n x d` row-major.
/// The single-thread field, the CLI's threads and the page's worker pool each provide one; all
/// give the same bits (each row's sums are computed in one place, in a fixed order).
pub type Evaluate<'e> = dyn FnMut(Stage, &[f64], &mut [f64]) -> Result<(), Divergence> + 'e;

/// Advances `y` (`n x d`, row-major) by one step of `scheme` from step index `step` with step
/// size `dt`, evaluating the field with `eval`. `sphere`: the state lives on the unit sphere.
#[allow(clippy::too_many_arguments, reason = "one step's whole state, passed by reference")]
pub fn step_with(
    scheme: Integrator,
    sphere: bool,
    eval: &mut Evaluate,
    y: &mut [f64],
    step: u64,
    dt: f64,
    d: usize,
    s: &mut Scratch,
) -> Result<(), Divergence> {
    for k in 0..stage_count(scheme) {
        let st = stage(scheme, sphere, step, dt, k);
        let (input, out) = stage_buffers(scheme, k, y, dt, s);
        eval(st, input, out)?;
    }
    finish(scheme, sphere, y, dt, d, s)
}

/// Advances `y` by one step of `scheme` with the single-thread field.
#[allow(clippy::too_many_arguments, reason = "one step's whole state, passed by reference")]
pub fn step(
    scheme: Integrator,
    sphere: bool,
    field: &mut Field,
    y: &mut [f64],
    step: u64,
    dt: f64,
    d: usize,
    s: &mut Scratch,
) -> Result<(), Divergence> {
    step_with(scheme, sphere, &mut |st, x, out| field.velocity(st.t, x, out, st.projected), y, step, dt, d, s)
}
