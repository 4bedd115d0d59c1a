//! The note a model link older than the tokenizer's Unicode tables gets when its text has a code
//! point whose treatment changed (re-exported by [`super::keys`]).

/// The first link version whose text is tokenized with Hugging Face `tokenizers` 0.23.3's
/// Unicode tables ([`super::unicode`]). Older links are tokenized with them too (keeping the
/// former tables as well is not worth it): where their text has a code point whose treatment
/// changed, [`tokenizer_note`] says so.
pub const TOKENIZER_TABLES_SINCE: u32 = 5;

/// Most code points a [`tokenizer_note`] names (then "and N more").
pub const NOTE_CODE_POINTS: usize = 8;

/// For a link written in `version` (0 without `version`), older than [`TOKENIZER_TABLES_SINCE`],
/// whose `text` has code points whose treatment by the tokenizer changed
/// ([`super::unicode::changed_in`]): a note naming them (`U+1DF6`, at most
/// [`NOTE_CODE_POINTS`]) and saying that the link's tokens, hence its numbers, may differ from
/// those it was made with. `None` for a newer link or a text without such code points.
pub fn tokenizer_note(version: u32, text: &str) -> Option<String> {
    if version >= TOKENIZER_TABLES_SINCE {
        return None;
    }
    let changed = super::unicode::changed_in(text);
    if changed.is_empty() {
        return None;
    }
    let mut named: Vec<String> =
        changed.iter().take(NOTE_CODE_POINTS).map(|&c| format!("U+{:04X}", c as u32)).collect();
    if changed.len() > NOTE_CODE_POINTS {
        named.push(format!("{} more", changed.len() - NOTE_CODE_POINTS));
    }
    let list = match named.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {}", rest.join(", "), last),
        _ => named.join(""),
    };
    Some(format!(
        "The text has {}, which the tokenizer treats otherwise since version {} (Hugging Face tokenizers \
         0.23.3's Unicode tables): the tokens of this version {} link, and so its numbers, may differ from those it \
         was made with.",
        list, TOKENIZER_TABLES_SINCE, version
    ))
}
