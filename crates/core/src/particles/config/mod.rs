//! The typed configuration of a particle run and its canonical text form
//! `version=7&preset=NAME&key=value&...` (the string a page keeps in its URL and the CLI takes).
//!
//! Keys, in canonical order after `preset`: `lab`, `model`, `n`, `d`, `seed`, `beta`, `dt`, `until`,
//! `integrate_in`, `integrator`, `q`, `k`, `v`, `init`, `scale`, `points`, `cluster_tol`, and the
//! view key `coords`, then the view keys of [`crate::view`]. The canonical string starts with
//! `version=7` ([`VERSION`]; a string without `version` is version 0 and is migrated, see
//! [`migrate`]; a version 0 or 1 link keeps its numbers and writes `version=1`, see
//! [`Config::version`]). See [`parse`] for the rules and [`Config::to_canonical_string`] for the
//! canonical form.

mod format;
pub mod keys;
mod matrix;
mod parse;
mod presets;
mod speed;
mod types;
mod validate;

pub use crate::link::{ConfigError, CLUSTERS_AS_DRAWN, VERSION};
pub use keys::PARTICLES_TABLE;
pub use parse::{family_keys, parse, parse_with_view};
pub use presets::{METASTABILITY_POINTS, PAPER_V_2D, PRESETS};
pub use speed::{suggested_speed, suggested_speed_for, SPEEDS};
pub use types::{
    Config, Init, Integrator, MatrixSpec, Model, Points, Preset, Space, MAX_D, MAX_ENTRY, MAX_N, MAX_STEPS,
};
pub use validate::validate;
