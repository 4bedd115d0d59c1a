//! Rank collapse (science.md §3): the composite norm, the residual `res(X) = X - 1 x^T` and its
//! relative size, and the singular values of `X`.
//!
//! All functions take `X` as `n x d` row-major `f64` (tokens as rows) and accumulate in `f64`.
//!
//! `||X||_1` is the largest column abs-sum, `||X||_inf` the largest row abs-sum (tokens are rows),
//! `||X||_{1,inf} = sqrt(||X||_1 ||X||_inf)`. The residual's centre `x` is the mean of the tokens
//! (the published figure; [`relative_residual`]) or the minimiser of `||X - 1 x^T||_{1,inf}` (the
//! paper's definition; [`argmin_residual`]). The norms and the mean-centred residual are
//! [`crate::collapse::residual`]'s (shared with the model lab), re-exported here.

use super::config::ResidualDef;
use nalgebra::DMatrix;

pub use crate::collapse::residual::{
    composite_norm, norm_1, norm_inf, relative_residual, relative_residual_about, residual, token_mean,
};

/// The result of [`argmin_residual`].
#[derive(Clone, Debug, PartialEq)]
pub struct ArgminResidual {
    /// The centre `x` found (`d` entries).
    pub center: Vec<f64>,
    /// `||X - 1 x^T||_{1,inf}`.
    pub norm: f64,
    /// `||X - 1 x^T||_{1,inf} / ||X||_{1,inf}` (0 when `X = 0`).
    pub relative: f64,
    /// Coordinate sweeps made.
    pub sweeps: usize,
}

/// Largest number of coordinate sweeps of [`argmin_residual`].
pub const ARGMIN_MAX_SWEEPS: usize = 50;

/// The paper's residual: `x` minimising `g(x) = ||X - 1 x^T||_{1,inf}`.
///
/// How it is computed. `g^2 = f_1(x) f_inf(x)` with `f_1 = max_c sum_i |X_ic - x_c|` and
/// `f_inf = max_i sum_c |X_ic - x_c|`, both convex and piecewise linear. The search starts from
/// the better of the mean and the coordinate-wise median (the median minimises `f_1`), then makes
/// coordinate-descent sweeps: each coordinate `x_c` moves to the exact minimiser of `g` along that
/// coordinate. Along one coordinate both factors are piecewise linear and non-negative, and a
/// product of two non-negative linear functions on an interval is smallest at an end, so the
/// minimum lies at a kink: a value `X_ic`, the point where the two branches of `f_inf` cross
/// between consecutive values, or where the column sum crosses the largest other column sum; all
/// are tried (`O(n log n)` per coordinate). Sweeps stop when one improves `g^2` by less than a
/// relative 1e-12, or after [`ARGMIN_MAX_SWEEPS`]. Coordinate descent on a non-smooth function can
/// stop short of the global minimum, so the value is an upper bound on the true minimum, and
/// never above the mean's (or the median's) value.
pub fn argmin_residual(x: &[f64], n: usize, d: usize) -> ArgminResidual {
    let total = composite_norm(x, n, d);
    if n == 0 || d == 0 {
        return ArgminResidual { center: vec![0.0; d], norm: 0.0, relative: 0.0, sweeps: 0 };
    }
    let mean = token_mean(x, n, d);
    let median: Vec<f64> = (0..d)
        .map(|c| {
            let mut col: Vec<f64> = (0..n).map(|i| x[i * d + c]).collect();
            col.sort_by(f64::total_cmp);
            if n % 2 == 1 {
                col[n / 2]
            } else {
                0.5 * (col[n / 2 - 1] + col[n / 2])
            }
        })
        .collect();
    let g2 = |c: &[f64]| {
        let r = residual(x, n, d, c);
        norm_1(&r, n, d) * norm_inf(&r, n, d)
    };
    let (mut center, mut best) = {
        let (a, b) = (g2(&mean), g2(&median));
        if b < a {
            (median, b)
        } else {
            (mean, a)
        }
    };
    let mut sweeps = 0;
    let mut vals: Vec<(f64, f64)> = Vec::with_capacity(n);
    while sweeps < ARGMIN_MAX_SWEEPS && best > 0.0 && best.is_finite() {
        sweeps += 1;
        let start = best;
        let start_center = center.clone();
        // Column sums A_c and row sums B_i of |X - 1 x^T|, recomputed each sweep (no drift).
        let mut col_sums = vec![0.0f64; d];
        let mut row_sums = vec![0.0f64; n];
        for i in 0..n {
            for c in 0..d {
                let a = (x[i * d + c] - center[c]).abs();
                col_sums[c] += a;
                row_sums[i] += a;
            }
        }
        for c in 0..d {
            let other_max = col_sums.iter().enumerate().filter(|(k, _)| *k != c).fold(0.0f64, |m, (_, &v)| m.max(v));
            vals.clear();
            for i in 0..n {
                let v = x[i * d + c];
                vals.push((v, row_sums[i] - (v - center[c]).abs()));
            }
            vals.sort_by(|a, b| a.0.total_cmp(&b.0));
            let current = col_sums[c].max(other_max) * row_sums.iter().fold(0.0f64, |m, &v| m.max(v));
            let Some((t, value)) = best_along(&vals, other_max) else { continue };
            if value < current * (1.0 - 1e-15) {
                for i in 0..n {
                    let v = x[i * d + c];
                    row_sums[i] += (v - t).abs() - (v - center[c]).abs();
                }
                col_sums[c] = (0..n).map(|i| (x[i * d + c] - t).abs()).sum();
                center[c] = t;
            }
        }
        // The exact value of the sweep's end point (no drift from the running sums).
        let value = g2(&center);
        if value > start || !value.is_finite() {
            center = start_center;
            break;
        }
        best = value;
        if value >= start * (1.0 - 1e-12) {
            break;
        }
    }
    let norm = best.sqrt();
    ArgminResidual { center, norm, relative: if total == 0.0 { 0.0 } else { norm / total }, sweeps }
}

