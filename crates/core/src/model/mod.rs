//! The model lab (docs/model-lab.md): a pretrained BERT encoder (default all-MiniLM-L6-v2), its attention
//! maps, its heads' context-similarity matrices and Dong et al.'s surgery on its trained weights
//! (science.md §6, with §3's residual and §4's statistics from [`crate::collapse`]).
//!
//! The path of the data: the model folder's files (written by `cargo xtask fetch-model` into
//! `$HOME/.cache/attn/models/all-MiniLM-L6-v2/`; the core reads their contents, never the disk) →
//! [`BertConfig`] (`config.json`), [`BertWeights`] (`model.safetensors`), [`Vocab`] and the
//! casing rule (`vocab.txt`, `tokenizer_config.json`) → an [`Encoder`] → a text as an
//! [`Encoding`] (token ids of one segment `[CLS] … [SEP]`, pieces, sentences, separators) → the
//! forward pass of a [`Variant`] ([`forward`], on [`ops`] and the shared kernels) → [`analysis`]:
//! residual curves, similarity matrices, statistics. [`keys`] is the lab's link (`lab=model&…`).
//! The lab registry (`lab.rs`) reads `lab=model` links with [`keys::parse_with_view`].
//!
//! Shapes: tokens are rows; a hidden state is `n x d` row-major `f32`; a head's attention `P_h`
//! is `n x n` (row `i` = token `i`'s weights), its output `O_h = P_h V_h` is `n x d_head`; linear
//! weights are `[out, in]` as in the file. Everything is `f32` in a fixed order (the shared kernels,
//! the core's `exp`, `libm`'s `erff`): the same bits natively and in wasm, for any number of threads.
//!
//! Modules: [`vocab`] (the vocabulary and casing), [`basic`] (BERT's basic tokenizer: cleaning,
//! CJK, lower case and accents, punctuation), [`unicode`] (the Unicode properties it reads, the
//! reference's, from the generated `unicode_tables`), [`tokenizer`] (special tokens, WordPiece,
//! the segment, sentences; [`no_pieces`] says what a text without pieces holds), [`config`],
//! [`weights`] (on [`tensor_file`], the file's header and layout), [`text_file`] (the text files'
//! encoding rule), [`ops`], [`forward`], [`analysis`], [`encoder`], [`keys`]; on trained heads and
//! layers (science.md §7): [`heads`], [`head_spectrum`], [`clusters`], [`repeat`], [`layers_view`]. The tokenizer's
//! reference is Hugging Face's `tokenizers` 0.23.3 with the model's `tokenizer.json`
//! (`crates/core/tests/fixtures/tokenizer_unicode/make_unicode_tables.py` and
//! `crates/core/tests/fixtures/make_tokenizer_golden.py`); the
//! forward's is a NumPy forward from the same safetensors
//! (`crates/core/tests/fixtures/make_model_golden.py`).

pub mod analysis;
pub mod basic;
pub mod clusters;
pub mod config;
pub mod encoder;
pub mod finite;
pub mod forward;
pub mod head_dynamics;
pub mod head_spectrum;
pub mod heads;
pub mod keys;
pub mod layers_view;
pub mod no_pieces;
pub mod non_finite;
pub mod ops;
pub mod repeat;
pub mod tensor_file;
pub mod text_file;
pub mod tokenizer;
pub mod tokenizer_note;
pub mod unicode;
mod unicode_changed;
mod unicode_tables;
pub mod vocab;
pub mod weights;

pub use config::BertConfig;
pub use encoder::{Analysis, Curve, Encoder};
pub use forward::{Forward, Variant, VARIANTS};
pub use keys::ModelLink;
pub use ops::{Pool, Serial};
pub use tokenizer::{Encoding, Tokenizer};
pub use vocab::Vocab;
pub use weights::BertWeights;

/// The default model: sentence-transformers' all-MiniLM-L6-v2 (6 layers, 12 heads, hidden 384,
/// vocabulary 30522, uncased; Apache-2.0), the name of its folder under the model cache.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";

/// What is wrong with a model's files or with a text given to it.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// A text file of the model folder is not UTF-8 text ([`text_file::decode`]).
    TextFile {
        /// The file's name (`vocab.txt`, `config.json`, `tokenizer_config.json`).
        file: String,
        /// What is wrong and what to do.
        why: String,
    },
    /// `vocab.txt` is unusable: the message names the line or the missing special token.
    Vocab(String),
    /// `tokenizer_config.json` is unusable: the message says what is wrong.
    TokenizerConfig(String),
    /// `config.json` is unusable: `field` names the field (empty for the file as a whole).
    Config {
        /// The field of `config.json`.
        field: String,
        /// What is wrong and what is allowed.
        why: String,
    },
    /// `model.safetensors` is unusable: `tensor` names the tensor (empty for the file as a whole:
    /// truncated, a header that does not parse).
    Weights {
        /// The tensor's name as the lab looks it up (without a `bert.` prefix).
        tensor: String,
        /// What is wrong.
        why: String,
    },
    /// The files disagree with each other (e.g. `vocab.txt` against `vocab_size`).
    Mismatch(String),
    /// The text has no WordPiece after cleaning: what it holds, counted by kind
    /// ([`no_pieces::removed`]: `2 combining marks and 1 private-use character`; "" when empty).
    NoPieces(String),
    /// The text has more tokens (`[CLS]` and `[SEP]` included) than the model has positions.
    TooManyTokens {
        /// Tokens of the text, `[CLS]` and `[SEP]` included.
        tokens: usize,
        /// The model's `max_position_embeddings`.
        max: usize,
    },
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::TextFile { file, why } => write!(f, "{}: {}", file, why),
            ModelError::Vocab(why) => write!(f, "vocab.txt: {}", why),
            ModelError::TokenizerConfig(why) => write!(f, "tokenizer_config.json: {}", why),
            ModelError::Config { field, why } if field.is_empty() => write!(f, "config.json: {}", why),
            ModelError::Config { field, why } => write!(f, "config.json: `{}` {}", field, why),
            ModelError::Weights { tensor, why } if tensor.is_empty() => write!(f, "model.safetensors: {}", why),
            ModelError::Weights { tensor, why } => write!(f, "model.safetensors: tensor `{}`: {}", tensor, why),
            ModelError::Mismatch(why) => f.write_str(why),
            ModelError::NoPieces(held) if held.is_empty() => f.write_str("the text is empty"),
            ModelError::NoPieces(held) => write!(
                f,
                "no word piece remains after cleaning: the text holds only {} (the tokenizer drops control, format \
                 and private-use characters and U+FFFD, strips combining marks with the accents when it lower-cases, \
                 and splits on whitespace)",
                held
            ),
            ModelError::TooManyTokens { tokens, max } => write!(
                f,
                "the text has {} tokens with [CLS] and [SEP]; the model takes at most {} \
                 (max_position_embeddings); shorten the text",
                tokens, max
            ),
        }
    }
}

impl std::error::Error for ModelError {}
