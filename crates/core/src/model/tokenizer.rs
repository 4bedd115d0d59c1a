//! BERT's tokenizer: a text becomes the token ids of one segment, `[CLS] pieces [SEP]`.
//!
//! 1. **Specials**: a literal special token of the vocabulary ([`SPECIALS`]: `[CLS]`, `[SEP]`,
//!    `[MASK]`, `[PAD]`, `[UNK]`, exactly so written, even inside a word) becomes its own id and
//!    is never split or normalised; the text between them goes through steps 2-3 (as the
//!    reference, Hugging Face `tokenizers`, does with its special added tokens).
//! 2. **Basic tokenizer** ([`super::basic`]): clean, CJK, lower case and accents, punctuation.
//! 3. **WordPiece** ([`wordpiece`]): each word, greedily longest-match-first from its start, the
//!    pieces after the first written with the `##` prefix; a word that cannot be covered, or
//!    longer than [`MAX_WORD_CHARS`] characters, is one `[UNK]`.
//! 4. **Segment**: `[CLS]` first and `[SEP]` last, token type 0, never truncated: more tokens than
//!    the model's `max_position_embeddings` are refused ([`ModelError::TooManyTokens`]).
//!
//! Every token has a sentence index and a separator flag for the statistics (science.md §4, as in
//! the depth lab): a sentence ends after a run of `.`, `!`, `?` pieces; `[CLS]` belongs to the
//! first sentence and the final `[SEP]` to the last; separators for the attention mass are
//! `[CLS]`, `[SEP]`, `.` and `,`.

use super::basic;
use super::vocab::{Vocab, SPECIALS};
use super::ModelError;

/// Longest word WordPiece splits, in characters (after normalisation); a longer word is `[UNK]`.
pub const MAX_WORD_CHARS: usize = 100;

/// The prefix of a piece that continues a word.
pub const CONTINUATION: &str = "##";

/// A text as tokens of one segment: `n` tokens, `[CLS]` first and `[SEP]` last.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Encoding {
    /// Token id of each token (`n`), indices into the vocabulary.
    pub ids: Vec<u32>,
    /// The piece of each token as written in `vocab.txt` (`##` kept on continuations).
    pub pieces: Vec<String>,
    /// Sentence index of each token (0-based, non-decreasing).
    pub sentence: Vec<usize>,
    /// Whether each token is a separator for the attention mass (`[CLS]`, `[SEP]`, `.`, `,`).
    pub separator: Vec<bool>,
}

/// BERT's tokenizer over one vocabulary.
#[derive(Clone, Debug, PartialEq)]
pub struct Tokenizer {
    vocab: Vocab,
    lower_case: bool,
    max_tokens: usize,
}

impl Tokenizer {
    /// A tokenizer over `vocab` that lower-cases and strips accents when `lower_case` (see
    /// [`super::vocab::lower_case`]) and refuses a text of more than `max_tokens` tokens
    /// (`[CLS]` and `[SEP]` included; the model's `max_position_embeddings`).
    pub fn new(vocab: Vocab, lower_case: bool, max_tokens: usize) -> Tokenizer {
        Tokenizer { vocab, lower_case, max_tokens }
    }

    /// A tokenizer from the texts of the model folder's `vocab.txt` and, when the folder has one,
    /// `tokenizer_config.json`. Errors name the file and what is wrong in it.
    pub fn from_files(
        vocab_txt: &str,
        tokenizer_config: Option<&str>,
        max_tokens: usize,
    ) -> Result<Tokenizer, ModelError> {
        let vocab = Vocab::parse(vocab_txt)?;
        let lower_case = super::vocab::lower_case(tokenizer_config, &vocab)?;
        Ok(Tokenizer::new(vocab, lower_case, max_tokens))
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// Whether the text is lower-cased and its accents stripped.
    pub fn lower_case(&self) -> bool {
        self.lower_case
    }

    /// Most tokens of an encoding, `[CLS]` and `[SEP]` included.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The ids of `text`'s pieces (steps 1-3), without `[CLS]` and `[SEP]`; none for the empty
    /// text.
    pub fn piece_ids(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let next = SPECIALS
                .iter()
                .filter_map(|s| Some((rest.find(s)?, s, self.vocab.id(s)?)))
                .min_by_key(|&(at, _, _)| at);
            let (before, special) = match next {
                Some((at, s, id)) => (&rest[..at], Some((s.len() + at, id))),
                None => (rest, None),
            };
            for word in basic::words(before, self.lower_case) {
                wordpiece(&word, &self.vocab, &mut ids);
            }
            match special {
                Some((end, id)) => {
                    ids.push(id);
                    rest = &rest[end..];
                }
                None => rest = "",
            }
        }
        ids
    }

    /// `text` as one segment, `[CLS] pieces [SEP]`, with each token's piece, sentence and
    /// separator flag. Refused when it has more than [`Tokenizer::max_tokens`] tokens.
    pub fn encode(&self, text: &str) -> Result<Encoding, ModelError> {
        let mut ids = Vec::with_capacity(text.len() / 3 + 2);
        ids.push(self.vocab.cls());
        ids.extend(self.piece_ids(text));
        ids.push(self.vocab.sep());
        if ids.len() > self.max_tokens {
            return Err(ModelError::TooManyTokens { tokens: ids.len(), max: self.max_tokens });
        }
        let pieces: Vec<String> =
            ids.iter().map(|&id| self.vocab.piece(id).expect("ids come from the vocabulary").to_string()).collect();
        let sentence = sentences(&pieces);
        let separator = pieces.iter().map(|p| matches!(p.as_str(), "[CLS]" | "[SEP]" | "." | ",")).collect();
        Ok(Encoding { ids, pieces, sentence, separator })
    }
}

/// Appends the WordPiece ids of one `word` (a word of the basic tokenizer) to `out`: greedily
/// the longest vocabulary piece from the word's start, then `##` + the longest from where it
/// ended, and so on. The whole word is one `[UNK]` when some position has no piece, or when the
/// word has more than [`MAX_WORD_CHARS`] characters.
pub fn wordpiece(word: &str, vocab: &Vocab, out: &mut Vec<u32>) {
    if word.chars().count() > MAX_WORD_CHARS {
        out.push(vocab.unk());
        return;
    }
    let first = out.len();
    let mut start = 0;
    let mut candidate = String::with_capacity(word.len() + CONTINUATION.len());
    while start < word.len() {
        // Character boundaries of the rest, longest candidate first.
        let found = word[start..].char_indices().map(|(i, c)| start + i + c.len_utf8()).rev().find_map(|end| {
            candidate.clear();
            if start > 0 {
                candidate.push_str(CONTINUATION);
            }
            candidate.push_str(&word[start..end]);
            vocab.id(&candidate).map(|id| (end, id))
        });
        match found {
            Some((end, id)) => {
                out.push(id);
                start = end;
            }
            None => {
                out.truncate(first);
                out.push(vocab.unk());
                return;
            }
        }
    }
}

/// The sentence index of each of `pieces` (`[CLS]` first, `[SEP]` last): a new sentence starts at
/// a piece that follows a `.`, `!` or `?` and is not one of them itself, except the final piece.
pub fn sentences(pieces: &[String]) -> Vec<usize> {
    let terminal = |p: &str| matches!(p, "." | "!" | "?");
    let mut s = 0;
    let last = pieces.len().saturating_sub(1);
    pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i > 0 && i < last && terminal(&pieces[i - 1]) && !terminal(p) {
                s += 1;
            }
            s
        })
        .collect()
}
