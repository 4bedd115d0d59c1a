//! Which lab a configuration string is for: the particle lab (science.md §1-2, [`crate::particles::config`]),
//! the depth lab (science.md §3-4, [`crate::depth`]), the training lab (science.md §5,
//! [`crate::training`]) or the model lab (science.md §6, [`crate::model::keys`]), chosen by the
//! `lab` key; and a whole [`Link`] (configuration and view).

use crate::depth::{self, DepthConfig, DepthPreset};
use crate::link::{lab_named, percent_decode, quote, ConfigError, LabPreset};
use crate::model::keys::{self as model_keys, ModelLink};
use crate::particles::config;
use crate::training::{self, TrainingConfig, TrainingPreset};
use crate::view::View;

/// A validated configuration of any lab.
#[derive(Clone, Debug, PartialEq)]
pub enum LabConfig {
    /// `lab` absent or `lab=particles`.
    Particles(config::Config),
    /// `lab=training`.
    Training(TrainingConfig),
    /// `lab=depth` (science.md §3-4, [`crate::depth`]).
    Depth(DepthConfig),
    /// `lab=model` (science.md §6, [`crate::model::keys`]): the weights' id and the text, with
    /// the head shown and the grids' scale (the lab's own view keys, part of its canonical form).
    Model(ModelLink),
}

/// The caption of a model-lab link (it has no preset): what an embedded view of it shows.
pub const MODEL_CAPTION: &str =
    "A pretrained encoder on a text: each head's attention P and context similarity S = O Oᵀ, and rank collapse without skips";

impl LabConfig {
    /// The canonical string of the configuration (each lab's own canonical form).
    pub fn to_canonical_string(&self) -> String {
        match self {
            LabConfig::Particles(c) => c.to_canonical_string(),
            LabConfig::Training(c) => c.to_canonical_string(),
            LabConfig::Depth(c) => c.to_canonical_string(),
            LabConfig::Model(c) => c.to_canonical_string(),
        }
    }

    /// The lab's name as written in the `lab` key: `particles`, `training`, `depth`, `model`.
    pub fn lab(&self) -> &'static str {
        match self {
            LabConfig::Particles(_) => "particles",
            LabConfig::Training(_) => "training",
            LabConfig::Depth(_) => "depth",
            LabConfig::Model(_) => "model",
        }
    }

    /// Every key of the configuration with its value, in the lab's canonical order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            LabConfig::Particles(c) => c.pairs(),
            LabConfig::Training(c) => c.pairs(),
            LabConfig::Depth(c) => c.pairs(),
            LabConfig::Model(c) => c.pairs(),
        }
    }

    /// The one-line caption of the configuration's preset ([`LabPreset::caption`]; the model
    /// lab, without presets: [`MODEL_CAPTION`]): what an embedded view of it shows, in plain words.
    pub fn caption(&self) -> &'static str {
        match self {
            LabConfig::Particles(c) => c.preset.caption(),
            LabConfig::Training(c) => c.preset.caption(),
            LabConfig::Depth(c) => c.preset.caption(),
            LabConfig::Model(_) => MODEL_CAPTION,
        }
    }

    /// The keys whose value differs from the configuration's preset: `(key, preset value, value)`
    /// (none for the model lab, which has no presets).
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        match self {
            LabConfig::Particles(c) => c.differences_from_preset(),
            LabConfig::Training(c) => c.differences_from_preset(),
            LabConfig::Depth(c) => c.differences_from_preset(),
            LabConfig::Model(_) => Vec::new(),
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
/// [`depth::parse`], `lab=model` gives [`model_keys::parse`]; any other `lab` value is an error
/// naming `lab`. View keys are validated and
/// dropped ([`parse_link`] keeps them). Never panics; errors name the offending key.
pub fn parse_lab(text: &str) -> Result<LabConfig, ConfigError> {
    parse_link(text).map(|l| l.config)
}

/// A whole link: the configuration of a lab and its view (what a page's URL hash holds).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The model keys (and the particle lab's `coords`).
    pub config: LabConfig,
    /// The view keys; they never change the numbers.
    pub view: View,
}

