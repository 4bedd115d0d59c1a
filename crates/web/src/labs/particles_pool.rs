//! The worker pool's two halves (docs/particle-lab.md, "Speed"): [`RowWorker`], one per Web Worker (or Node worker
//! thread), computes blocks of rows of each velocity evaluation with its own field; the
//! [`ParticleLab`] that owns the run drives a step stage by stage with the velocities the workers
//! return. Each row is computed inside one worker in the core's fixed order, so the tokens are
//! bit-identical to [`ParticleLab::advance`] whatever the number of workers.

use super::particles::ParticleLab;
use attn_core::parse;
use attn_core::particles::analysis::order::heat_cells;
use attn_core::particles::analysis::partial::{PartialSpec, RowsPartial};
use attn_core::particles::field::Field;
use attn_core::particles::init;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

/// A field that computes blocks of rows of the velocity (`attn_core::particles::field::Field::velocity_rows`).
#[wasm_bindgen]
pub struct RowWorker {
    field: Field,
    n: usize,
    d: usize,
    out: Vec<f64>,
}

#[wasm_bindgen]
impl RowWorker {
    /// The field of `config` (the run's configuration string; the same string gives the same
    /// `Q, K, V`). Errors with the configuration error.
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<RowWorker, JsError> {
        let c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
        let m = init::matrices(&c);
        Ok(RowWorker { field: Field::new(&c, &m), n: c.n, d: c.d, out: Vec::new() })
    }

    /// Rows `[lo, hi)` of block `b` of `blocks` over this run's tokens (core
    /// `field::row_block`, the split the CLI's threads use): this worker's share of one
    /// evaluation when the pool has `blocks` workers.
    pub fn block_rows(&self, blocks: u32, b: u32) -> Vec<u32> {
        let (lo, hi) = attn_core::particles::field::row_block(self.n, blocks as usize, b as usize);
        vec![lo as u32, hi as u32]
    }

    /// The velocity of tokens `lo..hi` of `state` (`n x d`, row-major) at stage time `t`
    /// (projected onto the sphere's tangent space when `projected`): a new `Float64Array` of
    /// `(hi - lo) x d`. Errors when the rows are out of range or the state has the wrong length,
    /// and with the divergence message when a score or weight overflows.
    pub fn rows(&mut self, t: f64, state: &[f64], lo: u32, hi: u32, projected: bool) -> Result<Float64Array, JsError> {
        let (lo, hi) = (lo as usize, hi as usize);
        if lo > hi || hi > self.n || state.len() != self.n * self.d {
            return Err(JsError::new(&format!(
                "rows {}..{} of {} tokens, state of {} numbers",
                lo,
                hi,
                self.n,
                state.len()
            )));
        }
        self.out.resize((hi - lo) * self.d, 0.0);
        self.field.velocity_rows(t, state, lo, hi, &mut self.out, projected).map_err(|e| JsError::new(&e.message))?;
        Ok(Float64Array::from(&self.out[..]))
    }

    /// [`RowWorker::rows`] (the same velocity) for a step's first stage, which starts from the
    /// state drawn: also the analyses of rows `lo..hi` of its `P` (core
    /// `analysis::partial::RowsPartial`, as numbers: `RowsPartial::to_f64s`), for a heatmap of
    /// `side x side` cells of `block` entries (`side = 0`: none) in the order of `positions`
    /// (token order when empty), with the effective rank's sampled rows when `rank`. Returns
    /// `[velocity, partial]`.
    #[allow(clippy::too_many_arguments, reason = "rows' arguments and the analyses' spec")]
    pub fn rows_analysed(
        &mut self,
        t: f64,
        state: &[f64],
        lo: u32,
        hi: u32,
        projected: bool,
        side: u32,
        block: u32,
        positions: Vec<u32>,
        rank: bool,
    ) -> Result<js_sys::Array, JsError> {
        let (lo, hi, n) = (lo as usize, hi as usize, self.n);
        if lo > hi || hi > n || state.len() != n * self.d || !(positions.is_empty() || positions.len() == n) {
            return Err(JsError::new(&format!(
                "rows {}..{} of {} tokens, state of {} numbers, {} positions",
                lo,
                hi,
                n,
                state.len(),
                positions.len()
            )));
        }
        let positions: Vec<usize> = positions.iter().map(|&p| p as usize).collect();
        let (side, block) = (side as usize, block as usize);
        let cells = if side > 0 && block > 0 { heat_cells(&positions, block) } else { Vec::new() };
        if side > 0 && (block == 0 || cells.iter().any(|&c| c >= side)) {
            return Err(JsError::new(&format!("a heatmap of {side} x {side} cells of {block} entries")));
        }
        let spec = PartialSpec {
            n,
            pool: (side > 0).then_some((side, block)),
            cells: (!cells.is_empty()).then_some(&cells[..]),
            rank,
        };
        let mut part = RowsPartial::start(&spec, lo, hi);
        self.out.resize((hi - lo) * self.d, 0.0);
        self.field
            .velocity_rows_visiting(t, state, lo, hi, &mut self.out, projected, &mut |i, row| {
                part.fold_row(&spec, i, row)
            })
            .map_err(|e| JsError::new(&e.message))?;
        let velocity = Float64Array::from(&self.out[..]);
        let partial = Float64Array::from(&part.to_f64s()[..]);
        Ok(js_sys::Array::of2(&velocity, &partial))
    }
}

#[wasm_bindgen]
impl ParticleLab {
    /// Starts a step whose velocities the worker pool computes. Errors after a divergence.
    pub fn begin_step(&mut self) -> Result<(), JsError> {
        self.sim.begin_step().map_err(|e| JsError::new(&e.message))
    }

    /// Whether a step started with [`ParticleLab::begin_step`] is waiting for a velocity.
    pub fn stage_pending(&mut self) -> bool {
        self.sim.pending_stage().is_some()
    }

    /// Stage time of the pending stage (time units); NaN when none is pending.
    pub fn stage_t(&mut self) -> f64 {
        self.sim.pending_stage().map_or(f64::NAN, |(s, _)| s.t)
    }

    /// Whether the pending stage's field is projected onto the sphere's tangent space.
    pub fn stage_projected(&mut self) -> bool {
        self.sim.pending_stage().is_some_and(|(s, _)| s.projected)
    }

    /// The state (`n x d`, row-major) at which the pending stage's velocity is wanted: a new
    /// `Float64Array` (empty when no stage is pending).
    pub fn stage_state(&mut self) -> Float64Array {
        match self.sim.pending_stage() {
            Some((_, state)) => Float64Array::from(state),
            None => Float64Array::new_with_length(0),
        }
    }

    /// Hands in the pending stage's velocity (`n x d`); `true` when the step is complete. Errors
    /// (the run then pauses with the message, last good state kept) on a non-finite velocity.
    pub fn supply_velocity(&mut self, velocity: &[f64]) -> Result<bool, JsError> {
        let done = self.sim.supply_velocity(velocity).map_err(|e| JsError::new(&e.message))?;
        if done {
            self.tracker.observe(&mut self.sim);
        }
        Ok(done)
    }

    /// Ends the pending step with a worker's divergence message: the run pauses with it and keeps
    /// its last good state.
    pub fn abort_step(&mut self, message: &str) {
        self.sim.abort_step(message);
    }
}
