//! The presets of a lab as the page sees them: the list of `{ name, description }` and one
//! preset's `[key, value]` pairs, for the particle, training and depth labs (the model lab has
//! none).

use crate::to_js;
use attn_core::labs::{lab_entry, no_presets, LabEntry, NAMES};
use attn_core::link::{quote, ConfigError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct PresetInfo {
    name: &'static str,
    description: &'static str,
}

/// The row of lab `lab` in the core's table of labs; an error naming `lab` for another name.
fn entry(lab: &str) -> Result<&'static LabEntry, JsError> {
    lab_entry(lab)
        .ok_or_else(|| JsError::new(&format!("`lab`: {} is not a lab; labs: {}", quote(lab), NAMES.join(", "))))
}

fn error(e: ConfigError) -> JsError {
    JsError::new(&format!("`{}`: {}", e.key, e.message))
}

/// The presets of lab `lab` (`particles`, `training`, `depth`), in the page's order: an array of
/// `{ name, description }`. Errors name `lab` for a lab without presets.
#[wasm_bindgen]
pub fn presets(lab: &str) -> Result<JsValue, JsError> {
    let e = entry(lab)?;
    let rows = (e.presets)();
    if rows.is_empty() {
        return Err(error(no_presets(lab)));
    }
    let list: Vec<PresetInfo> = rows.into_iter().map(|(name, description)| PresetInfo { name, description }).collect();
    to_js(&list)
}

/// Every key of preset `name` of lab `lab` with its value: `[[key, value], ...]` in canonical
/// order (`lab`, `preset` first). Errors name `preset` for an unknown name, `lab` for a lab
/// without presets.
#[wasm_bindgen]
pub fn preset_pairs(lab: &str, name: &str) -> Result<JsValue, JsError> {
    to_js(&(entry(lab)?.preset)(name).map_err(error)?.pairs())
}

/// The canonical link of preset `name` of lab `lab` (`particles`, `training`, `depth`) at
/// today's version: `version=V&lab=...&preset=NAME`. The one place the page builds a preset's
/// link (a string without `version` would be read as an old link and migrated). Errors name
/// `preset` for an unknown name, `lab` for a lab without presets.
#[wasm_bindgen]
pub fn preset_link(lab: &str, name: &str) -> Result<String, JsError> {
    Ok((entry(lab)?.preset)(name).map_err(error)?.to_canonical_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// A preset's entry has the fields `www/wasm_page.d.ts` declares (PresetInfo).
    #[test]
    fn a_preset_is_what_wasm_page_d_ts_declares() {
        let p = PresetInfo { name: "polytope", description: "d" };
        assert_eq!(json_keys(&serde_json::to_value(p).unwrap()), fields_of("PresetInfo"));
    }
}
