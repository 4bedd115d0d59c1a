//! The typed configuration of a depth-lab run (science.md §3-4) and its canonical text form
//! `version=7&lab=depth&preset=NAME&key=value&...`.
//!
//! Every key (name, range, meaning, default) is defined once, in [`super::keys::DEPTH_TABLE`]; the
//! table of docs/links.md is written from it (`cargo xtask docs`). Only the cross-key checks live here.
//!
//! Combined limits: `weights=particle` needs `heads = 1` and `d_head = d_model = d` of the
//! particle configuration; `input=particle` needs `tokens = n` and `d_model = d` of it. A layer
//! holds at most 2^24 weights (error on `d_model`); the records of a variant at most 2^25
//! attention entries `L H n^2` (error on `tokens`); a variant at most 2^37 multiply-adds (error on
//! `layers`; `bert-init` needs about 1.1e10). When a text sets `n` (`input=text`, or
//! `input=bert-embeddings` with a text), a `tokens` written in the link must equal the text's
//! token count (the error names `tokens` and the count) and the canonical form leaves it out.
//! The canonical string starts with `version=7` (a string without `version` is version 0,
//! migrated by [`crate::link::migrate`]: a version 2 `bert-init` link keeps its Gaussian input,
//! a version 0-3 link whose text sets `n` loses its ignored `tokens`, a version 0-5 link without
//! `preset` keeps `bert-init`, today's default being `collapse-small`); view keys follow the
//! model keys.

use super::input::{text_layout, MAX_TOKENS};
use super::keys::DEPTH_TABLE;
pub use super::presets::{DepthPreset, DEFAULT_TEXT, DEPTH_PRESETS};
use super::variants::Variant;
use crate::link::{keys, pick_preset, quote, ConfigError};
use crate::text::MAX_TEXT_BYTES;
use serde::Serialize;

/// Largest number of weights of one layer.
pub const MAX_LAYER_WEIGHTS: usize = 1 << 24;
/// Largest `layers * heads * n^2` (attention entries recorded per variant).
pub const MAX_ATTENTION_ENTRIES: usize = 1 << 25;
/// Largest number of multiply-adds of one variant's forward pass.
pub const MAX_MULTIPLY_ADDS: u64 = 1 << 37;
/// Longest `particle` configuration (canonical form, bytes), so that the depth configuration's
/// canonical string stays within the configuration length limit. Larger explicit token sets go
/// through [`super::DepthRun::with_tokens`].
pub const MAX_PARTICLE_BYTES: usize = 1 << 18;

crate::named_enum! {
    /// MLP activation.
    pub enum Activation {
        /// `max(0, x)`.
        Relu = "relu",
        /// `x Phi(x) = x (1 + erf(x / sqrt 2)) / 2` (BERT's exact GELU).
        Gelu = "gelu",
        /// `tanh x`.
        Tanh = "tanh",
    }
}

crate::named_enum! {
    /// Where LayerNorm sits (science.md §3: "LayerNorm does not help").
    pub enum LayerNorm {
        /// No normalisation.
        None = "none",
        /// On the input of each sublayer: `X + SA(LN(X))`.
        Pre = "pre",
        /// After each sublayer and its skip: `LN(X + SA(X))` (BERT).
        Post = "post",
    }
}

crate::named_enum! {
    /// Where the layer weights come from.
    pub enum WeightsSource {
        /// Seeded Gaussian entries (`weight_scale`, `qk_scale`, `bias_scale`).
        Random = "random",
        /// One head from the particle model's `Q, K, V`, `beta`, `dt` (see [`super::weights`]).
        Particle = "particle",
    }
}

crate::named_enum! {
    /// Where the input tokens come from.
    pub enum InputSource {
        /// Entries i.i.d. N(0, 1) from the seed.
        Gaussian = "gaussian",
        /// The particle configuration's initial tokens, or tokens handed to `DepthRun::with_tokens`.
        Particle = "particle",
        /// The `text`, embedded deterministically (see [`super::input`]).
        Text = "text",
        /// BERT's input embeddings at initialisation ([`super::embeddings`]): random token ids, or
        /// those of `text` when it is not empty.
        BertEmbeddings = "bert-embeddings",
    }
}

crate::named_enum! {
    /// How the context similarity matrix is normalised before pairs are selected (science.md §4).
    pub enum SimilarityNorm {
        /// `S_ij = <o_i, o_j>`.
        Raw = "raw",
        /// `S_ij / max_{k != l} |S_kl|`.
        MaxAbs = "max-abs",
        /// `S_ij / (|o_i| |o_j|)` (0 when either is 0).
        Cosine = "cosine",
    }
}

