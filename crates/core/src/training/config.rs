//! The typed configuration of a training-lab run (science.md §5) and its canonical text form
//! `version=7&lab=training&preset=NAME&key=value&...`.
//!
//! Every key (name, range, meaning, default, how it reads and writes [`TrainingConfig`]) is defined
//! once, in [`TRAINING_TABLE`] at the end of this file; parsing, range checks, the canonical order and
//! the table of docs/links.md (`cargo xtask docs`) derive from it ([`crate::link::keys`]).
//!
//! Combined limits: the synthetic vocabulary `M = commons + queries * commons_per_query +
//! K * distinct + queries + K` (`K = queries * next_per_query` classes) is at most 512 (error on
//! `queries`); `batch * (seq_len - 1) <= 2^22` context tokens per iteration (error on `batch`); the
//! per-iteration record `(iterations + 1) * M * (1 + K_q)` numbers, `K_q` the classes of the query
//! row, is at most 2^22 (error on `iterations`); with `text`, `K * M <= 2^21` (`K` the distinct
//! (query, next) pairs; error on `text`). The canonical string starts with `version=7` (a string without `version` is
//! version 0, migrated by [`crate::link::migrate`]; this lab's numbers do not depend on it); view keys follow the model keys.

use crate::link::LabPreset;
use crate::link::{keys, pick_preset, ConfigError, Key};
use crate::text::{Corpus, MAX_TEXT_BYTES};
use crate::{key_choice, key_count, key_float, key_lab, key_preset, key_seed, key_text};
use serde::Serialize;

/// Largest vocabulary size `M`.
pub const MAX_M: usize = 512;
/// Largest number of numbers in the per-iteration record of a run.
pub const MAX_RECORD: usize = 1 << 22;
/// Largest `K x M` (classes times vocabulary: the size of the `c_n` matrix).
pub const MAX_CLASS_ENTRIES: usize = 1 << 21;
/// Largest number of context tokens drawn per iteration (`batch * (seq_len - 1)`).
pub const MAX_TOKENS_PER_ITERATION: usize = 1 << 22;

crate::named_enum! {
    /// How `Y` and `Z` start (science.md §5).
    pub enum WeightsInit {
        /// `Y = Z = 0`: the first loss is exactly `ln M` and attention starts uniform.
        Zero = "zero",
        /// Every entry of `Y`, then of `Z`, i.i.d. uniform in `[-1/sqrt(M), 1/sqrt(M))` from the seed.
        Uniform = "uniform",
    }
}

/// A named starting configuration of the training lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrainingPreset {
    /// The paper's Fig. 4 run: 2 query tokens with one next token each (M = 34), zero
    /// initialisation, eta_Z = eta_Y = 1, momentum 0.9, batch 128, seq_len 128, 1000 iterations
    /// (the paper's 100, then the snapped attention held; link versions 5 and older: 100).
    ScanSnap,
    /// The paper's sweep setting: one query token serving two next tokens (M = 33), uniform
    /// initialisation; otherwise as `scan-snap`.
    ScanSnapSweep,
}

/// One complete, validated training-lab configuration (science.md §5). See the module
/// documentation for every key's meaning and range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainingConfig {
    /// The preset the configuration starts from.
    pub preset: TrainingPreset,
    /// Number of query tokens, 1..=32.
    pub queries: usize,
    /// Classes (next tokens) per query token, 1..=32.
    pub next_per_query: usize,
    /// Global common tokens, 0..=256.
    pub commons: usize,
    /// Common tokens of each query token, 0..=64.
    pub commons_per_query: usize,
    /// Distinct tokens per class, 1..=64.
    pub distinct: usize,
    /// Weight of a class's first distinct token, in (0, 1e6].
    pub weight_lo: f64,
    /// Weight of a class's last distinct token, in (0, 1e6].
    pub weight_hi: f64,
    /// Initial `Y`, `Z`.
    pub weights_init: WeightsInit,
    /// Learning rate of `Z`, in (0, 100].
    pub eta_z: f64,
    /// `eta_Y / eta_Z`, in (0, 1000].
    pub ratio: f64,
    /// SGD momentum, in [0, 1).
    pub momentum: f64,
    /// Sequences per iteration, 1..=4096.
    pub batch: usize,
    /// Tokens per sequence (context `seq_len - 1` plus the query), 2..=4096.
    pub seq_len: usize,
    /// Iterations of a run, 0..=20000.
    pub iterations: usize,
    /// PRNG seed.
    pub seed: u32,
    /// The recorded query row: index among query tokens (synthetic) or token id (text).
    pub query_row: usize,
    /// Snap threshold on `max |Δc|` per iteration, in (0, 1).
    pub snap_tol: f64,
    /// Vocabulary cap for `text`, 2..=512.
    pub vocab: usize,
    /// The user's text; empty for the synthetic data.
    pub text: String,
}

