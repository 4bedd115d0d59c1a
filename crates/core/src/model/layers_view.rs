//! Tokens through the layers (science.md §7.5): the hidden states `h_0 … h_L` of one forward
//! (`h_0` the embeddings after their LayerNorm, [`super::Forward::hidden`]) as particles.
//!
//! - One PCA fitted on every layer's tokens stacked (`(L+1) n` rows of `d`, in `f64` from the
//!   `f32` states, centred by the stacked mean): the axes are the covariance's top
//!   [`COMPONENTS`] eigenvectors, each axis's largest-magnitude loading made positive; each
//!   token's coordinates per layer are its centred state projected on them ([`Pca`]).
//! - Per layer: the histogram of the pairwise cosines over `i < j` ([`BINS`] equal bins on
//!   `[-1, 1]`, [`cosine_histogram`]), the clusters and mean cosine of §7.3
//!   ([`super::clusters`]), and §1.7's effective rank of the centred `n x d` token matrix
//!   ([`centred_effective_rank`]).
//!
//! Every sum runs in a fixed order; the eigenvectors come from nalgebra's symmetric solver, as
//! the particle lab's PCA and effective rank (`crate::particles::analysis::{pca, rank}`), off any
//! stepping path. A token whose state has a non-finite entry is left out of the fit and gets NaN
//! coordinates; a layer with such a token has no statistics (`None`: the tokens' cosines are not
//! all defined, and §7.3's rule would read the token as a zero vector).

use super::clusters::{cosines, labels_of, mean_cosine};
use crate::kernels::gram;
use crate::particles::analysis::rank::effective_rank_of_rows;
use nalgebra::{DMatrix, SymmetricEigen};

/// Principal components kept (the page draws 2-D or 3-D).
pub const COMPONENTS: usize = 3;

/// Bins of the cosine histograms on `[-1, 1]`.
pub const BINS: usize = 64;

/// The PCA of the stacked states.
#[derive(Clone, Debug, PartialEq)]
pub struct Pca {
    /// Components `k = min(COMPONENTS, d)`.
    pub k: usize,
    /// The stacked mean of the fitted tokens (`d`).
    pub mean: Vec<f64>,
    /// The axes, `k x d` row-major, unit rows by decreasing variance (NaN when the solver fails).
    pub axes: Vec<f64>,
    /// The variance along each axis (the covariance's eigenvalues, divided by the rows fitted).
    pub variance: Vec<f64>,
    /// The total variance (the covariance's trace).
    pub total_variance: f64,
}

/// One layer's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerStats {
    /// The pairs `i < j` per cosine bin ([`cosine_histogram`]).
    pub histogram: Vec<u64>,
    /// Number of clusters under `cos_tol` (§7.3).
    pub clusters: usize,
    /// Each token's cluster.
    pub labels: Vec<usize>,
    /// The mean cosine over `i < j` (§7.3).
    pub mean_cos: f64,
    /// The effective rank of the centred tokens ([`centred_effective_rank`]).
    pub effective_rank: f64,
}

/// Tokens through the layers: the fitted PCA, each layer's coordinates and statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct LayersView {
    /// The PCA fitted on every layer's tokens.
    pub pca: Pca,
    /// Per layer `0..=L`, the tokens' coordinates, `n x k` row-major.
    pub coords: Vec<Vec<f64>>,
    /// Per layer `0..=L`; `None` for a layer whose state has a non-finite entry.
    pub layers: Vec<Option<LayerStats>>,
}

/// The view of the hidden states `hidden` (each `n x d`, row-major), clusters under `cos_tol`.
pub fn layers_view(hidden: &[Vec<f32>], n: usize, d: usize, cos_tol: f64) -> LayersView {
    let pca = fit(hidden, n, d);
    let coords = hidden.iter().map(|x| pca.project(x, n, d)).collect();
    let layers = hidden.iter().map(|x| layer_stats(x, n, d, cos_tol)).collect();
    LayersView { pca, coords, layers }
}

/// One layer's histogram, clusters, mean cosine and effective rank; `None` when the state
/// (`n x d`) has a non-finite entry.
pub fn layer_stats(x: &[f32], n: usize, d: usize, cos_tol: f64) -> Option<LayerStats> {
    if x[..n * d].iter().any(|v| !v.is_finite()) {
        return None;
    }
    let cos = cosines(x, n, d);
    let labels = labels_of(&cos, n, cos_tol);
    Some(LayerStats {
        histogram: cosine_histogram(&cos, n),
        clusters: labels.iter().max().map_or(0, |m| m + 1),
        labels,
        mean_cos: mean_cosine(&cos, n),
        effective_rank: centred_effective_rank(x, n, d),
    })
}

/// The bin of a cosine `c`: bin `b` holds `-1 + b/32 <= c < -1 + (b+1)/32` (the edges are exact
/// in `f64`; the last bin also holds 1); a value past `±1` (rounding) goes in the end bin. The
/// first guess `floor((c + 1) 32)` is corrected against the edges, as NumPy's `histogram` does.
pub fn cosine_bin(c: f64) -> usize {
    let half = (BINS / 2) as f64;
    let edge = |b: usize| -1.0 + b as f64 / half;
    if c.is_nan() || c <= -1.0 {
        return 0;
    }
    let mut b = (((c + 1.0) * half).floor() as usize).min(BINS - 1);
    if b > 0 && c < edge(b) {
        b -= 1;
    } else if b < BINS - 1 && c >= edge(b + 1) {
        b += 1;
    }
    b
}

