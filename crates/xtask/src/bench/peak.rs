//! The peak of each instruction set: a microbenchmark of independent vector
//! multiplies and adds (no FMA), natively SSE2 (2 f64 / 4 f32 lanes) and, when the CPU has them,
//! AVX2 (4 f64 / 8 f32 lanes) and AVX-512 (8 f64 / 16 f32 lanes) through `std::arch` behind
//! `is_x86_feature_detected!` (the native builds use `target-cpu=native`, so the widest set the
//! CPU has is the widest the build may use; [`Peaks::widest_f64`], [`Peaks::widest_f32`]); wasm
//! simd128 (f64x2, f32x4) under Node (`bench/peak_wasm.mjs`, the web crate's `peak_flops`). Only
//! the benchmark runs these loops; no result of the playground goes through them.
//!
//! Each iteration updates `CHAINS` multiply chains `a_k = a_k * m` and as many add chains
//! `b_k = b_k + c`: `2 CHAINS` vector operations with no dependency between chains, enough in
//! flight to cover the units' latency, so the loop measures throughput. Flops count one per lane
//! and operation. On all cores: every thread runs the same loop, flops over wall time.

/// Multiply chains (and as many add chains) per iteration: 12 registers, within SSE2's 16.
const CHAINS: usize = 6;

/// GFLOP/s of one instruction set and lane type, on one thread and on all of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peak {
    /// One thread.
    pub one: f64,
    /// Every core (`threads` threads at once, as measured: low when other work shares the cores).
    pub all: f64,
}

impl Peak {
    /// The peak of `threads` cores that backends on all cores are compared with: one thread's
    /// peak times the cores (steadier than [`Peak::all`] on a shared machine).
    pub fn cores(&self, threads: usize) -> f64 {
        self.one * threads as f64
    }
}

/// The measured peaks (`None`: not available on this machine, or the wasm run failed).
#[derive(Clone, Debug, Default)]
pub struct Peaks {
    /// The machine's cores (threads of the all-core runs).
    pub threads: usize,
    pub sse2_f64: Option<Peak>,
    pub sse2_f32: Option<Peak>,
    pub avx2_f64: Option<Peak>,
    pub avx2_f32: Option<Peak>,
    pub avx512_f64: Option<Peak>,
    pub avx512_f32: Option<Peak>,
    pub wasm_f64x2: Option<Peak>,
    pub wasm_f32x4: Option<Peak>,
}

impl Peaks {
    /// The f64 peak of the widest native set this machine has (AVX-512, else AVX2, else SSE2) and
    /// its name.
    pub fn widest_f64(&self) -> Option<(Peak, &'static str)> {
        let named = |p: Option<Peak>, name| p.map(|x| (x, name));
        named(self.avx512_f64, "AVX-512").or(named(self.avx2_f64, "AVX2")).or(named(self.sse2_f64, "SSE2"))
    }

    /// [`Peaks::widest_f64`] in f32.
    pub fn widest_f32(&self) -> Option<(Peak, &'static str)> {
        let named = |p: Option<Peak>, name| p.map(|x| (x, name));
        named(self.avx512_f32, "AVX-512").or(named(self.avx2_f32, "AVX2")).or(named(self.sse2_f32, "SSE2"))
    }
}

