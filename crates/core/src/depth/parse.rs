//! Reading and writing a depth-lab link: [`parse`] turns `key=value&...` into a validated
//! [`DepthConfig`] (the keys of [`super::keys::DEPTH_TABLE`], then the cross-key checks of
//! [`DepthConfig::validate`]), and [`DepthConfig::to_canonical_string`] writes it back
//! (module doc of [`super::config`] for the limits and versions).

use super::config::{
    DepthConfig, DepthPreset, InputSource, WeightsSource, MAX_ATTENTION_ENTRIES, MAX_LAYER_WEIGHTS, MAX_MULTIPLY_ADDS,
    MAX_TOKENS,
};
use super::input::text_layout;
use super::keys::DEPTH_TABLE;
use crate::link::LabPreset;
use crate::link::{keys, pick_preset, quote, ConfigError};
use crate::text::MAX_TEXT_BYTES;

impl std::str::FromStr for DepthConfig {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        parse(s)
    }
}

impl std::fmt::Display for DepthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// Parses `key=value&...` into a validated depth configuration (an optional leading `#` or `?` is
/// ignored; values may be percent-encoded). `lab` must be absent or `depth`; `preset=` (default
/// `bert-init`) fills every key first, whatever its position; the other keys override it.
/// Refuses, never clamps; the error names the offending key and what is allowed. Never panics.
///
/// View keys ([`crate::view::DEPTH_VIEW`]) are validated and left out of the result; see
/// [`parse_with_view`].
pub fn parse(text: &str) -> Result<DepthConfig, ConfigError> {
    parse_with_view(text).map(|(c, _)| c)
}

/// [`parse`], also returning the view keys as a [`crate::view::View`].
pub fn parse_with_view(text: &str) -> Result<(DepthConfig, crate::view::View), ConfigError> {
    let spec = &crate::view::DEPTH_VIEW;
    let keys = crate::view::with_view_keys(&keys::key_names(DEPTH_TABLE), spec);
    let (view_pairs, pairs) = crate::view::split_off_view(crate::link::split_pairs(text, &keys, "depth")?, spec);
    let preset: DepthPreset = pick_preset(&pairs)?;
    let base = preset.config();
    let mut c = base.clone();
    for (key, value) in &pairs {
        if *key != "preset" {
            super::keys::apply(&mut c, key, value)?;
        }
    }
    c.validate()?;
    if c.uses_text() {
        // The text sets `n`: a `tokens` written in the link must say the same (version 4; an
        // older link's was ignored and is dropped by `migrate`), and is then not part of the
        // configuration (the canonical form leaves it out). A preset's `tokens` is not checked.
        if let Some((_, written)) = pairs.iter().find(|(k, _)| *k == "tokens") {
            let n = c.n();
            if c.tokens != n {
                return Err(ConfigError::new(
                    "tokens",
                    format!(
                        "{} is not the text's token count; the text sets n = {} tokens (with its markers): leave tokens out, or write tokens={}",
                        quote(written),
                        n,
                        n
                    ),
                ));
            }
        }
        c.tokens = base.tokens;
    }
    let view = crate::view::parse_view(spec, &view_pairs, crate::view::ViewContext::default())?;
    Ok((c, view))
}

