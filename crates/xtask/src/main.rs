//! `cargo xtask` — the project's automation, in Rust so it runs wherever cargo does.
//!
//! Subcommands:
//! - `serve [--port P]`: install missing tools, build the wasm, serve `www/` on 127.0.0.1.
//! - `test [--no-browser] [--no-install]`: install, build, `cargo test`, then the browser tests.
//! - `bench [--min-seconds S]`: native and wasm-under-Node ms per step; the training lab's run
//!   and sweep times.
//! - `dist [--out DIR]`: build and copy `www/` (with `pkg/`) into a folder any static host can serve.
//!
//! Each concern lives in its own module: [`toolchain`] (installs), [`wasm`] (wasm build),
//! [`server`] (static file server), [`test`] (test pipeline), [`dist`] (static bundle),
//! and [`util`] (paths and running commands).

mod bench;
mod dist;
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
        /// Skip installing anything (wasm target, wasm-bindgen CLI, npm packages, Chromium).
        #[arg(long)]
        no_install: bool,
    },
    /// Time the stepper natively and in wasm under Node (ms per step, Euler and RK4,
    /// n in {64, 256, 1024}, d in {2, 3, 128}), then the training lab (100 iterations of
    /// scan-snap; the paper's 4 x 4 sweep with 10 seeds).
    Bench {
        /// Seconds measured per case.
        #[arg(long, default_value_t = 0.3)]
        min_seconds: f64,
    },
    /// Build the wasm and copy www/ (including pkg/) into a folder for static hosting.
    Dist {
        /// Output folder (default: dist/ at the repository root).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve { port } => server::serve_command(port),
        Command::Test {
            no_browser,
            no_install,
        } => test::run(test::Options {
            no_browser,
            no_install,
        }),
        Command::Dist { out } => dist::run(out),
        Command::Bench { min_seconds } => bench::run(&util::repo_root(), min_seconds),
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
