//! The model lab's BERT tokenizer against an independent reference (Hugging Face `tokenizers`,
//! golden ids in `fixtures/tokenizer_golden.json`, made by `fixtures/make_tokenizer_golden.py`),
//! plus the anchor sentence, sentence indices, the casing rule and the errors.
//!
//! The vocabulary is all-MiniLM-L6-v2's, read from `$ATTN_MODEL_DIR` (set by `cargo xtask test`)
//! or `~/.cache/attn/models/all-MiniLM-L6-v2`; `cargo xtask fetch-model` puts it there.

use crate::common::model::model_dir;

use attn_core::model::tokenizer::{sentences, wordpiece, MAX_WORD_CHARS};
use attn_core::model::vocab::lower_case;
use attn_core::model::{ModelError, Tokenizer, Vocab};
use sha2::{Digest, Sha256};

fn read(name: &str) -> String {
    let path = model_dir("vocab.txt").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e))
}

/// The model's tokenizer, as the lab builds it: vocab.txt, tokenizer_config.json, and
/// max_position_embeddings of config.json.
fn minilm() -> Tokenizer {
    let config: serde_json::Value = serde_json::from_str(&read("config.json")).unwrap();
    let max = config["max_position_embeddings"].as_u64().unwrap() as usize;
    assert_eq!(max, 512);
    Tokenizer::from_files(&read("vocab.txt"), Some(&read("tokenizer_config.json")), max).unwrap()
}

fn golden() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tokenizer_golden.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A vocabulary of these pieces, one per line.
fn tiny(pieces: &[&str]) -> Vocab {
    Vocab::parse(&pieces.join("\n")).unwrap()
}

