//! The operations of the encoder forward in `f32` (science.md §6), each in a fixed order so that
//! native and wasm give the same bits: linear layers on the shared scores kernel, LayerNorm with
//! gain and bias, the exact-erf GELU (`libm`), the max-subtracted softmax with the core's `exp`.
//!
//! Matrices are row-major `f32` slices, tokens as rows. Work that splits into independent tasks
//! (blocks of rows of a linear layer, the heads of a layer) goes through a [`Pool`]: every output
//! element is computed by one task in the same order whichever task or thread runs it, so the
//! number of threads never changes a bit.

use super::weights::{Linear, Norm};
use crate::erff::{erff_lanes, erff_small_lanes, is_small, LANES};
use crate::exp::{map_in_lanes, ExpConstants};
use crate::kernels::{pack_queries, scores_block};
use std::f32::consts::FRAC_1_SQRT_2;

/// Runs independent tasks, each writing one chunk of an output slice.
pub trait Pool: Sync {
    /// Calls `task(k, chunk)` once for every chunk `k` of `out` (`chunk` elements each, the last
    /// one shorter), in any order, on any thread.
    fn chunks(&self, out: &mut [f32], chunk: usize, task: &(dyn Fn(usize, &mut [f32]) + Sync));
}

/// The tasks one after the other on the calling thread (wasm, small inputs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Pool for Serial {
    fn chunks(&self, out: &mut [f32], chunk: usize, task: &(dyn Fn(usize, &mut [f32]) + Sync)) {
        for (k, c) in out.chunks_mut(chunk.max(1)).enumerate() {
            task(k, c);
        }
    }
}

/// Rows per task of a linear layer.
pub const ROWS_PER_TASK: usize = 16;

/// `Y = X W^T + b` (`x`: `n x in`; returns `n x out`): each output `y_io = (sum_c x_ic w_oc) + b_o`,
/// the sum over `c` in increasing order (the scores kernel, science.md "Matrix products").
pub fn linear(x: &[f32], n: usize, lin: &Linear, pool: &dyn Pool) -> Vec<f32> {
    linear_then(x, n, lin, pool, &|_| {})
}

/// [`linear`] followed by the exact [`gelu`] of every output, applied to each task's block as it
/// is written (on the pool's threads, while the block is in cache); each element's arithmetic is
/// `gelu`'s, so the bits are those of `linear` then `gelu`.
pub fn linear_gelu(x: &[f32], n: usize, lin: &Linear, pool: &dyn Pool) -> Vec<f32> {
    linear_then(x, n, lin, pool, &gelu)
}

/// [`linear`], then `after` on each task's block of whole output rows.
fn linear_then(x: &[f32], n: usize, lin: &Linear, pool: &dyn Pool, after: &(dyn Fn(&mut [f32]) + Sync)) -> Vec<f32> {
    let (inp, out) = (lin.inp(), lin.out());
    let mut y = vec![0.0f32; n * out];
    pool.chunks(&mut y, ROWS_PER_TASK * out, &|k, block| {
        let r0 = k * ROWS_PER_TASK;
        let rows = block.len() / out;
        let mut qp = Vec::new();
        pack_queries(rows, inp, |r, c| x[(r0 + r) * inp + c], &mut qp);
        scores_block(&qp, rows, &lin.w, block);
        for row in block.chunks_mut(out) {
            for (v, &b) in row.iter_mut().zip(&lin.b) {
                *v += b;
            }
        }
        after(block);
    });
    y
}

/// LayerNorm of every row of `x` (`n x d`) in place: `y = (x - mean) / sqrt(var + eps) * gain + bias`,
/// `mean` and `var` (the biased variance) summed over the features in increasing order.
///
/// Each row's arithmetic is the plain loop's, in its order; for speed, [`NORM_ROWS`] rows go
/// together and their sums, each a chain in increasing feature, advance side by side so the
/// chains overlap (one row's chain alone waits on each addition's latency).
pub fn layer_norm(x: &mut [f32], d: usize, norm: &Norm, eps: f32) {
    if d == 0 {
        return;
    }
    let mut blocks = x.chunks_exact_mut(NORM_ROWS * d);
    for block in &mut blocks {
        layer_norm_rows::<NORM_ROWS>(block, d, norm, eps);
    }
    for row in blocks.into_remainder().chunks_exact_mut(d) {
        layer_norm_rows::<1>(row, d, norm, eps);
    }
}

/// [`layer_norm`] of the `R` rows of `block` (`R x d`), side by side.
#[inline(always)]
fn layer_norm_rows<const R: usize>(block: &mut [f32], d: usize, norm: &Norm, eps: f32) {
    let inv_d = 1.0 / d as f32;
    let mut sum = [0.0f32; R];
    for k in 0..d {
        for (r, t) in sum.iter_mut().enumerate() {
            *t += block[r * d + k];
        }
    }
    let mean = sum.map(|t| t * inv_d);
    let mut sq = [0.0f32; R];
    for k in 0..d {
        for (r, t) in sq.iter_mut().enumerate() {
            let v = block[r * d + k];
            *t += (v - mean[r]) * (v - mean[r]);
        }
    }
    for ((row, &m), &q) in block.chunks_exact_mut(d).zip(&mean).zip(&sq) {
        let denom = (q * inv_d + eps).sqrt();
        for ((v, &g), &b) in row.iter_mut().zip(&norm.gain).zip(&norm.bias) {
            *v = (*v - m) / denom * g + b;
        }
    }
}

