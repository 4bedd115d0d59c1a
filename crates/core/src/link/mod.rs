//! The link grammar every lab shares: a configuration string `version=V&key=value&...` (a page's
//! URL hash, the CLI's `--config`), percent coding with one encoder and one decoder, shortest
//! round-trip numbers, range-checked values, presets, the canonical form relative to a preset,
//! versions and their migration, and [`ConfigError`], which names the key that is wrong.
//!
//! A lab's configuration module (`particles::config`, `training::config`, `depth::config`)
//! declares its keys and builds its typed configuration from these pieces; [`crate::lab`]
//! dispatches a string to the lab its `lab` key names.

mod encoding;
mod error;
pub mod key_info;
mod key_macros;
pub mod keys;
mod pairs;
mod preset;
pub(crate) mod values;
mod version;

pub use encoding::{encode_value, escape, format_f64, percent_decode, quote};
pub use error::ConfigError;
pub use key_info::{key_infos, KeyInfo};
pub use keys::{Key, Kind, Named, Value};
pub use pairs::{canonical_string, differences, split_pairs, split_pairs_versioned, Pairs};
pub use preset::{pick_preset, row_of, LabPreset, PresetRow};
pub use values::{lab_named, parse_float, LAB_NAMES, MAX_CONFIG_LEN};
pub use version::{migrate, migrate_for, read_version, CLUSTERS_AS_DRAWN, HEAT_SCALE_SUGGESTED, VERSION};
