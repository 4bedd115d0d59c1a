//! The score tile and the weighted-sum tile written with wasm simd128 instructions
//! (`core::arch::wasm32`), for wasm builds with `+simd128` (the playground's). LLVM does not
//! vectorise the generic score tile of [`super::scores`] for this target: it compiled to 8 scalar
//! multiplies and 8 scalar adds per coordinate (2026-12-02, read in the shipped module with
//! `wasm-tools print`); nor the relative weighted-sum tile of [`super::sums`]. Here each query
//! coordinate is splatted and multiplied with the keys two at a time, and the sums advance two
//! lanes at a time.
//!
//! Same bits as the generic tiles: every lane is one output element, computed by the same IEEE
//! multiplies and adds in the same order (the first product, then the coordinates added in
//! increasing order); a vector instruction only does two or four of them at once.

use core::arch::wasm32::{
    f32x4_add, f32x4_extract_lane, f32x4_mul, f32x4_splat, f32x4_sub, f64x2_add, f64x2_extract_lane, f64x2_mul,
    f64x2_splat, f64x2_sub, v128, v128_load,
};

use super::shape::{G, SK, SR, WC, WR};
use super::LANES;

// The tiles below are written for this target's shape.
const _: () = assert!(SR == 2 && SK == 4 && WR == 4 && WC == 2 && G == 2);

/// Two f64 (or four f32) keys of one coordinate, as one vector.
#[inline(always)]
fn load<T, const K: usize>(row: &[T; K], at: usize) -> v128 {
    assert!((at + 1) * 16 <= K * core::mem::size_of::<T>());
    // SAFETY: the 16 bytes at byte offset 16 * at lie inside `row` (asserted above, a constant
    // check the compiler removes); wasm loads need no alignment.
    unsafe { v128_load(row.as_ptr().cast::<u8>().add(16 * at).cast::<v128>()) }
}

/// `acc[r][k] = sum_c a[c][r] b[c][k]`, `c` in increasing order, the first product not added to a
/// zero (`a`: `d` rows of 2 query coordinates, `b`: `d` rows of 4 key coordinates, `d >= 1`).
#[inline(always)]
pub fn score_tile_f64(a: &[[f64; SR]], b: &[[f64; SK]]) -> [[f64; SK]; SR] {
    let (q, k) = (&a[0], &b[0]);
    let (q0, q1) = (f64x2_splat(q[0]), f64x2_splat(q[1]));
    let (k0, k1) = (load(k, 0), load(k, 1));
    let (mut s00, mut s01, mut s10, mut s11) =
        (f64x2_mul(q0, k0), f64x2_mul(q0, k1), f64x2_mul(q1, k0), f64x2_mul(q1, k1));
    for (q, k) in a[1..].iter().zip(&b[1..]) {
        let (q0, q1) = (f64x2_splat(q[0]), f64x2_splat(q[1]));
        let (k0, k1) = (load(k, 0), load(k, 1));
        s00 = f64x2_add(s00, f64x2_mul(q0, k0));
        s01 = f64x2_add(s01, f64x2_mul(q0, k1));
        s10 = f64x2_add(s10, f64x2_mul(q1, k0));
        s11 = f64x2_add(s11, f64x2_mul(q1, k1));
    }
    let row = |x: v128, y: v128| {
        [f64x2_extract_lane::<0>(x), f64x2_extract_lane::<1>(x), f64x2_extract_lane::<0>(y), f64x2_extract_lane::<1>(y)]
    };
    [row(s00, s01), row(s10, s11)]
}

