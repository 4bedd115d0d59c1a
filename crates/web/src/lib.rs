//! Thin wasm-bindgen layer over `attn-core` for the browser playground.
//!
//! No science lives here: every number comes from the core ([`attn_core::Simulation`],
//! [`attn_core::particles::analysis`]). This crate converts between the core and JavaScript (typed arrays,
//! plain objects built with `serde_wasm_bindgen`'s JSON-compatible serializer, `JsError` for every
//! failure) and holds drawing helpers that are not science: heatmap pixels and the charts.
//! One class per lab under [`labs`] ([`ParticleLab`], the particle lab; [`TrainingLab`]; [`DepthLab`]);
//! [`link`] checks links of every lab for the page (the address bar, field hints, and through
//! [`page_limits`] what the page refuses beyond the core's limits; the CLI keeps the core's);
//! [`charts`] draws with plotters; [`export`] and [`model_export`] format what the Export menu writes.
//!
//! Shapes and units, as in the core: tokens are `n x d` row-major, the attention matrix `P` is
//! `n x n` row-major (`P[i * n + j]`, token `i` attending to token `j`), `Q, K, V` are `d x d`
//! row-major acting as `V x`, time `t = step * dt` is in the ODE's time units.
//!
//! Every array handed to JavaScript is a fresh copy (never a view into wasm memory), so it stays
//! valid however the memory grows later.

mod charts;
mod check;
#[cfg(test)]
mod dts;
mod export;
mod js;
mod labs;
mod link;
#[cfg(feature = "model")]
mod model_export;
mod page_limits;
mod peak;
mod presets;
mod status;

pub use labs::depth::DepthLab;
pub use labs::particles::ParticleLab;
pub use labs::particles_pool::RowWorker;
pub use labs::training::TrainingLab;
pub use peak::peak_flops;

pub(crate) use js::to_js;

use wasm_bindgen::prelude::*;

/// Forwards Rust panics to `console.error` (a panic is a bug: none is reachable from input).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!("attn-web panicked: {}", info)));
    }));
}

/// The configuration version written today (`version=N` first in every canonical string); a
/// string composed by the page (a preset's name) starts with it to get today's arithmetic.
#[wasm_bindgen]
pub fn config_version() -> u32 {
    attn_core::link::VERSION
}

/// The viridis stops of every heatmap (charts::heatmap) as CSS colours, for the page's token
/// colours by index and its colour-bar legends: one colour map on the page.
#[wasm_bindgen]
pub fn viridis_stops() -> Vec<String> {
    charts::heatmap::viridis_hex()
}

/// The crate version, for the page's footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
