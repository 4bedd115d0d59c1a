//! `attn encode`: the output contract, the exit codes and their one-line messages, and the same
//! bits for any `--threads`, on a tiny random BERT written to a temporary folder by the test
//! (crates/core/tests/tiny_bert); and one run on the real all-MiniLM-L6-v2 (science.md §6.5's reference values),
//! which fails saying to run `cargo xtask fetch-model` when the model is not in the cache.

use crate::attn;

use attn_core::model::{Encoder, Serial, Variant};
use std::path::{Path, PathBuf};

/// A fresh folder for this test, named `name` (the model's default name).
fn folder(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attn-encode-{}-{}", std::process::id(), test)).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tiny_dir(test: &str) -> PathBuf {
    let dir = folder(test, "tiny-bert");
    crate::tiny_bert::write_dir(&dir, 21);
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const TEXT: &str = "The quick brown fox jumps, the lazy dogs. A fox.";

/// Every number token of `text` (a JSON array's text) must be the shortest form of an f32.
fn numbers_are_shortest_f32(text: &str) {
    for tok in text.split(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '.' | 'e' | 'E' | '+'))) {
        if tok.is_empty() || tok == "-" {
            continue;
        }
        let v: f32 = tok.parse().unwrap_or_else(|_| panic!("{:?}", tok));
        assert_eq!(serde_json::to_string(&v).unwrap(), tok);
    }
}

#[test]
fn the_output_follows_the_contract() {
    let dir = tiny_dir("contract");
    let (code, out, err) = attn(&[
        "encode",
        "--model",
        s(&dir),
        "--text",
        TEXT,
        "--attention",
        "2,1",
        "--attention",
        "1,0",
        "--similarity",
        "1,1",
    ]);
    assert_eq!(code, 0, "{}", err);
    assert!(err.is_empty(), "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys = ["config", "model", "ids", "tokens", "sentence", "hidden", "variants", "attention", "similarity"];
    assert_eq!(v.as_object().unwrap().len(), keys.len());
    // In the contract's order: each key is found after the previous one.
    let mut at = 0;
    for k in keys {
        at += out[at..].find(&format!("\"{}\":", k)).unwrap_or_else(|| panic!("{} after byte {}", k, at));
    }
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    let sha = {
        use sha2::Digest;
        sha2::Sha256::digest(&bytes).iter().map(|b| format!("{:02x}", b)).collect::<String>()
    };
    let model = &v["model"];
    assert_eq!(model["name"], "tiny-bert");
    assert_eq!(model["type"], "bert");
    assert_eq!((model["layers"].as_u64(), model["heads"].as_u64()), (Some(2), Some(2)));
    assert_eq!((model["hidden"].as_u64(), model["vocab"].as_u64()), (Some(8), Some(16)));
    assert_eq!(model["sha256"], sha.as_str());
    assert_eq!(
        v["config"],
        format!("version=7&lab=model&model=tiny-bert@{}&text=The%20quick%20brown%20fox%20jumps%2C%20the%20lazy%20dogs.%20A%20fox.", &sha[..16])
    );
    // The core's own numbers, bit for bit.
    let enc = Encoder::load(&bytes, &crate::tiny_bert::config_json(""), &crate::tiny_bert::vocab_txt(), None).unwrap();
    let e = enc.encode(TEXT).unwrap();
    let n = e.ids.len();
    assert_eq!(v["ids"], serde_json::json!(e.ids));
    assert_eq!(v["tokens"], serde_json::json!(e.pieces));
    assert_eq!(v["tokens"][10], "##s");
    assert_eq!(v["sentence"], serde_json::json!(e.sentence));
    let f = enc.forward(&e, Variant::Transformer, true, &Serial);
    let hidden = v["hidden"].as_array().unwrap();
    assert_eq!(hidden.len(), n);
    for (i, row) in hidden.iter().enumerate() {
        let row: Vec<f32> = row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
        assert_eq!(row, f.hidden[2][i * 8..(i + 1) * 8]);
    }
    let hidden_text = &out[out.find("\"hidden\":[").unwrap() + 9..out.find("\"variants\"").unwrap()];
    numbers_are_shortest_f32(hidden_text);
    let labels: Vec<&str> = v["variants"].as_array().unwrap().iter().map(|x| x["variant"].as_str().unwrap()).collect();
    assert_eq!(labels, ["SAN", "SAN+MLP", "SAN+skip", "transformer"]);
    for (k, x) in v["variants"].as_array().unwrap().iter().enumerate() {
        let r: Vec<f64> = x["residual"].as_array().unwrap().iter().map(|y| y.as_f64().unwrap()).collect();
        let want =
            attn_core::model::analysis::residual_curve(&enc.forward(&e, attn_core::model::VARIANTS[k], false, &Serial));
        // serde_json's default number reader may miss the last bit of an f64.
        assert_eq!(r.len(), want.len());
        assert!(r.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-15 * b.abs()), "{:?} {:?}", r, want);
    }
    // attention in flag order.
    let att = v["attention"].as_array().unwrap();
    assert_eq!(att.len(), 2);
    assert_eq!((att[0]["layer"].as_u64(), att[0]["head"].as_u64()), (Some(2), Some(1)));
    assert_eq!((att[1]["layer"].as_u64(), att[1]["head"].as_u64()), (Some(1), Some(0)));
    let p: Vec<f32> = att[0]["p"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32))
        .collect();
    assert_eq!(p, f.attention(2, 1).unwrap());
    let sim = v["similarity"].as_array().unwrap();
    assert_eq!(sim.len(), 1);
    let rows = sim[0]["s"].as_array().unwrap();
    assert_eq!(rows.len(), n);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[i].as_f64(), Some(0.0));
        for (j, x) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(*x, rows[j][i]);
        }
    }
    let want = attn_core::model::analysis::similarity(f.head_output(1, 1).unwrap(), n, 4);
    assert_eq!(rows[0][1].as_f64().unwrap() as f32, want[1]);
    // Without the flags, no attention nor similarity.
    let (code, out, _) = attn(&["encode", "--model", s(&dir), "--text", "a fox"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("attention").is_none() && v.get("similarity").is_none());
}

