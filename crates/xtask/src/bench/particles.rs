//! Runs every backend on every case and collects the measurements.
//!
//! Per case, `attn bench --threads 1` runs first, time-bounded: its number of timed steps `K`
//! (and one warm-up step) is then what every other backend runs, from the same initial tokens
//! (`--dump-initial`), so that each backend's tokens after `1 + K` steps can be compared with the
//! native single-thread ones: bit for bit for the native threads, wasm and the pool; as the max
//! relative difference for NumPy and JAX. The other backends run one process each over all cases
//! (node: `bench/wasm_bench.mjs`; Python: `bench/reference.py`), printing one JSON line per case.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde_json::{json, Value};

use super::cases::Case;
use super::python::{self, Python};
use crate::util::{describe, phase};

/// The backends, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `attn bench --threads 1`.
    Native1,
    /// `attn bench --threads 1` built for the default x86-64 target (SSE2: 2 f64 lanes, as wasm's
    /// simd128), to compare wasm with native code of the same SIMD width.
    NativeBase,
    /// `attn bench --threads <all cores>`.
    NativeAll,
    /// The wasm stepper under Node, one thread.
    Wasm1,
    /// The wasm worker pool under Node (one worker_thread per core).
    WasmPool,
    /// `bench/reference.py --backend numpy`.
    NumPy,
    /// `bench/reference.py --backend jax`.
    Jax,
}

/// All backends, in table order (an index into [`Row::results`]).
pub const BACKENDS: [Backend; 7] = [
    Backend::Native1,
    Backend::NativeBase,
    Backend::NativeAll,
    Backend::Wasm1,
    Backend::WasmPool,
    Backend::NumPy,
    Backend::Jax,
];

impl Backend {
    /// The column name.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Native1 => "native-1",
            Backend::NativeBase => "native-base",
            Backend::NativeAll => "native-all",
            Backend::Wasm1 => "wasm-1",
            Backend::WasmPool => "wasm-pool",
            Backend::NumPy => "NumPy",
            Backend::Jax => "JAX",
        }
    }

    /// The `backend` field of the scripts' JSON lines and `reference.py --backend`: the column
    /// name in lower case.
    fn key(self) -> String {
        self.name().to_ascii_lowercase()
    }

    /// The file its final tokens are written to, in the case's folder.
    fn tokens_file(self) -> String {
        format!("{}.f64", self.key())
    }

    fn index(self) -> usize {
        BACKENDS.iter().position(|&b| b == self).expect("every backend is listed")
    }
}

/// One backend's measurement of one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// Milliseconds per timed step.
    pub ms_per_step: f64,
    /// Peak memory (bytes; what is measured depends on the backend, see docs/bench.md).
    pub memory_bytes: Option<f64>,
    /// Whether its final tokens equal the native single-thread ones bit for bit.
    pub same_bits: Option<bool>,
    /// `max |x - x_native| / max |x_native|` over the final tokens.
    pub rel_diff: Option<f64>,
}

/// A backend's result: a measure, or why there is none.
pub type Outcome = std::result::Result<Measure, String>;

/// The results of one case.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case.
    pub case: Case,
    /// Timed steps after the warm-up step (the same for every backend), once the native run gave it.
    pub steps: Option<u64>,
    /// Per backend (order of [`BACKENDS`]); `None` when not run.
    pub results: [Option<Outcome>; 7],
}

impl Row {
    /// The result of `backend`.
    pub fn get(&self, backend: Backend) -> Option<&Outcome> {
        self.results[backend.index()].as_ref()
    }

    /// The measure of `backend`, if it has one.
    pub fn measure(&self, backend: Backend) -> Option<&Measure> {
        self.get(backend).and_then(|o| o.as_ref().ok())
    }
}

/// Where the programs are and how to run them.
pub struct Setup<'a> {
    /// Repository root.
    pub root: &'a Path,
    /// The `attn` binary.
    pub attn: PathBuf,
    /// The `attn` binary built for the default x86-64 target, or why there is none.
    pub attn_baseline: std::result::Result<PathBuf, String>,
    /// Threads of the "all cores" backends.
    pub threads: usize,
    /// Minimum seconds timed per case (the native single-thread run takes `min_seconds * threads`).
    pub min_seconds: f64,
    /// How many times every backend times every case; a case keeps each backend's fastest round
    /// (this shared machine has slow phases of seconds that one round can land in).
    pub rounds: usize,
    /// The Python environment.
    pub python: &'a Python,
    /// Folder for the cases' inputs and outputs.
    pub work: PathBuf,
}

impl Setup<'_> {
    fn case_dir(&self, case: &Case) -> PathBuf {
        self.work.join(case.id())
    }
}

