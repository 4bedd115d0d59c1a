//! The training lab in the page (science.md §5, scan and snap): a thin wasm-bindgen wrapper of
//! the core's [`Trainer`], the column layout of the `c_n` heatmap (common and distinct blocks,
//! tokens ordered by co-occurrence weight), its pixels, the loss / entropy chart, and the sweep
//! functions a Web Worker calls one cell at a time.
//!
//! Every number comes from the core: `c_{l|n}` and the entropies from
//! `attn_core::training::analysis`, the snap iteration from its snap criterion, sweep cells from
//! [`run_cell`]. What is decided here is only how to show them.

use crate::charts::heatmap;
use crate::charts::{sweep as sweep_chart, training as training_chart};
use crate::to_js;
use attn_core::link::ConfigError;
use attn_core::link::LabPreset;
use attn_core::training::heatmap::{layout, Column, Layout};
use attn_core::training::{check_sweep_size, estimated_run_seconds, parse, run_cell, SweepCell, Trainer};
use attn_core::{Status, Stepping};
use js_sys::{Float64Array, Uint8ClampedArray};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Iterations of quiet the live snap marker waits for while a run goes on
/// (`snap_iteration_live` window).
pub const SNAP_WINDOW: usize = 10;

/// One sweep cell (science.md §5), for a Web Worker: the training configuration `config` with
/// `queries`, `eta_z`, `ratio` overridden, run for `seeds` seeds (`seed`, `seed + 1`, ...).
///
/// Returns `{ queries, eta_z, ratio, mean, std, entropies: [...], snap_iterations: [n | null],
/// final_losses: [...], mean_snap_iteration: n | null, unsnapped }` (entropies in nats; `std`
/// the population standard deviation over the seeds). Throws "`key`: what is allowed" for an
/// invalid configuration or cell.
#[wasm_bindgen]
pub fn run_sweep_cell(config: &str, queries: u32, eta_z: f64, ratio: f64, seeds: u32) -> Result<JsValue, JsError> {
    let base = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
    let cell = SweepCell { queries: queries as usize, eta_z, ratio };
    let r = run_cell(&base, &cell, seeds).map_err(|e| JsError::new(&e.to_string()))?;
    let (mean_snap_iteration, unsnapped) = r.mean_snap_iteration();
    to_js(&SweepCellOut { result: &r, mean_snap_iteration, unsnapped })
}

/// [`run_sweep_cell`]'s answer (`SweepCellResult` in `www/wasm.d.ts`).
#[derive(Serialize)]
struct SweepCellOut<'a> {
    #[serde(flatten)]
    result: &'a attn_core::training::CellResult,
    mean_snap_iteration: Option<f64>,
    unsnapped: usize,
}

/// How much longer a training run takes in the page's Web Worker (wasm, +simd128) than natively:
/// docs/training-lab.md's measurements (the paper's sweep: 4.7 s native, 9-11 s in Chromium).
const PAGE_SLOWDOWN: f64 = 2.2;

/// The size and estimated time of a sweep of the training configuration `config` over `eta_z`
/// and `ratio` lists of these lengths with `seeds` seeds per cell, checked by the core's one
/// limit (`check_sweep_size`: at most 400 cells and 40 000 runs).
///
/// Returns `{ ok: true, cells, runs, seconds }` (`seconds`: an estimate for the page's worker,
/// within about a factor 2) or `{ ok: false, key, message }` naming the list that is too long
/// (`eta_z` or `ratio`), `seeds`, or a key of an invalid `config`. Never throws for bad input.
#[wasm_bindgen]
pub fn sweep_plan(config: &str, eta_z: u32, ratio: u32, seeds: u32) -> Result<JsValue, JsError> {
    match plan(config, eta_z, ratio, seeds) {
        Ok(p) => to_js(&p),
        Err(e) => to_js(&crate::check::CheckErr::from(e)),
    }
}

/// [`sweep_plan`]'s answer for an allowed sweep (`SweepPlanOk` in `www/wasm.d.ts`).
#[derive(Serialize)]
struct Plan {
    ok: bool,
    cells: usize,
    runs: u64,
    seconds: f64,
}

/// The plan of [`sweep_plan`], or the configuration's refusal.
fn plan(config: &str, eta_z: u32, ratio: u32, seeds: u32) -> Result<Plan, ConfigError> {
    let base = parse(config)?;
    let size = check_sweep_size(1, eta_z as usize, ratio as usize, seeds)?;
    Ok(Plan {
        ok: true,
        cells: size.cells,
        runs: size.runs,
        seconds: size.runs as f64 * estimated_run_seconds(&base) * PAGE_SLOWDOWN,
    })
}

