//! Context-similarity statistics (science.md §4, Halevi et al.), shared by the depth lab and the
//! model lab: for a head's similarity matrix `S = O O^T` (`n x n`, row-major, diagonal 0; `O` the
//! head's output before `W_O`, tokens as rows) and its attention `P` (`n x n`, row-major), the
//! high-similarity pairs and their statistics.
//!
//! Pairs are unordered (`i < j`). High-similarity pairs are the top `1 - quantile` share of the
//! `n (n - 1) / 2` pairs by `S_ij` — `ceil((1 - quantile) n (n - 1) / 2)` pairs, at least one; ties
//! broken by `(i, j)` ascending — or all pairs with `S_ij >= threshold`. Statistics per head: the
//! histogram of `|i - j|`; the same-sentence fraction (to compare with the chance level); the most
//! frequent token (the position that occurs in most high pairs, lowest index on ties) and its share
//! (pairs containing it / pairs); the attention mass on separator tokens,
//! `mean_i sum_{j separator} P_ij`. Per layer: the histograms and same-sentence counts pooled over
//! heads, the separator mass averaged over heads.

use crate::nan::null;
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// How high-similarity pairs are chosen.
    pub enum Select {
        /// The top `1 - quantile` share of pairs (at least one pair).
        Quantile = "quantile",
        /// Pairs with normalised `S_ij >= threshold`.
        Threshold = "threshold",
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadSimilarity {
    /// The head (0-based).
    pub head: usize,
    /// Number of high-similarity pairs.
    pub pairs: usize,
    /// The smallest selected (normalised) `S_ij` (NaN, serialised as null, without pairs).
    #[serde(deserialize_with = "null::one")]
    pub cutoff: f64,
    /// `histogram[k]` = high pairs with `|i - j| = k` (`n` entries; entry 0 is always 0).
    pub distance_histogram: Vec<u64>,
    /// Mean `|i - j|` over the high pairs (NaN without pairs).
    #[serde(deserialize_with = "null::one")]
    pub mean_distance: f64,
    /// High pairs within one sentence.
    pub same_sentence_pairs: usize,
    /// Share of high pairs within one sentence (None without pairs).
    pub same_sentence: Option<f64>,
    /// The position occurring in most high pairs (lowest on ties; None without pairs).
    pub top_token: Option<usize>,
    /// High pairs containing `top_token` / high pairs (0 without pairs).
    #[serde(deserialize_with = "null::one")]
    pub top_token_share: f64,
    /// `mean_i sum_{j separator} P_ij` (None without separators).
    pub separator_mass: Option<f64>,
}

/// The statistics of one layer: its heads and their pooled values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// The chance level of the same-sentence fraction: the share of ordered pairs `i != j` within
/// one sentence, `sum_s n_s (n_s - 1) / (n (n - 1))` (science.md §4). 0 when `n < 2`.
pub fn chance_level(sentence: &[usize]) -> f64 {
    let n = sentence.len();
    if n < 2 {
        return 0.0;
    }
    let mut counts = vec![0u64; sentence.iter().max().map_or(0, |&m| m + 1)];
    for &s in sentence {
        counts[s] += 1;
    }
    let same: u64 = counts.iter().map(|&k| k * k.saturating_sub(1)).sum();
    same as f64 / (n as f64 * (n as f64 - 1.0))
}
