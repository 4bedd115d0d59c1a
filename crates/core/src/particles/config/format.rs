//! The canonical text form of a configuration.

use super::Config;
use crate::link::LabPreset;

impl Config {
    /// The `(key, value)` pairs of every key, in canonical order (`preset` first).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        crate::link::keys::pairs(super::PARTICLES_TABLE, self)
    }

    /// The canonical string: `version=V&preset=NAME` (`V` = [`Config::version`]: today's, or the
    /// older link's it was read from) followed by the keys whose value differs from that preset
    /// as that version defines it ([`super::Preset::config_at`]), in the
    /// order of [`Config::pairs`]. `parse(&c.to_canonical_string()) == Ok(c)`.
    pub fn to_canonical_string(&self) -> String {
        crate::link::canonical_string(
            self.version,
            format!("preset={}", self.preset.name()),
            &self.pairs(),
            &self.preset.config_at(self.version).pairs(),
            1,
        )
    }

    /// The keys (other than `preset`) whose value differs from the preset's, with both values:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.pairs(), self.preset.config_at(self.version).pairs(), 1)
    }
}