#[test]
fn every_golden_string_gets_the_reference_ids_and_pieces() {
    let golden = golden();
    let sha: String = Sha256::digest(read("vocab.txt").as_bytes()).iter().map(|b| format!("{:02x}", b)).collect();
    assert_eq!(golden["vocab_sha256"], sha.as_str(), "the fixture was made from another vocab.txt");
    let tokenizer = minilm();
    assert!(tokenizer.lower_case());
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let ids: Vec<u32> = case["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
        let pieces: Vec<&str> = case["pieces"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let encoding = tokenizer.encode(text).unwrap();
        assert_eq!(encoding.ids, ids, "ids of {:?}", text);
        assert_eq!(encoding.pieces, pieces, "pieces of {:?}", text);
        assert_eq!(encoding.sentence.len(), ids.len());
        assert_eq!(encoding.separator.len(), ids.len());
    }
}

#[test]
fn the_anchor_sentence_has_bert_s_published_ids() {
    let encoding = minilm().encode("The quick brown fox jumps over the lazy dog.").unwrap();
    assert_eq!(encoding.ids, [101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102]);
    assert_eq!(encoding.sentence, [0; 12], "the final [SEP] belongs to the sentence the dot closed");
    let separators: Vec<usize> = (0..12).filter(|&i| encoding.separator[i]).collect();
    assert_eq!(separators, [0, 10, 11]);
}

#[test]
fn the_empty_text_is_cls_and_sep_only() {
    let encoding = minilm().encode("").unwrap();
    assert_eq!(encoding.pieces, ["[CLS]", "[SEP]"]);
    assert_eq!(encoding.sentence, [0, 0]);
    assert!(minilm().piece_ids("").is_empty());
}

#[test]
fn a_sentence_ends_after_a_run_of_terminal_pieces() {
    let encoding = minilm().encode("First one. Second one! Third?! And, the last").unwrap();
    let expected = [
        ("[CLS]", 0, true),
        ("first", 0, false),
        ("one", 0, false),
        (".", 0, true),
        ("second", 1, false),
        ("one", 1, false),
        ("!", 1, false),
        ("third", 2, false),
        ("?", 2, false),
        ("!", 2, false),
        ("and", 3, false),
        (",", 3, true),
        ("the", 3, false),
        ("last", 3, false),
        ("[SEP]", 3, true),
    ];
    let got: Vec<(&str, usize, bool)> = (0..encoding.ids.len())
        .map(|i| (encoding.pieces[i].as_str(), encoding.sentence[i], encoding.separator[i]))
        .collect();
    assert_eq!(got, expected);
    let pieces = |ps: &[&str]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    assert_eq!(sentences(&pieces(&["[CLS]", "wait", ".", ".", ".", "what", "?", "[SEP]"])), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(sentences(&pieces(&["[CLS]", ".", "[SEP]"])), [0, 0, 0]);
}

#[test]
fn wordpiece_is_greedy_longest_first_and_a_word_it_cannot_cover_is_one_unk() {
    let vocab = tiny(&["[UNK]", "[CLS]", "[SEP]", "un", "una", "##ff", "##aff", "##able", "a", "##a", "aaa", "##affy"]);
    let ids = |word: &str| {
        let mut out = vec![99];
        wordpiece(word, &vocab, &mut out);
        out
    };
    // Longest first: una|##ff|##able, not un|##aff|##able.
    assert_eq!(ids("unaffable"), [99, 4, 5, 7]);
    assert_eq!(ids("unaff"), [99, 4, 5]);
    // Greedy, no backtracking: una|##ff then no "##y", so [UNK], although un|##affy would cover it.
    assert_eq!(ids("unaffy"), [99, 0], "an uncoverable word is one [UNK], its matched prefix dropped");
    assert_eq!(ids("unaffx"), [99, 0]);
    assert_eq!(ids(&"a".repeat(MAX_WORD_CHARS)).len(), 1 + 1 + (MAX_WORD_CHARS - 3));
    assert_eq!(ids(&"a".repeat(MAX_WORD_CHARS + 1)), [99, 0], "a word over 100 characters is [UNK]");
}

#[test]
fn literal_specials_are_never_split_but_only_when_in_the_vocabulary() {
    let tokenizer = minilm();
    let id = |piece: &str| tokenizer.vocab().id(piece).unwrap();
    let ids = tokenizer.piece_ids("x[MASK]y[mask] [CLS]");
    assert_eq!(ids, [id("x"), 103, id("y"), id("["), id("mask"), id("]"), 101]);
    // A vocabulary without [MASK] reads it as text.
    let vocab = tiny(&["[UNK]", "[CLS]", "[SEP]", "[", "]", "mask"]);
    let small = Tokenizer::new(vocab, true, 512);
    assert_eq!(small.piece_ids("[MASK][SEP]"), [3, 5, 4, 2]);
}

#[test]
fn the_casing_follows_tokenizer_config_else_the_vocabulary() {
    let cased = tiny(&["[UNK]", "[CLS]", "[SEP]", "Hello", "hello", "Café", "cafe", "!"]);
    assert!(cased.has_cased_piece());
    assert!(!lower_case(None, &cased).unwrap());
    let keep = Tokenizer::new(cased.clone(), false, 512);
    assert_eq!(keep.piece_ids("Hello Café!"), [3, 5, 7]);
    let lower = Tokenizer::new(cased.clone(), true, 512);
    assert_eq!(lower.piece_ids("Hello Café!"), [4, 6, 7]);
    assert!(lower_case(Some(r#"{"do_lower_case": true}"#), &cased).unwrap());
    assert!(!lower_case(Some(r#"{"do_lower_case": false, "x": 1}"#), &tiny(&["[UNK]", "[CLS]", "[SEP]", "a"])).unwrap());
    // Without the key, the vocabulary decides.
    assert!(!lower_case(Some("{}"), &cased).unwrap());
    // The uncased vocabulary holds ℝ (Lu without a lower case): still uncased.
    let minilm_vocab = Vocab::parse(&read("vocab.txt")).unwrap();
    assert_eq!(minilm_vocab.len(), 30522);
    assert!(minilm_vocab.id("ℝ").is_some());
    assert!(!minilm_vocab.has_cased_piece());
    assert!(lower_case(None, &minilm_vocab).unwrap());
}

#[test]
fn a_text_over_max_position_embeddings_is_refused_never_truncated() {
    let tokenizer = minilm();
    let fits = tokenizer.encode(&"a ".repeat(510)).unwrap();
    assert_eq!(fits.ids.len(), 512);
    let err = tokenizer.encode(&"a ".repeat(511)).unwrap_err();
    assert_eq!(err, ModelError::TooManyTokens { tokens: 513, max: 512 });
    let message = err.to_string();
    assert!(message.contains("513 tokens") && message.contains("512") && message.contains("max_position_embeddings"));
}

#[test]
fn a_bad_vocabulary_or_tokenizer_config_is_refused_naming_the_problem() {
    let err = |text: &str| Vocab::parse(text).unwrap_err().to_string();
    let missing = err("[UNK]\n[SEP]\nhello");
    assert!(missing.starts_with("vocab.txt: has no [CLS];"), "{}", missing);
    assert!(err("hello").contains("[CLS], [SEP], [UNK]"), "{}", err("hello"));
    let duplicate = err("[UNK]\n[CLS]\n[SEP]\nhello\nworld\nhello");
    assert!(
        duplicate.contains("\"hello\"") && duplicate.contains("line 4") && duplicate.contains("line 6"),
        "{}",
        duplicate
    );
    let empty = err("[UNK]\n\n[CLS]\n[SEP]");
    assert!(empty.contains("line 2 is empty"), "{}", empty);
    // Trailing whitespace and \r\n line ends are dropped, as the reference does.
    let vocab = Vocab::parse("[UNK] \r\n[CLS]\r\n[SEP]\r\n").unwrap();
    assert_eq!((vocab.len(), vocab.unk(), vocab.cls(), vocab.sep()), (3, 0, 1, 2));

    let vocab = tiny(&["[UNK]", "[CLS]", "[SEP]"]);
    let bad_json = lower_case(Some("{do_lower_case: true"), &vocab).unwrap_err().to_string();
    assert!(bad_json.starts_with("tokenizer_config.json:") && bad_json.contains("not valid JSON"), "{}", bad_json);
    let not_bool = lower_case(Some(r#"{"do_lower_case": "yes"}"#), &vocab).unwrap_err().to_string();
    assert!(not_bool.contains("do_lower_case is \"yes\""), "{}", not_bool);
    let not_object = lower_case(Some("[true]"), &vocab).unwrap_err().to_string();
    assert!(not_object.contains("not a JSON object"), "{}", not_object);
}
