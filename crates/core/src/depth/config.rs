//! The typed configuration of a depth-lab run (science.md §3-4) and its canonical text form
//! `version=2&lab=depth&preset=NAME&key=value&...`.
//!
//! Keys, in canonical order after `lab` and `preset` (ranges inclusive unless marked open):
//!
//! | key | meaning | allowed | `bert-init` |
//! |---|---|---|---|
//! | `layers` | depth `L` | 1..=48 | 12 |
//! | `heads` | heads per layer `H` | 1..=16 | 12 |
//! | `d_model` | token width | 1..=1024 | 768 |
//! | `d_head` | width of a head's queries, keys, values | 1..=256 | 64 |
//! | `tokens` | sequence length `n` (unused with `input=text`: the text sets `n`) | 2..=512 | 128 |
//! | `skip` | attention skip connection of the `configured` variant | on, off | on |
//! | `mlp` | MLP block of the `configured` variant | on, off | on |
//! | `mlp_width` | hidden width of the MLP | 1..=4096 | 3072 |
//! | `activation` | MLP activation | relu, gelu (exact, erf), tanh | gelu |
//! | `mlp_residual` | the MLP's own skip connection (`configured` variant) | on, off | on |
//! | `layernorm` | LayerNorm placement | none, pre, post | post |
//! | `weight_scale` | standard deviation of `W_V`, `W_O`, MLP weights | (0, 10] | 0.02 |
//! | `qk_scale` | standard deviation of `W_Q`, `W_K` | (0, 10] | 0.02 |
//! | `bias_scale` | standard deviation of every bias; 0 = bias-free | [0, 10] | 0 |
//! | `shared` | one set of layer weights for every layer (ALBERT-like) | on, off | off |
//! | `weights` | `random` (seeded), or `particle`: `Q, K, V` of the particle model (see [`super::weights`]) | random, particle | random |
//! | `particle` | the particle-lab configuration used by `weights=particle` / `input=particle` (percent-encoded; empty = its default preset; kept in its canonical form) | a valid particle configuration, at most 262144 bytes | `version=2&preset=polytope` |
//! | `input` | input tokens: seeded `gaussian` N(0, 1), the `particle` configuration's initial tokens (or tokens handed to [`super::DepthRun::with_tokens`]), or `text` | gaussian, particle, text | gaussian |
//! | `text` | the text for `input=text` (percent-encoded), see [`super::input`] | at most 20000 bytes | empty |
//! | `sentences` | sentence lengths in tokens, comma-separated (text: counted without markers); empty = automatic (text: from its punctuation; otherwise one sentence) | each 1..=512, summing to the token count | empty |
//! | `separators` | text: insert `[CLS]` first and `[SEP]` after each sentence; other inputs: mark each sentence's last token as a separator | on, off | on |
//! | `similarity_norm` | context similarity `S = O O^T` shown as `raw`, `max-abs` (divided by the largest off-diagonal abs) or `cosine` | raw, max-abs, cosine | raw |
//! | `select` | high-similarity pairs: the top `quantile` or `S >= threshold` | quantile, threshold | quantile |
//! | `quantile` | pairs above this quantile of a head's `n(n-1)/2` pairs are high (0.99: the top 1%) | (0, 1) | 0.99 |
//! | `threshold` | pairs with normalised `S_ij >= threshold` are high | finite | 0.9 |
//! | `residual_def` | `res(X) = X - 1 x^T` with `x` the `mean` of the tokens or the `argmin` of the composite norm (see [`super::rank`]) | mean, argmin | mean |
//! | `precision` | floating-point type of the stack | f32, f64 | f32 |
//! | `seed` | PRNG seed (weights and Gaussian input) | 0..=4294967295 | 1 |
//! | `variants` | variants run, in this order, comma-separated | san, san-mlp, san-skip, transformer, configured | san,san-mlp,san-skip,transformer |
//!
//! Combined limits: `weights=particle` needs `heads = 1` and `d_head = d_model = d` of the
//! particle configuration; `input=particle` needs `tokens = n` and `d_model = d` of it. A layer
//! holds at most 2^24 weights (error on `d_model`); the records of a variant at most 2^25
//! attention entries `L H n^2` (error on `tokens`); a variant at most 2^37 multiply-adds (error on
//! `layers`; `bert-init` needs about 1.1e10). The canonical string starts with `version=2` (a string without `version` is
//! version 0, migrated by [`crate::link::migrate`]; this lab's numbers do not depend on it); view keys follow the model keys.

