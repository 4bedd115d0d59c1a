//! Context similarity matrices (science.md §4, Halevi et al.): for a head of a layer, with
//! `O = P V` its output before `W_O` (`n x d_head`, row-major, tokens as rows), `S = O O^T`
//! (`n x n`, symmetric) with the diagonal set to 0; and the statistics of its high-similarity
//! pairs.
//!
//! Pairs are unordered (`i < j`). High-similarity pairs are the top `1 - quantile` share of the
//! `n (n - 1) / 2` pairs by (normalised) `S_ij` — `ceil((1 - quantile) n (n - 1) / 2)` pairs, at
//! least one; ties broken by `(i, j)` ascending — or all pairs with `S_ij >= threshold`.
//! Statistics per head: the histogram of `|i - j|`; the same-sentence fraction (to compare with
//! [`super::input::chance_level`]); the most frequent token (the position that occurs in most
//! high pairs, lowest index on ties) and its share (pairs containing it / pairs); the attention
//! mass on separator tokens, `mean_i sum_{j separator} P_ij`. Per layer: the histograms and
//! same-sentence counts pooled over heads, the separator mass averaged over heads.

use super::config::{Select, SimilarityNorm};
use nalgebra::DMatrix;
use serde::Serialize;

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
            let m = s.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            if m > 0.0 {
                s.iter_mut().for_each(|v| *v /= m);
            }
        }
        SimilarityNorm::Cosine => {
            let len: Vec<f64> = diag.iter().map(|v| v.max(0.0).sqrt()).collect();
            for i in 0..n {
                for j in 0..n {
                    let l = len[i] * len[j];
                    s[i * n + j] = if l > 0.0 { s[i * n + j] / l } else { 0.0 };
                }
            }
        }
    }
}

/// The high-similarity pairs `(i, j)`, `i < j`, of `s` (`n x n`, row-major) and the smallest
/// selected value (NaN when none), following the rule of the module documentation.
pub fn high_pairs(s: &[f64], n: usize, select: Select, quantile: f64, threshold: f64) -> (Vec<(usize, usize)>, f64) {
    let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            pairs.push((s[i * n + j], i, j));
        }
    }
    let order =
        |a: &(f64, usize, usize), b: &(f64, usize, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
    let mut chosen: Vec<(f64, usize, usize)> = match select {
        Select::Threshold => pairs.into_iter().filter(|p| p.0 >= threshold).collect(),
        Select::Quantile => {
            if pairs.is_empty() {
                Vec::new()
            } else {
                let total = pairs.len();
                let m = (((1.0 - quantile) * total as f64) - 1e-9).ceil().clamp(1.0, total as f64) as usize;
                if m < total {
                    pairs.select_nth_unstable_by(m - 1, order);
                    pairs.truncate(m);
                }
                pairs
            }
        }
    };
    chosen.sort_by(order);
    let cutoff = chosen.last().map_or(f64::NAN, |p| p.0);
    (chosen.into_iter().map(|(_, i, j)| (i, j)).collect(), cutoff)
}

/// The statistics of one head (module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadSimilarity {
    /// The head (0-based).
    pub head: usize,
    /// Number of high-similarity pairs.
    pub pairs: usize,
    /// The smallest selected (normalised) `S_ij` (NaN, serialised as null, without pairs).
    pub cutoff: f64,
    /// `histogram[k]` = high pairs with `|i - j| = k` (`n` entries; entry 0 is always 0).
    pub distance_histogram: Vec<u64>,
    /// Mean `|i - j|` over the high pairs (NaN without pairs).
    pub mean_distance: f64,
    /// High pairs within one sentence.
    pub same_sentence_pairs: usize,
    /// Share of high pairs within one sentence (None without pairs).
    pub same_sentence: Option<f64>,
    /// The position occurring in most high pairs (lowest on ties; None without pairs).
    pub top_token: Option<usize>,
    /// High pairs containing `top_token` / high pairs (0 without pairs).
    pub top_token_share: f64,
    /// `mean_i sum_{j separator} P_ij` (None without separators).
    pub separator_mass: Option<f64>,
}

