//! `cargo xtask screenshots`: the README's pictures of the four labs. Builds the wasm (as `serve`
//! does), serves `www/` on a free port of 127.0.0.1 (with the model lab's default model), and runs
//! `crates/xtask/screenshots.mjs`, which opens each lab's default link in Debian's Chromium
//! through playwright-core, waits for a moment the lab reaches by itself and saves
//! `docs/img/<lab>.png`. Each picture must stay under [`MAX_BYTES`] (the README loads all four).

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::server::{self, PortChoice};
use crate::toolchain::{self, CHROMIUM};
use crate::util::{phase, run};
use crate::wasm;

/// The folder of the pictures, relative to the repository root.
pub const IMG_DIR: &str = "docs/img";

/// The labs pictured, in the README's order (`docs/img/<lab>.png`).
pub const LABS: [&str; 4] = attn_core::labs::NAMES;

/// The largest picture allowed, in bytes.
pub const MAX_BYTES: u64 = 200_000;

/// Builds, serves and saves the four pictures; fails naming a picture that is missing or too large.
pub fn run_command(root: &Path) -> Result<()> {
    toolchain::ensure_wasm_target()?;
    toolchain::ensure_wasm_bindgen_cli(root)?;
    toolchain::ensure_npm_packages(&root.join("tests"))?;
    toolchain::ensure_chromium()?;
    crate::fetch_model::ensure().context("the model lab's picture needs its default model")?;
    wasm::build(root)?;
    crate::bundle::build(root)?;

    let out = root.join(IMG_DIR);
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let server = server::spawn(&root.join("www"), PortChoice::Any)?;
    phase(&format!("screenshots of the labs (crates/xtask/screenshots.mjs) at {}", server.url));
    let mut node = Command::new("node");
    node.arg(root.join("crates/xtask/screenshots.mjs"))
        .arg(&server.url)
        .arg(&out)
        .current_dir(root)
        .env("CHROMIUM", std::env::var_os("CHROMIUM").unwrap_or_else(|| CHROMIUM.into()));
    let result = run(&mut node, "screenshots");
    drop(server);
    result?;

    let sizes = LABS
        .iter()
        .map(|lab| {
            let file = out.join(format!("{lab}.png"));
            let bytes = std::fs::metadata(&file).with_context(|| format!("{} was not written", file.display()))?.len();
            Ok((format!("{IMG_DIR}/{lab}.png"), bytes))
        })
        .collect::<Result<Vec<_>>>()?;
    for (file, bytes) in &sizes {
        println!("{file}: {bytes} bytes");
    }
    let problems = too_large(&sizes);
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(())
}

/// One line per picture over [`MAX_BYTES`].
pub fn too_large(sizes: &[(String, u64)]) -> Vec<String> {
    sizes
        .iter()
        .filter(|(_, bytes)| *bytes > MAX_BYTES)
        .map(|(file, bytes)| {
            format!("{file}: {bytes} bytes; at most {MAX_BYTES} (a smaller viewport or a calmer moment)")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_over_the_limit_is_named() {
        let sizes = [("docs/img/particles.png".to_string(), 150_000), ("docs/img/model.png".to_string(), 200_001)];
        let problems = too_large(&sizes);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("docs/img/model.png: 200001 bytes"), "{}", problems[0]);
    }

    #[test]
    fn the_checked_in_pictures_are_the_four_labs_and_small() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let sizes: Vec<(String, u64)> = LABS
            .iter()
            .map(|lab| {
                let file = root.join(IMG_DIR).join(format!("{lab}.png"));
                let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", file.display());
                (file.display().to_string(), bytes.len() as u64)
            })
            .collect();
        assert!(too_large(&sizes).is_empty(), "{:?}", too_large(&sizes));
    }
}