impl Link {
    /// The canonical link: `version=V` (see [`crate::particles::config::Config::version`]), the lab's model keys that differ from the preset, then
    /// the view keys that differ from their defaults, each in a fixed order.
    /// `parse_link(&l.to_canonical_string()) == Ok(l)`.
    pub fn to_canonical_string(&self) -> String {
        let mut out = self.config.to_canonical_string();
        for (key, value) in self.view.pairs() {
            out.push('&');
            out.push_str(key);
            out.push('=');
            out.push_str(&value);
        }
        out
    }

    /// The step the link opens at (`step`, or `t` rounded to the nearest step); `None` when it
    /// names no moment.
    pub fn open_step(&self) -> Option<u64> {
        let dt = match &self.config {
            LabConfig::Particles(c) => c.dt,
            _ => 1.0,
        };
        self.view.open_step(dt)
    }
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// Parses a link of any lab into its configuration ([`parse_lab`]'s rules) and its view keys
/// ([`crate::view`], checked against the run). Never panics; errors name the offending key.
pub fn parse_link(text: &str) -> Result<Link, ConfigError> {
    let link = |(config, view)| Link { config, view };
    if text.len() > crate::link::MAX_CONFIG_LEN {
        return config::parse_with_view(text).map(|(c, v)| link((LabConfig::Particles(c), v)));
    }
    let particles = |text| config::parse_with_view(text).map(|(c, v)| link((LabConfig::Particles(c), v)));
    match find_value(text, "lab") {
        None => particles(text).map_err(|e| {
            // A training preset without lab=training: say so.
            match find_value(text, "preset") {
                Some(Ok(name)) if e.key == "preset" && TrainingPreset::from_name(&name).is_some() => ConfigError::new(
                    "preset",
                    format!("{} is a training preset; add lab=training to the configuration", quote(&name)),
                ),
                Some(Ok(name)) if e.key == "preset" && DepthPreset::from_name(&name).is_some() => ConfigError::new(
                    "preset",
                    format!("{} is a depth preset; add lab=depth to the configuration", quote(&name)),
                ),
                _ => e,
            }
        }),
        Some(Err(m)) => Err(ConfigError::new("lab", m)),
        Some(Ok(lab)) => match lab_named(&lab)? {
            "training" => training::config::parse_with_view(text).map(|(c, v)| link((LabConfig::Training(c), v))),
            "depth" => depth::parse_with_view(text).map(|(c, v)| link((LabConfig::Depth(c), v))),
            "model" => model_keys::parse_with_view(text).map(|(c, v)| link((LabConfig::Model(c), v))),
            _ => particles(text),
        },
    }
}

/// A link a host page sends with the postMessage API's `setConfig`: [`parse_link`]'s rules, and
/// no `embed` key (`embed=0` or `embed=1`): whether the playground is embedded is decided by the
/// page that embeds it (its iframe's own link), which a host's message cannot change; it was
/// ignored silently, and is refused naming `embed`. The other view keys apply.
pub fn parse_api_link(text: &str) -> Result<Link, ConfigError> {
    if find_value(text, "embed").is_some() {
        return Err(ConfigError::new(
            "embed",
            "setConfig cannot change embed mode (the embedding page's own link decides it); leave embed out of the configuration",
        ));
    }
    parse_link(text)
}

/// A link read by lab `lab`'s own page (`particles`, `training`, `depth`, `model`): that lab's parser, so a
/// link of another lab is refused naming `lab` (`lab=training is the training lab; a particles
/// configuration has lab=particles (or no lab key)`), and a link without `lab` is read as that
/// lab's. `lab` not a lab name is an error naming `lab`. What a lab's configuration page checks
/// its fields with; [`parse_link`] is for a link whose lab is not known yet.
pub fn parse_lab_link(lab: &str, text: &str) -> Result<Link, ConfigError> {
    let link = |(config, view)| Link { config, view };
    match lab_named(lab)? {
        "training" => training::config::parse_with_view(text).map(|(c, v)| link((LabConfig::Training(c), v))),
        "depth" => depth::parse_with_view(text).map(|(c, v)| link((LabConfig::Depth(c), v))),
        "model" => model_keys::parse_with_view(text).map(|(c, v)| link((LabConfig::Model(c), v))),
        _ => config::parse_with_view(text).map(|(c, v)| link((LabConfig::Particles(c), v))),
    }
}

/// The values of the `lab` key, in the page's order (`particles` is also the lab of a
/// configuration without `lab`).
pub const LABS: [&str; 4] = crate::link::LAB_NAMES;

/// The lab a configuration string's `lab` key names: `None` without a `lab` key (the particle
/// lab's configuration, or a lab-specific parser's own default), else the lab; an unknown lab,
/// or a value that does not decode, is an error on `lab` listing the labs. For a program that
/// runs one lab (the CLI's `attn run`, `attn train`, `attn depth`) to say which command runs
/// the lab a configuration is for.
pub fn named_lab(text: &str) -> Result<Option<&'static str>, ConfigError> {
    match find_value(text, "lab") {
        None => Ok(None),
        Some(Err(m)) => Err(ConfigError::new("lab", m)),
        Some(Ok(lab)) => lab_named(&lab).map(Some),
    }
}

