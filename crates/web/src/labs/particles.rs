//! The particle lab's class, [`ParticleLab`]: one run of the core's [`Simulation`] in the page, the
//! buffers its views read (tokens, `P` or its block maxima, labels, leaders, the metrics
//! history) and the particle presets. The stage-by-stage stepping for the worker pool is in
//! [`super::particles_pool`].

use crate::charts::heatmap;
use crate::to_js;
use attn_core::link::LabPreset;
use attn_core::link::Named;
use attn_core::particles::analysis::identity::Tracker;
use attn_core::particles::analysis::metrics::energy_defined;
use attn_core::particles::analysis::{pca, Metrics, MetricsScratch};
use attn_core::particles::config::{Preset, Space};
use attn_core::{parse, Simulation};
use js_sys::{Float64Array, Uint32Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// `coords` as the page writes it (`x`, `z`); an error naming `coords` otherwise.
fn space(coords: &str) -> Result<Space, JsError> {
    Space::from_name(coords).ok_or_else(|| {
        JsError::new(&format!("`coords`: {} is not allowed; allowed: x, z", attn_core::link::quote(coords)))
    })
}

/// The steps per frame the particle lab's speed slider offers (core
/// `particles::config::SPEEDS`; below 1, a step every few frames).
#[wasm_bindgen]
pub fn particle_speeds() -> Vec<f64> {
    attn_core::particles::config::SPEEDS.to_vec()
}

/// The 2-D value matrix of the paper's hyperplanes experiment, as configuration text
/// (`a,b;c,d`, rows separated by `;`). Taken from the `hyperplanes` preset.
#[wasm_bindgen]
pub fn paper_v_2d() -> String {
    Preset::Hyperplanes.config().pairs().into_iter().find(|(k, _)| *k == "v").map(|(_, v)| v).unwrap_or_default()
}

#[derive(Serialize)]
struct MatricesOut<'a> {
    q: &'a [f64],
    k: &'a [f64],
    v: &'a [f64],
}

/// One particle run in the page: a configuration, its simulation, and the buffers the views read.
#[wasm_bindgen]
pub struct ParticleLab {
    pub(crate) sim: Simulation,
    pub(crate) scratch: MetricsScratch,
    /// Step at which `scratch.p` holds `P` (token order).
    pub(crate) p_step: Option<u64>,
    /// Step at which `scratch.labels` and `leaders` were computed.
    pub(crate) labels_step: Option<u64>,
    pub(crate) leaders: Vec<u32>,
    /// The chart's metrics history ([`super::particles_chart`]).
    pub(crate) history: attn_core::particles::analysis::history::History,
    /// The step of the history's sample that is not a fixed sample step (the step shown), if any.
    pub(crate) transient: Option<u64>,
    buf: Vec<f64>,
    /// One row of `P` for hovers on large runs, and the (step, row) it holds.
    p_row: Vec<f64>,
    p_row_of: Option<(u64, usize)>,
    /// The heatmap's order (the view key `order`) and what it was last drawn from.
    pub(crate) heat: super::particles_state::HeatmapView,
    /// The overlays drawn on the chart (the view key `overlays`; [`super::particles_overlays`]).
    pub(crate) overlays: Vec<&'static str>,
    /// Cluster identities committed at the sample steps (the tokens' colour slots).
    pub(crate) tracker: Tracker,
    /// Analyses asked of the worker pool ([`super::particles_analyses`]).
    pub(crate) pending: Option<super::particles_state::PendingAnalyses>,
    /// Analyses supplied, waiting for their effective rank.
    pub(crate) supplied: Option<super::particles_state::SuppliedAnalyses>,
}

/// Side of the heatmap image the page draws (`www/render/heatmap.js`, HEATMAP_MAX_SIDE).
pub(crate) const HEATMAP_SIDE: usize = 512;

/// Metrics scratch of a run of `n` tokens: the whole `P` kept for `n <= HEATMAP_SIDE`, else only
/// the heatmap's block maxima (memory O(n) + the view, not O(n^2)).
fn view_scratch(n: usize) -> MetricsScratch {
    let mut s = MetricsScratch::default();
    s.keep_p = n <= HEATMAP_SIDE;
    s.pool = (n > HEATMAP_SIDE).then(|| heatmap::side(n, HEATMAP_SIDE));
    s
}

