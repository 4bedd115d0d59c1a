//! One wasm-bindgen class per lab, each marshalling a core run to JavaScript (typed arrays,
//! JSON-compatible objects, `JsError`): [`particles`] (the particle lab's run and its
//! stage-by-stage stepping for the worker pool in [`particles_pool`], its heatmap in
//! [`particles_heatmap`], the theorems drawn over it in [`particles_overlays`]), [`training`],
//! [`depth`], [`model`] (a pretrained BERT: attention maps, context similarity, surgery).

pub mod depth;
pub mod model;
pub mod particles;
pub mod particles_analyses;
pub mod particles_heatmap;
pub mod particles_overlays;
pub mod particles_pool;
pub mod training;
