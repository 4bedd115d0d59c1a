//! What every lab's presets have in common: a name, a description, the full list, the default,
//! and the choice of the preset from a configuration's `preset=` pair.

use super::quote;
use super::ConfigError;

/// A named starting configuration of one lab: a row of the lab's preset table ([`PresetRow`]).
/// A lab implements the table's place ([`LabPreset::row`]), the list and the configuration's
/// pairs; the name, caption and description come from the row.
pub trait LabPreset: Copy + PartialEq + 'static {
    /// What messages call a preset of this lab (`preset`, `training preset`, ...).
    const NOUN: &'static str;
    /// The preset used when a configuration names none.
    const DEFAULT: Self;
    /// The lab's configuration.
    type Config;

    /// Every preset of the lab, in the page's order.
    fn all() -> &'static [Self];

    /// The preset's row of the lab's table.
    fn row(self) -> &'static PresetRow<Self, Self::Config>;

    /// Every key of the preset's configuration with its value, in canonical order.
    fn pairs(self) -> Vec<(&'static str, String)>;

    /// The preset's name in configuration strings.
    fn name(self) -> &'static str {
        self.row().name
    }

    /// What the preset demonstrates, in one sentence (the page's status line).
    fn description(self) -> &'static str {
        self.row().description
    }

    /// A one-line caption in plain words for an embedded view (the embed bar shows it).
    fn caption(self) -> &'static str {
        self.row().caption
    }

    /// The preset named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|p| p.name() == name)
    }
}

/// The preset a configuration's `preset=` pair names ([`LabPreset::DEFAULT`] when absent); the
/// error on `preset` lists the allowed names.
pub fn pick_preset<P: LabPreset>(pairs: &[(&'static str, String)]) -> Result<P, ConfigError> {
    match pairs.iter().find(|(k, _)| *k == "preset") {
        None => Ok(P::DEFAULT),
        Some((_, name)) => P::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = P::all().iter().map(|p| p.name()).collect();
            ConfigError::new("preset", format!("unknown {} {}; allowed: {}", P::NOUN, quote(name), names.join(", ")))
        }),
    }
}

/// One preset of a lab as a row of its table: its name in links, its one-line caption (what an
/// embedded view shows), its one-sentence description and its configuration, made from the
/// lab's base configuration (every preset's values but its own).
pub struct PresetRow<P, C> {
    /// The preset.
    pub preset: P,
    /// Its name in links ([`LabPreset::name`]).
    pub name: &'static str,
    /// [`LabPreset::caption`].
    pub caption: &'static str,
    /// [`LabPreset::description`].
    pub description: &'static str,
    /// Its configuration from the lab's base one.
    pub config: fn(C) -> C,
}

/// The row of preset `preset` in `rows` (a lab's table has a row for each of its presets).
pub fn row_of<P: PartialEq, C>(rows: &'static [PresetRow<P, C>], preset: P) -> &'static PresetRow<P, C> {
    rows.iter().find(|r| r.preset == preset).expect("a lab's preset table has a row for each of its presets")
}
