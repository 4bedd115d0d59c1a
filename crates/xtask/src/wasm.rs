//! Building the browser modules: compile `attn-web` to wasm32 twice, then generate the JS glue
//! with the wasm-bindgen CLI into `www/pkg/`, with a gzip copy of each file beside it
//! ([`crate::compress`]) that `serve` sends to browsers accepting it:
//! - `attn_web.js`, built without the crate's `model` feature: the link grammar, the page's
//!   checks and the particle, training and depth labs, what the page loads before its first
//!   frame (501 kB gzipped);
//! - `attn_web_full.js`, built with it: the same and the model lab, loaded by that lab and its
//!   workers alone (698 kB gzipped: the encoder, the tokenizer and its Unicode tables, weight
//!   files).

use std::path::Path;

use anyhow::Result;

use crate::toolchain::{wasm_bindgen_cli, WASM_TARGET};
use crate::util::{cargo, phase, run, target_dir};

/// The modules written to `www/pkg/`: the glue's name and whether it has the `model` feature.
pub const MODULES: [(&str, bool); 2] = [("attn_web", false), ("attn_web_full", true)];

/// Compile `attn-web` for wasm32 in release mode, once per module of [`MODULES`], and write
/// `www/pkg/` with wasm-bindgen.
pub fn build(root: &Path) -> Result<()> {
    let out_dir = root.join("www").join("pkg");
    for (name, model) in MODULES {
        let features: &[&str] = if model { &[] } else { &["--no-default-features"] };
        phase(&format!(
            "build wasm {name} (cargo build -p attn-web --target wasm32-unknown-unknown {})",
            features.join(" ")
        ));
        run(
            cargo()
                .args(["build", "--release", "-p", "attn-web", "--target", WASM_TARGET])
                .args(features)
                .current_dir(root),
            "wasm build",
        )?;
        phase(&format!("generate www/pkg/{name}.js (wasm-bindgen --target web)"));
        let wasm = target_dir().join(WASM_TARGET).join("release").join("attn_web.wasm");
        run(
            std::process::Command::new(wasm_bindgen_cli())
                .args(["--target", "web", "--out-name", name, "--out-dir"])
                .arg(&out_dir)
                .arg(&wasm)
                .current_dir(root),
            "wasm-bindgen",
        )?;
    }
    phase("gzip www/pkg (served with Content-Encoding: gzip)");
    crate::compress::gzip_tree(&out_dir)?;
    Ok(())
}
