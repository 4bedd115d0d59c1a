//! What is wrong with a model's files or with a text given to it: the one error type of the
//! model lab, a leaf its files use.

/// What is wrong with a model's files or with a text given to it.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// A text file of the model folder is not UTF-8 text ([`super::text_file::decode`]).
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
    /// ([`super::no_pieces::removed`]: `2 combining marks and 1 private-use character`; "" when empty).
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
