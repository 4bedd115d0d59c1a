//! Shared helpers: repository paths, running commands with clear errors, phase headers.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

/// Root of the repository (the workspace), found from this crate's manifest folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/xtask lies two levels below the repository root")
        .to_path_buf()
}

/// Cargo's target folder: `$CARGO_TARGET_DIR` if set, else `target/` at the repository root.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => repo_root().join(dir),
        None => repo_root().join("target"),
    }
}

/// The cargo that runs us (`$CARGO`, set by `cargo run`), or `cargo` from `PATH`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Folder where `cargo install` puts binaries: `$CARGO_HOME/bin`, else `~/.cargo/bin`.
pub fn cargo_bin_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return Some(PathBuf::from(home).join("bin"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo").join("bin"))
}

/// Print a phase header so logs show where time goes and where a failure happened.
pub fn phase(name: &str) {
    println!("==> {name}");
}

/// A child process that exited unsuccessfully; `main` exits with the same code.
#[derive(Debug)]
pub struct ChildFailed {
    /// The command line that failed.
    pub command: String,
    /// Its exit code (`None` if it was killed by a signal).
    pub code: Option<i32>,
}

impl std::fmt::Display for ChildFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.code {
            Some(code) => write!(f, "`{}` exited with code {code}", self.command),
            None => write!(f, "`{}` was killed by a signal", self.command),
        }
    }
}

impl std::error::Error for ChildFailed {}

/// Run `cmd` (inheriting stdio) and fail with `what` if it cannot start or exits non-zero.
pub fn run(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd.status().with_context(|| format!("{what}: could not start `{}`", describe(cmd)))?;
    if !status.success() {
        let failed = ChildFailed { command: describe(cmd), code: status.code() };
        return Err(anyhow::Error::new(failed).context(format!("{what} failed")));
    }
    Ok(())
}

/// Run `cmd` and return its stdout, or `None` if it cannot start or exits non-zero.
pub fn output_of(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A command line as text, for messages.
pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program()).chain(cmd.get_args()).map(OsStr::to_string_lossy).collect::<Vec<_>>().join(" ")
}
