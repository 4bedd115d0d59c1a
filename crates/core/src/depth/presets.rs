//! The depth lab's presets, one row each: a name, a caption, a one-sentence description and a
//! full [`DepthConfig`].

use super::config::{
    Activation, DepthConfig, DepthPreset, InputSource, LayerNorm, Precision, ResidualDef, Select, SimilarityNorm,
    Variant, WeightsSource, VARIANTS,
};
use crate::link::{row_of, LabPreset, PresetRow};

/// The depth presets (each made from [`base`]), one row each, in the order the page lists them.
const ROWS: [PresetRow<DepthPreset, DepthConfig>; 4] = [
    PresetRow {
        preset: DepthPreset::BertInit,
        name: "bert-init",
        caption: "Rank collapse in BERT at initialisation: skip connections keep tokens apart.",
        description: "BERT-base at initialisation (12 x 12 heads, d_model 768, post-LN, N(0, 0.02²)) on BERT's input embeddings: pure attention collapses to rank 1 within two layers, skip connections keep the tokens apart; the curves follow Dong et al. 2021's figure.",
        config: |base| DepthConfig { input: InputSource::BertEmbeddings, ..base },
    },
    PresetRow {
        preset: DepthPreset::CollapseSmall,
        name: "collapse-small",
        caption: "Without skip connections attention collapses the tokens to rank 1.",
        description: "A small f64 stack: without skip connections the residual falls doubly exponentially, to round-off within a few layers, with or without MLPs; skips stop it (Dong et al. 2021).",
        config: |base| DepthConfig {
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
    },
    PresetRow {
        preset: DepthPreset::ContextText,
        name: "context-text",
        caption: "Which tokens of a text each attention head finds alike.",
        description: "Context similarity S = O Oᵀ of each head's output on a text: distance histogram, same-sentence fraction against chance, each head's most frequent token, attention on separators (Halevi et al. 2025).",
        config: |base| DepthConfig {
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
    },
    PresetRow {
        preset: DepthPreset::ParticleEuler,
        name: "particle-euler",
        caption: "A particle run as a stack of attention layers, one per time step.",
        description: "The particle model's Q, K, V as one attention head: SAN+skip without LayerNorm is forward Euler of the particle ODE, one layer per step; SAN is the same without the skip.",
        config: |base| DepthConfig {
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
    },
];

/// All depth presets, in the order the page lists them.
pub const DEPTH_PRESETS: [DepthPreset; ROWS.len()] = {
    let mut out = [DepthPreset::BertInit; ROWS.len()];
    let mut i = 0;
    while i < ROWS.len() {
        out[i] = ROWS[i].preset;
        i += 1;
    }
    out
};

/// The text of the `context-text` preset.
pub const DEFAULT_TEXT: &str = "The cat sat on the mat. It looked at the door and waited for a long time. \
When the door opened, the cat ran into the garden! Birds sang in the old tree, and the cat listened. \
Was it hungry? It walked back to the house, drank some milk, and fell asleep on the warm mat.";

/// The values every preset starts from: BERT-base at initialisation on Gaussian tokens.
fn base() -> DepthConfig {
    DepthConfig {
        preset: DepthPreset::CollapseSmall, // set to the row's own by DepthPreset::config
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
    }
}

impl LabPreset for DepthPreset {
    const NOUN: &'static str = "depth preset";
    const DEFAULT: Self = DepthPreset::CollapseSmall;
    type Config = DepthConfig;
    fn all() -> &'static [Self] {
        &DEPTH_PRESETS
    }
    fn row(self) -> &'static PresetRow<DepthPreset, DepthConfig> {
        row_of(&ROWS, self)
    }
    fn pairs(self) -> Vec<(&'static str, String)> {
        self.config().pairs()
    }
}

impl DepthPreset {
    /// The preset's full configuration.
    pub fn config(self) -> DepthConfig {
        DepthConfig { preset: self, ..(self.row().config)(base()) }
    }
}

impl Default for DepthConfig {
    /// The default preset's configuration, `collapse-small` (what an empty string opens).
    fn default() -> Self {
        DepthPreset::DEFAULT.config()
    }
}
