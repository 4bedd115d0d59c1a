//! The metrics shown over time: clusters, Boolean distance, effective rank, energy, hyperplanes,
//! leaders.

use super::attention::{boolean_distance_row, mark_leaders, pool_row, row_finite};
use super::hyperplanes::hyperplanes;
use super::order::{heat_cells, pool_row_cells, row_argmax};
use super::partial::RowsPartial;
use super::rank::{effective_rank_of_rows, sample_rows};
use super::spectrum::{top_left_eigenvector, TopEigen};
use super::{clusters::cluster_labels_into, clusters::spread, interaction_energy};
use crate::linalg::is_identity;
use crate::particles::config::Model;
use crate::particles::sim::Simulation;
use crate::run::Divergence;
use serde::Serialize;

/// The metrics of one state (the CLI's `metrics` object and the page's chart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Number of single-linkage clusters of the displayed tokens at distance
    /// `cluster_tol * ` [`crate::particles::config::Config::cluster_reference`] (the larger of
    /// the initial and the current spread; the initial spread for links before version 5;
    /// science.md §1.7).
    pub clusters: usize,
    /// `max |P - round P|`.
    pub boolean_distance: f64,
    /// Effective rank of `P`.
    pub effective_rank: f64,
    /// Interaction energy (sphere models with Q = K = V = I), otherwise `None`.
    pub energy: Option<f64>,
    /// Number of groups of `<psi1, z_i>` by single linkage at `cluster_tol` times their range
    /// ([`super::hyperplanes::hyperplanes`]); `None` unless the model is Euclidean and `psi1` is
    /// defined ([`top_eigen`]).
    pub hyperplanes: Option<usize>,
    /// Tokens j with `max_i P_ij > 1/2`.
    pub leaders: Vec<usize>,
}

/// Reusable buffers for [`Metrics::compute`].
#[derive(Clone, Debug, Default)]
pub struct MetricsScratch {
    /// `P` (`n x n`) after the last compute, when [`MetricsScratch::keep_p`] is set; otherwise
    /// empty: `P` is streamed row by row and never stored (memory O(n) plus the views below).
    pub p: Vec<f64>,
    /// Store the whole `P` in [`MetricsScratch::p`] (the CLI's `--attention`, small runs).
    pub keep_p: bool,
    /// Block maxima of `P` for a heatmap view: `(side, block)`, `side x side` pixels each the
    /// largest entry of a `block x block` block (rows/columns `r * block ..`); `None`: no view.
    pub pool: Option<(usize, usize)>,
    /// The block maxima (`side x side`, row-major) after the last compute, when `pool` is set.
    pub pooled: Vec<f64>,
    /// Positions of the tokens in an ordered heatmap ([`super::order::TokenOrder::positions`]):
    /// the block maxima are then those of `P` with rows and columns in that order; `None`:
    /// token order.
    pub positions: Option<Vec<usize>>,
    /// Column of the largest entry of each row of `P` after the last compute (`n`;
    /// [`super::order::row_argmax`]): each token's leader, for the heatmap's leader order.
    pub best: Vec<usize>,
    /// Tokens in the displayed coordinates (`n x d`) after the last compute.
    pub tokens: Vec<f64>,
    /// Cluster label of each token after the last compute.
    pub labels: Vec<u32>,
    parent: Vec<usize>,
    /// `V` and its [`TopEigen`] when last computed ([`top_eigen`] computes it once per `V`).
    psi: Option<(Vec<f64>, Option<TopEigen>)>,
    rank_rows: Vec<f64>,
    leader: Vec<bool>,
}

/// Whether the interaction energy is defined for this run (sphere model, Q = K = V = I).
pub fn energy_defined(sim: &Simulation) -> bool {
    let d = sim.d();
    let m = sim.matrices();
    sim.config().model != Model::Euclidean && is_identity(&m.q, d) && is_identity(&m.k, d) && is_identity(&m.v, d)
}

/// `lambda1` and `psi1` of the run's `V` ([`top_left_eigenvector`]) for the Euclidean model
/// (science.md §1.3); `None` for sphere models or when they are not defined. Computed once per
/// `V` and kept in `scratch`.
pub fn top_eigen(sim: &Simulation, scratch: &mut MetricsScratch) -> Option<TopEigen> {
    if sim.config().model != Model::Euclidean {
        return None;
    }
    let v = &sim.matrices().v;
    if scratch.psi.as_ref().is_none_or(|(kept, _)| kept != v) {
        scratch.psi = Some((v.clone(), top_left_eigenvector(v, sim.d())));
    }
    scratch.psi.as_ref().and_then(|(_, e)| e.clone())
}

