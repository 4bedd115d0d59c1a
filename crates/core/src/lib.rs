//! # attn-core: self-attention dynamics, deterministic and pure Rust
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
//! - Formulas cite `shared/docs/science.md` by section.

pub mod analysis;
pub mod config;
pub mod depth;
pub mod exp;
pub mod init;
pub mod integrate;
pub mod lab;
pub mod linalg;
pub mod model;
pub mod rng;
pub mod sim;
pub mod training;
pub mod view;

pub use config::{parse, Config, ConfigError};
pub use sim::{Simulation, Status, Stepping};
