//! What a text without a word piece holds, for [`super::ModelError::NoPieces`]'s message: the
//! tokenizer's cleaning removes every character of it (whitespace; control, format and private-use
//! characters and U+FFFD, [`super::basic::is_dropped`]; combining marks, stripped with the accents
//! when the tokenizer lower-cases). A text of accents alone is not empty, and is not called so.

use super::basic::is_dropped;
use super::unicode::{class, nfd, Class};

/// Whether `c` is a private-use character (general category `Co`: the Private Use Area and the
/// supplementary private use planes 15 and 16).
fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

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
        // The kinds the tokenizer's own tables give (the reference's categories); a dropped
        // character that is neither a control (`Cc`), U+FFFD nor private use is a format one (`Cf`).
        let kind = if class(c) == Class::Space {
            0
        } else if is_dropped(c) {
            if c == '\u{FFFD}' {
                4
            } else if c.is_control() {
                1
            } else if is_private_use(c) {
                3
            } else {
                2
            }
        } else if lower_case && nfd(&c.to_string()).chars().all(|m| class(m) == Class::Mark) {
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
