//! The typed configuration of a depth-lab run (science.md §3-4): [`DepthConfig`], the values of
//! its keys, the architectures ([`Variant`], each a [`Block`] per layer), the presets' names and
//! the limits. Its canonical text form is `version=7&lab=depth&preset=NAME&key=value&...`:
//! [`super::parse`] reads and writes it.
//!
//! Every key (name, range, meaning, default) is defined once, in [`super::keys::DEPTH_TABLE`]; the
//! table of docs/links.md is written from it (`cargo xtask docs`). The cross-key checks are
//! [`DepthConfig::validate`]'s (`parse.rs`).
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

use crate::architecture::{self, Architecture};
use crate::link::ConfigError;
use serde::Serialize;

/// Largest sequence length `n`.
pub const MAX_TOKENS: usize = 512;
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

/// A named starting configuration of the depth lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DepthPreset {
    /// BERT-base at initialisation: 12 layers, 12 heads of 64, d_model 768, MLP 3072 with GELU,
    /// post-LN, weights N(0, 0.02^2), n = 128 Gaussian tokens (science.md §3).
    BertInit,
    /// A small stack (d_model 64, 4 heads, 32 tokens) in f64 that shows the doubly exponential
    /// collapse of SAN down to round-off in a fraction of a second.
    CollapseSmall,
    /// A user's text through a mid-sized random stack: context similarity statistics (science.md §4).
    ContextText,
    /// The particle model's `Q, K, V` as one head, its tokens as input: SAN+skip without
    /// LayerNorm is forward Euler of the particle ODE, one layer per step.
    ParticleEuler,
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

impl DepthConfig {
    /// The particle-lab configuration of the `particle` key (validated by [`DepthConfig::validate`]).
    pub fn particle_config(&self) -> Result<crate::particles::config::Config, ConfigError> {
        crate::particles::config::parse(&self.particle)
            .map_err(|e| ConfigError::new("particle", format!("not a valid particle configuration: {}", e)))
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
}

/// The architecture of one variant: which parts each layer has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Attention skip connection `X + SA(X)`.
    pub skip: bool,
    /// MLP sublayer.
    pub mlp: bool,
    /// The MLP's own skip connection `Y + MLP(Y)`.
    pub mlp_residual: bool,
    /// LayerNorm placement.
    pub layernorm: LayerNorm,
    /// MLP activation.
    pub activation: Activation,
}

/// An architecture of the stack (science.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Pure attention: no skip connections, no MLP.
    San,
    /// Attention and MLP, no skip connections at all.
    SanMlp,
    /// Attention with its skip connection, no MLP.
    SanSkip,
    /// The full transformer: attention and MLP, each with its skip connection.
    Transformer,
    /// As the keys `skip`, `mlp`, `mlp_residual` say.
    Configured,
}

/// All variants, in the order of the paper's figure, then `configured`.
pub const VARIANTS: [Variant; 5] =
    [Variant::San, Variant::SanMlp, Variant::SanSkip, Variant::Transformer, Variant::Configured];

impl Variant {
    /// The name in configuration strings: `san`, `san-mlp`, `san-skip`, `transformer`, `configured`.
    pub fn name(self) -> &'static str {
        self.architecture().name
    }

    /// The label in outputs and legends: `SAN`, `SAN+MLP`, `SAN+skip`, `transformer`, `configured`.
    pub fn label(self) -> &'static str {
        self.architecture().label
    }

    /// The shared names of the architecture ([`crate::architecture`]).
    pub fn architecture(self) -> Architecture {
        match self {
            Variant::San => architecture::SAN,
            Variant::SanMlp => architecture::SAN_MLP,
            Variant::SanSkip => architecture::SAN_SKIP,
            Variant::Transformer => architecture::TRANSFORMER,
            Variant::Configured => architecture::CONFIGURED,
        }
    }

    /// The label and what the variant's layer does in this lab, as legends say it (the model
    /// lab's SAN+MLP keeps the MLP's skip: `model::forward::Variant::legend`).
    pub fn legend(self) -> &'static str {
        match self {
            Variant::San => "SAN: attention only",
            Variant::SanMlp => "SAN+MLP: attention and MLP, no skips",
            Variant::SanSkip => "SAN+skip: attention with skip",
            Variant::Transformer => "transformer: skips and MLP",
            Variant::Configured => "configured: as the switches say",
        }
    }

    /// The variant named `name` (configuration name or label).
    pub fn from_name(name: &str) -> Option<Variant> {
        VARIANTS.iter().copied().find(|v| v.name() == name || v.label() == name)
    }

    /// The layer architecture: the paper's variants fix `skip`, `mlp` and `mlp_residual` (SAN+MLP
    /// has no skip anywhere, the transformer both); `layernorm` and `activation` always come from
    /// the configuration.
    pub fn block(self, c: &DepthConfig) -> Block {
        let (skip, mlp, mlp_residual) = match self {
            Variant::San => (false, false, false),
            Variant::SanMlp => (false, true, false),
            Variant::SanSkip => (true, false, false),
            Variant::Transformer => (true, true, true),
            Variant::Configured => (c.skip, c.mlp, c.mlp_residual),
        };
        Block { skip, mlp, mlp_residual, layernorm: c.layernorm, activation: c.activation }
    }
}

// In JSON as its label, read back with `Variant::from_name` (label or name).
crate::serde_as_label!(Variant, Variant::from_name, "depth");
