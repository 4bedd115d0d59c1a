//! Effective rank of the attention matrix (nalgebra; off the stepping path).

use nalgebra::{DMatrix, SymmetricEigen};

/// Largest number of rows of `P` used; above it the rows `floor(k n / 256)`, k = 0..256, are
/// used with all columns, so the cost stays O(256^2 n) and no leader column is dropped.
pub const RANK_MAX_ROWS: usize = 256;

/// Rows of the Gram matrix computed together (see [`effective_rank_of_rows`]): 16 rows of
/// n = 4096 are 512 kB, which stay in a core's second-level cache.
const GRAM_BLOCK: usize = 16;

/// Effective rank of `P` (`n x n`): `exp(-sum_k p_k ln p_k)` with `p_k = sigma_k / sum sigma`
/// (Roy and Vetterli's effective rank); between 1 and n.
///
/// The singular values are the square roots of the eigenvalues of the Gram matrix `B B^T`,
/// where `B` is `P` (n <= 256) or the row sample described at [`RANK_MAX_ROWS`]. Sampling rows
/// scales the Gram matrix roughly uniformly, which the normalisation cancels, so the estimate
/// stays close for the structured P of these dynamics (e.g. a Boolean P with k leaders gives k
/// at any n). Returns NaN when P is not finite or the eigen-solver does not converge (never
/// panics and never loops forever).
pub fn effective_rank(p: &[f64], n: usize) -> f64 {
    if n == 0 || p.len() < n * n || p[..n * n].iter().any(|x| !x.is_finite()) {
        return f64::NAN;
    }
    let rows: Vec<f64> = sample_rows(n).iter().flat_map(|&r| p[r * n..(r + 1) * n].iter().copied()).collect();
    effective_rank_of_rows(&rows, n)
}

/// The rows of `P` the effective rank uses: `floor(k n / m)`, `k = 0..m`, `m = min(n, 256)`
/// (strictly increasing).
pub fn sample_rows(n: usize) -> Vec<usize> {
    let m = n.min(RANK_MAX_ROWS);
    (0..m).map(|k| k * n / m).collect()
}

/// [`effective_rank`] from the sampled rows alone (`m x n`, the rows of [`sample_rows`] in
/// order, all finite): what a streamed pass over `P` keeps.
pub fn effective_rank_of_rows(rows: &[f64], n: usize) -> f64 {
    if n == 0 || rows.is_empty() {
        return f64::NAN;
    }
    let m = rows.len() / n;
    // The Gram matrix, each entry once (it is symmetric), each dot product in the core's fixed
    // lane order (vectorised; the same bits natively and in wasm). The rows come in blocks of
    // GRAM_BLOCK: each row b is read once per block and meets the block's rows while it is in the
    // cache (m = 256 rows of n = 4096 are 8 MB; row by row every pair reloaded both rows): the
    // whole effective rank at m = 256, n = 4096 took 55-56 ms natively row by row, 36-37 ms in
    // blocks (3 interleaved rounds, 2026-12-03). Only the order in which the entries are computed
    // changes, never an entry's own arithmetic (tests/analysis.rs pins the bits).
    let mut gram = DMatrix::zeros(m, m);
    for a0 in (0..m).step_by(GRAM_BLOCK) {
        let a1 = (a0 + GRAM_BLOCK).min(m);
        for b in a0..m {
            let rb = &rows[b * n..(b + 1) * n];
            for a in a0..a1.min(b + 1) {
                let v = crate::particles::field::rows::weighted_sum(&rows[a * n..(a + 1) * n], rb, n);
                gram[(a, b)] = v;
                gram[(b, a)] = v;
            }
        }
    }
    let Some(eig) = SymmetricEigen::try_new(gram, f64::EPSILON, 10_000) else {
        return f64::NAN;
    };
    // Eigenvalues below the solver's resolution (m eps lambda_max) are zero: their square roots
    // would otherwise turn round-off into spurious singular values.
    let lmax = crate::nan::max_of(0.0, eig.eigenvalues.iter().copied());
    let floor = lmax * m as f64 * f64::EPSILON;
    let sv: Vec<f64> = eig.eigenvalues.iter().map(|&l| if l > floor { l.sqrt() } else { 0.0 }).collect();
    let total: f64 = sv.iter().sum();
    #[allow(clippy::neg_cmp_op_on_partial_ord, reason = "a NaN total must take this branch too")]
    if !(total > 0.0) || !total.is_finite() {
        return f64::NAN;
    }
    let h: f64 = sv.iter().map(|&s| s / total).filter(|&q| q > 0.0).map(|q| -q * libm::log(q)).sum();
    libm::exp(h)
}
