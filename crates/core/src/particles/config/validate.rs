//! Ranges, shapes and combinations. Refuses, never clamps: a link must replay exactly.

use super::{Config, Init, Integrator, MatrixSpec, Model, Space, MAX_ENTRY, MAX_STEPS};
use crate::link::ConfigError;

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
    crate::link::keys::check_ranges(super::PARTICLES_TABLE, c)?;
    if c.until / c.dt > MAX_STEPS {
        return Err(ConfigError::new("until", format!("until / dt must be at most {} steps", MAX_STEPS)));
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
