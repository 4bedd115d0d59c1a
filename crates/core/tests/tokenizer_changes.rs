//! The code points whose treatment by the model lab's tokenizer changed when it took Hugging Face
//! `tokenizers` 0.23.3's Unicode tables (`attn_core::model::unicode::changed`, from the table in
//! `crates/core/src/model/unicode_changed.rs`), recomputed here with the tables the tokenizer read
//! before: general categories of `unicode-properties` 0.1.5 (Unicode 18) and every decomposition
//! and combining class of `unicode-normalization` 0.1.26 (Unicode 18). Whitespace and lower case
//! did not change (Rust's, then and now equal to the reference's on every code point).
//!
//! A code point changed when the basic tokenizer's words of `x{c}y`, lower-cased or cased, differ,
//! or its decomposition or the combining classes of its decomposition differ (which reorder marks
//! around it). When the
//! table is not the list recomputed here, the test writes the file it should be to
//! `$CARGO_TARGET_TMPDIR/unicode_changed.rs` and fails naming it.

use attn_core::model::basic::words;
use attn_core::model::unicode::{self, changed, changed_in, combining_class, decomposes, push_lowercase};
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// The basic tokenizer's words before the change (its code then, but for lower case: Rust's
/// `char::to_lowercase` of Rust 1.95, which equals [`push_lowercase`] on every code point, is
/// taken from the table so that this list does not move with the toolchain).
fn former_words(text: &str, lower_case: bool) -> Vec<String> {
    let dropped = |c: char| match c {
        '\t' | '\n' | '\r' => false,
        '\0' | '\u{fffd}' => true,
        _ => matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::PrivateUse
                | GeneralCategory::Surrogate
        ),
    };
    let punctuation =
        |c: char| c.is_ascii_punctuation() || c.general_category_group() == GeneralCategoryGroup::Punctuation;
    let mut cleaned = String::new();
    for c in text.chars().filter(|&c| !dropped(c)) {
        if c.is_whitespace() {
            cleaned.push(' ');
        } else if attn_core::model::basic::is_cjk(c) {
            cleaned.push_str(&format!(" {} ", c));
        } else {
            cleaned.push(c);
        }
    }
    if lower_case {
        let mut lower = String::new();
        for c in cleaned.nfd().filter(|c| c.general_category() != GeneralCategory::NonspacingMark) {
            push_lowercase(c, &mut lower);
        }
        cleaned = lower;
    }
    let mut out = Vec::new();
    for chunk in cleaned.split(' ').filter(|w| !w.is_empty()) {
        let mut word = String::new();
        for c in chunk.chars() {
            if punctuation(c) {
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

/// The canonical decomposition of `c` with the combining class of each of its code points, with
/// the tables of now or of before (the class of a code point that decomposes is never read).
fn decomposition(c: char, now: bool) -> Vec<(char, u8)> {
    let mut out = Vec::new();
    if now && !decomposes(c) {
        out.push(c);
    } else {
        decompose_canonical(c, |d| out.push(d));
    }
    let class = if now { combining_class } else { canonical_combining_class };
    out.into_iter().map(|d| (d, class(d))).collect()
}

/// Whether the treatment of `c` changed (see the module's documentation).
fn recomputed(c: char) -> bool {
    let text = format!("x{}y", c);
    former_words(&text, true) != words(&text, true)
        || former_words(&text, false) != words(&text, false)
        || decomposition(c, false) != decomposition(c, true)
}

/// The file `unicode_changed.rs` holding `ranges`.
fn source(ranges: &[(u32, u32)], count: usize) -> String {
    let mut lines = vec![String::new()];
    for &(a, b) in ranges {
        let item = format!("(0x{:04X}, 0x{:04X}),", a, b);
        let line = lines.last_mut().unwrap();
        if !line.is_empty() && line.len() + 1 + item.len() > 120 {
            lines.push(String::new());
        }
        let line = lines.last_mut().unwrap();
        line.push_str(if line.is_empty() { "    " } else { " " });
        line.push_str(&item);
    }
    format!(
        "//! The code points whose treatment by the tokenizer changed when it took Hugging Face `tokenizers`\n\
         //! 0.23.3's Unicode tables ({} code points in {} ranges): written by\n\
         //! `crates/core/tests/tokenizer_changes.rs`, which recomputes them with the former tables.\n\n\
         /// `(first, last)`: code points whose treatment changed.\n\
         #[rustfmt::skip]\n\
         pub(super) const CHANGED: [(u32, u32); {}] = [\n{}\n];\n",
        count,
        ranges.len(),
        ranges.len(),
        lines.join("\n")
    )
}

#[test]
fn the_table_of_changed_code_points_is_what_the_former_tables_give() {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let mut count = 0;
    for c in (0..0x110000).filter_map(char::from_u32).filter(|&c| recomputed(c)) {
        count += 1;
        match ranges.last_mut() {
            Some(r) if r.1 + 1 == c as u32 => r.1 = c as u32,
            _ => ranges.push((c as u32, c as u32)),
        }
    }
    let want = source(&ranges, count);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/model/unicode_changed.rs");
    let have = std::fs::read_to_string(path).unwrap();
    if have != want {
        let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("unicode_changed.rs");
        std::fs::write(&out, &want).unwrap();
        panic!("{} is not the recomputed list ({} code points); it should be {}", path, count, out.display());
    }
    let listed = (0..0x110000).filter_map(char::from_u32).filter(|&c| changed(c)).count();
    assert_eq!(listed, count);
}

#[test]
fn a_text_lists_its_changed_code_points_once_each_in_order() {
    assert_eq!(changed_in("earn\u{1DF6} x\u{2E55}y earn\u{1DF6} caf\u{E9}"), ['\u{1DF6}', '\u{2E55}']);
    assert!(changed_in("The quick brown fox, café, 東京, 🤗.").is_empty());
    // Examples of each kind: a mark of Unicode 10 (was an accent, now a letter), a bracket of
    // Unicode 14 (was punctuation), an Egyptian format control of Unicode 12 (was dropped), a
    // Unicode 16 letter that decomposed (U+105C9), a spacing mark of Unicode 13 with a combining
    // class (U+16FF0: the same words alone, but other marks sort around it).
    for c in ['\u{1DF6}', '\u{2E55}', '\u{13430}', '\u{105C9}', '\u{16FF0}'] {
        assert!(changed(c), "U+{:04X}", c as u32);
    }
    assert_eq!(unicode::nfd("a\u{5B0}\u{16FF0}"), "a\u{5B0}\u{16FF0}", "U+16FF0 is a starter for the reference");
    assert_eq!("a\u{5B0}\u{16FF0}".nfd().collect::<String>(), "a\u{16FF0}\u{5B0}", "and had class 6 (< 10) before");
}

#[test]
fn a_link_older_than_the_tables_names_its_changed_code_points_in_a_note() {
    use attn_core::model::keys::{parse_versioned, tokenizer_note, NOTE_CODE_POINTS, TOKENIZER_TABLES_SINCE};
    let (link, version) =
        parse_versioned("version=4&lab=model&model=m@0123456789abcdef&text=earn%E1%B7%B6%20x%E2%B9%95y").unwrap();
    assert_eq!((link.text.as_str(), version), ("earn\u{1DF6} x\u{2E55}y", 4));
    assert_eq!(
        tokenizer_note(version, &link.text).unwrap(),
        "The text has U+1DF6 and U+2E55, which the tokenizer treats otherwise since version 5 (Hugging Face \
         tokenizers 0.23.3's Unicode tables): the tokens of this version 4 link, and so its numbers, may differ from \
         those it was made with."
    );
    // A link without `version` is from before versions: version 0, older too.
    let (link, version) = parse_versioned("lab=model&model=m@0123456789abcdef&text=earn%E1%B7%B6").unwrap();
    assert_eq!(version, 0);
    assert!(tokenizer_note(version, &link.text).unwrap().contains("U+1DF6, which"));
    assert_eq!(tokenizer_note(4, "The quick brown fox, caf\u{E9}."), None, "nothing changed in this text");
    assert_eq!(tokenizer_note(TOKENIZER_TABLES_SINCE, "earn\u{1DF6}"), None, "made with the new tables");
    // Version 5 is the tables' first: a link made then, or today (version 7), has no note.
    assert_eq!((TOKENIZER_TABLES_SINCE, attn_core::link::VERSION), (5, 7));
    let (link, version) = parse_versioned("version=5&lab=model&model=m@0123456789abcdef&text=earn%E1%B7%B6").unwrap();
    assert_eq!(tokenizer_note(version, &link.text), None);
    let many: String = (0x1DF6..=0x1DFB).chain(0x2E55..=0x2E5A).filter_map(char::from_u32).collect();
    let note = tokenizer_note(3, &many).unwrap();
    assert!(note.starts_with("The text has U+1DF6, U+1DF7,"), "{}", note);
    assert!(note.contains(&format!(", U+2E56 and {} more, which", 12 - NOTE_CODE_POINTS)), "{}", note);
}
