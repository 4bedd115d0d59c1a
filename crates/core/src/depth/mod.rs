//! The depth lab: rank collapse and context similarity in a multi-layer, multi-head transformer
//! (science.md §3, Dong, Cordonnier, Loukas 2021; science.md §4, Halevi et al. 2025).
//!
//! The path of the data, as in the other labs: a configuration string
//! (`lab=depth&preset=bert-init&...`, [`config`]) becomes a [`DepthConfig`]; [`DepthRun::new`]
//! resolves the input tokens ([`input`]: seeded Gaussian, a user's text with a deterministic
//! embedding, or the particle lab's tokens); [`DepthRun::run_variant`] builds the layer weights
//! ([`weights`]), runs the stack ([`forward`]) for one architectural [`Variant`] (SAN, SAN+MLP,
//! SAN+skip, transformer) and hands the records to the analyzers: rank collapse ([`rank`]), the
//! path view ([`paths`]) and context similarity ([`similarity`]). A Web Worker calls
//! `run_variant` once per variant and draws each curve as it arrives.
//!
//! Shapes and conventions (as in the rest of the core): tokens are rows; the hidden state `X_l` of
//! layer `l` is `n x d_model` (`l = 0` is the input); per-head matrices `W_Q, W_K, W_V` are
//! `d_model x d_head` and act on rows (`Q = X W_Q`); the attention matrix `P` of a head is
//! `n x n`, row-stochastic, `P[i * n + j]` = attention of token `i` on token `j`; the per-head
//! output before `W_O` is `O = P V`, `n x d_head`. Everything handed out is row-major `f64`
//! (internally the stack uses nalgebra's column-major matrices).
//!
//! Precision: the stack runs in `f32` or `f64` (key `precision`); analyzers accumulate in `f64`.
//! The attention scores `Q K^T` and the heads' outputs `P V` use the core's shared kernels
//! (`crate::kernels`, a fixed order of operations); the other products (`X W`) use nalgebra, whose
//! kernels differ between machines, so native and wasm agree to rounding, not bit for bit: this lab
//! is off the particle lab's bit-identical stepping path (toolchain.md).

pub mod config;
pub mod embeddings;
pub mod forward;
pub mod input;
pub mod keys;
pub mod paths;
pub mod presets;
pub mod products;
pub mod rank;
mod real;
pub mod similarity;
pub mod svd;
pub mod variants;
pub mod weights;

pub use config::{
    parse, Activation, DepthConfig, DepthPreset, InputSource, LayerNorm, Precision, ResidualDef, Select,
    SimilarityNorm, WeightsSource, DEPTH_PRESETS,
};
pub use forward::{Block, Forward, LayerRecord};
pub use input::Input;
pub use paths::{path_shares, PathLengths};
pub use real::Real;
pub use similarity::{HeadSimilarity, LayerSimilarity};
pub use variants::{DepthRun, Variant, VariantResult, VARIANTS};
