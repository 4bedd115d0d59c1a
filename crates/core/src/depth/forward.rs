//! The forward pass of the stack (science.md §3), keeping per layer the hidden state, every
//! head's attention matrix and every head's output before `W_O`.
//!
//! One layer maps `X` (`n x d_model`, tokens as rows) to `Y`:
//!
//! ```text
//! attention sublayer:  A = SA(LN_pre(X))                      SA(Z) = concat_h(P_h Z W_V^h) W_O (+ b_O)
//!                      Y = LN_post(X + A)   (skip)   or   LN_post(A)   (no skip)
//! MLP sublayer:        M = act(LN_pre(Y) W_1 + b_1) W_2 + b_2
//!                      Y = LN_post(Y + M)   (mlp_residual)   or   LN_post(M)
//! ```
//!
//! where `LN_pre` is LayerNorm for `layernorm=pre` and the identity otherwise, `LN_post` likewise
//! for `post`, and `P_h = softmax_rows(Q_h K_h^T / sqrt(d_head))` with `Q_h = Z W_Q^h (+ b)`,
//! `K_h = Z W_K^h (+ b)` (rows max-subtracted before `exp`). LayerNorm normalises each token over
//! its `d_model` features, `(x - mean) / sqrt(var + 1e-12)` (BERT's epsilon, no gain or bias:
//! their initial values 1 and 0). Pre-LN has no final LayerNorm after the last layer.

use super::config::{Activation, Block, DepthConfig, LayerNorm};
use super::weights::{LayerWeights, Mlp, WeightStore};
use super::{products, Real};
use crate::exp::{map_in_lanes, ExpConstants};
use crate::kernels::{self, KeyPanels, Shift};
use nalgebra::DMatrix;
use std::borrow::Cow;

/// LayerNorm's epsilon (BERT's).
pub const LN_EPS: f64 = 1e-12;

/// What one layer leaves behind (layer `l`, mapping `X_{l-1}` to `X_l`).
#[derive(Clone, Debug)]
pub struct LayerRecord<T: Real> {
    /// Every head's `P` (`n x n`, row-major), head after head: head `h` at `h n^2 ..`.
    pub attention: Vec<T>,
    /// The heads' outputs before `W_O`, `O_h = P_h V_h`, side by side: `n x H d_head`, head `h`
    /// in columns `h d_head .. (h + 1) d_head` (nalgebra, column-major).
    pub head_outputs: DMatrix<T>,
    /// `1 / sqrt(var_i + eps)` of the attention sublayer's LayerNorm for each token (pre: of the
    /// layer input; post: of `X + A` or `A`); empty without LayerNorm. Used by [`super::paths`].
    pub ln_scale: Vec<T>,
}

/// The forward pass of one variant.
#[derive(Clone, Debug)]
pub struct Forward<T: Real> {
    /// Number of tokens.
    pub n: usize,
    /// Heads per layer.
    pub heads: usize,
    /// Head width.
    pub d_head: usize,
    /// `X_0 .. X_L` (`n x d_model` each; fewer after an overflow).
    pub hidden: Vec<DMatrix<T>>,
    /// Records of layers `1 ..` (index `l - 1` for layer `l`).
    pub layers: Vec<LayerRecord<T>>,
    /// The first layer (1-based) whose output had a non-finite entry; the pass stopped there.
    pub overflow: Option<usize>,
}

impl<T: Real> Forward<T> {
    /// `X_l` (`l = 0` is the input) as `n x d_model` row-major `f64`.
    pub fn hidden_rows(&self, l: usize) -> Option<Vec<f64>> {
        self.hidden.get(l).map(rows_f64)
    }

    /// `P` of `head` in layer `l` (1-based), `n x n` row-major.
    pub fn attention(&self, l: usize, head: usize) -> Option<&[T]> {
        let n2 = self.n * self.n;
        let rec = self.layers.get(l.checked_sub(1)?)?;
        rec.attention.get(head * n2..(head + 1) * n2)
    }

    /// The output `O = P V` of `head` in layer `l` (1-based) before `W_O`, `n x d_head` row-major `f64`.
    pub fn head_output(&self, l: usize, head: usize) -> Option<Vec<f64>> {
        let rec = self.layers.get(l.checked_sub(1)?)?;
        if head >= self.heads {
            return None;
        }
        let dh = self.d_head;
        let mut out = vec![0.0; self.n * dh];
        for j in 0..dh {
            let col = rec.head_outputs.column(head * dh + j);
            for i in 0..self.n {
                out[i * dh + j] = col[i].widen();
            }
        }
        Some(out)
    }
}

