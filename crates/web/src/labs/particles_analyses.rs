//! The particle lab's analyses computed by the worker pool (docs/particle-lab.md, "The analyses of a pooled
//! run"): at a step the page
//! wants analysed, [`ParticleLab::analysis_spec`] says what the workers fold over their rows of
//! `P` during the step's first stage (which starts from the state drawn): the heatmap's block
//! maxima in the view's order (the cluster labels are found here first) and the effective rank's
//! rows. [`ParticleLab::supply_analyses`] combines their blocks exactly (core
//! `analysis::partial`) into the heatmap's view of that state and its metrics but the effective
//! rank, before the step completes, so this thread never passes over the `n²` weights;
//! [`ParticleLab::finish_analyses`] forms the rank's Gram matrix from the rows kept, later (the
//! page calls it once the workers have the next stage). Same bits as [`ParticleLab::metrics`]
//! and [`ParticleLab::heatmap_rgba`].

use super::particles::ParticleLab;
use super::particles_state::{PendingAnalyses, SuppliedAnalyses};
use crate::to_js;
use attn_core::particles::analysis::metrics::{cluster_labels_now, separation_of_state};
use attn_core::particles::analysis::partial::RowsPartial;
use attn_core::particles::analysis::rank::effective_rank_of_rows;
use attn_core::particles::analysis::{Metrics, TokenOrder};
use js_sys::Float64Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What each worker folds over its rows (www/workers/rows.js, RowWorker.rows_analysed).
#[derive(Serialize)]
struct Spec {
    /// Heatmap cells per side and entries per cell side (0, 0: no heatmap).
    side: usize,
    block: usize,
    /// The position of each token in the heatmap's order (empty: token order).
    positions: Vec<u32>,
    /// Keep the effective rank's sampled rows.
    rank: bool,
}

#[wasm_bindgen]
impl ParticleLab {
    /// Whether the workers' analyses include the heatmap's view: runs that do not keep all of
    /// `P` (`n > 512`), in an order other than by leader ([`ParticleLab::analysis_spec`]).
    pub fn pool_heatmap(&self) -> bool {
        !self.scratch.keep_p && self.scratch.pool.is_some() && self.heat.order() != "leader"
    }

    /// What the workers analyse with the next step's first stage, for the current state:
    /// `{ side, block, positions, rank }` (RowWorker.rows_analysed's arguments). Finds this
    /// state's cluster labels (the metrics' count, the colours, the heatmap's cluster order). The
    /// heatmap is left out (`side = 0`; the page then draws it from its own pass) when the run
    /// keeps all of `P` (`n <= 512`) or the order is by leader (which needs `P`'s rows first).
    pub fn analysis_spec(&mut self) -> Result<JsValue, JsError> {
        let step = self.sim.step_count();
        let n = self.sim.n();
        let clusters = cluster_labels_now(&mut self.sim, &mut self.scratch);
        self.labels_step = Some(step);
        let order = self.heat.order();
        let heat = match self.scratch.pool {
            Some((side, block)) if self.pool_heatmap() => {
                let tokens =
                    if order == "index" { TokenOrder::index(n) } else { TokenOrder::by_cluster(&self.scratch.labels) };
                let positions = if order == "index" { Vec::new() } else { tokens.positions() };
                Some((side, block, (order, tokens, positions)))
            }
            _ => None,
        };
        let spec = match &heat {
            Some((side, block, (_, _, positions))) => Spec {
                side: *side,
                block: *block,
                positions: positions.iter().map(|&p| p as u32).collect(),
                rank: true,
            },
            None => Spec { side: 0, block: 0, positions: Vec::new(), rank: true },
        };
        self.pending =
            Some(PendingAnalyses { step, clusters, cells: spec.side * spec.side, heat: heat.map(|(_, _, h)| h) });
        to_js(&spec)
    }

    /// The workers' analyses of the state asked with [`ParticleLab::analysis_spec`] (an array of
    /// their `Float64Array`s, in block order), to be called before the step they came with
    /// completes: the heatmap's view of that state (block maxima, each row's leader), its cluster
    /// labels, leaders, and its metrics but the effective rank, kept for
    /// [`ParticleLab::finish_analyses`]. Errors when no analyses were asked at this step or the
    /// blocks do not cover the rows.
    pub fn supply_analyses(&mut self, parts: js_sys::Array) -> Result<(), JsError> {
        let step = self.sim.step_count();
        let pending = self
            .pending
            .take()
            .filter(|p| p.step == step)
            .ok_or_else(|| JsError::new(&format!("no analyses were asked at step {step}")))?;
        let n = self.sim.n();
        let parts = parts
            .iter()
            .map(|v| RowsPartial::from_f64s(&Float64Array::from(v).to_vec(), n, pending.cells))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| JsError::new("an analysis of the wrong shape"))?;
        let mut all = RowsPartial::combine(&parts)
            .filter(|a| a.lo == 0 && a.hi == n)
            .ok_or_else(|| JsError::new("the analysed rows do not cover the tokens"))?;
        // The rank later: Metrics::from_rows without rows leaves it NaN.
        let rows = std::mem::take(&mut all.rank_rows);
        let rank_rows = (all.finite && !rows.is_empty()).then_some(rows);
        let metrics = Metrics::from_rows(&mut self.sim, &mut self.scratch, &all, Some(pending.clusters));
        if let Some((order, tokens, positions)) = pending.heat {
            self.scratch.pooled = all.pooled;
            self.scratch.positions = (order != "index").then_some(positions);
            self.heat.tokens = tokens;
            self.heat.of = Some((step, order));
            self.p_step = Some(step);
        } else if !self.scratch.keep_p {
            self.heat.of = None;
        }
        self.scratch.best = all.best;
        self.labels_step = Some(step);
        self.leaders = metrics.leaders.iter().map(|&j| j as u32).collect();
        let separation = separation_of_state(&mut self.sim, &mut self.scratch, &metrics);
        self.supplied = Some(SuppliedAnalyses { step, t: self.sim.t(), metrics, rank_rows, separation });
        Ok(())
    }

    /// The metrics of the state last given to [`ParticleLab::supply_analyses`], with their
    /// effective rank (from the workers' sampled rows), recorded for the chart: the object
    /// [`ParticleLab::metrics`] returns at that state, the same bits. Errors when none is waiting.
    pub fn finish_analyses(&mut self) -> Result<JsValue, JsError> {
        let mut done = self.supplied.take().ok_or_else(|| JsError::new("no analyses are waiting"))?;
        if let Some(rows) = &done.rank_rows {
            done.metrics.effective_rank = effective_rank_of_rows(rows, self.sim.n());
        }
        self.metrics_at(done.step, done.t, &done.metrics, done.separation)
    }
}

impl ParticleLab {
    /// The step of the analyses supplied and not finished yet, if any.
    pub(crate) fn analysed_step(&self) -> Option<u64> {
        self.supplied.as_ref().map(|s| s.step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// analysis_spec's answer has the fields `www/wasm_page.d.ts` declares (ParticleAnalysisSpec).
    #[test]
    fn the_spec_is_what_wasm_page_d_ts_declares() {
        let spec = Spec { side: 2, block: 4, positions: vec![1, 0], rank: true };
        assert_eq!(json_keys(&serde_json::to_value(&spec).unwrap()), fields_of("ParticleAnalysisSpec"));
    }
}