/// Runs `cmd` and calls `each` with every JSON line it prints (other lines are echoed);
/// fails when it cannot start or exits non-zero.
fn json_lines(cmd: &mut Command, mut each: impl FnMut(Value)) -> Result<()> {
    let mut child = cmd.stdout(Stdio::piped()).spawn().with_context(|| format!("cannot start `{}`", describe(cmd)))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    for line in BufReader::new(stdout).lines() {
        let line = line?;
        match serde_json::from_str::<Value>(&line) {
            Ok(v) if v.is_object() => each(v),
            _ => println!("{line}"),
        }
    }
    let status = child.wait()?;
    anyhow::ensure!(status.success(), "`{}` exited with {status}", describe(cmd));
    Ok(())
}

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// A measure from a JSON line (`ms_per_step` and a memory field), or its `error`.
fn outcome(v: &Value, memory_key: &str) -> Outcome {
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(e.to_string());
    }
    let ms = number(v, "ms_per_step").ok_or_else(|| format!("no ms_per_step in {v}"))?;
    Ok(Measure { ms_per_step: ms, memory_bytes: number(v, memory_key), same_bits: None, rel_diff: None })
}

fn progress(case: &Case, backend: Backend, outcome: &Outcome) {
    let what = match outcome {
        Ok(m) => format!(
            "{:>10.4} ms per step, {:>8.2} ns per pair",
            m.ms_per_step,
            m.ms_per_step * 1e6 / case.pairs_per_step()
        ),
        Err(e) => format!("not measured: {e}"),
    };
    println!("    {:<30} {:<10} {what}", case.id(), backend.name());
}

/// `attn bench` on one case: [`Backend::Native1`] (time-bounded; dumps the initial state),
/// [`Backend::NativeBase`] (the baseline build, one thread) or [`Backend::NativeAll`], both
/// `steps` timed steps. Returns the outcome and the timed steps.
fn native(setup: &Setup, case: &Case, backend: Backend, steps: Option<u64>) -> (Outcome, Option<u64>) {
    let dir = setup.case_dir(case);
    let (attn, threads) = match backend {
        Backend::NativeBase => match &setup.attn_baseline {
            Ok(path) => (path, 1),
            Err(why) => return (Err(why.clone()), None),
        },
        Backend::NativeAll => (&setup.attn, setup.threads),
        _ => (&setup.attn, 1),
    };
    let mut cmd = Command::new(attn);
    cmd.args(["bench", "--json", "--config", &case.config(), "--threads", &threads.to_string()]);
    cmd.arg("--tokens-out").arg(dir.join(backend.tokens_file()));
    match steps {
        Some(k) => cmd.args(["--steps", &k.to_string()]),
        None => cmd
            .arg("--dump-initial")
            .arg(&dir)
            .args(["--min-seconds", &format!("{}", setup.min_seconds * setup.threads as f64)]),
    };
    let out = match cmd.output() {
        Ok(out) => out,
        Err(e) => return (Err(format!("cannot start {}: {e}", attn.display())), None),
    };
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().trim_start_matches("attn: ").to_string();
        return (Err(err), None);
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    (outcome(&v, "peak_heap_bytes"), v.get("steps").and_then(Value::as_u64))
}

/// The streaming-memory line: wasm memory bytes of one instance after one step, or why not.
pub type Streaming = std::result::Result<f64, String>;

/// Runs every backend on `cases`; with a `streaming` configuration, also the streaming-memory
/// line (wasm, one instance, one step).
pub fn run(setup: &Setup, cases: &[Case], streaming: Option<&str>) -> Result<(Vec<Row>, Option<Streaming>)> {
    if setup.work.exists() {
        std::fs::remove_dir_all(&setup.work).with_context(|| format!("cannot clear {}", setup.work.display()))?;
    }
    let mut rows: Vec<Row> = cases.iter().map(|&case| Row { case, steps: None, results: Default::default() }).collect();

    phase(&format!("particles, native one thread: attn bench --threads 1 ({} cases)", rows.len()));
    for row in rows.iter_mut() {
        std::fs::create_dir_all(setup.case_dir(&row.case))?;
        let (result, steps) = native(setup, &row.case, Backend::Native1, None);
        progress(&row.case, Backend::Native1, &result);
        row.steps = steps;
        row.results[Backend::Native1.index()] = Some(result);
    }
    let runnable: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].steps.is_some()).collect();
    let mut streamed = None;
    for round in 1..=setup.rounds.max(1) {
        if round > 1 {
            phase(&format!(
                "particles, round {round} of {}: every backend again, each case keeps its fastest round",
                setup.rounds
            ));
            for &i in &runnable {
                let (result, _) = native(setup, &rows[i].case, Backend::Native1, rows[i].steps);
                progress(&rows[i].case, Backend::Native1, &result);
                record(&mut rows[i], Backend::Native1, result);
            }
        }
        let line = other_backends(setup, &mut rows, &runnable, if round == 1 { streaming } else { None })?;
        streamed = streamed.or(line);
    }
    for row in rows.iter_mut() {
        compare_tokens(&setup.case_dir(&row.case), row);
    }
    Ok((rows, streamed))
}

