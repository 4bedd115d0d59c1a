//! The theorems drawn over the particle lab's panels (the view key `overlays`, science.md §1.3,
//! §1.7, §2.4): the overlays chosen, `psi1` and the limiting lines, the convex hull of the initial
//! rescaled tokens, the cluster centres and the chart's plateaus. Each method marshals one core
//! analyzer; nothing is computed here.

use super::particles::ParticleLab;
use crate::to_js;
use attn_core::link::quote;
use attn_core::particles::analysis::hull3d::hull_edges;
use attn_core::particles::analysis::hyperplanes::{projections, value_range};
use attn_core::particles::analysis::marks::{centre_marks, mark_spacing};
use attn_core::particles::analysis::metrics::top_eigen;
use attn_core::particles::init::tokens as init_tokens;
use attn_core::view::OVERLAYS;
use js_sys::Float64Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct Psi {
    lambda: f64,
    psi: Vec<f64>,
    lo: f64,
    hi: f64,
}

#[derive(Serialize)]
struct Hull {
    vertices: Vec<usize>,
    edges: Vec<[usize; 2]>,
    /// Per edge, the outward normals of the two faces it joins (3-D hulls; else empty).
    normals: Vec<[[f64; 3]; 2]>,
    /// The initial tokens (`n` rows of `d`), which the indices name.
    points: Vec<Vec<f64>>,
}

#[wasm_bindgen]
impl ParticleLab {
    /// Sets the overlays drawn (the view key `overlays`): a comma list of `hull`, `psi`,
    /// `leaders`, `plateaus`, `depth` (may be empty). Errors name `overlays` for another value.
    pub fn set_overlays(&mut self, list: &str) -> Result<(), JsError> {
        let mut chosen = Vec::new();
        for name in list.split(',').filter(|s| !s.is_empty()) {
            let Some(&o) = OVERLAYS.iter().find(|o| **o == name) else {
                return Err(JsError::new(&format!(
                    "`overlays`: {} is not allowed; allowed (comma-separated): {}",
                    quote(name),
                    OVERLAYS.join(", ")
                )));
            };
            chosen.push(o);
        }
        self.overlays = OVERLAYS.iter().copied().filter(|o| chosen.contains(o)).collect();
        Ok(())
    }

    /// The overlays drawn, in canonical order (an array of names).
    pub fn overlays(&self) -> Result<JsValue, JsError> {
        to_js(&self.overlays)
    }

    /// The overlays the run's preset suggests (the default of the view key `overlays`).
    pub fn suggested_overlays(&self) -> Result<JsValue, JsError> {
        to_js(self.sim.config().preset.suggested_overlays())
    }

    /// `psi1` (core `analysis::spectrum::top_left_eigenvector`, Euclidean model):
    /// `{ lambda, psi: [d numbers], lo, hi }` with `lo`, `hi` the smallest and largest
    /// `<psi1, z_i(0)>` (the limiting hyperplanes `<psi1, z> = lo`, `= hi`); `null` when `psi1`
    /// is not defined.
    pub fn psi1(&mut self) -> Result<JsValue, JsError> {
        let (n, d) = (self.sim.n(), self.sim.d());
        let Some(e) = top_eigen(&self.sim, &mut self.scratch) else {
            return Ok(JsValue::NULL);
        };
        let z0 = init_tokens(self.sim.config());
        let Some((lo, hi)) = value_range(&projections(&z0, n, d, &e.psi)) else {
            return Ok(JsValue::NULL);
        };
        to_js(&Psi { lambda: e.lambda, psi: e.psi, lo, hi })
    }

    /// The convex hull of the initial rescaled tokens `z(0) = x(0)` (core
    /// `analysis::hull3d::hull_edges`): `{ vertices: [token indices], edges: [[i, j], ...],
    /// points: [[coordinates] per token] }` for `d = 2` (the polygon, vertices counter-clockwise)
    /// and `d = 3` (hull edges); `null` for other `d`.
    pub fn initial_hull(&self) -> Result<JsValue, JsError> {
        let (n, d) = (self.sim.n(), self.sim.d());
        let z0 = init_tokens(self.sim.config());
        match hull_edges(&z0, n, d) {
            Some(h) => to_js(&Hull {
                vertices: h.vertices,
                edges: h.edges,
                normals: h.normals,
                points: z0.chunks(d).map(<[f64]>::to_vec).collect(),
            }),
            None => Ok(JsValue::NULL),
        }
    }

    /// The cluster centres the `hull` overlay marks at the last [`ParticleLab::metrics`] call
    /// (core `analysis::marks::centre_marks`, science.md §1.7: the clusters of at least
    /// `max(2, ceil(n / 256))` tokens, largest first, none within 0.05 reference spreads of
    /// another mark; in the displayed coordinates): a new `Float64Array` of `k x d`, row-major;
    /// empty before the first call.
    pub fn centre_marks(&self) -> Float64Array {
        if self.labels_step.is_none() {
            return Float64Array::new_with_length(0);
        }
        let (n, d) = (self.sim.n(), self.sim.d());
        let tokens = &self.scratch.tokens;
        let count = self.scratch.labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
        let spacing = mark_spacing(&self.sim, tokens);
        Float64Array::from(&centre_marks(tokens, n, d, &self.scratch.labels, count, spacing)[..])
    }

    /// The plateaus of the count the chart draws (core `History::plateaus`: at least 10 time
    /// units of the same count over the chart's samples): `[{ t0, t1, value }, ...]`.
    pub fn plateaus(&self) -> Result<JsValue, JsError> {
        to_js(&self.history.plateaus())
    }

    /// Whether the run counts clusters as the token view draws them (core
    /// `Config::clusters_as_drawn`: against the larger of the initial and the current spread;
    /// links before version 5: the initial spread), for the chart's caption.
    pub fn clusters_as_drawn(&self) -> bool {
        self.sim.config().clusters_as_drawn()
    }

    /// The name of the count the chart's first panel draws: `"hyperplanes"` where the run's
    /// samples all have it, else `"clusters"`.
    pub fn counted(&self) -> String {
        self.history.counts().0.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// psi1()'s and initial_hull()'s JSON have the fields `www/wasm.d.ts` declares (ParticlePsi,
    /// ParticleHull).
    #[test]
    fn the_overlays_are_what_wasm_d_ts_declares() {
        let psi = Psi { lambda: 1.0, psi: vec![1.0, 0.0], lo: -1.0, hi: 1.0 };
        assert_eq!(json_keys(&serde_json::to_value(psi).unwrap()), fields_of("ParticlePsi"));
        let hull = Hull { vertices: vec![0, 1], edges: vec![[0, 1]], normals: vec![], points: vec![vec![0.0, 1.0]] };
        assert_eq!(json_keys(&serde_json::to_value(hull).unwrap()), fields_of("ParticleHull"));
    }
}
