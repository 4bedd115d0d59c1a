//! Statistics of the attention matrix `P` (`n x n`, row-major, row-stochastic).

/// `max_ij |P_ij - round(P_ij)|`: 0 when `P` is Boolean (science.md §1, checks 4-6).
pub fn boolean_distance(p: &[f64], n: usize) -> f64 {
    p[..n * n].iter().fold(0.0f64, |m, &x| m.max((x - x.round()).abs()))
}

/// The leaders: tokens `j` with `max_i P_ij > 1/2`, in increasing order. In the Boolean limit
/// these are the non-zero columns of `round(P)` (science.md §1, the 1-D result).
pub fn leaders(p: &[f64], n: usize) -> Vec<usize> {
    (0..n).filter(|&j| (0..n).any(|i| p[i * n + j] > 0.5)).collect()
}
