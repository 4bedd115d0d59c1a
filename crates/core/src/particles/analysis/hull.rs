//! Convex-hull helpers (used by the science checks and theory overlays).

use nalgebra::{DMatrix, DVector};

/// The convex hull of 2-D points (`m x 2`, row-major) as indices in counter-clockwise order
/// (Andrew's monotone chain; collinear boundary points dropped).
pub fn hull_2d(pts: &[f64]) -> Vec<usize> {
    let m = pts.len() / 2;
    let mut idx: Vec<usize> = (0..m).collect();
    idx.sort_by(|&a, &b| {
        (pts[2 * a], pts[2 * a + 1]).partial_cmp(&(pts[2 * b], pts[2 * b + 1])).unwrap_or(std::cmp::Ordering::Equal)
    });
    if m < 3 {
        return idx;
    }
    let cross = |o: usize, a: usize, b: usize| {
        (pts[2 * a] - pts[2 * o]) * (pts[2 * b + 1] - pts[2 * o + 1])
            - (pts[2 * a + 1] - pts[2 * o + 1]) * (pts[2 * b] - pts[2 * o])
    };
    let mut h: Vec<usize> = Vec::with_capacity(2 * m);
    // Lower hull, then upper hull; the upper pass never pops into the lower one.
    for &p in &idx {
        while h.len() >= 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(p);
    }
    let lower_len = h.len() + 1;
    for &p in idx.iter().rev().skip(1) {
        while h.len() >= lower_len && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(p);
    }
    h.pop();
    h
}

/// Whether the 2-D point `p` lies in the convex polygon `hull` (counter-clockwise vertices of
/// `pts`), allowing an outward distance of `tol`.
pub fn in_hull_2d(pts: &[f64], hull: &[usize], p: [f64; 2], tol: f64) -> bool {
    let h = hull.len();
    if h < 3 {
        return true;
    }
    (0..h).all(|e| {
        let (a, b) = (hull[e], hull[(e + 1) % h]);
        let (ax, ay, bx, by) = (pts[2 * a], pts[2 * a + 1], pts[2 * b], pts[2 * b + 1]);
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
        let cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax);
        len == 0.0 || cross / len >= -tol
    })
}

/// Whether point `k` of `pts` (`m x d`) is an extreme point (a vertex) of their convex hull:
/// it is not a convex combination of the others, checked over every subset of at most `d + 1`
/// other points (Carathéodory), with tolerance `tol`. Cost O(m^(d+1)); meant for few points.
pub fn is_extreme_point(pts: &[f64], m: usize, d: usize, k: usize, tol: f64) -> bool {
    let p = DVector::from_column_slice(&pts[k * d..(k + 1) * d]);
    let others: Vec<usize> = (0..m).filter(|&i| i != k).collect();
    let mut subset = Vec::new();
    !any_subset_contains(pts, d, &others, 0, &mut subset, &p, tol)
}

fn any_subset_contains(
    pts: &[f64],
    d: usize,
    others: &[usize],
    from: usize,
    subset: &mut Vec<usize>,
    p: &DVector<f64>,
    tol: f64,
) -> bool {
    if !subset.is_empty() && simplex_contains(pts, d, subset, p, tol) {
        return true;
    }
    if subset.len() == d + 1 {
        return false;
    }
    for i in from..others.len() {
        subset.push(others[i]);
        let found = any_subset_contains(pts, d, others, i + 1, subset, p, tol);
        subset.pop();
        if found {
            return true;
        }
    }
    false
}

fn simplex_contains(pts: &[f64], d: usize, subset: &[usize], p: &DVector<f64>, tol: f64) -> bool {
    let s0 = DVector::from_column_slice(&pts[subset[0] * d..(subset[0] + 1) * d]);
    let k = subset.len() - 1;
    if k == 0 {
        return (p - &s0).norm() <= tol;
    }
    let a = DMatrix::from_fn(d, k, |r, c| pts[subset[c + 1] * d + r] - s0[r]);
    let rhs = p - &s0;
    let svd = a.clone().svd(true, true);
    let lambda = match svd.solve(&rhs, 1e-12) {
        Ok(l) => l,
        Err(_) => return false,
    };
    let residual = (&a * &lambda - &rhs).norm();
    let sum: f64 = lambda.iter().sum();
    residual <= tol && lambda.iter().all(|&l| l >= -1e-9) && sum <= 1.0 + 1e-9
}