/// The minimiser over `t` of `max(m1, sum_i |v_i - t|) * max_i (r_i + |v_i - t|)` for the sorted
/// pairs `(v_i, r_i)`: the best of the kinks described at [`argmin_residual`].
fn best_along(vals: &[(f64, f64)], m1: f64) -> Option<(f64, f64)> {
    let n = vals.len();
    if n == 0 {
        return None;
    }
    // prefix[k] = sum of v over the first k; left[k] = max over the first k of (r - v);
    // right[k] = max over i >= k of (r + v).
    let mut prefix = vec![0.0; n + 1];
    let mut left = vec![f64::NEG_INFINITY; n + 1];
    for k in 0..n {
        prefix[k + 1] = prefix[k] + vals[k].0;
        left[k + 1] = left[k].max(vals[k].1 - vals[k].0);
    }
    let mut right = vec![f64::NEG_INFINITY; n + 1];
    for k in (0..n).rev() {
        right[k] = right[k + 1].max(vals[k].1 + vals[k].0);
    }
    let total = prefix[n];
    // On [v_(k-1), v_(k)] (k points at or below t): sum |v - t| = k t - prefix[k] + (total - prefix[k]) - (n - k) t.
    let eval = |k: usize, t: f64| {
        let a = (2.0 * k as f64 - n as f64) * t + total - 2.0 * prefix[k];
        let f1 = a.max(m1);
        let finf = (left[k] + t).max(right[k] - t);
        f1 * finf
    };
    let mut best_t = vals[0].0;
    let mut best = eval(1, best_t);
    for k in 1..=n {
        // Interval [vals[k-1].0, vals[k].0] with k values at or below t.
        let lo = vals[k - 1].0;
        let hi = if k < n { vals[k].0 } else { lo };
        let mut try_t = |t: f64| {
            if t >= lo && t <= hi {
                let g = eval(k, t);
                if g < best {
                    best = g;
                    best_t = t;
                }
            }
        };
        try_t(lo);
        try_t(hi);
        if k < n && hi > lo {
            try_t(0.5 * (right[k] - left[k]));
            let slope = 2.0 * k as f64 - n as f64;
            if slope != 0.0 {
                try_t((m1 - total + 2.0 * prefix[k]) / slope);
            }
        }
    }
    Some((best_t, best))
}

/// The relative residual with centre `def` (mean or argmin).
pub fn relative_residual_with(def: ResidualDef, x: &[f64], n: usize, d: usize) -> f64 {
    match def {
        ResidualDef::Mean => relative_residual(x, n, d),
        ResidualDef::Argmin => argmin_residual(x, n, d).relative,
    }
}

/// The singular values of `X` (`min(n, d)` of them, largest first; Householder QR and one-sided
/// Jacobi in `f64`, [`super::svd`], which resolve values down to about 1e-16 of the largest, with
/// the same bits on every target). NaN entries give NaN values.
pub fn singular_values(x: &[f64], n: usize, d: usize) -> Vec<f64> {
    if n == 0 || d == 0 {
        return Vec::new();
    }
    if !x[..n * d].iter().all(|v| v.is_finite()) {
        return vec![f64::NAN; n.min(d)];
    }
    // The row-major X is X^T column-major (d x n); X is n x d column-major after a transpose.
    if d >= n {
        super::svd::singular_values_tall(&x[..n * d], d, n)
    } else {
        let mut t = vec![0.0; n * d];
        for i in 0..n {
            for j in 0..d {
                t[j * n + i] = x[i * d + j];
            }
        }
        super::svd::singular_values_tall(&t, n, d)
    }
}

/// The singular values of `X` from the eigenvalues of its smaller Gram matrix (`X X^T` or
/// `X^T X`, formed and diagonalised in `f64`), largest first: several times faster than
/// [`singular_values`], accurate to about 1e-8 of the largest value (smaller values are round-off;
/// negative eigenvalues count as 0). Used for `precision=f32` runs, whose `X` carries only about
/// 1e-7 relative precision anyway.
pub fn singular_values_gram(x: &[f64], n: usize, d: usize) -> Vec<f64> {
    if n == 0 || d == 0 {
        return Vec::new();
    }
    if !x[..n * d].iter().all(|v| v.is_finite()) {
        return vec![f64::NAN; n.min(d)];
    }
    // m is d x n (column-major view of the row-major X): m^T m = X X^T, m m^T = X^T X.
    let m = DMatrix::from_column_slice(d, n, &x[..n * d]);
    let g = if n <= d { super::products::gram_columns(&m) } else { super::products::gram(&m) };
    let mut sv: Vec<f64> = g.symmetric_eigenvalues().iter().map(|&e| e.max(0.0).sqrt()).collect();
    sv.sort_by(|a, b| b.total_cmp(a));
    sv
}
