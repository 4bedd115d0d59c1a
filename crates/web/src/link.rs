//! Links for the page's address bar: a configuration with its view keys (core `lab::parse_link`),
//! checked, and written back in canonical form.

use crate::check::{CheckErr, CheckOk};
use crate::to_js;
use attn_core::lab::{self, parse_link};
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
    /// The preset's one-line caption (core `LabPreset::caption`), shown in the embed bar.
    caption: &'static str,
    #[serde(flatten)]
    check: CheckOk,
}

#[derive(Serialize)]
struct LinkErr {
    lab: &'static str,
    #[serde(flatten)]
    check: CheckErr,
}

/// The one check of a link, for every lab and every caller: its configuration and its view keys
/// (`t`, `step`, `embed`, `panels`, `controls`, `theme`, `speed`, `heatmap`, `trails`,
/// `projection`, `camera`, `colour`, `residual_axis`, `grid_scale`; see the core's `view` module for what each
/// lab allows).
///
/// - `lab` (optional): the lab whose page reads the link (`particles`, `training`, `depth`; core
///   `lab::parse_lab_link`): a link of another lab is refused naming `lab`, a link without `lab`
///   is read as that lab's. Without it the link's own `lab` key decides (core `lab::parse_link`).
/// - `from_api` (optional, default false): a configuration a host page sends with the
///   postMessage API's `setConfig` (core `lab::parse_api_link`; `lab` is then not used: a host
///   may switch labs): `embed` is refused, naming `embed` (embed mode is the embedding page's).
/// - With `lab` or `from_api`, the page's limits ([`crate::page_limits`]) apply too: a run too
///   heavy for the page is refused naming the key to change (`edited`, optional: the key the user
///   just changed, named where a refusal can name it).
///
/// Returns `{ ok: true, lab, link, open_step, view, view_pairs, canonical, differences: [{ key,
/// preset, value }], pairs: [[key, value]] }`: `link` is the canonical link (configuration, then
/// the view keys that differ from their defaults, in a fixed order), `canonical` the
/// configuration alone (what the run is built from), `differences` its keys that differ from the
/// preset, `pairs` every key of the resolved configuration, `view` the typed view (`{ lab,
/// moment: {t}|{step}|null, embed, panels, controls, theme, speed, heatmap, trails, projection:
/// {mode, a, b}, camera: {yaw, pitch}, colour, residual_axis, grid_scale }`), `view_pairs` the view keys as
/// written in `link`, `open_step` the step the link opens at or null. On bad input: `{ ok:
/// false, lab, key, message }` (`lab` the lab the text asks for, so the page shows the error in
/// that lab; `key` the offending key). Never throws for bad input.
#[wasm_bindgen]
pub fn check_link(
    text: &str,
    lab: Option<String>,
    from_api: Option<bool>,
    edited: Option<String>,
) -> Result<JsValue, JsError> {
    let parsed = match (from_api.unwrap_or(false), lab.as_deref()) {
        (true, _) => lab::parse_api_link(text),
        (false, Some(name)) => lab::parse_lab_link(name, text),
        (false, None) => parse_link(text),
    };
    // A lab's page, and the API that drives it, refuse what the page cannot run.
    let page = from_api.unwrap_or(false) || lab.is_some();
    let parsed = parsed.and_then(|l| {
        if page {
            crate::page_limits::check_page(&l.config, edited.as_deref())?;
        }
        Ok(l)
    });
    match parsed {
        Ok(l) => to_js(&link_ok(&l)),
        Err(e) => to_js(&LinkErr { lab: lab::requested_lab(text), check: CheckErr::from(e) }),
    }
}

/// [`check_link`]'s answer for a valid link `l`.
fn link_ok(l: &lab::Link) -> LinkOk<'_> {
    LinkOk {
        lab: l.config.lab(),
        link: l.to_canonical_string(),
        open_step: l.open_step(),
        view: &l.view,
        view_pairs: l.view.pairs(),
        caption: l.config.caption(),
        check: CheckOk::new(l.config.to_canonical_string(), l.config.differences_from_preset(), l.config.pairs()),
    }
}