/// Keeps `result` for `backend` in `row`: the faster of two measures (the larger memory of the
/// two), a measure rather than an error, the newer of two errors.
fn record(row: &mut Row, backend: Backend, result: Outcome) {
    let slot = &mut row.results[backend.index()];
    *slot = Some(match (slot.take(), result) {
        (Some(Ok(old)), Ok(new)) => {
            let memory_bytes = match (old.memory_bytes, new.memory_bytes) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let fastest = if new.ms_per_step < old.ms_per_step { new } else { old };
            Ok(Measure { memory_bytes, ..fastest })
        }
        (Some(Ok(old)), Err(_)) => Ok(old),
        (_, result) => result,
    });
}

/// One round of every backend but native-1 on the cases `runnable` (their steps known), with the
/// streaming line when `streaming` is given.
fn other_backends(
    setup: &Setup,
    rows: &mut [Row],
    runnable: &[usize],
    streaming: Option<&str>,
) -> Result<Option<Streaming>> {
    for (backend, what) in [
        (Backend::NativeBase, "native x86-64 baseline build, one thread: attn bench --threads 1".to_string()),
        (Backend::NativeAll, format!("native all cores: attn bench --threads {}", setup.threads)),
    ] {
        phase(&format!("particles, {what}"));
        for &i in runnable {
            let (result, _) = native(setup, &rows[i].case, backend, rows[i].steps);
            progress(&rows[i].case, backend, &result);
            record(&mut rows[i], backend, result);
        }
    }

    let index: HashMap<String, usize> = runnable.iter().map(|&i| (rows[i].case.id(), i)).collect();
    let specs: Vec<Value> = runnable
        .iter()
        .map(|&i| {
            let (case, dir) = (&rows[i].case, setup.case_dir(&rows[i].case));
            json!({
                "id": case.id(), "config": case.config(), "steps": rows[i].steps, "dir": dir,
                "out1": dir.join(Backend::Wasm1.tokens_file()), "outPool": dir.join(Backend::WasmPool.tokens_file()),
            })
        })
        .collect();
    let cases_json = setup.work.join("cases.json");
    std::fs::write(&cases_json, serde_json::to_string(&specs)?)?;
    let mut streamed = None;

    phase(&format!("particles, wasm under Node: bench/wasm_bench.mjs (one thread; pool of {} workers)", setup.threads));
    let mut node = Command::new("node");
    node.arg(setup.root.join("crates/xtask/bench/wasm_bench.mjs"))
        .arg(setup.root.join("www/pkg"))
        .arg(&cases_json)
        .arg(setup.threads.to_string())
        .args(streaming);
    let ran = json_lines(&mut node, |v| {
        let backend = match v.get("backend").and_then(Value::as_str) {
            Some("wasm-1") => Backend::Wasm1,
            Some("wasm-pool") => Backend::WasmPool,
            Some("streaming") => {
                streamed = Some(match (number(&v, "memory_bytes"), v.get("error").and_then(Value::as_str)) {
                    (_, Some(e)) => Err(e.to_string()),
                    (Some(bytes), None) => Ok(bytes),
                    (None, None) => Err(format!("no memory_bytes in {v}")),
                });
                return;
            }
            _ => return,
        };
        if let Some(&i) = v.get("id").and_then(Value::as_str).and_then(|id| index.get(id)) {
            let result = outcome(&v, "memory_bytes");
            progress(&rows[i].case, backend, &result);
            record(&mut rows[i], backend, result);
        }
    });
    mark_unfinished(rows, runnable, &[Backend::Wasm1, Backend::WasmPool], ran);

    for (backend, available) in [(Backend::NumPy, &setup.python.numpy), (Backend::Jax, &setup.python.jax)] {
        if let Err(why) = available {
            println!("==> particles, {}: not run: {why}", backend.name());
            for &i in runnable {
                record(&mut rows[i], backend, Err(why.clone()));
            }
            continue;
        }
        let specs: Vec<Value> = runnable
            .iter()
            .map(|&i| {
                let dir = setup.case_dir(&rows[i].case);
                json!({"id": rows[i].case.id(), "dir": dir, "steps": rows[i].steps, "out": dir.join(backend.tokens_file())})
            })
            .collect();
        let list = setup.work.join(format!("{}-cases.json", backend.key()));
        std::fs::write(&list, serde_json::to_string(&specs)?)?;
        phase(&format!("particles, {}: bench/reference.py --backend {}", backend.name(), backend.key()));
        let script = setup.root.join("crates/xtask/bench/reference.py");
        let mut cmd = python::command(setup.python, &script);
        cmd.args(["--backend", &backend.key()]).arg(&list);
        let ran = json_lines(&mut cmd, |v| {
            if let Some(&i) = v.get("id").and_then(Value::as_str).and_then(|id| index.get(id)) {
                let result = outcome(&v, "memory_bytes");
                progress(&rows[i].case, backend, &result);
                record(&mut rows[i], backend, result);
            }
        });
        mark_unfinished(rows, runnable, &[backend], ran);
    }
    Ok(streamed)
}

