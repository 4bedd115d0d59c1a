//! The path view of a stack (science.md §3): with skip connections, `L` layers of `H` heads are a
//! sum over `(H + 1)^L` paths, each choosing at every layer the skip or one head.
//!
//! Path lengths: a path of length `k` goes through `k` heads; the share of such paths is
//! `C(L, k) H^k / (H + 1)^L` ([`path_shares`]).
//!
//! Exact decomposition. Without MLP and without biases, with the attention matrices `P_h` of the
//! forward pass held fixed, a layer is linear in its input: `X_l = [X_{l-1}] + sum_h P_h X_{l-1}
//! W^h` with `W^h = W_V^h W_O^h` (`d_model x d_model`), the bracket present with the skip. So
//! `X_L = sum over paths of P_path X_0 W_path`, `P_path` the product of the chosen `P_h` (identity
//! for a skip) and `W_path` that of the chosen `W^h`. LayerNorm is linear too once each token's
//! scale `s_i = 1 / sqrt(var_i + eps)` is held at its forward value: `LN(Y) = D Y C` with
//! `D = diag(s)` and `C = I - 1 1^T / d_model` (feature centring), applied to the attention input
//! (pre-LN) or to the layer output (post-LN). [`path_sums`] adds the paths of each length with the
//! recursion `S_l^(k) = [S_{l-1}^(k)] + A_l(S_{l-1}^(k-1))` (`O(L^2)` attention applications
//! instead of `(H + 1)^L`); [`explicit_path_sums`] enumerates the paths one by one (small stacks,
//! a test of both); either reproduces the forward output. Which lengths carry the output:
//! [`path_lengths`].

use super::config::{Block, DepthConfig, LayerNorm};
use super::forward::{rows_f64, Forward};
use super::rank::relative_residual;
use super::weights::WeightStore;
use super::{products, Real};
use crate::nan::null;
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

/// The share of paths of each length `k = 0..=L` among the `(H + 1)^L` paths:
/// `C(L, k) H^k / (H + 1)^L` (science.md §3), i.e. the binomial law with `p = H / (H + 1)`.
pub fn path_shares(layers: usize, heads: usize) -> Vec<f64> {
    let p = heads as f64 / (heads as f64 + 1.0);
    let q = 1.0 / (heads as f64 + 1.0);
    let mut binom = 1.0f64;
    (0..=layers)
        .map(|k| {
            if k > 0 {
                binom = binom * (layers + 1 - k) as f64 / k as f64;
            }
            binom * p.powi(k as i32) * q.powi((layers - k) as i32)
        })
        .collect()
}

/// What the paths of each length contribute to the output of a linear stack.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathLengths {
    /// `||S^(k)||_F`: Frobenius norm of the sum of all paths of length `k`, `k = 0..=L`.
    #[serde(deserialize_with = "null::list")]
    pub norms: Vec<f64>,
    /// The mean-centred relative residual of each `S^(k)` (0 for a zero sum): long paths are
    /// close to rank 1.
    #[serde(deserialize_with = "null::list")]
    pub relative_residuals: Vec<f64>,
    /// The share of paths of each length ([`path_shares`]).
    pub shares: Vec<f64>,
    /// `||sum_k S^(k) - X_L||_F / ||X_L||_F`: how exactly the paths reproduce the forward output.
    #[serde(deserialize_with = "null::one")]
    pub error: f64,
}

/// Why a stack has no exact path decomposition (None when it has one).
pub fn unsupported(c: &DepthConfig, block: &Block) -> Option<String> {
    if block.mlp {
        Some("the path decomposition needs a variant without MLP (the MLP is not linear)".into())
    } else if c.bias_scale != 0.0 {
        Some("the path decomposition needs bias_scale=0 (biases add terms outside the paths)".into())
    } else {
        None
    }
}

