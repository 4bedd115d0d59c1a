//! The 1-layer transformer in token space (science.md §5): forward pass, cross-entropy loss and
//! its exact gradients with respect to the decoder `Y` and the attention logits `Z`.
//!
//! Shapes: `Y` and `Z` are `M x M`, row-major (`Y[k * M + l]`). A sequence is its query token
//! `m`, its next token `y` (the label), and its context as a count vector `k` over `M` tokens,
//! given sparsely as `(support, counts)`: only the `seq_len - 1` context tokens are attended to
//! (the query does not attend to itself), and with no positional encoding their order is irrelevant.
//!
//! Forward (all sums over the context support `S = {l : k_l > 0}`):
//!
//! ```text
//! a_l = Z[m, l]                                  attention logits of the query row
//! w_l = k_l exp(a_l - max_S a)                   (the shift cancels)
//! f_l = w_l / sum_S w                            attended vector f = sum_t b_t onehot(x_t),
//!                                                b_t = softmax_t Z[m, x_t]
//! g   = f / ||f||_2                              normalised attended vector (f~)
//! o_k = sum_S Y[k, l] g_l           (k in 0..M)  output logits Y f~
//! p   = softmax(o),  loss = -ln p_y              cross-entropy on the next token
//! ```
//!
//! Backward (exact; checked against central finite differences in `tests/training.rs`):
//!
//! ```text
//! delta_k   = p_k - [k = y]                      dL/do
//! dL/dY[k,l] = delta_k g_l                        (l in S; zero elsewhere)
//! u_l       = sum_k Y[k, l] delta_k              dL/dg = Y^T delta   (l in S; [`dot`] order)
//! v_l       = (u_l - g_l (g . u)) / ||f||        dL/df through the normalisation,
//!                                                dg/df = (I - g g^T) / ||f||
//! dL/dZ[m,l] = f_l (v_l - f . v)                 through the softmax, df_l/da_j = f_l([l=j] - f_j);
//!                                                other rows of Z and other columns: zero
//! ```
//!
//! (`f . v = 0` analytically, since `g` has unit norm; it is kept as written.) A batch's loss and
//! gradients are the means over its sequences, accumulated in the order of the sequences.
//! Exponentials use the core's [`crate::exp::exp`], logarithms and square roots `libm`: the same
//! bits natively and in wasm.

use crate::exp::exp;

/// Work space for one sequence (no allocation after construction).
#[derive(Clone, Debug)]
pub struct ModelScratch {
    f: Vec<f64>,
    g: Vec<f64>,
    u: Vec<f64>,
    o: Vec<f64>,
}

impl ModelScratch {
    /// Work space for vocabulary size `m`.
    pub fn new(m: usize) -> ModelScratch {
        ModelScratch { f: vec![0.0; m], g: vec![0.0; m], u: vec![0.0; m], o: vec![0.0; m] }
    }
}

/// One sequence as a count vector: query token, next token, and the context's tokens with their
/// counts (`support` and `counts` aligned, counts positive).
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    /// Query (last) token `m`.
    pub query: usize,
    /// Next token `y` (the label).
    pub next: usize,
    /// Context tokens with a positive count (no repeats).
    pub support: Vec<usize>,
    /// Occurrences of each `support` token in the context.
    pub counts: Vec<f64>,
}

/// The attended vector of one sequence: writes `f_l` (science.md §5: `f = sum_t b_t onehot(x_t)`,
/// `b_t = softmax_t Z[query, x_t]`) for each token of `support` into `f` (aligned with `support`)
/// and returns `||f||_2`. `z` is `M x M` row-major.
pub fn attend(z: &[f64], m: usize, query: usize, support: &[usize], counts: &[f64], f: &mut [f64]) -> f64 {
    weighted_softmax(&z[query * m..(query + 1) * m], support, counts, f, |i, _| i);
    let mut nn = 0.0;
    for fi in f[..support.len()].iter() {
        nn += *fi * *fi;
    }
    nn.sqrt()
}

/// The softmax of `row` over `support`, weighted: `w_i exp(row[l_i] - max) / sum_j w_j
/// exp(row[l_j] - max)` for `l_i = support[i]` (the max over the support subtracted, which
/// cancels; sums in support order), written to `out[at(i, l_i)]`. The attended vector of a
/// sequence ([`attend`]: weights the token counts, aligned with `support`) and the class
/// attention `c_n` ([`super::analysis::class_attention`]: weights `P(l|n)`, at token `l`) are this
/// function (science.md §5).
pub fn weighted_softmax(
    row: &[f64],
    support: &[usize],
    weights: &[f64],
    out: &mut [f64],
    at: impl Fn(usize, usize) -> usize,
) {
    let mut amax = f64::NEG_INFINITY;
    for &l in support {
        if row[l] > amax {
            amax = row[l];
        }
    }
    let mut s = 0.0;
    for (i, &l) in support.iter().enumerate() {
        let w = weights[i] * exp(row[l] - amax);
        out[at(i, l)] = w;
        s += w;
    }
    for (i, &l) in support.iter().enumerate() {
        out[at(i, l)] /= s;
    }
}

/// `Y^T` of `y` (`M x M` row-major) into `yt`; the same function maps `Y^T` back to `Y`.
pub fn transpose(y: &[f64], m: usize, yt: &mut [f64]) {
    for k in 0..m {
        for l in 0..m {
            yt[l * m + k] = y[k * m + l];
        }
    }
}

