//! The browser tests (`tests/e2e/*.test.mjs`, `node --test` driving Debian's Chromium through
//! playwright-core) against `www/` served on a free port.
//!
//! The files run in parallel ([`jobs`] at a time: the server serves many pages, and each file
//! launches its own browser), except the files that time the page or compare its rate with
//! another's: those say `// e2e: alone (REASON)` in their first lines and run one at a time after
//! the others, so a neighbour's load cannot slow what they measure.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::server::{self, PortChoice};
use crate::toolchain::CHROMIUM;
use crate::util::{self, phase, target_dir};

/// The marker of a test file that must run alone.
pub const ALONE: &str = "// e2e: alone";

/// The test files of `dir` to run: every `*.test.mjs` (sorted) when `names` is empty, else each
/// name as `tour`, `tour.test.mjs` or a path to the file.
pub fn files(dir: &Path, names: &[String]) -> Result<Vec<PathBuf>> {
    let all = test_files(dir)?;
    if names.is_empty() {
        return Ok(all);
    }
    names
        .iter()
        .map(|name| {
            let base = Path::new(name).file_name().and_then(|n| n.to_str()).unwrap_or(name);
            let stem = base.trim_end_matches(".mjs").trim_end_matches(".js").trim_end_matches(".test");
            all.iter()
                .find(|f| f.file_name().and_then(|n| n.to_str()).is_some_and(|n| n == format!("{stem}.test.mjs")))
                .cloned()
                .with_context(|| format!("--e2e {name}: no tests/e2e/{stem}.test.mjs"))
        })
        .collect()
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

/// Whether a test file carries the [`ALONE`] marker in its first 20 lines.
pub fn runs_alone(text: &str) -> bool {
    text.lines().take(20).any(|line| line.trim_start().starts_with(ALONE))
}

/// How many files run at once: `ATTN_E2E_JOBS`, else 1.
fn jobs() -> usize {
    std::env::var("ATTN_E2E_JOBS").ok().and_then(|v| v.parse().ok()).filter(|&n| n >= 1).unwrap_or(1)
}

/// Serve `www/` and run `files`: the parallel ones, then those that run alone.
pub fn run(root: &Path, files: &[PathBuf]) -> Result<()> {
    let mut together = Vec::new();
    let mut alone = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
        if runs_alone(&text) {
            alone.push(file.clone());
        } else {
            together.push(file.clone());
        }
    }
    let server = server::spawn(&root.join("www"), PortChoice::Any)?;
    println!("serving www/ at {}", server.url);
    let jobs = jobs();
    let mut result = Ok(());
    if !together.is_empty() {
        phase(&format!("browser tests: {} files, {jobs} at a time (node --test)", together.len()));
        result = node(root, &server.url, &together, jobs);
    }
    if !alone.is_empty() && result.is_ok() {
        phase(&format!("browser tests that time the page: {} files, one at a time", alone.len()));
        result = node(root, &server.url, &alone, 1);
    }
    drop(server);
    result
}

/// `node --test --test-concurrency=JOBS FILES` with the page's URL, the CLI and the browser.
fn node(root: &Path, url: &str, files: &[PathBuf], jobs: usize) -> Result<()> {
    let mut node = Command::new("node");
    node.arg("--test")
        .arg(format!("--test-concurrency={jobs}"))
        .args(files)
        .current_dir(root)
        .env("ATTN_URL", url)
        .env("ATTN_BIN", target_dir().join("release").join("attn"))
        .env("CHROMIUM", std::env::var_os("CHROMIUM").unwrap_or_else(|| CHROMIUM.into()));
    util::run(&mut node, "browser tests")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_test_files_and_an_unknown_name_is_refused() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e");
        let by_stem = files(&dir, &["tour".into(), "tests/e2e/page.test.mjs".into()]).unwrap();
        assert!(by_stem[0].ends_with("tour.test.mjs") && by_stem[1].ends_with("page.test.mjs"), "{by_stem:?}");
        let err = files(&dir, &["no_such".into()]).unwrap_err().to_string();
        assert!(err.contains("no tests/e2e/no_such.test.mjs"), "{err}");
        assert!(files(&dir, &[]).unwrap().len() > 30);
    }

    #[test]
    fn the_marker_counts_only_near_the_top() {
        assert!(runs_alone("// Frames.\n// e2e: alone (it counts frames)\nimport x;"));
        assert!(!runs_alone(&format!("{}// e2e: alone\n", "x\n".repeat(30))));
        assert!(!runs_alone("// e2e: together"));
    }
}
