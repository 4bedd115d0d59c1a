//! Clusters of real tokens (science.md §7): two tokens are linked when `1 − cos(x_i, x_j) <=
//! cos_tol`, the cosine computed in `f64` from the `f32` states (a zero vector is linked to none:
//! its own cluster); clusters are the connected components (single linkage), numbered 0, 1, … in
//! the order of their first token. Tokens are 0-based and include `[CLS]` and `[SEP]`.

use crate::kernels::gram;

/// The default `cos_tol` (the model lab's key).
pub const COS_TOL: f64 = 0.01;

/// The `n x n` cosines of the rows of `x` (`n x d`, row-major; `f32` states, or the `f64` ones of
/// a head's particles) in `f64`: `x_i·x_j / (|x_i| |x_j|)`, each dot product summed over the
/// features in increasing order from 0 (the rows' Gram matrix, [`gram`]); `None` for a pair with
/// a zero vector (the diagonal included).
pub fn cosines<T: Copy + Into<f64>>(x: &[T], n: usize, d: usize) -> Vec<Option<f64>> {
    let dots = gram(n, d, |i, c| x[i * d + c].into());
    let norms: Vec<f64> = (0..n).map(|i| dots[i * n + i].sqrt()).collect();
    let mut out = vec![None; n * n];
    for i in 0..n {
        for j in i..n {
            if norms[i] > 0.0 && norms[j] > 0.0 {
                let c = dots[i * n + j] / (norms[i] * norms[j]);
                out[i * n + j] = Some(c);
                out[j * n + i] = Some(c);
            }
        }
    }
    out
}

/// The cluster of each token under `cos_tol` (module documentation).
pub fn cosine_clusters(x: &[f32], n: usize, d: usize, cos_tol: f64) -> Vec<usize> {
    labels_of(&cosines(x, n, d), n, cos_tol)
}

/// The labels of single linkage on `1 − cos <= cos_tol` over the cosines [`cosines`] gives.
pub fn labels_of(cos: &[Option<f64>], n: usize, cos_tol: f64) -> Vec<usize> {
    let mut labels = vec![usize::MAX; n];
    let mut next = 0;
    let mut stack = Vec::new();
    for first in 0..n {
        if labels[first] != usize::MAX {
            continue;
        }
        labels[first] = next;
        stack.push(first);
        while let Some(i) = stack.pop() {
            for j in 0..n {
                let linked = cos[i * n + j].is_some_and(|c| 1.0 - c <= cos_tol);
                if labels[j] == usize::MAX && linked {
                    labels[j] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    labels
}

/// The mean of `cos(x_i, x_j)` over `i < j` in `f64`, summed in the order `(0,1), (0,2), …,
/// (1,2), …`; a pair with a zero vector counts as 0; 1 for fewer than two tokens.
pub fn mean_cosine(cos: &[Option<f64>], n: usize) -> f64 {
    if n < 2 {
        return 1.0;
    }
    let mut sum = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            sum += cos[i * n + j].unwrap_or(0.0);
        }
    }
    sum / (n * (n - 1) / 2) as f64
}
