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
        let sign = sign_of_largest(v.iter().copied());
        for c in 0..d {
            axes[r * d + c] = sign * v[c];
        }
    }
    axes
}

/// The sign that makes an axis's loading of largest magnitude positive (the first such entry
/// when several tie): `-1.0` when it is negative, else `1.0`. Fixes each principal axis's sign.
pub fn sign_of_largest(v: impl IntoIterator<Item = f64>) -> f64 {
    let big = v.into_iter().fold(0.0f64, |m, a| if a.abs() > m.abs() { a } else { m });
    if big < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// The tokens (`n x d`, row-major) projected on `k` axes (`k x d`, row-major):
/// `out[i * k + a] = <axes_a, token_i>` (`n x k`, row-major), each sum over coordinates in
/// increasing order. The token canvas draws these for `d > 3`. Errors when `axes` is not `k x d`.
pub fn project(tokens: &[f64], n: usize, d: usize, axes: &[f64], k: usize) -> Result<Vec<f64>, String> {
    if k == 0 || axes.len() != k * d {
        return Err(format!("axes must be k x d = {} x {} numbers, got {}", k, d, axes.len()));
    }
    let mut out = vec![0.0; n * k];
    for (i, row) in tokens.chunks(d).take(n).enumerate() {
        for (a, ax) in axes.chunks(d).enumerate() {
            let mut acc = 0.0;
            for (x, y) in ax.iter().zip(row) {
                acc += x * y;
            }
            out[i * k + a] = acc;
        }
    }
    Ok(out)
}

/// The `k` axes a view projects on: the principal axes ([`pca_axes`]) of finite tokens, else the
/// first `k` coordinate axes (`k x d`, row-major).
pub fn view_axes(tokens: &[f64], n: usize, d: usize, k: usize) -> Vec<f64> {
    if tokens.iter().all(|x| x.is_finite()) {
        pca_axes(tokens, n, d, k)
    } else {
        let mut a = vec![0.0; k * d];
        for i in 0..k.min(d) {
            a[i * d + i] = 1.0;
        }
        a
    }
}
