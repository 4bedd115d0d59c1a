//! Parsing and validating the view keys of a configuration. Every error names the key and what
//! is allowed; nothing is clamped.

use super::{Camera, Moment, Projection, ProjectionMode, Theme, View, ViewSpec};
use crate::link::{format_f64, parse_float, quote, ConfigError};

/// What the view keys are checked against: the run the view shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct ViewContext {
    /// The run's time step (for `t`); `None` for labs without time.
    pub dt: Option<f64>,
    /// The run's last step (`round(until / dt)`; training: `iterations`), the latest moment `t`
    /// or `step` may name; `None` for labs without steps.
    pub last_step: Option<u64>,
    /// The token dimension (for `projection`); `None` for labs without tokens to project.
    pub d: Option<usize>,
}

/// Parses the view pairs of a configuration (decoded values; keys among `spec.keys`, each at most
/// once, as the caller's [`crate::particles::config`] splitting guarantees) into a [`View`] for `spec`'s lab,
/// checked against `ctx`. Pairs whose key is not a view key of the lab are an error naming it.
pub fn parse_view(
    spec: &'static ViewSpec,
    pairs: &[(&'static str, String)],
    ctx: ViewContext,
) -> Result<View, ConfigError> {
    let mut v = View::default_for(spec);
    let keys = spec.keys();
    for (key, value) in pairs {
        let key: &'static str = key;
        if !keys.contains(&key) {
            return Err(ConfigError::new(
                key,
                format!("not a view key of lab={}; its view keys: {}", spec.lab, keys.join(", ")),
            ));
        }
        apply(&mut v, spec, key, value, ctx)?;
    }
    Ok(v)
}

fn apply(
    v: &mut View,
    spec: &'static ViewSpec,
    key: &'static str,
    value: &str,
    ctx: ViewContext,
) -> Result<(), ConfigError> {
    match key {
        "t" | "step" => {
            if v.moment.is_some() {
                return Err(ConfigError::new(key, "t and step name the same moment two ways; write only one of them"));
            }
            v.moment = Some(moment(key, value, ctx)?);
        }
        "embed" => v.embed = switch(key, value)?,
        "panels" => {
            let list = names(key, value, spec.panels)?;
            if list.is_empty() {
                return Err(ConfigError::new(
                    key,
                    format!("name at least one panel; allowed: {}", spec.panels.join(", ")),
                ));
            }
            v.panels = list;
        }
        "controls" => v.controls = names(key, value, spec.controls)?,
        "theme" => {
            v.theme = match value {
                "auto" => Theme::Auto,
                "light" => Theme::Light,
                "dark" => Theme::Dark,
                _ => return Err(choice(key, value, "auto, light, dark")),
            }
        }
        "bg" => v.bg = pick(key, value, &super::BACKGROUNDS)?,
        "speed" => v.speed = Some(speed(key, value, spec)?),
        "heatmap" => v.heatmap = Some(pick(key, value, &["one", "max"])?),
        "trails" => v.trails = switch(key, value)?,
        "projection" => v.projection = projection(key, value, ctx.d)?,
        "camera" => v.camera = camera(key, value)?,
        "colour" => v.colour = pick(key, value, &["clusters", "index", "plain"])?,
        "order" => v.order = Some(pick(key, value, &super::HEATMAP_ORDERS)?),
        "axes" => v.axes = Some(pick(key, value, &["equal", "per-axis"])?),
        "overlays" => v.overlays = Some(names(key, value, &super::OVERLAYS)?),
        "residual_axis" => v.residual_axis = pick(key, value, &["log", "linear"])?,
        "grid_scale" => v.grid_scale = pick(key, value, &["head", "shared"])?,
        _ => return Err(ConfigError::new(key, "unknown view key")),
    }
    Ok(())
}

/// `speed`: a whole number of steps per frame, `1..=max_speed`, or, where the lab allows it, a
/// plain decimal fraction in `[0.1, 1)` (a step every few frames).
fn speed(key: &str, value: &str, spec: &ViewSpec) -> Result<f64, ConfigError> {
    let fraction = spec.fractional_speed;
    let allowed = if fraction {
        format!("a fraction 0.1 <= speed < 1 (a step every few frames) or 1..={} steps per frame", spec.max_speed)
    } else {
        format!("1..={} steps per frame", spec.max_speed)
    };
    if let Ok(s) = value.parse::<u32>() {
        if (1..=spec.max_speed).contains(&s) {
            return Ok(s as f64);
        }
    } else if fraction && value.starts_with("0.") && value[2..].bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(s) = value.parse::<f64>() {
            if (super::spec::MIN_FRACTION_SPEED..1.0).contains(&s) {
                return Ok(s);
            }
        }
    }
    Err(ConfigError::new(key, format!("{} is not allowed; allowed: {}", quote(value), allowed)))
}

fn choice(key: &str, value: &str, allowed: &str) -> ConfigError {
    ConfigError::new(key, format!("{} is not allowed; allowed: {}", quote(value), allowed))
}

/// One of `allowed`, returned as the static name.
fn pick(key: &str, value: &str, allowed: &[&'static str]) -> Result<&'static str, ConfigError> {
    allowed.iter().copied().find(|a| *a == value).ok_or_else(|| choice(key, value, &allowed.join(", ")))
}

/// `0` or `1`.
fn switch(key: &str, value: &str) -> Result<bool, ConfigError> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(choice(key, value, "0, 1")),
    }
}

/// A comma-separated list of distinct names of `allowed` (empty text: none), in `allowed`'s order.
fn names(key: &str, value: &str, allowed: &'static [&'static str]) -> Result<Vec<&'static str>, ConfigError> {
    let mut chosen = vec![false; allowed.len()];
    if !value.is_empty() {
        for name in value.split(',') {
            let Some(i) = allowed.iter().position(|a| *a == name) else {
                return Err(ConfigError::new(
                    key,
                    format!("{} is not allowed; allowed (comma-separated): {}", quote(name), allowed.join(", ")),
                ));
            };
            if chosen[i] {
                return Err(ConfigError::new(key, format!("{} is listed twice", name)));
            }
            chosen[i] = true;
        }
    }
    Ok(allowed.iter().zip(chosen).filter(|(_, c)| *c).map(|(a, _)| *a).collect())
}

