//! The model lab's charts in the page (science.md §6.3, §4): the four variants' residual curves
//! (the depth lab's chart with the model lab's legend) and the unmodified model's
//! context-similarity statistics (the depth lab's distance and same-sentence charts). The
//! analysis's curves and statistics are read into the core's `Curve` and `LayerSimilarity` and
//! drawn as `charts::depth::Series`.

use crate::charts::depth::{self as depth_chart, Series};
use crate::charts::depth_residual::{self, MODEL_TEXTS};
use crate::to_js;
use attn_core::collapse::similarity::LayerSimilarity;
use attn_core::model::{Curve, Variant};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// The analysis's `variants` (`[{ variant, residual }]`).
fn curves(value: JsValue) -> Result<Vec<Curve>, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("model curves: {}", e)))
}

/// The analysis's `statistics`, as the unmodified model's one series.
fn statistics(value: JsValue) -> Result<Vec<LayerSimilarity>, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("model statistics: {}", e)))
}

/// The unmodified model's series of `statistics`.
fn unmodified(statistics: &[LayerSimilarity]) -> Series<'_> {
    Series { label: Variant::Transformer.label(), similarity: statistics, ..Series::default() }
}

/// Draws the four variants' relative residual against layer (the depth lab's chart, with the
/// model lab's legend: its SAN+MLP keeps the MLP's skip; layer 0 = the embeddings): `variants`
/// is the analysis's `[{ variant, residual }]`. Returns the chart's layout as
/// `draw_depth_residual` does.
#[wasm_bindgen]
pub fn draw_model_residual(
    canvas: HtmlCanvasElement,
    variants: JsValue,
    layers: u32,
    log: bool,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let curves = curves(variants)?;
    let series: Vec<Series> = curves
        .iter()
        .map(|c| Series { label: c.variant.label(), residual: &c.residual, ..Series::default() })
        .collect();
    // The encoder runs in f32: its log axis marks f32's round-off floor.
    let scale = depth_residual::Scale { log, precision: attn_core::depth::Precision::F32 };
    let layout = depth_residual::residual(canvas, &series, layers as usize, scale, dpr, colours, &MODEL_TEXTS)
        .map_err(|e| JsError::new(&e))?;
    to_js(&layout)
}

/// Draws the unmodified model's |i - j| histograms of high-similarity pairs, one ridge per
/// layer (the depth lab's chart); `statistics` is the analysis's. Returns the chart's layout as
/// `draw_depth_histograms` does.
#[wasm_bindgen]
pub fn draw_model_histograms(
    canvas: HtmlCanvasElement,
    statistics_value: JsValue,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let stats = statistics(statistics_value)?;
    to_js(&depth_chart::histograms(canvas, Some(&unmodified(&stats)), dpr, colours).map_err(|e| JsError::new(&e))?)
}

/// Draws the unmodified model's same-sentence share of high-similarity pairs against layer with
/// the `chance` level dashed (the depth lab's chart); `statistics` is the analysis's. Returns the
/// chart's layout as `draw_depth_same_sentence` does.
#[wasm_bindgen]
pub fn draw_model_same_sentence(
    canvas: HtmlCanvasElement,
    statistics_value: JsValue,
    layers: u32,
    chance: f64,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let stats = statistics(statistics_value)?;
    let series = [unmodified(&stats)];
    to_js(
        &depth_chart::same_sentence(canvas, &series, layers as usize, chance, dpr, colours)
            .map_err(|e| JsError::new(&e))?,
    )
}
