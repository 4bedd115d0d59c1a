//! Installing what the build and the tests need, only when it is missing or out of date:
//! the wasm32 target, the wasm-bindgen CLI (same version as the crate in Cargo.lock),
//! the npm packages of `tests/` and of the bundler (`crates/xtask/bundle/`), and Debian's Chromium.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{bail, Context, Result};

use crate::util::{cargo, cargo_bin_dir, output_of, phase, run};

/// The rustc target the playground's core is compiled to.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Where Debian's `chromium` package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Add the wasm32 target with rustup unless it is already installed.
pub fn ensure_wasm_target() -> Result<()> {
    let installed = output_of(Command::new("rustup").args(["target", "list", "--installed"]))
        .context("`rustup target list --installed` failed: is rustup installed and on PATH?")?;
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        return Ok(());
    }
    phase(&format!("install rust target {WASM_TARGET}"));
    run(Command::new("rustup").args(["target", "add", WASM_TARGET]), "rustup target add")
}

/// Adds the `rustfmt` and `clippy` components when `cargo fmt` / `cargo clippy` are missing
/// (a minimal rustup profile has neither).
pub fn ensure_lint_components() -> Result<()> {
    for (component, probe) in [("rustfmt", "fmt"), ("clippy", "clippy")] {
        let present = Command::new("cargo").args([probe, "--version"]).output().is_ok_and(|o| o.status.success());
        if !present {
            phase(&format!("install rust component {component}"));
            run(Command::new("rustup").args(["component", "add", component]), "rustup component add")?;
        }
    }
    Ok(())
}

/// Version of the `wasm-bindgen` crate recorded in the workspace's Cargo.lock.
pub fn locked_wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock_path = root.join("Cargo.lock");
    let lock = std::fs::read_to_string(&lock_path).with_context(|| format!("cannot read {}", lock_path.display()))?;
    version_in_lock(&lock, "wasm-bindgen")
        .with_context(|| format!("no `wasm-bindgen` package in {}", lock_path.display()))
}

/// The `version` of the first `[[package]]` named `name` in the text of a Cargo.lock.
fn version_in_lock(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    lock.split("[[package]]").find_map(|block| {
        let mut lines = block.lines().map(str::trim);
        lines.clone().any(|line| line == wanted).then_some(())?;
        lines.find_map(|line| {
            line.strip_prefix("version = \"").and_then(|rest| rest.strip_suffix('"')).map(str::to_owned)
        })
    })
}

/// Path of the wasm-bindgen CLI: the one `cargo install` put in cargo's bin folder, else `PATH`'s.
pub fn wasm_bindgen_cli() -> PathBuf {
    cargo_bin_dir()
        .map(|dir| dir.join("wasm-bindgen"))
        .filter(|path| path.is_file())
        .unwrap_or_else(|| PathBuf::from("wasm-bindgen"))
}

/// Version printed by `wasm-bindgen --version` (`wasm-bindgen 0.2.130` → `0.2.130`), if it runs.
fn installed_wasm_bindgen_version() -> Option<String> {
    let out = output_of(Command::new(wasm_bindgen_cli()).arg("--version"))?;
    out.split_whitespace().nth(1).map(str::to_owned)
}

/// Install the wasm-bindgen CLI matching Cargo.lock unless that exact version is already there.
///
/// `--locked` is deliberately not passed: on this kind of machine one of the CLI's locked
/// transitive versions is not in the reachable index. The install takes several minutes.
pub fn ensure_wasm_bindgen_cli(root: &Path) -> Result<()> {
    let wanted = locked_wasm_bindgen_version(root)?;
    let have = installed_wasm_bindgen_version();
    if have.as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    phase(&format!(
        "install wasm-bindgen-cli {wanted} (found: {}; this takes several minutes)",
        have.as_deref().unwrap_or("none")
    ));
    run(cargo().args(["install", "wasm-bindgen-cli", "--version", &wanted]), "cargo install wasm-bindgen-cli")?;
    match installed_wasm_bindgen_version() {
        Some(v) if v == wanted => Ok(()),
        other => {
            bail!("after installing, `{} --version` reports {other:?}, expected {wanted}", wasm_bindgen_cli().display())
        }
    }
}

/// Run `npm ci` in `dir` (`tests/`, or the bundler's folder) if its node_modules is missing or
/// older than its lock file.
pub fn ensure_npm_packages(dir: &Path) -> Result<()> {
    let lock = dir.join("package-lock.json");
    // npm writes this hidden lock file on every install; its age tells when node_modules was made.
    let installed = dir.join("node_modules").join(".package-lock.json");
    let fresh = match (modified(&installed), modified(&lock), modified(&dir.join("package.json"))) {
        (Some(inst), Some(lock), Some(pkg)) => inst >= lock && inst >= pkg,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    phase(&format!("install npm packages (npm ci in {})", dir.display()));
    run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir), "npm ci")
}

/// Modification time of a file, if it exists.
fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Install Debian's `chromium` and `chromium-driver` with apt if the browser is missing.
pub fn ensure_chromium() -> Result<()> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    phase("install Debian chromium and chromium-driver (apt-get)");
    run(Command::new("apt-get").arg("update"), "apt-get update (needs root)")?;
    run(
        Command::new("apt-get")
            .args(["install", "-y", "chromium", "chromium-driver"])
            .env("DEBIAN_FRONTEND", "noninteractive"),
        "apt-get install chromium chromium-driver (needs root)",
    )?;
    if !Path::new(CHROMIUM).exists() {
        bail!("apt-get installed chromium but {CHROMIUM} is still missing");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::version_in_lock;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen-backend"
version = "0.2.99"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
"#;

    #[test]
    fn finds_exact_package_version() {
        assert_eq!(version_in_lock(LOCK, "wasm-bindgen").as_deref(), Some("0.2.130"));
        assert_eq!(version_in_lock(LOCK, "wasm-bindgen-backend").as_deref(), Some("0.2.99"));
        assert_eq!(version_in_lock(LOCK, "js-sys"), None);
    }
}
