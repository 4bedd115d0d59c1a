//! The depth lab's charts in the page (science.md §3-4). The workers' `run_variant` results
//! arrive on the page's thread once each; [`DepthResults`] reads each into the core's
//! `VariantResult` (and its `PathLengths`) once, and every drawing, on every resize, theme change
//! or slider move, borrows from it (`charts::depth::Series`): nothing is parsed again per draw.

use crate::charts::depth::{self as depth_chart, Series};
use crate::charts::depth_residual;
use crate::to_js;
use attn_core::depth::{PathLengths, Precision, Variant, VariantResult};
use attn_core::link::Named;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// The finished variants of one run as the charts draw them, in the configured order.
#[wasm_bindgen]
pub struct DepthResults {
    /// The configured variants, in order.
    order: Vec<Variant>,
    variants: Vec<(VariantResult, Option<PathLengths>)>,
}

#[wasm_bindgen]
impl DepthResults {
    /// No results yet of a run of the configured `variants` (names or labels, in the link's
    /// order: the charts draw and list them so); throws on a name that is not a variant's.
    #[wasm_bindgen(constructor)]
    pub fn new(variants: Vec<String>) -> Result<DepthResults, JsError> {
        let order = variants.iter().map(|v| variant_named(v)).collect::<Result<_, _>>()?;
        Ok(DepthResults { order, variants: Vec::new() })
    }

    /// Keeps a worker's `run_variant` answer (replacing an earlier one of the same variant);
    /// throws "depth result: ..." naming the field that is not a result's.
    pub fn add(&mut self, result: JsValue) -> Result<(), JsError> {
        let r: VariantResult =
            serde_wasm_bindgen::from_value(result).map_err(|e| JsError::new(&format!("depth result: {}", e)))?;
        self.keep(r);
        Ok(())
    }

    /// Keeps a worker's `path_lengths` answer for `variant` (name or label), once its result is
    /// here; throws on an unknown variant or a malformed answer.
    pub fn set_paths(&mut self, variant: &str, paths: JsValue) -> Result<(), JsError> {
        let v = variant_named(variant)?;
        let p: Option<PathLengths> =
            serde_wasm_bindgen::from_value(paths).map_err(|e| JsError::new(&format!("path lengths: {}", e)))?;
        if let Some(slot) = self.variants.iter_mut().find(|(r, _)| r.variant == v) {
            slot.1 = p;
        }
        Ok(())
    }
}

/// The depth variant named `name` (name or label), or an error naming it.
fn variant_named(name: &str) -> Result<Variant, JsError> {
    Variant::from_name(name).ok_or_else(|| JsError::new(&format!("no depth variant {:?}", name)))
}

impl DepthResults {
    /// Keeps `r` in the configured order (a variant not configured last).
    fn keep(&mut self, r: VariantResult) {
        let rank = |v: Variant| self.order.iter().position(|&o| o == v).unwrap_or(self.order.len());
        let mine = rank(r.variant);
        let at = self.variants.iter().position(|(old, _)| rank(old.variant) > mine);
        let kept = self.variants.iter().position(|(old, _)| old.variant == r.variant);
        match kept {
            Some(k) => self.variants[k] = (r, None),
            None => self.variants.insert(at.unwrap_or(self.variants.len()), (r, None)),
        }
    }

    /// Every finished variant as the charts read it.
    fn series(&self) -> Vec<Series<'_>> {
        self.variants.iter().map(|(r, p)| Series::of(r, p.as_ref())).collect()
    }

    /// Variant `v` as the charts read it, once its result is here.
    fn series_of(&self, v: Variant) -> Option<Series<'_>> {
        self.variants.iter().find(|(r, _)| r.variant == v).map(|(r, p)| Series::of(r, p.as_ref()))
    }
}

