//! The score tile and the weighted-sum tile written with AVX-512 instructions
//! (`core::arch::x86_64`), for native builds with `avx512f` (the CLI and tests built with
//! `target-cpu=native` on an AVX-512 machine).
//!
//! Why by hand: LLVM vectorises the generic tiles of [`super::scores`] and [`super::sums`] with
//! 256-bit registers on CPUs whose tuning prefers them (Intel's server cores: read in the CLI
//! built on a Sapphire Rapids host, 2026-12-02, every multiply of the score tile on `ymm`), and
//! the generic weighted-sum tile four lanes at a time in two passes even where it uses 512 bits:
//! its 4 x 4 x 8 partial sums are more than the 64 scalars it keeps in registers when the loop is
//! written over all 8 lanes. Here a score tile's 8 keys of one query are one 512-bit register
//! (8 accumulators; each coordinate one load of keys, 8 broadcast multiplies, 8 adds), and the
//! 8 lane sums of one row and coordinate of a weighted sum are one 512-bit register
//! (16 accumulators, one pass, each chunk of 8 tokens 4 loads of weights, 4 loads of values,
//! 16 multiplies and 16 adds).
//!
//! Same bits as the generic tiles: lane `k` of a score register is the score `acc[r][k]`,
//! computed by the same IEEE multiplies and adds in the same order (the first product, then the
//! coordinates added in increasing order); lane `l` of a sums register is the partial sum
//! `acc[r][c][l]`, which adds `e[r][j] * (w[c][j] - sh[r][c])` (`REL`) or `e[r][j] * w[c][j]` for
//! `j = l, l + 8, ...` in increasing order, with the same IEEE operations in the same order.

use core::arch::x86_64::{
    __m512d, _mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd, _mm512_set1_pd, _mm512_storeu_pd, _mm512_sub_pd,
};

use super::shape::{SK, SR, WC, WR};
use super::LANES;

// The tiles below are written for this target's shape and 8 lanes of f64 per register.
const _: () = assert!(SR == 8 && SK == 8 && WR == 4 && WC == 4 && LANES == 8);

/// The score tile of [`super::scores`] for `SR = 8` queries × `SK = 8` keys:
/// `acc[r][k] = sum_c a[c][r] b[c][k]`, `c` in increasing order, the first product not added to a
/// zero (`a`: `d` rows of 8 query coordinates, `b`: `d` rows of 8 key coordinates, `d >= 1`).
/// Panics if `a` is empty or `b` is shorter than `a`.
#[inline(always)]
pub fn score_tile_f64(a: &[[f64; SR]], b: &[[f64; SK]]) -> [[f64; SK]; SR] {
    assert!(!a.is_empty() && b.len() >= a.len());
    let mut out = [[0.0; SK]; SR];
    // SAFETY: the module is compiled only with `avx512f` enabled for the whole build (its `cfg`),
    // so the intrinsics run on a CPU that has it. Every load reads one row of 8 f64 of `b` (inside
    // it, asserted above) and every store one row of 8 f64 of `out`; unaligned accesses are
    // allowed.
    unsafe {
        let k0 = _mm512_loadu_pd(b[0].as_ptr());
        let mut acc: [__m512d; SR] = std::array::from_fn(|r| _mm512_mul_pd(_mm512_set1_pd(a[0][r]), k0));
        for (q, k) in a[1..].iter().zip(&b[1..]) {
            let kv = _mm512_loadu_pd(k.as_ptr());
            for (s, &x) in acc.iter_mut().zip(q) {
                *s = _mm512_add_pd(*s, _mm512_mul_pd(_mm512_set1_pd(x), kv));
            }
        }
        for (row, s) in out.iter_mut().zip(acc) {
            _mm512_storeu_pd(row.as_mut_ptr(), s);
        }
    }
    out
}

/// The weighted-sum tile of [`super::sums`] for `WR = 4` rows and `WC = 4` coordinates: over the
/// chunks `q0..q1` of [`LANES`] tokens, adds `e[r][j] * (w[c][j] - sh[r][c])` (`sh` only when
/// `REL`) to lane `j mod LANES` of `acc[r][c]`, each lane in increasing `j`. Panics if a stream
/// is shorter than `q1 * LANES`.
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
    if q1 <= q0 {
        return;
    }
    // SAFETY: the module is compiled only with `avx512f` enabled for the whole build (its `cfg`),
    // so the intrinsics run on a CPU that has it. `acc[r][c]` is 8 f64; a chunk `q` in `q0..q1`
    // reads elements `8q .. 8q + 8` of `lo..hi`, inside every stream (asserted above). Unaligned
    // loads and stores are allowed.
    unsafe {
        let mut a: [[__m512d; WC]; WR] =
            std::array::from_fn(|r| std::array::from_fn(|c| _mm512_loadu_pd(acc[r][c].as_ptr())));
        let shv: [[__m512d; WC]; WR] = sh.map(|row| row.map(|x| _mm512_set1_pd(x)));
        let ep: [*const f64; WR] = e.map(|x| x[lo..hi].as_ptr());
        let wp: [*const f64; WC] = w.map(|x| x[lo..hi].as_ptr());
        for q in 0..q1 - q0 {
            let at = LANES * q;
            let ev: [__m512d; WR] = ep.map(|x| _mm512_loadu_pd(x.add(at)));
            let wv: [__m512d; WC] = wp.map(|x| _mm512_loadu_pd(x.add(at)));
            for r in 0..WR {
                for c in 0..WC {
                    let x = if REL { _mm512_sub_pd(wv[c], shv[r][c]) } else { wv[c] };
                    a[r][c] = _mm512_add_pd(a[r][c], _mm512_mul_pd(ev[r], x));
                }
            }
        }
        for r in 0..WR {
            for c in 0..WC {
                _mm512_storeu_pd(acc[r][c].as_mut_ptr(), a[r][c]);
            }
        }
    }
}