pub use crate::collapse::similarity::Select;

crate::named_enum! {
    /// The centre `x` of the residual `res(X) = X - 1 x^T` (science.md §3).
    pub enum ResidualDef {
        /// The mean of the tokens (the published figure).
        Mean = "mean",
        /// The minimiser of `||X - 1 x^T||_{1,inf}` (the paper's definition; computed as in [`super::rank::argmin_residual`]).
        Argmin = "argmin",
    }
}

crate::named_enum! {
    /// Floating-point type of the transformer stack.
    pub enum Precision {
        /// Single precision (BERT's own): fast; residuals bottom out near 1e-7.
        F32 = "f32",
        /// Double precision: residuals follow the collapse down to about 1e-15.
        F64 = "f64",
    }
}

impl Precision {
    /// The unit round-off of the type (`2^-24` for `f32`, `2^-53` for `f64`): the relative
    /// error of one rounding, near which a collapsed stack's residual stops falling.
    pub fn unit_round_off(self) -> f64 {
        match self {
            Precision::F32 => (f32::EPSILON / 2.0) as f64,
            Precision::F64 => f64::EPSILON / 2.0,
        }
    }
}

/// One complete, validated depth-lab configuration. See the module documentation for every key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DepthConfig {
    /// The preset the configuration starts from.
    pub preset: DepthPreset,
    /// Depth `L`, 1..=48.
    pub layers: usize,
    /// Heads per layer `H`, 1..=16.
    pub heads: usize,
    /// Token width, 1..=1024.
    pub d_model: usize,
    /// Head width, 1..=256.
    pub d_head: usize,
    /// Sequence length `n` for Gaussian and particle input, 2..=512.
    pub tokens: usize,
    /// Attention skip connection (`configured` variant).
    pub skip: bool,
    /// MLP block (`configured` variant).
    pub mlp: bool,
    /// MLP hidden width, 1..=4096.
    pub mlp_width: usize,
    /// MLP activation.
    pub activation: Activation,
    /// The MLP's own skip connection (`configured` variant).
    pub mlp_residual: bool,
    /// LayerNorm placement (every variant).
    pub layernorm: LayerNorm,
    /// Standard deviation of `W_V`, `W_O`, `W_1`, `W_2`, in (0, 10].
    pub weight_scale: f64,
    /// Standard deviation of `W_Q`, `W_K`, in (0, 10].
    pub qk_scale: f64,
    /// Standard deviation of the biases, in [0, 10]; 0 = no biases.
    pub bias_scale: f64,
    /// One set of weights for every layer.
    pub shared: bool,
    /// Source of the attention weights.
    pub weights: WeightsSource,
    /// The particle-lab configuration (canonical form) for `weights=particle` / `input=particle`.
    pub particle: String,
    /// Source of the input tokens.
    pub input: InputSource,
    /// The text for `input=text`.
    pub text: String,
    /// Sentence lengths (empty = automatic).
    pub sentences: Vec<usize>,
    /// Separator tokens / marks.
    pub separators: bool,
    /// Normalisation of `S`.
    pub similarity_norm: SimilarityNorm,
    /// Pair selection rule.
    pub select: Select,
    /// Quantile for `select=quantile`, in (0, 1).
    pub quantile: f64,
    /// Threshold for `select=threshold` (finite).
    pub threshold: f64,
    /// Centre of the residual.
    pub residual_def: ResidualDef,
    /// Floating-point type of the stack.
    pub precision: Precision,
    /// PRNG seed.
    pub seed: u32,
    /// Variants run, in order (non-empty, no repeats).
    pub variants: Vec<Variant>,
}

impl Default for DepthConfig {
    /// The default preset's configuration, `collapse-small` (what an empty string opens).
    fn default() -> Self {
        <DepthPreset as crate::link::LabPreset>::DEFAULT.config()
    }
}

impl std::str::FromStr for DepthConfig {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        parse(s)
    }
}

impl std::fmt::Display for DepthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_canonical_string())
    }
}

/// Parses `key=value&...` into a validated depth configuration (an optional leading `#` or `?` is
/// ignored; values may be percent-encoded). `lab` must be absent or `depth`; `preset=` (default
/// `bert-init`) fills every key first, whatever its position; the other keys override it.
/// Refuses, never clamps; the error names the offending key and what is allowed. Never panics.
///
/// View keys ([`crate::view::DEPTH_VIEW`]) are validated and left out of the result; see
/// [`parse_with_view`].
pub fn parse(text: &str) -> Result<DepthConfig, ConfigError> {
    parse_with_view(text).map(|(c, _)| c)
}

