//! Which view keys, panels and controls each lab has (the names a link may use).

use serde::Serialize;

/// The view keys, panel names and control names of one lab. Every list is in canonical order.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct ViewSpec {
    /// The lab, as written in the `lab` key.
    pub lab: &'static str,
    /// Panel names `panels=` may list; all of them are shown by default.
    pub panels: &'static [&'static str],
    /// Control names `controls=` may list (shown in embed mode; the full page shows every control).
    pub controls: &'static [&'static str],
    /// The controls an embedded view shows when `controls` is absent.
    pub default_controls: &'static [&'static str],
    /// Largest `speed` (steps or iterations per frame).
    pub max_speed: u32,
    /// Whether `speed` may be a fraction in `[MIN_FRACTION_SPEED, 1)`: a step every few frames.
    pub fractional_speed: bool,
}

/// Smallest fractional `speed` (one step every 10 frames).
pub const MIN_FRACTION_SPEED: f64 = 0.1;

/// The particle lab: `coords` (a key of [`crate::particles::config::Config`], first of the view keys) is
/// followed by these.
///
/// Panels: `tokens` (token canvas), `heatmap` (attention `P`), `chart` (metrics over time).
/// Controls: buttons `play`, `step`, `reset`, `seed` (new seed); `speed` (slider); `preset`
/// (menu); the fields `n`, `d`, `beta`, `dt`, `until`, `model`, `integrator`; `view` (the
/// panels' own switches: coords, trails, projection, heatmap scale).
pub const PARTICLES_VIEW: ViewSpec = ViewSpec {
    lab: "particles",
    panels: &["tokens", "heatmap", "chart"],
    controls: &[
        "play",
        "step",
        "reset",
        "seed",
        "speed",
        "preset",
        "n",
        "d",
        "beta",
        "dt",
        "until",
        "model",
        "integrator",
        "view",
    ],
    default_controls: &["play", "step", "reset"],
    max_speed: 1000,
    fractional_speed: true,
};

/// The training lab. `step` is the number of SGD iterations done when the link opens.
///
/// Panels: `heatmap` (`c_n` rows), `chart` (loss, entropy, snap), `sweep`.
/// Controls: buttons `play`, `step`, `reset`, `seed`; `speed`; `preset`; the fields `eta_z`,
/// `ratio`, `momentum`, `iterations`.
pub const TRAINING_VIEW: ViewSpec = ViewSpec {
    lab: "training",
    panels: &["heatmap", "chart", "sweep"],
    controls: &["play", "step", "reset", "seed", "speed", "preset", "eta_z", "ratio", "momentum", "iterations"],
    default_controls: &["play", "step", "reset"],
    max_speed: 100,
    fractional_speed: false,
};

/// The depth lab (no time: the variants are computed once).
///
/// Panels: `residual` (rank collapse), `similarity` (the layers x heads grid), `histogram`
/// (distances of similar pairs), `same_sentence`, `paths`, `spectrum` (singular values).
/// Controls: `preset` (menu), buttons `recompute` and `seed` (new seed), the fields `layers`,
/// `heads`, `tokens`, `variants`.
pub const DEPTH_VIEW: ViewSpec = ViewSpec {
    lab: "depth",
    panels: &["residual", "similarity", "histogram", "same_sentence", "paths", "spectrum"],
    controls: &["preset", "recompute", "seed", "layers", "heads", "tokens", "variants"],
    default_controls: &["preset"],
    max_speed: 1,
    fractional_speed: false,
};

/// The model lab (no time: a text is analysed once).
///
/// Panels: `tokens` (the token strip), `grid` (the layers x heads grids of attention `P` and
/// context similarity `S`, the chosen head enlarged), `residual` (rank collapse of the four
/// variants), `layers` (the tokens through the layers, science.md §7.5), `repeat` (a trained layer
/// repeated, its repetitions shown as the layers are, science.md §7.4), `histogram` (distances of
/// similar pairs), `same_sentence`, `spectrum` (the chosen head's spectra of `V_h` and `S_h` and
/// §1.3's verdict, science.md §7.6), `head_particles` (that head alone as a particle system,
/// science.md §7.6).
/// Controls: `example` (the built-in texts), `text` (the text box), `run` (Analyse), `grid_scale`
/// (the grids' colour scale).
pub const MODEL_VIEW: ViewSpec = ViewSpec {
    lab: "model",
    panels: &[
        "tokens",
        "grid",
        "spectrum",
        "head_particles",
        "residual",
        "layers",
        "repeat",
        "histogram",
        "same_sentence",
    ],
    controls: &["example", "text", "run", "grid_scale"],
    default_controls: &["example"],
    max_speed: 1,
    fractional_speed: false,
};

impl ViewSpec {
    /// The lab's view keys, in canonical order (after its model keys): the entries of
    /// [`super::keys::VIEW_TABLE`] that apply to the lab.
    pub fn keys(&self) -> Vec<&'static str> {
        super::keys::view_keys_of(self.lab)
    }
}

/// The view specification of lab `lab` (`particles`, `training`, `depth` or `model`; anything
/// else is the particle lab's).
pub fn spec_of(lab: &str) -> &'static ViewSpec {
    match lab {
        "training" => &TRAINING_VIEW,
        "depth" => &DEPTH_VIEW,
        "model" => &MODEL_VIEW,
        _ => &PARTICLES_VIEW,
    }
}
