//! Small dense `d x d` matrices on the stepping path: plain loops in a fixed order (no nalgebra,
//! whose products may pick FMA kernels at run time; toolchain.md), and `exp(tV)` by the core's
//! own scaling and squaring.
//!
//! Convention: matrices are row-major `Vec<f64>`/`[f64]` of length `d * d`; `a[i * d + j]` is
//! row `i`, column `j`. Tokens are rows, so applying `A` to every token of `X` (`n x d`) is
//! `X A^T`, computed by [`apply_rows`].

use crate::exp::exp;

/// The `d x d` identity.
pub fn identity(d: usize) -> Vec<f64> {
    let mut m = vec![0.0; d * d];
    for i in 0..d {
        m[i * d + i] = 1.0;
    }
    m
}

/// `A B` for `d x d` matrices, written into `out` (which must not alias): [`rows_times`], each
/// entry `0.0 + sum_k a_ik b_kj` with `k` increasing.
pub fn matmul(a: &[f64], b: &[f64], d: usize, out: &mut [f64]) {
    rows_times(a, d, b, d, d, d, d, out);
}

/// Rows of [`rows_times`] summed together.
const PRODUCT_ROWS: usize = 4;
/// Outputs of [`rows_times`] summed together.
const PRODUCT_COLS: usize = 8;

/// `out = X W` for rows of `X`: each entry `0.0 + x_i0 w_0o + x_i1 w_1o + ...`, the inner index
/// in increasing order from a zero start (the order of the plain loop `o = 0.0; for c { o +=
/// x_ic * w_co }`), so the bits depend neither on the blocking nor on the target.
///
/// Register blocking (speed only): [`PRODUCT_ROWS`] rows by [`PRODUCT_COLS`] outputs are summed
/// together while the loop runs over the inner index, so each loaded weight serves several rows
/// and the sums stay in registers (a plain loop reloads its sum or its output row every step).
///
/// `out[i * m + o] = sum_c x[i * ldx + c] * w[c * ldw + o]` for `i < n`, `o < m`, `c < k`, each
/// sum from `0.0` with `c` increasing. `x` holds `n` rows of stride `ldx >= k`, `w` holds `k` rows
/// of stride `ldw >= m`, `out` at least `n x m`. Panics if a slice is shorter than stated.
#[allow(clippy::too_many_arguments)] // the two operands with their strides, the shape, the output
pub fn rows_times(x: &[f64], ldx: usize, w: &[f64], ldw: usize, n: usize, k: usize, m: usize, out: &mut [f64]) {
    let mut i = 0;
    while i + PRODUCT_ROWS <= n {
        block::<PRODUCT_ROWS>(x, ldx, w, ldw, i, k, m, out);
        i += PRODUCT_ROWS;
    }
    while i < n {
        block::<1>(x, ldx, w, ldw, i, k, m, out);
        i += 1;
    }
}

/// Rows `i0 .. i0 + R` of [`rows_times`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block<const R: usize>(x: &[f64], ldx: usize, w: &[f64], ldw: usize, i0: usize, k: usize, m: usize, out: &mut [f64]) {
    let rows: [&[f64]; R] = std::array::from_fn(|r| &x[(i0 + r) * ldx..(i0 + r) * ldx + k]);
    let mut o = 0;
    while o + PRODUCT_COLS <= m {
        let mut acc = [[0.0f64; PRODUCT_COLS]; R];
        for c in 0..k {
            let wc: &[f64; PRODUCT_COLS] =
                w[c * ldw + o..c * ldw + o + PRODUCT_COLS].try_into().expect("PRODUCT_COLS weights");
            for (a, row) in acc.iter_mut().zip(&rows) {
                let xc = row[c];
                for (s, &wv) in a.iter_mut().zip(wc) {
                    *s += xc * wv;
                }
            }
        }
        for (r, a) in acc.iter().enumerate() {
            out[(i0 + r) * m + o..(i0 + r) * m + o + PRODUCT_COLS].copy_from_slice(a);
        }
        o += PRODUCT_COLS;
    }
    for o in o..m {
        for (r, row) in rows.iter().enumerate() {
            let mut s = 0.0;
            for (c, &xc) in row.iter().enumerate() {
                s += xc * w[c * ldw + o];
            }
            out[(i0 + r) * m + o] = s;
        }
    }
}

/// The transpose of a `d x d` matrix.
pub fn transpose(a: &[f64], d: usize) -> Vec<f64> {
    let mut t = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..d {
            t[j * d + i] = a[i * d + j];
        }
    }
    t
}

/// Applies `A` (`d x d`) to each of the `n` token rows of `x` (`n x d`): `out_i = A x_i`.
pub fn apply_rows(a: &[f64], x: &[f64], n: usize, d: usize, out: &mut [f64]) {
    for i in 0..n {
        let xi = &x[i * d..(i + 1) * d];
        let oi = &mut out[i * d..(i + 1) * d];
        for r in 0..d {
            let row = &a[r * d..(r + 1) * d];
            let mut s = 0.0;
            for c in 0..d {
                s += row[c] * xi[c];
            }
            oi[r] = s;
        }
    }
}

/// Whether all off-diagonal entries are zero.
pub fn is_diagonal(a: &[f64], d: usize) -> bool {
    (0..d).all(|i| (0..d).all(|j| i == j || a[i * d + j] == 0.0))
}

