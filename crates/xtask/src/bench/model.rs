//! The model benchmark (docs/bench.md): all-MiniLM-L6-v2 on a fixed 128-token text
//! (`bench/model_text.txt`), the forward with every attention map and head output kept, side by
//! side in one run: native on one thread and on all cores (`attn bench --model`), wasm under Node
//! (`bench/model_wasm.mjs`, one worker as in the page), a NumPy float32 reference of the same
//! forward (`bench/model_numpy.py`, checked against `attn encode`'s last hidden state), the
//! page's full analysis of a new text in headless Chromium (`bench/model_page.mjs`), Flax when
//! it imports; the products' GFLOP/s as a fraction of the measured peaks ([`super::peak`]); the
//! page's wasm memory for MiniLM and for a random bert-base-sized model; the targets.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::load::one_minute;
use super::model_report::{f, Loads, PageCase};
use super::peak::Peaks;
use super::python::{self, Python};
use crate::server::{self, PortChoice};
use crate::util::{output_of, phase, target_dir};

/// The benchmark's text, relative to the repository (128 tokens with `[CLS]` and `[SEP]`).
pub const TEXT: &str = "crates/xtask/bench/model_text.txt";
/// Tokens the text must have.
pub const TOKENS: usize = 128;
/// A natural paragraph of 512 tokens with `[CLS]` and `[SEP]` (the model's longest input), for the
/// page's whole analysis.
pub const PARAGRAPH: &str = "crates/xtask/bench/model_text_512.txt";
/// Tokens of [`PARAGRAPH`], and of the repeated word's text (`"the "` 510 times).
pub const LONG_TOKENS: usize = 512;
/// The page's budgets (ms) for the whole analysis of a new text: 128 tokens, then 512.
pub const PAGE_BUDGET_MS: f64 = 400.0;
pub const LONG_PAGE_BUDGET_MS: f64 = 2000.0;

/// What the model benchmark needs.
pub struct Setup<'a> {
    pub root: &'a Path,
    pub attn: PathBuf,
    pub python: &'a Python,
    pub threads: usize,
    pub rounds: usize,
    pub peaks: &'a Peaks,
}

