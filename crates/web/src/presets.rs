//! The presets of a lab as the page sees them: the list of `{ name, description }` and one
//! preset's `[key, value]` pairs, for the particle, training and depth labs (the model lab has
//! none).

use crate::to_js;
use attn_core::link::{quote, LabPreset};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct PresetInfo {
    name: &'static str,
    description: &'static str,
}

/// The presets of lab `lab` (`particles`, `training`, `depth`), in the page's order: an array of
/// `{ name, description }`. Errors name `lab` for a lab without presets.
#[wasm_bindgen]
pub fn presets(lab: &str) -> Result<JsValue, JsError> {
    match lab {
        "particles" => list::<attn_core::particles::Preset>(),
        "training" => list::<attn_core::training::TrainingPreset>(),
        "depth" => list::<attn_core::depth::DepthPreset>(),
        _ => Err(no_presets(lab)),
    }
}

/// Every key of preset `name` of lab `lab` with its value: `[[key, value], ...]` in canonical
/// order (`lab`, `preset` first). Errors name `preset` for an unknown name, `lab` for a lab
/// without presets.
#[wasm_bindgen]
pub fn preset_pairs(lab: &str, name: &str) -> Result<JsValue, JsError> {
    match lab {
        "particles" => pairs::<attn_core::particles::Preset>(name),
        "training" => pairs::<attn_core::training::TrainingPreset>(name),
        "depth" => pairs::<attn_core::depth::DepthPreset>(name),
        _ => Err(no_presets(lab)),
    }
}

fn no_presets(lab: &str) -> JsError {
    JsError::new(&format!("`lab`: {} has no presets; labs with presets: particles, training, depth", quote(lab)))
}

/// Every preset of lab `P`, in the page's order: an array of `{ name, description }`.
fn list<P: LabPreset>() -> Result<JsValue, JsError> {
    let list: Vec<PresetInfo> =
        P::all().iter().map(|p| PresetInfo { name: p.name(), description: p.description() }).collect();
    to_js(&list)
}

/// Every key of preset `name` of lab `P` with its value, `[[key, value], ...]` in canonical
/// order; "`preset`: unknown ... preset" for an unknown name.
fn pairs<P: LabPreset>(name: &str) -> Result<JsValue, JsError> {
    let p =
        P::from_name(name).ok_or_else(|| JsError::new(&format!("`preset`: unknown {} {}", P::NOUN, quote(name))))?;
    to_js(&p.pairs())
}
