//! The interaction energy of tokens on the sphere.

use crate::exp::exp;

/// `E_beta = 1/(2 beta n^2) sum_ij exp(beta <x_i, x_j>)` (science.md §2), for unit tokens `x`
/// (`n x d`). Both SA and USA increase it when `Q = K = V = I`; its maximum `e^beta / (2 beta)`
/// is reached by one cluster.
pub fn interaction_energy(x: &[f64], n: usize, d: usize, beta: f64) -> f64 {
    let mut total = 0.0;
    for i in 0..n {
        let xi = &x[i * d..(i + 1) * d];
        for j in 0..n {
            let xj = &x[j * d..(j + 1) * d];
            let mut dot = 0.0;
            for c in 0..d {
                dot += xi[c] * xj[c];
            }
            total += exp(beta * dot);
        }
    }
    total / (2.0 * beta * (n * n) as f64)
}
