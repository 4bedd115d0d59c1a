//! The particle lab's attention heatmap: `P(t)` (or its block maxima for `n > 512`) in the
//! order the view key `order` asks for (core `particles::analysis::order`: by cluster, by
//! leader, or in token order), as RGBA pixels, with the order's permutation and group starts for
//! the page's hovers and separators.

use super::particles::ParticleLab;
use crate::charts::heatmap;
use crate::charts::pooled::Pooled;
use attn_core::particles::analysis::metrics::{attention_views, cluster_labels_now};
use attn_core::particles::analysis::TokenOrder;
use js_sys::{Uint32Array, Uint8ClampedArray};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl ParticleLab {
    /// Sets the heatmap's order (the view key `order`): `cluster`, `leader` or `index`. Errors
    /// name `order` for another value.
    pub fn set_heatmap_order(&mut self, order: &str) -> Result<(), JsError> {
        let orders = attn_core::view::HEATMAP_ORDERS;
        let order = orders.into_iter().find(|o| *o == order).ok_or_else(|| {
            JsError::new(&format!("`order`: unknown order {:?}; allowed: {}", order, orders.join(", ")))
        })?;
        self.heat.order = Some(order);
        Ok(())
    }

    /// The heatmap's order the run's preset suggests (core `Preset::suggested_order` for the
    /// run's version): the view key `order` when a link does not write it.
    pub fn suggested_order(&self) -> String {
        self.heat.suggested.to_string()
    }

    /// The heatmap's colour scale the run's preset suggests (core `Preset::suggested_heatmap` for
    /// the run's version): `one` or `max`, the view key `heatmap` when a link does not write it.
    pub fn suggested_heat_scale(&self) -> String {
        let c = self.sim.config();
        c.preset.suggested_heatmap(c.version).to_string()
    }

    /// The heatmap's order of the view last drawn: `perm[a]` is the token at row and column `a`
    /// (`n` entries).
    pub fn heatmap_perm(&self) -> Uint32Array {
        let perm: Vec<u32> = self.heat.tokens.perm.iter().map(|&i| i as u32).collect();
        Uint32Array::from(&perm[..])
    }

    /// Positions (rows and columns) where a group of the heatmap's order starts, increasing:
    /// where the page draws its separators.
    pub fn heatmap_starts(&self) -> Uint32Array {
        let starts: Vec<u32> = self.heat.tokens.starts.iter().map(|&a| a as u32).collect();
        Uint32Array::from(&starts[..])
    }

    /// Side in pixels of [`ParticleLab::heatmap_rgba`]'s image: `n` when `n <= max_side`, else
    /// `ceil(n / b)` with blocks of `b = ceil(n / max_side)` entries per side.
    pub fn heatmap_side(&self, max_side: u32) -> u32 {
        heatmap::side(self.sim.n(), max_side as usize).0 as u32
    }

    /// Entries per pixel side in [`ParticleLab::heatmap_rgba`] (1 unless `n > max_side`).
    pub fn heatmap_block(&self, max_side: u32) -> u32 {
        heatmap::side(self.sim.n(), max_side as usize).1 as u32
    }

    /// RGBA pixels of `P(t)` for an `ImageData` (`side x side x 4` bytes, row-major, opaque;
    /// side from [`ParticleLab::heatmap_side`]). Colour: viridis of `P_ij / max P` (0 dark purple,
    /// max yellow); a pixel covering a block of entries shows the block's largest entry.
    pub fn heatmap_rgba(&mut self, max_side: u32) -> Result<Uint8ClampedArray, JsError> {
        self.ensure_p()?;
        let (p, side) = self.p_view();
        let pooled = Pooled::new(p, side, max_side as usize, false);
        Ok(Uint8ClampedArray::from(&pooled.rgba(pooled.finite_max())[..]))
    }

    /// [`ParticleLab::heatmap_rgba`] with the top of the colour scale chosen by the page: viridis of
    /// `P_ij / top` (`top = 1`: the fixed 0..1 scale); `top <= 0` or not finite uses `max P`.
    pub fn heatmap_rgba_scaled(&mut self, max_side: u32, top: f64) -> Result<Uint8ClampedArray, JsError> {
        self.ensure_p()?;
        Ok(self.view_rgba(max_side, top))
    }

    /// [`ParticleLab::heatmap_rgba_scaled`] of the state the workers last analysed, from the view
    /// [`ParticleLab::supply_analyses`] kept, callable after that state's step completed and
    /// before [`ParticleLab::finish_analyses`]: the page draws it once the workers have the next
    /// stage, not while they wait. Errors when there is no such view (not made by the workers,
    /// or overwritten since).
    pub fn analysed_heatmap_rgba(&self, max_side: u32, top: f64) -> Result<Uint8ClampedArray, JsError> {
        self.analysed_view()?;
        Ok(self.view_rgba(max_side, top))
    }

    /// [`ParticleLab::p_max`] of the state the workers last analysed (as
    /// [`ParticleLab::analysed_heatmap_rgba`]).
    pub fn analysed_p_max(&self) -> Result<f64, JsError> {
        self.analysed_view()?;
        Ok(heatmap::finite_max(self.p_view().0))
    }

    /// Largest entry of the current `P` (the top of the heatmap's colour scale).
    pub fn p_max(&mut self) -> Result<f64, JsError> {
        self.ensure_p()?;
        Ok(heatmap::finite_max(self.p_view().0))
    }
}

