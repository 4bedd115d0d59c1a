//! The cached pretrained model the model lab's golden tests read.

use attn_core::model::{Encoder, DEFAULT_MODEL};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The model folder (`ATTN_MODEL_DIR`, else `~/.cache/attn/models/all-MiniLM-L6-v2`, where
/// `cargo xtask fetch-model` puts it); panics naming `cargo xtask fetch-model` when it has no
/// file `needs` (`vocab.txt`, `model.safetensors`).
pub fn model_dir(needs: &str) -> PathBuf {
    let dir = match std::env::var_os("ATTN_MODEL_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME or ATTN_MODEL_DIR must be set"))
            .join(".cache/attn/models")
            .join(DEFAULT_MODEL),
    };
    assert!(
        dir.join(needs).is_file(),
        "the model is missing: no {} in {}; run `cargo xtask fetch-model` (or set ATTN_MODEL_DIR)",
        needs,
        dir.display()
    );
    dir
}

/// The cached all-MiniLM-L6-v2 ([`model_dir`]), loaded once per test binary and shared by every
/// test that runs it.
pub fn minilm() -> &'static Encoder {
    static ENC: OnceLock<Encoder> = OnceLock::new();
    ENC.get_or_init(|| {
        let dir = model_dir("model.safetensors");
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
        Encoder::load(&bytes, &text("config.json"), &text("vocab.txt"), Some(&text("tokenizer_config.json"))).unwrap()
    })
}
