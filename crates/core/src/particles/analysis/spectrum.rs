//! The spectrum of the value matrix `V` and its top left eigenvector `psi1` (science.md §1.3):
//! the eigenvalues of a small real `d x d` matrix by Hessenberg reduction and the shifted QR
//! iteration (the classic `elmhes` + `hqr` pair), and the left eigenvector by elimination with
//! complete pivoting. Plain `f64` arithmetic and `sqrt` in a fixed order: the same bits natively
//! and in wasm (no nalgebra, no libm).

/// The top eigenvalue of `V` and its left eigenvector, when defined ([`top_left_eigenvector`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TopEigen {
    /// `lambda1`: real, positive, simple, larger in modulus than every other eigenvalue.
    pub lambda: f64,
    /// `psi1` (`d`): `psi1^T V = lambda1 psi1^T`, unit length, its largest-magnitude entry
    /// positive (the first such entry on ties).
    pub psi: Vec<f64>,
}

fn sign(a: f64, b: f64) -> f64 {
    if b >= 0.0 {
        a.abs()
    } else {
        -a.abs()
    }
}

/// Reduces `a` (`n x n`, row-major) to upper Hessenberg form by stabilised elementary
/// similarity transforms (Gaussian elimination with pivoting); entries below the subdiagonal are
/// set to 0. The eigenvalues are unchanged.
fn hessenberg(a: &mut [f64], n: usize) {
    let at = |i: usize, j: usize| i * n + j;
    for m in 1..n.saturating_sub(1) {
        let mut x = 0.0f64;
        let mut i = m;
        for j in m..n {
            if a[at(j, m - 1)].abs() > x.abs() {
                x = a[at(j, m - 1)];
                i = j;
            }
        }
        if i != m {
            for j in (m - 1)..n {
                a.swap(at(i, j), at(m, j));
            }
            for j in 0..n {
                a.swap(at(j, i), at(j, m));
            }
        }
        if x != 0.0 {
            for i in (m + 1)..n {
                let mut y = a[at(i, m - 1)];
                if y != 0.0 {
                    y /= x;
                    a[at(i, m - 1)] = y;
                    for j in m..n {
                        a[at(i, j)] -= y * a[at(m, j)];
                    }
                    for j in 0..n {
                        a[at(j, m)] += y * a[at(j, i)];
                    }
                }
            }
        }
    }
    for i in 2..n {
        for j in 0..(i - 1) {
            a[at(i, j)] = 0.0;
        }
    }
}

