//! Which lab a configuration string is for: the particle lab (science.md §1-2, [`crate::particles::config`]),
//! the depth lab (science.md §3-4, [`crate::depth`]), the training lab (science.md §5,
//! [`crate::training`]) or the model lab (science.md §6, [`crate::model::keys`]), chosen by the
//! `lab` key; and a whole [`Link`] (configuration and view).

use crate::depth::DepthPreset;
pub use crate::labs::{LabConfig, Link, MODEL_CAPTION};
use crate::link::{lab_named, percent_decode, quote, ConfigError, LabPreset};
use crate::particles::config;
use crate::training::TrainingPreset;

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
            "particles" => particles(text),
            other => (entry_named(other)?.parse_link)(text),
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
    (entry_named(lab)?.parse_link)(text)
}

/// The row of [`crate::labs::LABS`] of lab `lab`; an error naming `lab` for another name.
fn entry_named(lab: &str) -> Result<&'static crate::labs::LabEntry, ConfigError> {
    let name = lab_named(lab)?;
    crate::labs::lab_entry(name)
        .ok_or_else(|| ConfigError::new("lab", format!("{} has no entry in labs::LABS", quote(name))))
}

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
/// of [`crate::link::LAB_NAMES`], else `"particles"` (the page uses it to show the right lab, and that lab's error
/// message, for a configuration that [`parse_lab`] refuses).
pub fn requested_lab(text: &str) -> &'static str {
    match find_value(text, "lab") {
        Some(Ok(lab)) => crate::link::LAB_NAMES.iter().find(|l| **l == lab).copied().unwrap_or("particles"),
        _ => "particles",
    }
}

/// Every key a link of lab `lab` may hold, as its parser takes them: `version`, the lab's key
/// table and its view keys. An unknown lab is an error naming `lab`. For a program that runs one
/// lab to tell a link of another lab by its keys (`attn encode` given a particle link without `lab`).
pub fn link_keys(lab: &str) -> Result<Vec<&'static str>, ConfigError> {
    let e = entry_named(lab)?;
    Ok(crate::view::with_view_keys(&(e.key_names)(), e.view))
}

/// The key table of lab `lab` (`particles`, `training`, `depth`, `model`) as plain data for the
/// page's fields (tooltips from `meaning` and `effect`, number limits, select choices; defaults
/// from the lab's default preset, the model lab's from [`ModelLink::example`]). An unknown lab
/// is an error naming `lab`.
pub fn key_infos(lab: &str) -> Result<Vec<crate::link::KeyInfo>, ConfigError> {
    Ok((entry_named(lab)?.key_infos)())
}

/// The key table of each lab, as `(marker, markdown)`: `cargo xtask docs` writes each between
/// `<!-- keys:MARKER -->` and `<!-- /keys -->` in docs/links.md, and a test fails when the page
/// differs.
pub fn readme_key_tables() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = crate::labs::LABS.iter().map(|e| (e.name, (e.markdown)())).collect();
    out.insert(1, ("view", crate::view::keys::markdown_table()));
    out
}
