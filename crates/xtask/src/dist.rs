//! `cargo xtask dist`: build the wasm and copy `www/` (with `pkg/`) into a self-contained folder
//! that a static host can serve from any sub-path (the frontend uses only relative URLs).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::util::{phase, repo_root};
use crate::{toolchain, wasm};

/// Build and copy `www/` into `out` (default `dist/` at the repository root), replacing it.
pub fn run(out: Option<PathBuf>) -> Result<()> {
    let root = repo_root();
    toolchain::ensure_wasm_target()?;
    toolchain::ensure_wasm_bindgen_cli(&root)?;
    wasm::build(&root)?;

    let www = root.join("www");
    let out = out.unwrap_or_else(|| root.join("dist"));
    phase(&format!("copy www/ to {}", out.display()));
    let (out_abs, www_abs) = (std::path::absolute(&out)?, www.canonicalize()?);
    if out_abs.starts_with(&www_abs) || www_abs.starts_with(&out_abs) {
        bail!("--out {} must lie outside www/ and must not contain it", out.display());
    }
    if out.exists() {
        // Replace only an earlier dist output (or an empty folder), never anything else.
        let empty = std::fs::read_dir(&out)?.next().is_none();
        if !empty && !out.join("index.html").is_file() {
            bail!("--out {} exists and is not an earlier dist output (no index.html); not replacing it", out.display());
        }
        std::fs::remove_dir_all(&out).with_context(|| format!("cannot remove {}", out.display()))?;
    }
    let count = copy_dir(&www, &out)?;
    println!("wrote {count} files to {}", out.display());
    Ok(())
}

/// Copy the folder `from` to `to` recursively; returns the number of files copied.
fn copy_dir(from: &Path, to: &Path) -> Result<usize> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut count = 0;
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot list {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            count += copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).with_context(|| format!("cannot copy {}", entry.path().display()))?;
            count += 1;
        }
    }
    Ok(count)
}
