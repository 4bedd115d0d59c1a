//! `cargo xtask test`: the whole test pipeline, one named phase after another, failing fast.
//!
//! 0. the repository's checks ([`crate::checks`]: no lab imports another lab's);
//! 1. install what is missing (wasm target, wasm-bindgen CLI, the model lab's encoder
//!    ([`crate::fetch_model`], sha256 checked), npm packages, Chromium);
//! 2. `cargo fmt --check` and `cargo clippy -D warnings` (native, and the web crate for wasm32);
//! 3. build the wasm (`www/pkg`) and the `attn` CLI;
//! 4. `cargo test --workspace --release` (with `ATTN_MODEL_DIR` set to the model's folder: the
//!    tests that need the model fail naming `cargo xtask fetch-model` when it is missing);
//! 5. serve `www/` on a free port and run the browser tests (`node --test` on `tests/e2e/*.test.mjs`)
//!    with `ATTN_URL`, `ATTN_BIN` and `CHROMIUM` set.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::server::{self, PortChoice};
use crate::toolchain::{self, CHROMIUM};
use crate::util::{self, cargo, phase, repo_root, target_dir};
use crate::wasm;

/// Flags of `cargo xtask test`.
pub struct Options {
    /// Skip the browser phase.
    pub no_browser: bool,
    /// Skip all installs.
    pub no_install: bool,
}

/// Run the pipeline.
pub fn run(options: Options) -> Result<()> {
    let root = repo_root();
    let tests_dir = root.join("tests");

    phase("checks: the repository's shape");
    crate::checks::run(&root)?;

    if options.no_install {
        phase("install: skipped (--no-install)");
    } else {
        phase("install: check toolchain");
        toolchain::ensure_wasm_target()?;
        toolchain::ensure_lint_components()?;
        toolchain::ensure_wasm_bindgen_cli(&root)?;
        println!("model: {}", crate::fetch_model::ensure()?.display());
        if !options.no_browser {
            toolchain::ensure_npm_packages(&tests_dir)?;
            toolchain::ensure_chromium()?;
        }
    }

    phase("format (cargo fmt --all --check)");
    util::run(cargo().args(["fmt", "--all", "--check"]).current_dir(&root), "cargo fmt --check (run `cargo fmt`)")?;
    phase("lints (cargo clippy --workspace --all-targets -- -D warnings, and the web crate for wasm32)");
    util::run(
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).current_dir(&root),
        "cargo clippy",
    )?;
    util::run(
        cargo()
            .args(["clippy", "-p", "attn-web", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])
            .current_dir(&root),
        "cargo clippy (wasm32)",
    )?;

    wasm::build(&root)?;

    phase("build attn CLI (cargo build --release -p attn-cli)");
    util::run(cargo().args(["build", "--release", "-p", "attn-cli"]).current_dir(&root), "CLI build")?;

    phase("rust tests (cargo test --workspace --release)");
    let model_dir = crate::fetch_model::model_dir()?;
    util::run(
        cargo().args(["test", "--workspace", "--release"]).env("ATTN_MODEL_DIR", &model_dir).current_dir(&root),
        "Rust tests",
    )?;

    if options.no_browser {
        phase("browser tests: skipped (--no-browser)");
        return Ok(());
    }
    browser_tests(&root, &tests_dir)
}

/// Serve `www/` on a free port and run the node tests in `tests/e2e` against it.
fn browser_tests(root: &Path, tests_dir: &Path) -> Result<()> {
    phase("browser tests (node --test tests/e2e)");
    let files = test_files(&tests_dir.join("e2e"))?;
    let server = server::spawn(&root.join("www"), PortChoice::Any)?;
    println!("serving www/ at {}", server.url);
    let attn_bin = target_dir().join("release").join("attn");

    let mut node = Command::new("node");
    node.args(["--test", "--test-concurrency=1"])
        .args(&files)
        .current_dir(root)
        .env("ATTN_URL", &server.url)
        .env("ATTN_BIN", &attn_bin)
        .env("CHROMIUM", std::env::var_os("CHROMIUM").unwrap_or_else(|| CHROMIUM.into()));
    let result = util::run(&mut node, "browser tests");
    drop(server);
    result
}

/// The test files of `dir` (`*.test.mjs` / `*.test.js`), sorted. Listed here rather than
/// passing the folder, because how `node --test` treats a folder changed between Node versions.
fn test_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.ends_with(".test.mjs") || name.ends_with(".test.js"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no *.test.mjs files in {}", dir.display());
    }
    Ok(files)
}
