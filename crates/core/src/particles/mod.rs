//! The particle lab: tokens move as particles under self-attention (science.md §1 Euclidean,
//! §2 on the sphere; Geshkovski, Letrouit, Polyanskiy, Rigollet).
//!
//! The path of the data: a configuration string (`version=7&preset=polytope&...`, [`config`])
//! becomes a [`Config`]; [`init`] draws `Q, K, V` and the initial tokens from its seed; a
//! [`Simulation`] ([`sim`]) holds the integrated state (`x`, or the rescaled tokens
//! `z = exp(-tV) x`) and steps it with a scheme of [`integrate`] (Euler, RK4, the retraction,
//! projected RK4) on the velocity field of [`field`] (Euclidean, SA, USA; [`field::rows`] is the
//! vectorised attention-row kernel); the analyzers of [`analysis`] read a state (the attention
//! matrix `P`, Boolean distance, leaders, clusters, effective rank, energy, hull, PCA) and bundle
//! them as [`analysis::metrics::Metrics`] for the CLI and the page; [`csv`] writes the trajectory CSV
//! both print.
//!
//! Shapes: tokens are the rows of `X`, `n x d` row-major `f64`; `Q, K, V` are `d x d` row-major
//! and act as `V x_i`; `P` is `n x n` row-major, row-stochastic. Time `t = step * dt`.
//! Determinism: everything on the stepping path is plain arithmetic in a fixed order, the core's
//! [`crate::exp`], `libm` and the seeded [`crate::rng::Rng`]: a link gives the same bits natively
//! and in wasm (toolchain.md). nalgebra is used only by the analyzers.
//!
//! Shared modules this lab uses: [`crate::link`] (its configuration's grammar), [`crate::run`]
//! (`Status`, `Stepping`, `Divergence`), [`crate::view`] (view keys), [`crate::linalg`].

pub mod analysis;
pub mod config;
pub mod csv;
pub mod field;
pub mod init;
pub mod integrate;
pub mod sim;

pub use config::{parse, Config, Preset};
pub use sim::Simulation;
