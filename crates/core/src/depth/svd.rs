//! Singular values of a dense `f64` matrix by code of ours in a fixed order (science.md §3.3), so
//! the page (wasm) and `attn depth` (native) print the same bits: nalgebra's SVD calls `std`'s
//! math (`hypot`: glibc natively, a port in wasm) and differed in the last bits between the two.
//!
//! Method: the matrix is taken tall (`q x p`, `q >= p`), reduced by Householder QR to its
//! `p x p` triangular factor `R` (the same singular values), and `R`'s singular values are found by
//! one-sided Jacobi (Hestenes): pairs of columns are rotated until every pair is orthogonal to
//! `1e-15` relative, and the singular values are the final column norms. Both steps are
//! backward stable, so the values are accurate to about 1e-16 of the largest, as LAPACK's. Every
//! sum runs over its index in increasing order; square roots are IEEE's (exact on every target).

/// The singular values of `a` (`q x p` column-major, `q >= p`: column `j` is `a[j q .. (j + 1) q]`),
/// largest first. Entries must be finite.
pub fn singular_values_tall(a: &[f64], q: usize, p: usize) -> Vec<f64> {
    assert!(q >= p && a.len() >= q * p, "singular_values_tall: a is {} entries for {} x {}", a.len(), q, p);
    let mut r = triangular_factor(a, q, p);
    let mut sv = jacobi_column_norms(&mut r, p);
    sv.sort_by(|x, y| y.total_cmp(x));
    sv
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        s += a * b;
    }
    s
}

/// Householder QR of `a` (`q x p`, column-major): the `p x p` factor `R` (column-major, zeros
/// below its diagonal), whose singular values are `a`'s.
fn triangular_factor(a: &[f64], q: usize, p: usize) -> Vec<f64> {
    let mut m = a[..q * p].to_vec();
    let mut v = vec![0.0; q];
    for k in 0..p {
        let col = &m[k * q..(k + 1) * q];
        let norm = dot(&col[k..], &col[k..]).sqrt();
        if norm == 0.0 {
            continue;
        }
        // v = x - alpha e_1 with alpha = -sign(x_0) |x|: no cancellation in v_0.
        let alpha = if col[k] >= 0.0 { -norm } else { norm };
        v[k..q].copy_from_slice(&col[k..]);
        v[k] -= alpha;
        let vv = dot(&v[k..q], &v[k..q]);
        if vv == 0.0 {
            continue;
        }
        for j in k..p {
            let c = &mut m[j * q..(j + 1) * q];
            let f = 2.0 * dot(&v[k..q], &c[k..]) / vv;
            for (x, vi) in c[k..].iter_mut().zip(&v[k..q]) {
                *x -= f * vi;
            }
        }
    }
    let mut r = vec![0.0; p * p];
    for j in 0..p {
        for i in 0..=j.min(q - 1) {
            r[j * p + i] = m[j * q + i];
        }
    }
    r
}

/// One-sided Jacobi on the `p x p` column-major `r` (rotated in place): the column norms once
/// every pair of columns is orthogonal (to 1e-15 relative; at most 60 sweeps).
fn jacobi_column_norms(r: &mut [f64], p: usize) -> Vec<f64> {
    const TOL: f64 = 1e-15;
    for _sweep in 0..60 {
        let mut rotated = false;
        for i in 0..p {
            for j in i + 1..p {
                let (left, right) = r.split_at_mut(j * p);
                let (ci, cj) = (&mut left[i * p..(i + 1) * p], &mut right[..p]);
                let alpha = dot(ci, ci);
                let beta = dot(cj, cj);
                let gamma = dot(ci, cj);
                if gamma == 0.0 || gamma.abs() <= TOL * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                for (x, y) in ci.iter_mut().zip(cj.iter_mut()) {
                    let (a, b) = (*x, *y);
                    *x = c * a - s * b;
                    *y = s * a + c * b;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    (0..p).map(|j| dot(&r[j * p..(j + 1) * p], &r[j * p..(j + 1) * p]).sqrt()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn matches_nalgebra_to_round_off_and_finds_exact_ranks() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        for (q, p) in [(1, 1), (5, 3), (40, 40), (64, 7), (300, 20)] {
            let a: Vec<f64> = (0..q * p).map(|_| next()).collect();
            let mine = singular_values_tall(&a, q, p);
            let mut theirs: Vec<f64> = DMatrix::from_column_slice(q, p, &a).singular_values().iter().copied().collect();
            theirs.sort_by(|x, y| y.total_cmp(x));
            for (x, y) in mine.iter().zip(&theirs) {
                assert!((x - y).abs() <= 1e-13 * theirs[0], "{q} x {p}: {x} vs {y}");
            }
        }
        // Rank 1 (every column a multiple of one vector): one value, the rest round-off.
        let (q, p) = (30, 6);
        let u: Vec<f64> = (0..q).map(|_| next()).collect();
        let a: Vec<f64> = (0..p).flat_map(|j| u.iter().map(move |x| x * (j as f64 + 1.0))).collect();
        let sv = singular_values_tall(&a, q, p);
        let want = dot(&u, &u).sqrt() * (1..=p).map(|j| (j * j) as f64).sum::<f64>().sqrt();
        assert!((sv[0] - want).abs() <= 1e-14 * want);
        assert!(sv[1..].iter().all(|&s| s <= 1e-15 * want), "{sv:?}");
        // Diagonal: exactly its entries, sorted.
        let d = [3.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 4.0];
        assert_eq!(singular_values_tall(&d, 3, 3), vec![5.0, 4.0, 3.0]);
    }
}
