//! A lab's key table as plain data for the page's fields: each key's name, meaning and effect
//! (the field's tooltip), its allowed values (the number field's limits, the select's choices)
//! and its default. Derived from the one table ([`super::keys`]) that also parses, validates and
//! writes docs/links.md, so the page never keeps a second copy of a range or a choice name.

use super::keys::{Key, Kind};
use serde::Serialize;

/// One URL key as the page's configuration form reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyInfo {
    /// The key as written in links (`beta`).
    pub name: &'static str,
    /// `count`, `float`, `seed`, `switch`, `choice`, `text` or `custom` (a grammar of the lab's
    /// own: matrices, points, lists).
    pub kind: &'static str,
    /// Smallest allowed value of a `count`, `float` or `seed` (null otherwise).
    pub lo: Option<f64>,
    /// Largest allowed value of a `count`, `float` or `seed` (null otherwise).
    pub hi: Option<f64>,
    /// Whether `lo` itself is excluded (`float` only).
    pub lo_open: bool,
    /// Whether `hi` itself is excluded (`float` only).
    pub hi_open: bool,
    /// The names a `choice` (or `switch`: `on`, `off`) allows, in order; empty otherwise.
    pub choices: Vec<&'static str>,
    /// Longest `text` value in bytes (null otherwise).
    pub max_bytes: Option<usize>,
    /// What the key is, in one line.
    pub meaning: &'static str,
    /// What changing it does, in one line ("" when the meaning says it all).
    pub effect: &'static str,
    /// The "allowed" text of docs/links.md (Markdown: values in backticks).
    pub allowed: String,
    /// The value in the lab's default preset, as a link writes it.
    pub default: String,
}

/// The rows of a lab's key table, in canonical order, with defaults from `default_config` (the
/// lab's default preset).
pub fn key_infos<C>(table: &[Key<C>], default_config: &C) -> Vec<KeyInfo> {
    table
        .iter()
        .map(|key| {
            let mut info = KeyInfo {
                name: key.name,
                kind: "custom",
                lo: None,
                hi: None,
                lo_open: false,
                hi_open: false,
                choices: Vec::new(),
                max_bytes: None,
                meaning: key.meaning,
                effect: key.effect,
                allowed: key.allowed_text(),
                default: (key.get)(default_config),
            };
            match key.kind {
                Kind::Count { lo, hi } => {
                    info.kind = "count";
                    (info.lo, info.hi) = (Some(lo as f64), Some(hi as f64));
                }
                Kind::Float { lo, lo_open, hi, hi_open } => {
                    info.kind = "float";
                    (info.lo, info.hi, info.lo_open, info.hi_open) =
                        (lo.is_finite().then_some(lo), hi.is_finite().then_some(hi), lo_open, hi_open);
                }
                Kind::Seed => {
                    info.kind = "seed";
                    (info.lo, info.hi) = (Some(0.0), Some(f64::from(u32::MAX)));
                }
                Kind::Switch => {
                    info.kind = "switch";
                    info.choices = vec!["on", "off"];
                }
                Kind::Choice(names) => {
                    info.kind = "choice";
                    info.choices = names.to_vec();
                }
                Kind::Text { max_bytes } => {
                    info.kind = "text";
                    info.max_bytes = Some(max_bytes);
                }
                Kind::Custom => {}
            }
            info
        })
        .collect()
}