/// The eigenvalues of `m` (`d x d`, row-major) as `(re, im)` pairs (a complex pair as two
/// conjugate entries; a real eigenvalue has `im` exactly 0), in the order the QR iteration
/// deflates them. `None` when an entry is not finite or the iteration does not converge (30
/// iterations for one eigenvalue).
pub fn eigenvalues(m: &[f64], d: usize) -> Option<Vec<(f64, f64)>> {
    if m.len() != d * d || m.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let n = d;
    let mut a = m.to_vec();
    hessenberg(&mut a, n);
    let at = |i: usize, j: usize| i * n + j;
    let mut w = vec![(0.0f64, 0.0f64); n];
    let mut anorm = 0.0;
    for i in 0..n {
        for j in i.saturating_sub(1)..n {
            anorm += a[at(i, j)].abs();
        }
    }
    let mut nn = n as isize - 1;
    let mut t = 0.0;
    while nn >= 0 {
        let mut its = 0;
        loop {
            let u = nn as usize;
            let mut l = u;
            while l > 0 {
                let mut s = a[at(l - 1, l - 1)].abs() + a[at(l, l)].abs();
                if s == 0.0 {
                    s = anorm;
                }
                if a[at(l, l - 1)].abs() <= f64::EPSILON * s {
                    a[at(l, l - 1)] = 0.0;
                    break;
                }
                l -= 1;
            }
            let mut x = a[at(u, u)];
            if l == u {
                w[u] = (x + t, 0.0);
                nn -= 1;
            } else {
                let mut y = a[at(u - 1, u - 1)];
                let mut ww = a[at(u, u - 1)] * a[at(u - 1, u)];
                if l == u - 1 {
                    let p = 0.5 * (y - x);
                    let q = p * p + ww;
                    let mut z = q.abs().sqrt();
                    x += t;
                    if q >= 0.0 {
                        z = p + sign(z, p);
                        w[u - 1] = (x + z, 0.0);
                        w[u] = (x + z, 0.0);
                        if z != 0.0 {
                            w[u] = (x - ww / z, 0.0);
                        }
                    } else {
                        w[u] = (x + p, -z);
                        w[u - 1] = (x + p, z);
                    }
                    nn -= 2;
                } else {
                    if its == 30 {
                        return None;
                    }
                    if its == 10 || its == 20 {
                        // Exceptional shift.
                        t += x;
                        for i in 0..=u {
                            a[at(i, i)] -= x;
                        }
                        let s = a[at(u, u - 1)].abs() + a[at(u - 1, u - 2)].abs();
                        x = 0.75 * s;
                        y = x;
                        ww = -0.4375 * s * s;
                    }
                    its += 1;
                    let (mut p, mut q, mut r, mut z);
                    let mut m = u - 2;
                    loop {
                        z = a[at(m, m)];
                        r = x - z;
                        let s = y - z;
                        p = (r * s - ww) / a[at(m + 1, m)] + a[at(m, m + 1)];
                        q = a[at(m + 1, m + 1)] - z - r - s;
                        r = a[at(m + 2, m + 1)];
                        let s = p.abs() + q.abs() + r.abs();
                        p /= s;
                        q /= s;
                        r /= s;
                        if m == l {
                            break;
                        }
                        let uu = a[at(m, m - 1)].abs() * (q.abs() + r.abs());
                        let vv = p.abs() * (a[at(m - 1, m - 1)].abs() + z.abs() + a[at(m + 1, m + 1)].abs());
                        if uu <= f64::EPSILON * vv {
                            break;
                        }
                        m -= 1;
                    }
                    for i in m..u - 1 {
                        a[at(i + 2, i)] = 0.0;
                        if i != m {
                            a[at(i + 2, i - 1)] = 0.0;
                        }
                    }
                    let mut k = m;
                    while k < u {
                        if k != m {
                            p = a[at(k, k - 1)];
                            q = a[at(k + 1, k - 1)];
                            r = 0.0;
                            if k + 1 != u {
                                r = a[at(k + 2, k - 1)];
                            }
                            x = p.abs() + q.abs() + r.abs();
                            if x != 0.0 {
                                p /= x;
                                q /= x;
                                r /= x;
                            }
                        }
                        let s = sign((p * p + q * q + r * r).sqrt(), p);
                        if s != 0.0 {
                            if k == m {
                                if l != m {
                                    a[at(k, k - 1)] = -a[at(k, k - 1)];
                                }
                            } else {
                                a[at(k, k - 1)] = -s * x;
                            }
                            p += s;
                            x = p / s;
                            y = q / s;
                            z = r / s;
                            q /= p;
                            r /= p;
                            for j in k..=u {
                                let mut pp = a[at(k, j)] + q * a[at(k + 1, j)];
                                if k + 1 != u {
                                    pp += r * a[at(k + 2, j)];
                                    a[at(k + 2, j)] -= pp * z;
                                }
                                a[at(k + 1, j)] -= pp * y;
                                a[at(k, j)] -= pp * x;
                            }
                            let mmin = if u < k + 3 { u } else { k + 3 };
                            for i in l..=mmin {
                                let mut pp = x * a[at(i, k)] + y * a[at(i, k + 1)];
                                if k + 1 != u {
                                    pp += z * a[at(i, k + 2)];
                                    a[at(i, k + 2)] -= pp * r;
                                }
                                a[at(i, k + 1)] -= pp * q;
                                a[at(i, k)] -= pp;
                            }
                        }
                        k += 1;
                    }
                }
            }
            // Leave when the last pass deflated one or two eigenvalues.
            if (l as isize) + 1 >= nn {
                break;
            }
        }
    }
    Some(w)
}

/// Relative gap below which two eigenvalues count as one (not simple) or a modulus as tied.
pub const SIMPLE_TOL: f64 = 1e-9;

