//! Links for the page's address bar: a configuration with its view keys (core `lab::parse_link`),
//! checked, and written back in canonical form.

use crate::check::{CheckErr, CheckOk};
use crate::to_js;
use attn_core::lab::parse_lab;
use attn_core::lab::{self, parse_link};
use attn_core::parse;
use attn_core::view::View;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct LinkOk<'a> {
    lab: &'static str,
    /// The whole link: `version=V`, model keys, view keys (what the hash holds).
    link: String,
    /// The step the link opens at (`step`, or `t` rounded to the nearest step), or null.
    open_step: Option<u64>,
    view: &'a View,
    /// The view keys as written in the link (those that differ from their defaults).
    view_pairs: Vec<(&'static str, String)>,
    #[serde(flatten)]
    check: CheckOk,
}

#[derive(Serialize)]
struct LinkErr {
    lab: &'static str,
    #[serde(flatten)]
    check: CheckErr,
}

/// Parses and validates a link of any lab: its configuration and its view keys (`t`, `step`,
/// `embed`, `panels`, `controls`, `theme`, `speed`, `heatmap`, `trails`, `projection`, `camera`,
/// `colour`, `residual_axis`; see the core's `view` module for what each lab allows).
///
/// Returns `{ ok: true, lab, link, open_step, view, view_pairs, canonical, differences, pairs }`:
/// `link` is the canonical link (configuration, then the view keys that differ from their
/// defaults, in a fixed order), `canonical` the configuration alone (what the run is built
/// from), `view` the typed view (`{ lab, moment: {t}|{step}|null, embed, panels, controls,
/// theme, speed, heatmap, trails, projection: {mode, a, b}, camera: {yaw, pitch}, colour,
/// residual_axis }`), `open_step` the step the link opens at or null. On bad input:
/// `{ ok: false, lab, key, message }` (`lab` the lab the text asks for). Never throws for bad
/// input.
#[wasm_bindgen]
pub fn check_link(text: &str) -> Result<JsValue, JsError> {
    check_with(text, parse_link)
}

/// [`check_link`] for a configuration a host page sends with the postMessage API's `setConfig`
/// (core `lab::parse_api_link`): the same, and `embed` refused (naming `embed`: embed mode is
/// the embedding page's). Never throws for bad input.
#[wasm_bindgen]
pub fn check_api_link(text: &str) -> Result<JsValue, JsError> {
    check_with(text, lab::parse_api_link)
}

fn check_with(text: &str, parse: fn(&str) -> Result<lab::Link, attn_core::ConfigError>) -> Result<JsValue, JsError> {
    match parse(text) {
        Ok(l) => to_js(&LinkOk {
            lab: l.config.lab(),
            link: l.to_canonical_string(),
            open_step: l.open_step(),
            view: &l.view,
            view_pairs: l.view.pairs(),
            check: CheckOk::new(l.config.to_canonical_string(), l.config.differences_from_preset(), l.config.pairs()),
        }),
        Err(e) => to_js(&LinkErr { lab: lab::requested_lab(text), check: CheckErr::from(e) }),
    }
}

/// The view keys of lab `lab` (`particles`, `training`, `depth`), with the panel and control
/// names each allows: `{ lab, keys, panels, controls, default_controls, max_speed }`.
#[wasm_bindgen]
pub fn view_spec(lab: &str) -> Result<JsValue, JsError> {
    to_js(attn_core::view::spec_of(lab))
}

/// Parses and validates a configuration string (`key=value&...`, as in the URL hash and the CLI).
///
/// Returns `{ ok: true, canonical, differences: [{ key, preset, value }], pairs: [[key, value]] }`
/// (`pairs`: every key of the resolved configuration) or `{ ok: false, key, message }` where `key`
/// names the offending key and `message` says what is allowed. Never throws for bad input.
#[wasm_bindgen]
pub fn check_config(text: &str) -> Result<JsValue, JsError> {
    match parse(text) {
        Ok(c) => to_js(&CheckOk::new(c.to_canonical_string(), c.differences_from_preset(), c.pairs())),
        Err(e) => to_js(&CheckErr::from(e)),
    }
}

#[derive(Serialize)]
struct LabCheck<T> {
    lab: &'static str,
    #[serde(flatten)]
    check: T,
}

/// Parses and validates a configuration of either lab (core `lab::parse_lab`: `lab` absent or
/// `particles` is the particle lab, `lab=training` the training lab).
///
/// Returns `{ ok: true, lab, canonical, differences: [{ key, preset, value }], pairs }` like
/// [`check_config`], with `lab` the lab's name (`"particles"`, `"training"`); or `{ ok: false, lab, key,
/// message }` where `lab` is the lab the text asks for (its `lab` key) so the page can show the
/// error in that lab. Never throws for bad input.
#[wasm_bindgen]
pub fn check_lab_config(text: &str) -> Result<JsValue, JsError> {
    match parse_lab(text) {
        Ok(c) => to_js(&LabCheck {
            lab: c.lab(),
            check: CheckOk::new(c.to_canonical_string(), c.differences_from_preset(), c.pairs()),
        }),
        Err(e) => to_js(&LabCheck { lab: lab::requested_lab(text), check: CheckErr::from(e) }),
    }
}

/// The lab a configuration string asks for, valid or not (core `lab::requested_lab`):
/// `"particles"`, `"training"`.
#[wasm_bindgen]
pub fn requested_lab(text: &str) -> String {
    lab::requested_lab(text).into()
}

/// The canonical link of preset `name` of lab `lab` (`particles`, `training`, `depth`) at
/// today's version: `version=V&lab=...&preset=NAME`. The one place the page builds a preset's
/// link (a string without `version` would be read as an old link and migrated). Errors name
/// `preset` for an unknown name.
#[wasm_bindgen]
pub fn preset_link(lab: &str, name: &str) -> Result<String, JsError> {
    use attn_core::link::LabPreset;
    fn of<P: LabPreset>(name: &str, canonical: impl Fn(P) -> String) -> Result<String, JsError> {
        P::from_name(name)
            .map(canonical)
            .ok_or_else(|| JsError::new(&format!("`preset`: unknown {} {:?}", P::NOUN, name)))
    }
    match lab {
        "training" => of(name, |p: attn_core::training::TrainingPreset| p.config().to_canonical_string()),
        "depth" => of(name, |p: attn_core::depth::DepthPreset| p.config().to_canonical_string()),
        _ => of(name, |p: attn_core::particles::Preset| p.config().to_canonical_string()),
    }
}