/// Rows of [`layer_norm`] computed side by side.
const NORM_ROWS: usize = 16;

/// The exact GELU in place, `x (1 + erf(x / sqrt 2)) / 2`, erf with the bits of `libm::erff`
/// ([`crate::erff`]). [`LANES`] values at a time, in place, take [`erff_small_lanes`]' few
/// operations, right for the arguments below 0.84375 in magnitude (about three in four in
/// MiniLM); the places of the others are noted without a branch, and those are then gathered,
/// [`LANES`] at a time (padded), for [`erff_lanes`] (every branch of `erff` computed).
pub fn gelu(x: &mut [f32]) {
    // Per block: the places of the values whose argument is not small, and those arguments.
    let mut at = [0u16; GELU_BLOCK + LANES];
    let mut arg = [0.0f32; GELU_BLOCK + LANES];
    for block in x.chunks_mut(GELU_BLOCK) {
        let mut count = 0;
        let whole = block.len() - block.len() % LANES;
        let mut chunks = block.chunks_exact_mut(LANES);
        for (c, lanes) in (&mut chunks).enumerate() {
            let lanes: &mut [f32; LANES] = lanes.try_into().expect("LANES values");
            count = gelu_small_lanes(lanes, c * LANES, &mut at, count);
        }
        let tail = chunks.into_remainder();
        if !tail.is_empty() {
            // Padded with 0, which is small: no place noted for the padding.
            let mut lanes = [0.0f32; LANES];
            lanes[..tail.len()].copy_from_slice(tail);
            count = gelu_small_lanes(&mut lanes, whole, &mut at, count);
            tail.copy_from_slice(&lanes[..tail.len()]);
        }
        for (a, &i) in arg.iter_mut().zip(&at[..count]) {
            *a = block[i as usize] * FRAC_1_SQRT_2;
        }
        // Padding: 0's erf is discarded.
        arg[count..count.next_multiple_of(LANES)].fill(0.0);
        for c in (0..count).step_by(LANES) {
            let lanes: &[f32; LANES] = arg[c..c + LANES].try_into().expect("LANES values");
            let erf = erff_lanes(lanes);
            for (&i, &e) in at[c..(c + LANES).min(count)].iter().zip(&erf) {
                let v = &mut block[i as usize];
                *v = 0.5 * *v * (1.0 + e);
            }
        }
    }
}

/// [`gelu`] of each of `lanes`' values whose argument `v / sqrt 2` is small ([`is_small`]); the
/// others are kept, their places (`first` + lane) noted in `at` from `count` on. Returns the new
/// count.
#[inline(always)]
fn gelu_small_lanes(lanes: &mut [f32; LANES], first: usize, at: &mut [u16], mut count: usize) -> usize {
    let a = lanes.map(|v| v * FRAC_1_SQRT_2);
    let erf = erff_small_lanes(&a);
    for (k, v) in lanes.iter_mut().enumerate() {
        let small = is_small(a[k]);
        at[count] = (first + k) as u16;
        count += usize::from(!small);
        let g = 0.5 * *v * (1.0 + erf[k]);
        *v = if small { g } else { *v };
    }
    count
}

/// Values of [`gelu`] per pass (their places fit a `u16`).
const GELU_BLOCK: usize = 1024;

/// Softmax of every row of `s` (`rows x n`) after dividing by `scale`:
/// `p_ij = e_ij / sum_k e_ik` with `e_ij = exp(s_ij / scale - max_k s_ik / scale)` (the core's
/// `exp` in `f64`, rounded to `f32`: computed by [`ExpConstants::eval`], the same bits for the
/// nonpositive arguments of a softmax), the sum in increasing `k`.
///
/// Each row's arithmetic is the plain loop's, in its order; for speed, [`SOFTMAX_ROWS`] rows go
/// together: the divisions and the exponentials run over whole rows (loops that vectorise; the
/// core's `exp` is branch-free for that, each lane the scalar arithmetic), and the rows' maxima
/// and sums, each a chain in increasing `k`, advance side by side so the chains overlap.
pub fn softmax_rows(s: &mut [f32], n: usize, scale: f32) {
    if n == 0 {
        return;
    }
    for block in s.chunks_mut(SOFTMAX_ROWS * n) {
        let rows = block.len() / n;
        for v in block.iter_mut() {
            *v /= scale;
        }
        let mut max = [f32::NEG_INFINITY; SOFTMAX_ROWS];
        let mut sum = [0.0f32; SOFTMAX_ROWS];
        if rows == SOFTMAX_ROWS {
            for k in 0..n {
                for (r, m) in max.iter_mut().enumerate() {
                    let v = block[r * n + k];
                    if v > *m {
                        *m = v;
                    }
                }
            }
        } else {
            for (row, m) in block.chunks(n).zip(max.iter_mut()) {
                for &v in row {
                    if v > *m {
                        *m = v;
                    }
                }
            }
        }
        // `v - m <= 0` (or NaN, from a non-finite row): the nonpositive form has `exp`'s bits
        // there in about half the operations, NaN kept by a select; its constants are read once
        // (`ExpConstants::opaque`: literal ones are rebuilt every iteration of a wasm loop).
        // [`EXP_LANES`] at a time: independent vector chains through the polynomial, not one.
        let k = ExpConstants::opaque();
        for (row, &m) in block.chunks_mut(n).zip(&max) {
            map_in_lanes::<f32, EXP_LANES>(row, |v| k.weight((v - m) as f64) as f32);
        }
        if rows == SOFTMAX_ROWS {
            for k in 0..n {
                for (r, t) in sum.iter_mut().enumerate() {
                    *t += block[r * n + k];
                }
            }
        } else {
            for (row, t) in block.chunks(n).zip(sum.iter_mut()) {
                for &v in row {
                    *t += v;
                }
            }
        }
        for (row, &t) in block.chunks_mut(n).zip(&sum) {
            for v in row.iter_mut() {
                *v /= t;
            }
        }
    }
}