/// Draws the relative residual `||res(X_l)|| / ||X_l||` against layer for every finished
/// variant, linear or `log` y axis. `canvas` in device pixels (`dpr` per CSS px). Returns
/// `{ x0, x1, y0, y1, l0, l1, plot, legend, labels }` (CSS px): layers `l0`, `l1` at `x0`, `x1`
/// for hover, the plot area and legend band as `{ x, y, w, h }` (or null), and every text drawn
/// as `{ text, x, y, w, h }`.
#[wasm_bindgen]
pub fn draw_depth_residual(
    canvas: HtmlCanvasElement,
    results: &DepthResults,
    layers: u32,
    log: bool,
    precision: &str,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let precision = Precision::from_name(precision)
        .ok_or_else(|| JsError::new(&format!("draw_depth_residual: precision {:?} is not f32 or f64", precision)))?;
    let scale = depth_residual::Scale { log, precision };
    let texts = &depth_residual::DEPTH_TEXTS;
    let layout = depth_residual::residual(canvas, &results.series(), layers as usize, scale, dpr, colours, texts)
        .map_err(|e| JsError::new(&e))?;
    to_js(&layout)
}

/// Draws the |i - j| histograms of high-similarity pairs of `variant` (name or label; a
/// "waiting" note before its result is here), one ridge per layer (each scaled to its own peak),
/// layer 1 at the top. Returns `{ plot, legend, labels }` (CSS px, as [`draw_depth_residual`]).
#[wasm_bindgen]
pub fn draw_depth_histograms(
    canvas: HtmlCanvasElement,
    results: &DepthResults,
    variant: &str,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let r = Variant::from_name(variant).and_then(|v| results.series_of(v));
    to_js(&depth_chart::histograms(canvas, r.as_ref(), dpr, colours).map_err(|e| JsError::new(&e))?)
}

/// Draws the same-sentence share of high-similarity pairs against layer, one curve per
/// variant, with the chance level dashed.
/// Returns `{ plot, legend, labels }` (CSS px, as [`draw_depth_residual`]).
#[wasm_bindgen]
pub fn draw_depth_same_sentence(
    canvas: HtmlCanvasElement,
    results: &DepthResults,
    layers: u32,
    chance: f64,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let series = results.series();
    to_js(
        &depth_chart::same_sentence(canvas, &series, layers as usize, chance, dpr, colours)
            .map_err(|e| JsError::new(&e))?,
    )
}

/// Draws the share of paths of each length (`shares`, `k = 0..=L`) as bars, and for variants
/// with a path decomposition the share of the output norm carried by each length.
/// Returns `{ plot, legend, labels }` (CSS px, as [`draw_depth_residual`]).
#[wasm_bindgen]
pub fn draw_depth_paths(
    canvas: HtmlCanvasElement,
    shares: &[f64],
    results: &DepthResults,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    to_js(&depth_chart::paths(canvas, shares, &results.series(), dpr, colours).map_err(|e| JsError::new(&e))?)
}

/// Draws the singular values `σ_k(X_l) / σ_1(X_l)` of layer `layer` (log axis), one curve per
/// variant. Returns `{ plot, legend, labels }` (CSS px, as [`draw_depth_residual`]).
#[wasm_bindgen]
pub fn draw_depth_spectrum(
    canvas: HtmlCanvasElement,
    results: &DepthResults,
    layer: u32,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    to_js(
        &depth_chart::spectrum(canvas, &results.series(), layer as usize, dpr, colours)
            .map_err(|e| JsError::new(&e))?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use attn_core::depth::{parse, DepthRun};

    /// Results arriving in any order are drawn in the link's order; a variant run again
    /// replaces its earlier result (and drops its path lengths).
    #[test]
    fn results_are_kept_in_the_configured_order() {
        let c = parse("lab=depth&preset=collapse-small&layers=2&tokens=6&variants=transformer,san,san-skip").unwrap();
        let mut run = DepthRun::new(&c);
        let mut kept = DepthResults { order: c.variants.clone(), variants: Vec::new() };
        for v in [Variant::SanSkip, Variant::Transformer, Variant::San] {
            kept.keep(run.run_variant(v));
        }
        let labels = |k: &DepthResults| k.series().iter().map(|s| s.label.to_string()).collect::<Vec<_>>();
        assert_eq!(labels(&kept), ["transformer", "SAN", "SAN+skip"]);
        kept.variants[1].1 = Some(run.path_lengths().expect("SAN, a linear stack, has paths"));
        let again = run.run_variant(Variant::San);
        assert_eq!(kept.series()[1].residual, &again.residual[..]);
        assert!(kept.series()[1].paths.is_some());
        kept.keep(again);
        assert_eq!(labels(&kept), ["transformer", "SAN", "SAN+skip"]);
        assert_eq!(kept.variants.len(), 3);
        assert!(kept.series()[1].paths.is_none());
    }
}