/// [`score_tile_f64`] in f32, against `P` adjacent key panels at once: four keys per vector,
/// `2 P` accumulators, so each splat of a query coordinate serves `P` vectors of keys (with one
/// panel, 2 splats per 2 multiplies). `out[p][r][k] = sum_c a[c][r] b[p][c][k]`, `c` in
/// increasing order, the first product not added to a zero (`d = a.len() >= 1`). Panics if a
/// panel is shorter than `a`.
#[inline(always)]
pub fn score_tiles_f32<const P: usize>(a: &[[f32; SR]], b: [&[[f32; SK]]; P]) -> [[[f32; SK]; SR]; P] {
    let d = a.len();
    assert!(d >= 1 && b.iter().all(|panel| panel.len() >= d));
    let (q0, q1) = (f32x4_splat(a[0][0]), f32x4_splat(a[0][1]));
    let k0: [v128; P] = b.map(|panel| load(&panel[0], 0));
    let mut s0: [v128; P] = k0.map(|k| f32x4_mul(q0, k));
    let mut s1: [v128; P] = k0.map(|k| f32x4_mul(q1, k));
    for (c, q) in a.iter().enumerate().skip(1) {
        // SAFETY: `c < d <= panel.len()` for every panel (asserted above).
        let kv: [v128; P] = b.map(|panel| load(unsafe { panel.get_unchecked(c) }, 0));
        let (q0, q1) = (f32x4_splat(q[0]), f32x4_splat(q[1]));
        for p in 0..P {
            s0[p] = f32x4_add(s0[p], f32x4_mul(q0, kv[p]));
            s1[p] = f32x4_add(s1[p], f32x4_mul(q1, kv[p]));
        }
    }
    let row = |x: v128| {
        [f32x4_extract_lane::<0>(x), f32x4_extract_lane::<1>(x), f32x4_extract_lane::<2>(x), f32x4_extract_lane::<3>(x)]
    };
    std::array::from_fn(|p| [row(s0[p]), row(s1[p])])
}

/// The weighted-sum tile of [`super::sums`] in f64x2 instructions, for `WR = 4` rows, `WC = 2`
/// coordinates and `G = 2` lanes at a time (this target's shape): over the chunks `q0..q1` of
/// [`LANES`] tokens, adds `e[r][j] * (w[c][j] - sh[r][c])` (`sh` only when `REL`) to lane
/// `j mod LANES` of `acc[r][c]`, in `LANES / 2` passes, each lane in increasing `j`, two chunks
/// per loop iteration. (LLVM's vectorisation of the generic tile added a pass offset to every
/// load and advanced every address each chunk, and left the `REL` tile scalar; measured, this
/// tile is 35 % faster for `REL` and the same within noise otherwise.) Same operations per lane in the same order as the
/// generic tile: the same bits.
#[inline(never)]
pub fn sums_tile_f64<const REL: bool>(
    e: [&[f64]; WR],
    w: [&[f64]; WC],
    sh: [[f64; WC]; WR],
    q0: usize,
    q1: usize,
    acc: &mut [[[f64; LANES]; WC]; WR],
) {
    let (lo, hi) = (q0 * LANES, q1 * LANES);
    assert!(e.iter().all(|x| x.len() >= hi) && w.iter().all(|x| x.len() >= hi));
    let m = q1 - q0;
    if m == 0 {
        return;
    }
    let shv: [[v128; WC]; WR] = sh.map(|row| row.map(|x| f64x2_splat(x)));
    for p in 0..LANES / 2 {
        let mut a: [[v128; WC]; WR] = std::array::from_fn(|r| std::array::from_fn(|c| load(&acc[r][c], p)));
        // Element `lo + 2p` of each stream: its chunk `q` is `8q` elements further.
        let ep: [*const f64; WR] = e.map(|x| x[lo + 2 * p..].as_ptr());
        let wp: [*const f64; WC] = w.map(|x| x[lo + 2 * p..].as_ptr());
        let step = |a: &mut [[v128; WC]; WR], at: usize| {
            // SAFETY: `at = 8 q` for a chunk `q < m`: elements `lo + 2p + 8q` and the next lie
            // below `hi` in every stream (asserted above); wasm loads need no alignment.
            let ev: [v128; WR] = ep.map(|x| unsafe { v128_load(x.add(at).cast::<v128>()) });
            let wv: [v128; WC] = wp.map(|x| unsafe { v128_load(x.add(at).cast::<v128>()) });
            for r in 0..WR {
                for c in 0..WC {
                    let x = if REL { f64x2_sub(wv[c], shv[r][c]) } else { wv[c] };
                    a[r][c] = f64x2_add(a[r][c], f64x2_mul(ev[r], x));
                }
            }
        };
        let mut q = 0;
        while q + 2 <= m {
            step(&mut a, LANES * q);
            step(&mut a, LANES * (q + 1));
            q += 2;
        }
        if q < m {
            step(&mut a, LANES * q);
        }
        for r in 0..WR {
            for c in 0..WC {
                let v = a[r][c];
                acc[r][c][2 * p] = f64x2_extract_lane::<0>(v);
                acc[r][c][2 * p + 1] = f64x2_extract_lane::<1>(v);
            }
        }
    }
}