#[wasm_bindgen]
impl ParticleLab {
    /// Parses `config` (`key=value&...`) and builds the run at `t = 0`. The error text is the
    /// core's configuration error, "`key`: what is allowed".
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<ParticleLab, JsError> {
        let c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
        let mut sim = Simulation::new(&c);
        let (n, len) = (sim.n(), sim.n() * sim.d());
        let tracker = Tracker::new(&mut sim);
        Ok(ParticleLab {
            sim,
            tracker,
            scratch: view_scratch(n),
            p_row: Vec::new(),
            p_row_of: None,
            p_step: None,
            labels_step: None,
            leaders: Vec::new(),
            history: Default::default(),
            transient: None,
            buf: vec![0.0; len],
            heat: super::particles_state::HeatmapView::new(c.preset.suggested_order(c.version)),
            overlays: c.preset.suggested_overlays().to_vec(),
            pending: None,
            supplied: None,
        })
    }

    /// Takes up to `k` steps, stopping at `until` or at a divergence; returns the steps taken.
    /// Cluster identities are committed at every sample step on the way ([`Tracker`]).
    pub fn advance(&mut self, k: u32) -> u32 {
        self.tracker.advance(&mut self.sim, k as u64, false) as u32
    }

    /// Takes up to `k` steps even past `until` (the user asked for more), stopping only at a
    /// divergence; returns the steps taken.
    pub fn advance_past_end(&mut self, k: u32) -> u32 {
        self.tracker.advance(&mut self.sim, k as u64, true) as u32
    }

    /// Steps between the fixed sample steps (core `identity::sample_every`): where cluster
    /// identities are committed and the chart takes its in-frame samples.
    pub fn sample_every(&self) -> f64 {
        self.tracker.identities().every() as f64
    }

    /// Each token's colour slot at the step of the last [`ParticleLab::metrics`] call (core
    /// `analysis::identity`: a stable cluster identity; `u32::MAX` for a token in no cluster of
    /// two or more): colour `slot % palette`, marker shape `slot / palette`. Depends only on the
    /// configuration and that step. Empty before the first metrics call.
    pub fn colour_slots(&self) -> Uint32Array {
        match self.labels_step {
            Some(step) => Uint32Array::from(&self.tracker.slots_for(step, &self.scratch.labels)[..]),
            None => Uint32Array::new_with_length(0),
        }
    }

    /// The integrated state (`integrate_in`'s coordinates: `z` or `x`; `n x d`, row-major): a new
    /// `Float64Array`. With [`ParticleLab::step_count`] it is all a later
    /// [`ParticleLab::restore`] needs to continue bit for bit (the page's timeline keeps it).
    pub fn state(&self) -> Float64Array {
        Float64Array::from(self.sim.state())
    }

    /// The cluster identities committed so far (core `analysis::identity`), for the timeline to
    /// keep with a state: `[last sample step or -1, slot of token 0, ..., slot of token n-1]`.
    pub fn identity_state(&self) -> Float64Array {
        let ids = self.tracker.identities();
        let mut out = Vec::with_capacity(1 + ids.slots().len());
        out.push(ids.last_step().map_or(-1.0, |l| l as f64));
        out.extend(ids.slots().iter().map(|&s| s as f64));
        Float64Array::from(&out[..])
    }

    /// Puts back identities that [`ParticleLab::identity_state`] gave at an earlier state of
    /// this run (call with [`ParticleLab::restore`]), so the colours of the state shown and of
    /// the run continued from it are those of stepping from step 0. Errors (nothing changed) for
    /// an array of the wrong length or content.
    pub fn restore_identity_state(&mut self, saved: &[f64]) -> Result<(), JsError> {
        let bad = || JsError::new("restore_identity_state: not an identity state of this run");
        let (&last, slots) = saved.split_first().ok_or_else(bad)?;
        let whole = |v: f64| v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64;
        if !(last == -1.0 || (whole(last) && last <= 9.0e15)) || !slots.iter().all(|&v| whole(v)) {
            return Err(bad());
        }
        let last = (last >= 0.0).then_some(last as u64);
        let slots: Vec<u32> = slots.iter().map(|&v| v as u32).collect();
        self.tracker.restore(last, &slots).map_err(|e| JsError::new(&format!("restore_identity_state: {}", e)))?;
        self.labels_step = None;
        Ok(())
    }

    /// Puts the run back at step `step` with integrated state `state` (as [`ParticleLab::state`]
    /// gave it at that step; core `Simulation::restore`): the views then show that state and
    /// stepping continues from it with the bits of stepping from step 0. Errors (the run
    /// unchanged) for a state of the wrong length, a non-finite entry or a step that is not a
    /// whole number.
    pub fn restore(&mut self, step: f64, state: &[f64]) -> Result<(), JsError> {
        if !(step >= 0.0 && step.fract() == 0.0 && step <= 9.0e15) {
            return Err(JsError::new(&format!("restore: step {} is not a whole number >= 0", step)));
        }
        self.sim.restore(step as u64, state).map_err(|e| JsError::new(&format!("restore: {}", e)))?;
        // What the views last computed belongs to another state.
        self.p_step = None;
        self.labels_step = None;
        self.p_row_of = None;
        self.heat.of = None;
        self.scratch.positions = None;
        self.pending = None;
        self.supplied = None;
        Ok(())
    }

