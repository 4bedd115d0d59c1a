//! The browser tests (`tests/e2e/*.test.mjs`, `node --test` driving Debian's Chromium through
//! playwright-core) against `www/` served on a free port.
//!
//! The files run in parallel ([`jobs`] at a time: the server serves many pages, and each file
//! launches its own browser and writes only its own temporary files), except those of [`ALONE`],
//! which time the page or need its frames on time: they run one at a time after the others, so
//! a neighbour's load cannot slow what they measure.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::server::{self, PortChoice};
use crate::toolchain::CHROMIUM;
use crate::util::{self, phase, target_dir};

/// The test files (`NAME.test.mjs`) that run alone, after the others, and why.
pub const ALONE: [(&str, &str); 9] = [
    ("particles_fixes", "a frame's longest task at n = 4096; the chart's samples at 1000 steps per frame"),
    ("frame_cadence", "counts the frames a pooled run asks for"),
    ("status_cadence", "times the status line's writes"),
    ("pool", "the page plays n = 4096 in the worker pool and times the main thread's answers"),
    ("pool_analyses", "the workers' analyses while a pooled run plays"),
    ("layout", "waits for a playing run's steps per second on a phone"),
    ("export_defects", "a 10 s WebM recording's duration against the wall clock"),
    ("first_seconds", "reads the front page 2, 3 and 5 s after opening, when the dots have merged"),
    ("opening", "bounds the depth lab's time to fully drawn and reads each lab 10 s after opening"),
];

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

/// Whether a test file is one of [`ALONE`].
pub fn runs_alone(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    ALONE.iter().any(|(stem, _)| name == format!("{stem}.test.mjs"))
}

/// How many files run at once: `ATTN_E2E_JOBS`, else one more than the cores (the pages wait on
/// timers and the browser as much as they compute).
fn jobs() -> usize {
    std::env::var("ATTN_E2E_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get() + 1))
}

/// Serve `www/` and run `files`: the parallel ones, then those that run alone.
pub fn run(root: &Path, files: &[PathBuf]) -> Result<()> {
    let mut together = Vec::new();
    let mut alone = Vec::new();
    for file in files {
        if runs_alone(file) {
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
    fn every_file_that_runs_alone_exists() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e");
        for (stem, _) in ALONE {
            let file = dir.join(format!("{stem}.test.mjs"));
            assert!(file.exists() && runs_alone(&file), "{}", file.display());
        }
        assert!(!runs_alone(&dir.join("tour.test.mjs")));
    }
}