impl Metrics {
    /// Computes the metrics of the current state; `P` and the displayed tokens are left in
    /// `scratch`. Errors (with the divergence message) when `P` cannot be computed.
    pub fn compute(sim: &mut Simulation, scratch: &mut MetricsScratch) -> Result<Metrics, String> {
        let n = sim.n();
        let stats = stream(sim, scratch, true).map_err(|e| e.message)?;
        let effective_rank = if stats.finite { effective_rank_of_rows(&scratch.rank_rows, n) } else { f64::NAN };
        let leaders = (0..n).filter(|&j| scratch.leader[j]).collect();
        Ok(Self::with_p_stats(sim, scratch, stats.boolean_distance, effective_rank, leaders, None))
    }

    /// The metrics of the current state from the analyses of all rows of its `P` computed
    /// elsewhere (`all`: the workers' [`RowsPartial`]s combined, with the effective rank's rows
    /// when `rank`; otherwise the effective rank is NaN): the same bits as
    /// [`Metrics::compute`]. The displayed tokens and cluster labels are left in `scratch`;
    /// `clusters`: `Some(count)` when [`cluster_labels_now`] already put this state's there.
    pub fn from_rows(
        sim: &mut Simulation,
        scratch: &mut MetricsScratch,
        all: &RowsPartial,
        clusters: Option<usize>,
    ) -> Metrics {
        let n = sim.n();
        let effective_rank =
            if all.finite && !all.rank_rows.is_empty() { effective_rank_of_rows(&all.rank_rows, n) } else { f64::NAN };
        Self::with_p_stats(sim, scratch, all.boolean_distance, effective_rank, all.leaders(), clusters)
    }

    /// The metrics with the statistics of `P` given: clusters, energy and hyperplanes of the
    /// tokens computed here.
    fn with_p_stats(
        sim: &mut Simulation,
        scratch: &mut MetricsScratch,
        boolean_distance: f64,
        effective_rank: f64,
        leaders: Vec<usize>,
        clusters: Option<usize>,
    ) -> Metrics {
        let (n, d) = (sim.n(), sim.d());
        let clusters = clusters.unwrap_or_else(|| cluster_labels_now(sim, scratch));
        let energy =
            if energy_defined(sim) { Some(interaction_energy(sim.state(), n, d, sim.config().beta)) } else { None };
        let hyperplanes =
            top_eigen(sim, scratch).and_then(|e| hyperplanes(&scratch.tokens, n, d, &e.psi, sim.config().cluster_tol));
        Metrics { clusters, boolean_distance, effective_rank, energy, hyperplanes, leaders }
    }
}

/// The separation ratio ([`super::settled::separation_ratio`]) of the groups that `m`'s count
/// counts, for the state `m` was computed on (its displayed tokens and labels still in
/// `scratch`): the groups of `<psi1, x_i>` ([`super::settled::value_labels`] at `cluster_tol`)
/// where `m` has the `hyperplanes` metric, else the clusters. The plateaus' settled test
/// (science.md §2.4).
pub fn separation_of_state(sim: &mut Simulation, scratch: &mut MetricsScratch, m: &Metrics) -> f64 {
    let (n, d) = (sim.n(), sim.d());
    if m.hyperplanes.is_some() {
        if let Some(e) = top_eigen(sim, scratch) {
            let values = super::hyperplanes::projections(&scratch.tokens, n, d, &e.psi);
            return match super::settled::value_labels(&values, sim.config().cluster_tol) {
                Some((labels, count)) => super::settled::separation_ratio(&values, n, 1, &labels, count),
                None => f64::NAN,
            };
        }
    }
    super::settled::separation_ratio(&scratch.tokens, n, d, &scratch.labels, m.clusters)
}

/// The cluster labels of the current state into `scratch.labels` (and the displayed tokens into
/// `scratch.tokens`), as [`Metrics::compute`] finds them: single linkage in the displayed
/// coordinates at [`cluster_tolerance`]. Returns the number of clusters.
pub fn cluster_labels_now(sim: &mut Simulation, scratch: &mut MetricsScratch) -> usize {
    let MetricsScratch { tokens, labels, parent, .. } = scratch;
    labels_of_state(sim, tokens, labels, parent)
}

