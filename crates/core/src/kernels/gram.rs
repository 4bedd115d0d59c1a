//! Gram matrices `G_ab = sum_c v_ac v_bc` of `m` vectors of length `len` on the score tiles
//! ([`super::scores`]), each entry the plain loop's bits: `((0 + v_a0 v_b0) + v_a1 v_b1) + ...`.
//! The score tiles do not start from a zero; adding `+0` afterwards gives the same result, since
//! the two sums differ at most in the sign of a zero (`0 + (-0) = +0`, while `-0` starts the
//! tile's sum) until the first nonzero product, and not at all from there on.

use super::scores::{pack_keys, pack_queries, scores_block_from, KeyPanels};
use super::shape::RB;

/// The Gram matrix (`m x m`, row-major, symmetric) of the vectors `v(a, c)`, `a < m`, `c < len`
/// (each read twice, once as a query and once as a key), in `f64`: entry `(a, b)` for `b >= a`
/// computed on the score tiles, in blocks of [`RB`] rows against the keys from the block's
/// diagonal on, then mirrored. All zero when `len = 0`.
pub fn gram(m: usize, len: usize, v: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    let mut g = vec![0.0f64; m * m];
    if m == 0 || len == 0 {
        return g;
    }
    let mut keys = KeyPanels::default();
    pack_keys(m, len, &v, &mut keys);
    let mut queries = Vec::new();
    for a0 in (0..m).step_by(RB) {
        let rows = RB.min(m - a0);
        pack_queries(rows, len, |r, c| v(a0 + r, c), &mut queries);
        scores_block_from(&queries, rows, &keys, a0, &mut g[a0 * m..(a0 + rows) * m]);
    }
    for a in 0..m {
        for b in a..m {
            let x = g[a * m + b] + 0.0;
            g[a * m + b] = x;
            g[b * m + a] = x;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_the_plain_loops_bits() {
        let mut r = crate::rng::Rng::new(11, 0);
        for (m, len) in [(1, 1), (3, 7), (17, 5), (40, 33), (9, 130)] {
            let mut v: Vec<f64> = (0..m * len).map(|_| r.normal() * 1e3).collect();
            // Zero and negative-zero vectors: the sign of a zero sum is the plain loop's.
            if m > 2 {
                v[..len].iter_mut().for_each(|x| *x = -0.0);
                v[len..2 * len].iter_mut().enumerate().for_each(|(c, x)| *x = if c % 2 == 0 { 0.0 } else { -0.0 });
            }
            let g = gram(m, len, |a, c| v[a * len + c]);
            for a in 0..m {
                for b in 0..m {
                    let plain = (0..len).fold(0.0f64, |s, c| s + v[a * len + c] * v[b * len + c]);
                    assert_eq!(g[a * m + b].to_bits(), plain.to_bits(), "m {m}, len {len}, ({a}, {b})");
                }
            }
        }
        assert_eq!(gram(2, 0, |_, _| 1.0), vec![0.0; 4]);
    }
}
