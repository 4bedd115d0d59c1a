//! A link's view: the values of its view keys ([`View`]), their defaults per lab and their
//! canonical pairs (module doc of [`super`]).

use super::spec::{spec_of, ViewSpec};
use crate::link::format_f64;
use serde::Serialize;

/// The moment a link opens at (paused there).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Moment {
    /// `t=`: a time in the ODE's units, rounded to the nearest step (`round(t / dt)`).
    T(f64),
    /// `step=`: a step count (training: SGD iterations done).
    Step(u64),
}

/// The colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// The system's light or dark preference.
    Auto,
    /// Light, whatever the system prefers.
    Light,
    /// Dark, whatever the system prefers.
    Dark,
}

/// How the particle lab shows tokens of dimension d > 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProjectionMode {
    /// The first two principal axes, fixed at reset.
    Pca2,
    /// The first three principal axes (3-D, drag to rotate).
    Pca3,
    /// Two coordinates, `a` and `b`.
    Axes,
}

/// The projection of d > 3 tokens: a mode and, for [`ProjectionMode::Axes`], two 1-based
/// coordinates (`a = 1, b = 2` for the PCA modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Projection {
    /// The mode.
    pub mode: ProjectionMode,
    /// First coordinate shown (1-based).
    pub a: u32,
    /// Second coordinate shown (1-based).
    pub b: u32,
}

/// The 3-D view's angles, in radians.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Camera {
    /// Rotation about the vertical axis, in [-2π, 2π].
    pub yaw: f64,
    /// Tilt, in [-1.55, 1.55].
    pub pitch: f64,
}

/// The view of a configuration: everything a link says about how to show the run, nothing
/// about what it computes. Built by [`parse_view`]; written by [`View::pairs`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The lab the view belongs to (its [`ViewSpec`]).
    pub lab: &'static str,
    /// `t=` or `step=`: open paused at this moment.
    pub moment: Option<Moment>,
    /// `embed=1`.
    pub embed: bool,
    /// Panels shown, in the lab's order (default: all).
    pub panels: Vec<&'static str>,
    /// Controls shown in embed mode, in the lab's order.
    pub controls: Vec<&'static str>,
    /// Colour theme.
    pub theme: Theme,
    /// The page's background: `"theme"` (the theme's colour) or `"transparent"` (an embedding
    /// page shows through).
    pub bg: &'static str,
    /// Steps (iterations) per frame, a whole number from 1 or, in the particle lab, a fraction
    /// in `[0.1, 1)` (a step every few frames); `None`: the preset's suggestion
    /// ([`crate::particles::config::suggested_speed`]).
    pub speed: Option<f64>,
    /// Heatmap colour scale: `"one"` (0 to 1) or `"max"` (0 to max P); `None`: the preset's
    /// suggestion ([`crate::particles::config::Preset::suggested_heatmap`]; a link naming exactly
    /// the suggestion reads as `None`, so the canonical form leaves it out).
    pub heatmap: Option<&'static str>,
    /// Token trails shown.
    pub trails: bool,
    /// Projection of d > 3 tokens.
    pub projection: Projection,
    /// 3-D view angles.
    pub camera: Camera,
    /// Token colours: `"clusters"`, `"index"` or `"plain"`.
    pub colour: &'static str,
    /// The heatmap's order: `"cluster"`, `"leader"` or `"index"`
    /// ([`crate::particles::analysis::order::TokenOrder`]); `None`: the preset's suggestion
    /// ([`crate::particles::config::Preset::suggested_order`]; a link naming exactly the
    /// suggestion reads as `None`, so the canonical form leaves it out).
    pub order: Option<&'static str>,
    /// The token view's axis scales: `"equal"` or `"per-axis"`; `None`: the preset's suggestion
    /// ([`crate::particles::config::Preset::suggested_axes`]).
    pub axes: Option<&'static str>,
    /// The overlays drawn (a subset of [`OVERLAYS`], in its order); `None`: the preset's
    /// suggestion ([`crate::particles::config::Preset::suggested_overlays`]; a link naming exactly
    /// the suggestion reads as `None`, so the canonical form leaves it out).
    pub overlays: Option<Vec<&'static str>>,
    /// The depth lab's rank-collapse y axis: `"log"` or `"linear"`.
    pub residual_axis: &'static str,
    /// The depth lab's similarity grid colours: `"head"` (each head its own range) or
    /// `"shared"` (one range for every layer and head).
    pub grid_scale: &'static str,
}