impl Default for TrainingConfig {
    /// The `scan-snap` preset.
    fn default() -> Self {
        TrainingPreset::ScanSnap.config()
    }
}

impl std::str::FromStr for TrainingConfig {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        parse(s)
    }
}

impl std::fmt::Display for TrainingConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// Parses `key=value&...` into a validated training configuration (an optional leading `#` or
/// `?` is ignored; values may be percent-encoded). `lab` must be absent or `training`;
/// `preset=` (default `scan-snap`) fills every key first, whatever its position; the other keys
/// override it. Refuses, never clamps; the error names the offending key and what is allowed.
///
/// View keys ([`crate::view::TRAINING_VIEW`]) are validated and left out of the result; see
/// [`parse_with_view`].
pub fn parse(text: &str) -> Result<TrainingConfig, ConfigError> {
    parse_with_view(text).map(|(c, _)| c)
}

/// [`parse`], also returning the view keys as a [`crate::view::View`].
pub fn parse_with_view(text: &str) -> Result<(TrainingConfig, crate::view::View), ConfigError> {
    let spec = &crate::view::TRAINING_VIEW;
    let keys = crate::view::with_view_keys(&keys::key_names(TRAINING_TABLE), spec);
    let (view_pairs, pairs) = crate::view::split_off_view(crate::link::split_pairs(text, &keys, "training")?, spec);
    let preset: TrainingPreset = pick_preset(&pairs)?;
    let mut c = preset.config();
    for (key, value) in &pairs {
        if *key != "preset" {
            keys::apply(TRAINING_TABLE, &mut c, key, value)?;
        }
    }
    c.validate()?;
    let view = crate::view::parse_view(
        spec,
        &view_pairs,
        crate::view::ViewContext { dt: None, last_step: Some(c.iterations as u64), d: None },
    )?;
    Ok((c, view))
}

impl TrainingConfig {
    /// Number of classes `K` of the synthetic data (`queries * next_per_query`).
    pub fn synthetic_classes(&self) -> usize {
        self.queries * self.next_per_query
    }

    /// Vocabulary size `M` of the synthetic layout (science.md §5): global commons, per-query
    /// commons, distinct blocks, query tokens, next tokens.
    pub fn synthetic_m(&self) -> usize {
        let k = self.synthetic_classes();
        self.commons + self.queries * self.commons_per_query + k * self.distinct + self.queries + k
    }

    /// Whether the run trains on `text` rather than the synthetic data.
    pub fn uses_text(&self) -> bool {
        !self.text.is_empty()
    }

