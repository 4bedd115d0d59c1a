//! The depth lab's key table: every key of a `lab=depth` link, defined once (name, kind and
//! range, meaning, the docs' text, how it reads and writes [`DepthConfig`]). Parsing, range checks,
//! the canonical order and the table of docs/links.md derive from it ([`crate::link::keys`]); the
//! cross-key checks are [`DepthConfig::validate`]'s.

use super::config::{
    Activation, DepthConfig, InputSource, LayerNorm, Precision, ResidualDef, Select, SimilarityNorm, Variant,
    WeightsSource, MAX_PARTICLE_BYTES, MAX_TOKENS, VARIANTS,
};
use crate::link::keys::write;
use crate::link::{encode_value, keys, quote, values, ConfigError, Key, Kind};
use crate::text::MAX_TEXT_BYTES;
use crate::{key_choice, key_count, key_float, key_lab, key_preset, key_seed, key_switch, key_text};

/// Every key of the depth lab after `version`, in canonical order.
pub const DEPTH_TABLE: &[Key<DepthConfig>] = &[
    key_lab!("depth", "`depth`"),
    key_preset!("`bert-init`, `collapse-small`, `context-text`, `particle-euler`"),
    Key { effect: "deeper: pure attention's residual falls doubly exponentially with depth", ..key_count!(layers, 1, 48, "depth `L`") },
    Key { effect: "more heads: the collapse bound's constant grows with H", ..key_count!(heads, 1, 16, "heads per layer `H`") },
    key_count!(d_model, 1, 1024, "token width"),
    key_count!(d_head, 1, 256, "width of a head's queries, keys, values"),
    key_count!(tokens, 2, MAX_TOKENS, "sequence length `n` (when a text sets `n`, `input=text` or `bert-embeddings` with a text, a `tokens` in the link must equal its token count, and is not written)"),
    Key { effect: "on: the skip connection stops the rank collapse", ..key_switch!(skip, "attention skip connection of the `configured` variant") },
    Key { effect: "on: its Lipschitz constant enters the collapse bound; it does not stop the collapse (SAN+MLP reaches round-off like SAN)", ..key_switch!(mlp, "MLP block of the `configured` variant") },
    key_count!(mlp_width, 1, 4096, "MLP hidden width"),
    Key {
        allowed: "`relu`, `gelu` (exact, erf), `tanh`",
        ..key_choice!(activation, Activation, "MLP activation")
    },
    key_switch!(mlp_residual, "the MLP's own skip connection (`configured` variant)"),
    key_choice!(layernorm, LayerNorm, "LayerNorm placement (every variant)"),
    Key { effect: "larger: larger constants in the collapse bound", ..key_float!(weight_scale, open 0.0, closed 10.0, "σ of `W_V`, `W_O` and the MLP weights") },
    Key { effect: "larger: sharper attention; the collapse bound's constant grows", ..key_float!(qk_scale, open 0.0, closed 10.0, "σ of `W_Q`, `W_K`") },
    key_float!(bias_scale, closed 0.0, closed 10.0, "σ of every bias (0: bias-free)"),
    key_switch!(shared, "one set of weights for every layer (ALBERT-like)"),
    key_choice!(weights, WeightsSource, "`random` (seeded) or the particle model's `Q, K, V` as one head"),
    Key {
        name: "particle",
        kind: Kind::Custom,
        meaning: "the particle-lab configuration for `weights=particle` / `input=particle` (percent-encoded; empty: its default preset)",
        effect: "",
        allowed: "a valid particle configuration, at most 262144 bytes",
        get: |c| encode_value(&c.particle),
        set: |c, v| {
            let inner = if v.str().is_empty() { "preset=polytope" } else { v.str() };
            let p = crate::particles::config::parse(inner)
                .map_err(|e| ConfigError::new("particle", format!("not a valid particle configuration: {}", e)))?;
            c.particle = p.to_canonical_string();
            check_particle_len(&c.particle)
        },
    },
    Key {
        allowed: "`gaussian` (N(0, 1)), `particle`, `text`, `bert-embeddings` (BERT's input embeddings at initialisation: random ids, or the text's)",
        ..key_choice!(input, InputSource, "input tokens")
    },
    key_text!(text, MAX_TEXT_BYTES, "the text for `input=text` (percent-encoded)"),
    Key {
        name: "sentences",
        kind: Kind::Custom,
        meaning: "sentence lengths, comma-separated (empty: from the text's punctuation, else one sentence)",
        effect: "",
        allowed: "each 1..=512, summing to `n`",
        get: |c| write::list(&c.sentences),
        set: |c, v| {
            c.sentences = sentences(v.str())?;
            Ok(())
        },
    },
    key_switch!(separators, "text: `[CLS]` first and `[SEP]` after each sentence; else each sentence's last token is a separator"),
    key_choice!(similarity_norm, SimilarityNorm, "`S` as `raw`, `max-abs` (÷ largest off-diagonal abs), `cosine`"),
    key_choice!(select, Select, "high-similarity pairs: top quantile or `S >= threshold`"),
    key_float!(quantile, open 0.0, open 1.0, "pairs above this quantile of a head's pairs are high"),
    key_float!(threshold, open f64::NEG_INFINITY, open f64::INFINITY, "with `select=threshold`"),
    key_choice!(residual_def, ResidualDef, "centre `x` of `res(X)`"),
    key_choice!(precision, Precision, "floating-point type of the stack"),
    key_seed!(seed, "PRNG seed (weights, Gaussian input)"),
    Key {
        name: "variants",
        kind: Kind::Custom,
        meaning: "variants run, in order, comma-separated",
        effect: "",
        allowed: "`san`, `san-mlp`, `san-skip`, `transformer`, `configured`",
        get: |c| c.variants.iter().map(|v| v.name()).collect::<Vec<_>>().join(","),
        set: |c, v| {
            c.variants = variants(v.str())?;
            Ok(())
        },
    },
];