/// [`parse`], also returning the view keys as a [`crate::view::View`].
pub fn parse_with_view(text: &str) -> Result<(DepthConfig, crate::view::View), ConfigError> {
    let spec = &crate::view::DEPTH_VIEW;
    let keys = crate::view::with_view_keys(&keys::key_names(DEPTH_TABLE), spec);
    let (view_pairs, pairs) = crate::view::split_off_view(crate::link::split_pairs(text, &keys, "depth")?, spec);
    let preset: DepthPreset = pick_preset(&pairs)?;
    let base = preset.config();
    let mut c = base.clone();
    for (key, value) in &pairs {
        if *key != "preset" {
            super::keys::apply(&mut c, key, value)?;
        }
    }
    c.validate()?;
    if c.uses_text() {
        // The text sets `n`: a `tokens` written in the link must say the same (version 4; an
        // older link's was ignored and is dropped by `migrate`), and is then not part of the
        // configuration (the canonical form leaves it out). A preset's `tokens` is not checked.
        if let Some((_, written)) = pairs.iter().find(|(k, _)| *k == "tokens") {
            let n = c.n();
            if c.tokens != n {
                return Err(ConfigError::new(
                    "tokens",
                    format!(
                        "{} is not the text's token count; the text sets n = {} tokens (with its markers): leave tokens out, or write tokens={}",
                        quote(written),
                        n,
                        n
                    ),
                ));
            }
        }
        c.tokens = base.tokens;
    }
    let view = crate::view::parse_view(spec, &view_pairs, crate::view::ViewContext::default())?;
    Ok((c, view))
}

impl DepthConfig {
    /// The particle-lab configuration of the `particle` key (validated by [`DepthConfig::validate`]).
    pub fn particle_config(&self) -> Result<crate::particles::config::Config, ConfigError> {
        crate::particles::config::parse(&self.particle)
            .map_err(|e| ConfigError::new("particle", format!("not a valid particle configuration: {}", e)))
    }

    /// The sequence length `n` of a run: the token count of the text (with markers) for
    /// `input=text`, else `tokens`. Assumes a validated configuration (0 for a text without tokens).
    pub fn n(&self) -> usize {
        if self.uses_text() {
            text_layout(&self.text, &self.sentences, self.separators).map(|l| l.labels.len()).unwrap_or(0)
        } else {
            self.tokens
        }
    }

    /// Whether the input is laid out from `text`: `input=text`, or `input=bert-embeddings` with a
    /// text (the text's tokens, sentences and separators; `tokens` is then unused).
    pub fn uses_text(&self) -> bool {
        self.input == InputSource::Text || (self.input == InputSource::BertEmbeddings && !self.text.is_empty())
    }

    /// Weights of one layer (attention always, MLP when `mlp_width` is used).
    pub fn layer_weights(&self) -> usize {
        let (d, hd, w) = (self.d_model, self.heads * self.d_head, self.mlp_width);
        4 * d * hd + 3 * hd + d + 2 * d * w + w + d
    }

    /// Multiply-adds of one forward pass of the full transformer at sequence length `n`
    /// (projections, scores, `P V`, `W_O`, MLP).
    pub fn multiply_adds(&self, n: usize) -> u64 {
        let (n, d, hd, w) = (n as u64, self.d_model as u64, (self.heads * self.d_head) as u64, self.mlp_width as u64);
        let per_layer = 3 * n * d * hd + 2 * n * n * hd + n * hd * d + 2 * n * d * w;
        per_layer * self.layers as u64
    }

