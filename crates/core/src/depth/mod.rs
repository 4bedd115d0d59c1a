//! The depth lab: rank collapse and context similarity in a multi-layer, multi-head transformer
//! (science.md §3, Dong, Cordonnier, Loukas 2021; science.md §4, Halevi et al. 2025).
//!
//! The path of the data, as in the other labs: a configuration string
//! (`lab=depth&preset=bert-init&...`, [`parse`]) becomes a [`DepthConfig`] ([`config`]); [`DepthRun::new`]
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
//! Every product (`X W`, the scores `Q K^T`, the heads' outputs `P V`, the Gram matrices) runs on
//! the core's shared kernels ([`products`] over `crate::kernels`: a fixed order of operations,
//! science.md "Matrix products"), so native and wasm give the same bits (toolchain.md).

pub mod config;
pub mod embeddings;
pub mod forward;
pub mod halves;
pub mod input;
pub mod keys;
pub mod parse;
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
    Activation, Block, DepthConfig, DepthPreset, InputSource, LayerNorm, Precision, ResidualDef, Select,
    SimilarityNorm, Variant, WeightsSource, VARIANTS,
};
pub use forward::{Forward, LayerRecord};
pub use input::Input;
pub use parse::{parse, parse_with_view};
pub use paths::{path_shares, PathLengths};
pub use presets::{DEFAULT_TEXT, DEPTH_PRESETS};
pub use real::Real;
pub use similarity::{HeadSimilarity, LayerSimilarity};
pub use variants::{DepthRun, VariantResult};
