//! A BERT model's `config.json` (science.md §6): the sizes and constants of the encoder, read from
//! the file, never assumed. Only post-LayerNorm BERT encoders are run: `model_type` must be
//! `"bert"`, `hidden_act` the exact-erf `"gelu"`, `position_embedding_type` (when present)
//! `"absolute"`. Every error names the field ([`ModelError::Config`]).

use super::ModelError;
use serde_json::{Map, Value};

/// Largest hidden size, intermediate size, number of layers, heads, positions or vocabulary
/// accepted: the weights must fit a browser's memory anyway, and the limits keep a hostile
/// `config.json` from asking for absurd allocations before the weights are read.
pub const MAX_HIDDEN: usize = 8192;
/// Largest `intermediate_size`.
pub const MAX_INTERMEDIATE: usize = 65536;
/// Largest `num_hidden_layers`.
pub const MAX_LAYERS: usize = 256;
/// Largest `max_position_embeddings`.
pub const MAX_POSITIONS: usize = 16384;
/// Largest `vocab_size`.
pub const MAX_VOCAB: usize = 1 << 22;

/// The sizes and constants of a BERT encoder, from `config.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct BertConfig {
    /// `hidden_size`: the width `d` of a token (hidden state `n x d`).
    pub hidden: usize,
    /// `num_attention_heads`: heads per layer `H`; `d_head = d / H`.
    pub heads: usize,
    /// `num_hidden_layers`: encoder layers `L`.
    pub layers: usize,
    /// `intermediate_size`: the feed-forward width `d_ff`.
    pub intermediate: usize,
    /// `layer_norm_eps`, as the `f32` the forward adds.
    pub layer_norm_eps: f32,
    /// `max_position_embeddings`: most tokens of a text, `[CLS]` and `[SEP]` included.
    pub max_positions: usize,
    /// `vocab_size`: rows of the word embedding (pieces of `vocab.txt`).
    pub vocab_size: usize,
    /// `type_vocab_size` (default 2): rows of the token-type embedding; the lab uses row 0.
    pub type_vocab_size: usize,
}

impl BertConfig {
    /// Width of a head, `d / H`.
    pub fn d_head(&self) -> usize {
        self.hidden / self.heads
    }

    /// Number of `f32` weights the forward reads: the embeddings (word, position, one token-type
    /// row per type, their LayerNorm) and per layer `W_Q, W_K, W_V, W_O` (`d x d`) with biases,
    /// the feed-forward (`d_ff x d`, `d x d_ff`) with biases, two LayerNorms.
    pub fn weight_count(&self) -> u64 {
        let (d, ff) = (self.hidden as u64, self.intermediate as u64);
        let embeddings = (self.vocab_size + self.max_positions + self.type_vocab_size) as u64 * d + 2 * d;
        let layer = 4 * (d * d + d) + 2 * d * ff + ff + d + 4 * d;
        embeddings + self.layers as u64 * layer
    }

    /// The memory estimate of the lab for `n` tokens, in bytes: the weights, three
    /// `n x d_ff` activations and one variant's attention maps (`L H n^2`), all `f32`.
    pub fn memory_bytes(&self, n: usize) -> u64 {
        let n = n as u64;
        let activations = 3 * n * self.intermediate as u64;
        let maps = self.layers as u64 * self.heads as u64 * n * n;
        4 * (self.weight_count() + activations + maps)
    }