    /// Steps per frame the configuration suggests when the link does not write `speed` (core
    /// `particles::config::suggested_speed`: its `until` plays in about 15 s at 60 frames per
    /// second; below 1, a step every few frames).
    pub fn suggested_speed(&self) -> f64 {
        attn_core::particles::config::suggested_speed(self.sim.config())
    }

    /// `"running"`, `"finished"` (t reached `until`) or `"diverged"` (see [`ParticleLab::message`]).
    pub fn status(&self) -> String {
        crate::status::name(self.sim.status())
    }

    /// After a divergence, what overflowed and what to change; otherwise empty.
    pub fn message(&self) -> String {
        crate::status::message(self.sim.status())
    }

    /// Current time `step * dt` (time units).
    pub fn t(&self) -> f64 {
        self.sim.t()
    }

    /// Steps taken (a whole number, as a JS number).
    pub fn step_count(&self) -> f64 {
        self.sim.step_count() as f64
    }

    /// The token view's axis scales the run's preset suggests, `"equal"` or `"per-axis"` (core
    /// `Preset::suggested_axes`; the view key `axes` overrides it).
    pub fn suggested_axes(&self) -> String {
        self.sim.config().preset.suggested_axes().to_string()
    }

    /// The spread of the initial tokens (core `Simulation::initial_spread`: their largest
    /// coordinate range, the same in `x` and `z`): the token view never zooms in past it.
    pub fn initial_spread(&self) -> f64 {
        self.sim.initial_spread()
    }

    /// The step at which the run stops, `round(until / dt)`.
    pub fn until_steps(&self) -> f64 {
        self.sim.until_steps() as f64
    }

    /// The configuration's `until` (time units).
    pub fn until(&self) -> f64 {
        self.sim.config().until
    }

    /// Time step (time units).
    pub fn dt(&self) -> f64 {
        self.sim.config().dt
    }

    /// Inverse temperature beta.
    pub fn beta(&self) -> f64 {
        self.sim.config().beta
    }

    /// Number of tokens.
    pub fn n(&self) -> u32 {
        self.sim.n() as u32
    }

    /// Token dimension.
    pub fn d(&self) -> u32 {
        self.sim.d() as u32
    }

    /// Model name: `euclidean`, `sphere-sa` or `sphere-usa`.
    pub fn model(&self) -> String {
        self.pair("model")
    }

    /// Integrated variable: `x` or `z`.
    pub fn integrate_in(&self) -> String {
        attn_core::link::Named::name(self.sim.config().integrate_in).into()
    }

    /// The view key `coords`: coordinates shown and analysed, `x` or `z`.
    pub fn coords(&self) -> String {
        attn_core::link::Named::name(self.sim.config().coords).into()
    }

    /// The preset's name.
    pub fn preset(&self) -> String {
        self.sim.config().preset.name().into()
    }

    /// What the preset demonstrates, in one sentence.
    pub fn description(&self) -> String {
        self.sim.config().preset.description().into()
    }

    /// The canonical configuration string (`preset=NAME` and the keys that differ from it).
    pub fn config_string(&self) -> String {
        self.sim.config().to_canonical_string()
    }

    /// Whether the interaction energy is defined (sphere model with Q = K = V = I).
    pub fn energy_defined(&self) -> bool {
        energy_defined(&self.sim)
    }

    /// The resolved matrices `{ q, k, v }`, each `d x d` row-major (plain arrays of numbers).
    pub fn matrices(&self) -> Result<JsValue, JsError> {
        let m = self.sim.matrices();
        to_js(&MatricesOut { q: &m.q, k: &m.k, v: &m.v })
    }

    /// The tokens in coordinates `coords` (`"x"` or `"z"`): a new `Float64Array` of `n x d`,
    /// row-major. `z = exp(-tV) x` applies to the Euclidean model; sphere models return x for
    /// both. Far out in time, converting to the other coordinates may give ±inf entries.
    pub fn tokens(&mut self, coords: &str) -> Result<Float64Array, JsError> {
        let s = space(coords)?;
        self.sim.tokens_in(s, &mut self.buf);
        Ok(Float64Array::from(&self.buf[..]))
    }

    /// The tokens in `coords` projected on `k` axes: `axes` is `k x d` row-major (e.g. from
    /// [`ParticleLab::pca_axes`]); returns a new `Float64Array` of `n x k`, row-major,
    /// `out[i * k + a] = <axes_a, token_i>`. A view helper (a matrix product), not an analysis.
    pub fn project(&mut self, coords: &str, axes: &[f64], k: u32) -> Result<Float64Array, JsError> {
        let s = space(coords)?;
        let (n, d, k) = (self.sim.n(), self.sim.d(), k as usize);
        self.sim.tokens_in(s, &mut self.buf);
        let out = pca::project(&self.buf, n, d, axes, k).map_err(|e| JsError::new(&format!("project: {}", e)))?;
        Ok(Float64Array::from(&out[..]))
    }

