//! The training lab: scan and snap in a 1-layer transformer (science.md §5; Tian, Wang, Chen,
//! Du, NeurIPS 2023, arXiv 2305.16380).
//!
//! The path of the data, as in the particle lab: a configuration string
//! (`lab=training&preset=scan-snap&...`, [`config`]) becomes a [`TrainingConfig`]; it builds a
//! [`Trainer`] (data from [`data`] or the text tokenizer [`crate::text`], parameters `Y`, `Z` of [`model`], updates of
//! [`sgd`]) that the caller steps one SGD iteration at a time; analyzers ([`analysis`]) read `c_n`,
//! the distinct-token entropy and the snap iteration; [`mod@sweep`] runs grids of learning rates.
//!
//! Shapes: vocabulary size `M`; `Y`, `Z` are `M x M` row-major; `c` is `K x M` row-major for
//! `K` classes. Entropies and losses are in nats. Determinism: the data and initialisation come
//! from the seeded [`crate::rng::Rng`], exponentials from [`crate::exp::exp`], logarithms and
//! square roots from `libm`, all sums in a fixed order: a configuration gives the same bits
//! natively and in wasm (toolchain.md).

pub mod analysis;
pub mod config;
pub mod data;
pub mod heatmap;
pub mod model;
pub mod presets;
pub mod sgd;
pub mod sweep;
pub mod trainer;

pub use config::{parse, TrainingConfig, TrainingPreset, WeightsInit};
pub use data::{Class, Dataset};
pub use presets::TRAINING_PRESETS;
pub use sweep::{
    check_sweep_size, estimated_run_seconds, grid, run_cell, sweep, CellResult, SweepCell, SweepSize, PAPER_ETA_Z,
    PAPER_RATIO,
};
pub use trainer::{Record, Trainer};