/// Frozen linear pieces of one layer: each head's `P_h`, the layer's `W_V` (all heads,
/// `d_model x H d_head`) and `W_O`, and the LayerNorm scales.
struct LinearLayer<T: Real> {
    p: Vec<DMatrix<T>>,
    wv: DMatrix<T>,
    wo: DMatrix<T>,
    d_head: usize,
    scale: Vec<T>,
}

fn linear_layers<T: Real>(c: &DepthConfig, fwd: &Forward<T>) -> Vec<LinearLayer<T>> {
    let mut store = WeightStore::<T>::new(c, false);
    let (n, hd) = (fwd.n, fwd.heads * fwd.d_head);
    (0..fwd.layers.len())
        .map(|l| {
            let w = store.layer(l);
            let rec = &fwd.layers[l];
            LinearLayer {
                p: (0..fwd.heads)
                    .map(|h| DMatrix::from_row_slice(n, n, &rec.attention[h * n * n..(h + 1) * n * n]))
                    .collect(),
                wv: w.wqkv.columns(2 * hd, hd).into_owned(),
                wo: w.wo.clone(),
                d_head: fwd.d_head,
                scale: rec.ln_scale.clone(),
            }
        })
        .collect()
}

/// `D Z C`: each row centred over its features, then scaled by its frozen LayerNorm scale.
fn frozen_ln<T: Real>(z: &DMatrix<T>, scale: &[T]) -> DMatrix<T> {
    let (n, d) = z.shape();
    let inv_d = T::lift(1.0 / d as f64);
    let mut out = z.clone();
    for i in 0..n {
        let mut mean = T::zero();
        for j in 0..d {
            mean += z[(i, j)];
        }
        mean *= inv_d;
        for j in 0..d {
            out[(i, j)] = (z[(i, j)] - mean) * scale[i];
        }
    }
    out
}

/// One head's term `P_h Z' W_V^h W_O^h` with `Z' = D Z C` under pre-LN, else `Z`.
fn head_term<T: Real>(layer: &LinearLayer<T>, h: usize, z: &DMatrix<T>, ln: LayerNorm) -> DMatrix<T> {
    let zin = if ln == LayerNorm::Pre { frozen_ln(z, &layer.scale) } else { z.clone() };
    let dh = layer.d_head;
    let zv = products::mul(&zin, &layer.wv.columns(h * dh, dh));
    products::mul(&products::mul(&layer.p[h], &zv), &layer.wo.rows(h * dh, dh))
}

/// The sum of all heads' terms, `A_l(Z) = concat_h(P_h Z' W_V^h) W_O`.
fn attention_terms<T: Real>(layer: &LinearLayer<T>, z: &DMatrix<T>, ln: LayerNorm) -> DMatrix<T> {
    let zin = if ln == LayerNorm::Pre { frozen_ln(z, &layer.scale) } else { z.clone() };
    let dh = layer.d_head;
    let zv = products::mul(&zin, &layer.wv);
    let mut o = DMatrix::<T>::zeros(z.nrows(), zv.ncols());
    for h in 0..layer.p.len() {
        o.columns_mut(h * dh, dh).copy_from(&products::mul(&layer.p[h], &zv.columns(h * dh, dh)));
    }
    products::mul(&o, &layer.wo)
}

fn check<T: Real>(c: &DepthConfig, block: &Block, fwd: &Forward<T>) -> Result<(), String> {
    if let Some(why) = unsupported(c, block) {
        return Err(why);
    }
    if fwd.overflow.is_some() || fwd.layers.len() != c.layers {
        return Err("the forward pass overflowed; there is no output to decompose".into());
    }
    Ok(())
}