/// `sum_k a_k b_k` in a fixed order independent of SIMD width: four partial sums over
/// `k = 0, 1, 2, 3 (mod 4)` in index order, combined as `(s0 + s1) + (s2 + s3)`, then the tail.
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut s = [0.0f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ta, tb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        s[0] += x[0] * y[0];
        s[1] += x[1] * y[1];
        s[2] += x[2] * y[2];
        s[3] += x[3] * y[3];
    }
    let mut total = (s[0] + s[1]) + (s[2] + s[3]);
    for (x, y) in ta.iter().zip(tb) {
        total += x * y;
    }
    total
}

/// Loss of one sequence, and (when `grads` is given) its gradients *added* to `gyt` and `gz`,
/// see the module documentation.
///
/// Layout: the decoder is passed transposed, `yt = Y^T` (`M x M` row-major, `yt[l * M + k] =
/// Y[k, l]`), and its gradient is accumulated transposed too (`gyt[l * M + k] += dL/dY[k, l]`), so
/// that every loop over the `M` outputs runs over contiguous memory: `o = sum_l g_l yt[l, :]`
/// (summed over the support in order), `gyt[l, :] += g_l delta`, `u_l = yt[l, :] . delta`
/// ([`dot`]). `z`, `gz`: `M x M` row-major. [`batch_loss`] takes the usual row-major `Y`.
#[allow(clippy::too_many_arguments)]
pub fn sequence_loss(
    yt: &[f64],
    z: &[f64],
    m: usize,
    query: usize,
    next: usize,
    support: &[usize],
    counts: &[f64],
    scratch: &mut ModelScratch,
    grads: Option<(&mut [f64], &mut [f64])>,
) -> f64 {
    let s_len = support.len();
    let ModelScratch { f, g, u, o } = scratch;
    let norm = attend(z, m, query, support, counts, f);
    for i in 0..s_len {
        g[i] = f[i] / norm;
    }
    // Output logits o = Y g (each o_k summed over the support in order) and their softmax.
    let o = &mut o[..m];
    o.iter_mut().for_each(|x| *x = 0.0);
    for (i, &l) in support.iter().enumerate() {
        let gi = g[i];
        for (ok, &yk) in o.iter_mut().zip(&yt[l * m..(l + 1) * m]) {
            *ok += yk * gi;
        }
    }
    let mut omax = f64::NEG_INFINITY;
    for &ok in o.iter() {
        if ok > omax {
            omax = ok;
        }
    }
    let oy = o[next] - omax;
    let mut sp = 0.0;
    for ok in o.iter_mut() {
        *ok = exp(*ok - omax);
        sp += *ok;
    }
    // -ln p_y = ln(sum_k e^{o_k - omax}) - (o_y - omax).
    let loss = libm::log(sp) - oy;
    let Some((gyt, gz)) = grads else {
        return loss;
    };
    // delta = p - e_y (in place of o); dY[:, l] += g_l delta; u_l = Y[:, l] . delta.
    for ok in o.iter_mut() {
        *ok /= sp;
    }
    o[next] -= 1.0;
    let delta = &*o;
    for (i, &l) in support.iter().enumerate() {
        let gi = g[i];
        for (gk, &dk) in gyt[l * m..(l + 1) * m].iter_mut().zip(delta) {
            *gk += dk * gi;
        }
        u[i] = dot(&yt[l * m..(l + 1) * m], delta);
    }
    // Through the normalisation g = f / ||f||, then the softmax of the query row of Z.
    let mut gu = 0.0;
    for i in 0..s_len {
        gu += g[i] * u[i];
    }
    let mut fv = 0.0;
    for i in 0..s_len {
        u[i] = (u[i] - g[i] * gu) / norm; // u now holds v = dL/df
        fv += f[i] * u[i];
    }
    let zrow = &mut gz[query * m..(query + 1) * m];
    for (i, &l) in support.iter().enumerate() {
        zrow[l] += f[i] * (u[i] - fv);
    }
    loss
}

/// Mean loss of `batch` and (when `grads` is given) the mean gradients written (not added) to
/// `gy`, `gz` (`M x M` row-major each, `gy[k * M + l] = dL/dY[k, l]`). `y`, `z`: `M x M`
/// row-major. For tests and analysis; the trainer accumulates the same sums in the same order.
pub fn batch_loss(y: &[f64], z: &[f64], m: usize, batch: &[Sequence], grads: Option<(&mut [f64], &mut [f64])>) -> f64 {
    let mut scratch = ModelScratch::new(m);
    let mut yt = vec![0.0; m * m];
    transpose(y, m, &mut yt);
    let inv = 1.0 / batch.len() as f64;
    let mut total = 0.0;
    match grads {
        None => {
            for s in batch {
                total += sequence_loss(&yt, z, m, s.query, s.next, &s.support, &s.counts, &mut scratch, None);
            }
        }
        Some((gy, gz)) => {
            let mut gyt = vec![0.0; m * m];
            gz.iter_mut().for_each(|x| *x = 0.0);
            for s in batch {
                total += sequence_loss(
                    &yt,
                    z,
                    m,
                    s.query,
                    s.next,
                    &s.support,
                    &s.counts,
                    &mut scratch,
                    Some((&mut gyt, &mut *gz)),
                );
            }
            transpose(&gyt, m, gy);
            gy.iter_mut().for_each(|x| *x *= inv);
            gz.iter_mut().for_each(|x| *x *= inv);
        }
    }
    total * inv
}