/// A matrix as row-major `f64`.
pub fn rows_f64<T: Real>(m: &DMatrix<T>) -> Vec<f64> {
    let (r, c) = m.shape();
    let mut out = vec![0.0; r * c];
    for j in 0..c {
        for (i, v) in m.column(j).iter().enumerate() {
            out[i * c + j] = v.widen();
        }
    }
    out
}

/// A row-major `f64` matrix (`rows x cols`) in type `T`.
pub fn from_rows<T: Real>(x: &[f64], rows: usize, cols: usize) -> DMatrix<T> {
    DMatrix::from_fn(rows, cols, |i, j| T::lift(x[i * cols + j]))
}

/// Adds `b[j]` to column `j` (a bias on every token); nothing when `b` is empty.
fn add_bias<T: Real>(m: &mut DMatrix<T>, b: &[T]) {
    if b.is_empty() {
        return;
    }
    for (j, &bj) in b.iter().enumerate() {
        m.column_mut(j).iter_mut().for_each(|v| *v += bj);
    }
}

/// LayerNorm of every row in place; pushes each row's `1 / sqrt(var + eps)` onto `scales`.
pub fn layer_norm<T: Real>(m: &mut DMatrix<T>, scales: &mut Vec<T>) {
    let (n, d) = m.shape();
    let inv_d = T::lift(1.0 / d as f64);
    let mut mean = vec![T::zero(); n];
    for col in m.column_iter() {
        for (s, &v) in mean.iter_mut().zip(col.iter()) {
            *s += v;
        }
    }
    mean.iter_mut().for_each(|s| *s *= inv_d);
    let mut var = vec![T::zero(); n];
    for col in m.column_iter() {
        for ((s, &v), &mu) in var.iter_mut().zip(col.iter()).zip(&mean) {
            *s += (v - mu) * (v - mu);
        }
    }
    let eps = T::lift(LN_EPS);
    let inv: Vec<T> = var.iter().map(|&s| T::one() / (s * inv_d + eps).sqrt()).collect();
    for mut col in m.column_iter_mut() {
        for ((v, &mu), &r) in col.iter_mut().zip(&mean).zip(&inv) {
            *v = (*v - mu) * r;
        }
    }
    scales.extend_from_slice(&inv);
}

/// Softmax of every column of `s` after multiplying by `scale` (max-subtracted): each weight
/// `(v - max).exp_fixed()`, the sum in increasing row. The exponentials of a column run
/// [`EXP_LANES`] at a time on [`ExpConstants::weight`], which has `exp`'s bits for the
/// arguments a softmax has: a loop that vectorises, with each weight's arithmetic unchanged.
fn softmax_columns<T: Real>(s: &mut DMatrix<T>, scale: T) {
    let n = s.nrows();
    if n == 0 {
        return;
    }
    let k = ExpConstants::opaque();
    for col in s.as_mut_slice().chunks_exact_mut(n) {
        let mut max = T::lift(f64::NEG_INFINITY);
        for v in col.iter_mut() {
            *v *= scale;
            if *v > max {
                max = *v;
            }
        }
        map_in_lanes::<T, EXP_LANES>(col, |v| T::lift(k.weight((v - max).widen())));
        let mut sum = T::zero();
        for &v in col.iter() {
            sum += v;
        }
        let inv = T::one() / sum;
        col.iter_mut().for_each(|v| *v *= inv);
    }
}

/// Weights of a column of [`softmax_columns`] exponentiated together (speed only).
const EXP_LANES: usize = 8;

/// Multi-head self-attention of `z` (`n x d_model`): returns `SA(z)` (`n x d_model`) and the
/// heads' outputs before `W_O` (`n x H d_head`); appends each head's `P` (row-major) to `p_out`.
pub fn attention<T: Real>(
    z: &DMatrix<T>,
    w: &LayerWeights<T>,
    heads: usize,
    d_head: usize,
    p_out: &mut Vec<T>,
) -> (DMatrix<T>, DMatrix<T>) {
    let mut o = DMatrix::<T>::zeros(z.nrows(), heads * d_head);
    attend_heads(z, w, heads, d_head, 0..heads, &mut o, p_out);
    let out = output_columns(&o, w, 0..w.wo.ncols());
    (out, o)
}