    /// Checks every range and combination (see the module documentation).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let c = self;
        keys::check_ranges(DEPTH_TABLE, c)?;
        if c.text.len() > MAX_TEXT_BYTES {
            return Err(ConfigError::new(
                "text",
                format!("{} bytes long; at most {} are allowed", c.text.len(), MAX_TEXT_BYTES),
            ));
        }
        if c.variants.is_empty() {
            return Err(ConfigError::new("variants", "at least one variant is needed"));
        }
        for (i, v) in c.variants.iter().enumerate() {
            if c.variants[..i].contains(v) {
                return Err(ConfigError::new("variants", format!("{} appears more than once", v.name())));
            }
        }
        if c.sentences.len() > MAX_TOKENS || c.sentences.iter().any(|&s| s == 0 || s > MAX_TOKENS) {
            return Err(ConfigError::new(
                "sentences",
                format!("each sentence length must be in 1..={} (at most {} sentences)", MAX_TOKENS, MAX_TOKENS),
            ));
        }
        super::keys::check_particle_len(&c.particle)?;
        let particle = c.particle_config()?;
        if c.weights == WeightsSource::Particle {
            if c.heads != 1 {
                return Err(ConfigError::new(
                    "heads",
                    format!("{} heads; weights=particle is one head: set heads=1", c.heads),
                ));
            }
            if c.d_model != particle.d {
                return Err(ConfigError::new(
                    "d_model",
                    format!(
                        "{}; weights=particle needs d_model = d of the particle configuration = {}",
                        c.d_model, particle.d
                    ),
                ));
            }
            if c.d_head != c.d_model {
                return Err(ConfigError::new(
                    "d_head",
                    format!("{}; weights=particle needs d_head = d_model = {}", c.d_head, c.d_model),
                ));
            }
        }
        let n = match c.input {
            InputSource::Particle => {
                if c.tokens != particle.n {
                    return Err(ConfigError::new(
                        "tokens",
                        format!(
                            "{}; input=particle needs tokens = n of the particle configuration = {}",
                            c.tokens, particle.n
                        ),
                    ));
                }
                if c.d_model != particle.d {
                    return Err(ConfigError::new(
                        "d_model",
                        format!(
                            "{}; input=particle needs d_model = d of the particle configuration = {}",
                            c.d_model, particle.d
                        ),
                    ));
                }
                c.tokens
            }
            _ if c.uses_text() => text_layout(&c.text, &c.sentences, c.separators)?.labels.len(),
            _ => c.tokens,
        };
        if !c.uses_text() && !c.sentences.is_empty() {
            let total: usize = c.sentences.iter().sum();
            if total != n {
                return Err(ConfigError::new(
                    "sentences",
                    format!("the lengths sum to {} but the sequence has {} tokens", total, n),
                ));
            }
        }
        if c.layer_weights() > MAX_LAYER_WEIGHTS {
            return Err(ConfigError::new(
                "d_model",
                format!(
                    "a layer would hold {} weights; at most {} are allowed: lower d_model, heads, d_head or mlp_width",
                    c.layer_weights(),
                    MAX_LAYER_WEIGHTS
                ),
            ));
        }
        let entries = c.layers * c.heads * n * n;
        if entries > MAX_ATTENTION_ENTRIES {
            return Err(ConfigError::new(
                "tokens",
                format!("layers x heads x n^2 = {} attention entries; at most {} are allowed: lower tokens (or the text), heads or layers", entries, MAX_ATTENTION_ENTRIES),
            ));
        }
        if c.multiply_adds(n) > MAX_MULTIPLY_ADDS {
            return Err(ConfigError::new(
                "layers",
                format!("a forward pass would take {:.3e} multiply-adds; at most {:.3e} are allowed: lower layers, d_model, mlp_width or tokens", c.multiply_adds(n) as f64, MAX_MULTIPLY_ADDS as f64),
            ));
        }
        Ok(())
    }

    /// The `(key, value)` pairs of every key, in canonical order (`lab`, `preset` first); values
    /// as written in the canonical string (text-like values percent-encoded).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        keys::pairs(DEPTH_TABLE, self)
    }

    /// The canonical string: `version=7&lab=depth&preset=NAME` followed by the keys whose value differs
    /// from that preset, in the order of [`DepthConfig::pairs`] (never `tokens` when a text sets
    /// `n`). `parse(&c.to_canonical_string()) == Ok(c)` for a parsed configuration.
    pub fn to_canonical_string(&self) -> String {
        let prefix = format!("lab=depth&preset={}", self.preset.name());
        crate::link::canonical_string(
            crate::link::VERSION,
            prefix,
            &self.canonical_pairs(),
            &self.preset.config().pairs(),
            2,
        )
    }

    /// The keys (other than `lab` and `preset`) whose value differs from the preset's:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.canonical_pairs(), self.preset.config().pairs(), 2)
    }

    /// [`DepthConfig::pairs`] as the canonical form writes them: when a text sets `n`
    /// ([`DepthConfig::uses_text`]), `tokens` is the preset's (so it is not written).
    fn canonical_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.pairs();
        if self.uses_text() {
            if let Some(p) = pairs.iter_mut().find(|(k, _)| *k == "tokens") {
                p.1 = self.preset.config().tokens.to_string();
            }
        }
        pairs
    }
}
