//! The model benchmark's printout ([`super::model`]): one table of the backends side by side (the
//! forward's ms, the products' GFLOP/s as a fraction of the measured peak, the full analysis, the
//! memory), the memory of a bert-base-sized model, and the model benchmark's targets, each met or not.

use serde_json::Value;

use super::model::f;
use super::peak::{Peak, Peaks};
use super::table::{bytes, sig3};

/// The page's target for a new text's full analysis (ms).
pub const PAGE_TARGET_MS: f64 = 1500.0;
/// wasm's forward over NumPy's, at most.
pub const WASM_TARGET: f64 = 2.5;

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
    pub page: Outcome,
    pub flax: Outcome,
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

fn met(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "NOT met"
    }
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
            cell(&r.page, "best_ms", "median_ms"),
            "-".into(),
            match &r.page {
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
    println!("Targets of the model benchmark:");
    let (na, np, w1, pg) = (
        best(&r.native_all, "forward_best_ms"),
        best(&r.numpy, "best_ms"),
        best(&r.wasm1, "forward_best_ms"),
        best(&r.page, "best_ms"),
    );
    match (na, np) {
        (Some(a), Some(b)) => println!("  NumPy/native-all forward > 1: {} ({})", sig3(b / a), met(b > a)),
        _ => println!("  NumPy/native-all forward > 1: not measured"),
    }
    match (w1, np) {
        (Some(a), Some(b)) => println!(
            "  wasm/NumPy forward <= {WASM_TARGET} (the forward on one worker; the page splits the variants over two): {} ({})",
            sig3(a / b),
            met(a / b <= WASM_TARGET)
        ),
        _ => println!("  wasm/NumPy forward <= {WASM_TARGET}: not measured"),
    }
    match pg {
        Some(p) => println!(
            "  page, a new {}-token text fully analysed < {PAGE_TARGET_MS} ms: {} ms ({})",
            r.n,
            sig3(p),
            met(p < PAGE_TARGET_MS)
        ),
        None => println!("  page, a new text fully analysed < {PAGE_TARGET_MS} ms: not measured"),
    }
}
