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

use crate::exp::rational::RationalExp;
use crate::exp::ExpConstants;
use crate::run::Divergence;

/// Number of partial sums in a sum over tokens ([`crate::kernels::LANES`]).
pub const LANES: usize = crate::kernels::LANES;

/// Combines the partial sums in the fixed order documented above ([`crate::kernels::combine`]).
#[inline]
pub fn combine(acc: &[f64; LANES]) -> f64 {
    crate::kernels::combine(acc)
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

/// `out[c] = sum_j e[j] * (w[c][j] - shift[c])` for every coordinate `c < d` (`w` coordinate-major
/// `d x n`; `shift` all zeros for the x model, the row's own values `w_i` for the relative field of
/// the z model): [`weighted_sum`] / [`weighted_sum_relative`] per coordinate, each in lane order.
///
/// One pass per coordinate, each keeping its lane sums in vector registers: the stepper's path for
/// `d <= 3` (`super::SMALL_D`; [`crate::kernels::sums::weighted_sums_block`] computes the same
/// bits for larger `d`). (Fusing the
/// coordinates into one pass with a `[[f64; LANES]; D]` accumulator made LLVM pack and unpack the
/// sums every iteration: 30% of a native step at d = 3.)
#[inline]
pub fn weighted_sums(e: &[f64], w: &[f64], n: usize, d: usize, relative: Option<usize>, out: &mut [f64]) {
    for (c, o) in out[..d].iter_mut().enumerate() {
        let wc = &w[c * n..(c + 1) * n];
        *o = match relative {
            Some(i) => weighted_sum_relative(e, wc, wc[i], n),
            None => weighted_sum(e, wc, n),
        };
    }
}

/// Which exponential the attention weights use: it is fixed by the configuration's `version`
/// (`crate::particles::config::Config::version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightExp {
    /// Versions 0 and 1: the Taylor form, [`crate::exp::exp_nonpositive`] (bits of `exp`).
    Taylor,
    /// Version 2 on: the rational form, [`crate::exp::rational::exp_rational`].
    Rational,
}

impl WeightExp {
    /// The exponential of configuration version `version`.
    pub fn of_version(version: u32) -> WeightExp {
        if version >= 2 {
            WeightExp::Rational
        } else {
            WeightExp::Taylor
        }
    }
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
/// `e[j] = [s_ij == max]`. `exp` picks the exponential (the configuration's version). Errors when
/// a score is not finite. The scores of one row, then [`softmax_row`] (the stepper computes the
/// scores of many rows at once with [`crate::kernels::scores_block`]: the same bits).
#[allow(clippy::too_many_arguments)]
pub fn row_weights(
    a: &[f64],
    b: &[f64],
    n: usize,
    d: usize,
    i: usize,
    c: f64,
    exp: WeightExp,
    e: &mut [f64],
) -> Result<RowWeights, Divergence> {
    let e = &mut e[..n];
    scores(a, b, n, d, i, e);
    softmax_row(e, c, exp)
}

/// Turns one row of scores `e` (`s_ij` for every `j`) into `e[j] = exp(c (s_ij - max_k s_ik))`
/// (hardmax when `c` is infinite, see [`row_weights`]) and returns its maximum and the lane-order
/// sum. Errors when a score is not finite.
///
/// The loops run over `j` in chunks of [`LANES`] with per-lane state only, so they vectorise;
/// every `e[j]` and every partial sum is the same arithmetic in the same order whatever the
/// vector width (the max of a set does not depend on the order in which it is taken).
#[allow(clippy::eq_op)] // `s - s` is the finiteness test (NaN unless s is finite)
pub fn softmax_row(e: &mut [f64], c: f64, exp: WeightExp) -> Result<RowWeights, Divergence> {
    let n = e.len();
    // Lane maxima; `bad` stays exactly 0 while every score is finite (s - s = 0) and becomes
    // NaN as soon as one is infinite or NaN.
    let mut lane_max = [f64::NEG_INFINITY; LANES];
    let mut bad = [0.0f64; LANES];
    let full = n / LANES * LANES;
    for chunk in e[..full].chunks_exact(LANES) {
        for l in 0..LANES {
            let s = chunk[l];
            lane_max[l] = if s > lane_max[l] { s } else { lane_max[l] };
            bad[l] += s - s;
        }
    }
    for (l, &s) in e[full..].iter().enumerate() {
        lane_max[l] = if s > lane_max[l] { s } else { lane_max[l] };
        bad[l] += s - s;
    }
    let max = lane_max.iter().fold(f64::NEG_INFINITY, |m, &s| if s > m { s } else { m });
    if !max.is_finite() || combine(&bad) != 0.0 {
        return Err(Divergence {
            message: "the attention scores <Q x_i, K x_j> overflowed; use a smaller dt or beta, integrate in z, or stop earlier".into(),
        });
    }
    let mut acc = [0.0; LANES];
    if c.is_finite() {
        // c (s - max) <= 0: an exponential for nonpositive arguments, its constants read once
        // before the loop (see `ExpConstants::opaque`).
        match exp {
            WeightExp::Taylor => {
                let k = ExpConstants::opaque();
                exponentials(e, c, max, &mut acc, |x| k.eval(x));
            }
            WeightExp::Rational => {
                let k = RationalExp::opaque();
                exponentials(e, c, max, &mut acc, |x| k.eval(x));
            }
        }
    } else {
        for (j, x) in e.iter_mut().enumerate() {
            *x = if *x == max { 1.0 } else { 0.0 };
            acc[j % LANES] += *x;
        }
    }
    Ok(RowWeights { max_score: max, sum: combine(&acc) })
}

/// `e[j] = exp(c (e[j] - max))` for every `j`, each added to the lane sums `acc` in lane order.
#[inline(always)]
fn exponentials(e: &mut [f64], c: f64, max: f64, acc: &mut [f64; LANES], exp: impl Fn(f64) -> f64) {
    let full = e.len() / LANES * LANES;
    for chunk in e[..full].chunks_exact_mut(LANES) {
        for l in 0..LANES {
            let x = exp(c * (chunk[l] - max));
            chunk[l] = x;
            acc[l] += x;
        }
    }
    for (l, x) in e[full..].iter_mut().enumerate() {
        *x = exp(c * (*x - max));
        acc[l] += *x;
    }
}

/// `e[j] = s_ij = sum_c a_ic b_jc`, the coordinates added in increasing order
/// (`((a_0 b_0 + a_1 b_1) + a_2 b_2) + ...`); fused into one pass for `d <= 3`.
#[inline]
fn scores(a: &[f64], b: &[f64], n: usize, d: usize, i: usize, e: &mut [f64]) {
    let a0 = a[i];
    let b0 = &b[..n];
    match d {
        1 => e.iter_mut().zip(b0).for_each(|(s, &x)| *s = a0 * x),
        2 => {
            let a1 = a[n + i];
            for ((s, &x), &y) in e.iter_mut().zip(b0).zip(&b[n..2 * n]) {
                *s = a0 * x + a1 * y;
            }
        }
        3 => {
            let (a1, a2) = (a[n + i], a[2 * n + i]);
            for (((s, &x), &y), &z) in e.iter_mut().zip(b0).zip(&b[n..2 * n]).zip(&b[2 * n..3 * n]) {
                *s = (a0 * x + a1 * y) + a2 * z;
            }
        }
        _ => {
            e.iter_mut().zip(b0).for_each(|(s, &x)| *s = a0 * x);
            for k in 1..d {
                let ak = a[k * n + i];
                for (s, &bj) in e.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                    *s += ak * bj;
                }
            }
        }
    }
}