    /// Checks every range and combination (see the module documentation).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let c = self;
        keys::check_ranges(TRAINING_TABLE, c)?;
        if c.batch * (c.seq_len - 1) > MAX_TOKENS_PER_ITERATION {
            return Err(ConfigError::new(
                "batch",
                format!(
                    "batch * (seq_len - 1) = {} context tokens per iteration; at most {} are allowed",
                    c.batch * (c.seq_len - 1),
                    MAX_TOKENS_PER_ITERATION
                ),
            ));
        }
        if c.text.len() > MAX_TEXT_BYTES {
            return Err(ConfigError::new(
                "text",
                format!("{} bytes long; at most {} are allowed", c.text.len(), MAX_TEXT_BYTES),
            ));
        }
        let (m, k_q) = if c.uses_text() {
            let corpus = Corpus::new(&c.text, c.vocab);
            if corpus.sequences() < 1 {
                return Err(ConfigError::new(
                    "text",
                    format!(
                        "has {} tokens; at least 3 are needed (a context token, a query and a next token)",
                        corpus.ids.len()
                    ),
                ));
            }
            if c.query_row >= corpus.m() {
                return Err(ConfigError::new(
                    "query_row",
                    format!(
                        "{} is out of range; with this text allowed: 0..={} (a token id; the vocabulary has {} tokens)",
                        c.query_row,
                        corpus.m() - 1,
                        corpus.m()
                    ),
                ));
            }
            let k = corpus.class_count();
            if k * corpus.m() > MAX_CLASS_ENTRIES {
                return Err(ConfigError::new(
                    "text",
                    format!("has {} classes (distinct word pairs) over a vocabulary of {}: K x M = {} exceeds {}; shorten the text or lower vocab", k, corpus.m(), k * corpus.m(), MAX_CLASS_ENTRIES),
                ));
            }
            (corpus.m(), corpus.nexts_of(c.query_row).len())
        } else {
            let m = c.synthetic_m();
            if m > MAX_M {
                return Err(ConfigError::new(
                    "queries",
                    format!("the vocabulary M = commons + queries*commons_per_query + K*distinct + queries + K = {} exceeds {}; lower queries, next_per_query, commons, commons_per_query or distinct", m, MAX_M),
                ));
            }
            if c.query_row >= c.queries {
                return Err(ConfigError::new(
                    "query_row",
                    format!(
                        "{} is out of range; allowed: 0..={} (an index among the {} query tokens)",
                        c.query_row,
                        c.queries - 1,
                        c.queries
                    ),
                ));
            }
            (m, c.next_per_query)
        };
        let record = (c.iterations + 1).saturating_mul(m).saturating_mul(1 + k_q);
        if record > MAX_RECORD {
            return Err(ConfigError::new(
                "iterations",
                format!("the run would record (iterations + 1) * M * (1 + classes of the query row) = {} numbers; at most {} are allowed: lower iterations (or vocab)", record, MAX_RECORD),
            ));
        }
        Ok(())
    }

    /// The `(key, value)` pairs of every key, in canonical order (`lab`, `preset` first); values
    /// are as written in the canonical string (the text percent-encoded).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        keys::pairs(TRAINING_TABLE, self)
    }

    /// The canonical string: `version=7&lab=training&preset=NAME` followed by the keys whose value differs
    /// from that preset, in the order of [`TrainingConfig::pairs`].
    /// `parse(&c.to_canonical_string()) == Ok(c)`.
    pub fn to_canonical_string(&self) -> String {
        let prefix = format!("lab=training&preset={}", self.preset.name());
        crate::link::canonical_string(crate::link::VERSION, prefix, &self.pairs(), &self.preset.config().pairs(), 2)
    }

    /// The keys (other than `lab` and `preset`) whose value differs from the preset's:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.pairs(), self.preset.config().pairs(), 2)
    }
}

/// Every key of the training lab after `version`, in canonical order.
pub const TRAINING_TABLE: &[Key<TrainingConfig>] = &[
    key_lab!("training", "`training`"),
    key_preset!("`scan-snap`, `scan-snap-sweep`"),
    key_count!(queries, 1, 32, "number of query tokens"),
    key_count!(next_per_query, 1, 32, "classes (next tokens) per query token"),
    key_count!(commons, 0, 256, "common tokens (weight 1, shared by all classes)"),
    key_count!(commons_per_query, 0, 64, "common tokens of each query (weight 1)"),
    key_count!(distinct, 1, 64, "distinct tokens per class"),
    key_float!(weight_lo, open 0.0, closed 1e6, "weight of a class's first distinct token (`linspace(weight_lo, weight_hi, distinct)`)"),
    key_float!(weight_hi, open 0.0, closed 1e6, "weight of a class's last distinct token"),
    key_choice!(weights_init, WeightsInit, "initial `Y`, `Z`: `zero`, or `uniform` in `[-1/√M, 1/√M)` from the seed"),
    Key {
        effect: "larger: sparser final attention",
        ..key_float!(eta_z, open 0.0, closed 100.0, "learning rate of `Z`")
    },
    Key {
        effect: "larger: attention freezes earlier, with a higher final entropy (when a query serves two classes)",
        ..key_float!(ratio, open 0.0, closed 1000.0, "`r = eta_Y / eta_Z`")
    },
    key_float!(momentum, closed 0.0, open 1.0, "SGD momentum"),
    key_count!(batch, 1, 4096, "sequences per iteration"),
    key_count!(seq_len, 2, 4096, "tokens per sequence (context + query)"),
    key_count!(iterations, 0, 20_000, "SGD iterations of a run"),
    key_seed!(seed, "PRNG seed (data, uniform init)"),
    Key {
        allowed: "0..queries-1 (text: a token id)",
        ..key_count!(query_row, 0, MAX_M - 1, "recorded query: index among the query tokens (text: a token id)")
    },
    Key {
        effect: "smaller: a stricter test, so a later snap",
        ..key_float!(snap_tol, open 0.0, open 1.0, "snap threshold on max |Δc| per iteration")
    },
    key_count!(vocab, 2, MAX_M, "vocabulary cap for `text`"),
    key_text!(text, MAX_TEXT_BYTES, "your text (percent-encoded); non-empty replaces the synthetic data"),
];
