//! The metrics shown over time: clusters, Boolean distance, effective rank, energy, leaders.

use super::{boolean_distance, clusters::cluster_labels_into, effective_rank, interaction_energy, leaders};
use crate::config::Model;
use crate::linalg::is_identity;
use crate::sim::Simulation;
use serde::Serialize;

/// The metrics of one state (the CLI's `metrics` object and the page's chart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Number of single-linkage clusters of the displayed tokens at distance
    /// `cluster_tol * ` the spread of the initial tokens (science.md §1, check 4).
    pub clusters: usize,
    /// `max |P - round P|`.
    pub boolean_distance: f64,
    /// Effective rank of `P`.
    pub effective_rank: f64,
    /// Interaction energy (sphere models with Q = K = V = I), otherwise `None`.
    pub energy: Option<f64>,
    /// Tokens j with `max_i P_ij > 1/2`.
    pub leaders: Vec<usize>,
}

/// Reusable buffers for [`Metrics::compute`].
#[derive(Clone, Debug, Default)]
pub struct MetricsScratch {
    /// `P` (`n x n`) after the last compute.
    pub p: Vec<f64>,
    /// Tokens in the displayed coordinates (`n x d`) after the last compute.
    pub tokens: Vec<f64>,
    /// Cluster label of each token after the last compute.
    pub labels: Vec<u32>,
    parent: Vec<usize>,
}

/// Whether the interaction energy is defined for this run (sphere model, Q = K = V = I).
pub fn energy_defined(sim: &Simulation) -> bool {
    let d = sim.d();
    let m = sim.matrices();
    sim.config().model != Model::Euclidean && is_identity(&m.q, d) && is_identity(&m.k, d) && is_identity(&m.v, d)
}

impl Metrics {
    /// Computes the metrics of the current state; `P` and the displayed tokens are left in
    /// `scratch`. Errors (with the divergence message) when `P` cannot be computed.
    pub fn compute(sim: &mut Simulation, scratch: &mut MetricsScratch) -> Result<Metrics, String> {
        let (n, d) = (sim.n(), sim.d());
        scratch.p.resize(n * n, 0.0);
        scratch.tokens.resize(n * d, 0.0);
        scratch.labels.resize(n, 0);
        scratch.parent.resize(n, 0);
        sim.attention(&mut scratch.p).map_err(|e| e.message)?;
        let coords = sim.config().coords;
        sim.tokens_in(coords, &mut scratch.tokens);
        let tol = sim.config().cluster_tol * sim.initial_spread();
        let clusters = cluster_labels_into(&scratch.tokens, n, d, tol, &mut scratch.labels, &mut scratch.parent);
        let energy = if energy_defined(sim) {
            Some(interaction_energy(sim.state(), n, d, sim.config().beta))
        } else {
            None
        };
        Ok(Metrics {
            clusters,
            boolean_distance: boolean_distance(&scratch.p, n),
            effective_rank: effective_rank(&scratch.p, n),
            energy,
            leaders: leaders(&scratch.p, n),
        })
    }
}
