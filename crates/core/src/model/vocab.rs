//! BERT's WordPiece vocabulary (`vocab.txt`) and the casing rule of its tokenizer.
//!
//! `vocab.txt` holds one piece per line; the id of a piece is its 0-based line number. Word
//! continuations carry the `##` prefix (`##ing`). all-MiniLM-L6-v2's vocabulary has 30522
//! pieces, `[PAD]` = 0, `[UNK]` = 100, `[CLS]` = 101, `[SEP]` = 102, `[MASK]` = 103.

use std::collections::HashMap;

use super::ModelError;

/// The special tokens of BERT, matched literally in a text (before any normalisation) and never
/// split. `[CLS]`, `[SEP]` and `[UNK]` must be in every vocabulary; `[PAD]` and `[MASK]` may be
/// missing (then they are read as ordinary text).
pub const SPECIALS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// The special tokens a vocabulary must hold.
pub const REQUIRED: [&str; 3] = ["[CLS]", "[SEP]", "[UNK]"];

/// A WordPiece vocabulary: pieces by id and ids by piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Vocab {
    pieces: Vec<String>,
    ids: HashMap<String, u32>,
    cls: u32,
    sep: u32,
    unk: u32,
}

impl Vocab {
    /// Reads the text of a `vocab.txt`: one piece per line (`\n` or `\r\n`), the id of a piece is
    /// its 0-based line number; trailing whitespace of a line is dropped (as the reference
    /// tokenizer does), and one final newline ends the file.
    ///
    /// Errors ([`ModelError::Vocab`]) name the line of an empty entry, both lines of a duplicated
    /// piece, and a missing `[CLS]`, `[SEP]` or `[UNK]`.
    pub fn parse(text: &str) -> Result<Vocab, ModelError> {
        let mut pieces = Vec::new();
        let mut ids: HashMap<String, u32> = HashMap::new();
        for (line, raw) in text.lines().enumerate() {
            let piece = raw.trim_end();
            if piece.is_empty() {
                return Err(ModelError::Vocab(format!("line {} is empty; every line must hold a piece", line + 1)));
            }
            let id = u32::try_from(line).map_err(|_| ModelError::Vocab("more than 2^32 pieces".to_string()))?;
            if let Some(first) = ids.insert(piece.to_string(), id) {
                return Err(ModelError::Vocab(format!(
                    "piece {:?} is on line {} and again on line {}; pieces must be distinct",
                    piece,
                    first + 1,
                    line + 1
                )));
            }
            pieces.push(piece.to_string());
        }
        let missing: Vec<&str> = REQUIRED.iter().copied().filter(|s| !ids.contains_key(*s)).collect();
        if !missing.is_empty() {
            return Err(ModelError::Vocab(format!(
                "has no {}; a BERT vocabulary needs [CLS], [SEP] and [UNK]",
                missing.join(", ")
            )));
        }
        let (cls, sep, unk) = (ids["[CLS]"], ids["[SEP]"], ids["[UNK]"]);
        Ok(Vocab { pieces, ids, cls, sep, unk })
    }

    /// Number of pieces (the model's `vocab_size`).
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether the vocabulary has no piece (never true for a parsed one: it holds the specials).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The id of `piece` (`##` kept for continuations), if it is in the vocabulary.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.ids.get(piece).copied()
    }

    /// The piece of `id`, if `id < len()`.
    pub fn piece(&self, id: u32) -> Option<&str> {
        self.pieces.get(id as usize).map(String::as_str)
    }

    /// The id of `[CLS]`, the token before the text.
    pub fn cls(&self) -> u32 {
        self.cls
    }

    /// The id of `[SEP]`, the token after the text.
    pub fn sep(&self) -> u32 {
        self.sep
    }

    /// The id of `[UNK]`, which stands for a word WordPiece cannot split.
    pub fn unk(&self) -> u32 {
        self.unk
    }

    /// Whether a piece other than the [`SPECIALS`] has an upper-case letter, i.e. a character
    /// that lower-casing changes (`ℝ`, which is `Lu` but has no lower case, does not count: the
    /// uncased BERT vocabulary holds it).
    pub fn has_cased_piece(&self) -> bool {
        self.pieces
            .iter()
            .filter(|p| !SPECIALS.contains(&p.as_str()))
            .any(|p| p.chars().any(|c| c.to_lowercase().ne(std::iter::once(c))))
    }
}

/// Whether the tokenizer lower-cases the text and strips its accents (NFD, then combining marks
/// dropped): `do_lower_case` of `tokenizer_config.json` when the file exists and has the key;
/// without it, exactly when the vocabulary has no cased piece ([`Vocab::has_cased_piece`]).
///
/// `tokenizer_config` is the file's text, `None` when there is no such file. Errors
/// ([`ModelError::TokenizerConfig`]) when the text is not a JSON object or its `do_lower_case`
/// is not a boolean.
pub fn lower_case(tokenizer_config: Option<&str>, vocab: &Vocab) -> Result<bool, ModelError> {
    if let Some(text) = tokenizer_config {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ModelError::TokenizerConfig(format!("is not valid JSON: {}", e)))?;
        let object =
            value.as_object().ok_or_else(|| ModelError::TokenizerConfig("is not a JSON object".to_string()))?;
        match object.get("do_lower_case") {
            Some(serde_json::Value::Bool(b)) => return Ok(*b),
            Some(other) => {
                return Err(ModelError::TokenizerConfig(format!(
                    "do_lower_case is {}; it must be true or false",
                    other
                )))
            }
            None => {}
        }
    }
    Ok(!vocab.has_cased_piece())
}
