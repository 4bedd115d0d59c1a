//! Building the browser module: compile `attn-web` to wasm32, then generate the JS glue with
//! the wasm-bindgen CLI into `www/pkg/` (the frontend imports `./pkg/attn_web.js`), with a gzip
//! copy of each file beside it ([`crate::compress`]) that `serve` sends to browsers accepting it.

use std::path::Path;

use anyhow::Result;

use crate::toolchain::{wasm_bindgen_cli, WASM_TARGET};
use crate::util::{cargo, phase, run, target_dir};

/// Compile `attn-web` for wasm32 in release mode and write `www/pkg/` with wasm-bindgen.
pub fn build(root: &Path) -> Result<()> {
    phase("build wasm (cargo build -p attn-web --target wasm32-unknown-unknown)");
    run(
        cargo().args(["build", "--release", "-p", "attn-web", "--target", WASM_TARGET]).current_dir(root),
        "wasm build",
    )?;

    phase("generate www/pkg (wasm-bindgen --target web)");
    let wasm = target_dir().join(WASM_TARGET).join("release").join("attn_web.wasm");
    let out_dir = root.join("www").join("pkg");
    run(
        std::process::Command::new(wasm_bindgen_cli())
            .args(["--target", "web", "--out-dir"])
            .arg(&out_dir)
            .arg(&wasm)
            .current_dir(root),
        "wasm-bindgen",
    )?;
    phase("gzip www/pkg (served with Content-Encoding: gzip)");
    crate::compress::gzip_tree(&out_dir)?;
    Ok(())
}
