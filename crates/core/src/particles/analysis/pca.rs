//! Principal axes for projecting tokens with d > 3 onto a screen (nalgebra; off the stepping path).

use nalgebra::{DMatrix, SymmetricEigen};

/// The `k` principal axes of the tokens `x` (`n x d`): a `k x d` row-major matrix of unit rows,
/// by decreasing variance. Signs are fixed (each axis's largest-magnitude component is positive)
/// so the picture does not flip between resets. When `d <= k` the first `k` coordinate axes
/// (padded with zero rows) are returned.
pub fn pca_axes(x: &[f64], n: usize, d: usize, k: usize) -> Vec<f64> {
    let mut axes = vec![0.0; k * d];
    if d <= k || n < 2 {
        for i in 0..k.min(d) {
            axes[i * d + i] = 1.0;
        }
        return axes;
    }
    let mut mean = vec![0.0; d];
    for i in 0..n {
        for c in 0..d {
            mean[c] += x[i * d + c] / n as f64;
        }
    }
    let cov = DMatrix::from_fn(d, d, |a, b| {
        (0..n).map(|i| (x[i * d + a] - mean[a]) * (x[i * d + b] - mean[b])).sum::<f64>() / n as f64
    });
    let eig = SymmetricEigen::new(cov);
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].partial_cmp(&eig.eigenvalues[a]).unwrap_or(std::cmp::Ordering::Equal));
    for (r, &col) in order.iter().take(k).enumerate() {
        let v = eig.eigenvectors.column(col);
        let big = v.iter().fold(0.0f64, |m, &a| if a.abs() > m.abs() { a } else { m });
        let sign = if big < 0.0 { -1.0 } else { 1.0 };
        for c in 0..d {
            axes[r * d + c] = sign * v[c];
        }
    }
    axes
}
