//! One wasm-bindgen class per lab, each marshalling a core run to JavaScript (typed arrays,
//! JSON-compatible objects, `JsError`): [`particles`] (the particle lab's run and its
//! stage-by-stage stepping for the worker pool in [`particles_pool`], its metrics chart in
//! [`particles_chart`], its heatmap in [`particles_heatmap`], the theorems drawn over it in
//! [`particles_overlays`]), [`training`], [`depth`] (its charts over the results the page
//! keeps in [`depth_charts`]), [`model`] (a pretrained BERT: attention maps, context similarity,
//! surgery; its charts in [`model_charts`]; its grids' tiles in [`model_tiles`], one head's spectra and §1.3's
//! verdict in [`model_head`], its particles in [`model_head_dynamics`], the tokens through the layers in [`model_layers`], a trained layer repeated in
//! [`model_repeat`], the user's own
//! `model.safetensors` streamed in by [`model_upload`], the memory checks before any weights are
//! read in [`model_memory`]; its tokenizer alone for the browser tests in [`model_tokenizer`]).

pub mod depth;
pub mod depth_charts;
#[cfg(feature = "model")]
pub mod model;
#[cfg(feature = "model")]
pub mod model_charts;
#[cfg(feature = "model")]
pub mod model_head;
#[cfg(feature = "model")]
pub mod model_head_dynamics;
#[cfg(feature = "model")]
pub mod model_layers;
#[cfg(feature = "model")]
pub mod model_memory;
#[cfg(feature = "model")]
pub mod model_repeat;
#[cfg(feature = "model")]
pub mod model_tiles;
#[cfg(feature = "model")]
pub mod model_tokenizer;
#[cfg(feature = "model")]
pub mod model_upload;
pub mod particles;
pub mod particles_analyses;
pub mod particles_chart;
pub mod particles_heatmap;
pub mod particles_overlays;
pub mod particles_pool;
pub mod particles_state;
pub mod training;
