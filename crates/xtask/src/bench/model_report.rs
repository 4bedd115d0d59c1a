//! The model benchmark's printout ([`super::model`]): one table of the backends side by side (the
//! forward's ms, the products' GFLOP/s as a fraction of the measured peak, the full analysis, the
//! memory), the memory of a bert-base-sized model, and the model benchmark's targets, each met or not.

use serde_json::Value;

use super::load::{shown, verdict, worse, BUSY_LOAD};
use super::peak::{Peak, Peaks};
use super::table::{bytes, sig3};

/// native-1's products, at least this fraction of the widest native f32 peak on one thread.
pub const NATIVE1_FRACTION: f64 = 0.50;
/// native-all's forward, at most this times Flax's.
pub const FLAX_RATIO: f64 = 1.5;
/// NumPy float32's forward, at least this times native-all's.
pub const NUMPY_RATIO: f64 = 2.0;
/// wasm-1's products, at least this fraction of the wasm f32x4 peak on one thread.
pub const WASM1_FRACTION: f64 = 0.35;

type Outcome = Result<Value, String>;

/// Everything the model benchmark measured.
pub struct Results<'a> {
    pub n: usize,
    pub threads: usize,
    /// Flops of the forward's matrix products.
    pub flops: f64,
    pub peaks: &'a Peaks,
    pub native1: Outcome,
    pub native_all: Outcome,
    pub wasm1: Outcome,
    pub numpy: Outcome,
    /// The page's whole analyses; the first is the benchmark's text (the table's page row).
    pub pages: Vec<PageCase>,
    pub flax: Outcome,
    pub loads: Loads,
    pub base_native: Outcome,
    pub base_wasm: Outcome,
    /// `BertConfig::memory_bytes` of the bert-base-sized model at n tokens.
    pub base_estimate: Option<f64>,
}

fn cell(r: &Outcome, best: &str, median: &str) -> String {
    match r {
        Ok(v) => match (f(v, best), f(v, median)) {
            (Some(b), Some(m)) => format!("{} ({})", sig3(b), sig3(m)),
            (Some(b), None) => sig3(b),
            _ => "-".into(),
        },
        Err(_) => "failed".into(),
    }
}

/// GFLOP/s of `flops` in `ms` and its fraction of `peak` (`name`).
fn rate(flops: f64, ms: Option<f64>, peak: Option<f64>, name: &str) -> String {
    match (ms, peak) {
        (Some(ms), Some(p)) if flops > 0.0 => {
            let g = flops / ms / 1e6;
            format!("{} ({:.1}% of {name} {})", sig3(g), 100.0 * g / p, sig3(p))
        }
        (Some(ms), None) if flops > 0.0 => format!("{} (no {name} peak)", sig3(flops / ms / 1e6)),
        _ => "-".into(),
    }
}

fn mem(r: &Outcome, key: &str) -> String {
    r.as_ref().ok().and_then(|v| f(v, key)).map_or("-".into(), bytes)
}

/// The widest native f32 peak (AVX-512 when the CPU has it, else AVX2, else SSE2) and its name.
fn native_f32(p: &Peaks) -> (Option<Peak>, &'static str) {
    match p.widest_f32() {
        Some((x, "AVX-512")) => (Some(x), "AVX-512 f32"),
        Some((x, "AVX2")) => (Some(x), "AVX2 f32"),
        Some((x, _)) => (Some(x), "SSE2 f32"),
        None => (None, "SSE2 f32"),
    }
}

