//! Analyzers: pure functions of a state (tokens `n x d` or attention `P` `n x n`, row-major).

pub mod attention;
pub mod clusters;
pub mod energy;
pub mod history;
pub mod hull;
pub mod hull3d;
pub mod hyperplanes;
pub mod identity;
pub mod marks;
pub mod metrics;
pub mod order;
pub mod partial;
pub mod pca;
pub mod plateaus;
pub mod rank;
pub mod settled;
pub mod spectrum;

pub use attention::{boolean_distance, leaders};
pub use clusters::{cluster_centres, cluster_labels, spread};
pub use energy::interaction_energy;
pub use metrics::{Metrics, MetricsScratch};
pub use order::TokenOrder;
pub use rank::effective_rank;