#[test]
fn threads_never_change_the_output_and_a_link_reproduces_it() {
    let dir = tiny_dir("threads");
    let text = "the quick brown fox jumps, a lazy dog. ".repeat(4);
    let run = |threads: &str| {
        let (code, out, err) = attn(&[
            "encode",
            "--model",
            s(&dir),
            "--text",
            &text,
            "--threads",
            threads,
            "--attention",
            "2,0",
            "--similarity",
            "2,1",
        ]);
        assert_eq!(code, 0, "{}", err);
        out
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["ids"].as_array().unwrap().len(), 42);
    let link = v["config"].as_str().unwrap();
    let (code, again, err) =
        attn(&["encode", "--model", s(&dir), "--config", link, "--attention", "2,0", "--similarity", "2,1"]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(again, one);
    // The page's link, with the page's view keys, is read whole (validated, not printed).
    let page = format!("{}&embed=1&panels=grid,tokens&theme=dark", link);
    let (code, viewed, err) =
        attn(&["encode", "--model", s(&dir), "--config", &page, "--attention", "2,0", "--similarity", "2,1"]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(viewed, one);
    refused(&["encode", "--model", s(&dir), "--config", &format!("{}&panels=heatmap", link)], &["`panels`", "grid"]);
    // --model-name renames the model in the output and the link.
    let (code, named, _) = attn(&["encode", "--model", s(&dir), "--text", "a dog", "--model-name", "mine"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&named).unwrap();
    assert_eq!(v["model"]["name"], "mine");
    assert!(v["config"].as_str().unwrap().contains("&model=mine@"));
}

/// Runs `attn encode` with `args`; asserts exit 2 and one stderr line containing each of `needles`.
fn refused(args: &[&str], needles: &[&str]) {
    let (code, out, err) = attn(args);
    assert_eq!(code, 2, "{:?}: {}", args, err);
    assert!(out.is_empty(), "{:?}", args);
    assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
    for n in needles {
        assert!(err.contains(n), "{:?}: {:?} not in {}", args, n, err);
    }
}

#[test]
fn bad_input_exits_2_with_one_line_naming_what_is_wrong() {
    let dir = tiny_dir("errors");
    let m = s(&dir);
    refused(&["encode", "--model", m], &["--text", "--config"]);
    refused(&["encode", "--model", m, "--text", "a", "--config", "lab=model"], &["--text", "--config"]);
    refused(&["encode", "--model", m, "--text", ""], &["--text", "`text`: is empty"]);
    refused(&["encode", "--model", m, "--text", " \u{200b} "], &["--text"]);
    refused(&["encode", "--model", m, "--text", &"a ".repeat(60)], &["--text", "62 tokens", "max_position_embeddings"]);
    refused(&["encode", "--model", m, "--text", "a", "--attention", "0,0"], &["--attention", "layer 0", "1..=2"]);
    refused(&["encode", "--model", m, "--text", "a", "--attention", "3,0"], &["--attention", "layer 3"]);
    refused(&["encode", "--model", m, "--text", "a", "--attention", "1,2"], &["--attention", "head 2", "0..=1"]);
    refused(&["encode", "--model", m, "--text", "a", "--similarity", "x"], &["--similarity", "L,H"]);
    refused(&["encode", "--model", m, "--text", "a", "--similarity", "1,-1"], &["--similarity"]);
    refused(&["encode", "--model", m, "--text", "a", "--threads", "0"], &["--threads"]);
    refused(&["encode", "--model", m, "--text", "a", "--model-name", "a b"], &["--model-name"]);
    refused(
        &["encode", "--model", m, "--config", "lab=model&model=tiny-bert@0123456789abcdef&text=a"],
        &["`model`", "0123456789abcdef"],
    );
    refused(&["encode", "--model", m, "--config", "lab=model&model=x@0123456789abcdef"], &["--config", "`text`"]);
    let missing = dir.join("nowhere");
    refused(&["encode", "--model", s(&missing), "--text", "a", "--model-name", "x"], &["model.safetensors"]);
    // Broken files.
    let bad = folder("errors-files", "broken");
    crate::tiny_bert::write_dir(&bad, 3);
    let bytes = std::fs::read(bad.join("model.safetensors")).unwrap();
    std::fs::write(bad.join("model.safetensors"), &bytes[..bytes.len() - 10]).unwrap();
    refused(&["encode", "--model", s(&bad), "--text", "a"], &["model.safetensors", "truncated"]);
    std::fs::write(bad.join("model.safetensors"), &bytes).unwrap();
    std::fs::write(bad.join("config.json"), crate::tiny_bert::config_json("\"model_type\": \"gpt2\"")).unwrap();
    refused(&["encode", "--model", s(&bad), "--text", "a"], &["config.json", "`model_type`"]);
    std::fs::write(bad.join("config.json"), crate::tiny_bert::config_json("\"num_attention_heads\": 0")).unwrap();
    refused(&["encode", "--model", s(&bad), "--text", "a"], &["`num_attention_heads`"]);
    std::fs::write(bad.join("config.json"), crate::tiny_bert::config_json("")).unwrap();
    std::fs::write(bad.join("vocab.txt"), crate::tiny_bert::vocab_txt().replace("lazy", "dog")).unwrap();
    refused(&["encode", "--model", s(&bad), "--text", "a"], &["vocab.txt", "\"dog\""]);
}

/// One limit on the text for every path: `--text` over a link's limit (20 000 bytes) is refused
/// naming `text`, as `--config` is; at the limit, the link printed opens again with `--config`.
#[test]
fn the_text_has_one_limit_for_text_and_config() {
    let dir = tiny_dir("limit");
    let m = s(&dir);
    let at = format!("a{}", " ".repeat(19_999));
    let over = format!("{} ", at);
    refused(
        &["encode", "--model", m, "--text", &over],
        &["invalid --text: `text`: 20001 bytes long; at most 20000 are allowed"],
    );
    let (code, out, err) = attn(&["encode", "--model", m, "--text", &at]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let link = v["config"].as_str().unwrap();
    let (code, again, err) = attn(&["encode", "--model", m, "--config", link]);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(again, out);
    let longer = link.replace("&text=a", "&text=a%20");
    refused(
        &["encode", "--model", m, "--config", &longer],
        &["invalid --config: `text`: 20001 bytes long; at most 20000"],
    );
}

/// A link for another lab names `lab` and the command that runs it (a particle link without
/// `lab` too, which the page opens in the particle lab); a malformed `model` says what is wrong.
#[test]
fn another_labs_link_names_lab_and_a_malformed_model_says_what_is_wrong() {
    let dir = tiny_dir("labs");
    let m = s(&dir);
    let no_lab = "`lab`: attn encode runs the model lab; this link has no lab key and holds";
    for (config, said) in [
        ("version=4&preset=polytope", format!("{} `preset`, a key of the particle lab: use attn run for it", no_lab)),
        ("preset=polytope&n=20&seed=3", format!("{} `preset`", no_lab)),
        ("version=4&n=20", format!("{} `n`, a key of the particle lab", no_lab)),
        (
            "lab=particles&preset=polytope",
            "`lab`: attn encode runs the model lab; use attn run for lab=particles".into(),
        ),
        (
            "lab=depth&preset=collapse-small",
            "`lab`: attn encode runs the model lab; use attn depth for lab=depth".into(),
        ),
        ("lab=training", "`lab`: attn encode runs the model lab; use attn train for lab=training".into()),
        (
            "lab=model&model=@53aa51172d142c89&text=a",
            r#"`model`: "@53aa51172d142c89" is malformed: the name before '@' is empty; the form is NAME@SHA16"#.into(),
        ),
        (
            "lab=model&model=all-MiniLM-L6-v2@53AA51172D142C89&text=a",
            r#"is malformed: "53AA51172D142C89" after '@' has upper-case hex digits; the form is NAME@SHA16"#.into(),
        ),
    ] {
        refused(&["encode", "--model", m, "--config", config], &["invalid --config: ", &said]);
    }
    // A key neither lab has stays the model lab's unknown key.
    refused(&["encode", "--model", m, "--config", "lab=model&bogus=1"], &["`bogus`: unknown key for lab=model"]);
}

/// A text may start with `-`; a text of only combining marks or private-use characters is not
/// empty, and its refusal says what the tokenizer removed.
#[test]
fn a_text_may_start_with_a_hyphen_and_a_text_of_marks_is_not_called_empty() {
    let dir = tiny_dir("texts");
    let m = s(&dir);
    for (text, tokens) in [("-5 degrees", 5), ("--not-a-flag", 9)] {
        let (code, out, err) = attn(&["encode", "--model", m, "--text", text]);
        assert_eq!(code, 0, "{}: {}", text, err);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["tokens"].as_array().unwrap().len(), tokens, "{}", out);
        assert!(
            v["config"].as_str().unwrap().ends_with(&format!("&text={}", text.replace(' ', "%20"))),
            "{}",
            v["config"]
        );
    }
    for (text, held) in [("\u{301}\u{308}", "2 combining marks"), ("\u{e000}\u{f8ff}", "2 private-use characters")] {
        refused(
            &["encode", "--model", m, "--text", text],
            &[&format!("invalid --text: no word piece remains after cleaning: the text holds only {} (", held)],
        );
    }
}

#[test]
fn the_real_model_gives_the_anchors() {
    let dir = match std::env::var_os("ATTN_MODEL_DIR").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/attn/models/all-MiniLM-L6-v2"),
    };
    assert!(
        dir.join("model.safetensors").is_file(),
        "the model is missing: no model.safetensors in {}; run `cargo xtask fetch-model`",
        dir.display()
    );
    let text = "The quick brown fox jumps over the lazy dog.";
    let (code, out, err) = attn(&[
        "encode",
        "--model",
        s(&dir),
        "--text",
        text,
        "--attention",
        "1,0",
        "--similarity",
        "6,3",
        "--model-name",
        "all-MiniLM-L6-v2",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ids"], serde_json::json!([101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102]));
    assert_eq!(v["model"]["sha256"], "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db");
    assert!(v["config"].as_str().unwrap().contains("model=all-MiniLM-L6-v2@53aa51172d142c89&"));
    let close = |got: &serde_json::Value, want: &[f64]| {
        for (k, w) in want.iter().enumerate() {
            assert!((got[k].as_f64().unwrap() - w).abs() <= 1e-5, "{} vs {}", got[k], w);
        }
    };
    close(&v["attention"][0]["p"][0], &[0.28565, 0.05960, 0.05564, 0.01614]);
    close(&v["hidden"][0], &[0.04644, 0.33806, 0.20821, 0.64680]);
    assert_eq!(v["hidden"][0].as_array().unwrap().len(), 384);
    let san = v["variants"][0]["residual"].as_array().unwrap();
    assert_eq!(san.len(), 7);
    assert!(san[6].as_f64().unwrap() < 1e-3);
    assert_eq!(v["similarity"][0]["s"][5][5].as_f64(), Some(0.0));
}

#[test]
fn a_version_4_link_whose_text_has_a_code_point_the_tokenizer_now_treats_otherwise_gets_a_note() {
    let dir = tiny_dir("note");
    let m = s(&dir);
    // U+1DF6, a mark of Unicode 10: an accent for the tables of version 4, a letter for tokenizers'.
    let text = "The fox\u{1DF6} jumps.";
    let (code, out, err) = attn(&["encode", "--model", m, "--text", text]);
    assert_eq!(code, 0, "{}", err);
    assert!(err.is_empty(), "a --text is today's text: {}", err);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("tokenizer_note").is_none());
    let model = v["config"].as_str().unwrap().split('&').find(|p| p.starts_with("model=")).unwrap().to_string();
    let link = format!("version=4&lab=model&{}&text=The%20fox%E1%B7%B6%20jumps.", model);
    let (code, out, err) = attn(&["encode", "--model", m, "--config", &link]);
    assert_eq!(code, 0, "{}", err);
    let note = "The text has U+1DF6, which the tokenizer treats otherwise since version 5 (Hugging Face tokenizers \
                0.23.3's Unicode tables): the tokens of this version 4 link, and so its numbers, may differ from those \
                it was made with.";
    assert_eq!(err, format!("note: {}\n", note));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tokenizer_note"], note);
    assert_eq!(out.rfind("\"tokenizer_note\":"), out.find("\"tokenizer_note\":"), "once");
    // A version 4 link without such a code point has no note.
    let plain = format!("version=4&lab=model&{}&text=The%20fox%20jumps.", model);
    let (code, out, err) = attn(&["encode", "--model", m, "--config", &plain]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(!out.contains("tokenizer_note"));
    // Today's link (version 5, made with the new tables) with U+1DF6: the same tokens, no note.
    let (code, out5, err) = attn(&["encode", "--model", m, "--config", &link.replace("version=4&", "version=5&")]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v5: serde_json::Value = serde_json::from_str(&out5).unwrap();
    assert!(v5.get("tokenizer_note").is_none());
    assert_eq!(v5["ids"], v["ids"]);
}
