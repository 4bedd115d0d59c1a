//! BERT's basic tokenizer: a text (holding no special token) becomes words, before WordPiece.
//!
//! The steps, in the order of the reference (Hugging Face `tokenizers`' `BertNormalizer` then
//! `BertPreTokenizer`; Devlin et al.'s `BasicTokenizer` differs only where noted):
//! 1. **Clean**: drop NUL, U+FFFD and every control character (general category `Cc`, `Cf` such
//!    as the zero-width space and joiner, `Co`; unassigned code points are kept, as the reference
//!    keeps them) except tab, newline and carriage return; every whitespace character
//!    (`char::is_whitespace`, so also U+2028/U+2029) becomes a space.
//! 2. **CJK**: a CJK ideograph ([`is_cjk`]) becomes a word of its own (spaces around it).
//! 3. **Lower case** (when asked): NFD, drop non-spacing marks (`Mn`: accents), then lower-case
//!    each character on its own (`char::to_lowercase`, so a final `Σ` becomes `σ`, not `ς`).
//! 4. **Split**: on spaces, and every punctuation character ([`is_punctuation`]) is a word of its
//!    own.
//!
//! Categories come from Unicode 18 (`unicode-properties`, `unicode-normalization`); the reference's
//! tables are older, so it differs on characters assigned or recategorised since (compared over
//! every code point of `"x{c}y"`: 706 of them, such as U+2E55-U+2E5D brackets, Arabic marks
//! U+0898-U+089F, Egyptian format controls U+13430-U+13438); on every other character the words
//! are the same.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Whether step 1 drops `c`: NUL, U+FFFD, or a character of general category `Cc`, `Cf` or `Co`
/// other than tab, newline and carriage return (an unassigned `Cn` is kept).
pub fn is_dropped(c: char) -> bool {
    match c {
        '\t' | '\n' | '\r' => false,
        '\0' | '\u{fffd}' => true,
        _ => matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::PrivateUse
                | GeneralCategory::Surrogate
        ),
    }
}

/// Whether `c` is a CJK ideograph of the reference's ranges (the CJK Unified Ideographs blocks and
/// extensions A-F, compatibility ideographs and their supplement). The reference starts its
/// fourth extension range at U+2B920 where Devlin et al. start it at U+2B820; the reference is
/// followed.
pub fn is_cjk(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// Whether `c` splits off as a word of its own: ASCII punctuation (`!` to `/`, `:` to `@`, `[`
/// to `` ` ``, `{` to `~`, so also `$`, `+`, `<`, `=`, `>`, `^`, `|`) or a character of general
/// category `P*`.
pub fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.general_category_group() == GeneralCategoryGroup::Punctuation
}

/// The text after steps 1-3 (clean, CJK spacing, and lower case with accents stripped when
/// `lower_case`).
pub fn normalize(text: &str, lower_case: bool) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars().filter(|&c| !is_dropped(c)) {
        if c.is_whitespace() {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    if !lower_case {
        return cleaned;
    }
    cleaned
        .nfd()
        .filter(|c| c.general_category() != GeneralCategory::NonspacingMark)
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of `text` (steps 1-4), in order; none for a text of only spaces, controls or
/// nothing.
pub fn words(text: &str, lower_case: bool) -> Vec<String> {
    let normalized = normalize(text, lower_case);
    let mut out = Vec::new();
    for chunk in normalized.split(' ').filter(|w| !w.is_empty()) {
        let mut word = String::new();
        for c in chunk.chars() {
            if is_punctuation(c) {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                out.push(c.to_string());
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}