/// The view keys of lab `lab` (`particles`, `training`, `depth`), with the panel and control
/// names each allows: `{ lab, keys, panels, controls, default_controls, max_speed, fractional_speed }`.
#[wasm_bindgen]
pub fn view_spec(lab: &str) -> Result<JsValue, JsError> {
    to_js(attn_core::view::spec_of(lab))
}

/// The view keys a bare model link keeps (core `model::keys::bare_view_keys`): `lab=model` with
/// only these (and `version`) opens the default text with them.
#[wasm_bindgen]
pub fn model_bare_view_keys() -> Vec<String> {
    attn_core::model::keys::bare_view_keys().into_iter().map(String::from).collect()
}

/// The lab a configuration string asks for, valid or not (core `lab::requested_lab`):
/// `"particles"`, `"training"`.
#[wasm_bindgen]
pub fn requested_lab(text: &str) -> String {
    lab::requested_lab(text).into()
}

/// The key table of lab `lab` (`particles`, `training`, `depth`; core `lab::key_infos`) for the
/// page's configuration fields: `[{ name, kind, lo, hi, lo_open, hi_open, choices, max_bytes,
/// meaning, effect, allowed, default }]` in canonical order (`kind`: `count`, `float`, `seed`,
/// `switch`, `choice`, `text`, `custom`; `lo`/`hi` null where the kind has no range). Errors
/// name `lab` for an unknown lab.
#[wasm_bindgen]
pub fn key_table(lab: &str) -> Result<JsValue, JsError> {
    let rows = lab::key_infos(lab).map_err(|e| JsError::new(&format!("`{}`: {}", e.key, e.message)))?;
    to_js(&rows)
}

/// The keys particle model `model` (`euclidean`, `sphere-sa`, `sphere-usa`) requires when the
/// configuration's integrator is `integrator` (core `particles::config::family_keys`), as
/// `[[key, value]]`: what the page sets in the draft, and names in a note, when the model field
/// changes family. Errors name `model` or `integrator` for an unknown name.
#[wasm_bindgen]
pub fn model_family_keys(model: &str, integrator: &str) -> Result<JsValue, JsError> {
    use attn_core::link::Named;
    use attn_core::particles::config::{family_keys, Integrator, Model};
    let model = Model::from_name(model).ok_or_else(|| JsError::new(&format!("`model`: unknown model {:?}", model)))?;
    let integrator = Integrator::from_name(integrator)
        .ok_or_else(|| JsError::new(&format!("`integrator`: unknown integrator {:?}", integrator)))?;
    to_js(&family_keys(model, integrator))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// check_link's JSON, valid and refused, has exactly the fields `www/wasm.d.ts` declares for
    /// it (LinkOk with CheckOk, its view as LinkView; LinkErr with CheckErr): a field renamed on
    /// one side only fails here.
    /// key_table's rows and view_spec's answer have the fields `www/wasm_page.d.ts` declares
    /// (KeyInfo, ViewSpecInfo), for every lab.
    #[test]
    fn the_tables_are_what_wasm_page_d_ts_declares() {
        for lab in attn_core::labs::NAMES {
            let rows = serde_json::to_value(lab::key_infos(lab).unwrap()).unwrap();
            assert_eq!(json_keys(&rows[0]), fields_of("KeyInfo"), "{lab}");
            let spec = serde_json::to_value(attn_core::view::spec_of(lab)).unwrap();
            assert_eq!(json_keys(&spec), fields_of("ViewSpecInfo"), "{lab}");
        }
    }

    #[test]
    fn check_links_answers_are_what_wasm_d_ts_declares() {
        let l = parse_link("version=7&preset=polytope&step=3").unwrap();
        let ok = serde_json::to_value(link_ok(&l)).unwrap();
        assert_eq!(json_keys(&ok), fields_of("LinkOk"));
        assert_eq!(json_keys(&ok["view"]), fields_of("LinkView"));
        let e = parse_link("version=7&preset=polytope&n=0").unwrap_err();
        let err = serde_json::to_value(LinkErr { lab: "particles", check: CheckErr::from(e) }).unwrap();
        assert_eq!(json_keys(&err), fields_of("LinkErr"));
    }
}