/// Most seeds per sweep cell (core `sweep::MAX_SEEDS`).
#[wasm_bindgen]
pub fn sweep_max_seeds() -> u32 {
    attn_core::training::sweep::MAX_SEEDS
}

/// The distinct-token entropy of uniform attention (`Z = 0`) for the data of a training
/// configuration (nats): the sweep plot's reference line. Throws for an invalid configuration.
#[wasm_bindgen]
pub fn uniform_entropy_of(config: &str) -> Result<f64, JsError> {
    let mut c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
    // No iterations: building the trainer then costs only the data.
    c.iterations = 0;
    Ok(Trainer::new(&c).uniform_entropy())
}

/// Draws the sweep: final distinct-token entropy (mean, error bar ± std over seeds) against
/// `r = eta_Y / eta_Z` (log axis), one curve per `eta_Z`, and the uniform-attention entropy
/// `reference` as a dashed line. `eta_z`, `ratio`, `mean`, `std` are aligned, one entry per
/// finished cell. `canvas.width/height` in device pixels (`dpr` per CSS px); `colours`: the
/// page's chart theme (charts::plot::theme). Returns the chart's layout (`{ x0, x1, plot, labels, ... }`, CSS px).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_sweep_chart(
    canvas: HtmlCanvasElement,
    eta_z: &[f64],
    ratio: &[f64],
    mean: &[f64],
    std: &[f64],
    reference: f64,
    dpr: f64,
    colours: &[u32],
) -> Result<JsValue, JsError> {
    let layout =
        sweep_chart::draw(canvas, eta_z, ratio, mean, std, reference, dpr, colours).map_err(|e| JsError::new(&e))?;
    to_js(&layout)
}

#[derive(Serialize)]
struct Sample {
    iteration: usize,
    loss: Option<f64>,
    entropy: Option<f64>,
    max_dc: Option<f64>,
}

/// One training run in the page: the core's [`Trainer`] and the heatmap's column layout.
#[wasm_bindgen]
pub struct TrainingLab {
    trainer: Trainer,
    layout: Layout,
    /// Largest `c` of the shown columns over states `0..scaled_states`.
    scale: f64,
    scaled_states: usize,
    /// The uniform-attention entropy of the run's data (fixed by the configuration).
    uniform: f64,
}

#[wasm_bindgen]
impl TrainingLab {
    /// Parses a training configuration (`lab=training&preset=scan-snap&...`) and builds the run
    /// at iteration 0. The error text is the core's, "`key`: what is allowed".
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<TrainingLab, JsError> {
        let c = parse(config).map_err(|e| JsError::new(&e.to_string()))?;
        let trainer = Trainer::new(&c);
        let layout = layout(&trainer);
        let uniform = trainer.uniform_entropy();
        Ok(TrainingLab { trainer, layout, scale: 0.0, scaled_states: 0, uniform })
    }

    /// Takes up to `k` SGD iterations, stopping at `iterations` or at a divergence; returns the
    /// iterations taken.
    pub fn advance(&mut self, k: u32) -> u32 {
        self.trainer.advance(k as u64) as u32
    }

    /// Takes up to `k` iterations even past `iterations` (the user asked for more), stopping
    /// only at a divergence; returns the iterations taken.
    pub fn advance_past_end(&mut self, k: u32) -> u32 {
        self.trainer.advance_past_end(k as u64) as u32
    }

    /// `"running"`, `"finished"` (reached `iterations`) or `"diverged"` (see
    /// [`TrainingLab::message`]).
    pub fn status(&self) -> String {
        crate::status::name(self.trainer.status())
    }

    /// After a divergence, what overflowed and what to change; otherwise empty.
    pub fn message(&self) -> String {
        crate::status::message(self.trainer.status())
    }

    /// Iterations taken.
    pub fn iteration(&self) -> u32 {
        self.trainer.iteration() as u32
    }

    /// The configuration's `iterations`.
    pub fn iterations(&self) -> u32 {
        self.trainer.config().iterations as u32
    }

    /// Vocabulary size `M`.
    pub fn m(&self) -> u32 {
        self.trainer.m() as u32
    }

    /// Number of classes `K`.
    pub fn k(&self) -> u32 {
        self.trainer.k() as u32
    }

    /// Whether the data is the user's text.
    pub fn is_text(&self) -> bool {
        self.trainer.data().is_text()
    }

    /// The label of every token id (`M` strings): synthetic `c3`, `c1.q0`, `d1.9`, `q0`, `n1`;
    /// text: the word.
    pub fn labels(&self) -> Result<JsValue, JsError> {
        to_js(self.trainer.data().labels())
    }

    /// The token id of the recorded query row.
    pub fn query_token(&self) -> u32 {
        self.trainer.query_token() as u32
    }

