//! Effective rank of the attention matrix (nalgebra SVD; off the stepping path).

use nalgebra::DMatrix;

/// Largest matrix side used for the SVD; larger `P` are downsampled (every `ceil(n / 256)`-th
/// row and column) so the analyzer stays cheap.
pub const RANK_MAX_SIDE: usize = 256;

/// Effective rank of `P` (`n x n`): `exp(-sum_k p_k ln p_k)` with `p_k = sigma_k / sum sigma`
/// (Roy and Vetterli's effective rank); between 1 and n. For `n > 256` it is computed on the
/// downsampled matrix described at [`RANK_MAX_SIDE`] (an approximation, bounded by 256).
pub fn effective_rank(p: &[f64], n: usize) -> f64 {
    let stride = n.div_ceil(RANK_MAX_SIDE).max(1);
    let m = n.div_ceil(stride);
    let mat = DMatrix::from_fn(m, m, |i, j| p[(i * stride) * n + j * stride]);
    let sv = mat.singular_values();
    let total: f64 = sv.iter().sum();
    if !(total > 0.0) || !total.is_finite() {
        return f64::NAN;
    }
    let h: f64 = sv
        .iter()
        .map(|&s| s / total)
        .filter(|&q| q > 0.0)
        .map(|q| -q * libm::log(q))
        .sum();
    libm::exp(h)
}