use super::input::{text_layout, MAX_TOKENS};
use super::variants::{Variant, VARIANTS};
use crate::link::encode_value;
use crate::link::values::{self, count, float};
use crate::link::{format_f64, parse_float, pick_preset, shorten, ConfigError};
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

/// MLP activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Activation {
    /// `max(0, x)`.
    Relu,
    /// `x Phi(x) = x (1 + erf(x / sqrt 2)) / 2` (BERT's exact GELU).
    Gelu,
    /// `tanh x`.
    Tanh,
}

/// Where LayerNorm sits (science.md §3: "LayerNorm does not help").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayerNorm {
    /// No normalisation.
    None,
    /// On the input of each sublayer: `X + SA(LN(X))`.
    Pre,
    /// After each sublayer and its skip: `LN(X + SA(X))` (BERT).
    Post,
}

/// Where the layer weights come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeightsSource {
    /// Seeded Gaussian entries (`weight_scale`, `qk_scale`, `bias_scale`).
    Random,
    /// One head from the particle model's `Q, K, V`, `beta`, `dt` (see [`super::weights`]).
    Particle,
}

/// Where the input tokens come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputSource {
    /// Entries i.i.d. N(0, 1) from the seed.
    Gaussian,
    /// The particle configuration's initial tokens, or tokens handed to `DepthRun::with_tokens`.
    Particle,
    /// The `text`, embedded deterministically (see [`super::input`]).
    Text,
}

/// How the context similarity matrix is normalised before pairs are selected (science.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SimilarityNorm {
    /// `S_ij = <o_i, o_j>`.
    Raw,
    /// `S_ij / max_{k != l} |S_kl|`.
    MaxAbs,
    /// `S_ij / (|o_i| |o_j|)` (0 when either is 0).
    Cosine,
}

/// How high-similarity pairs are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    /// The top `1 - quantile` share of pairs (at least one pair).
    Quantile,
    /// Pairs with normalised `S_ij >= threshold`.
    Threshold,
}

/// The centre `x` of the residual `res(X) = X - 1 x^T` (science.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResidualDef {
    /// The mean of the tokens (the published figure).
    Mean,
    /// The minimiser of `||X - 1 x^T||_{1,inf}` (the paper's definition; computed as in [`super::rank::argmin_residual`]).
    Argmin,
}

/// Floating-point type of the transformer stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Precision {
    /// Single precision (BERT's own): fast; residuals bottom out near 1e-7.
    F32,
    /// Double precision: residuals follow the collapse down to about 1e-15.
    F64,
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

/// All depth presets, in the order the page lists them.
pub const DEPTH_PRESETS: [DepthPreset; 4] =
    [DepthPreset::BertInit, DepthPreset::CollapseSmall, DepthPreset::ContextText, DepthPreset::ParticleEuler];

/// The text of the `context-text` preset.
pub const DEFAULT_TEXT: &str = "The cat sat on the mat. It looked at the door and waited for a long time. \
When the door opened, the cat ran into the garden! Birds sang in the old tree, and the cat listened. \
Was it hungry? It walked back to the house, drank some milk, and fell asleep on the warm mat.";

impl crate::link::LabPreset for DepthPreset {
    const NOUN: &'static str = "depth preset";
    const DEFAULT: Self = DepthPreset::BertInit;
    fn all() -> &'static [Self] {
        &DEPTH_PRESETS
    }
    fn name(self) -> &'static str {
        DepthPreset::name(self)
    }
    fn description(self) -> &'static str {
        DepthPreset::description(self)
    }
    fn pairs(self) -> Vec<(&'static str, String)> {
        self.config().pairs()
    }
}

