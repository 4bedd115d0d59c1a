//! The residual of rank collapse (science.md §3): the composite norm `||X||_{1,inf}`, the
//! residual `res(X) = X - 1 x^T` about a centre and its relative size with the mean as centre
//! (`residual_def=mean`). Shared by the depth lab (random weights) and the model lab (a pretrained
//! encoder).
//!
//! All functions take `X` as `n x d` row-major `f64` (tokens as rows) and accumulate in `f64`.
//! `||X||_1` is the largest column abs-sum, `||X||_inf` the largest row abs-sum (tokens are rows),
//! `||X||_{1,inf} = sqrt(||X||_1 ||X||_inf)`.

/// `||X||_1`: the largest column abs-sum (NaN when an entry is NaN: [`crate::nan`]).
pub fn norm_1(x: &[f64], n: usize, d: usize) -> f64 {
    let mut cols = vec![0.0f64; d];
    for row in x.chunks(d.max(1)).take(n) {
        for (s, v) in cols.iter_mut().zip(row) {
            *s += v.abs();
        }
    }
    crate::nan::max_of(0.0, cols)
}

/// `||X||_inf`: the largest row abs-sum (NaN when an entry is NaN).
pub fn norm_inf(x: &[f64], n: usize, d: usize) -> f64 {
    crate::nan::max_of(0.0, x.chunks(d.max(1)).take(n).map(|row| row.iter().map(|v| v.abs()).sum::<f64>()))
}

/// The composite norm `||X||_{1,inf} = sqrt(||X||_1 ||X||_inf)` (science.md §3).
/// `[[1,2,3],[4,5,6]]` gives `sqrt(9 * 15) = 11.619`.
pub fn composite_norm(x: &[f64], n: usize, d: usize) -> f64 {
    (norm_1(x, n, d) * norm_inf(x, n, d)).sqrt()
}

/// The mean of the tokens (`d` entries).
pub fn token_mean(x: &[f64], n: usize, d: usize) -> Vec<f64> {
    let mut m = vec![0.0; d];
    for row in x.chunks(d.max(1)).take(n) {
        for (s, v) in m.iter_mut().zip(row) {
            *s += v;
        }
    }
    m.iter_mut().for_each(|s| *s /= n.max(1) as f64);
    m
}

/// `X - 1 c^T` (`n x d`, row-major).
pub fn residual(x: &[f64], n: usize, d: usize, c: &[f64]) -> Vec<f64> {
    let mut r = x[..n * d].to_vec();
    for row in r.chunks_mut(d.max(1)) {
        for (v, ci) in row.iter_mut().zip(c) {
            *v -= ci;
        }
    }
    r
}

/// `||X - 1 c^T||_{1,inf} / ||X||_{1,inf}` for a given centre `c`; 0 when `X = 0`; NaN when an
/// entry of `X` is not finite (`inf / inf` or a NaN norm), never a number.
pub fn relative_residual_about(x: &[f64], n: usize, d: usize, c: &[f64]) -> f64 {
    let norm = composite_norm(x, n, d);
    if norm == 0.0 {
        return 0.0;
    }
    composite_norm(&residual(x, n, d, c), n, d) / norm
}

/// The relative residual with the mean as centre, `||X - 1 mean^T||_{1,inf} / ||X||_{1,inf}`:
/// the quantity plotted against depth (science.md §3). `[[1,2,3],[4,5,6]]` gives 0.3162.
pub fn relative_residual(x: &[f64], n: usize, d: usize) -> f64 {
    relative_residual_about(x, n, d, &token_mean(x, n, d))
}
