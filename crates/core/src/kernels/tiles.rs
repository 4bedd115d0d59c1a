//! The generic register tiles of the kernels, for any [`Element`]: a tile of scores
//! ([`score_tile`], used by [`super::scores`]) and a tile of weighted sums ([`sums_tile`], used by
//! [`super::sums`]), each output element its own chain of operations in the order of the module
//! doc of [`super`]. The target's vector tiles (`avx2.rs`, `avx512.rs`, `simd128.rs`) give the
//! same bits.

use super::element::{Element, LANES};
use super::shape::{G, WC, WR};

/// One register tile of scores: `acc[r][k] = sum_c a[c][r] b[c][k]` over `c = 0..d` in increasing order
/// (`a`: `d` rows of `R` query coordinates; `b`: `d` rows of `K` key coordinates; `d >= 1`).
#[inline(always)]
pub(super) fn score_tile<T: Element, const R: usize, const K: usize>(a: &[[T; R]], b: &[[T; K]]) -> [[T; K]; R] {
    let (a0, b0) = (&a[0], &b[0]);
    let mut acc: [[T; K]; R] = std::array::from_fn(|r| std::array::from_fn(|k| a0[r] * b0[k]));
    for (ac, bc) in a[1..].iter().zip(&b[1..]) {
        for r in 0..R {
            for k in 0..K {
                acc[r][k] = acc[r][k] + ac[r] * bc[k];
            }
        }
    }
    acc
}

/// One register tile of weighted sums over the chunks `q0..q1` of [`LANES`] tokens: adds `e[r][j] * (w[c][j] -
/// sh[r][c])` to lane `j mod LANES` of `acc[r][c]` (`sh` used only when `REL`), `G` lanes at a
/// time in `LANES / G` passes, each lane in increasing `j`.
// Index loops over the tile's fixed-size arrays, which LLVM unrolls fully, keeping each partial
// sum in a register. Not inlined: inlined into the loops over tiles, LLVM kept the AVX-512
// build's partial sums in memory (3x slower); a call per tile and token tile costs nothing.
#[allow(clippy::needless_range_loop)]
#[inline(never)]
pub(super) fn sums_tile<T: Element, const REL: bool>(
    e: [&[T]; WR],
    w: [&[T]; WC],
    sh: [[T; WC]; WR],
    q0: usize,
    q1: usize,
    acc: &mut [[[T; LANES]; WC]; WR],
) {
    let ec: [&[[T; LANES]]; WR] = e.map(|x| x[q0 * LANES..q1 * LANES].as_chunks::<LANES>().0);
    let wc: [&[[T; LANES]]; WC] = w.map(|x| x[q0 * LANES..q1 * LANES].as_chunks::<LANES>().0);
    let m = q1 - q0;
    // Lets the compiler drop the bounds checks of the loop below (one basic block to vectorise).
    assert!(ec.iter().all(|x| x.len() == m) && wc.iter().all(|x| x.len() == m));
    for p in 0..LANES / G {
        let mut a: [[[T; G]; WC]; WR] = [[[T::ZERO; G]; WC]; WR];
        for r in 0..WR {
            for c in 0..WC {
                for g in 0..G {
                    a[r][c][g] = acc[r][c][p * G + g];
                }
            }
        }
        for q in 0..m {
            let ev: [&[T; LANES]; WR] = std::array::from_fn(|r| &ec[r][q]);
            let wv: [&[T; LANES]; WC] = std::array::from_fn(|c| &wc[c][q]);
            for r in 0..WR {
                for c in 0..WC {
                    for g in 0..G {
                        let l = p * G + g;
                        let x = if REL { wv[c][l] - sh[r][c] } else { wv[c][l] };
                        a[r][c][g] = a[r][c][g] + ev[r][l] * x;
                    }
                }
            }
        }
        for r in 0..WR {
            for c in 0..WC {
                for g in 0..G {
                    acc[r][c][p * G + g] = a[r][c][g];
                }
            }
        }
    }
}
