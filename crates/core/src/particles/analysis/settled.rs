//! Whether the groups a count counts are settled (science.md §2.4, plateaus): tight compared to
//! their separation. A plateau of the chart is only drawn over settled samples, so a count that
//! stays the same because nothing has gathered (every token alone, or groups smeared into each
//! other) is not shaded as metastable.

/// Largest number of groups whose separation is measured (`k²/2` centre distances); more groups
/// are not settled (a picture of many separate groups is not a plateau of a few clusters).
pub const MAX_GROUPS: usize = 256;

/// Largest [`separation_ratio`] of a settled sample: every group's radius at most a quarter of
/// the distance between the two closest centres, so the balls of twice the radius around the
/// centres do not meet.
pub const SETTLED_RATIO: f64 = 0.25;

/// The separation ratio of points `x` (`n x d`, row-major) in `count` groups (`labels[i]` in
/// `0..count`): the largest group radius (the largest distance from a point to its group's
/// centre, the mean of its points summed in index order) over the smallest distance between two
/// group centres. 0 for one group; infinite when `count` is `n` (no two points gathered) or
/// above [`MAX_GROUPS`], or when two centres coincide; NaN when a coordinate is not finite.
pub fn separation_ratio(x: &[f64], n: usize, d: usize, labels: &[u32], count: usize) -> f64 {
    if x[..n * d].iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    if count <= 1 {
        return 0.0;
    }
    if count >= n || count > MAX_GROUPS {
        return f64::INFINITY;
    }
    let centres = super::clusters::cluster_centres(x, n, d, labels, count, 1);
    let dist = |a: &[f64], b: &[f64]| {
        let mut s = 0.0;
        for c in 0..d {
            let e = a[c] - b[c];
            s += e * e;
        }
        s.sqrt()
    };
    let mut radius = 0.0f64;
    for i in 0..n {
        let g = labels[i] as usize;
        radius = radius.max(dist(&x[i * d..(i + 1) * d], &centres[g * d..(g + 1) * d]));
    }
    let mut closest = f64::INFINITY;
    for a in 0..count {
        for b in a + 1..count {
            closest = closest.min(dist(&centres[a * d..(a + 1) * d], &centres[b * d..(b + 1) * d]));
        }
    }
    if closest == 0.0 {
        return f64::INFINITY;
    }
    radius / closest
}

/// The groups of `values` by single linkage at `tol_rel` times their range: after sorting, a
/// gap splits two groups when it is at least the tolerance and not 0 (what
/// [`super::hyperplanes::value_groups`] counts). Each value's group label (`0..count`, in
/// increasing order of value) and the count; `None` when a value is not finite or there is none.
pub fn value_labels(values: &[f64], tol_rel: f64) -> Option<(Vec<u32>, usize)> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    let tol = tol_rel * (values[order[order.len() - 1]] - values[order[0]]);
    let mut labels = vec![0u32; values.len()];
    let mut group = 0u32;
    for w in 0..order.len() {
        if w > 0 {
            let gap = values[order[w]] - values[order[w - 1]];
            if gap != 0.0 && gap >= tol {
                group += 1;
            }
        }
        labels[order[w]] = group;
    }
    Some((labels, group as usize + 1))
}

/// Whether a sample with separation ratio `ratio` is settled (at most [`SETTLED_RATIO`]; a NaN
/// is not).
pub fn is_settled(ratio: f64) -> bool {
    ratio <= SETTLED_RATIO
}
