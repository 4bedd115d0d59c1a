//! View keys: how a link shows a run, never what the run computes.
//!
//! A configuration string is `version=V`, then the lab's model keys, then its view keys, each
//! in a fixed order. View keys choose the moment the page opens at, embed mode, the panels and
//! controls shown, the theme, the speed and the look of the panels; they never change a number
//! (the particle lab's `coords`, which picks the coordinates shown and analysed, is a key of
//! [`crate::particles::config::Config`] and the first of its view keys). Every lab's parser accepts and
//! validates them (so `attn run --config LINK` takes a page's link and ignores its view); a
//! [`crate::lab::Link`] keeps them.
//!
//! Every view key, its values, default and labs: [`keys::VIEW_TABLE`] (the view-key table of
//! docs/links.md is written from it by `cargo xtask docs`).

pub mod keys;
mod parse;
pub mod spec;
mod values;

pub use parse::{parse_view, ViewContext};
pub use spec::{spec_of, ViewSpec, DEPTH_VIEW, MODEL_VIEW, PARTICLES_VIEW, TRAINING_VIEW};
pub use values::{
    Camera, Moment, Projection, ProjectionMode, Theme, View, BACKGROUNDS, DEFAULT_CAMERA, HEATMAP_ORDERS, OVERLAYS,
};

/// `model_keys` followed by `spec`'s view keys: every key a configuration of the lab may contain.
pub fn with_view_keys(model_keys: &[&'static str], spec: &ViewSpec) -> Vec<&'static str> {
    model_keys.iter().chain(spec.keys().iter()).copied().collect()
}

/// A configuration's decoded `(key, value)` pairs.
pub type Pairs = Vec<(&'static str, String)>;

/// Splits a configuration's pairs into `(view pairs, model pairs)`, each in the order written.
pub fn split_off_view(pairs: Pairs, spec: &ViewSpec) -> (Pairs, Pairs) {
    let keys = spec.keys();
    pairs.into_iter().partition(|(k, _)| keys.contains(k))
}