/// Heads `range` (of `heads`) of multi-head attention on `z` (`n x d_model`): writes each head's
/// output `O_h = P_h V_h` into its columns of `o` (`n x H d_head`) and appends its `P_h`
/// (row-major) to `p_out`. Each entry is computed as for all heads at once (the products'
/// entries do not depend on which columns are computed with them).
pub fn attend_heads<T: Real>(
    z: &DMatrix<T>,
    w: &LayerWeights<T>,
    heads: usize,
    d_head: usize,
    range: std::ops::Range<usize>,
    o: &mut DMatrix<T>,
    p_out: &mut Vec<T>,
) {
    let n = z.nrows();
    let hd = heads * d_head;
    let (first, width) = (range.start * d_head, range.len() * d_head);
    // `Q, K` and `V` of the heads in `range` (`n x width` each; bias added when there is one).
    let project = |offset: usize| {
        let mut m = products::mul(z, &w.wqkv.columns(offset + first, width));
        if !w.bqkv.is_empty() {
            add_bias(&mut m, &w.bqkv[offset + first..offset + first + width]);
        }
        m
    };
    let (q, k, v) = (project(0), project(hd), project(2 * hd));
    let scale = T::lift(1.0 / (d_head as f64).sqrt());
    let mut st = DMatrix::<T>::zeros(n, n);
    let (mut qp, mut kp, mut oh) = (Vec::new(), KeyPanels::default(), vec![T::zero(); n * d_head]);
    for (t, h) in range.enumerate() {
        // Column `c` of a column-major matrix is `data[c n .. (c + 1) n]`: head `h` is the block
        // of `d_head` columns at `t d_head` in `q, k, v`, at `h d_head` in `o`.
        let block = t * d_head * n..(t + 1) * d_head * n;
        let (q, k, v) = (&q.as_slice()[block.clone()], &k.as_slice()[block.clone()], &v.as_slice()[block]);
        // Scores with the shared kernel (science.md, "Matrix products"): st's column-major data
        // is S row-major (column i holds query i's scores), so after the softmax it is P row-major.
        kernels::pack_queries(n, d_head, |i, c| q[c * n + i], &mut qp);
        kernels::pack_keys(n, d_head, |j, c| k[c * n + j], &mut kp);
        kernels::scores_block(&qp, n, &kp, st.as_mut_slice());
        softmax_columns(&mut st, scale);
        p_out.extend_from_slice(st.as_slice());
        // O_h = P V_h: `v` is V_h coordinate-major (`d_head x n`), as the kernel takes it.
        kernels::weighted_sums_block(
            st.as_slice(),
            n,
            v,
            n,
            d_head,
            Shift::None,
            &mut oh,
            &mut kernels::SumsScratch::default(),
        );
        let out = &mut o.as_mut_slice()[h * d_head * n..(h + 1) * d_head * n];
        for c in 0..d_head {
            for (i, x) in out[c * n..(c + 1) * n].iter_mut().enumerate() {
                *x = oh[i * d_head + c];
            }
        }
    }
}

/// Columns `cols` of `O W_O (+ b_O)` (`n x cols.len()`): the attention sublayer's output from
/// the heads' outputs `o` (`n x H d_head`), each entry as in the whole product.
pub fn output_columns<T: Real>(o: &DMatrix<T>, w: &LayerWeights<T>, cols: std::ops::Range<usize>) -> DMatrix<T> {
    let mut out = products::mul(o, &w.wo.columns(cols.start, cols.len()));
    if !w.bo.is_empty() {
        add_bias(&mut out, &w.bo[cols]);
    }
    out
}

/// `act(z W_1 + b_1) W_2 + b_2`.
pub fn mlp<T: Real>(z: &DMatrix<T>, m: &Mlp<T>, activation: Activation) -> DMatrix<T> {
    let mut h = products::mul(z, &m.w1);
    add_bias(&mut h, &m.b1);
    let half = T::lift(0.5);
    let inv_sqrt2 = T::lift(std::f64::consts::FRAC_1_SQRT_2);
    match activation {
        Activation::Relu => h.iter_mut().for_each(|v| {
            if *v < T::zero() {
                *v = T::zero()
            }
        }),
        Activation::Gelu => h.iter_mut().for_each(|v| *v = half * *v * (T::one() + (*v * inv_sqrt2).erf())),
        Activation::Tanh => h.iter_mut().for_each(|v| *v = v.tanh_fixed()),
    }
    let mut out = products::mul(&h, &m.w2);
    add_bias(&mut out, &m.b2);
    out
}

/// One layer: `X_{l-1}` to `X_l` and its record (module documentation). The MLP runs when
/// `block.mlp` and `w` holds MLP weights.
pub fn layer<T: Real>(
    x: &DMatrix<T>,
    w: &LayerWeights<T>,
    block: &Block,
    heads: usize,
    d_head: usize,
) -> (DMatrix<T>, LayerRecord<T>) {
    let n = x.nrows();
    let mut ln_scale = Vec::new();
    let mut attention_p = Vec::with_capacity(heads * n * n);
    let z = attention_input(x, block, &mut ln_scale);
    let (a, o) = attention(&z, w, heads, d_head, &mut attention_p);
    let y = after_attention(x, a, w, block, &mut ln_scale);
    (y, LayerRecord { attention: attention_p, head_outputs: o, ln_scale })
}

