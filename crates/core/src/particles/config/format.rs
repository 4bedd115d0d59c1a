//! The canonical text form of a configuration.

use super::{Config, Init, Integrator, MatrixSpec, Model, Space};
use crate::link::format_f64;

pub(crate) fn model_name(m: Model) -> &'static str {
    match m {
        Model::Euclidean => "euclidean",
        Model::SphereSa => "sphere-sa",
        Model::SphereUsa => "sphere-usa",
    }
}

pub(crate) fn integrator_name(i: Integrator) -> &'static str {
    match i {
        Integrator::Euler => "euler",
        Integrator::Rk4 => "rk4",
        Integrator::Retraction => "retraction",
    }
}

pub(crate) fn space_name(s: Space) -> &'static str {
    match s {
        Space::X => "x",
        Space::Z => "z",
    }
}

pub(crate) fn init_name(i: Init) -> &'static str {
    match i {
        Init::Cube => "cube",
        Init::Gaussian => "gaussian",
        Init::Sphere => "sphere",
        Init::Points => "points",
    }
}

/// Rows separated by `;`, entries by `,`.
pub(crate) fn format_rows(data: &[f64], cols: usize) -> String {
    data.chunks(cols.max(1))
        .map(|row| row.iter().map(|&x| format_f64(x)).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(";")
}

pub(crate) fn matrix_text(m: &MatrixSpec) -> String {
    match m {
        MatrixSpec::Identity => "identity".into(),
        MatrixSpec::NegIdentity => "-identity".into(),
        MatrixSpec::Psd => "psd".into(),
        MatrixSpec::Explicit { cols, data, .. } => format_rows(data, *cols),
    }
}

impl Config {
    /// The `(key, value)` pairs of every key, in canonical order (`preset` first).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("preset", self.preset.name().to_string()),
            ("lab", "particles".to_string()),
            ("model", model_name(self.model).to_string()),
            ("n", self.n.to_string()),
            ("d", self.d.to_string()),
            ("seed", self.seed.to_string()),
            ("beta", format_f64(self.beta)),
            ("dt", format_f64(self.dt)),
            ("until", format_f64(self.until)),
            ("integrate_in", space_name(self.integrate_in).to_string()),
            ("integrator", integrator_name(self.integrator).to_string()),
            ("q", matrix_text(&self.q)),
            ("k", matrix_text(&self.k)),
            ("v", matrix_text(&self.v)),
            ("init", init_name(self.init).to_string()),
            ("scale", format_f64(self.scale)),
            ("points", self.points.as_ref().map(|p| format_rows(&p.data, p.cols)).unwrap_or_default()),
            ("cluster_tol", format_f64(self.cluster_tol)),
            ("coords", space_name(self.coords).to_string()),
        ]
    }

    /// The canonical string: `version=V&preset=NAME` (`V` = [`Config::version`]: 2, or 1 for a
    /// run from an older link) followed by the keys whose value differs from that preset, in the
    /// order of [`Config::pairs`]. `parse(&c.to_canonical_string()) == Ok(c)`.
    pub fn to_canonical_string(&self) -> String {
        crate::link::canonical_string(
            self.version,
            format!("preset={}", self.preset.name()),
            &self.pairs(),
            &self.preset.config().pairs(),
            1,
        )
    }

    /// The keys (other than `preset`) whose value differs from the preset's, with both values:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.pairs(), self.preset.config().pairs(), 1)
    }
}