/// The values of the view key `order` (the heatmap's rows and columns).
pub const HEATMAP_ORDERS: [&str; 3] = ["cluster", "leader", "index"];

/// The values of the view key `overlays` (the theorems drawn over the particle lab's panels), in
/// canonical order: `hull` (the convex hull of the initial rescaled tokens and the cluster
/// centres), `psi` (`psi1` and the lines `<psi1, z> = const`), `leaders` (the leaders' columns on
/// the heatmap of 1-D runs and the Boolean distance's limit 0), `plateaus` (of the count on the
/// chart), `depth` (3-D depth shading).
pub const OVERLAYS: [&str; 5] = ["hull", "psi", "leaders", "plateaus", "depth"];

/// The values of the view key `bg` (the page's background), the default first.
pub const BACKGROUNDS: [&str; 2] = ["theme", "transparent"];

/// The default 3-D view angles (the token canvas's starting view).
pub const DEFAULT_CAMERA: Camera = Camera { yaw: -0.65, pitch: 0.5 };

impl View {
    /// The view of a link with no view keys, for `spec`'s lab.
    pub fn default_for(spec: &'static ViewSpec) -> View {
        View {
            lab: spec.lab,
            moment: None,
            embed: false,
            panels: spec.panels.to_vec(),
            controls: spec.default_controls.to_vec(),
            theme: Theme::Auto,
            bg: "theme",
            speed: None,
            heatmap: None,
            trails: true,
            projection: Projection { mode: ProjectionMode::Pca2, a: 1, b: 2 },
            camera: DEFAULT_CAMERA,
            colour: "clusters",
            order: None,
            axes: None,
            overlays: None,
            residual_axis: "log",
            grid_scale: "head",
        }
    }

    /// The lab's view specification.
    pub fn spec(&self) -> &'static ViewSpec {
        spec_of(self.lab)
    }

    /// The step the link opens at: `step`, or `round(t / dt)` for `t` (`dt` the run's time
    /// step); `None` without a moment.
    pub fn open_step(&self, dt: f64) -> Option<u64> {
        match self.moment? {
            Moment::Step(s) => Some(s),
            Moment::T(t) => Some(crate::run::steps_for(t, dt)),
        }
    }

    /// The view keys whose value differs from the default, in the lab's canonical order, as
    /// written in a configuration string (values need no percent-encoding).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let spec = self.spec();
        let base = View::default_for(spec);
        let mut out = Vec::new();
        for key in spec.keys() {
            let value = match key {
                "t" => match self.moment {
                    Some(Moment::T(t)) => Some(format_f64(t)),
                    _ => None,
                },
                "step" => match self.moment {
                    Some(Moment::Step(s)) => Some(s.to_string()),
                    _ => None,
                },
                "embed" => self.embed.then(|| "1".to_string()),
                "panels" => (self.panels != base.panels).then(|| self.panels.join(",")),
                "controls" => (self.controls != base.controls).then(|| self.controls.join(",")),
                "theme" => match self.theme {
                    Theme::Auto => None,
                    Theme::Light => Some("light".to_string()),
                    Theme::Dark => Some("dark".to_string()),
                },
                "bg" => (self.bg != base.bg).then(|| self.bg.to_string()),
                "speed" => self.speed.map(|s| s.to_string()),
                "heatmap" => self.heatmap.map(str::to_string),
                "trails" => (!self.trails).then(|| "0".to_string()),
                "projection" => match self.projection.mode {
                    ProjectionMode::Pca2 => None,
                    ProjectionMode::Pca3 => Some("pca3".to_string()),
                    ProjectionMode::Axes => Some(format!("{},{}", self.projection.a, self.projection.b)),
                },
                "camera" => (self.camera != base.camera)
                    .then(|| format!("{},{}", format_f64(self.camera.yaw), format_f64(self.camera.pitch))),
                "colour" => (self.colour != base.colour).then(|| self.colour.to_string()),
                "order" => self.order.map(str::to_string),
                "axes" => self.axes.map(str::to_string),
                "overlays" => self.overlays.as_ref().map(|o| o.join(",")),
                "residual_axis" => (self.residual_axis != base.residual_axis).then(|| self.residual_axis.to_string()),
                "grid_scale" => (self.grid_scale != base.grid_scale).then(|| self.grid_scale.to_string()),
                _ => None,
            };
            if let Some(v) = value {
                out.push((key, v));
            }
        }
        out
    }
}
