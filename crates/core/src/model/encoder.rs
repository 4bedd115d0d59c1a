//! A loaded model: `config.json`, `model.safetensors`, `vocab.txt` (and `tokenizer_config.json`)
//! checked against each other, and the lab's analysis of a text: the unmodified forward with every
//! head kept, and the residual curves of Dong et al.'s four variants (science.md §6).

use super::config::BertConfig;
use super::forward::{embed, run, Forward, Variant, VARIANTS};
use super::ops::Pool;
use super::tokenizer::{Encoding, Tokenizer};
use super::weights::BertWeights;
use super::ModelError;
use serde::{Deserialize, Serialize};

/// A BERT encoder ready to run: configuration, weights and tokenizer.
#[derive(Clone, Debug)]
pub struct Encoder {
    /// The configuration (`config.json`).
    pub config: BertConfig,
    /// The weights (`model.safetensors`).
    pub weights: BertWeights,
    /// The tokenizer (`vocab.txt`, `tokenizer_config.json`).
    pub tokenizer: Tokenizer,
}

/// The residual curve of one variant (in JSON: its label and the residuals, NaN as `null`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// The variant.
    pub variant: Variant,
    /// `L + 1` relative residuals, layer 0 = the embeddings after their LayerNorm.
    #[serde(deserialize_with = "crate::nan::null::list")]
    pub residual: Vec<f64>,
}

/// The lab's analysis of one text.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The text's tokens.
    pub encoding: Encoding,
    /// The unmodified model's forward, every head kept.
    pub forward: Forward,
    /// The four variants' residual curves, in [`VARIANTS`] order.
    pub curves: Vec<Curve>,
}

impl Encoder {
    /// The encoder of a model folder's files (their contents; the core never reads the disk).
    /// Errors name the file and the field or tensor: see [`BertConfig::parse`],
    /// [`BertWeights::from_safetensors`], [`super::Vocab::parse`]; and `vocab.txt`'s size must be
    /// `config.json`'s `vocab_size`; the tensors the forward reads must be finite
    /// ([`super::finite::check_weights`]).
    pub fn load(
        safetensors: &[u8],
        config_json: &str,
        vocab_txt: &str,
        tokenizer_config: Option<&str>,
    ) -> Result<Encoder, ModelError> {
        let config = BertConfig::parse(config_json)?;
        let tokenizer = Tokenizer::from_files(vocab_txt, tokenizer_config, config.max_positions)?;
        if tokenizer.vocab().len() != config.vocab_size {
            return Err(ModelError::Mismatch(format!(
                "vocab.txt has {} pieces but config.json's `vocab_size` is {}",
                tokenizer.vocab().len(),
                config.vocab_size
            )));
        }
        let weights = BertWeights::from_safetensors(safetensors, &config)?;
        super::finite::check_weights(safetensors, weights.prefixed, config.layers)?;
        Ok(Encoder { config, weights, tokenizer })
    }

    /// `text` as one segment `[CLS] … [SEP]`; refused when it has no piece, or more tokens than
    /// `max_position_embeddings`.
    pub fn encode(&self, text: &str) -> Result<Encoding, ModelError> {
        let enc = self.tokenizer.encode(text)?;
        if enc.ids.len() <= 2 {
            return Err(ModelError::NoPieces(super::no_pieces::removed(text, self.tokenizer.lower_case())));
        }
        Ok(enc)
    }

    /// The forward pass of `variant` on `enc`'s tokens, with every head's `P_h` and `O_h` when
    /// `keep_heads`.
    pub fn forward(&self, enc: &Encoding, variant: Variant, keep_heads: bool, pool: &dyn Pool) -> Forward {
        let x0 = embed(&enc.ids, &self.config, &self.weights);
        run(x0, enc.ids.len(), &self.config, &self.weights, variant, keep_heads, pool)
    }

    /// Encodes `text`, runs the unmodified model keeping every head, and the other three variants
    /// for their residual curves.
    pub fn analyse(&self, text: &str, pool: &dyn Pool) -> Result<Analysis, ModelError> {
        self.analyse_parts(text, true, pool)
    }

    /// [`Encoder::analyse`], with the surgery variants' curves (SAN, SAN+MLP, SAN+skip) computed
    /// only when `surgery`; without, their `residual` is empty (another worker computes them with
    /// [`Encoder::surgery`], with the same bits).
    pub fn analyse_parts(&self, text: &str, surgery: bool, pool: &dyn Pool) -> Result<Analysis, ModelError> {
        let encoding = self.encode(text)?;
        let forward = self.forward(&encoding, Variant::Transformer, true, pool);
        let curves = VARIANTS
            .iter()
            .map(|&variant| {
                let residual = if variant == Variant::Transformer {
                    super::analysis::residual_curve(&forward)
                } else if surgery {
                    self.surgery_curve(&encoding, variant, pool)
                } else {
                    Vec::new()
                };
                Curve { variant, residual }
            })
            .collect();
        Ok(Analysis { encoding, forward, curves })
    }

    /// The residual curves of the surgery variants (every variant but the transformer, in
    /// [`VARIANTS`]' order) on `text`: what [`Encoder::analyse`] computes besides the unmodified
    /// model, the same numbers.
    pub fn surgery(&self, text: &str, pool: &dyn Pool) -> Result<Vec<Curve>, ModelError> {
        let encoding = self.encode(text)?;
        Ok(VARIANTS
            .iter()
            .filter(|&&v| v != Variant::Transformer)
            .map(|&variant| Curve { variant, residual: self.surgery_curve(&encoding, variant, pool) })
            .collect())
    }

    fn surgery_curve(&self, enc: &Encoding, variant: Variant, pool: &dyn Pool) -> Vec<f64> {
        super::analysis::residual_curve(&self.forward(enc, variant, false, pool))
    }
}
