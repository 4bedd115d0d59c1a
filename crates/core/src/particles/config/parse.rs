//! Parsing a configuration string. Never panics; every error names a key.

use super::validate::validate;
use super::{Config, Integrator, Model, Preset, MAX_STEPS};
use crate::link::{format_f64, pick_preset, split_pairs_versioned, ConfigError};
use crate::view::{parse_view, View, ViewContext, PARTICLES_VIEW};

/// Parses `key=value&key=value...` (an optional leading `#` or `?` is ignored; values may be
/// percent-encoded). `version` (0 when absent) decides the run's arithmetic ([`Config::version`]:
/// 0 and 1 give version 1, 2 gives 2). `preset=` fills every key first, whatever its position;
/// the other keys override it. An empty string gives the default preset (`polytope`) at the
/// current version. When `model` changes
/// between the euclidean and sphere families, the keys that depend on it and were not written
/// (`integrate_in`, `coords`, `integrator`) take that family's defaults (x, x, retraction for
/// the sphere; the preset's values, or euler, for the euclidean model). The result is validated
/// (ranges, shapes, combinations); the error names the offending key and what is allowed.
///
/// View keys ([`crate::view`]: `t`, `embed`, `panels`, ...) are validated and left out of the
/// result: they never change the run. [`parse_with_view`] keeps them.
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    parse_with_view(text).map(|(c, _)| c)
}

/// [`parse`], also returning the view keys as a [`View`] (checked against the run: `t` and
/// `step` within `until`, `projection` within `d`).
pub fn parse_with_view(text: &str) -> Result<(Config, View), ConfigError> {
    let keys = crate::view::with_view_keys(&crate::link::keys::key_names(super::PARTICLES_TABLE), &PARTICLES_VIEW);
    let (version, pairs) = split_pairs_versioned(text, &keys, "particles")?;
    // An empty string asks for nothing to be replayed: the default preset at today's version.
    // Otherwise versions 0 and 1 gave the same numbers (version 1 added keys only): both
    // replay as 1 (see `Config::version`).
    let version = if version == 0 && pairs.is_empty() { super::VERSION } else { version.max(1) };
    let (view_pairs, pairs) = crate::view::split_off_view(pairs, &PARTICLES_VIEW);
    let preset: Preset = pick_preset(&pairs)?;
    let mut c = preset.config_at(version);
    for (key, value) in &pairs {
        if *key != "preset" {
            crate::link::keys::apply(super::PARTICLES_TABLE, &mut c, key, value)?;
        }
    }
    let written = |key: &str| pairs.iter().any(|(k, _)| *k == key);
    model_defaults(&mut c, preset, &written);
    if c.until / c.dt > MAX_STEPS && written("dt") && !written("until") {
        return Err(ConfigError::new(
            "dt",
            format!("until / dt must be at most 1e8 steps (until = {})", format_f64(c.until)),
        ));
    }
    validate(&c)?;
    let ctx = ViewContext { dt: Some(c.dt), last_step: Some(crate::run::steps_for(c.until, c.dt)), d: Some(c.d) };
    let mut view = parse_view(&PARTICLES_VIEW, &view_pairs, ctx)?;
    if view.overlays.as_deref() == Some(c.preset.suggested_overlays()) {
        view.overlays = None; // the default: the canonical form leaves it out
    }
    if view.order == Some(c.preset.suggested_order(c.version)) {
        view.order = None; // likewise
    }
    if view.heatmap == Some(c.preset.suggested_heatmap(c.version)) {
        view.heatmap = None; // likewise
    }
    Ok((c, view))
}

/// Defaults of the keys that depend on the model family, for those not written.
fn model_defaults(c: &mut Config, preset: Preset, written: &dyn Fn(&str) -> bool) {
    let sphere = c.model != Model::Euclidean;
    if sphere == (preset.config().model != Model::Euclidean) {
        return;
    }
    for (key, value) in family_keys(c.model, c.integrator) {
        if !written(key) {
            // The values are names of the keys' own choices: applying them cannot fail.
            let _ = crate::link::keys::apply(super::PARTICLES_TABLE, c, key, value);
        }
    }
}

/// The keys model `model`'s family requires, as `(key, value)` pairs, for a configuration whose
/// integrator is `integrator` (science.md §2: the sphere models integrate the raw tokens `x` on
/// the sphere, stepped by a retraction or a projected rk4; the retraction is no scheme in R^d):
/// a sphere model needs `integrate_in=x`, `coords=x` and, instead of `euler`, `retraction`; the
/// Euclidean model needs `euler` instead of `retraction`. The parser sets them for keys a link
/// does not write when it changes family; the page sets them in the draft when the model field
/// changes (and says so).
pub fn family_keys(model: Model, integrator: Integrator) -> Vec<(&'static str, &'static str)> {
    if model == Model::Euclidean {
        return if integrator == Integrator::Retraction { vec![("integrator", "euler")] } else { Vec::new() };
    }
    let mut keys = vec![("integrate_in", "x"), ("coords", "x")];
    if integrator == Integrator::Euler {
        keys.push(("integrator", "retraction"));
    }
    keys
}

impl std::str::FromStr for Config {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        parse(s)
    }
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}
