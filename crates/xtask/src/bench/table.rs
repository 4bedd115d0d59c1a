//! The comparison table (Markdown, so docs/bench-log.md can quote it as printed), its notes, and
//! the targets at d <= 3 read off the same measurements.

use super::cases::{Case, Model, Scheme};
use super::particles::{Backend, Row, Streaming, BACKENDS};

/// The ratios printed, `numerator / denominator` of milliseconds per step (> 1: the denominator
/// is faster).
pub const RATIOS: [(Backend, Backend); 6] = [
    (Backend::NumPy, Backend::Wasm1),
    (Backend::NumPy, Backend::WasmPool),
    (Backend::Jax, Backend::WasmPool),
    (Backend::Jax, Backend::NativeAll),
    (Backend::Wasm1, Backend::Native1),
    (Backend::Wasm1, Backend::NativeBase),
];

/// Backends whose tokens must equal the native single-thread ones bit for bit.
const EXACT: [Backend; 4] = [Backend::NativeBase, Backend::NativeAll, Backend::Wasm1, Backend::WasmPool];

/// A number with 3 significant digits (at least), no exponent for ordinary sizes.
pub fn sig3(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else if a >= 0.001 {
        format!("{x:.*}", 2 + (-a.log10()).ceil() as usize)
    } else {
        format!("{x:.2e}")
    }
}

/// Bytes in kB / MB (decimal units).
pub fn bytes(b: f64) -> String {
    if b < 1e6 {
        format!("{:.0} kB", b / 1e3)
    } else if b < 100e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.0} MB", b / 1e6)
    }
}

/// `num / den` of ms per step, when both were measured.
pub fn ratio(row: &Row, num: Backend, den: Backend) -> Option<f64> {
    Some(row.measure(num)?.ms_per_step / row.measure(den)?.ms_per_step)
}

fn time_cell(row: &Row, b: Backend) -> String {
    match row.measure(b) {
        Some(m) => format!("{} ({})", sig3(m.ms_per_step), ns_pair(row, b).map_or("–".into(), sig3)),
        None => "–".into(),
    }
}

fn same_bits_cell(row: &Row) -> String {
    let measured: Vec<(Backend, bool)> =
        EXACT.iter().filter_map(|&b| row.measure(b).map(|m| (b, m.same_bits == Some(true)))).collect();
    let differ: Vec<&str> = measured.iter().filter(|(_, same)| !same).map(|(b, _)| b.name()).collect();
    match (measured.is_empty(), differ.is_empty()) {
        (true, _) => "–".into(),
        (false, true) => "yes".into(),
        (false, false) => format!("NO: {}", differ.join(", ")),
    }
}

/// The table: one row per case, in Markdown with padded columns.
pub fn render(rows: &[Row]) -> String {
    let mut header: Vec<String> = ["model", "scheme", "n", "d", "steps"].map(String::from).to_vec();
    header.extend(BACKENDS.iter().map(|b| format!("{} ms (ns/pair)", b.name())));
    header.extend(RATIOS.iter().map(|(a, b)| format!("{}/{}", a.name(), b.name())));
    header.extend(["same bits", "Δ NumPy", "Δ JAX"].map(String::from));
    header.extend(BACKENDS.iter().map(|b| format!("mem {}{}", b.name(), if *b == Backend::Jax { "*" } else { "" })));
    let mut table = vec![header];
    for row in rows {
        let c = &row.case;
        let mut cells = vec![c.model.name().to_string(), c.scheme_name().to_string(), c.n.to_string(), c.d.to_string()];
        cells.push(row.steps.map_or("–".into(), |k| format!("1+{k}")));
        cells.extend(BACKENDS.iter().map(|&b| time_cell(row, b)));
        cells.extend(RATIOS.iter().map(|&(a, b)| ratio(row, a, b).map_or("–".into(), |r| format!("{r:.2}"))));
        cells.push(same_bits_cell(row));
        for b in [Backend::NumPy, Backend::Jax] {
            cells.push(row.measure(b).and_then(|m| m.rel_diff).map_or("–".into(), |x| {
                if x == 0.0 {
                    "0".into()
                } else {
                    format!("{x:.1e}")
                }
            }));
        }
        cells.extend(BACKENDS.iter().map(|&b| row.measure(b).and_then(|m| m.memory_bytes).map_or("–".into(), bytes)));
        table.push(cells);
    }
    let widths: Vec<usize> =
        (0..table[0].len()).map(|j| table.iter().map(|r| r[j].chars().count()).max().unwrap_or(0)).collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> =
            cells.iter().zip(&widths).map(|(c, &w)| format!("{c}{}", " ".repeat(w - c.chars().count()))).collect();
        format!("| {} |", padded.join(" | "))
    };
    let mut out = vec![line(&table[0]), line(&widths.iter().map(|&w| "-".repeat(w)).collect::<Vec<_>>())];
    out.extend(table[1..].iter().map(|r| line(r)));
    out.join("\n")
}

