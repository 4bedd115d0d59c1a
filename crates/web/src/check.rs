//! The JSON the page gets back from checking a configuration string: `{ ok: true, canonical,
//! differences, pairs }` or `{ ok: false, key, message }`.

use attn_core::ConfigError;
use serde::Serialize;

#[derive(Serialize)]
struct Difference {
    key: &'static str,
    preset: String,
    value: String,
}

/// A valid configuration: its canonical text, its differences from its preset, every pair.
#[derive(Serialize)]
pub struct CheckOk {
    ok: bool,
    canonical: String,
    differences: Vec<Difference>,
    pairs: Vec<(&'static str, String)>,
}

impl CheckOk {
    /// From the canonical text, the `(key, preset value, value)` differences and every pair.
    pub fn new(
        canonical: String,
        differences: Vec<(&'static str, String, String)>,
        pairs: Vec<(&'static str, String)>,
    ) -> CheckOk {
        CheckOk {
            ok: true,
            canonical,
            differences: differences
                .into_iter()
                .map(|(key, preset, value)| Difference { key, preset, value })
                .collect(),
            pairs,
        }
    }
}

/// A refused configuration: the offending key and what is allowed.
#[derive(Serialize)]
pub struct CheckErr {
    ok: bool,
    key: String,
    message: String,
}

impl From<ConfigError> for CheckErr {
    fn from(e: ConfigError) -> CheckErr {
        CheckErr { ok: false, key: e.key, message: e.message }
    }
}