/// The lab a configuration string asks for, valid or not: its `lab` value when that names a lab
/// of [`LABS`], else `"particles"` (the page uses it to show the right lab, and that lab's error
/// message, for a configuration that [`parse_lab`] refuses).
pub fn requested_lab(text: &str) -> &'static str {
    match find_value(text, "lab") {
        Some(Ok(lab)) => LABS.iter().find(|l| **l == lab).copied().unwrap_or("particles"),
        _ => "particles",
    }
}

/// Every key a link of lab `lab` may hold, as its parser takes them: `version`, the lab's key
/// table and its view keys. An unknown lab is an error naming `lab`. For a program that runs one
/// lab to tell a link of another lab by its keys (`attn encode` given a particle link without `lab`).
pub fn link_keys(lab: &str) -> Result<Vec<&'static str>, ConfigError> {
    use crate::link::keys::key_names;
    let name = lab_named(lab)?;
    let table = match name {
        "training" => key_names(training::config::TRAINING_TABLE),
        "depth" => key_names(depth::keys::DEPTH_TABLE),
        "model" => key_names(model_keys::MODEL_TABLE),
        _ => key_names(config::PARTICLES_TABLE),
    };
    Ok(crate::view::with_view_keys(&table, crate::view::spec_of(name)))
}

/// The key table of lab `lab` (`particles`, `training`, `depth`, `model`) as plain data for the
/// page's fields (tooltips from `meaning` and `effect`, number limits, select choices; defaults
/// from the lab's default preset, the model lab's from [`ModelLink::example`]). An unknown lab
/// is an error naming `lab`.
pub fn key_infos(lab: &str) -> Result<Vec<crate::link::KeyInfo>, ConfigError> {
    use crate::link::key_infos;
    Ok(match lab_named(lab)? {
        "training" => key_infos(training::config::TRAINING_TABLE, &TrainingPreset::DEFAULT.config()),
        "depth" => key_infos(depth::keys::DEPTH_TABLE, &DepthPreset::DEFAULT.config()),
        "model" => key_infos(model_keys::MODEL_TABLE, &ModelLink::example()),
        _ => key_infos(config::PARTICLES_TABLE, &config::Preset::Polytope.config()),
    })
}

/// The key table of each lab, as `(marker, markdown)`: `cargo xtask docs` writes each between
/// `<!-- keys:MARKER -->` and `<!-- /keys -->` in docs/links.md, and a test fails when the page
/// differs.
pub fn readme_key_tables() -> Vec<(&'static str, String)> {
    use crate::link::keys::markdown_table;
    let training = TrainingPreset::DEFAULT;
    let depth = DepthPreset::DEFAULT;
    let particles = config::Preset::Polytope;
    vec![
        ("particles", markdown_table(config::PARTICLES_TABLE, &particles.config(), LabPreset::name(particles))),
        ("view", crate::view::keys::markdown_table()),
        ("training", markdown_table(training::config::TRAINING_TABLE, &training.config(), LabPreset::name(training))),
        ("depth", markdown_table(depth::keys::DEPTH_TABLE, &depth.config(), LabPreset::name(depth))),
        ("model", markdown_table(model_keys::MODEL_TABLE, &ModelLink::example(), crate::model::DEFAULT_MODEL)),
    ]
}
