//! What the model lab measures on a forward pass (science.md §6, with §3's residual and §4's
//! statistics, [`crate::collapse`]): the residual curve of a variant, a head's context-similarity
//! matrix `S = O_h O_h^T` and the statistics of every head on the text.

use super::forward::Forward;
use super::tokenizer::Encoding;
use crate::collapse::residual::relative_residual;
use crate::collapse::similarity::{chance_level, head_stats, layer_stats, LayerSimilarity, Select};
use crate::kernels::{pack_keys, pack_queries, scores_block, KeyPanels};

/// The share of a head's pairs counted as high-similarity pairs: the top 2% (`quantile` 0.98,
/// the depth lab's setting for a text, preset `context-text`; at least one pair).
pub const QUANTILE: f64 = 0.98;

/// The relative residual `||X_l - 1 mean^T||_{1,inf} / ||X_l||_{1,inf}` of every hidden state
/// `l = 0..=L` (`residual_def=mean`), in `f64` from the `f32` states (science.md §3.3).
pub fn residual_curve(f: &Forward) -> Vec<f64> {
    f.hidden
        .iter()
        .map(|x| {
            let wide: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            relative_residual(&wide, f.n, f.d)
        })
        .collect()
}

/// The context-similarity matrix of a head's output `o` (`n x d_head`, row-major):
/// `S = O O^T` (`n x n`, row-major) with the diagonal set to exactly 0, raw (science.md §4.1).
/// `S` is exactly symmetric: `s_ij` and `s_ji` add the same products in the same order.
pub fn similarity(o: &[f32], n: usize, d_head: usize) -> Vec<f32> {
    let (mut qp, mut kp) = (Vec::new(), KeyPanels::default());
    pack_queries(n, d_head, |i, k| o[i * d_head + k], &mut qp);
    pack_keys(n, d_head, |j, k| o[j * d_head + k], &mut kp);
    let mut s = vec![0.0f32; n * n];
    scores_block(&qp, n, &kp, &mut s);
    for i in 0..n {
        s[i * n + i] = 0.0;
    }
    s
}

/// The statistics of every head of every layer of `f` (none when it did not keep its heads) on
/// the text of `enc` (science.md §4.2): high-similarity pairs (the top `1 - quantile` of each
/// head's raw `S`), their `|i - j|` histogram, same-sentence share, most frequent token, and the
/// attention mass on separators (`[CLS]`, `[SEP]`, `.`, `,`).
pub fn statistics(f: &Forward, enc: &Encoding, quantile: f64) -> Vec<LayerSimilarity> {
    let n = f.n;
    (1..=f.attention.len())
        .map(|l| {
            let heads = (0..f.heads)
                .map(|h| {
                    let o = f.head_output(l, h).expect("kept heads");
                    let s: Vec<f64> = similarity(o, n, f.d_head).iter().map(|&v| v as f64).collect();
                    let p: Vec<f64> = f.attention(l, h).expect("kept heads").iter().map(|&v| v as f64).collect();
                    head_stats(h, &s, &p, n, &enc.sentence, &enc.separator, Select::Quantile, quantile, 0.0)
                })
                .collect();
            layer_stats(l, heads)
        })
        .collect()
}

/// The same-sentence share of pairs expected by chance for the text of `enc` (science.md §4.2).
pub fn chance(enc: &Encoding) -> f64 {
    chance_level(&enc.sentence)
}
