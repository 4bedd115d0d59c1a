//! The cluster centres the `hull` overlay marks (science.md §1.7, the polytope overlay): the
//! centres of the clusters that hold a meaningful share of the tokens, at most one mark within
//! a legible spacing. With thousands of tokens, most clusters of a forming polytope are pairs
//! and small groups whose centres crowd each other; the theorem of science.md §1.3 is about
//! where the tokens gather, so only the clusters holding at least one token in
//! [`MARK_SHARE`] are marked, the larger first, each at least [`MARK_SPACING`] reference spreads
//! from the marks before it. Deterministic: sums in token order, plain arithmetic.

use super::clusters::cluster_centres;
use super::metrics::reference_spread;
use crate::particles::sim::Simulation;

/// A marked cluster holds at least one token in `MARK_SHARE` (and at least 2 tokens).
pub const MARK_SHARE: usize = 256;

/// Marks are at least this many reference spreads apart: 12 CSS px on the default 2-D token view
/// (about 247 px per reference spread), more than a mark's width (10 px).
pub const MARK_SPACING: f64 = 0.05;

/// The smallest cluster marked among `n` tokens: `max(2, ceil(n / MARK_SHARE))` (2 up to 512
/// tokens, 16 at 4096).
pub fn mark_min_size(n: usize) -> usize {
    n.div_ceil(MARK_SHARE).max(2)
}

/// The marks' spacing for the displayed tokens `tokens` of `sim`'s current state:
/// [`MARK_SPACING`] times the run's reference spread (the one the `clusters` metric measures
/// `cluster_tol` against).
pub fn mark_spacing(sim: &Simulation, tokens: &[f64]) -> f64 {
    MARK_SPACING * reference_spread(sim, tokens)
}

/// The centres marked among the clusters of the tokens `x` (`n x d`, row-major; `labels[i]` in
/// `0..count`): the clusters of at least [`mark_min_size`] tokens, taken by decreasing size
/// (ties by label), each marked unless its centre ([`cluster_centres`], the mean of its tokens)
/// is closer than `spacing` (Euclidean) to a centre marked before it, or is not finite. Returns
/// the marked centres, `k x d` row-major, in the order taken (largest cluster first).
pub fn centre_marks(x: &[f64], n: usize, d: usize, labels: &[u32], count: usize, spacing: f64) -> Vec<f64> {
    let mut size = vec![0usize; count];
    for &l in &labels[..n] {
        if let Some(s) = size.get_mut(l as usize) {
            *s += 1;
        }
    }
    // cluster_centres leaves out the empty labels: row r is the r-th non-empty label.
    let centres = cluster_centres(x, n, d, labels, count, 1);
    let mut row = vec![usize::MAX; count];
    for (r, c) in (0..count).filter(|&c| size[c] > 0).enumerate() {
        row[c] = r;
    }
    let min = mark_min_size(n);
    let mut taken: Vec<usize> = (0..count).filter(|&c| size[c] >= min).collect();
    taken.sort_by(|&a, &b| size[b].cmp(&size[a]).then(a.cmp(&b)));
    let limit = spacing * spacing;
    let mut out: Vec<f64> = Vec::new();
    for c in taken {
        let p = &centres[row[c] * d..(row[c] + 1) * d];
        if p.iter().any(|v| !v.is_finite()) {
            continue;
        }
        let crowded = out.chunks(d.max(1)).any(|q| {
            let mut s = 0.0;
            for a in 0..d {
                let e = p[a] - q[a];
                s += e * e;
            }
            s < limit
        });
        if !crowded {
            out.extend_from_slice(p);
        }
    }
    out
}