/// Prints the table, the memory lines and the targets.
pub fn print(r: &Results) {
    let (nat, nat_name) = native_f32(r.peaks);
    let all_name = format!("{nat_name} x {} cores", r.threads);
    let best = |o: &Outcome, key: &str| o.as_ref().ok().and_then(|v| f(v, key));
    let none: Outcome = Err("not measured".into());
    let page = r.pages.first().map_or(&none, |c| &c.outcome);
    let rows: Vec<[String; 6]> = vec![
        [
            "native-1".into(),
            cell(&r.native1, "forward_best_ms", "forward_median_ms"),
            rate(r.flops, best(&r.native1, "forward_best_ms"), nat.map(|p| p.one), nat_name),
            cell(&r.native1, "analysis_best_ms", "analysis_median_ms"),
            mem(&r.native1, "analysis_heap_bytes"),
            "peak heap of one analysis (weights apart)".into(),
        ],
        [
            format!("native-all ({} threads)", r.threads),
            cell(&r.native_all, "forward_best_ms", "forward_median_ms"),
            rate(r.flops, best(&r.native_all, "forward_best_ms"), nat.map(|p| p.cores(r.threads)), &all_name),
            cell(&r.native_all, "analysis_best_ms", "analysis_median_ms"),
            mem(&r.native_all, "analysis_heap_bytes"),
            "peak heap of one analysis (weights apart)".into(),
        ],
        [
            "wasm-1 (Node, one worker)".into(),
            cell(&r.wasm1, "forward_best_ms", "forward_median_ms"),
            rate(r.flops, best(&r.wasm1, "forward_best_ms"), r.peaks.wasm_f32x4.map(|p| p.one), "wasm f32x4"),
            cell(&r.wasm1, "analysis_best_ms", "analysis_median_ms"),
            mem(&r.wasm1, "memory_bytes"),
            "wasm memory after load and analysis (the page worker's calls)".into(),
        ],
        [
            "NumPy float32".into(),
            cell(&r.numpy, "best_ms", "median_ms"),
            rate(r.flops, best(&r.numpy, "best_ms"), nat.map(|p| p.cores(r.threads)), &all_name),
            "-".into(),
            "-".into(),
            match &r.numpy {
                Ok(v) => format!(
                    "largest abs(hidden - attn encode's) {:.1e}; NumPy {} ({})",
                    f(v, "max_abs_diff").unwrap_or(f64::NAN),
                    v["numpy"].as_str().unwrap_or("?"),
                    v["blas"].as_str().unwrap_or("?")
                ),
                Err(e) => e.clone(),
            },
        ],
        [
            "Flax (transformers)".into(),
            cell(&r.flax, "best_ms", "median_ms"),
            rate(r.flops, best(&r.flax, "best_ms"), nat.map(|p| p.cores(r.threads)), &all_name),
            "-".into(),
            "-".into(),
            match &r.flax {
                Ok(v) => format!(
                    "largest abs(hidden - attn encode's) {:.1e}; {}",
                    f(v, "max_abs_diff").unwrap_or(f64::NAN),
                    v["versions"].as_str().unwrap_or("?")
                ),
                Err(e) => format!("not installed ({e})"),
            },
        ],
        [
            "page (Chromium, worker)".into(),
            "-".into(),
            "-".into(),
            cell(page, "best_ms", "median_ms"),
            "-".into(),
            match page {
                Ok(v) => format!(
                    "a new text typed in and analysed, to the frame after the results show; in the worker {} ms",
                    f(v, "worker_best_ms").map_or("?".into(), sig3)
                ),
                Err(e) => e.clone(),
            },
        ],
    ];
    let head = [
        "backend",
        "forward ms best (median)",
        "products GFLOP/s (of peak)",
        "full analysis ms best (median)",
        "memory",
        "notes",
    ];
    let mut widths: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(c, &w)| format!("{c:<w$}")).collect();
        format!("| {} |", padded.join(" | "))
    };
    println!(
        "all-MiniLM-L6-v2, n = {} tokens, forward with every P_h and O_h kept; products {:.3} GFLOP per forward",
        r.n,
        r.flops / 1e9
    );
    println!();
    println!("{}", line(head.to_vec()));
    println!("{}", line(widths.iter().map(|_| "---").collect()));
    for row in &rows {
        println!("{}", line(row.iter().map(String::as_str).collect()));
    }
    println!();
    println!(
        "memory, bert-base-sized random model (hidden 768, 12 layers, 12 heads, intermediate 3072, n = {}): wasm {} \
         (Node, after load and analysis); native peak heap of one analysis {}; core estimate (memory_bytes) {}",
        r.n,
        match &r.base_wasm {
            Ok(v) => f(v, "memory_bytes").map_or("-".into(), bytes),
            Err(e) => format!("failed: {e}"),
        },
        match &r.base_native {
            Ok(v) => f(v, "analysis_heap_bytes").map_or("-".into(), bytes),
            Err(e) => format!("failed: {e}"),
        },
        r.base_estimate.map_or("-".into(), bytes)
    );
    println!();
    targets(r);
}

