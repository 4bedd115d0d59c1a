//! The training lab's key table: every key of a `lab=training` link, defined once (name, kind
//! and range, meaning, the docs' text, how it reads and writes [`TrainingConfig`]). Parsing, range
//! checks, the canonical order and the table of docs/links.md derive from it ([`crate::link::keys`]).

use super::config::{TrainingConfig, WeightsInit, MAX_M};
use crate::link::{Key, Kind, LabPreset};
use crate::text::MAX_TEXT_BYTES;
use crate::{key_choice, key_count, key_float, key_seed, key_text};

/// Every key of the training lab after `version`, in canonical order.
pub const TRAINING_TABLE: &[Key<TrainingConfig>] = &[
    Key {
        name: "lab",
        kind: Kind::Custom,
        meaning: "which lab",
        effect: "",
        allowed: "`training`",
        get: |_| "training".to_string(),
        set: |_, v| crate::link::values::lab("lab", v.str(), "training"),
    },
    Key {
        name: "preset",
        kind: Kind::Custom,
        meaning: "starting configuration",
        effect: "",
        allowed: "`scan-snap`, `scan-snap-sweep`",
        get: |c| LabPreset::name(c.preset).to_string(),
        set: |_, _| Ok(()),
    },
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
