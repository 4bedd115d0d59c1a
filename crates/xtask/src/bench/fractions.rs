//! The GFLOP/s per d: per particle case at d = 16 and 128, each backend's achieved GFLOP/s (4d
//! flops per pair-evaluation: d multiplies and d adds for the score, as many for the weighted
//! sum) as a fraction of the peak its instruction set reaches in the microbenchmark
//! ([`super::peak`]): native-1 of the widest native set on one thread, native-base of SSE2,
//! native-all of the widest set on all cores, wasm-1 / wasm-pool of simd128 f64x2 on one thread
//! / all workers, NumPy and JAX of the widest native set on all cores (f64 throughout). The peak
//! of all cores is one thread's times the cores ([`super::peak::Peak::cores`]).

use super::particles::{Backend, Row, BACKENDS};
use super::peak::Peaks;
use super::table::{ns_pair, sig3};

/// Particle dimensions the fractions are printed for.
pub const DS: [usize; 2] = [16, 128];

/// The f64 peak a backend is compared with (GFLOP/s) and its name.
fn peak_of(p: &Peaks, b: Backend) -> Option<(f64, &'static str)> {
    let wide = p.widest_f64();
    match b {
        Backend::Native1 => wide.map(|(x, n)| (x.one, n)),
        Backend::NativeBase => p.sse2_f64.map(|x| (x.one, "SSE2")),
        Backend::NativeAll | Backend::NumPy | Backend::Jax => wide.map(|(x, n)| (x.cores(p.threads), n)),
        Backend::Wasm1 => p.wasm_f64x2.map(|x| (x.one, "f64x2")),
        Backend::WasmPool => p.wasm_f64x2.map(|x| (x.cores(p.threads), "f64x2")),
    }
}

/// Achieved GFLOP/s of `b` in `row`, and its fraction of the backend's peak.
pub fn fraction(row: &Row, b: Backend, p: &Peaks) -> Option<(f64, Option<f64>)> {
    let g = 4.0 * row.case.d as f64 / ns_pair(row, b)?;
    Some((g, peak_of(p, b).map(|(peak, _)| g / peak)))
}

/// The table: one line per case at d in [`DS`], per backend `GFLOP/s (percent of peak)`.
pub fn render(rows: &[Row], p: &Peaks) -> String {
    let mut out = String::from("| model | scheme | n | d |");
    for b in BACKENDS {
        let name = peak_of(p, b).map_or("no peak", |(_, n)| n);
        out += &format!(" {} GFLOP/s (% of {name}) |", b.name());
    }
    out += "\n| --- | --- | --- | --- |";
    out += &" --- |".repeat(BACKENDS.len());
    for r in rows.iter().filter(|r| DS.contains(&r.case.d)) {
        out += &format!("\n| {} | {} | {} | {} |", r.case.model.name(), r.case.scheme_name(), r.case.n, r.case.d);
        for b in BACKENDS {
            out += &match fraction(r, b, p) {
                Some((g, Some(f))) => format!(" {} ({:.1}%) |", sig3(g), 100.0 * f),
                Some((g, None)) => format!(" {} |", sig3(g)),
                None => " - |".into(),
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases::{Case, Model, Scheme};
    use crate::bench::particles::Measure;
    use crate::bench::peak::Peak;

    #[test]
    fn gflops_are_4d_per_pair_over_the_backends_peak() {
        let mut r = Row {
            case: Case { model: Model::Euclidean, scheme: Scheme::Euler, n: 1024, d: 128 },
            steps: Some(2),
            results: Default::default(),
        };
        // 1024^2 pairs per Euler step: 52.4288 ms is 50 ns per pair, 512 flops: 10.24 GFLOP/s.
        let m = Measure { ms_per_step: 52.4288, memory_bytes: None, same_bits: Some(true), rel_diff: None };
        r.results[BACKENDS.iter().position(|&b| b == Backend::Wasm1).unwrap()] = Some(Ok(m.clone()));
        let p = Peaks { threads: 2, wasm_f64x2: Some(Peak { one: 20.48, all: 30.0 }), ..Default::default() };
        let (g, f) = fraction(&r, Backend::Wasm1, &p).unwrap();
        assert!((g - 10.24).abs() < 1e-9 && (f.unwrap() - 0.5).abs() < 1e-12, "{g} {f:?}");
        assert!(fraction(&r, Backend::Native1, &p).is_none());
        r.results[BACKENDS.iter().position(|&b| b == Backend::WasmPool).unwrap()] = Some(Ok(m));
        let (_, pool) = fraction(&r, Backend::WasmPool, &p).unwrap();
        assert!((pool.unwrap() - 0.25).abs() < 1e-12, "the pool's peak is 2 x 20.48: {pool:?}");
        let table = render(&[r], &p);
        assert!(
            table.contains("| euclidean | euler | 1024 | 128 | - | - | - | 10.2 (50.0%) | 10.2 (25.0%) |"),
            "{table}"
        );
    }
}
