//! The Python side of the benchmark: a virtual environment in `target/bench-venv` with NumPy
//! (installed when missing) and JAX (tried with `pip install jax` when missing; reported as
//! unavailable when that fails), and the environment the reference scripts run in.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{describe, output_of, phase, target_dir};

/// Variables removed from the environment of the Python references only: they slow NumPy's
/// OpenBLAS on these machines.
pub const REMOVED_VARS: [&str; 2] = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"];

/// What the benchmark can run in Python.
pub struct Python {
    /// The virtual environment's interpreter.
    pub exe: PathBuf,
    /// NumPy's version (and BLAS), or why it cannot be used.
    pub numpy: Result<String, String>,
    /// JAX's version, or why it cannot be used (with how to install it).
    pub jax: Result<String, String>,
}

/// Versions reported by `reference.py --versions`.
struct Versions {
    numpy: Result<String, String>,
    jax: Result<String, String>,
}

fn versions(exe: &Path, script: &Path) -> Versions {
    let missing = |what: &str| Err(format!("{what} cannot be imported"));
    let Some(text) = output_of(Command::new(exe).arg(script).arg("--versions").env("PYTHONDONTWRITEBYTECODE", "1"))
    else {
        return Versions { numpy: missing("python"), jax: missing("python") };
    };
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_default();
    let field = |key: &str| v.get(key).and_then(|x| x.as_str()).map(str::to_owned);
    let numpy = match (field("numpy"), field("blas")) {
        (Some(version), Some(blas)) => Ok(format!("NumPy {version} ({blas})")),
        (Some(version), None) => Ok(format!("NumPy {version}")),
        _ => Err(field("numpy_error").unwrap_or_else(|| "numpy cannot be imported".into())),
    };
    let jax = field("jax")
        .map(|version| format!("JAX {version}"))
        .ok_or_else(|| field("jax_error").unwrap_or_else(|| "jax cannot be imported".into()));
    Versions { numpy, jax }
}

/// `pip install` one package into the environment (quietly); whether it succeeded.
fn pip_install(exe: &Path, package: &str) -> bool {
    phase(&format!("python: pip install {package} (into target/bench-venv)"));
    let mut cmd = Command::new(exe);
    cmd.args(["-m", "pip", "install", "--quiet", package]);
    match cmd.status() {
        Ok(status) if status.success() => true,
        Ok(_) | Err(_) => {
            println!("    `{}` failed", describe(&cmd));
            false
        }
    }
}

/// Makes the environment if it is missing, installs NumPy if it is missing, tries JAX if it is
/// missing; never fails (what is unavailable says why).
pub fn setup(script: &Path) -> Python {
    let venv = target_dir().join("bench-venv");
    let exe = venv.join("bin").join("python");
    if !exe.exists() {
        phase(&format!("python: python3 -m venv {}", venv.display()));
        let made =
            Command::new("python3").arg("-m").arg("venv").arg(&venv).status().map(|s| s.success()).unwrap_or(false);
        if !made {
            let why = "`python3 -m venv` failed: install Python 3 with its venv module (Debian: apt-get install python3-venv)".to_string();
            return Python { exe, numpy: Err(why.clone()), jax: Err(why) };
        }
    }
    let mut found = versions(&exe, script);
    if found.numpy.is_err() && pip_install(&exe, "numpy") {
        found = versions(&exe, script);
    }
    if found.numpy.is_ok() && found.jax.is_err() && pip_install(&exe, "jax") {
        found = versions(&exe, script);
    }
    let jax = found.jax.map_err(|why| {
        format!("JAX is not available ({why}); install it with `{} -m pip install jax` and run again", exe.display())
    });
    Python { exe, numpy: found.numpy, jax }
}

/// The command running `script` with this environment's Python: default threads, the
/// [`REMOVED_VARS`] removed, no bytecode written into the repository.
pub fn command(python: &Python, script: &Path) -> Command {
    let mut cmd = Command::new(&python.exe);
    cmd.arg(script).env("PYTHONDONTWRITEBYTECODE", "1");
    for var in REMOVED_VARS {
        cmd.env_remove(var);
    }
    cmd
}

/// The packages Flax needs: transformers 5 has no Flax models, so transformers 4.
pub const FLAX_PACKAGES: [&str; 2] = ["flax", "transformers<5"];

/// Whether `transformers.FlaxBertModel` imports in the environment: when it does not, tries
/// `pip install flax 'transformers<5'` once. The error says why Flax cannot be used.
pub fn ensure_flax(python: &Python) -> Result<(), String> {
    let imports = || {
        Command::new(&python.exe)
            .args(["-c", "from transformers import FlaxBertModel"])
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .map_err(|e| e.to_string())
            .and_then(|o| match o.status.success() {
                true => Ok(()),
                false => Err(String::from_utf8_lossy(&o.stderr).lines().last().unwrap_or("").to_string()),
            })
    };
    if imports().is_ok() {
        return Ok(());
    }
    phase("python: pip install flax 'transformers<5' (into target/bench-venv)");
    let mut cmd = Command::new(&python.exe);
    cmd.args(["-m", "pip", "install", "--quiet"]).args(FLAX_PACKAGES);
    if !cmd.status().map(|s| s.success()).unwrap_or(false) {
        println!("    `{}` failed", describe(&cmd));
    }
    imports().map_err(|why| format!("{why}; `{} -m pip install flax 'transformers<5'`", python.exe.display()))
}
