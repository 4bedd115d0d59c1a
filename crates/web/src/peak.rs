//! Benchmark only (`cargo xtask bench`, docs/bench.md "Peaks and GFLOP/s"): the peak of wasm simd128, independent
//! vector multiplies and adds (no FMA) in f64x2 or f32x4 lanes, timed by
//! `crates/xtask/bench/peak_wasm.mjs`. Nothing of the page calls it; no result goes through it.
//!
//! Each iteration updates 6 multiply chains `a_k = a_k * m` and 6 add chains `b_k = b_k + c`,
//! independent of each other, so the loop measures the units' throughput, not their latency:
//! `12 * lanes` flops per iteration (the lanes of one operation count one flop each).

use wasm_bindgen::prelude::*;

// The chains are named locals, not an array: an array indexed in a closure can stay in linear
// memory, which turns every operation into a load and a store.
#[cfg(target_arch = "wasm32")]
macro_rules! chains {
    ($iters:expr, $splat:ident, $mul:ident, $add:ident, $extract0:ident) => {{
        use core::arch::wasm32::*;
        let (m, c) = ($splat(1.000_000_1), $splat(1e-3));
        let (mut a0, mut a1, mut a2, mut a3, mut a4, mut a5) =
            ($splat(1.0), $splat(2.0), $splat(3.0), $splat(4.0), $splat(5.0), $splat(6.0));
        let (mut b0, mut b1, mut b2, mut b3, mut b4, mut b5) =
            ($splat(0.0), $splat(1.0), $splat(2.0), $splat(3.0), $splat(4.0), $splat(5.0));
        for _ in 0..$iters {
            a0 = $mul(a0, m);
            b0 = $add(b0, c);
            a1 = $mul(a1, m);
            b1 = $add(b1, c);
            a2 = $mul(a2, m);
            b2 = $add(b2, c);
            a3 = $mul(a3, m);
            b3 = $add(b3, c);
            a4 = $mul(a4, m);
            b4 = $add(b4, c);
            a5 = $mul(a5, m);
            b5 = $add(b5, c);
        }
        let s = $add($add($add(a0, b0), $add(a1, b1)), $add($add(a2, b2), $add(a3, b3)));
        $extract0::<0>($add(s, $add($add(a4, b4), $add(a5, b5)))) as f64
    }};
}

/// Runs `iters` iterations in f64x2 lanes (`f64_lanes`) or f32x4 lanes; returns a sum of the
/// lanes (so the loop is not dropped). Flops: `iters * 2 * 6 * lanes`. NaN outside wasm.
#[wasm_bindgen]
pub fn peak_flops(f64_lanes: bool, iters: u32) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        if f64_lanes {
            chains!(iters, f64x2_splat, f64x2_mul, f64x2_add, f64x2_extract_lane)
        } else {
            chains!(iters, f32x4_splat, f32x4_mul, f32x4_add, f32x4_extract_lane)
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (f64_lanes, iters);
        f64::NAN
    }
}