/// When a backend's process failed (`ran`), the cases it left without a result get its error.
fn mark_unfinished(rows: &mut [Row], runnable: &[usize], backends: &[Backend], ran: Result<()>) {
    if let Err(e) = ran {
        println!("    failed: {e:#}");
        for &i in runnable {
            for b in backends {
                rows[i].results[b.index()].get_or_insert_with(|| Err(format!("{e:#}")));
            }
        }
    }
}

/// Reads raw little-endian f64.
fn read_f64(path: &Path) -> Option<Vec<f64>> {
    let bytes = std::fs::read(path).ok()?;
    Some(bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect())
}

/// `max_i |a_i - b_i| / max_i |b_i|` (`None` when the lengths differ or `b` is zero).
pub fn rel_diff(a: &[f64], b: &[f64]) -> Option<f64> {
    let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if a.len() != b.len() || scale == 0.0 {
        return None;
    }
    Some(a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs())) / scale)
}

/// Fills `same_bits` and `rel_diff` of every measured backend against the native single-thread tokens.
fn compare_tokens(dir: &Path, row: &mut Row) {
    let Some(reference) = read_f64(&dir.join(Backend::Native1.tokens_file())) else {
        return;
    };
    for backend in BACKENDS {
        if let Some(Ok(m)) = row.results[backend.index()].as_mut() {
            if let Some(tokens) = read_f64(&dir.join(backend.tokens_file())) {
                m.same_bits = Some(
                    tokens.len() == reference.len()
                        && tokens.iter().zip(&reference).all(|(a, b)| a.to_bits() == b.to_bits()),
                );
                m.rel_diff = rel_diff(&tokens, &reference);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_difference_is_scaled_by_the_largest_reference_entry() {
        assert_eq!(rel_diff(&[1.0, 2.0], &[1.0, 2.0]), Some(0.0));
        assert_eq!(rel_diff(&[1.0, 2.5], &[1.5, 2.0]), Some(0.25));
        assert_eq!(rel_diff(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(rel_diff(&[1.0], &[0.0]), None);
    }

    #[test]
    fn token_files_are_distinct_per_backend() {
        let mut names: Vec<String> = BACKENDS.iter().map(|b| b.tokens_file()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), BACKENDS.len());
    }

    #[test]
    fn outcome_reads_a_measure_or_the_error() {
        let m = outcome(&json!({"ms_per_step": 2.5, "memory_bytes": 1024}), "memory_bytes").unwrap();
        assert_eq!((m.ms_per_step, m.memory_bytes), (2.5, Some(1024.0)));
        assert_eq!(outcome(&json!({"error": "no pool"}), "memory_bytes"), Err("no pool".to_string()));
    }

    #[test]
    fn rounds_keep_the_fastest_measure_and_the_largest_memory() {
        use crate::bench::cases::{Model, Scheme};
        let m = |ms: f64, mem: f64| {
            Ok(Measure { ms_per_step: ms, memory_bytes: Some(mem), same_bits: None, rel_diff: None })
        };
        let mut row = Row {
            case: Case { model: Model::Euclidean, scheme: Scheme::Euler, n: 256, d: 2 },
            steps: Some(3),
            results: Default::default(),
        };
        record(&mut row, Backend::Wasm1, m(5.0, 100.0));
        record(&mut row, Backend::Wasm1, m(4.0, 90.0));
        record(&mut row, Backend::Wasm1, m(6.0, 120.0));
        let kept = row.measure(Backend::Wasm1).unwrap();
        assert_eq!((kept.ms_per_step, kept.memory_bytes), (4.0, Some(120.0)));
        // A failed round does not erase a measure; a measure replaces an earlier failure.
        record(&mut row, Backend::Wasm1, Err("crashed".into()));
        assert_eq!(row.measure(Backend::Wasm1).unwrap().ms_per_step, 4.0);
        record(&mut row, Backend::Jax, Err("no jax".into()));
        record(&mut row, Backend::Jax, m(7.0, 1.0));
        assert_eq!(row.measure(Backend::Jax).unwrap().ms_per_step, 7.0);
    }
}