/// What a layer's attention sublayer reads: `LN_pre(x)` for `layernorm=pre` (its scales pushed
/// onto `ln_scale`), else `x` itself.
pub fn attention_input<'a, T: Real>(x: &'a DMatrix<T>, block: &Block, ln_scale: &mut Vec<T>) -> Cow<'a, DMatrix<T>> {
    if block.layernorm == LayerNorm::Pre {
        let mut z = x.clone();
        layer_norm(&mut z, ln_scale);
        Cow::Owned(z)
    } else {
        Cow::Borrowed(x)
    }
}

/// The rest of a layer after its attention sublayer's output `a`: the skip connection, the post
/// LayerNorm (its scales pushed onto `ln_scale`) and the MLP sublayer (module documentation).
pub fn after_attention<T: Real>(
    x: &DMatrix<T>,
    a: DMatrix<T>,
    w: &LayerWeights<T>,
    block: &Block,
    ln_scale: &mut Vec<T>,
) -> DMatrix<T> {
    let mut y = if block.skip { a + x } else { a };
    if block.layernorm == LayerNorm::Post {
        layer_norm(&mut y, ln_scale);
    }
    if let (true, Some(m)) = (block.mlp, w.mlp.as_ref()) {
        let out = if block.layernorm == LayerNorm::Pre {
            let mut z = y.clone();
            layer_norm(&mut z, &mut Vec::new());
            mlp(&z, m, block.activation)
        } else {
            mlp(&y, m, block.activation)
        };
        let mut z = if block.mlp_residual { out + &y } else { out };
        if block.layernorm == LayerNorm::Post {
            layer_norm(&mut z, &mut Vec::new());
        }
        y = z;
    }
    y
}

/// The forward pass of a validated configuration's stack with architecture `block` on `x0`
/// (`n x d_model`, row-major). Stops after the first layer whose output is not finite.
pub fn run<T: Real>(c: &DepthConfig, block: &Block, x0: &[f64], n: usize) -> Forward<T> {
    let mut store = WeightStore::<T>::new(c, block.mlp);
    let mut hidden = vec![from_rows::<T>(x0, n, c.d_model)];
    let mut layers = Vec::with_capacity(c.layers);
    let mut overflow = None;
    for l in 0..c.layers {
        let w = store.layer(l);
        let (y, rec) = layer(hidden.last().expect("input"), w, block, c.heads, c.d_head);
        let finite = y.iter().all(|v| v.is_finite());
        hidden.push(y);
        layers.push(rec);
        if !finite {
            overflow = Some(l + 1);
            break;
        }
    }
    Forward { n, heads: c.heads, d_head: c.d_head, hidden, layers, overflow }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`softmax_columns`] against the plain loop (`exp_fixed` per weight, summed as it goes).
    fn equals_the_plain_loop<T: Real>(lift: impl Fn(f64) -> T, bits: impl Fn(T) -> u64) {
        let mut r = crate::rng::Rng::new(13, 0);
        for &(rows, cols) in &[(1, 1), (5, 3), (8, 4), (37, 6), (128, 3)] {
            let mut s = DMatrix::<T>::from_fn(rows, cols, |_, _| lift(r.normal() * 6.0));
            if rows > 2 && cols > 2 {
                // Weights that underflow, a NaN, and a column with an infinity.
                s[(1, 0)] = lift(-1e4);
                s[(0, 1)] = lift(f64::NAN);
                s[(rows - 1, 2)] = lift(f64::INFINITY);
                s[(0, 2)] = lift(f64::NEG_INFINITY);
            }
            let scale = lift(0.125);
            let mut want = s.clone();
            for mut col in want.column_iter_mut() {
                let mut max = lift(f64::NEG_INFINITY);
                for v in col.iter_mut() {
                    *v *= scale;
                    if *v > max {
                        max = *v;
                    }
                }
                let mut sum = T::zero();
                for v in col.iter_mut() {
                    *v = (*v - max).exp_fixed();
                    sum += *v;
                }
                let inv = T::one() / sum;
                col.iter_mut().for_each(|v| *v *= inv);
            }
            softmax_columns(&mut s, scale);
            for (k, (&g, &w)) in s.iter().zip(want.iter()).enumerate() {
                assert_eq!(bits(g), bits(w), "{rows} x {cols}, entry {k}");
            }
        }
    }

    #[test]
    fn softmax_columns_equal_the_plain_loop_bit_for_bit() {
        equals_the_plain_loop(|x| x, f64::to_bits);
        equals_the_plain_loop(|x| x as f32, |v: f32| u64::from(v.to_bits()));
    }
}