/// The statistics of one layer: its heads and their pooled values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayerSimilarity {
    /// The layer (1-based: layer `l` maps `X_{l-1}` to `X_l`).
    pub layer: usize,
    /// Each head's statistics.
    pub heads: Vec<HeadSimilarity>,
    /// The heads' histograms added.
    pub distance_histogram: Vec<u64>,
    /// Same-sentence share of all the layer's high pairs (None without pairs).
    pub same_sentence: Option<f64>,
    /// The heads' separator masses averaged (None without separators).
    pub separator_mass: Option<f64>,
}

/// Attention mass on separators, `mean_i sum_{j separator} P_ij` (`p` is `n x n` row-major);
/// None when no token is a separator.
pub fn separator_mass(p: &[f64], n: usize, separator: &[bool]) -> Option<f64> {
    if !separator.iter().any(|&s| s) || n == 0 {
        return None;
    }
    let mut total = 0.0;
    for i in 0..n {
        for j in 0..n {
            if separator[j] {
                total += p[i * n + j];
            }
        }
    }
    Some(total / n as f64)
}

/// The statistics of one head from its normalised similarity matrix `s` (`n x n`, row-major),
/// its attention matrix `p` (`n x n`, row-major), each token's sentence and separator mark.
#[allow(clippy::too_many_arguments)]
pub fn head_stats(
    head: usize,
    s: &[f64],
    p: &[f64],
    n: usize,
    sentence: &[usize],
    separator: &[bool],
    select: Select,
    quantile: f64,
    threshold: f64,
) -> HeadSimilarity {
    let (pairs, cutoff) = high_pairs(s, n, select, quantile, threshold);
    let mut histogram = vec![0u64; n];
    let mut token_count = vec![0usize; n];
    let mut same = 0usize;
    let mut distance_sum = 0usize;
    for &(i, j) in &pairs {
        histogram[j - i] += 1;
        distance_sum += j - i;
        token_count[i] += 1;
        token_count[j] += 1;
        if sentence[i] == sentence[j] {
            same += 1;
        }
    }
    let k = pairs.len();
    let top = (k > 0).then(|| {
        let mut best = 0;
        for t in 1..n {
            if token_count[t] > token_count[best] {
                best = t;
            }
        }
        best
    });
    HeadSimilarity {
        head,
        pairs: k,
        cutoff,
        distance_histogram: histogram,
        mean_distance: if k > 0 { distance_sum as f64 / k as f64 } else { f64::NAN },
        same_sentence_pairs: same,
        same_sentence: (k > 0).then(|| same as f64 / k as f64),
        top_token: top,
        top_token_share: top.map_or(0.0, |t| token_count[t] as f64 / k as f64),
        separator_mass: separator_mass(p, n, separator),
    }
}

/// Pools the heads of layer `layer` (1-based).
pub fn layer_stats(layer: usize, heads: Vec<HeadSimilarity>) -> LayerSimilarity {
    let n = heads.first().map_or(0, |h| h.distance_histogram.len());
    let mut histogram = vec![0u64; n];
    for h in &heads {
        for (a, b) in histogram.iter_mut().zip(&h.distance_histogram) {
            *a += b;
        }
    }
    let (same, total) = heads.iter().fold((0, 0), |(s, t), h| (s + h.same_sentence_pairs, t + h.pairs));
    let masses: Vec<f64> = heads.iter().filter_map(|h| h.separator_mass).collect();
    LayerSimilarity {
        layer,
        distance_histogram: histogram,
        same_sentence: (total > 0).then(|| same as f64 / total as f64),
        separator_mass: (!masses.is_empty()).then(|| masses.iter().sum::<f64>() / masses.len() as f64),
        heads,
    }
}
