//! The model lab's tokenizer gives Hugging Face `tokenizers` 0.23.3's ids (with the model's own
//! `tokenizer.json`) on every code point and on 6,000 strings of many kinds, and its Unicode
//! tables do what the reference's do with each code point. The fixtures are written by
//! `fixtures/tokenizer_unicode/make_unicode_tables.py` (which also writes the tables):
//! - `code_points.json`: the ids of `x{c}y` for every Unicode scalar value `c`, as ranges of code
//!   points with equal ids; and a sha256 per block of 4096 code points of what each one does (the
//!   basic tokenizer's words of `x{c}y` lower-cased and cased, its canonical decomposition and
//!   ordering against marks of each combining class), so a stale table fails even where the
//!   vocabulary hides it (two different unknown words are both `[UNK]`);
//! - `strings.json`: the ids of 6,000 strings (scripts, combining marks, emoji and ZWJ
//!   sequences, Unicode spaces, control and format characters, long words, literal specials).
//!
//! The vocabulary is all-MiniLM-L6-v2's, read from `$ATTN_MODEL_DIR` (set by `cargo xtask test`)
//! or `~/.cache/attn/models/all-MiniLM-L6-v2`.

use crate::common::model::model_dir;
use attn_core::model::basic::words;
use attn_core::model::unicode::{class, combining_class, nfd, Class};
use attn_core::model::Tokenizer;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/tokenizer_unicode/{}", env!("CARGO_MANIFEST_DIR"), name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path, e))).unwrap()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(model_dir("vocab.txt").join(name)).unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{:02x}", b)).collect()
}