impl ParticleLab {
    /// Computes the heatmap's view of `P(t)` once per step and order: the whole `P` for
    /// `n <= 512` (kept in token order for hovers, copied in the view's order), else its block
    /// maxima in the view's order (`P` streamed row by row, never stored; the leader order
    /// streams twice: once for each row's leader, once for the maxima).
    fn ensure_p(&mut self) -> Result<(), JsError> {
        let step = self.sim.step_count();
        let order = self.heat.order();
        if self.heat.of == Some((step, order)) {
            return Ok(());
        }
        let n = self.sim.n();
        let err = |e: attn_core::run::Divergence| JsError::new(&e.message);
        // `P` in token order (and each row's leader) for this step, unless metrics() made it.
        let fresh = self.p_step == Some(step) && self.scratch.positions.is_none();
        if !fresh && (self.scratch.keep_p || order == "leader") {
            self.scratch.positions = None;
            attention_views(&mut self.sim, &mut self.scratch).map_err(err)?;
            self.p_step = Some(step);
        }
        self.heat.tokens = match order {
            "index" => TokenOrder::index(n),
            "leader" => TokenOrder::by_leader(&self.scratch.best),
            _ => {
                if self.labels_step != Some(step) {
                    cluster_labels_now(&mut self.sim, &mut self.scratch);
                    self.labels_step = Some(step);
                }
                TokenOrder::by_cluster(&self.scratch.labels)
            }
        };
        if self.scratch.keep_p {
            if order != "index" {
                let (p, perm) = (&self.scratch.p, &self.heat.tokens.perm);
                self.heat.ordered.clear();
                self.heat.ordered.extend((0..n * n).map(|k| p[perm[k / n] * n + perm[k % n]]));
            }
        } else if order != "index" || !fresh {
            self.scratch.positions = (order != "index").then(|| self.heat.tokens.positions());
            attention_views(&mut self.sim, &mut self.scratch).map_err(err)?;
            self.p_step = Some(step);
        }
        self.heat.of = Some((step, order));
        Ok(())
    }

    /// The view's pixels, viridis of `P_ij / top` (`top <= 0` or not finite: its largest entry).
    fn view_rgba(&self, max_side: u32, top: f64) -> Uint8ClampedArray {
        let (p, side) = self.p_view();
        let pooled = Pooled::new(p, side, max_side as usize, false);
        let scale = if top > 0.0 && top.is_finite() { top } else { pooled.finite_max() };
        Uint8ClampedArray::from(&pooled.rgba(scale)[..])
    }

    /// Whether the heatmap's view is the one the workers made of the state last analysed.
    fn analysed_view(&self) -> Result<(), JsError> {
        match (self.analysed_step(), self.heat.of) {
            (Some(step), Some((of, order))) if of == step && order == self.heat.order() && self.pool_heatmap() => {
                Ok(())
            }
            _ => Err(JsError::new("no heatmap of the workers' analyses is kept")),
        }
    }

    /// The matrix the heatmap draws and its side: `P` (`n x n`) or its block maxima, in the
    /// view's order.
    fn p_view(&self) -> (&[f64], usize) {
        match self.scratch.pool {
            Some((side, _)) if !self.scratch.keep_p => (&self.scratch.pooled, side),
            _ if self.heat.order() != "index" => (&self.heat.ordered, self.sim.n()),
            _ => (&self.scratch.p, self.sim.n()),
        }
    }
}