/// `t=` or `step=`, checked against the run's last step.
fn moment(key: &str, value: &str, ctx: ViewContext) -> Result<Moment, ConfigError> {
    let last = ctx.last_step.unwrap_or(0);
    if key == "t" {
        let dt = ctx.dt.unwrap_or(1.0);
        let t = parse_float(key, value)?;
        let last_t = last as f64 * dt;
        if t < 0.0 || crate::run::steps_for(t, dt) > last {
            return Err(ConfigError::new(
                key,
                format!("{} is outside the run; allowed: 0 <= t <= until = {} (t is rounded to the nearest step of dt = {})", quote(value), format_f64(last_t), format_f64(dt)),
            ));
        }
        // `t=-0` is `t=0` (one canonical link per view).
        return Ok(Moment::T(t + 0.0));
    }
    match value.parse::<u64>() {
        Ok(s) if s <= last => Ok(Moment::Step(s)),
        _ => Err(ConfigError::new(
            key,
            format!(
                "{} is not allowed; allowed: a whole number of steps 0..={} (the run's last step)",
                quote(value),
                last
            ),
        )),
    }
}

/// `pca2`, `pca3` or `a,b` (two different 1-based coordinates of `1..=d`).
fn projection(key: &str, value: &str, d: Option<usize>) -> Result<Projection, ConfigError> {
    match value {
        "pca2" => return Ok(Projection { mode: ProjectionMode::Pca2, a: 1, b: 2 }),
        "pca3" => return Ok(Projection { mode: ProjectionMode::Pca3, a: 1, b: 2 }),
        _ => {}
    }
    let d = d.unwrap_or(0) as u32;
    let allowed = format!("pca2, pca3, or two different coordinates a,b in 1..={} (d)", d);
    let parsed = value.split_once(',').and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
    match parsed {
        Some((a, b)) if a >= 1 && b >= 1 && a <= d && b <= d && a != b => {
            Ok(Projection { mode: ProjectionMode::Axes, a, b })
        }
        _ => Err(ConfigError::new(key, format!("{} is not allowed; allowed: {}", quote(value), allowed))),
    }
}

/// `yaw,pitch` in radians.
fn camera(key: &str, value: &str) -> Result<Camera, ConfigError> {
    let allowed = "yaw,pitch in radians with -2π <= yaw <= 2π and -1.55 <= pitch <= 1.55";
    let bad = || ConfigError::new(key, format!("{} is not allowed; allowed: {}", quote(value), allowed));
    let (a, b) = value.split_once(',').ok_or_else(bad)?;
    let yaw = parse_float(key, a).map_err(|_| bad())?;
    let pitch = parse_float(key, b).map_err(|_| bad())?;
    if yaw.abs() > 2.0 * std::f64::consts::PI || pitch.abs() > 1.55 {
        return Err(bad());
    }
    // `-0` is `0` (one canonical link per view).
    Ok(Camera { yaw: yaw + 0.0, pitch: pitch + 0.0 })
}
