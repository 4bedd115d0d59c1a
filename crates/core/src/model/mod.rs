//! The model lab (in progress, issue 14): a pretrained BERT encoder, all-MiniLM-L6-v2.
//!
//! The path of the data: the model folder's files (written by `cargo xtask fetch-model` into
//! `$HOME/.cache/attn/models/all-MiniLM-L6-v2/`; the core reads their texts, never the disk) →
//! [`Vocab`] (`vocab.txt`) and the casing rule ([`vocab::lower_case`], `tokenizer_config.json`)
//! → [`Tokenizer`] → a user's text as an [`Encoding`]: token ids of one segment `[CLS] … [SEP]`,
//! their pieces, sentence indices and separator flags. The encoder's weights and forward pass come
//! next; the lab is not yet in the registry (`lab.rs`) nor in the page.
//!
//! Modules: [`vocab`] (the vocabulary and casing), [`basic`] (BERT's basic tokenizer: cleaning,
//! CJK, lower case and accents, punctuation), [`tokenizer`] (special tokens, WordPiece, the
//! segment, sentences). The reference is Hugging Face's `tokenizers` (`BertWordPieceTokenizer`
//! over the same `vocab.txt`); `crates/core/tests/fixtures/make_tokenizer_golden.py` made the
//! golden ids the tests compare with.

pub mod basic;
pub mod tokenizer;
pub mod vocab;

pub use tokenizer::{Encoding, Tokenizer};
pub use vocab::Vocab;

/// The default model: sentence-transformers' all-MiniLM-L6-v2 (6 layers, 12 heads, hidden 384,
/// vocabulary 30522, uncased; Apache-2.0), the name of its folder under the model cache.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";

/// What is wrong with a model's files or with a text given to it.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// `vocab.txt` is unusable: the message names the line or the missing special token.
    Vocab(String),
    /// `tokenizer_config.json` is unusable: the message says what is wrong.
    TokenizerConfig(String),
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
            ModelError::Vocab(why) => write!(f, "vocab.txt: {}", why),
            ModelError::TokenizerConfig(why) => write!(f, "tokenizer_config.json: {}", why),
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
