//! Context similarity matrices (science.md §4, Halevi et al.): for a head of a layer, with
//! `O = P V` its output before `W_O` (`n x d_head`, row-major, tokens as rows), `S = O O^T`
//! (`n x n`, symmetric) with the diagonal set to 0, normalised by `similarity_norm`; the
//! statistics of its high-similarity pairs are [`crate::collapse::similarity`]'s (shared with the
//! model lab), re-exported here.
//!
//! Pairs are unordered (`i < j`). High-similarity pairs are the top `1 - quantile` share of the
//! `n (n - 1) / 2` pairs by (normalised) `S_ij` — `ceil((1 - quantile) n (n - 1) / 2)` pairs, at
//! least one; ties broken by `(i, j)` ascending — or all pairs with `S_ij >= threshold`.
//! Statistics per head: the histogram of `|i - j|`; the same-sentence fraction (to compare with
//! [`super::input::chance_level`]); the most frequent token (the position that occurs in most
//! high pairs, lowest index on ties) and its share (pairs containing it / pairs); the attention
//! mass on separator tokens, `mean_i sum_{j separator} P_ij`. Per layer: the histograms and
//! same-sentence counts pooled over heads, the separator mass averaged over heads.

use super::config::SimilarityNorm;
use nalgebra::DMatrix;

pub use crate::collapse::similarity::{
    head_stats, high_pairs, layer_stats, separator_mass, HeadSimilarity, LayerSimilarity, Select,
};

/// `S = O O^T` with zero diagonal, normalised by `norm` (`n x n`, row-major). `o` is `n x d_head`
/// row-major. `max-abs` divides by the largest off-diagonal `|S_ij|` (unchanged when all are 0);
/// `cosine` divides by `|o_i| |o_j|` (0 when either is 0).
pub fn similarity_matrix(o: &[f64], n: usize, d_head: usize, norm: SimilarityNorm) -> Vec<f64> {
    let om = DMatrix::from_row_slice(n, d_head, &o[..n * d_head]);
    let g = super::products::gram(&om);
    // g is symmetric: its column-major data is O O^T row-major.
    let mut s = g.as_slice().to_vec();
    normalize(&mut s, n, norm);
    s
}

/// Turns the Gram matrix `O O^T` (`n x n`, row-major) into `S`: zero diagonal, then the
/// normalisation `norm` (see [`similarity_matrix`]).
pub fn normalize(s: &mut [f64], n: usize, norm: SimilarityNorm) {
    let diag: Vec<f64> = (0..n).map(|i| s[i * n + i]).collect();
    for i in 0..n {
        s[i * n + i] = 0.0;
    }
    match norm {
        SimilarityNorm::Raw => {}
        SimilarityNorm::MaxAbs => {
            // A NaN or infinite entry makes `m` NaN or infinite: every entry is then NaN or
            // divided by it, never left unnormalised.
            let m = crate::nan::max_abs(s);
            if m > 0.0 || m.is_nan() {
                s.iter_mut().for_each(|v| *v /= m);
            }
        }
        SimilarityNorm::Cosine => {
            let len: Vec<f64> = diag.iter().map(|&v| crate::nan::max(v, 0.0).sqrt()).collect();
            for i in 0..n {
                for j in 0..n {
                    let l = len[i] * len[j];
                    s[i * n + j] = if l > 0.0 || l.is_nan() { s[i * n + j] / l } else { 0.0 };
                }
            }
        }
    }
}