    /// Reads the text of a `config.json`. Refuses (naming the field) a `model_type` other than
    /// `"bert"`, an activation other than `"gelu"`, a missing or non-integer size, 0 heads, a
    /// hidden size not divisible by the heads, sizes above this module's limits, a
    /// non-positive or non-finite `layer_norm_eps`, or one that is 0 or subnormal in `f32`.
    pub fn parse(text: &str) -> Result<BertConfig, ModelError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| ModelError::Config { field: String::new(), why: format!("not valid JSON: {}", e) })?;
        let Some(obj) = value.as_object() else {
            return Err(ModelError::Config { field: String::new(), why: "must be a JSON object".into() });
        };
        match obj.get("model_type").and_then(Value::as_str) {
            Some("bert") => {}
            Some(other) => {
                return Err(err(
                    "model_type",
                    format!("is {:?}; the model lab runs BERT encoders only (model_type \"bert\")", other),
                ))
            }
            None => {
                return Err(err("model_type", "is missing; the model lab runs BERT encoders (model_type \"bert\")"))
            }
        }
        match obj.get("hidden_act").and_then(Value::as_str) {
            Some("gelu") => {}
            other => {
                return Err(err(
                    "hidden_act",
                    format!("is {:?}; the model lab runs the exact-erf \"gelu\" only", other.unwrap_or("missing")),
                ))
            }
        }
        if let Some(p) = obj.get("position_embedding_type") {
            if p.as_str() != Some("absolute") {
                return Err(err("position_embedding_type", format!("is {}; only \"absolute\" is supported", p)));
            }
        }
        let hidden = count(obj, "hidden_size", MAX_HIDDEN, None)?;
        let heads = count(obj, "num_attention_heads", MAX_HIDDEN, None)?;
        if hidden % heads != 0 {
            return Err(err(
                "num_attention_heads",
                format!(
                    "{} heads do not divide hidden_size {}; each head needs hidden_size / heads features",
                    heads, hidden
                ),
            ));
        }
        let layers = count(obj, "num_hidden_layers", MAX_LAYERS, None)?;
        let intermediate = count(obj, "intermediate_size", MAX_INTERMEDIATE, None)?;
        let max_positions = count(obj, "max_position_embeddings", MAX_POSITIONS, None)?;
        let vocab_size = count(obj, "vocab_size", MAX_VOCAB, None)?;
        let type_vocab_size = count(obj, "type_vocab_size", 1024, Some(2))?;
        let eps = match obj.get("layer_norm_eps") {
            Some(v) => v.as_f64().ok_or_else(|| err("layer_norm_eps", format!("is {}; must be a number", v)))?,
            None => return Err(err("layer_norm_eps", "is missing")),
        };
        if !(eps > 0.0 && eps < 1.0) {
            return Err(err("layer_norm_eps", format!("is {}; must be in (0, 1)", eps)));
        }
        // The forward adds the f32 value: 0 (1e-50) or a subnormal (1e-40) divides by about 0 on
        // a constant row instead of regularising it.
        if !(eps as f32).is_normal() {
            let e32 = eps as f32;
            let what = if e32 == 0.0 { "0".to_string() } else { format!("{:e}, a subnormal number,", e32) };
            return Err(err(
                "layer_norm_eps",
                format!(
                    "is {:.3e}, which is {} in f32 (the forward adds it in f32); must be at least {:e}, f32's smallest \
                     normal number",
                    eps,
                    what,
                    f32::MIN_POSITIVE
                ),
            ));
        }
        Ok(BertConfig {
            hidden,
            heads,
            layers,
            intermediate,
            layer_norm_eps: eps as f32,
            max_positions,
            vocab_size,
            type_vocab_size,
        })
    }
}

fn err(field: &str, why: impl Into<String>) -> ModelError {
    ModelError::Config { field: field.to_string(), why: why.into() }
}

/// A whole number `1..=max` in field `field` (`default` when the field is absent, if any).
fn count(obj: &Map<String, Value>, field: &str, max: usize, default: Option<usize>) -> Result<usize, ModelError> {
    let Some(v) = obj.get(field) else {
        return default.ok_or_else(|| err(field, "is missing"));
    };
    match v.as_u64() {
        Some(k) if k >= 1 && k <= max as u64 => Ok(k as usize),
        Some(k) => Err(err(field, format!("is {}; must be in 1..={}", k, max))),
        None => Err(err(field, format!("is {}; must be a whole number in 1..={}", v, max))),
    }
}