/// The sums `S^(k)` of all paths of length `k = 0..=L` (each `n x d_model` row-major), by the
/// recursion of the module documentation, for the forward pass `fwd` of `c` with architecture
/// `block`. Errors (a message) for a stack with MLP or biases, or after an overflow.
pub fn path_sums<T: Real>(c: &DepthConfig, block: &Block, fwd: &Forward<T>) -> Result<Vec<Vec<f64>>, String> {
    check(c, block, fwd)?;
    let ln = block.layernorm;
    let layers = linear_layers(c, fwd);
    let (n, d) = (fwd.n, c.d_model);
    let zero = DMatrix::<T>::zeros(n, d);
    // sums[k] for the layers done so far; lengths above the layer count are zero.
    let mut sums: Vec<DMatrix<T>> = vec![fwd.hidden[0].clone()];
    for layer in &layers {
        let mut next = Vec::with_capacity(sums.len() + 1);
        for k in 0..=sums.len() {
            let mut s = if block.skip && k < sums.len() { sums[k].clone() } else { zero.clone() };
            if k >= 1 {
                s += attention_terms(layer, &sums[k - 1], ln);
            }
            if ln == LayerNorm::Post {
                s = frozen_ln(&s, &layer.scale);
            }
            next.push(s);
        }
        sums = next;
    }
    Ok(sums.iter().map(rows_f64).collect())
}

/// The same sums as [`path_sums`], path by path: every choice of skip or head at every layer,
/// `P_path X_0 W_path` (with the frozen LayerNorms in place), added into the sum of its length.
/// Refuses more than `max_paths` paths.
pub fn explicit_path_sums<T: Real>(
    c: &DepthConfig,
    block: &Block,
    fwd: &Forward<T>,
    max_paths: usize,
) -> Result<Vec<Vec<f64>>, String> {
    check(c, block, fwd)?;
    let choices = fwd.heads + 1;
    let count = (choices as f64).powi(c.layers as i32);
    if count > max_paths as f64 {
        return Err(format!("{} paths; at most {} are enumerated", count, max_paths));
    }
    let ln = block.layernorm;
    let layers = linear_layers(c, fwd);
    let (n, d) = (fwd.n, c.d_model);
    let mut sums = vec![vec![0.0; n * d]; c.layers + 1];
    let mut path = vec![0usize; c.layers];
    for _ in 0..count as usize {
        // path[l] = 0: the skip; h + 1: head h.
        if block.skip || path.iter().all(|&p| p > 0) {
            let mut z = fwd.hidden[0].clone();
            for (l, &choice) in path.iter().enumerate() {
                z = if choice == 0 { z } else { head_term(&layers[l], choice - 1, &z, ln) };
                if ln == LayerNorm::Post {
                    z = frozen_ln(&z, &layers[l].scale);
                }
            }
            let k = path.iter().filter(|&&p| p > 0).count();
            for (s, v) in sums[k].iter_mut().zip(rows_f64(&z)) {
                *s += v;
            }
        }
        for p in path.iter_mut() {
            *p += 1;
            if *p < choices {
                break;
            }
            *p = 0;
        }
    }
    Ok(sums)
}

fn frobenius(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Norms and residuals of the sums of paths of each length, and the decomposition error.
pub fn path_lengths<T: Real>(c: &DepthConfig, block: &Block, fwd: &Forward<T>) -> Result<PathLengths, String> {
    let sums = path_sums(c, block, fwd)?;
    let (n, d) = (fwd.n, c.d_model);
    let out = rows_f64(&fwd.hidden[c.layers]);
    let mut total = vec![0.0; n * d];
    for s in &sums {
        for (t, v) in total.iter_mut().zip(s) {
            *t += v;
        }
    }
    let diff: Vec<f64> = total.iter().zip(&out).map(|(a, b)| a - b).collect();
    let out_norm = frobenius(&out);
    Ok(PathLengths {
        norms: sums.iter().map(|s| frobenius(s)).collect(),
        relative_residuals: sums.iter().map(|s| relative_residual(s, n, d)).collect(),
        shares: path_shares(c.layers, c.heads),
        error: if out_norm > 0.0 { frobenius(&diff) / out_norm } else { frobenius(&diff) },
    })
}
