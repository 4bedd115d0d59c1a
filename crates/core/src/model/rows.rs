//! One row of attention weights (max-subtracted softmax numerators) and the lane-ordered sums.
//!
//! Layout: queries `a`, keys `b` and values `w` are stored structure-of-arrays, coordinate-major
//! (`a[c * n + i]` is coordinate `c` of token `i`), so the loops over `j` below run over
//! contiguous memory and vectorise.
//!
//! Summation order (part of what makes a link replay bit for bit): a sum over tokens `j` is kept
//! in [`LANES`] partial sums, lane `l` adding `j = l, l + 8, l + 16, ...` in increasing order, and
//! the lanes are combined as `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`. The result does
//! not depend on the SIMD width the compiler picks (2 lanes in wasm, 4 or 8 natively).

use super::Divergence;
use crate::exp::exp;

/// Number of partial sums in a sum over tokens.
pub const LANES: usize = 8;

/// Combines the partial sums in the fixed order documented above.
#[inline]
pub fn combine(acc: &[f64; LANES]) -> f64 {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// `sum_j e[j] * w[j]` over `j < n` in lane order.
#[inline]
pub fn weighted_sum(e: &[f64], w: &[f64], n: usize) -> f64 {
    let mut acc = [0.0; LANES];
    let (e, w) = (&e[..n], &w[..n]);
    let full = n / LANES * LANES;
    for (ec, wc) in e[..full].chunks_exact(LANES).zip(w[..full].chunks_exact(LANES)) {
        for l in 0..LANES {
            acc[l] += ec[l] * wc[l];
        }
    }
    for j in full..n {
        acc[j - full] += e[j] * w[j];
    }
    combine(&acc)
}

/// `sum_j e[j] * (w[j] - wi)` over `j < n` in lane order (the relative field of the z model).
#[inline]
pub fn weighted_sum_relative(e: &[f64], w: &[f64], wi: f64, n: usize) -> f64 {
    let mut acc = [0.0; LANES];
    let (e, w) = (&e[..n], &w[..n]);
    let full = n / LANES * LANES;
    for (ec, wc) in e[..full].chunks_exact(LANES).zip(w[..full].chunks_exact(LANES)) {
        for l in 0..LANES {
            acc[l] += ec[l] * (wc[l] - wi);
        }
    }
    for j in full..n {
        acc[j - full] += e[j] * (w[j] - wi);
    }
    combine(&acc)
}

/// The summary of one row of unnormalised weights.
#[derive(Clone, Copy, Debug)]
pub struct RowWeights {
    /// `max_k s_ik`.
    pub max_score: f64,
    /// `sum_j e_ij` in lane order (at least 1: the maximal entry contributes `exp(0) = 1`).
    pub sum: f64,
}

/// Fills `e[j] = exp(c (s_ij - max_k s_ik))` with `s_ij = sum_c a_ic b_jc` (`c` in increasing
/// order; `a`, `b` coordinate-major `d x n`); when `c` is infinite, the hardmax limit
/// `e[j] = [s_ij == max]`. Errors when a score is not finite.
pub fn row_weights(a: &[f64], b: &[f64], n: usize, d: usize, i: usize, c: f64, e: &mut [f64]) -> Result<RowWeights, Divergence> {
    let e = &mut e[..n];
    let a0 = a[i];
    for (s, &bj) in e.iter_mut().zip(&b[..n]) {
        *s = a0 * bj;
    }
    for k in 1..d {
        let ak = a[k * n + i];
        for (s, &bj) in e.iter_mut().zip(&b[k * n..(k + 1) * n]) {
            *s += ak * bj;
        }
    }
    let mut max = f64::NEG_INFINITY;
    let mut nan = false;
    for &s in e.iter() {
        max = if s > max { s } else { max };
        nan |= s.is_nan();
    }
    if !max.is_finite() || nan {
        return Err(Divergence {
            message: "the attention scores <Q x_i, K x_j> overflowed; use a smaller dt or beta, integrate in z, or stop earlier".into(),
        });
    }
    if c.is_finite() {
        for x in e.iter_mut() {
            *x = exp(c * (*x - max));
        }
    } else {
        for x in e.iter_mut() {
            *x = if *x == max { 1.0 } else { 0.0 };
        }
    }
    let mut acc = [0.0; LANES];
    let full = n / LANES * LANES;
    for ec in e[..full].chunks_exact(LANES) {
        for l in 0..LANES {
            acc[l] += ec[l];
        }
    }
    for j in full..n {
        acc[j - full] += e[j];
    }
    Ok(RowWeights { max_score: max, sum: combine(&acc) })
}
