//! Which lab a configuration string is for: the particle lab (science.md §1-2, [`crate::config`]),
//! the depth lab (science.md §3-4, [`crate::depth`]) or the training lab (science.md §5,
//! [`crate::training`]), chosen by the `lab` key.

use crate::config::{self, percent_decode, shorten, ConfigError, LabPreset};
use crate::depth::{self, DepthConfig, DepthPreset};
use crate::training::{self, TrainingConfig, TrainingPreset};

/// A validated configuration of any lab.
#[derive(Clone, Debug, PartialEq)]
pub enum LabConfig {
    /// `lab` absent or `lab=particles`.
    Particles(config::Config),
    /// `lab=training`.
    Training(TrainingConfig),
    /// `lab=depth` (science.md §3-4, [`crate::depth`]).
    Depth(DepthConfig),
}

impl LabConfig {
    /// The canonical string of the configuration (each lab's own canonical form).
    pub fn to_canonical_string(&self) -> String {
        match self {
            LabConfig::Particles(c) => c.to_canonical_string(),
            LabConfig::Training(c) => c.to_canonical_string(),
            LabConfig::Depth(c) => c.to_canonical_string(),
        }
    }

    /// The lab's name as written in the `lab` key: `particles` or `training`.
    pub fn lab(&self) -> &'static str {
        match self {
            LabConfig::Particles(_) => "particles",
            LabConfig::Training(_) => "training",
            LabConfig::Depth(_) => "depth",
        }
    }

    /// Every key of the configuration with its value, in the lab's canonical order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            LabConfig::Particles(c) => c.pairs(),
            LabConfig::Training(c) => c.pairs(),
            LabConfig::Depth(c) => c.pairs(),
        }
    }

    /// The keys whose value differs from the configuration's preset: `(key, preset value, value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        match self {
            LabConfig::Particles(c) => c.differences_from_preset(),
            LabConfig::Training(c) => c.differences_from_preset(),
            LabConfig::Depth(c) => c.differences_from_preset(),
        }
    }
}

impl std::fmt::Display for LabConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// The decoded value of `key` in `text` (first occurrence; pairs whose key does not decode are
/// skipped, the chosen parser reports them).
fn find_value(text: &str, key: &str) -> Option<Result<String, String>> {
    let text = text.strip_prefix('#').or_else(|| text.strip_prefix('?')).unwrap_or(text);
    text.split('&').filter_map(|s| s.split_once('=')).find_map(|(k, v)| match percent_decode(k) {
        Ok(k) if k == key => Some(percent_decode(v)),
        _ => None,
    })
}

/// Parses a configuration of any lab: `lab` absent or `particles` gives the particle lab's
/// [`config::parse`] (unchanged), `lab=training` gives [`training::parse`], `lab=depth` gives
/// [`depth::parse`]; any other `lab` value is an error naming `lab`. Never panics; errors name the
/// offending key.
pub fn parse_lab(text: &str) -> Result<LabConfig, ConfigError> {
    if text.len() > config::MAX_CONFIG_LEN {
        return config::parse(text).map(LabConfig::Particles);
    }
    match find_value(text, "lab") {
        None => config::parse(text).map(LabConfig::Particles).map_err(|e| {
            // A training preset without lab=training: say so.
            match find_value(text, "preset") {
                Some(Ok(name)) if e.key == "preset" && TrainingPreset::from_name(&name).is_some() => ConfigError::new(
                    "preset",
                    format!("{:?} is a training preset; add lab=training to the configuration", shorten(&name)),
                ),
                Some(Ok(name)) if e.key == "preset" && DepthPreset::from_name(&name).is_some() => ConfigError::new(
                    "preset",
                    format!("{:?} is a depth preset; add lab=depth to the configuration", shorten(&name)),
                ),
                _ => e,
            }
        }),
        Some(Err(m)) => Err(ConfigError::new("lab", m)),
        Some(Ok(lab)) => match lab.as_str() {
            "particles" => config::parse(text).map(LabConfig::Particles),
            "training" => training::parse(text).map(LabConfig::Training),
            "depth" => depth::parse(text).map(LabConfig::Depth),
            other => Err(ConfigError::new("lab", format!("{:?} is not allowed; allowed: particles, training, depth", shorten(other)))),
        },
    }
}

/// The values of the `lab` key, in the page's order (`particles` is also the lab of a
/// configuration without `lab`).
pub const LABS: [&str; 3] = ["particles", "training", "depth"];

/// The lab a configuration string asks for, valid or not: its `lab` value when that names a lab
/// of [`LABS`], else `"particles"` (the page uses it to show the right lab, and that lab's error
/// message, for a configuration that [`parse_lab`] refuses).
pub fn requested_lab(text: &str) -> &'static str {
    match find_value(text, "lab") {
        Some(Ok(lab)) => LABS.iter().find(|l| **l == lab).copied().unwrap_or("particles"),
        _ => "particles",
    }
}