    /// The preset's name.
    pub fn preset(&self) -> String {
        self.trainer.config().preset.name().into()
    }

    /// What the preset demonstrates, in one sentence.
    pub fn description(&self) -> String {
        self.trainer.config().preset.description().into()
    }

    /// The canonical configuration string (`lab=training&preset=NAME` and the keys that differ).
    pub fn config_string(&self) -> String {
        self.trainer.config().to_canonical_string()
    }

    /// The snap threshold `snap_tol`.
    pub fn snap_tol(&self) -> f64 {
        self.trainer.config().snap_tol
    }

    /// `eta_Z` of the run.
    pub fn eta_z(&self) -> f64 {
        self.trainer.config().eta_z
    }

    /// `c_n` of every class at the current state: a new `Float64Array` of `K x M`, row-major,
    /// rows summing to 1.
    pub fn c(&self) -> Float64Array {
        Float64Array::from(self.trainer.c())
    }

    /// Batch loss (nats) of every iteration so far: a new `Float64Array` (one per iteration).
    pub fn loss(&self) -> Float64Array {
        Float64Array::from(&self.trainer.record().loss[..])
    }

    /// Distinct-token entropy (nats) of every state so far (`iteration + 1` values).
    pub fn entropies(&self) -> Float64Array {
        Float64Array::from(&self.trainer.record().entropy[..])
    }

    /// `max |Δc|` of every iteration so far.
    pub fn max_dc(&self) -> Float64Array {
        Float64Array::from(&self.trainer.record().max_dc[..])
    }

    /// Loss of the last iteration (NaN before the first).
    pub fn last_loss(&self) -> f64 {
        self.trainer.last_loss()
    }

    /// Distinct-token entropy (nats) of the current state.
    pub fn entropy(&self) -> f64 {
        self.trainer.entropy()
    }

    /// Distinct-token entropy of uniform attention (`Z = 0`) on this data: the reference line.
    pub fn uniform_entropy(&self) -> f64 {
        self.uniform
    }

    /// The snap iteration shown, or -1 for none yet: once the run is finished the core's
    /// criterion on the whole record (`snap_iteration`: the first iteration from which every
    /// `max |Δc|` is below `snap_tol`); while it runs, the live criterion
    /// (`snap_iteration_live`: below `snap_tol` for [`SNAP_WINDOW`] iterations in a row after
    /// the attention has moved).
    pub fn snap(&self) -> f64 {
        let s = if self.snap_is_final() {
            self.trainer.snap_iteration()
        } else {
            self.trainer.snap_iteration_live(SNAP_WINDOW)
        };
        s.map(|s| s as f64).unwrap_or(-1.0)
    }

    /// Whether [`TrainingLab::snap`] uses the final criterion (the run is finished).
    pub fn snap_is_final(&self) -> bool {
        matches!(self.trainer.status(), Status::Finished)
    }

    /// The live criterion's window, [`SNAP_WINDOW`].
    pub fn snap_window(&self) -> u32 {
        SNAP_WINDOW as u32
    }

    /// The recorded values at iteration `i`: `{ iteration, loss, entropy, max_dc }` (null where
    /// not recorded yet), for the chart's hover readout.
    pub fn sample(&self, i: u32) -> Result<JsValue, JsError> {
        let r = self.trainer.record();
        let i = i as usize;
        to_js(&Sample {
            iteration: i,
            loss: r.loss.get(i).copied(),
            entropy: r.entropy.get(i).copied(),
            max_dc: r.max_dc.get(i).copied(),
        })
    }

    /// The heatmap's columns: `{ columns: [{ slot, token, p }], blocks: [{ slot, class, kind
    /// ('common' | 'distinct'), start, end, p_min, p_max }], classes: [{ class, query, next,
    /// query_label, next_label }], total_classes }`. Columns run over the classes of the
    /// recorded query row (at most 6 shown); within a class, its common tokens then its distinct
    /// tokens, each ordered by co-occurrence weight `P(l|n)`, largest first.
    pub fn heatmap_layout(&self) -> Result<JsValue, JsError> {
        to_js(&self.layout)
    }

    /// Number of heatmap columns.
    pub fn heatmap_columns(&self) -> u32 {
        self.layout.columns.len() as u32
    }

    fn value(&self, state: usize, column: usize) -> f64 {
        let Column { slot, token, .. } = self.layout.columns[column];
        let m = self.trainer.m();
        let kq = self.trainer.query_classes().len();
        self.trainer.record().query_c[(state * kq + slot) * m + token]
    }

