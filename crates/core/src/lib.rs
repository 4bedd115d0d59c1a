//! # attn-core: self-attention dynamics, deterministic and pure Rust
//!
//! One folder per lab, each with a `mod.rs` that tells its data path (configuration string →
//! typed configuration → run → analyses):
//! - [`particles`]: tokens as particles under attention (science.md §1-2);
//! - [`training`]: scan and snap in a 1-layer transformer (science.md §5);
//! - [`depth`]: rank collapse and context similarity in a transformer stack (science.md §3-4);
//! - [`model`] (in progress): a pretrained BERT encoder (all-MiniLM-L6-v2 by default): loader,
//!   tokenizer, the `f32` forward, Dong et al.'s surgery, context similarity (science.md §6).
//!
//! Shared modules, which import no lab: [`link`] (the configuration string's grammar, versions,
//! [`ConfigError`]), [`view`] (view keys), [`run`] (the run protocol), [`text`] (the text
//! tokenizer), [`linalg`], [`kernels`] (the matrix products of attention), [`collapse`] (the
//! residual and the context-similarity statistics of the depth and model labs), [`nan`] (folds
//! that keep a NaN), [`exp`] and [`rng`].
//! [`lab`] is the registry that dispatches a string to
//! the lab its `lab` key names. A lab's folder never imports another lab's (checked by
//! `cargo xtask test`), with one edge by design: the depth lab's `particle` key reads a particle
//! configuration (`weights=particle`, `input=particle`: SAN+skip is Euler of the particle ODE).
//!
//! Conventions used throughout:
//! - Tokens are the rows of `X`, an `n x d` row-major `f64` slice: token `i` is
//!   `x[i * d..(i + 1) * d]`. Matrices `Q, K, V` are `d x d` row-major and act as `V x_i`
//!   (science.md, "Notation"), so `V` applied to all tokens is `X V^T`.
//! - The attention matrix `P` is `n x n` row-major and row-stochastic; `P[i * n + j]` is the
//!   attention of token `i` on token `j`.
//! - Time `t = step * dt` (time units of the ODE, never accumulated).
//! - Determinism: everything that changes tokens is plain arithmetic in a fixed order, the core's
//!   own [`exp::exp`], `libm`, and the seeded [`rng::Rng`], so native and wasm produce identical bits
//!   (toolchain.md). nalgebra is used only off the stepping path (analyzers).
//! - Formulas cite `docs/science.md` by section.

pub mod architecture;
pub mod collapse;
pub mod depth;
pub mod erff;
pub mod exp;
pub mod kernels;
pub mod lab;
pub mod labs;
pub mod linalg;
pub mod link;
pub mod model;
pub mod nan;
pub mod particles;
pub mod rng;
pub mod run;
pub mod text;
pub mod training;
pub mod view;

pub use link::ConfigError;
pub use particles::{parse, Config, Simulation};
pub use run::{Divergence, Status, Stepping};