/// The `particle` key's length limit (the depth link must stay within the link length limit).
pub(crate) fn check_particle_len(particle: &str) -> Result<(), ConfigError> {
    if particle.len() > MAX_PARTICLE_BYTES {
        return Err(ConfigError::new(
            "particle",
            format!("the particle configuration is {} bytes long; at most {} are allowed (hand large token sets to the run directly)", particle.len(), MAX_PARTICLE_BYTES),
        ));
    }
    Ok(())
}

/// `sentences`: whole numbers in `1..=MAX_TOKENS`, comma-separated (empty: automatic).
fn sentences(value: &str) -> Result<Vec<usize>, ConfigError> {
    let key = "sentences";
    if value.is_empty() {
        return Ok(Vec::new());
    }
    let parts: Vec<&str> = value.split(',').collect();
    if parts.len() > MAX_TOKENS {
        return Err(ConfigError::new(key, format!("{} sentences; at most {} are allowed", parts.len(), MAX_TOKENS)));
    }
    parts.iter().map(|s| values::count(key, s.trim(), 1, MAX_TOKENS)).collect::<Result<Vec<_>, _>>().map_err(|e| {
        ConfigError::new(
            key,
            format!("each sentence length must be a whole number in 1..={}: {}", MAX_TOKENS, e.message),
        )
    })
}

/// `variants`: names of [`VARIANTS`], comma-separated, each at most once.
fn variants(value: &str) -> Result<Vec<Variant>, ConfigError> {
    let key = "variants";
    let mut list = Vec::new();
    for name in value.split(',') {
        let v = Variant::from_name(name.trim()).ok_or_else(|| {
            let names: Vec<&str> = VARIANTS.iter().map(|v| v.name()).collect();
            ConfigError::new(
                key,
                format!("{} is not a variant; allowed (comma-separated): {}", quote(name), names.join(", ")),
            )
        })?;
        if list.contains(&v) {
            return Err(ConfigError::new(key, format!("{} appears more than once", v.name())));
        }
        list.push(v);
    }
    Ok(list)
}

/// Reads `value` as key `key` of the depth table into `c`.
pub(crate) fn apply(c: &mut DepthConfig, key: &str, value: &str) -> Result<(), ConfigError> {
    keys::apply(DEPTH_TABLE, c, key, value)
}
