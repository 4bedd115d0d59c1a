//! What a text without a word piece holds, for [`super::ModelError::NoPieces`]'s message: the
//! tokenizer's cleaning removes every character of it (whitespace; control, format and private-use
//! characters and U+FFFD, [`super::basic::is_dropped`]; combining marks, stripped with the accents
//! when the tokenizer lower-cases). A text of accents alone is not empty, and is not called so.

use super::basic::is_dropped;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The kinds of removed characters, singular and plural, in the order a message lists them.
const KINDS: [(&str, &str); 7] = [
    ("whitespace character", "whitespace characters"),
    ("control character", "control characters"),
    ("format character", "format characters"),
    ("private-use character", "private-use characters"),
    ("U+FFFD replacement character", "U+FFFD replacement characters"),
    ("combining mark", "combining marks"),
    ("other character", "other characters"),
];

/// `text`'s characters counted by kind, e.g. `2 combining marks and 1 private-use character`
/// (`lower_case`: whether the tokenizer strips accents); "" for the empty text.
pub fn removed(text: &str, lower_case: bool) -> String {
    let mut counts = [0usize; KINDS.len()];
    for c in text.chars() {
        let kind = if c.is_whitespace() {
            0
        } else if is_dropped(c) {
            match c.general_category() {
                GeneralCategory::Control => 1,
                GeneralCategory::Format => 2,
                GeneralCategory::PrivateUse => 3,
                _ => 4,
            }
        } else if lower_case && c.nfd().all(|m| m.general_category() == GeneralCategory::NonspacingMark) {
            5
        } else {
            6
        };
        counts[kind] += 1;
    }
    let parts: Vec<String> = KINDS
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|((one, many), n)| format!("{} {}", n, if n == 1 { one } else { many }))
        .collect();
    match parts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {}", rest.join(", "), last),
    }
}
