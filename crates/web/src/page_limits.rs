//! The page's limits: what the browser page refuses on top of the core's own limits, because
//! the page holds its results in a browser tab's memory. The single home of these limits (the
//! particle lab's cost limit in `www/particles/device_cap.js` is to move here); the CLI and the
//! core keep only the core's limits, so a link the page refuses still runs in `attn` and no
//! configuration version changes.
//!
//! Depth lab: the page keeps one variant's context-similarity maps `S` (one `n x n` matrix per
//! layer and head, sent by the worker as `f32`: `L·H·n²·4` bytes) while the worker's wasm keeps
//! the same variant's records (attention maps `P`, `L·H·n²` entries in the run's precision, and
//! the head outputs). [`DEPTH_MAX_MAPS`] bounds `L·H·n²`: 3.33e7 entries, 133 MB of `f32` maps on
//! the page plus as much again (f32; twice with `precision=f64`) in the worker: the heavy run
//! `layers=48&heads=16&tokens=208` (3.32e7) is allowed, `tokens=209` at that depth is not (the
//! core allows up to 2^25 = 3.36e7).

use crate::check::{CheckErr, CheckOk};
use crate::to_js;
use attn_core::depth::DepthConfig;
use attn_core::lab::{self, parse_lab, LabConfig};
use attn_core::ConfigError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Largest `layers · heads · n²` (context-similarity entries of one variant) the depth page
/// runs: `4 · DEPTH_MAX_MAPS` bytes of `f32` maps kept on the page.
pub const DEPTH_MAX_MAPS: usize = 33_300_000;

/// Refuses a depth configuration heavier than the page holds ([`DEPTH_MAX_MAPS`]), naming
/// `tokens` and the largest `n` the page allows at its `layers` and `heads`.
pub fn check_depth(c: &DepthConfig) -> Result<(), ConfigError> {
    let n = c.n();
    let maps = c.layers * c.heads * n * n;
    if maps <= DEPTH_MAX_MAPS {
        return Ok(());
    }
    let n_max = ((DEPTH_MAX_MAPS / (c.layers * c.heads)) as f64).sqrt().floor() as usize;
    Err(ConfigError::new(
        "tokens",
        format!(
            "n = {} with layers = {} and heads = {}: layers x heads x n^2 = {} similarity-map entries, more than the page holds ({}: {} MB of f32 maps); at layers = {} and heads = {} the page allows n <= {}; the CLI `attn depth` runs it",
            n,
            c.layers,
            c.heads,
            maps,
            DEPTH_MAX_MAPS,
            DEPTH_MAX_MAPS * 4 / 1_000_000,
            c.layers,
            c.heads,
            n_max
        ),
    ))
}

/// Every page limit of a parsed configuration (see the module's doc).
pub fn check_page(c: &LabConfig) -> Result<(), ConfigError> {
    match c {
        LabConfig::Depth(d) => check_depth(d),
        _ => Ok(()),
    }
}

#[derive(Serialize)]
struct LabCheck<T> {
    lab: &'static str,
    #[serde(flatten)]
    check: T,
}

/// The page's check of a configuration of any lab: the core's (`check_lab_config`), then the
/// page's limits. Returns `{ ok: true, lab, canonical, differences, pairs }` or `{ ok: false,
/// lab, key, message }`. Never throws for bad input.
#[wasm_bindgen]
pub fn check_page_config(text: &str) -> Result<JsValue, JsError> {
    match parse_lab(text).and_then(|c| check_page(&c).map(|_| c)) {
        Ok(c) => to_js(&LabCheck {
            lab: c.lab(),
            check: CheckOk::new(c.to_canonical_string(), c.differences_from_preset(), c.pairs()),
        }),
        Err(e) => to_js(&LabCheck { lab: lab::requested_lab(text), check: CheckErr::from(e) }),
    }
}

/// The page's limits: `{ depth_max_maps }` (see [`DEPTH_MAX_MAPS`]).
#[wasm_bindgen]
pub fn page_limits() -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Limits {
        depth_max_maps: usize,
    }
    to_js(&Limits { depth_max_maps: DEPTH_MAX_MAPS })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(text: &str) -> DepthConfig {
        match parse_lab(text).unwrap() {
            LabConfig::Depth(c) => c,
            _ => panic!("not a depth link"),
        }
    }

    #[test]
    fn the_heavy_run_fits_and_one_more_token_is_refused_naming_tokens() {
        let heavy = "lab=depth&layers=48&heads=16&tokens=208&d_model=1024&d_head=64&mlp_width=3072";
        assert_eq!(48 * 16 * 208 * 208, 33_226_752);
        assert!(check_depth(&depth(heavy)).is_ok());
        // One more token: the core takes it (2^25 = 33,554,432), the page does not.
        let heavier = depth("lab=depth&layers=48&heads=16&tokens=209&d_model=1024&d_head=64&mlp_width=3072");
        let e = check_depth(&heavier).unwrap_err();
        assert_eq!(e.key, "tokens");
        assert!(e.message.contains("the page allows n <= 208"), "{}", e.message);
        assert!(check_page(&parse_lab("lab=depth&preset=collapse-small").unwrap()).is_ok());
    }
}
