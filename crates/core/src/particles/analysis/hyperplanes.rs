//! The `hyperplanes` metric (science.md §1.3): how many parallel hyperplanes with normal `psi1`
//! the tokens sit on, as groups of the values `<psi1, z_i>` by single linkage.

/// The values `<psi, x_i>` of the tokens `x` (`n x d`, row-major), each summed over the
/// coordinates in increasing order.
pub fn projections(x: &[f64], n: usize, d: usize, psi: &[f64]) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let mut s = 0.0;
            for c in 0..d {
                s += psi[c] * x[i * d + c];
            }
            s
        })
        .collect()
}

/// The number of groups of `values` by single linkage at `tol_rel` times their range
/// (`max - min`): after sorting, a gap splits two groups when it is at least the tolerance and
/// not 0 (equal values are always one group, as in [`super::clusters::cluster_labels_into`]).
/// `None` when a value is not finite or there is none.
pub fn value_groups(values: &[f64], tol_rel: f64) -> Option<usize> {
    super::settled::value_labels(values, tol_rel).map(|(_, count)| count)
}

/// The `hyperplanes` metric of tokens `x` (`n x d`): [`value_groups`] of `<psi1, x_i>` at
/// `tol_rel` (the configuration's `cluster_tol`). Since `psi1` is a left eigenvector,
/// `<psi1, x_i> = e^(lambda1 t) <psi1, z_i>`: the groups are the same in `x` and `z`.
pub fn hyperplanes(x: &[f64], n: usize, d: usize, psi: &[f64], tol_rel: f64) -> Option<usize> {
    value_groups(&projections(x, n, d, psi), tol_rel)
}

/// The smallest and largest of `values` (`None` when empty or a value is not finite): for the
/// initial `<psi1, z_i(0)>`, the theorem's generic limit values (science.md §1.8, check 5).
pub fn value_range(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    Some(values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v))))
}
