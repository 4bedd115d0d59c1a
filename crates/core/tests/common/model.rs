//! The cached pretrained model the model lab's golden tests read.

use attn_core::model::DEFAULT_MODEL;
use std::path::PathBuf;

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
