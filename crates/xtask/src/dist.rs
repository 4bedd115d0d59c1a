//! `cargo xtask dist [--with-model]`: build the wasm and copy `www/` (with `pkg/`) into a
//! self-contained folder that a static host can serve from any sub-path (the frontend uses only
//! relative URLs). `--with-model` also copies the model lab's default model (the model cache's
//! folder, fetched first when missing: [`crate::fetch_model::ensure`]) into
//! `models/all-MiniLM-L6-v2/`, where the page looks for it; without it the folder has no
//! `models/` and the hosted model lab offers only the user's own files (its
//! Content-Security-Policy allows `connect-src 'self'` only). Every text and wasm file gets a gzip
//! copy beside it (`X.gz`, [`crate::compress::gzip_tree`]) for hosts that serve pre-compressed
//! files (nginx's `gzip_static`, for one); the weights are not compressed.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::util::{phase, repo_root};
use crate::{toolchain, wasm};

/// The model's files the page reads (and its card, for its Apache-2.0 notice), and whether each
/// is required.
const MODEL_FILES: [(&str, bool); 5] = [
    ("config.json", true),
    ("vocab.txt", true),
    ("tokenizer_config.json", false),
    ("model.safetensors", true),
    (crate::fetch_model::MODEL_CARD, false),
];

/// Build and copy `www/` into `out` (default `dist/` at the repository root), replacing it; with
/// `with_model`, the cached default model too ([`copy_model`]).
pub fn run(out: Option<PathBuf>, with_model: bool) -> Result<()> {
    let root = repo_root();
    toolchain::ensure_wasm_target()?;
    toolchain::ensure_wasm_bindgen_cli(&root)?;
    wasm::build(&root)?;
    crate::bundle::build(&root)?;

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
    let mut count = copy_dir(&www, &out)?;
    if with_model {
        let model = crate::fetch_model::ensure()?;
        phase(&format!("copy the model {} into {}", model.display(), out.join("models").display()));
        count += copy_model(&model, &out)?;
    }
    phase("gzip copies of the text and wasm files");
    let gz = crate::compress::gzip_tree(&out)?;
    println!("wrote {count} files and {gz} gzip copies to {}", out.display());
    Ok(())
}

/// Copies the model folder `model`'s files ([`MODEL_FILES`]) into `out/models/NAME/` (NAME the
/// default model's); returns the number of files copied. Fails naming a missing required file.
pub fn copy_model(model: &Path, out: &Path) -> Result<usize> {
    let to = out.join("models").join(attn_core::model::DEFAULT_MODEL);
    std::fs::create_dir_all(&to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut count = 0;
    for (name, required) in MODEL_FILES {
        let from = model.join(name);
        if !from.is_file() {
            if required {
                bail!("the model folder {} has no {name}: run cargo xtask fetch-model", model.display());
            }
            continue;
        }
        std::fs::copy(&from, to.join(name)).with_context(|| format!("cannot copy {}", from.display()))?;
        count += 1;
    }
    Ok(count)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_model_puts_the_pages_files_under_models_and_names_a_missing_one() {
        let root = std::env::temp_dir().join(format!("xtask-dist-model-{}", std::process::id()));
        let (model, out) = (root.join("model"), root.join("dist"));
        std::fs::create_dir_all(&model).unwrap();
        for (name, text) in [("config.json", "{}"), ("vocab.txt", "[CLS]\n"), ("tokenizer.json", "{}")] {
            std::fs::write(model.join(name), text).unwrap();
        }
        let err = copy_model(&model, &out).unwrap_err().to_string();
        assert!(err.contains("has no model.safetensors") && err.contains("fetch-model"), "{err}");
        std::fs::write(model.join("model.safetensors"), b"weights").unwrap();
        assert_eq!(copy_model(&model, &out).unwrap(), 3);
        let to = out.join("models/all-MiniLM-L6-v2");
        assert_eq!(std::fs::read(to.join("model.safetensors")).unwrap(), b"weights");
        assert_eq!(std::fs::read_to_string(to.join("vocab.txt")).unwrap(), "[CLS]\n");
        assert!(!to.join("tokenizer.json").exists(), "only the files the page reads");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn www_has_no_models_folder_so_a_dist_without_the_flag_has_none() {
        // `copy_dir` copies www/ as it is: the model is only ever added by `--with-model`.
        assert!(!repo_root().join("www/models").exists());
    }
}
