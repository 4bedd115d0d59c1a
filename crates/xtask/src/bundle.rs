//! The page's script as one file: `www/bundle/main.js` (and its source map), which
//! `www/index.html` loads, built by esbuild from `www/main.js` and every module it imports
//! (`crates/xtask/bundle/bundle.mjs` says what stays outside: the wasm glue of `www/pkg/` and the
//! workers). Each module the browser fetches before the first frame costs it a few ms on these
//! machines whatever the server does, and the page had about eighty (docs/bench.md, "Opening").
//! esbuild is an npm package of `crates/xtask/bundle/` (`npm ci` there when missing).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result};

use crate::toolchain::ensure_npm_packages;
use crate::util::{phase, run};

/// The folder of the bundler's script and npm packages, relative to the repository root.
pub const TOOL_DIR: &str = "crates/xtask/bundle";

fn script(root: &Path) -> PathBuf {
    root.join(TOOL_DIR).join("bundle.mjs")
}

/// Writes `www/bundle/main.js` from the page's modules (installs esbuild first when missing).
pub fn build(root: &Path) -> Result<()> {
    ensure_npm_packages(&root.join(TOOL_DIR))?;
    phase("bundle the page's modules (esbuild: www/main.js -> www/bundle/main.js)");
    run(Command::new("node").arg(script(root)).current_dir(root), "bundling www/main.js (node, esbuild)")
}

/// Starts esbuild watching `www/` (after [`build`]): every saved change rewrites the bundle, so a
/// reload of the served page shows it. The watcher exits when its stdin closes, i.e. with the
/// process that holds the returned child.
pub fn watch(root: &Path) -> Result<Child> {
    Command::new("node")
        .arg(script(root))
        .arg("--watch")
        .current_dir(root)
        .stdin(Stdio::piped())
        .spawn()
        .context("cannot start the bundler's watcher (node)")
}
