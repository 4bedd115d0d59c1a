//! Clusters by single linkage.

/// The spread of a token set: the largest coordinate range, `max_c (max_i x_ic - min_i x_ic)`
/// (NaN when a coordinate is NaN: [`crate::nan`]).
pub fn spread(x: &[f64], n: usize, d: usize) -> f64 {
    let mut best = 0.0f64;
    for c in 0..d {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for i in 0..n {
            let v = x[i * d + c];
            lo = crate::nan::min(lo, v);
            hi = crate::nan::max(hi, v);
        }
        if hi - lo > best || (hi - lo).is_nan() {
            best = hi - lo;
        }
    }
    best
}

/// Single-linkage clusters of the tokens `x` (`n x d`) relative to their own spread: tokens
/// closer than `tol_rel * spread(x)` are linked. See [`cluster_labels_into`].
pub fn cluster_labels(x: &[f64], n: usize, d: usize, tol_rel: f64) -> (usize, Vec<u32>) {
    let mut labels = vec![0u32; n];
    let tol = tol_rel * spread(x, n, d);
    let count = cluster_labels_into(x, n, d, tol, &mut labels, &mut vec![0usize; n]);
    (count, labels)
}

/// Single-linkage clusters: tokens closer than `tol` (Euclidean distance, same units as `x`)
/// or exactly equal are linked; clusters are the connected groups. Writes labels `0..count`
/// (in order of first appearance) into `labels`, uses `parent` (`n`) as scratch, and returns
/// the count.
///
/// The pairs are tested in a sweep over the tokens sorted by their first coordinate: from each
/// token, the later ones until the first whose squared first-coordinate difference alone is at
/// least `tol²` (and not 0). A pair's squared distance, summed over the coordinates in
/// increasing order, is never below its first term (each term is non-negative and rounding is
/// monotone), and that term only grows along the sweep, so every pair skipped is one the plain
/// test over all pairs finds unlinked: the same links, so the same groups and labels (which
/// depend on the groups only). Pairs with a NaN are never linked (every comparison is false).
/// Cost O(n log n) plus the pairs within `tol` in the first coordinate: O(n^2 d) at worst (all
/// tokens within `tol` there), a few percent of it for spread tokens.
pub fn cluster_labels_into(x: &[f64], n: usize, d: usize, tol: f64, labels: &mut [u32], parent: &mut [usize]) -> usize {
    let tol2 = tol * tol;
    for (i, p) in parent.iter_mut().enumerate().take(n) {
        *p = i;
    }
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    if d > 0 {
        // Tokens by first coordinate (ties and NaNs in a fixed order: IEEE total order, then index).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_unstable_by(|&a, &b| x[a * d].total_cmp(&x[b * d]).then(a.cmp(&b)));
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                let first = x[j * d] - x[i * d];
                let first2 = first * first;
                if first2 > 0.0 && first2 >= tol2 {
                    break;
                }
                let mut dist2 = 0.0;
                for c in 0..d {
                    let diff = x[i * d + c] - x[j * d + c];
                    dist2 += diff * diff;
                }
                if dist2 < tol2 || dist2 == 0.0 {
                    let (ri, rj) = (find(parent, i), find(parent, j));
                    if ri != rj {
                        parent[ri.max(rj)] = ri.min(rj);
                    }
                }
            }
        }
    } else {
        // d = 0: every pair at distance 0, one group.
        parent[..n].iter_mut().for_each(|p| *p = 0);
    }
    let mut count = 0u32;
    const UNSET: u32 = u32::MAX;
    labels[..n].iter_mut().for_each(|l| *l = UNSET);
    for i in 0..n {
        let r = find(parent, i);
        if labels[r] == UNSET {
            labels[r] = count;
            count += 1;
        }
        labels[i] = labels[r];
    }
    count as usize
}

/// The centre (mean) of each cluster of at least `min_size` tokens: `k x d`, row-major, in label
/// order, cluster `c` the mean of the tokens `x_i` (`n x d`) with `labels[i] == c` (labels
/// `0..count`), summed in token order.
pub fn cluster_centres(x: &[f64], n: usize, d: usize, labels: &[u32], count: usize, min_size: usize) -> Vec<f64> {
    let mut sum = vec![0.0; count * d];
    let mut size = vec![0usize; count];
    for i in 0..n {
        let c = labels[i] as usize;
        if c >= count {
            continue;
        }
        size[c] += 1;
        for a in 0..d {
            sum[c * d + a] += x[i * d + a];
        }
    }
    let mut out = Vec::new();
    for c in (0..count).filter(|&c| size[c] >= min_size.max(1)) {
        out.extend((0..d).map(|a| sum[c * d + a] / size[c] as f64));
    }
    out
}
