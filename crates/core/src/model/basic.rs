//! BERT's basic tokenizer: a text (holding no special token) becomes words, before WordPiece.
//!
//! The steps, in the order of the reference (Hugging Face `tokenizers`' `BertNormalizer` then
//! `BertPreTokenizer`; Devlin et al.'s `BasicTokenizer` differs only where noted), each reading
//! the reference's Unicode properties ([`super::unicode`]: its own tables, older than today's
//! Unicode):
//! 1. **Clean**: drop NUL, U+FFFD and every control character ([`Class::Dropped`]: `Cc`, `Cf`
//!    such as the zero-width space and joiner, `Co`; unassigned code points are kept) except
//!    tab, newline and carriage return; every whitespace character ([`Class::Space`], so also
//!    U+2028/U+2029) becomes a space.
//! 2. **CJK**: a CJK ideograph ([`is_cjk`]) becomes a word of its own (spaces around it).
//! 3. **Lower case** (when asked): canonical decomposition ([`unicode::nfd`]), drop non-spacing
//!    marks ([`Class::Mark`]: accents), then lower-case each character on its own
//!    ([`unicode::push_lowercase`], so a final `Σ` becomes `σ`, not `ς`).
//! 4. **Split**: on whitespace, and every punctuation character ([`is_punctuation`]) is a word of
//!    its own.

use super::unicode::{self, class, Class};

/// Whether step 1 drops `c`: NUL, U+FFFD, or a character of general category `Cc`, `Cf` or `Co`
/// (the reference's categories) other than tab, newline and carriage return.
pub fn is_dropped(c: char) -> bool {
    class(c) == Class::Dropped
}

/// Whether `c` is a CJK ideograph of the reference's ranges (the CJK Unified Ideographs blocks and
/// extensions A-F, compatibility ideographs and their supplement). The reference starts its
/// fourth extension range at U+2B920 where Devlin et al. start it at U+2B820; the reference is
/// followed.
pub fn is_cjk(c: char) -> bool {
    class(c) == Class::Cjk
}

/// Whether `c` splits off as a word of its own: ASCII punctuation (`!` to `/`, `:` to `@`, `[`
/// to `` ` ``, `{` to `~`, so also `$`, `+`, `<`, `=`, `>`, `^`, `|`) or a character of general
/// category `P*` (the reference's categories).
pub fn is_punctuation(c: char) -> bool {
    class(c) == Class::Punctuation
}

/// The text after steps 1-3 (clean, CJK spacing, and lower case with accents stripped when
/// `lower_case`).
pub fn normalize(text: &str, lower_case: bool) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        match class(c) {
            Class::Dropped => {}
            Class::Space => cleaned.push(' '),
            Class::Cjk => {
                cleaned.push(' ');
                cleaned.push(c);
                cleaned.push(' ');
            }
            _ => cleaned.push(c),
        }
    }
    if !lower_case {
        return cleaned;
    }
    let mut out = String::with_capacity(cleaned.len());
    for c in unicode::nfd(&cleaned).chars().filter(|&c| class(c) != Class::Mark) {
        unicode::push_lowercase(c, &mut out);
    }
    out
}

/// The words of `text` (steps 1-4), in order; none for a text of only spaces, controls or
/// nothing.
pub fn words(text: &str, lower_case: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in normalize(text, lower_case).chars() {
        match class(c) {
            Class::Space | Class::Punctuation => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                if class(c) == Class::Punctuation {
                    out.push(c.to_string());
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}