/// The histogram of the cosines over `i < j` ([`cosines`], `n x n`): [`BINS`] counts by
/// [`cosine_bin`]. A pair with a zero vector counts as cosine 0 (as in the mean, §7.3); a pair
/// whose cosine is NaN (a non-finite state) is in no bin.
pub fn cosine_histogram(cos: &[Option<f64>], n: usize) -> Vec<u64> {
    let mut h = vec![0u64; BINS];
    for i in 0..n {
        for j in i + 1..n {
            let c = cos[i * n + j].unwrap_or(0.0);
            if !c.is_nan() {
                h[cosine_bin(c)] += 1;
            }
        }
    }
    h
}

/// The effective rank (§1.7, Roy and Vetterli, [`effective_rank_of_rows`]: the singular values
/// from the eigenvalues of the Gram matrix of the smaller side, `n x n` when `n <= d`, else the
/// transpose's `d x d`) of the tokens `x` (`n x d`) centred by their mean (`f64`, each feature's
/// sum in token order, then divided by `n`). NaN when a state is not finite or the centred tokens
/// are all 0.
pub fn centred_effective_rank(x: &[f32], n: usize, d: usize) -> f64 {
    if n == 0 || x[..n * d].iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    let mean = column_mean(x[..n * d].chunks(d), d);
    let centred: Vec<f64> = x[..n * d].iter().enumerate().map(|(e, &v)| v as f64 - mean[e % d]).collect();
    if d < n {
        // The same singular values from the smaller Gram matrix (`d x d`, of the transpose).
        let t: Vec<f64> = (0..d).flat_map(|c| (0..n).map(move |i| (i, c))).map(|(i, c)| centred[i * d + c]).collect();
        return effective_rank_of_rows(&t, n);
    }
    effective_rank_of_rows(&centred, d)
}

/// The mean of the rows `rows` of `x` (`_ x d`): each feature summed in row order, then divided.
fn column_mean<'a>(rows: impl Iterator<Item = &'a [f32]>, d: usize) -> Vec<f64> {
    let mut mean = vec![0.0; d];
    let mut count = 0usize;
    for row in rows {
        for (m, &v) in mean.iter_mut().zip(row) {
            *m += v as f64;
        }
        count += 1;
    }
    mean.iter_mut().for_each(|m| *m /= count as f64);
    mean
}

/// Fits the PCA on the stacked states (module documentation): the tokens whose state is finite,
/// their mean, the covariance `C_ab = Σ_r x_ra x_rb / N` of the centred rows (each entry summed
/// in row order), its eigenvectors by decreasing eigenvalue.
pub fn fit(hidden: &[Vec<f32>], n: usize, d: usize) -> Pca {
    let k = COMPONENTS.min(d);
    let rows = || hidden.iter().flat_map(move |x| x[..n * d].chunks(d)).filter(|row| row.iter().all(|v| v.is_finite()));
    let m = rows().count();
    if m == 0 {
        let nan = |len| vec![f64::NAN; len];
        return Pca { k, mean: nan(d), axes: nan(k * d), variance: nan(k), total_variance: f64::NAN };
    }
    let mean = column_mean(rows(), d);
    let count = m as f64;
    // The centred fitted rows (`N x d`); the covariance is their columns' Gram matrix, each
    // entry summed in row order (the plain loop's bits, [`gram`]), divided by `N`.
    let centred: Vec<f64> = rows().flat_map(|row| row.iter().zip(&mean).map(|(&v, mu)| v as f64 - mu)).collect();
    let g = gram(d, m, |a, r| centred[r * d + a]);
    let cov = DMatrix::from_fn(d, d, |a, b| g[a * d + b] / count);
    let total_variance = (0..d).fold(0.0, |s, a| s + cov[(a, a)]);
    let mut axes = vec![f64::NAN; k * d];
    let mut variance = vec![f64::NAN; k];
    if let Some(eig) = SymmetricEigen::try_new(cov, f64::EPSILON, 10_000) {
        let mut order: Vec<usize> = (0..d).collect();
        // Decreasing eigenvalue; equal ones keep the solver's order (a stable sort).
        order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
        for (r, &col) in order.iter().take(k).enumerate() {
            let v = eig.eigenvectors.column(col);
            // The first entry of the largest magnitude decides the sign.
            let sign = crate::particles::analysis::pca::sign_of_largest(v.iter().copied());
            for c in 0..d {
                axes[r * d + c] = sign * v[c];
            }
            variance[r] = eig.eigenvalues[col];
        }
    }
    Pca { k, mean, axes, variance, total_variance }
}

impl Pca {
    /// The coordinates of the tokens `x` (`n x d`): `<axis_a, x_i − mean>` (`n x k` row-major), in
    /// `f64` from the `f32` state, each sum over the features in increasing order; NaN for a
    /// token with a non-finite entry.
    pub fn project(&self, x: &[f32], n: usize, d: usize) -> Vec<f64> {
        let mut out = vec![f64::NAN; n * self.k];
        for (i, row) in x.chunks(d).take(n).enumerate() {
            if row.iter().any(|v| !v.is_finite()) {
                continue;
            }
            let centred: Vec<f64> = row.iter().zip(&self.mean).map(|(&v, m)| v as f64 - m).collect();
            for (a, axis) in self.axes.chunks(d).enumerate() {
                out[i * self.k + a] = axis.iter().zip(&centred).fold(0.0, |s, (p, q)| s + p * q);
            }
        }
        out
    }
}
