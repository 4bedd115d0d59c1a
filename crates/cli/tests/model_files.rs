//! `attn encode` reads a model folder's text files by the core's rule, the page's too
//! (attn_core::model::text_file): `vocab.txt` and `config.json` with a UTF-8 byte-order mark give
//! the tokens and numbers of the same files without it (the page's `tests/e2e/model_files.test.mjs`
//! shows these tokens for the same folder), and a UTF-16 `vocab.txt` is refused naming it.

use crate::attn;
use crate::tiny_bert::{config_json, safetensors, VOCAB};
use std::path::{Path, PathBuf};

const TEXT: &str = "the dog jumps, the fox.";

/// A tiny BERT folder whose `vocab.txt` has `the` on its first line, its text files written by
/// `text` (their bytes from their text).
fn folder(test: &str, text: impl Fn(&str) -> Vec<u8>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-model-files-{}-{}", std::process::id(), test)).join("tiny-bert");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut v = VOCAB.to_vec();
    v.swap(0, 5);
    std::fs::write(dir.join("model.safetensors"), safetensors(31, false)).unwrap();
    std::fs::write(dir.join("config.json"), text(&config_json(""))).unwrap();
    std::fs::write(dir.join("vocab.txt"), text(&(v.join("\n") + "\n"))).unwrap();
    dir
}

fn encode(dir: &Path) -> (i32, String, String) {
    attn(&["encode", "--model", dir.to_str().unwrap(), "--text", TEXT])
}

#[test]
fn a_byte_order_mark_gives_the_tokens_and_numbers_of_the_files_without_it() {
    let plain = folder("plain", |t| t.as_bytes().to_vec());
    let marked = folder("bom", |t| [&[0xEF, 0xBB, 0xBF][..], t.as_bytes()].concat());
    let (code, out, err) = encode(&plain);
    assert_eq!(code, 0, "{}", err);
    let (code, bom_out, err) = encode(&marked);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&bom_out).unwrap();
    assert_eq!(v["tokens"], serde_json::json!(["[CLS]", "the", "dog", "jumps", ",", "the", "fox", ".", "[SEP]"]));
    assert_eq!(bom_out, out, "the same output, byte for byte");
}

#[test]
fn a_utf16_vocabulary_is_refused_naming_it() {
    let dir = folder("utf16", |t| {
        if t.starts_with('{') {
            t.as_bytes().to_vec()
        } else {
            [0xFF, 0xFE].into_iter().chain(t.encode_utf16().flat_map(u16::to_le_bytes)).collect()
        }
    });
    let (code, out, err) = encode(&dir);
    assert_eq!(code, 2, "{}", out);
    let want = format!(
        "{}: is UTF-16 (little-endian) text (it starts with the byte-order mark FF FE); save it as UTF-8",
        dir.join("vocab.txt").display()
    );
    assert!(err.contains(&want), "{}", err);
    assert_eq!(err.trim_end().lines().count(), 1, "{}", err);
}
