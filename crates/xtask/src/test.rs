//! `cargo xtask test`: the whole test pipeline, one named phase after another, failing fast.
//!
//! 0. the repository's checks ([`crate::checks`]: no lab imports another lab's, ...);
//! 1. install what is missing (wasm target, wasm-bindgen CLI, the model lab's encoder
//!    ([`crate::fetch_model`], sha256 checked), npm packages, Chromium);
//! 2. `cargo fmt --check` and `cargo clippy -D warnings` (native, and the web crate for wasm32);
//! 3. build the wasm (`www/pkg`, with its `.d.ts`), check the page's modules' types against it
//!    (`tsc -p www/jsconfig.json`, unless `--skip-lint`), and build the `attn` CLI, both
//!    `--release`: the browser tests compare the page's numbers with this CLI's bit for bit;
//! 4. `cargo test --workspace --profile testing` (release optimisation without LTO: one test
//!    binary per crate links in seconds; with `ATTN_MODEL_DIR` set to the model's folder: the
//!    tests that need the model fail naming `cargo xtask fetch-model` when it is missing);
//! 5. serve `www/` on a free port and run the browser tests ([`crate::e2e`]).
//!
//! The default runs everything (what CI runs). For the inner loop: `--rust [FILTER]` runs only
//! the Rust tests (those whose path contains FILTER, e.g. `link::` or `encode::`), `--e2e
//! [FILE…]` only the browser tests, or these files (with the builds they need), `--skip-lint`
//! skips fmt and clippy; `--rust` and `--e2e` combine.

use anyhow::Result;

use crate::toolchain;
use crate::util::{self, cargo, phase, repo_root};
use crate::wasm;

/// Flags of `cargo xtask test`.
pub struct Options {
    /// Skip the browser phase of the full run.
    pub no_browser: bool,
    /// Skip all installs.
    pub no_install: bool,
    /// Only the Rust tests: `Some(None)` all of them, `Some(Some(filter))` those matching.
    pub rust: Option<Option<String>>,
    /// Only the browser tests: `Some(vec![])` all of them, else these files (names as `tour`,
    /// `tour.test.mjs` or a path).
    pub e2e: Option<Vec<String>>,
    /// Skip `cargo fmt --check` and clippy.
    pub skip_lint: bool,
}

impl Options {
    /// Whether the Rust tests run: in the full run, or asked by `--rust`.
    fn rust_tests(&self) -> bool {
        self.rust.is_some() || self.e2e.is_none()
    }

    /// Whether browser tests run: the full run's (unless `--no-browser`), or `--e2e`'s files.
    fn browser_tests(&self) -> bool {
        self.e2e.is_some() || (self.rust.is_none() && !self.no_browser)
    }
}

/// Run the pipeline.
pub fn run(options: Options) -> Result<()> {
    let root = repo_root();
    let tests_dir = root.join("tests");
    let browser = options.browser_tests();
    // The browser test files, resolved before anything is built so a misspelt name fails at once.
    let files = if browser {
        Some(crate::e2e::files(&tests_dir.join("e2e"), options.e2e.as_deref().unwrap_or(&[]))?)
    } else {
        None
    };

    phase("checks: the repository's shape");
    crate::checks::run(&root)?;

    if options.no_install {
        phase("install: skipped (--no-install)");
    } else {
        phase("install: check toolchain");
        if browser {
            toolchain::ensure_wasm_target()?;
            toolchain::ensure_wasm_bindgen_cli(&root)?;
        }
        if !options.skip_lint {
            toolchain::ensure_wasm_target()?;
            toolchain::ensure_lint_components()?;
        }
        println!("model: {}", crate::fetch_model::ensure()?.display());
        if browser {
            toolchain::ensure_npm_packages(&tests_dir)?;
            toolchain::ensure_chromium()?;
        }
    }

    if options.skip_lint {
        phase("format and lints: skipped (--skip-lint)");
    } else {
        lint(&root)?;
    }

    if browser {
        wasm::build(&root)?;
        crate::bundle::build(&root)?;
        if !options.skip_lint {
            typecheck(&root)?;
        }
        phase("build attn CLI (cargo build --release -p attn-cli)");
        util::run(cargo().args(["build", "--release", "-p", "attn-cli"]).current_dir(&root), "CLI build")?;
    }

    if options.rust_tests() {
        rust_tests(&root, options.rust.as_ref().and_then(|f| f.as_deref()))?;
    } else {
        phase("rust tests: skipped (--e2e without --rust)");
    }

    match files {
        Some(files) => crate::e2e::run(&root, &files),
        None => {
            phase("browser tests: skipped");
            Ok(())
        }
    }
}

/// `cargo fmt --check`, then clippy natively and for the web crate on wasm32 (both its builds).
fn lint(root: &std::path::Path) -> Result<()> {
    phase("format (cargo fmt --all --check)");
    util::run(cargo().args(["fmt", "--all", "--check"]).current_dir(root), "cargo fmt --check (run `cargo fmt`)")?;
    phase("lints (cargo clippy --workspace --all-targets -- -D warnings, and the web crate for wasm32)");
    util::run(
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).current_dir(root),
        "cargo clippy",
    )?;
    // Both builds of the page's wasm (crate::wasm::MODULES): with and without the model lab.
    for features in [&[][..], &["--no-default-features"][..]] {
        util::run(
            cargo()
                .args(["clippy", "-p", "attn-web", "--target", "wasm32-unknown-unknown"])
                .args(features)
                .args(["--", "-D", "warnings"])
                .current_dir(root),
            "cargo clippy (wasm32)",
        )?;
    }
    Ok(())
}

/// `tsc -p www/jsconfig.json`: the page's modules under `checkJs` against the wasm module's
/// generated `.d.ts` (TypeScript from `tests/package.json`), so a renamed export or a wrong
/// argument fails here rather than in Chromium.
fn typecheck(root: &std::path::Path) -> Result<()> {
    phase("types (tsc -p www/jsconfig.json: checkJs over the page's modules and www/pkg's .d.ts)");
    let tsc = root.join("tests").join("node_modules").join("typescript").join("bin").join("tsc");
    util::run(
        std::process::Command::new("node").arg(&tsc).args(["-p", "www/jsconfig.json"]).current_dir(root),
        "tsc (the page's types)",
    )
}

/// `cargo test --workspace --profile testing [-- FILTER]`.
fn rust_tests(root: &std::path::Path, filter: Option<&str>) -> Result<()> {
    phase(&format!(
        "rust tests (cargo test --workspace --profile testing{})",
        filter.map(|f| format!(" -- {f}")).unwrap_or_default()
    ));
    let model_dir = crate::fetch_model::model_dir()?;
    let mut command = cargo();
    command.args(["test", "--workspace", "--profile", "testing"]);
    if let Some(filter) = filter {
        command.args(["--", filter]);
    }
    util::run(command.env("ATTN_MODEL_DIR", &model_dir).current_dir(root), "Rust tests")
}
