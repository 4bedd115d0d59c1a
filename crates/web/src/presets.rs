//! The presets of any lab as the page sees them: the list of `{ name, description }` and one
//! preset's `[key, value]` pairs (shared by the particle, training and depth wrappers).

use crate::to_js;
use attn_core::link::{quote, LabPreset};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct PresetInfo {
    name: &'static str,
    description: &'static str,
}

/// Every preset of lab `P`, in the page's order: an array of `{ name, description }`.
pub(crate) fn list<P: LabPreset>() -> Result<JsValue, JsError> {
    let list: Vec<PresetInfo> =
        P::all().iter().map(|p| PresetInfo { name: p.name(), description: p.description() }).collect();
    to_js(&list)
}

/// Every key of preset `name` of lab `P` with its value, `[[key, value], ...]` in canonical
/// order; "`preset`: unknown ... preset" for an unknown name.
pub(crate) fn pairs<P: LabPreset>(name: &str) -> Result<JsValue, JsError> {
    let p =
        P::from_name(name).ok_or_else(|| JsError::new(&format!("`preset`: unknown {} {}", P::NOUN, quote(name))))?;
    to_js(&p.pairs())
}