/// Rows of [`softmax_rows`] computed side by side.
const SOFTMAX_ROWS: usize = 8;

/// Weights of a row of [`softmax_rows`] exponentiated together: enough independent vectors to
/// hide the polynomial's latency (four f64x2 in wasm; two AVX-512 registers natively, where 16
/// read 2.54 ms of softmax per 128-token forward against 2.80 with 8). Speed only: each weight's
/// arithmetic is the same.
#[cfg(target_arch = "wasm32")]
const EXP_LANES: usize = 8;
#[cfg(not(target_arch = "wasm32"))]
const EXP_LANES: usize = 16;

/// `a + b` element by element into `a`.
pub fn add(a: &mut [f32], b: &[f32]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_rows_equal_the_plain_loop_bit_for_bit() {
        let mut r = crate::rng::Rng::new(11, 0);
        for &(rows, n) in &[(1, 1), (3, 5), (8, 128), (13, 37), (17, 9), (9, 700)] {
            let mut s: Vec<f32> = (0..rows * n).map(|_| (r.normal() * 4.0) as f32).collect();
            // Scores far apart (weights that underflow), and rows holding NaN and infinities
            // (an f32 overflow: its weights NaN, never numbers).
            if rows > 2 {
                s[n..2 * n].iter_mut().enumerate().for_each(|(k, v)| *v *= 300.0 * k as f32);
                s[2 * n] = f32::NAN;
                s[(rows - 1) * n] = f32::INFINITY;
                s[rows * n - 1] = f32::NEG_INFINITY;
            }
            let mut got = s.clone();
            softmax_rows(&mut got, n, 5.656_854);
            for (i, row) in s.chunks(n).enumerate() {
                let x: Vec<f32> = row.iter().map(|&v| v / 5.656_854).collect();
                let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| if v > m { v } else { m });
                let e: Vec<f32> = x.iter().map(|&v| crate::exp::exp((v - max) as f64) as f32).collect();
                let mut sum = 0.0f32;
                for &v in &e {
                    sum += v;
                }
                for (k, &v) in e.iter().enumerate() {
                    assert_eq!(got[i * n + k].to_bits(), (v / sum).to_bits(), "rows {rows}, n {n}, row {i}");
                }
            }
        }
    }

    #[test]
    fn layer_norm_equals_the_plain_loop_bit_for_bit() {
        let mut r = crate::rng::Rng::new(12, 0);
        for &(rows, d) in &[(1, 1), (3, 5), (16, 384), (17, 9), (37, 64), (40, 384)] {
            let norm = Norm {
                gain: (0..d).map(|_| (1.0 + 0.1 * r.normal()) as f32).collect(),
                bias: (0..d).map(|_| (0.1 * r.normal()) as f32).collect(),
            };
            let mut x: Vec<f32> = (0..rows * d).map(|_| (r.normal() * 3.0 + 0.5) as f32).collect();
            if rows > 2 {
                x[d] = f32::NAN;
                x[2 * d] = f32::INFINITY;
                x[rows * d - 1] = 1e30;
            }
            let mut got = x.clone();
            layer_norm(&mut got, d, &norm, 1e-12);
            let inv_d = 1.0 / d as f32;
            for (i, row) in x.chunks(d).enumerate() {
                let mut sum = 0.0f32;
                for &v in row {
                    sum += v;
                }
                let mean = sum * inv_d;
                let mut sq = 0.0f32;
                for &v in row {
                    sq += (v - mean) * (v - mean);
                }
                let denom = (sq * inv_d + 1e-12).sqrt();
                for (k, &v) in row.iter().enumerate() {
                    let want = (v - mean) / denom * norm.gain[k] + norm.bias[k];
                    let g = got[i * d + k];
                    assert!(
                        g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                        "rows {rows}, d {d}, row {i}, feature {k}"
                    );
                }
            }
        }
    }
}