impl DepthPreset {
    /// The preset's name in configuration strings.
    pub fn name(self) -> &'static str {
        match self {
            DepthPreset::BertInit => "bert-init",
            DepthPreset::CollapseSmall => "collapse-small",
            DepthPreset::ContextText => "context-text",
            DepthPreset::ParticleEuler => "particle-euler",
        }
    }

    /// What the preset demonstrates, in one sentence.
    pub fn description(self) -> &'static str {
        match self {
            DepthPreset::BertInit => "BERT-base at initialisation (12 x 12 heads, d_model 768, post-LN, N(0, 0.02^2)): pure attention collapses to rank 1 within two layers, skip connections keep the tokens apart (Dong et al. 2021).",
            DepthPreset::CollapseSmall => "A small f64 stack: without skip connections the residual falls doubly exponentially, to round-off within a few layers; MLPs slow it, skips stop it (Dong et al. 2021).",
            DepthPreset::ContextText => "Context similarity S = O O^T of each head's output on a text: distance histogram, same-sentence fraction against chance, each head's most frequent token, attention on separators (Halevi et al. 2025).",
            DepthPreset::ParticleEuler => "The particle model's Q, K, V as one attention head: SAN+skip without LayerNorm is forward Euler of the particle ODE, one layer per step; SAN is the same without the skip.",
        }
    }

    /// The preset's full configuration.
    pub fn config(self) -> DepthConfig {
        let base = DepthConfig {
            preset: self,
            layers: 12,
            heads: 12,
            d_model: 768,
            d_head: 64,
            tokens: 128,
            skip: true,
            mlp: true,
            mlp_width: 3072,
            activation: Activation::Gelu,
            mlp_residual: true,
            layernorm: LayerNorm::Post,
            weight_scale: 0.02,
            qk_scale: 0.02,
            bias_scale: 0.0,
            shared: false,
            weights: WeightsSource::Random,
            particle: crate::particles::config::Preset::Polytope.config().to_canonical_string(),
            input: InputSource::Gaussian,
            text: String::new(),
            sentences: Vec::new(),
            separators: true,
            similarity_norm: SimilarityNorm::Raw,
            select: Select::Quantile,
            quantile: 0.99,
            threshold: 0.9,
            residual_def: ResidualDef::Mean,
            precision: Precision::F32,
            seed: 1,
            variants: VARIANTS[..4].to_vec(),
        };
        match self {
            DepthPreset::BertInit => base,
            DepthPreset::CollapseSmall => DepthConfig {
                heads: 4,
                d_model: 64,
                d_head: 16,
                tokens: 32,
                mlp_width: 256,
                weight_scale: 0.08,
                qk_scale: 0.125,
                precision: Precision::F64,
                ..base
            },
            DepthPreset::ContextText => DepthConfig {
                layers: 12,
                heads: 8,
                d_model: 256,
                d_head: 32,
                mlp_width: 1024,
                input: InputSource::Text,
                text: DEFAULT_TEXT.to_string(),
                quantile: 0.98,
                variants: vec![Variant::Transformer, Variant::SanSkip, Variant::SanMlp, Variant::San],
                ..base
            },
            DepthPreset::ParticleEuler => DepthConfig {
                layers: 48,
                heads: 1,
                d_model: 2,
                d_head: 2,
                tokens: 20,
                mlp: false,
                mlp_width: 8,
                layernorm: LayerNorm::None,
                weights: WeightsSource::Particle,
                input: InputSource::Particle,
                precision: Precision::F64,
                quantile: 0.9,
                variants: vec![Variant::SanSkip, Variant::San],
                ..base
            },
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
    /// The `bert-init` preset.
    fn default() -> Self {
        DepthPreset::BertInit.config()
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

/// The keys a depth configuration may contain, in canonical order.
pub const DEPTH_KEYS: [&str; 32] = [
    "version",
    "lab",
    "preset",
    "layers",
    "heads",
    "d_model",
    "d_head",
    "tokens",
    "skip",
    "mlp",
    "mlp_width",
    "activation",
    "mlp_residual",
    "layernorm",
    "weight_scale",
    "qk_scale",
    "bias_scale",
    "shared",
    "weights",
    "particle",
    "input",
    "text",
    "sentences",
    "separators",
    "similarity_norm",
    "select",
    "quantile",
    "threshold",
    "residual_def",
    "precision",
    "seed",
    "variants",
];

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
    let keys = crate::view::with_view_keys(&DEPTH_KEYS, spec);
    let (view_pairs, pairs) = crate::view::split_off_view(crate::link::split_pairs(text, &keys, "depth")?, spec);
    let preset: DepthPreset = pick_preset(&pairs)?;
    let mut c = preset.config();
    for (key, value) in &pairs {
        apply(&mut c, key, value)?;
    }
    c.validate()?;
    let view = crate::view::parse_view(spec, &view_pairs, crate::view::ViewContext::default())?;
    Ok((c, view))
}

fn choice<T: Copy>(key: &str, value: &str, options: &[(&str, T)]) -> Result<T, ConfigError> {
    options.iter().find(|(name, _)| *name == value).map(|(_, v)| *v).ok_or_else(|| {
        let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
        ConfigError::new(key, format!("{:?} is not allowed; allowed: {}", shorten(value), names.join(", ")))
    })
}

fn switch(key: &str, value: &str) -> Result<bool, ConfigError> {
    choice(key, value, &[("on", true), ("off", false)])
}

fn scale_ok(x: f64) -> bool {
    x > 0.0 && x <= 10.0
}

fn apply(c: &mut DepthConfig, key: &'static str, value: &str) -> Result<(), ConfigError> {
    match key {
        "preset" => {}
        "lab" => values::lab(key, value, "depth")?,
        "layers" => c.layers = count(key, value, 1, 48)?,
        "heads" => c.heads = count(key, value, 1, 16)?,
        "d_model" => c.d_model = count(key, value, 1, 1024)?,
        "d_head" => c.d_head = count(key, value, 1, 256)?,
        "tokens" => c.tokens = count(key, value, 2, MAX_TOKENS)?,
        "skip" => c.skip = switch(key, value)?,
        "mlp" => c.mlp = switch(key, value)?,
        "mlp_width" => c.mlp_width = count(key, value, 1, 4096)?,
        "activation" => {
            c.activation = choice(
                key,
                value,
                &[("relu", Activation::Relu), ("gelu", Activation::Gelu), ("tanh", Activation::Tanh)],
            )?
        }
        "mlp_residual" => c.mlp_residual = switch(key, value)?,
        "layernorm" => {
            c.layernorm =
                choice(key, value, &[("none", LayerNorm::None), ("pre", LayerNorm::Pre), ("post", LayerNorm::Post)])?
        }
        "weight_scale" => c.weight_scale = float(key, value, scale_ok, "0 < weight_scale <= 10")?,
        "qk_scale" => c.qk_scale = float(key, value, scale_ok, "0 < qk_scale <= 10")?,
        "bias_scale" => c.bias_scale = float(key, value, |x| (0.0..=10.0).contains(&x), "0 <= bias_scale <= 10")?,
        "shared" => c.shared = switch(key, value)?,
        "weights" => {
            c.weights = choice(key, value, &[("random", WeightsSource::Random), ("particle", WeightsSource::Particle)])?
        }
        "particle" => {
            let inner = if value.is_empty() { "preset=polytope" } else { value };
            let p = crate::particles::config::parse(inner)
                .map_err(|e| ConfigError::new(key, format!("not a valid particle configuration: {}", e)))?;
            c.particle = p.to_canonical_string();
            check_particle_len(&c.particle)?;
        }
        "input" => {
            c.input = choice(
                key,
                value,
                &[
                    ("gaussian", InputSource::Gaussian),
                    ("particle", InputSource::Particle),
                    ("text", InputSource::Text),
                ],
            )?
        }
        "text" => c.text = values::text(key, value, MAX_TEXT_BYTES)?,
        "sentences" => {
            c.sentences = if value.is_empty() {
                Vec::new()
            } else {
                let parts: Vec<&str> = value.split(',').collect();
                if parts.len() > MAX_TOKENS {
                    return Err(ConfigError::new(
                        key,
                        format!("{} sentences; at most {} are allowed", parts.len(), MAX_TOKENS),
                    ));
                }
                parts.iter().map(|s| count(key, s.trim(), 1, MAX_TOKENS)).collect::<Result<Vec<_>, _>>().map_err(
                    |e| {
                        ConfigError::new(
                            key,
                            format!("each sentence length must be a whole number in 1..={}: {}", MAX_TOKENS, e.message),
                        )
                    },
                )?
            }
        }
        "separators" => c.separators = switch(key, value)?,
        "similarity_norm" => {
            c.similarity_norm = choice(
                key,
                value,
                &[
                    ("raw", SimilarityNorm::Raw),
                    ("max-abs", SimilarityNorm::MaxAbs),
                    ("cosine", SimilarityNorm::Cosine),
                ],
            )?
        }
        "select" => c.select = choice(key, value, &[("quantile", Select::Quantile), ("threshold", Select::Threshold)])?,
        "quantile" => c.quantile = float(key, value, |x| x > 0.0 && x < 1.0, "0 < quantile < 1")?,
        "threshold" => c.threshold = parse_float(key, value)?,
        "residual_def" => {
            c.residual_def = choice(key, value, &[("mean", ResidualDef::Mean), ("argmin", ResidualDef::Argmin)])?
        }
        "precision" => c.precision = choice(key, value, &[("f32", Precision::F32), ("f64", Precision::F64)])?,
        "seed" => c.seed = values::seed(key, value)?,
        "variants" => {
            let mut list = Vec::new();
            for name in value.split(',') {
                let v = Variant::from_name(name.trim()).ok_or_else(|| {
                    let names: Vec<&str> = VARIANTS.iter().map(|v| v.name()).collect();
                    ConfigError::new(
                        key,
                        format!(
                            "{:?} is not a variant; allowed (comma-separated): {}",
                            shorten(name),
                            names.join(", ")
                        ),
                    )
                })?;
                if list.contains(&v) {
                    return Err(ConfigError::new(key, format!("{} appears more than once", v.name())));
                }
                list.push(v);
            }
            c.variants = list;
        }
        _ => return Err(ConfigError::new(key, "unknown key")),
    }
    Ok(())
}

fn check_particle_len(particle: &str) -> Result<(), ConfigError> {
    if particle.len() > MAX_PARTICLE_BYTES {
        return Err(ConfigError::new(
            "particle",
            format!("the particle configuration is {} bytes long; at most {} are allowed (hand large token sets to the run directly)", particle.len(), MAX_PARTICLE_BYTES),
        ));
    }
    Ok(())
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
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
        match self.input {
            InputSource::Text => {
                text_layout(&self.text, &self.sentences, self.separators).map(|l| l.labels.len()).unwrap_or(0)
            }
            _ => self.tokens,
        }
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
        let check = |key: &str, v: usize, lo: usize, hi: usize| {
            if v < lo || v > hi {
                Err(ConfigError::new(key, format!("{} is out of range; allowed: {}..={}", v, lo, hi)))
            } else {
                Ok(())
            }
        };
        check("layers", c.layers, 1, 48)?;
        check("heads", c.heads, 1, 16)?;
        check("d_model", c.d_model, 1, 1024)?;
        check("d_head", c.d_head, 1, 256)?;
        check("tokens", c.tokens, 2, MAX_TOKENS)?;
        check("mlp_width", c.mlp_width, 1, 4096)?;
        let in_range = |key: &str, x: f64, ok: bool, allowed: &str| {
            if ok && x.is_finite() {
                Ok(())
            } else {
                Err(ConfigError::new(key, format!("{} is out of range; allowed: {}", format_f64(x), allowed)))
            }
        };
        in_range("weight_scale", c.weight_scale, scale_ok(c.weight_scale), "0 < weight_scale <= 10")?;
        in_range("qk_scale", c.qk_scale, scale_ok(c.qk_scale), "0 < qk_scale <= 10")?;
        in_range("bias_scale", c.bias_scale, (0.0..=10.0).contains(&c.bias_scale), "0 <= bias_scale <= 10")?;
        in_range("quantile", c.quantile, c.quantile > 0.0 && c.quantile < 1.0, "0 < quantile < 1")?;
        in_range("threshold", c.threshold, true, "a finite number")?;
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
        check_particle_len(&c.particle)?;
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
            InputSource::Gaussian => c.tokens,
            InputSource::Text => text_layout(&c.text, &c.sentences, c.separators)?.labels.len(),
        };
        if c.input != InputSource::Text && !c.sentences.is_empty() {
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
        let name = |options: &[(&'static str, bool)]| {
            options.iter().find(|(_, b)| *b).map(|(n, _)| n.to_string()).unwrap_or_default()
        };
        vec![
            ("lab", "depth".to_string()),
            ("preset", self.preset.name().to_string()),
            ("layers", self.layers.to_string()),
            ("heads", self.heads.to_string()),
            ("d_model", self.d_model.to_string()),
            ("d_head", self.d_head.to_string()),
            ("tokens", self.tokens.to_string()),
            ("skip", on_off(self.skip)),
            ("mlp", on_off(self.mlp)),
            ("mlp_width", self.mlp_width.to_string()),
            (
                "activation",
                name(&[
                    ("relu", self.activation == Activation::Relu),
                    ("gelu", self.activation == Activation::Gelu),
                    ("tanh", self.activation == Activation::Tanh),
                ]),
            ),
            ("mlp_residual", on_off(self.mlp_residual)),
            (
                "layernorm",
                name(&[
                    ("none", self.layernorm == LayerNorm::None),
                    ("pre", self.layernorm == LayerNorm::Pre),
                    ("post", self.layernorm == LayerNorm::Post),
                ]),
            ),
            ("weight_scale", format_f64(self.weight_scale)),
            ("qk_scale", format_f64(self.qk_scale)),
            ("bias_scale", format_f64(self.bias_scale)),
            ("shared", on_off(self.shared)),
            (
                "weights",
                name(&[
                    ("random", self.weights == WeightsSource::Random),
                    ("particle", self.weights == WeightsSource::Particle),
                ]),
            ),
            ("particle", encode_value(&self.particle)),
            (
                "input",
                name(&[
                    ("gaussian", self.input == InputSource::Gaussian),
                    ("particle", self.input == InputSource::Particle),
                    ("text", self.input == InputSource::Text),
                ]),
            ),
            ("text", encode_value(&self.text)),
            ("sentences", self.sentences.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")),
            ("separators", on_off(self.separators)),
            (
                "similarity_norm",
                name(&[
                    ("raw", self.similarity_norm == SimilarityNorm::Raw),
                    ("max-abs", self.similarity_norm == SimilarityNorm::MaxAbs),
                    ("cosine", self.similarity_norm == SimilarityNorm::Cosine),
                ]),
            ),
            (
                "select",
                name(&[("quantile", self.select == Select::Quantile), ("threshold", self.select == Select::Threshold)]),
            ),
            ("quantile", format_f64(self.quantile)),
            ("threshold", format_f64(self.threshold)),
            (
                "residual_def",
                name(&[
                    ("mean", self.residual_def == ResidualDef::Mean),
                    ("argmin", self.residual_def == ResidualDef::Argmin),
                ]),
            ),
            (
                "precision",
                name(&[("f32", self.precision == Precision::F32), ("f64", self.precision == Precision::F64)]),
            ),
            ("seed", self.seed.to_string()),
            ("variants", self.variants.iter().map(|v| v.name()).collect::<Vec<_>>().join(",")),
        ]
    }

    /// The canonical string: `version=2&lab=depth&preset=NAME` followed by the keys whose value differs
    /// from that preset, in the order of [`DepthConfig::pairs`]. `parse(&c.to_canonical_string()) == Ok(c)`.
    pub fn to_canonical_string(&self) -> String {
        let prefix = format!("lab=depth&preset={}", self.preset.name());
        crate::link::canonical_string(crate::link::VERSION, prefix, &self.pairs(), &self.preset.config().pairs(), 2)
    }

    /// The keys (other than `lab` and `preset`) whose value differs from the preset's:
    /// `(key, preset value, this value)`.
    pub fn differences_from_preset(&self) -> Vec<(&'static str, String, String)> {
        crate::link::differences(self.pairs(), self.preset.config().pairs(), 2)
    }
}
