//! Time-stepping schemes: forward Euler, classical RK4 (projected and renormalised on the
//! sphere), and the sphere papers' retraction (science.md §1 and §2).
//!
//! Each scheme advances `y` (`n x d`, row-major) from time `t0 = step * dt` by one step, with the
//! stage times computed from the step index (never accumulated). Scratch buffers are passed in,
//! so a step allocates nothing.

use crate::config::Integrator;
use crate::init::normalize;
use crate::model::{Divergence, Field};

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

/// Advances `y` by one step of `scheme` from step index `step` with step size `dt`.
/// `sphere`: the state lives on the unit sphere (fields are projected for RK4, rows renormalised).
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
    let t0 = step as f64 * dt;
    match scheme {
        Integrator::Euler | Integrator::Retraction => {
            // Euler: y += dt f(t0, y). Retraction: the same with the unprojected sphere field,
            // then each row is put back on the sphere.
            field.velocity(t0, y, &mut s.k1, false)?;
            for (yi, ki) in y.iter_mut().zip(s.k1.iter()) {
                *yi += dt * ki;
            }
        }
        Integrator::Rk4 => {
            let t_mid = (step as f64 + 0.5) * dt;
            let t1 = (step + 1) as f64 * dt;
            let h = 0.5 * dt;
            field.velocity(t0, y, &mut s.k1, sphere)?;
            for ((o, yi), ki) in s.tmp.iter_mut().zip(y.iter()).zip(s.k1.iter()) {
                *o = yi + h * ki;
            }
            field.velocity(t_mid, &s.tmp, &mut s.k2, sphere)?;
            for ((o, yi), ki) in s.tmp.iter_mut().zip(y.iter()).zip(s.k2.iter()) {
                *o = yi + h * ki;
            }
            field.velocity(t_mid, &s.tmp, &mut s.k3, sphere)?;
            for ((o, yi), ki) in s.tmp.iter_mut().zip(y.iter()).zip(s.k3.iter()) {
                *o = yi + dt * ki;
            }
            field.velocity(t1, &s.tmp, &mut s.k4, sphere)?;
            let sixth = dt / 6.0;
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