/// [`cluster_labels_now`] with the caller's buffers (resized here): the displayed tokens into
/// `tokens`, each token's cluster label into `labels`; `parent` is scratch.
pub fn labels_of_state(
    sim: &mut Simulation,
    tokens: &mut Vec<f64>,
    labels: &mut Vec<u32>,
    parent: &mut Vec<usize>,
) -> usize {
    let (n, d) = (sim.n(), sim.d());
    tokens.resize(n * d, 0.0);
    labels.resize(n, 0);
    parent.resize(n, 0);
    let coords = sim.config().coords;
    sim.tokens_in(coords, tokens);
    let tol = cluster_tolerance(sim, tokens);
    cluster_labels_into(tokens, n, d, tol, labels, parent)
}

/// The single-linkage distance of the `clusters` metric for the displayed tokens `tokens` of
/// `sim`'s current state: `cluster_tol` times the run's reference spread
/// ([`crate::particles::config::Config::cluster_reference`] of the initial tokens' spread and
/// these tokens' spread; science.md §1.7).
pub fn cluster_tolerance(sim: &Simulation, tokens: &[f64]) -> f64 {
    sim.config().cluster_tol * reference_spread(sim, tokens)
}

/// The run's reference spread for the displayed tokens `tokens` of `sim`'s current state
/// ([`crate::particles::config::Config::cluster_reference`] of the initial tokens' spread and
/// these tokens' spread): the extent the page's token view spans (science.md §1.7).
pub fn reference_spread(sim: &Simulation, tokens: &[f64]) -> f64 {
    let c = sim.config();
    let current = if c.clusters_as_drawn() { spread(tokens, sim.n(), sim.d()) } else { f64::NAN };
    c.cluster_reference(sim.initial_spread(), current)
}

/// What one streamed pass over the rows of `P` gives besides the scratch's views.
struct Streamed {
    /// [`super::boolean_distance`] of `P` (the same fold over the entries, in the same order).
    boolean_distance: f64,
    /// Every entry finite.
    finite: bool,
}

/// The scratch's views of `P(t)` alone (`p` when `keep_p`, the block maxima when `pool` is
/// set), in one streamed pass: for a heatmap between metrics evaluations.
pub fn attention_views(sim: &mut Simulation, scratch: &mut MetricsScratch) -> Result<(), Divergence> {
    stream(sim, scratch, false).map(|_| ())
}

/// One pass over the rows of `P(t)`, never storing `P` unless `keep_p`: the Boolean distance,
/// the leader columns ([`super::leaders`]: some `P_ij > 1/2`), the rows the effective rank uses
/// ([`sample_rows`]), the heatmap's block maxima when `pool` is set, and `P` itself when
/// `keep_p`. Each value equals what the functions on a stored `P` give.
/// `rank`: keep the effective rank's rows (`min(n, 256) x n`; not needed for the views alone).
fn stream(sim: &mut Simulation, scratch: &mut MetricsScratch, rank: bool) -> Result<Streamed, Divergence> {
    let n = sim.n();
    let rows = if rank { sample_rows(n) } else { Vec::new() };
    scratch.rank_rows.resize(rows.len() * n, 0.0);
    scratch.leader.clear();
    scratch.leader.resize(n, false);
    if scratch.keep_p {
        scratch.p.resize(n * n, 0.0);
    } else {
        scratch.p = Vec::new();
    }
    if let Some((side, _)) = scratch.pool {
        scratch.pooled.clear();
        scratch.pooled.resize(side * side, f64::NEG_INFINITY);
    }
    let mut out = Streamed { boolean_distance: 0.0, finite: true };
    let mut next = 0;
    scratch.best.resize(n, 0);
    let MetricsScratch { p, keep_p, pool, pooled, rank_rows, leader, positions, best, .. } = scratch;
    // Each token's heatmap cell, once (not a division per entry).
    let cells = match (positions.as_deref(), *pool) {
        (Some(pos), Some((_, block))) => Some(heat_cells(pos, block)),
        _ => None,
    };
    sim.attention_rows(&mut |i, row| {
        best[i] = row_argmax(row);
        out.boolean_distance = boolean_distance_row(out.boolean_distance, row);
        out.finite &= row_finite(row);
        mark_leaders(row, leader);
        if next < rows.len() && rows[next] == i {
            rank_rows[next * n..(next + 1) * n].copy_from_slice(row);
            next += 1;
        }
        if *keep_p {
            p[i * n..(i + 1) * n].copy_from_slice(row);
        }
        if let Some((side, block)) = *pool {
            match &cells {
                Some(cells) => pool_row_cells(row, i, cells, side, pooled),
                None => pool_row(row, i, side, block, pooled),
            }
        }
    })?;
    Ok(out)
}
