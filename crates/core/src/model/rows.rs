//! One row of attention weights: the max-subtracted softmax numerators.

use super::Divergence;
use crate::exp::exp;

/// The summary of one row of unnormalised weights.
#[derive(Clone, Copy, Debug)]
pub struct RowWeights {
    /// `max_k s_ik`.
    pub max_score: f64,
    /// `sum_j e_ij` (at least 1: the maximal entry contributes `exp(0) = 1`).
    pub sum: f64,
}

/// Fills `e[j] = exp(c (s_ij - max_k s_ik))` with `s_ij = <a_i, b_j>` (`a`, `b`: `n x d`);
/// when `c` is infinite, the hardmax limit `e[j] = [s_ij == max]`. Errors when a score is not
/// finite.
pub fn row_weights(a: &[f64], b: &[f64], n: usize, d: usize, i: usize, c: f64, e: &mut [f64]) -> Result<RowWeights, Divergence> {
    let ai = &a[i * d..(i + 1) * d];
    let mut max = f64::NEG_INFINITY;
    for j in 0..n {
        let bj = &b[j * d..(j + 1) * d];
        let mut s = 0.0;
        for k in 0..d {
            s += ai[k] * bj[k];
        }
        e[j] = s;
        if s > max {
            max = s;
        }
    }
    if !max.is_finite() || e[..n].iter().any(|s| s.is_nan()) {
        return Err(Divergence {
            message: "the attention scores <Q x_i, K x_j> overflowed; use a smaller dt or beta, integrate in z, or stop earlier".into(),
        });
    }
    let mut sum = 0.0;
    if c.is_finite() {
        for x in e[..n].iter_mut() {
            let v = exp(c * (*x - max));
            *x = v;
            sum += v;
        }
    } else {
        for x in e[..n].iter_mut() {
            let v = if *x == max { 1.0 } else { 0.0 };
            *x = v;
            sum += v;
        }
    }
    Ok(RowWeights { max_score: max, sum })
}
