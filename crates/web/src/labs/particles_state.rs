//! The particle lab's state that its heatmap ([`super::particles_heatmap`]) and its pooled analyses
//! ([`super::particles_analyses`]) keep in [`super::particles::ParticleLab`]: a leaf the three
//! files share.

use attn_core::particles::analysis::{Metrics, TokenOrder};

/// The heatmap's order and the state its view was computed for.
#[derive(Debug, Default)]
pub struct HeatmapView {
    /// `"cluster"`, `"leader"` or `"index"`; `None` for the run's suggestion.
    pub(super) order: Option<&'static str>,
    /// The order the run's preset suggests (core `Preset::suggested_order`).
    pub(super) suggested: &'static str,
    /// The order of the view last computed.
    pub(crate) tokens: TokenOrder,
    /// `P` with rows and columns in that order (`n x n`; runs with `P` kept, order not `index`).
    pub(super) ordered: Vec<f64>,
    /// (step, order) of the view last computed; `None` when the scratch's views were
    /// overwritten since (by the metrics, in token order).
    pub(crate) of: Option<(u64, &'static str)>,
}

impl HeatmapView {
    /// No view yet, in the order `suggested` until another is set.
    pub(crate) fn new(suggested: &'static str) -> HeatmapView {
        HeatmapView { suggested, ..Default::default() }
    }

    pub(crate) fn order(&self) -> &'static str {
        self.order.unwrap_or(self.suggested)
    }
}

/// The analyses asked of the workers for one state.
#[derive(Debug)]
pub struct PendingAnalyses {
    pub(super) step: u64,
    /// The cluster count of that state (labels in the scratch).
    pub(super) clusters: usize,
    /// The heatmap's order and its token order, when the workers pool its block maxima.
    pub(super) heat: Option<(&'static str, TokenOrder, Vec<usize>)>,
    /// Cells of the heatmap's block maxima (`side²`; 0: none asked).
    pub(super) cells: usize,
}

/// The analyses of one state supplied, waiting for their effective rank.
#[derive(Debug)]
pub struct SuppliedAnalyses {
    pub(super) step: u64,
    pub(super) t: f64,
    /// The metrics, the effective rank NaN until finished.
    pub(super) metrics: Metrics,
    /// The effective rank's sampled rows (`k x n`), when every entry of `P` was finite.
    pub(super) rank_rows: Option<Vec<f64>>,
    /// The separation ratio of the state's groups (core `separation_of_state`).
    pub(super) separation: f64,
}
