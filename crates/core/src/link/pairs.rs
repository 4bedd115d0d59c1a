//! The `key=value&...` text shared by every lab's configuration: splitting into decoded pairs,
//! and the canonical form relative to a preset.

use super::ConfigError;
use super::{escape, percent_decode, MAX_CONFIG_LEN};

/// Splits `text` (an optional leading `#` or `?` ignored) into `(key, decoded value)` pairs.
/// The pairs are first brought to the current schema ([`super::migrate`] from the
/// `version` they name, 0 when absent; the `version` pair is dropped); then every key must be one
/// of `keys` and may appear once. `lab` names the lab: a `lab` pair must name it (checked
/// before any other key) and messages name it.
pub fn split_pairs(text: &str, keys: &[&'static str], lab: &str) -> Result<Vec<(&'static str, String)>, ConfigError> {
    split_pairs_versioned(text, keys, lab).map(|(_, pairs)| pairs)
}

/// Decoded `(key, value)` pairs with the keys of a lab.
pub type Pairs = Vec<(&'static str, String)>;

/// [`split_pairs`], also returning the version the text was written in (0 without `version`).
pub fn split_pairs_versioned(text: &str, keys: &[&'static str], lab: &str) -> Result<(u32, Pairs), ConfigError> {
    if text.len() > MAX_CONFIG_LEN {
        return Err(ConfigError::new(
            "config",
            format!("the configuration is {} bytes long; at most {} are allowed", text.len(), MAX_CONFIG_LEN),
        ));
    }
    let text = text.strip_prefix('#').or_else(|| text.strip_prefix('?')).unwrap_or(text);
    let mut decoded: Vec<(String, String)> = Vec::new();
    for segment in text.split('&').filter(|s| !s.is_empty()) {
        let Some((raw_key, raw_value)) = segment.split_once('=') else {
            return Err(ConfigError::new(&key_excerpt(segment), "expected key=value (pairs separated by &)"));
        };
        let key_text = percent_decode(raw_key).map_err(|m| ConfigError::new(&key_excerpt(raw_key), m))?;
        if key_text.is_empty() {
            return Err(ConfigError::new("(empty key)", "each pair needs a key before '='"));
        }
        let value = percent_decode(raw_value).map_err(|m| ConfigError::new(&key_excerpt(&key_text), m))?;
        decoded.push((key_text, value));
    }
    // An empty string asks for nothing to be replayed: today's version (no migration step).
    let version = if decoded.is_empty() { super::VERSION } else { super::read_version(&decoded)? };
    let migrated = super::migrate_for(version, decoded, lab)?;
    // `lab` before any other key: a link for another lab (or a lab that does not exist) is
    // refused on `lab`, not on a key of that lab (`lab=Training&preset=scan-snap&eta_z=2`).
    if let Some((_, value)) = migrated.iter().find(|(k, _)| k == "lab") {
        super::values::lab("lab", value, lab)?;
    }
    let mut pairs: Vec<(&'static str, String)> = Vec::with_capacity(migrated.len());
    for (key_text, value) in migrated {
        let Some(key) = keys.iter().find(|k| **k == key_text).copied() else {
            return Err(ConfigError::new(
                &key_excerpt(&key_text),
                format!("unknown key for lab={}; allowed keys: {}", lab, keys.join(", ")),
            ));
        };
        if pairs.iter().any(|(k, _)| *k == key) {
            return Err(ConfigError::new(key, "appears more than once"));
        }
        pairs.push((key, value));
    }
    Ok((version, pairs))
}

/// A key as a message names it (never empty): its first 40 characters, control and invisible
/// characters escaped as values are ([`escape`]: `\u{200b}n`, not a raw zero-width space that
/// would read as `n`).
pub fn key_excerpt(s: &str) -> String {
    let k = escape(s);
    if k.is_empty() {
        "(unreadable key)".into()
    } else {
        k
    }
}

/// `version=V&` (`version`: the current [`super::VERSION`], or 1 for a particle run from
/// an older link), then `prefix`, then `&key=value` for each pair of `mine` (after the first
/// `skip`) whose value differs from the same position in `base` (the preset's pairs, same keys
/// and order).
pub fn canonical_string(
    version: u32,
    prefix: String,
    mine: &[(&'static str, String)],
    base: &[(&'static str, String)],
    skip: usize,
) -> String {
    let mut out = format!("version={}&{}", version, prefix);
    for ((key, value), (_, base_value)) in mine.iter().zip(base.iter()).skip(skip) {
        if value != base_value {
            out.push('&');
            out.push_str(key);
            out.push('=');
            out.push_str(value);
        }
    }
    out
}

/// `(key, preset value, this value)` for each pair (after the first `skip`) that differs.
pub fn differences(
    mine: Vec<(&'static str, String)>,
    base: Vec<(&'static str, String)>,
    skip: usize,
) -> Vec<(&'static str, String, String)> {
    mine.into_iter().zip(base).skip(skip).filter(|((_, a), (_, b))| a != b).map(|((k, a), (_, b))| (k, b, a)).collect()
}
