//! The model lab's "Tokens through the layers" (science.md §7.5): the core's
//! [`attn_core::model::layers_view`] of the last analysed text's hidden states `h_0 … h_L`,
//! marshalled as typed arrays for the page (`www/model/layers.js`). The numbers are those
//! `attn encode --layers-view` prints, bit for bit; a layer whose state is not finite (the CLI's
//! `null`) has NaN statistics here, `finite` 0, labels [`NO_LABEL`] and a zero histogram.

use super::model::ModelLab;
use crate::js::Fields;
use attn_core::model::layers_view::{layers_view, LayersView, BINS};
use js_sys::{Float64Array, Object, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

/// A token's label in a layer without statistics.
pub const NO_LABEL: u32 = u32::MAX;

#[wasm_bindgen]
impl ModelLab {
    /// The tokens through the layers of the last analysed link's text, clusters under its
    /// `cos_tol`: `{ n, states, k, bins, coords, variance, total_variance, finite, histograms,
    /// clusters, labels, mean_cos, effective_rank }`. `states = L + 1` (layer 0 the embeddings
    /// after their LayerNorm); `coords` (`Float64Array`, `states x n x k`, layer-major) the
    /// tokens on the `k` PCA axes fitted once on every layer; `variance` (`k`) and
    /// `total_variance` the fit's; per layer, `finite` (`Uint8Array`), `histograms`
    /// (`Float64Array`, `states x bins` pair counts of the cosines over `i < j`), `clusters`,
    /// `mean_cos`, `effective_rank` (`Float64Array`, NaN where not finite) and `labels`
    /// (`Uint32Array`, `states x n`). Computed once per text and `cos_tol`. Throws before any
    /// analysis.
    pub fn layers_view(&mut self) -> Result<Object, JsError> {
        let (Some(a), Some(link)) = (&self.analysis, &self.link) else {
            return Err(JsError::new("model: no text analysed yet"));
        };
        let cos_tol = link.cos_tol;
        if self.layers.as_ref().is_none_or(|(tol, _)| *tol != cos_tol) {
            let f = &a.forward;
            self.layers = Some((cos_tol, layers_view(&f.hidden, f.n, f.d, cos_tol)));
        }
        let (n, view) = (a.forward.n, &self.layers.as_ref().expect("set above").1);
        view_object(n, view, &[])?.done()
    }
}

/// The fields of [`ModelLab::layers_view`]' answer (`ModelLayersView` in `www/wasm.d.ts`).
pub(super) const LAYERS_FIELDS: [&str; 13] = [
    "n",
    "states",
    "k",
    "bins",
    "coords",
    "variance",
    "total_variance",
    "finite",
    "histograms",
    "clusters",
    "labels",
    "mean_cos",
    "effective_rank",
];

/// A [`LayersView`] of `n` tokens as the page reads it ([`ModelLab::layers_view`]'s object; the
/// repeated layer's view has the same, one state per repetition, and the fields `more`).
pub(super) fn view_object(n: usize, view: &LayersView, more: &'static [&'static str]) -> Result<Fields, JsError> {
    let states = view.layers.len();
    let k = view.pca.k;
    let coords: Vec<f64> = view.coords.iter().flatten().copied().collect();
    let stat = |f: fn(&attn_core::model::layers_view::LayerStats) -> f64| -> Vec<f64> {
        view.layers.iter().map(|s| s.as_ref().map_or(f64::NAN, f)).collect()
    };
    let finite: Vec<u8> = view.layers.iter().map(|s| s.is_some() as u8).collect();
    let mut histograms = vec![0.0; states * BINS];
    let mut labels = vec![NO_LABEL; states * n];
    for (l, s) in view.layers.iter().enumerate() {
        if let Some(s) = s {
            for (b, &c) in s.histogram.iter().enumerate() {
                histograms[l * BINS + b] = c as f64;
            }
            for (i, &c) in s.labels.iter().enumerate() {
                labels[l * n + i] = c as u32;
            }
        }
    }
    let mut out = Fields::new("model: layers view", &[&LAYERS_FIELDS, more]);
    out.set("n", &JsValue::from(n as u32))?;
    out.set("states", &JsValue::from(states as u32))?;
    out.set("k", &JsValue::from(k as u32))?;
    out.set("bins", &JsValue::from(BINS as u32))?;
    out.set("coords", &Float64Array::from(&coords[..]))?;
    out.set("variance", &Float64Array::from(&view.pca.variance[..]))?;
    out.set("total_variance", &JsValue::from(view.pca.total_variance))?;
    out.set("finite", &Uint8Array::from(&finite[..]))?;
    out.set("histograms", &Float64Array::from(&histograms[..]))?;
    out.set("clusters", &Float64Array::from(&stat(|s| s.clusters as f64)[..]))?;
    out.set("labels", &Uint32Array::from(&labels[..]))?;
    out.set("mean_cos", &Float64Array::from(&stat(|s| s.mean_cos)[..]))?;
    out.set("effective_rank", &Float64Array::from(&stat(|s| s.effective_rank)[..]))?;
    Ok(out)
}