/// One JSON line of a command's stdout (its last line starting with `{`), or why there is none.
fn json_of(cmd: &mut Command, what: &str) -> std::result::Result<Value, String> {
    let out = cmd.output().map_err(|e| format!("{what}: cannot start: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| l.starts_with('{'));
    match line.map(serde_json::from_str::<Value>) {
        Some(Ok(v)) if v.get("error").is_none() => Ok(v),
        Some(Ok(v)) => Err(format!("{what}: {}", v["error"])),
        _ => Err(format!(
            "{what}: no result (exit {:?}): {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        )),
    }
}

/// The native forward of `dir` on `threads` threads: `attn bench --model`.
fn native(s: &Setup, dir: &Path, text: &Path, threads: usize, rounds: usize) -> std::result::Result<Value, String> {
    let mut cmd = Command::new(&s.attn);
    cmd.args(["bench", "--json", "--model"]).arg(dir).arg("--text-file").arg(text);
    cmd.args(["--threads", &threads.to_string(), "--rounds", &rounds.to_string()]);
    json_of(&mut cmd, &format!("attn bench --model --threads {threads}"))
}

/// wasm under Node: `bench/model_wasm.mjs`.
fn wasm(s: &Setup, dir: &Path, name: &str, text: &Path, rounds: usize) -> std::result::Result<Value, String> {
    let mut cmd = Command::new("node");
    cmd.arg(s.root.join("crates/xtask/bench/model_wasm.mjs")).arg(s.root.join("www/pkg")).arg(dir).arg(name).arg(text);
    json_of(cmd.arg(rounds.to_string()).current_dir(s.root), "model_wasm.mjs")
}

/// The page in headless Chromium: `bench/model_page.mjs` against `www/` served here.
fn page(s: &Setup, id: &str, text: &Path) -> std::result::Result<Value, String> {
    let rounds = s.rounds.clamp(3, 5).to_string();
    let server = server::spawn(&s.root.join("www"), PortChoice::Any).map_err(|e| format!("serve: {e:#}"))?;
    let mut cmd = Command::new("node");
    cmd.arg(s.root.join("crates/xtask/bench/model_page.mjs")).arg(id).arg(text).arg(rounds);
    cmd.env("ATTN_URL", &server.url).current_dir(s.root);
    json_of(&mut cmd, "model_page.mjs")
}

/// Flax (transformers' FlaxBertModel) when it imports: `bench/model_flax.py`.
fn flax(s: &Setup, dir: &Path, encode_json: &Path) -> std::result::Result<Value, String> {
    python::ensure_flax(s.python)?;
    let mut cmd = python::command(s.python, &s.root.join("crates/xtask/bench/model_flax.py"));
    json_of(cmd.arg(dir).arg(encode_json).arg(s.rounds.to_string()), "Flax")
}

/// `attn encode`'s JSON of `text` (trailing white space removed) on the model in `dir`: the text
/// and its value.
fn encode(attn: &Path, dir: &Path, text: &str) -> Result<(String, Value)> {
    let mut cmd = Command::new(attn);
    cmd.args(["encode", "--model"]).arg(dir).arg("--text").arg(text.trim_end());
    let encoded = output_of(&mut cmd).context("attn encode failed")?;
    let value = serde_json::from_str(encoded.trim())?;
    Ok((encoded, value))
}

/// Runs the model benchmark and prints its table, memory lines and targets.
pub fn run(s: &Setup) -> Result<()> {
    let dir = crate::fetch_model::ensure().context("the model benchmark needs all-MiniLM-L6-v2")?;
    let name = attn_core::model::DEFAULT_MODEL;
    let text_path = s.root.join(TEXT);
    let text = std::fs::read_to_string(&text_path).with_context(|| format!("cannot read {TEXT}"))?;
    let work = target_dir().join("bench").join("model");
    std::fs::create_dir_all(&work)?;

    phase("model: attn encode (token ids and the last hidden state for NumPy)");
    let (encoded, enc) = encode(&s.attn, &dir, &text)?;
    let encode_json = work.join("encode.json");
    std::fs::write(&encode_json, &encoded)?;
    let n = enc["ids"].as_array().map_or(0, Vec::len);
    if n != TOKENS {
        bail!("{TEXT} has {n} tokens with [CLS] and [SEP]; the benchmark's text must have {TOKENS}");
    }
    let paragraph =
        std::fs::read_to_string(s.root.join(PARAGRAPH)).with_context(|| format!("cannot read {PARAGRAPH}"))?;
    let long = encode(&s.attn, &dir, &paragraph)?.1["ids"].as_array().map_or(0, Vec::len);
    if long != LONG_TOKENS {
        bail!("{PARAGRAPH} has {long} tokens with [CLS] and [SEP]; the paragraph must have {LONG_TOKENS}");
    }
    let sha = enc["model"]["sha256"].as_str().unwrap_or_default();
    let id = format!("{name}@{}", &sha[..16.min(sha.len())]);

    phase(&format!("model: native forward, 1 and {} threads (attn bench --model)", s.threads));
    let mut loads = Loads { native1: one_minute(), ..Loads::default() };
    let native1 = native(s, &dir, &text_path, 1, s.rounds);
    loads.native_all = one_minute();
    let native_all = native(s, &dir, &text_path, s.threads, s.rounds);
    phase("model: NumPy float32 forward (crates/xtask/bench/model_numpy.py)");
    let numpy_script = s.root.join("crates/xtask/bench/model_numpy.py");
    loads.numpy = one_minute();
    let numpy = json_of(
        python::command(s.python, &numpy_script)
            .arg("forward")
            .arg(&dir)
            .arg(&encode_json)
            .arg((2 * s.rounds).to_string()),
        "model_numpy.py",
    );
    phase("model: wasm under Node (crates/xtask/bench/model_wasm.mjs)");
    loads.wasm1 = one_minute();
    let wasm1 = wasm(s, &dir, name, &text_path, s.rounds);
    let the_510 = work.join("the_510.txt");
    std::fs::write(&the_510, "the ".repeat(LONG_TOKENS - 2))?;
    let cases = [
        (format!("the benchmark's {TOKENS}-token text"), PAGE_BUDGET_MS, text_path.clone()),
        (format!("a natural {LONG_TOKENS}-token paragraph ({PARAGRAPH})"), LONG_PAGE_BUDGET_MS, s.root.join(PARAGRAPH)),
        (format!("\"the \" x {} ({LONG_TOKENS} tokens)", LONG_TOKENS - 2), LONG_PAGE_BUDGET_MS, the_510),
    ];
    let mut pages = Vec::new();
    for (what, budget_ms, path) in cases {
        phase(&format!("model: the page in headless Chromium, {what} (crates/xtask/bench/model_page.mjs)"));
        pages.push(PageCase { what, budget_ms, outcome: page(s, &id, &path) });
    }
    phase("model: Flax (crates/xtask/bench/model_flax.py)");
    loads.flax = one_minute();
    let flax = flax(s, &dir, &encode_json);

    phase("model: a random bert-base-sized model (hidden 768, 12 layers, 12 heads, intermediate 3072)");
    let random_dir = work.join("bert-base-random");
    let made = python::command(s.python, &numpy_script).arg("random").arg(&random_dir).arg(&dir).status();
    let (base_native, base_wasm) = match made {
        Ok(st) if st.success() => {
            (native(s, &random_dir, &text_path, s.threads, 1), wasm(s, &random_dir, "bert-base-random", &text_path, 0))
        }
        _ => (Err("model_numpy.py random failed".to_string()), Err("model_numpy.py random failed".to_string())),
    };
    let base_estimate = std::fs::read_to_string(random_dir.join("config.json"))
        .ok()
        .and_then(|c| attn_core::model::BertConfig::parse(&c).ok())
        .map(|c| c.memory_bytes(TOKENS) as f64);

    let flops = native1.as_ref().or(native_all.as_ref()).ok().and_then(|v| f(v, "matmul_flops")).unwrap_or(0.0);
    super::model_report::print(&super::model_report::Results {
        n,
        threads: s.threads,
        flops,
        peaks: s.peaks,
        native1,
        native_all,
        wasm1,
        numpy,
        pages,
        flax,
        loads,
        base_native,
        base_wasm,
        base_estimate,
    });
    Ok(())
}