/// The model's tokenizer without a token limit (the reference encodes without truncation).
fn minilm(fixture: &Value) -> Tokenizer {
    let vocab = read("vocab.txt");
    assert_eq!(fixture["vocab_sha256"], sha256_hex(vocab.as_bytes()).as_str(), "made from another vocab.txt");
    let tokenizer = Tokenizer::from_files(&vocab, Some(&read("tokenizer_config.json")), usize::MAX).unwrap();
    assert!(tokenizer.lower_case());
    tokenizer
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

/// Every Unicode scalar value from `first` to `last`.
fn scalars(first: u32, last: u32) -> impl Iterator<Item = char> {
    (first..=last).filter_map(char::from_u32)
}

#[test]
fn x_c_y_gets_the_reference_ids_for_every_code_point() {
    let f = fixture("code_points.json");
    let tokenizer = minilm(&f);
    let (cls, sep) = (tokenizer.vocab().cls(), tokenizer.vocab().sep());
    let mut covered = 0u32;
    let mut next = 0u32;
    let mut wrong = Vec::new();
    for r in f["ranges"].as_array().unwrap() {
        let (first, last) = (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32);
        assert_eq!(first, if next == 0xD800 { 0xE000 } else { next }, "the ranges cover every code point in order");
        let mut want = vec![cls];
        want.extend(ids(&r[2]));
        want.push(sep);
        for c in scalars(first, last) {
            covered += 1;
            let got = tokenizer.encode(&format!("x{}y", c)).unwrap().ids;
            if got != want && wrong.len() < 1000 {
                wrong.push(format!("U+{:04X}: {:?}, the reference {:?}", c as u32, got, want));
            }
        }
        next = last + 1;
    }
    assert_eq!((covered, next), (0x110000 - 0x800, 0x110000), "every scalar value once");
    assert!(
        wrong.is_empty(),
        "{} code points differ (first 20):\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

/// What code point `c` does, as `make_unicode_tables.py`'s `fingerprint_line` writes it.
fn fingerprint_line(c: char, marks: &[char], out: &mut String) {
    let (low, high) = ('\u{334}', '\u{345}');
    let mut parts = vec![
        format!("{:X}", c as u32),
        words(&format!("x{}y", c), true).join("\x1f"),
        words(&format!("x{}y", c), false).join("\x1f"),
        nfd(&format!("a{}{}", c, low)),
        nfd(&format!("a{}{}", high, c)),
    ];
    let d = nfd(&c.to_string());
    if parts[3] != format!("a{}{}", d, low) || parts[4] != format!("a{}{}", high, d) {
        for &m in marks {
            parts.push(nfd(&format!("a{}{}", c, m)));
            parts.push(nfd(&format!("a{}{}", m, c)));
        }
    }
    out.push_str(&parts.join("\t"));
    out.push('\n');
}

#[test]
fn every_code_point_is_cleaned_split_decomposed_and_ordered_as_the_reference_does() {
    let f = fixture("code_points.json");
    let print = &f["fingerprint"];
    let block = print["block"].as_u64().unwrap() as u32;
    let marks: Vec<char> = ids(&print["marks"]).into_iter().map(|c| char::from_u32(c).unwrap()).collect();
    assert!(marks.len() > 40, "a mark per combining class: {}", marks.len());
    let want: Vec<&str> = print["sha256_16"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(want.len() as u32, 0x110000 / block);
    let mut wrong = Vec::new();
    let mut lines = String::new();
    for (k, want) in want.iter().enumerate() {
        lines.clear();
        let start = k as u32 * block;
        for c in scalars(start, start + block - 1) {
            fingerprint_line(c, &marks, &mut lines);
        }
        if &sha256_hex(lines.as_bytes())[..16] != *want {
            wrong.push(format!("U+{:04X}..U+{:04X}", start, start + block - 1));
        }
    }
    assert!(
        wrong.is_empty(),
        "these blocks do not do what the reference does (remake the tables with make_unicode_tables.py, or compare \
         the lines of fingerprint_line with the script's): {}",
        wrong.join(", ")
    );
}

#[test]
fn six_thousand_strings_of_many_kinds_get_the_reference_ids() {
    let f = fixture("strings.json");
    let tokenizer = minilm(&f);
    let cases = f["cases"].as_array().unwrap();
    assert!(cases.len() >= 6000, "{} strings", cases.len());
    let kinds: std::collections::BTreeSet<&str> = cases.iter().map(|c| c[0].as_str().unwrap()).collect();
    assert!(kinds.len() >= 40, "{} kinds", kinds.len());
    let mut wrong = Vec::new();
    for case in cases {
        let text = case[1].as_str().unwrap();
        let got = tokenizer.encode(text).unwrap().ids;
        if got != ids(&case[2]) {
            wrong.push(format!("{} {:?}: {:?}, the reference {:?}", case[0], text, got, ids(&case[2])));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} strings differ (first 20):\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

#[test]
fn code_points_newer_than_the_reference_s_tables_are_treated_as_it_treats_them() {
    // U+1DF6 (a mark of Unicode 10): unassigned for the reference, so a letter, not an accent.
    assert_eq!((class('\u{1DF6}'), combining_class('\u{1DF6}')), (Class::Other, 0));
    assert_eq!((class('\u{301}'), combining_class('\u{301}')), (Class::Mark, 230));
    let f = fixture("strings.json");
    let tokenizer = minilm(&f);
    assert_eq!(tokenizer.encode("earn\u{1DF6}").unwrap().ids, [101, 100, 102], "the word is unknown, not 'earn'");
    assert_eq!(tokenizer.encode("earn\u{301}").unwrap().ids, [101, 7796, 102], "an accent known to the reference");
    // U+2E55 (a bracket of Unicode 14) is no punctuation for the reference: x⹕y is one unknown word.
    assert_eq!(class('\u{2E55}'), Class::Other);
    assert_eq!(tokenizer.encode("x\u{2E55}y").unwrap().ids, [101, 100, 102]);
    // U+13430 (an Egyptian format control of Unicode 12) is kept, not dropped.
    assert_eq!(class('\u{13430}'), Class::Other);
    // Canonical ordering: marks sort by class, the dot below (220) before the acute and the dot
    // above (230).
    assert_eq!(nfd("a\u{301}\u{316}"), "a\u{316}\u{301}");
    assert_eq!(nfd("\u{1E0A}\u{323}"), "D\u{323}\u{307}");
}