/// Whether `a` is the identity.
pub fn is_identity(a: &[f64], d: usize) -> bool {
    is_diagonal(a, d) && (0..d).all(|i| a[i * d + i] == 1.0)
}

/// `exp(tV) = e^s M` with the growth factored out: returns `(M, s)` where `M` (`d x d`) has
/// largest absolute entry 1 (or is zero-free diagonal with largest entry 1 when `V` is diagonal).
///
/// Used by the Euclidean model in rescaled coordinates `z = exp(-tV) x` (science.md §1), where
/// scores `<Q x_i, K x_j> = e^{2s} <Q M z_i, K M z_j>` would overflow for large `t` if the scale
/// were not kept apart ("Overflow" in science.md).
///
/// Diagonal `V`: `M_ii = e^{t V_ii - s}` with `s = max_i t V_ii` (exact up to the exp's 1 ulp).
/// General `V`: `A = tV / 2^j` with `||A||_1 <= 1/2`, Taylor polynomial of degree 18 for
/// `exp(A)`, then `j` squarings, each renormalised by its largest entry (scale kept in `s`).
pub fn expm_scaled(v: &[f64], d: usize, t: f64) -> (Vec<f64>, f64) {
    let mut m = vec![0.0; d * d];
    let s = expm_scaled_into(v, d, t, &mut m, &mut vec![0.0; d * d], &mut vec![0.0; d * d]);
    (m, s)
}

/// [`expm_scaled`] into caller-provided buffers (`out`, `w1`, `w2`, each `d x d`); returns `s`.
pub fn expm_scaled_into(v: &[f64], d: usize, t: f64, out: &mut [f64], w1: &mut [f64], w2: &mut [f64]) -> f64 {
    if is_diagonal(v, d) {
        let mut s = f64::NEG_INFINITY;
        for i in 0..d {
            let a = t * v[i * d + i];
            if a > s {
                s = a;
            }
        }
        for x in out.iter_mut() {
            *x = 0.0;
        }
        for i in 0..d {
            out[i * d + i] = exp(t * v[i * d + i] - s);
        }
        return s;
    }
    // Scaling: find j with ||tV||_1 / 2^j <= 1/2.
    let mut norm = 0.0f64;
    for c in 0..d {
        let mut col = 0.0;
        for r in 0..d {
            col += (t * v[r * d + c]).abs();
        }
        if col > norm {
            norm = col;
        }
    }
    let mut j = 0u32;
    let mut scale = 1.0;
    while norm * scale > 0.5 {
        scale *= 0.5;
        j += 1;
    }
    // w1 = A = t V scale (multiplication by a power of two is exact unless subnormal).
    for (a, &vi) in w1.iter_mut().zip(v) {
        *a = t * vi * scale;
    }
    // Taylor: E = I + A (I + A/2 (I + A/3 (... (I + A/18)))) in Horner form, in `out`.
    for x in out.iter_mut() {
        *x = 0.0;
    }
    for i in 0..d {
        out[i * d + i] = 1.0;
    }
    for k in (1..=18u32).rev() {
        // out = I + (A out) / k
        matmul(w1, out, d, w2);
        let inv = 1.0 / k as f64;
        for (o, &p) in out.iter_mut().zip(w2.iter()) {
            *o = p * inv;
        }
        for i in 0..d {
            out[i * d + i] += 1.0;
        }
    }
    // Squarings with renormalisation.
    let mut s = 0.0;
    for _ in 0..j {
        matmul(out, out, d, w2);
        let mut big = 0.0f64;
        for &x in w2.iter() {
            if x.abs() > big {
                big = x.abs();
            }
        }
        s *= 2.0;
        if big > 0.0 && big.is_finite() {
            for (o, &p) in out.iter_mut().zip(w2.iter()) {
                *o = p / big;
            }
            s += libm::log(big);
        } else {
            out.copy_from_slice(w2);
        }
    }
    // Final normalisation so the largest entry is 1.
    let mut big = 0.0f64;
    for &x in out.iter() {
        if x.abs() > big {
            big = x.abs();
        }
    }
    if big > 0.0 && big.is_finite() {
        for o in out.iter_mut() {
            *o /= big;
        }
        s += libm::log(big);
    }
    s
}

/// Scales `row` to unit length; false (row unchanged) when it is zero.
pub fn normalize(row: &mut [f64]) -> bool {
    let mut s = 0.0;
    for v in row.iter() {
        s += v * v;
    }
    if s == 0.0 || !s.is_finite() {
        return false;
    }
    let r = s.sqrt();
    row.iter_mut().for_each(|v| *v /= r);
    true
}

/// The projection onto the tangent space of the unit sphere at `x` (science.md §2):
/// `v <- Pi_x v = v - <x, v> x`, with `<x, v>` summed over coordinates in increasing order.
/// `x` is a unit vector of the same length as `v`.
pub fn project_tangent(x: &[f64], v: &mut [f64]) {
    let mut dot = 0.0;
    for (a, b) in x.iter().zip(v.iter()) {
        dot += a * b;
    }
    for (vc, xc) in v.iter_mut().zip(x) {
        *vc -= dot * xc;
    }
}