/// The page's whole analyses: a text typed in, to the frame after every panel shows it.
pub struct PageCase {
    /// What the text is ("the benchmark's 128-token text", ...).
    pub what: String,
    /// The budget in ms.
    pub budget_ms: f64,
    /// `model_page.mjs`'s result: `best_ms`, `median_ms`, `worker_best_ms`, `n`, `load`.
    pub outcome: Outcome,
}

/// The 1-minute load averages read just before each measurement.
#[derive(Clone, Copy, Default)]
pub struct Loads {
    pub native1: Option<f64>,
    pub native_all: Option<f64>,
    pub wasm1: Option<f64>,
    pub numpy: Option<f64>,
    pub flax: Option<f64>,
}

/// One target's line: what, the value, the load and the verdict (or why it was not measured).
fn target(what: &str, value: Option<(String, bool)>, load: Option<f64>) {
    match value {
        Some((v, ok)) => println!("  {what}: {v} ({}): {}", shown(load), verdict(ok, load)),
        None => println!("  {what}: not measured: NOT met"),
    }
}

/// The model benchmark's targets (docs/bench.md), each met, NOT met or busy, with the load of its
/// measurements; then the elementwise share and the paths past the forward (printed, no target).
fn targets(r: &Results) {
    let (nat, nat_name) = native_f32(r.peaks);
    let best = |o: &Outcome, key: &str| o.as_ref().ok().and_then(|v| f(v, key));
    let l = &r.loads;
    println!(
        "Targets of the model benchmark (best of the rounds; the 1-minute load average before each measurement, \
         a line at {BUSY_LOAD} or more is busy: not measured):"
    );
    let n1 = best(&r.native1, "forward_best_ms");
    let na = best(&r.native_all, "forward_best_ms");
    let w1 = best(&r.wasm1, "forward_best_ms");
    let np = best(&r.numpy, "best_ms");
    let fx = best(&r.flax, "best_ms");
    let fraction = |ms: Option<f64>, peak: Option<f64>| match (ms, peak) {
        (Some(ms), Some(p)) if r.flops > 0.0 => Some(r.flops / ms / 1e6 / p),
        _ => None,
    };
    let n1f = fraction(n1, nat.map(|p| p.one));
    target(
        &format!("native-1 products >= {:.0} % of the {nat_name} peak", 100.0 * NATIVE1_FRACTION),
        n1f.map(|x| (format!("{:.1} %", 100.0 * x), x >= NATIVE1_FRACTION)),
        l.native1,
    );
    target(
        &format!("native-all forward <= {FLAX_RATIO} x Flax's"),
        na.zip(fx).map(|(a, b)| (format!("{} x ({} / {} ms)", sig3(a / b), sig3(a), sig3(b)), a <= FLAX_RATIO * b)),
        worse(l.native_all, l.flax),
    );
    target(
        &format!("native-all forward >= {NUMPY_RATIO} x faster than NumPy float32"),
        na.zip(np).map(|(a, b)| (format!("{} x ({} / {} ms)", sig3(b / a), sig3(b), sig3(a)), b >= NUMPY_RATIO * a)),
        worse(l.native_all, l.numpy),
    );
    let w1f = fraction(w1, r.peaks.wasm_f32x4.map(|p| p.one));
    target(
        &format!("wasm-1 products >= {:.0} % of the wasm f32x4 peak", 100.0 * WASM1_FRACTION),
        w1f.map(|x| (format!("{:.1} %", 100.0 * x), x >= WASM1_FRACTION)),
        l.wasm1,
    );
    match np.zip(w1) {
        Some((a, b)) => println!(
            "  NumPy/wasm-1 forward (printed, no target): {} ({} / {} ms, {})",
            sig3(a / b),
            sig3(a),
            sig3(b),
            shown(worse(l.numpy, l.wasm1))
        ),
        None => println!("  NumPy/wasm-1 forward: not measured"),
    }
    for case in &r.pages {
        let ms = best(&case.outcome, "best_ms");
        let load = case.outcome.as_ref().ok().and_then(|v| f(v, "load"));
        let worker =
            best(&case.outcome, "worker_best_ms").map_or(String::new(), |w| format!(", {} ms in the worker", sig3(w)));
        target(
            &format!("page, {} fully analysed <= {} ms", case.what, case.budget_ms),
            ms.map(|m| (format!("{} ms{worker}", sig3(m)), m <= case.budget_ms)),
            load,
        );
        match &case.outcome {
            Err(e) => println!("    ({e})"),
            Ok(v) => println!(
                "    then the chosen head's particles (the head particles panel, layer 1 head 0, the worker's next task; no target): \
                 shown {} ms after the analysis, {} ms in the worker",
                f(v, "dynamics_best_ms").map_or("?".into(), sig3),
                f(v, "dynamics_worker_best_ms").map_or("?".into(), sig3)
            ),
        }
    }
    println!("Where the native-1 forward's time goes (printed, no target):");
    match (&r.native1, n1) {
        (Ok(v), Some(fwd)) => {
            let e = f(v, "elementwise_ms").unwrap_or(f64::NAN);
            let rest = fwd - e;
            println!(
                "  elementwise work (softmax, GELU's erf, LayerNorm, timed alone on the forward's shapes): {} of {} ms \
                 ({:.0} %: softmax {}, GELU {}, LayerNorm {} ms); the products in the rest, {} ms: {}",
                sig3(e),
                sig3(fwd),
                100.0 * e / fwd,
                sig3(f(v, "softmax_ms").unwrap_or(f64::NAN)),
                sig3(f(v, "gelu_ms").unwrap_or(f64::NAN)),
                sig3(f(v, "layer_norm_ms").unwrap_or(f64::NAN)),
                sig3(rest),
                rate(r.flops, Some(rest), nat.map(|p| p.one), nat_name),
            );
        }
        _ => println!("  not measured"),
    }
    println!("The paths past the forward, on the same kernels (printed, no target):");
    for (name, o, load) in [
        ("native-1", &r.native1, l.native1),
        (&*format!("native-all ({} threads)", r.threads), &r.native_all, l.native_all),
    ] {
        match o {
            Ok(v) => println!(
                "  {name}: layer {} repeated {} times (transformer, each repetition's statistics and Boolean distances) {} ms; \
                 one head's particles (layer 1, head 0, {} Euler steps) {} ms ({})",
                f(v, "repeat_layer").unwrap_or(f64::NAN),
                f(v, "repeat_iterations").unwrap_or(f64::NAN),
                sig3(f(v, "repeat_ms").unwrap_or(f64::NAN)),
                f(v, "head_steps").unwrap_or(f64::NAN),
                sig3(f(v, "head_dynamics_ms").unwrap_or(f64::NAN)),
                shown(load)
            ),
            Err(e) => println!("  {name}: not measured ({e})"),
        }
    }
}

/// The number at `key` of a JSON object, if any.
pub fn f(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}
