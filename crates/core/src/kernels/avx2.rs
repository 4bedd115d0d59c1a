//! The f32 score tile written with 256-bit AVX instructions (`core::arch::x86_64`), for native
//! builds with `avx2` (the CLI and tests built with `target-cpu=native` on an AVX2 or AVX-512
//! machine): the products of the model lab's forward.
//!
//! Why by hand: LLVM compiled the generic 8 x 8 f32 tile of [`super::scores`] (AVX-512 build,
//! AMD EPYC, 2026-12-06, read with `perf annotate`) into 4 accumulators of 2 queries x 8 keys,
//! each coordinate 4 `vpermps` shuffles to spread the two query values besides the 4 multiplies
//! and 4 adds. Here [`SR`] queries x `P` adjacent key panels of [`SK`] = 8 keys are `SR x P`
//! registers of 8 scores: each coordinate `P` loads of keys, `SR` broadcast loads of a query
//! coordinate and `SR x P` multiplies and adds, no shuffle. 256-bit registers, not 512: this
//! CPU (and AMD's Zen 4 in general) splits a 512-bit multiply or add into two 256-bit halves, so
//! 512 bits would not add throughput here.
//!
//! The f32 weighted-sum tile likewise keeps the [`LANES`] = 8 lane sums of one row and
//! coordinate in one register ([`WR`] x [`WC`] registers, one pass; the generic tile advanced
//! them [`super::shape::G`] lanes at a time): each chunk of 8 tokens is `WR` loads of weights,
//! `WC` loads of values and `WR x WC` multiplies and adds. Lane `l` adds `e[r][j] * w[c][j]`
//! (`REL`: `e[r][j] * (w[c][j] - sh[r][c])`) for `j = l, l + 8, ...` in increasing order.
//!
//! Same bits as the generic tile: lane `k` of register `(r, p)` is the score `acc[r][k]` of panel
//! `p`, computed by the same IEEE multiplies and adds in the same order (the first product, then
//! the coordinates added in increasing order); a vector instruction only does eight at once.

use core::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_storeu_ps, _mm256_sub_ps,
};

use super::shape::{SK, SR, WC, WR};
use super::LANES;

// Eight f32 keys per panel, and the eight lane sums of a weighted sum: one 256-bit register each.
const _: () = assert!(SK == 8 && LANES == 8);

/// `P` score tiles of [`SR`] queries x [`SK`] keys: `out[p][r][k] = sum_c a[c][r] b[p][c][k]`
/// over `c = 0..d` in increasing order, the first product not added to a zero (`a`: `d` rows of
/// `SR` query coordinates; `b[p]`: `d` rows of `SK` key coordinates; `d = a.len() >= 1`).
/// Panics if `a` is empty or a panel is shorter than `a`.
#[inline(always)]
pub fn score_tiles_f32<const P: usize>(a: &[[f32; SR]], b: [&[[f32; SK]]; P]) -> [[[f32; SK]; SR]; P] {
    let d = a.len();
    assert!(d >= 1 && b.iter().all(|panel| panel.len() >= d));
    let mut out = [[[0.0; SK]; SR]; P];
    let bp: [*const f32; P] = b.map(|panel| panel.as_ptr().cast::<f32>());
    // SAFETY: the module is compiled only with `avx2` enabled for the whole build (its `cfg`), so
    // the intrinsics run on a CPU that has it. Coordinate `c < d` of panel `p` is the 8 f32 at
    // `bp[p] + 8 c`, inside the panel (asserted above); every store writes one row of 8 f32 of
    // `out`. Unaligned accesses are allowed.
    unsafe {
        let k0: [__m256; P] = bp.map(|x| _mm256_loadu_ps(x));
        let mut acc: [[__m256; P]; SR] = std::array::from_fn(|r| {
            let q = _mm256_set1_ps(a[0][r]);
            k0.map(|k| _mm256_mul_ps(q, k))
        });
        for (c, q) in a.iter().enumerate().skip(1) {
            let kv: [__m256; P] = bp.map(|x| _mm256_loadu_ps(x.add(SK * c)));
            for (s, &x) in acc.iter_mut().zip(q) {
                let qv = _mm256_set1_ps(x);
                for (sp, &k) in s.iter_mut().zip(&kv) {
                    *sp = _mm256_add_ps(*sp, _mm256_mul_ps(qv, k));
                }
            }
        }
        for (panel, p) in out.iter_mut().zip(0..P) {
            for (row, s) in panel.iter_mut().zip(&acc) {
                _mm256_storeu_ps(row.as_mut_ptr(), s[p]);
            }
        }
    }
    out
}

/// The weighted-sum tile of [`super::sums`] in f32 for [`WR`] rows and [`WC`] coordinates: over
/// the chunks `q0..q1` of [`LANES`] tokens, adds `e[r][j] * (w[c][j] - sh[r][c])` (`sh` only when
/// `REL`) to lane `j mod LANES` of `acc[r][c]`, each lane in increasing `j`. Panics if a stream
/// is shorter than `q1 * LANES`.
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
    if q1 <= q0 {
        return;
    }
    // SAFETY: the module is compiled only with `avx2` enabled for the whole build (its `cfg`), so
    // the intrinsics run on a CPU that has it. `acc[r][c]` is 8 f32; a chunk `q` in `q0..q1`
    // reads elements `8q .. 8q + 8` of `lo..hi`, inside every stream (asserted above). Unaligned
    // loads and stores are allowed.
    unsafe {
        let mut a: [[__m256; WC]; WR] =
            std::array::from_fn(|r| std::array::from_fn(|c| _mm256_loadu_ps(acc[r][c].as_ptr())));
        let shv: [[__m256; WC]; WR] = sh.map(|row| row.map(|x| _mm256_set1_ps(x)));
        let ep: [*const f32; WR] = e.map(|x| x[lo..hi].as_ptr());
        let wp: [*const f32; WC] = w.map(|x| x[lo..hi].as_ptr());
        for q in 0..q1 - q0 {
            let at = LANES * q;
            let ev: [__m256; WR] = ep.map(|x| _mm256_loadu_ps(x.add(at)));
            let wv: [__m256; WC] = wp.map(|x| _mm256_loadu_ps(x.add(at)));
            for r in 0..WR {
                for c in 0..WC {
                    let x = if REL { _mm256_sub_ps(wv[c], shv[r][c]) } else { wv[c] };
                    a[r][c] = _mm256_add_ps(a[r][c], _mm256_mul_ps(ev[r], x));
                }
            }
        }
        for r in 0..WR {
            for c in 0..WC {
                _mm256_storeu_ps(acc[r][c].as_mut_ptr(), a[r][c]);
            }
        }
    }
}