    /// The `k` principal axes (`k x d`, row-major, unit rows, fixed signs) of the tokens in the
    /// configuration's `coords` (core `analysis::pca::pca_axes`). Coordinate axes when the tokens
    /// are not all finite.
    pub fn pca_axes(&mut self, k: u32) -> Float64Array {
        let (n, d, k) = (self.sim.n(), self.sim.d(), (k as usize).clamp(1, 16));
        let coords = self.sim.config().coords;
        self.sim.tokens_in(coords, &mut self.buf);
        let axes = pca::view_axes(&self.buf, n, d, k);
        Float64Array::from(&axes[..])
    }

    /// The attention matrix `P(t)`: a new `Float64Array` of `n x n`, row-major, rows summing
    /// to 1 (for `sphere-usa`, W row-normalised). Throws the divergence message if `P` cannot be
    /// computed.
    pub fn attention(&mut self) -> Result<Float64Array, JsError> {
        let n = self.sim.n();
        let mut p = vec![0.0; n * n];
        self.sim.attention(&mut p).map_err(|e| JsError::new(&e.message))?;
        Ok(Float64Array::from(&p[..]))
    }

    /// `P_ij` of the attention matrix last computed (by [`ParticleLab::heatmap_rgba`],
    /// [`ParticleLab::attention`], [`ParticleLab::p_max`] or [`ParticleLab::metrics`]; see
    /// [`ParticleLab::p_step`]), so hovering never recomputes `P`. NaN when none was computed or an
    /// index is out of range.
    ///
    /// Large runs (`n > 512`) do not store `P`: the row `i` is then computed for the current
    /// state (O(n d)), once per row and step.
    pub fn p_value(&mut self, i: u32, j: u32) -> f64 {
        let n = self.sim.n();
        let (i, j) = (i as usize, j as usize);
        if self.p_step.is_none() || i >= n || j >= n {
            return f64::NAN;
        }
        if self.scratch.keep_p {
            return self.scratch.p.get(i * n + j).copied().unwrap_or(f64::NAN);
        }
        let key = (self.sim.step_count(), i);
        if self.p_row_of != Some(key) {
            self.p_row.resize(n, 0.0);
            if self.sim.attention_row(i, &mut self.p_row).is_err() {
                return f64::NAN;
            }
            self.p_row_of = Some(key);
        }
        self.p_row[j]
    }

    /// Step at which the attention matrix read by [`ParticleLab::p_value`] was computed, or -1.
    pub fn p_step(&self) -> f64 {
        self.p_step.map(|s| s as f64).unwrap_or(-1.0)
    }

    /// Computes the metrics of the current state (core `Metrics::compute`, cost O(n^2 d)) and
    /// records them for the chart: `{ t, step, clusters, boolean_distance, effective_rank,
    /// energy (null unless defined), leaders: [token indices] }`. Throws the divergence message
    /// when `P` cannot be computed.
    pub fn metrics(&mut self) -> Result<JsValue, JsError> {
        // Token order for the streamed views: the heatmap recomputes its own order.
        self.scratch.positions = None;
        self.heat.of = None;
        let m = Metrics::compute(&mut self.sim, &mut self.scratch).map_err(|e| JsError::new(&e))?;
        let step = self.sim.step_count();
        self.p_step = Some(step);
        self.labels_step = Some(step);
        self.set_metrics(step, &m)
    }

    /// Cluster label of each token (`n`, labels `0..clusters` in order of first appearance) from
    /// the last [`ParticleLab::metrics`] call; empty before the first call.
    pub fn labels(&self) -> Uint32Array {
        if self.labels_step.is_none() {
            return Uint32Array::new_with_length(0);
        }
        Uint32Array::from(&self.scratch.labels[..])
    }

    /// The leaders (tokens j with max_i P_ij > 1/2) from the last [`ParticleLab::metrics`] call.
    pub fn leaders(&self) -> Uint32Array {
        Uint32Array::from(&self.leaders[..])
    }

    /// Step of the last [`ParticleLab::metrics`] call, or -1.
    pub fn metrics_step(&self) -> f64 {
        self.labels_step.map(|s| s as f64).unwrap_or(-1.0)
    }

    fn pair(&self, key: &str) -> String {
        self.sim.config().pairs().into_iter().find(|(k, _)| *k == key).map(|(_, v)| v).unwrap_or_default()
    }
}