macro_rules! kernel {
    ($name:ident, $feature:literal, $vec:ty, $lanes:expr, $set1:ident, $mul:ident, $add:ident, $store:ident, $elem:ty) => {
        /// `iters` iterations of the chains; returns a sum of the lanes so nothing is dropped.
        #[target_feature(enable = $feature)]
        #[allow(clippy::unnecessary_cast)]
        pub(super) unsafe fn $name(iters: u64) -> f64 {
            use std::arch::x86_64::*;
            let m = $set1(1.000_000_1 as $elem);
            let c = $set1(1e-3 as $elem);
            let mut a: [$vec; CHAINS] = [$set1(1.0); CHAINS];
            let mut b: [$vec; CHAINS] = [$set1(0.0); CHAINS];
            for (k, (x, y)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
                *x = $set1(1.0 + k as $elem);
                *y = $set1(k as $elem);
            }
            for _ in 0..iters {
                for x in a.iter_mut() {
                    *x = $mul(*x, m);
                }
                for y in b.iter_mut() {
                    *y = $add(*y, c);
                }
            }
            let mut out = [0.0 as $elem; $lanes];
            let mut sum = 0.0f64;
            for (x, y) in a.iter().zip(&b) {
                // SAFETY: `out` holds `$lanes` elements, one vector.
                unsafe { $store(out.as_mut_ptr(), $add(*x, *y)) };
                sum += out.iter().map(|&v| v as f64).sum::<f64>();
            }
            sum
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::CHAINS;
    use std::time::Instant;
    kernel!(sse2_f64, "sse2", __m128d, 2, _mm_set1_pd, _mm_mul_pd, _mm_add_pd, _mm_storeu_pd, f64);
    kernel!(sse2_f32, "sse2", __m128, 4, _mm_set1_ps, _mm_mul_ps, _mm_add_ps, _mm_storeu_ps, f32);
    kernel!(avx2_f64, "avx2", __m256d, 4, _mm256_set1_pd, _mm256_mul_pd, _mm256_add_pd, _mm256_storeu_pd, f64);
    kernel!(avx2_f32, "avx2", __m256, 8, _mm256_set1_ps, _mm256_mul_ps, _mm256_add_ps, _mm256_storeu_ps, f32);
    kernel!(avx512_f64, "avx512f", __m512d, 8, _mm512_set1_pd, _mm512_mul_pd, _mm512_add_pd, _mm512_storeu_pd, f64);
    kernel!(avx512_f32, "avx512f", __m512, 16, _mm512_set1_ps, _mm512_mul_ps, _mm512_add_ps, _mm512_storeu_ps, f32);

    /// The best rate of kernel `k` (`lanes` lanes) on one thread over chunks of about 2 ms for
    /// `seconds` (GFLOP/s): on a shared machine some chunk runs without being interrupted.
    fn best_rate(k: unsafe fn(u64) -> f64, lanes: usize, seconds: f64) -> f64 {
        let flops = |iters: u64| (iters * 2 * CHAINS as u64 * lanes as u64) as f64;
        let mut iters = 1u64 << 10;
        loop {
            let t = Instant::now();
            // SAFETY: callers pass a kernel whose target feature was detected.
            std::hint::black_box(unsafe { k(iters) });
            if t.elapsed().as_secs_f64() > 2e-3 || iters > 1 << 30 {
                break;
            }
            iters *= 2;
        }
        let (start, mut best) = (Instant::now(), 0.0f64);
        while start.elapsed().as_secs_f64() < seconds {
            let t = Instant::now();
            // SAFETY: as above.
            std::hint::black_box(unsafe { k(iters) });
            best = best.max(flops(iters) / t.elapsed().as_secs_f64() / 1e9);
        }
        best
    }

    /// [`best_rate`] on one thread, and summed over `threads` threads running at once.
    pub fn gflops(k: unsafe fn(u64) -> f64, lanes: usize, threads: usize, seconds: f64) -> super::Peak {
        let one = best_rate(k, lanes, seconds);
        let all = std::thread::scope(|s| {
            let runs: Vec<_> = (0..threads).map(|_| s.spawn(move || best_rate(k, lanes, seconds))).collect();
            runs.into_iter().map(|r| r.join().unwrap_or(0.0)).sum()
        });
        super::Peak { one, all }
    }
}

/// Measures the native peaks (`seconds` of 2 ms chunks per set, on one thread and then on all;
/// the fastest chunk is kept).
pub fn native(threads: usize, seconds: f64) -> Peaks {
    let mut p = Peaks { threads, ..Peaks::default() };
    #[cfg(target_arch = "x86_64")]
    {
        let peak = |k: unsafe fn(u64) -> f64, lanes| x86::gflops(k, lanes, threads, seconds);
        p.sse2_f64 = Some(peak(x86::sse2_f64, 2));
        p.sse2_f32 = Some(peak(x86::sse2_f32, 4));
        if std::arch::is_x86_feature_detected!("avx2") {
            p.avx2_f64 = Some(peak(x86::avx2_f64, 4));
            p.avx2_f32 = Some(peak(x86::avx2_f32, 8));
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            p.avx512_f64 = Some(peak(x86::avx512_f64, 8));
            p.avx512_f32 = Some(peak(x86::avx512_f32, 16));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (threads, seconds);
    p
}

/// Adds wasm's peaks (f64x2, f32x4) measured under Node by `bench/peak_wasm.mjs` to `p`; the
/// error says why they are missing.
pub fn wasm(root: &std::path::Path, threads: usize, p: &mut Peaks) -> Result<(), String> {
    let out = std::process::Command::new("node")
        .arg(root.join("crates/xtask/bench/peak_wasm.mjs"))
        .arg(root.join("www/pkg"))
        .arg(threads.to_string())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|_| format!("peak_wasm.mjs: {}", text.trim()))?;
    if let Some(e) = v.get("error") {
        return Err(format!("peak_wasm.mjs: {e}"));
    }
    let read = |k: &str| Some(Peak { one: v.get(k)?.get("one")?.as_f64()?, all: v.get(k)?.get("all")?.as_f64()? });
    p.wasm_f64x2 = read("f64x2");
    p.wasm_f32x4 = read("f32x4");
    Ok(())
}

/// One line per instruction set: GFLOP/s on one thread and on all.
pub fn lines(p: &Peaks, threads: usize) -> Vec<String> {
    let sets = [
        ("SSE2 f64 (2 lanes)", p.sse2_f64),
        ("SSE2 f32 (4 lanes)", p.sse2_f32),
        ("AVX2 f64 (4 lanes)", p.avx2_f64),
        ("AVX2 f32 (8 lanes)", p.avx2_f32),
        ("AVX-512 f64 (8 lanes)", p.avx512_f64),
        ("AVX-512 f32 (16 lanes)", p.avx512_f32),
        ("wasm simd128 f64x2", p.wasm_f64x2),
        ("wasm simd128 f32x4", p.wasm_f32x4),
    ];
    sets.iter()
        .map(|(name, peak)| match peak {
            Some(x) => format!("{name}: {:.1} GFLOP/s on one thread, {:.1} on {threads} at once", x.one, x.all),
            None => format!("{name}: not measured (not on this machine)"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_widest_set_is_avx512_else_avx2_else_sse2() {
        let at = |one: f64| Some(Peak { one, all: 2.0 * one });
        let mut p = Peaks { threads: 2, sse2_f64: at(30.0), sse2_f32: at(60.0), ..Default::default() };
        assert_eq!(p.widest_f32().map(|(x, n)| (x.one, n)), Some((60.0, "SSE2")));
        (p.avx2_f64, p.avx2_f32) = (at(60.0), at(120.0));
        assert_eq!(p.widest_f64().map(|(x, n)| (x.one, n)), Some((60.0, "AVX2")));
        assert_eq!(p.widest_f32().map(|(x, n)| (x.one, n)), Some((120.0, "AVX2")));
        (p.avx512_f64, p.avx512_f32) = (at(118.0), at(236.0));
        assert_eq!(p.widest_f32().map(|(x, n)| (x.one, n)), Some((236.0, "AVX-512")));
        assert_eq!(Peaks::default().widest_f64().map(|(_, n)| n), None);
    }
}