impl DepthConfig {
    /// Checks every range and combination (see the module documentation).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let c = self;
        keys::check_ranges(DEPTH_TABLE, c)?;
        if c.text.len() > MAX_TEXT_BYTES {
            return Err(ConfigError::new(
                "text",
                format!("{} bytes long; at most {} are allowed", c.text.len(), MAX_TEXT_BYTES),
            ));
        }
        if c.variants.is_empty() {
            return Err(ConfigError::new("variants", "at least one variant is needed"));
        }
        for (i, v) in c.variants.iter().enumerate() {
            if c.variants[..i].contains(v) {
                return Err(ConfigError::new("variants", format!("{} appears more than once", v.name())));
            }
        }
        if c.sentences.len() > MAX_TOKENS || c.sentences.iter().any(|&s| s == 0 || s > MAX_TOKENS) {
            return Err(ConfigError::new(
                "sentences",
                format!("each sentence length must be in 1..={} (at most {} sentences)", MAX_TOKENS, MAX_TOKENS),
            ));
        }
        super::keys::check_particle_len(&c.particle)?;
        let particle = c.particle_config()?;
        if c.weights == WeightsSource::Particle {
            if c.heads != 1 {
                return Err(ConfigError::new(
                    "heads",
                    format!("{} heads; weights=particle is one head: set heads=1", c.heads),
                ));
            }
            if c.d_model != particle.d {
                return Err(ConfigError::new(
                    "d_model",
                    format!(
                        "{}; weights=particle needs d_model = d of the particle configuration = {}",
                        c.d_model, particle.d
                    ),
                ));
            }
            if c.d_head != c.d_model {
                return Err(ConfigError::new(
                    "d_head",
                    format!("{}; weights=particle needs d_head = d_model = {}", c.d_head, c.d_model),
                ));
            }
        }
        let n = match c.input {
            InputSource::Particle => {
                if c.tokens != particle.n {
                    return Err(ConfigError::new(
                        "tokens",
                        format!(
                            "{}; input=particle needs tokens = n of the particle configuration = {}",
                            c.tokens, particle.n
                        ),
                    ));
                }
                if c.d_model != particle.d {
                    return Err(ConfigError::new(
                        "d_model",
                        format!(
                            "{}; input=particle needs d_model = d of the particle configuration = {}",
                            c.d_model, particle.d
                        ),
                    ));
                }
                c.tokens
            }
            _ if c.uses_text() => text_layout(&c.text, &c.sentences, c.separators)?.labels.len(),
            _ => c.tokens,
        };
        if !c.uses_text() && !c.sentences.is_empty() {
            let total: usize = c.sentences.iter().sum();
            if total != n {
                return Err(ConfigError::new(
                    "sentences",
                    format!("the lengths sum to {} but the sequence has {} tokens", total, n),
                ));
            }
        }
        if c.layer_weights() > MAX_LAYER_WEIGHTS {
            return Err(ConfigError::new(
                "d_model",
                format!(
                    "a layer would hold {} weights; at most {} are allowed: lower d_model, heads, d_head or mlp_width",
                    c.layer_weights(),
                    MAX_LAYER_WEIGHTS
                ),
            ));
        }
        let entries = c.layers * c.heads * n * n;
        if entries > MAX_ATTENTION_ENTRIES {
            return Err(ConfigError::new(
                "tokens",
                format!("layers x heads x n^2 = {} attention entries; at most {} are allowed: lower tokens (or the text), heads or layers", entries, MAX_ATTENTION_ENTRIES),
            ));
        }
        if c.multiply_adds(n) > MAX_MULTIPLY_ADDS {
            return Err(ConfigError::new(
                "layers",
                format!("a forward pass would take {:.3e} multiply-adds; at most {:.3e} are allowed: lower layers, d_model, mlp_width or tokens", c.multiply_adds(n) as f64, MAX_MULTIPLY_ADDS as f64),
            ));
        }
        Ok(())
    }

    /// The `(key, value)` pairs of every key, in canonical order (`lab`, `preset` first); values
    /// as written in the canonical string (text-like values percent-encoded).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        keys::pairs(DEPTH_TABLE, self)
    }

    /// The canonical string: `version=7&lab=depth&preset=NAME` followed by the keys whose value differs
    /// from that preset, in the order of [`DepthConfig::pairs`] (never `tokens` when a text sets
    /// `n`). `parse(&c.to_canonical_string()) == Ok(c)` for a parsed configuration.
    pub fn to_canonical_string(&self) -> String {
        let prefix = format!("lab=depth&preset={}", self.preset.name());
        crate::link::canonical_string(
            crate::link::VERSION,
            prefix,
            &self.canonical_pairs(),
            &self.preset.config().pairs(),
            2,
        )
    }

    /// The keys (other than `lab` and `preset`) whose value differs from the preset's:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.canonical_pairs(), self.preset.config().pairs(), 2)
    }

    /// [`DepthConfig::pairs`] as the canonical form writes them: when a text sets `n`
    /// ([`DepthConfig::uses_text`]), `tokens` is the preset's (so it is not written).
    fn canonical_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.pairs();
        if self.uses_text() {
            if let Some(p) = pairs.iter_mut().find(|(k, _)| *k == "tokens") {
                p.1 = self.preset.config().tokens.to_string();
            }
        }
        pairs
    }
}
