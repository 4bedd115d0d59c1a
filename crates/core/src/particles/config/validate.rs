//! Ranges, shapes and combinations. Refuses, never clamps: a link must replay exactly.

use super::{Config, Init, Integrator, MatrixSpec, Model, Space};
use crate::link::ConfigError;

/// Largest number of tokens.
pub const MAX_N: usize = 16384;
/// Largest token dimension.
pub const MAX_D: usize = 256;
/// Largest absolute matrix entry or point coordinate.
pub const MAX_ENTRY: f64 = 1e6;
/// Largest number of steps a run may ask for (`until / dt`).
pub const MAX_STEPS: f64 = 1e8;

fn range_f(key: &str, x: f64, lo: f64, lo_open: bool, hi: f64, allowed: &str) -> Result<(), ConfigError> {
    let ok = if lo_open { x > lo } else { x >= lo } && x <= hi;
    if ok {
        Ok(())
    } else {
        Err(ConfigError::new(key, format!("{} is out of range; allowed: {}", crate::link::format_f64(x), allowed)))
    }
}

fn check_matrix(key: &str, m: &MatrixSpec, d: usize) -> Result<(), ConfigError> {
    if let MatrixSpec::Explicit { rows, cols, data } = m {
        if *rows != d || *cols != d {
            return Err(ConfigError::new(
                key,
                format!(
                    "must be d x d = {} x {} (rows separated by ;), got {} x {}; or write identity, -identity or psd",
                    d, d, rows, cols
                ),
            ));
        }
        if data.iter().any(|x| x.abs() > MAX_ENTRY) {
            return Err(ConfigError::new(key, "entries must lie in [-1e6, 1e6]"));
        }
    }
    Ok(())
}

/// Checks every range, shape and combination of `c`.
pub fn validate(c: &Config) -> Result<(), ConfigError> {
    if c.n < 1 || c.n > MAX_N {
        return Err(ConfigError::new("n", format!("{} is out of range; allowed: 1..={}", c.n, MAX_N)));
    }
    if c.d < 1 || c.d > MAX_D {
        return Err(ConfigError::new("d", format!("{} is out of range; allowed: 1..={}", c.d, MAX_D)));
    }
    range_f("beta", c.beta, 0.0, true, 1000.0, "0 < beta <= 1000")?;
    range_f("dt", c.dt, 0.0, true, 1.0, "0 < dt <= 1")?;
    range_f("until", c.until, 0.0, false, 1e6, "0 <= until <= 1e6")?;
    if c.until / c.dt > MAX_STEPS {
        return Err(ConfigError::new("until", format!("until / dt must be at most {} steps", MAX_STEPS)));
    }
    range_f("scale", c.scale, 0.0, true, 1e6, "0 < scale <= 1e6")?;
    range_f("cluster_tol", c.cluster_tol, 0.0, true, 1.0, "0 < cluster_tol < 1")?;
    if c.cluster_tol >= 1.0 {
        return Err(ConfigError::new("cluster_tol", "allowed: 0 < cluster_tol < 1"));
    }
    let sphere = c.model != Model::Euclidean;
    if sphere && c.integrate_in == Space::Z {
        return Err(ConfigError::new(
            "integrate_in",
            "sphere models integrate x; z = exp(-tV) x is for the euclidean model",
        ));
    }
    if sphere && c.coords == Space::Z {
        return Err(ConfigError::new("coords", "sphere models show x; z is for the euclidean model"));
    }
    match (sphere, c.integrator) {
        (false, Integrator::Retraction) => {
            return Err(ConfigError::new(
                "integrator",
                "the euclidean model uses euler or rk4; retraction is for sphere models",
            ))
        }
        (true, Integrator::Euler) => {
            return Err(ConfigError::new("integrator", "sphere models use retraction or rk4 (projected RK4)"))
        }
        _ => {}
    }
    check_matrix("q", &c.q, c.d)?;
    check_matrix("k", &c.k, c.d)?;
    check_matrix("v", &c.v, c.d)?;
    if c.init == Init::Points {
        match &c.points {
            None => {
                return Err(ConfigError::new(
                    "points",
                    "init=points needs points: n rows of d numbers, rows separated by ;",
                ))
            }
            Some(p) => {
                if p.rows != c.n || p.cols != c.d {
                    return Err(ConfigError::new(
                        "points",
                        format!("must be n x d = {} x {} (rows separated by ;), got {} x {}", c.n, c.d, p.rows, p.cols),
                    ));
                }
                if p.data.iter().any(|x| x.abs() > MAX_ENTRY) {
                    return Err(ConfigError::new("points", "coordinates must lie in [-1e6, 1e6]"));
                }
                if sphere {
                    for (i, row) in p.data.chunks(p.cols).enumerate() {
                        if row.iter().all(|&x| x == 0.0) {
                            return Err(ConfigError::new(
                                "points",
                                format!("point {} is zero and cannot be put on the sphere", i + 1),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
