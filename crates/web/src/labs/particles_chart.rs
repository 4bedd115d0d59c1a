//! The particle lab's metrics chart: the history of the metrics the page computed (the fixed
//! sample steps, and the step shown), its hover readout and its drawing with plotters
//! ([`crate::charts::particles`]).

use super::particles::ParticleLab;
use crate::charts::particles as chart;
use crate::to_js;
use attn_core::particles::analysis::metrics::separation_of_state;
use attn_core::particles::analysis::Metrics;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

#[derive(Serialize)]
struct MetricsOut<'a> {
    t: f64,
    step: u64,
    #[serde(flatten)]
    metrics: &'a Metrics,
}

#[derive(Serialize)]
struct Samples<'a> {
    step: &'a [u64],
    t: &'a [f64],
    clusters: &'a [f64],
    boolean_distance: &'a [f64],
    effective_rank: &'a [f64],
    energy: &'a [f64],
    hyperplanes: &'a [f64],
}

#[wasm_bindgen]
impl ParticleLab {
    /// Number of samples in the metrics history.
    pub fn history_len(&self) -> u32 {
        self.history.len() as u32
    }

    /// Every sample of the metrics history, in step order, as the chart draws them: `{ step, t,
    /// clusters, boolean_distance, effective_rank, energy, hyperplanes }`, one array each (NaN:
    /// not defined). For the browser tests (a shared moment's chart against a played one's).
    pub fn history_samples(&self) -> Result<JsValue, JsError> {
        let h = &self.history;
        to_js(&Samples {
            step: &h.step,
            t: &h.t,
            clusters: &h.clusters,
            boolean_distance: &h.boolean_distance,
            effective_rank: &h.effective_rank,
            energy: &h.energy,
            hyperplanes: &h.hyperplanes,
        })
    }

    /// The history sample nearest to time `t`: `{ t, step, clusters, boolean_distance,
    /// effective_rank, energy }`, or `null` when there is none.
    pub fn history_near(&self, t: f64) -> Result<JsValue, JsError> {
        match self.history.nearest(t) {
            Some(s) => to_js(&s),
            None => Ok(JsValue::NULL),
        }
    }

    /// Draws the metrics history on `canvas` with plotters: stacked panels of clusters, Boolean
    /// distance (log scale), effective rank and interaction energy (or a note saying it is
    /// defined for sphere models with Q = K = V = I), time from 0 to `max(until, t)`; the titles
    /// read the sample of the step shown.
    ///
    /// `canvas.width/height` must be in device pixels (CSS size times `dpr`); fonts and lines are
    /// scaled by `dpr`. `colours`: the page's chart theme (charts::plot::theme). Returns the
    /// layout in CSS pixels for mapping the mouse to a time (`charts::layout::Layout`,
    /// `ChartLayout` in `www/wasm_page.d.ts`).
    pub fn draw_chart(&self, canvas: HtmlCanvasElement, dpr: f64, colours: &[u32]) -> Result<JsValue, JsError> {
        let c = self.sim.config();
        let t_last = self.history.t.last().copied().unwrap_or(0.0);
        let t_max = if c.until > 0.0 { c.until.max(t_last) } else { t_last.max(10.0 * c.dt) };
        let marks = chart::Marks {
            plateaus: self.overlays.contains(&"plateaus"),
            boolean_limit: self.overlays.contains(&"leaders"),
            shown: self.sim.step_count(),
        };
        let layout = chart::draw(canvas, &self.history, t_max, dpr, colours, self.energy_defined(), marks)
            .map_err(|e| JsError::new(&e))?;
        to_js(&layout)
    }
}

impl ParticleLab {
    /// Keeps the metrics `m` of the state at `step` (leaders, the chart's history) and returns
    /// them as the page reads them: `{ t, step, clusters, boolean_distance, ... }`.
    pub(crate) fn set_metrics(&mut self, step: u64, m: &Metrics) -> Result<JsValue, JsError> {
        self.leaders = m.leaders.iter().map(|&j| j as u32).collect();
        let separation = separation_of_state(&mut self.sim, &mut self.scratch, m);
        self.metrics_at(step, self.sim.t(), m, separation)
    }

    /// Records the metrics `m` of the state at `step` (time `t`, its groups' separation ratio
    /// `separation`, core `separation_of_state`) in the chart's history and
    /// returns them as the page reads them. The history keeps the fixed sample steps
    /// ([`ParticleLab::sample_every`]) and, only until another step is recorded, the step shown
    /// when it is not one: the chart is the same whether the run was played there (frames stop
    /// wherever their time budget ends) or opened there by a `t=` / `step=` link.
    pub(crate) fn metrics_at(&mut self, step: u64, t: f64, m: &Metrics, separation: f64) -> Result<JsValue, JsError> {
        if let Some(shown) = self.transient.take().filter(|&s| s != step) {
            self.history.remove(shown);
        }
        if !step.is_multiple_of(self.tracker.identities().every()) {
            self.transient = Some(step);
        }
        self.history.push(step, t, m, separation);
        to_js(&MetricsOut { t, step, metrics: m })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// metrics()'s JSON has exactly the fields `www/wasm.d.ts` declares (ParticleMetrics), with
    /// the optional ones present as null.
    #[test]
    fn the_metrics_are_what_wasm_d_ts_declares() {
        let m = Metrics {
            clusters: 2,
            boolean_distance: 0.1,
            effective_rank: 1.5,
            energy: None,
            hyperplanes: None,
            leaders: vec![3],
        };
        let v = serde_json::to_value(MetricsOut { t: 0.5, step: 7, metrics: &m }).unwrap();
        assert_eq!(json_keys(&v), fields_of("ParticleMetrics"));
        assert!(v["energy"].is_null() && v["hyperplanes"].is_null());
    }

    /// history_near's, history_samples' and plateaus' JSON have the fields `www/wasm.d.ts`
    /// declares (ParticleSample, ParticleSamples, ParticlePlateau).
    #[test]
    fn the_history_is_what_wasm_d_ts_declares() {
        use attn_core::particles::analysis::history::History;
        let m = Metrics {
            clusters: 1,
            boolean_distance: 0.0,
            effective_rank: 1.0,
            energy: Some(0.5),
            hyperplanes: None,
            leaders: vec![],
        };
        let mut h = History::default();
        for step in 0..40 {
            h.push(step, step as f64, &m, 0.1);
        }
        let near = serde_json::to_value(h.nearest(3.0).unwrap()).unwrap();
        assert_eq!(json_keys(&near), fields_of("ParticleSample"));
        let z: [f64; 0] = [];
        let samples = Samples {
            step: &[],
            t: &z,
            clusters: &z,
            boolean_distance: &z,
            effective_rank: &z,
            energy: &z,
            hyperplanes: &z,
        };
        assert_eq!(json_keys(&serde_json::to_value(samples).unwrap()), fields_of("ParticleSamples"));
        let plateaus = serde_json::to_value(h.plateaus()).unwrap();
        assert_eq!(json_keys(&plateaus[0]), fields_of("ParticlePlateau"));
    }
}