/// `lambda1` and `psi1` of `v` (`d x d`, row-major, acting as `V x`): defined when the
/// eigenvalue of largest modulus is real, positive and simple, every other eigenvalue being
/// smaller in modulus by more than [`SIMPLE_TOL`] times `lambda1` (science.md §1.3; the growth
/// `e^(tV)` is then dominated by that one direction). `None` otherwise (e.g. `V = I` for
/// `d >= 2`, `V = -I`, a complex top pair).
pub fn top_left_eigenvector(v: &[f64], d: usize) -> Option<TopEigen> {
    let eig = eigenvalues(v, d)?;
    let modulus2 = |(re, im): (f64, f64)| re * re + im * im;
    let mut top = 0;
    for k in 1..eig.len() {
        if modulus2(eig[k]) > modulus2(eig[top]) {
            top = k;
        }
    }
    let (lambda, im) = *eig.get(top)?;
    if im != 0.0 || lambda <= 0.0 {
        return None;
    }
    let bound = lambda * (1.0 - SIMPLE_TOL);
    if eig.iter().enumerate().any(|(k, &e)| k != top && modulus2(e) >= bound * bound) {
        return None;
    }
    let psi = null_vector_of_shifted_transpose(v, d, lambda)?;
    Some(TopEigen { lambda, psi })
}

/// A unit vector `y` with `(V^T - lambda I) y ≈ 0` (the left eigenvector of `V` for a simple
/// eigenvalue `lambda`): Gaussian elimination of `V^T - lambda I` with complete pivoting, the
/// last (smallest) pivot's variable set to 1 and the others solved back. Sign: the
/// largest-magnitude entry positive.
fn null_vector_of_shifted_transpose(v: &[f64], d: usize, lambda: f64) -> Option<Vec<f64>> {
    // a = V^T - lambda I.
    let mut a: Vec<f64> = (0..d * d).map(|k| v[(k % d) * d + k / d]).collect();
    for i in 0..d {
        a[i * d + i] -= lambda;
    }
    let mut col: Vec<usize> = (0..d).collect();
    for s in 0..d.saturating_sub(1) {
        // Complete pivoting over the remaining block.
        let (mut pi, mut pj, mut best) = (s, s, -1.0f64);
        for i in s..d {
            for j in s..d {
                if a[i * d + j].abs() > best {
                    best = a[i * d + j].abs();
                    pi = i;
                    pj = j;
                }
            }
        }
        if best == 0.0 {
            break;
        }
        if pi != s {
            for j in 0..d {
                a.swap(pi * d + j, s * d + j);
            }
        }
        if pj != s {
            for i in 0..d {
                a.swap(i * d + pj, i * d + s);
            }
            col.swap(pj, s);
        }
        let piv = a[s * d + s];
        for i in (s + 1)..d {
            let f = a[i * d + s] / piv;
            if f != 0.0 {
                for j in s..d {
                    a[i * d + j] -= f * a[s * d + j];
                }
            }
        }
    }
    // The permuted unknowns y'[0..d]: y'[d-1] = 1, back substitution on the upper triangle.
    let mut y = vec![0.0; d];
    y[d - 1] = 1.0;
    for s in (0..d.saturating_sub(1)).rev() {
        let mut acc = 0.0;
        for j in (s + 1)..d {
            acc += a[s * d + j] * y[j];
        }
        let piv = a[s * d + s];
        if piv == 0.0 {
            return None;
        }
        y[s] = -acc / piv;
    }
    let mut out = vec![0.0; d];
    for (k, &c) in col.iter().enumerate() {
        out[c] = y[k];
    }
    let mut norm2 = 0.0;
    for &x in &out {
        norm2 += x * x;
    }
    let norm = norm2.sqrt();
    if !(norm.is_finite() && norm > 0.0) {
        return None;
    }
    let mut big = 0;
    for k in 1..d {
        if out[k].abs() > out[big].abs() {
            big = k;
        }
    }
    let s = if out[big] < 0.0 { -1.0 } else { 1.0 };
    Some(out.iter().map(|x| s * x / norm).collect())
}