/// [`sums_tile_f64`] in f32: four lanes per vector, so the [`LANES`] lane sums of a row and
/// coordinate are two vectors, advanced in two passes (lanes 0-3, then 4-7) of `WR x WC`
/// accumulators each. (The generic tile advanced them [`G`] = 2 lanes at a time, the shape of
/// this target's f64 tiles: the model lab's `P_h V_h` in wasm.) Each lane adds
/// `e[r][j] * (w[c][j] - sh[r][c])` (`sh` only when `REL`) for its `j` in increasing order, with
/// the same IEEE operations in the same order as the generic tile: the same bits.
#[inline(never)]
pub fn sums_tile_f32<const REL: bool>(
    e: [&[f32]; WR],
    w: [&[f32]; WC],
    sh: [[f32; WC]; WR],
    q0: usize,
    q1: usize,
    acc: &mut [[[f32; LANES]; WC]; WR],
) {
    let (lo, hi) = (q0 * LANES, q1 * LANES);
    assert!(e.iter().all(|x| x.len() >= hi) && w.iter().all(|x| x.len() >= hi));
    let m = q1 - q0;
    if m == 0 {
        return;
    }
    let shv: [[v128; WC]; WR] = sh.map(|row| row.map(|x| f32x4_splat(x)));
    for p in 0..2 {
        let mut a: [[v128; WC]; WR] = std::array::from_fn(|r| std::array::from_fn(|c| load(&acc[r][c], p)));
        // Element `lo + 4p` of each stream: its chunk `q` is `8q` elements further.
        let ep: [*const f32; WR] = e.map(|x| x[lo + 4 * p..].as_ptr());
        let wp: [*const f32; WC] = w.map(|x| x[lo + 4 * p..].as_ptr());
        for q in 0..m {
            let at = LANES * q;
            // SAFETY: `at = 8 q` for a chunk `q < m`: elements `lo + 4p + 8q` to `lo + 4p + 8q + 3`
            // lie below `hi` in every stream (asserted above); wasm loads need no alignment.
            let ev: [v128; WR] = ep.map(|x| unsafe { v128_load(x.add(at).cast::<v128>()) });
            let wv: [v128; WC] = wp.map(|x| unsafe { v128_load(x.add(at).cast::<v128>()) });
            for r in 0..WR {
                for c in 0..WC {
                    let x = if REL { f32x4_sub(wv[c], shv[r][c]) } else { wv[c] };
                    a[r][c] = f32x4_add(a[r][c], f32x4_mul(ev[r], x));
                }
            }
        }
        for r in 0..WR {
            for c in 0..WC {
                let v = a[r][c];
                let out = &mut acc[r][c][4 * p..4 * p + 4];
                out.copy_from_slice(&[
                    f32x4_extract_lane::<0>(v),
                    f32x4_extract_lane::<1>(v),
                    f32x4_extract_lane::<2>(v),
                    f32x4_extract_lane::<3>(v),
                ]);
            }
        }
    }
}