    fn update_scale(&mut self) {
        let states = self.trainer.record().entropy.len();
        let cols = self.layout.columns.len();
        if states < self.scaled_states {
            self.scale = 0.0;
            self.scaled_states = 0;
        }
        for s in self.scaled_states..states {
            for c in 0..cols {
                let v = self.value(s, c);
                if v > self.scale {
                    self.scale = v;
                }
            }
        }
        self.scaled_states = states;
    }

    /// The top of the heatmap's colour scale: the largest `c_{l|n}` shown so far (over every
    /// recorded state).
    pub fn heatmap_scale(&mut self) -> f64 {
        self.update_scale();
        if self.scale > 0.0 {
            self.scale
        } else {
            1.0
        }
    }

    /// RGBA pixels of the `c_n` rows of states `first .. first + count` (clipped to the states
    /// recorded): `rows x columns x 4` bytes, row `r` = state `first + r`, column `j` as in
    /// [`TrainingLab::heatmap_layout`]. Colour: viridis of `c / heatmap_scale()`.
    pub fn heatmap_rgba(&mut self, first: u32, count: u32) -> Uint8ClampedArray {
        let scale = self.heatmap_scale();
        let states = self.trainer.record().entropy.len();
        let first = (first as usize).min(states);
        let rows = (count as usize).min(states - first);
        let cols = self.layout.columns.len();
        let px = heatmap::grid_rgba(rows, cols, scale, |r, c| self.value(first + r, c));
        Uint8ClampedArray::from(&px[..])
    }

    /// `c_{l|n}` at state `state` of heatmap column `column` (NaN out of range), for hover.
    pub fn c_at(&self, state: u32, column: u32) -> f64 {
        let (s, c) = (state as usize, column as usize);
        if s >= self.trainer.record().entropy.len() || c >= self.layout.columns.len() {
            return f64::NAN;
        }
        self.value(s, c)
    }

    /// Draws loss, distinct-token entropy and `max |Δc|` against iteration with plotters
    /// (references: `ln M`, the uniform-attention entropy, `snap_tol`; the snap iteration as a
    /// vertical line). `canvas.width/height` in device pixels, `dpr` per CSS px. Returns the
    /// layout in CSS px for hover (`charts::layout::Layout`, `ChartLayout` in
    /// `www/wasm_page.d.ts`).
    pub fn draw_chart(&self, canvas: HtmlCanvasElement, dpr: f64, colours: &[u32]) -> Result<JsValue, JsError> {
        let r = self.trainer.record();
        let snap = self.snap();
        let data = training_chart::Data {
            loss: &r.loss,
            entropy: &r.entropy,
            max_dc: &r.max_dc,
            x_max: self.trainer.config().iterations.max(self.trainer.iteration()),
            ln_m: (self.trainer.m() as f64).ln(),
            uniform_entropy: self.uniform,
            snap_tol: self.trainer.config().snap_tol,
            snap: (snap >= 0.0).then_some(snap as usize),
            snap_final: self.snap_is_final(),
        };
        let layout = training_chart::draw(canvas, &data, dpr, colours).map_err(|e| JsError::new(&e))?;
        to_js(&layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// sample's, heatmap_layout's, run_sweep_cell's and sweep_plan's JSON have the fields
    /// `www/wasm.d.ts` declares (TrainingSample, TrainingLayout, SweepCellResult, SweepPlanOk and
    /// CheckErr).
    #[test]
    fn the_answers_are_what_wasm_d_ts_declares() {
        let config = "lab=training&preset=scan-snap&iterations=3";
        let lab = TrainingLab::new(config).unwrap();
        let sample = Sample { iteration: 0, loss: Some(1.0), entropy: None, max_dc: None };
        assert_eq!(json_keys(&serde_json::to_value(sample).unwrap()), fields_of("TrainingSample"));
        let layout = serde_json::to_value(&lab.layout).unwrap();
        assert_eq!(json_keys(&layout), fields_of("TrainingLayout"));
        let base = parse(config).unwrap();
        let r = run_cell(&base, &SweepCell { queries: 1, eta_z: base.eta_z, ratio: 1.0 }, 1).unwrap();
        let (mean_snap_iteration, unsnapped) = r.mean_snap_iteration();
        let cell = serde_json::to_value(SweepCellOut { result: &r, mean_snap_iteration, unsnapped }).unwrap();
        assert_eq!(json_keys(&cell), fields_of("SweepCellResult"));
        let ok = serde_json::to_value(plan(config, 2, 2, 1).ok().unwrap()).unwrap();
        assert_eq!(json_keys(&ok), fields_of("SweepPlanOk"));
        let refused = crate::check::CheckErr::from(plan(config, 2, 2, 0).err().unwrap());
        assert_eq!(json_keys(&serde_json::to_value(refused).unwrap()), fields_of("CheckErr"));
    }
}