/// What each column means.
pub const LEGEND: &str = "\
Backends: native-1 and native-all = `attn bench` built for this machine's widest SIMD, one thread \
and all cores; native-base = the same built for the default x86-64 target (SSE2, 2 f64 lanes like \
wasm's simd128), one thread; wasm-1 and wasm-pool = the wasm stepper under Node, one thread and the \
worker pool. Columns: steps = 1 warm-up step + K timed steps, the same for every backend (K from \
the native one-thread run); time = ms per step (ns per pair-evaluation: n^2 per attention \
evaluation, 4 evaluations per RK4 step); A/B = ms per step of A over B (> 1: B is faster); same \
bits = the tokens of native-base, native-all, wasm-1 and wasm-pool after the run equal native-1's \
bit for bit; Δ = max |x - x_native| / max |x_native| over the final tokens; mem: native = peak \
live heap (counting allocator), wasm = WebAssembly memory of one instance (pool: the largest \
worker instance), NumPy = tracemalloc peak over the inputs and one step, JAX* = ru_maxrss of the \
whole Python process (never decreases from one case to the next).";

/// Why a backend has no numbers, one line per distinct reason.
pub fn missing(rows: &[Row]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for b in BACKENDS {
        for row in rows {
            if let Some(Err(why)) = row.get(b) {
                let line = format!("{} not measured: {why}", b.name());
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
    }
    lines
}

/// The streaming-memory line.
pub fn streaming_line(streaming: &Option<Streaming>, config: &str) -> String {
    match streaming {
        Some(Ok(b)) => {
            format!("streaming memory, n = 16384, d = 3 (one wasm instance after one step of {config}): {}", bytes(*b))
        }
        Some(Err(why)) => format!("streaming memory, n = 16384, d = 3: not measured: {why}"),
        None => "streaming memory, n = 16384, d = 3: skipped (--quick)".into(),
    }
}

/// Nanoseconds per pair-evaluation of `b` in `row`.
pub fn ns_pair(row: &Row, b: Backend) -> Option<f64> {
    row.measure(b).map(|m| m.ms_per_step * 1e6 / row.case.pairs_per_step())
}

pub fn find(rows: &[Row], model: Model, scheme: Scheme, n: usize, d: usize) -> Option<&Row> {
    rows.iter().find(|r| r.case == Case { model, scheme, n, d })
}

/// One target: a value per model read off the rows, the bound and its direction.
struct Target {
    what: &'static str,
    scheme: Scheme,
    n: usize,
    d: usize,
    value: fn(&Row) -> Option<f64>,
    at_least: bool,
    bound: f64,
}

/// The speed targets at d <= 3, each with the measured value per model (met / not met).
pub fn targets(rows: &[Row], streaming: &Option<Streaming>) -> Vec<String> {
    let list = [
        Target {
            what: "NumPy/wasm-1, n = 1024, d = 2, RK4",
            scheme: Scheme::Rk4,
            n: 1024,
            d: 2,
            value: |r| ratio(r, Backend::NumPy, Backend::Wasm1),
            at_least: true,
            bound: 1.3,
        },
        Target {
            what: "NumPy/wasm-1, n = 4096, d = 3, RK4",
            scheme: Scheme::Rk4,
            n: 4096,
            d: 3,
            value: |r| ratio(r, Backend::NumPy, Backend::Wasm1),
            at_least: true,
            bound: 1.7,
        },
        Target {
            what: "wasm-1 ns per pair, n = 4096, d = 3, RK4",
            scheme: Scheme::Rk4,
            n: 4096,
            d: 3,
            value: |r| ns_pair(r, Backend::Wasm1),
            at_least: false,
            bound: 3.0,
        },
        Target {
            what: "NumPy/wasm-pool, n = 4096, d = 3, RK4",
            scheme: Scheme::Rk4,
            n: 4096,
            d: 3,
            value: |r| ratio(r, Backend::NumPy, Backend::WasmPool),
            at_least: true,
            bound: 2.8,
        },
        Target {
            what: "wasm-pool steps per second, n = 4096, d = 3, Euler",
            scheme: Scheme::Euler,
            n: 4096,
            d: 3,
            value: |r| r.measure(Backend::WasmPool).map(|m| 1e3 / m.ms_per_step),
            at_least: true,
            bound: 20.0,
        },
        Target {
            what: "JAX/wasm-pool, n = 4096, d = 3, RK4",
            scheme: Scheme::Rk4,
            n: 4096,
            d: 3,
            value: |r| ratio(r, Backend::Jax, Backend::WasmPool),
            at_least: true,
            bound: 1.0,
        },
        Target {
            what: "JAX/native-all, n = 4096, d = 3, RK4",
            scheme: Scheme::Rk4,
            n: 4096,
            d: 3,
            value: |r| ratio(r, Backend::Jax, Backend::NativeAll),
            at_least: true,
            bound: 1.0,
        },
        Target {
            what: "JAX/native-all, n = 1024, d = 2, RK4",
            scheme: Scheme::Rk4,
            n: 1024,
            d: 2,
            value: |r| ratio(r, Backend::Jax, Backend::NativeAll),
            at_least: true,
            bound: 1.0 / 1.2,
        },
    ];
    let judge = |v: f64, at_least: bool, bound: f64| {
        if (at_least && v >= bound) || (!at_least && v <= bound) {
            "met"
        } else {
            "NOT met"
        }
    };
    let mut lines = Vec::new();
    for t in &list {
        let per_model: Vec<String> = [Model::Euclidean, Model::SphereSa]
            .iter()
            .map(|&m| match find(rows, m, t.scheme, t.n, t.d).and_then(|r| (t.value)(r)) {
                Some(v) => format!("{} {} ({})", m.name(), sig3(v), judge(v, t.at_least, t.bound)),
                None => format!("{} not measured", m.name()),
            })
            .collect();
        lines.push(format!(
            "{} {} {}: {}",
            t.what,
            if t.at_least { ">=" } else { "<=" },
            sig3(t.bound),
            per_model.join(", ")
        ));
    }
    let worst = rows
        .iter()
        .filter_map(|r| ratio(r, Backend::Wasm1, Backend::NativeBase).map(|x| (x, r.case.id())))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    lines.push(match worst {
        Some((x, id)) => format!(
            "wasm-1/native-base (same SIMD width) <= 1.2 in every case: largest {} ({id}) ({})",
            sig3(x),
            judge(x, false, 1.2)
        ),
        None => "wasm-1/native-base (same SIMD width) <= 1.2 in every case: not measured".into(),
    });
    lines.push(match streaming {
        Some(Ok(b)) => {
            format!("streaming wasm memory at n = 16384, d = 3 < 50 MB: {} ({})", bytes(*b), judge(*b, false, 50e6))
        }
        _ => "streaming wasm memory at n = 16384, d = 3 < 50 MB: not measured".into(),
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::particles::Measure;

    fn row(times: [Option<f64>; 7]) -> Row {
        let mut r = Row {
            case: Case { model: Model::Euclidean, scheme: Scheme::Rk4, n: 1024, d: 2 },
            steps: Some(4),
            results: Default::default(),
        };
        for (i, t) in times.iter().enumerate() {
            r.results[i] = Some(match t {
                Some(ms) => Ok(Measure {
                    ms_per_step: *ms,
                    memory_bytes: Some(2.5e6),
                    same_bits: Some(true),
                    rel_diff: Some(1e-13),
                }),
                None => Err("not built yet".into()),
            });
        }
        r
    }

    #[test]
    fn numbers_keep_three_significant_digits() {
        assert_eq!(sig3(123.4), "123");
        assert_eq!(sig3(12.34), "12.3");
        assert_eq!(sig3(1.234), "1.23");
        assert_eq!(sig3(0.1234), "0.123");
        assert_eq!(sig3(0.01234), "0.0123");
        assert_eq!(bytes(2.5e6), "2.5 MB");
        assert_eq!(bytes(76_640.0), "77 kB");
    }

    #[test]
    fn ratios_divide_milliseconds_and_skip_missing_backends() {
        let r = row([Some(4.0), Some(4.0), None, Some(5.0), None, Some(10.0), Some(8.0)]);
        assert_eq!(ratio(&r, Backend::NumPy, Backend::Wasm1), Some(2.0));
        assert_eq!(ratio(&r, Backend::Jax, Backend::WasmPool), None);
        let table = render(std::slice::from_ref(&r));
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].contains("| 2.00 "), "{}", lines[2]);
        assert!(lines[2].contains("5.00 (1.19)"), "{}", lines[2]);
        assert!(lines[2].contains("| yes "), "{}", lines[2]);
        assert_eq!(
            missing(&[r]),
            vec!["native-all not measured: not built yet", "wasm-pool not measured: not built yet"]
        );
    }

    #[test]
    fn a_bit_difference_is_named() {
        let mut r = row([Some(4.0), Some(4.0), Some(2.0), Some(5.0), Some(3.0), Some(10.0), Some(8.0)]);
        if let Some(Ok(m)) = r.results[3].as_mut() {
            m.same_bits = Some(false);
        }
        assert!(render(&[r]).contains("NO: wasm-1"));
    }

    #[test]
    fn targets_are_judged_per_model() {
        let r = row([Some(4.0), Some(4.0), Some(2.0), Some(5.0), Some(3.0), Some(10.0), Some(8.0)]);
        let lines = targets(&[r], &Some(Ok(3e6)));
        assert!(
            lines[0].starts_with(
                "NumPy/wasm-1, n = 1024, d = 2, RK4 >= 1.30: euclidean 2.00 (met), sphere-sa not measured"
            ),
            "{}",
            lines[0]
        );
        assert!(lines.iter().any(|l| l.contains("largest 1.25") && l.contains("NOT met")));
        assert!(lines.last().unwrap().contains("3.0 MB (met)"));
    }
}
