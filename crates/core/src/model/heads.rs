//! One trained head's matrices in the clusters papers' convention (science.md §7): tokens as
//! column vectors, the score of head `h` is `x_iᵀ B_h x_j` and its value map `V_h`.
//!
//! Layer `L` (1-based), head `h` (0-based), `d_k = d_model / heads`, rows
//! `r = h d_k .. (h+1) d_k` of the weights as the file stores them (`[out, in]`, `y = x Wᵀ + b`):
//! `W_q = query.weight[r, :]`, `W_k`, `W_v` the same from `key` and `value` (each `d_k x d_model`),
//! `W_o = attention.output.dense.weight[:, r]` (`d_model x d_k`). Then
//!
//! ```text
//! B_h = W_qᵀ W_k / sqrt(d_k)      S_h = (B_h + B_hᵀ) / 2      V_h = W_o W_v
//! ```
//!
//! in `f64` from the `f32` weights, biases left out (as the authors' notebook does). Every sum is a
//! plain loop in a fixed order: the same bits natively and in wasm.

use super::config::BertConfig;
use super::weights::BertWeights;

/// One head's weight slices in `f64` (row-major).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadMatrices {
    /// `d_model`.
    pub d: usize,
    /// `d_k`, the head's width.
    pub dk: usize,
    /// `W_q`, `d_k x d_model`.
    pub wq: Vec<f64>,
    /// `W_k`, `d_k x d_model`.
    pub wk: Vec<f64>,
    /// `W_v`, `d_k x d_model`.
    pub wv: Vec<f64>,
    /// `W_o`, `d_model x d_k`.
    pub wo: Vec<f64>,
}

/// The slices of head `head` (0-based) of layer `layer` (1-based); `None` when either is out of
/// range.
pub fn head_matrices(c: &BertConfig, w: &BertWeights, layer: usize, head: usize) -> Option<HeadMatrices> {
    let lw = w.layers.get(layer.checked_sub(1)?)?;
    if head >= c.heads {
        return None;
    }
    let (d, dk) = (c.hidden, c.d_head());
    // The stacked `W_QKV` (`3d x d`): the query rows first, then the keys', then the values'.
    let rows = |block: usize| -> Vec<f64> {
        let mut out = Vec::with_capacity(dk * d);
        for r in 0..dk {
            let row = block * d + head * dk + r;
            out.extend((0..d).map(|col| lw.qkv.w.get(row, col) as f64));
        }
        out
    };
    let mut wo = Vec::with_capacity(d * dk);
    for a in 0..d {
        wo.extend((0..dk).map(|r| lw.output_raw[a * d + head * dk + r] as f64));
    }
    Some(HeadMatrices { d, dk, wq: rows(0), wk: rows(1), wv: rows(2), wo })
}

/// `sum_k a[k] b[k]` in increasing `k`.
fn dot(a: impl Iterator<Item = f64>, b: impl Iterator<Item = f64>) -> f64 {
    a.zip(b).fold(0.0, |s, (x, y)| s + x * y)
}

impl HeadMatrices {
    /// `B_h = W_qᵀ W_k / sqrt(d_k)` (`d x d`): entry `(a, b) = sum_r W_q[r, a] W_k[r, b] / sqrt(d_k)`.
    pub fn bilinear(&self) -> Vec<f64> {
        let (d, dk) = (self.d, self.dk);
        let scale = (dk as f64).sqrt();
        let mut out = vec![0.0; d * d];
        for a in 0..d {
            for b in 0..d {
                out[a * d + b] = dot((0..dk).map(|r| self.wq[r * d + a]), (0..dk).map(|r| self.wk[r * d + b])) / scale;
            }
        }
        out
    }

    /// `S_h = (B_h + B_hᵀ) / 2` (`d x d`, exactly symmetric).
    pub fn symmetric(&self) -> Vec<f64> {
        let d = self.d;
        let b = self.bilinear();
        let mut out = vec![0.0; d * d];
        for i in 0..d {
            for j in 0..d {
                out[i * d + j] = 0.5 * (b[i * d + j] + b[j * d + i]);
            }
        }
        out
    }

    /// `V_h = W_o W_v` (`d x d`): entry `(a, b) = sum_r W_o[a, r] W_v[r, b]`.
    pub fn value(&self) -> Vec<f64> {
        let (d, dk) = (self.d, self.dk);
        let mut out = vec![0.0; d * d];
        for a in 0..d {
            for b in 0..d {
                out[a * d + b] =
                    dot(self.wo[a * dk..(a + 1) * dk].iter().copied(), (0..dk).map(|r| self.wv[r * d + b]));
            }
        }
        out
    }

    /// `M = W_v W_o` (`d_k x d_k`), whose eigenvalues are `V_h`'s nonzero ones.
    pub fn value_core(&self) -> Vec<f64> {
        let (d, dk) = (self.d, self.dk);
        let mut out = vec![0.0; dk * dk];
        for r in 0..dk {
            for s in 0..dk {
                out[r * dk + s] = dot(self.wv[r * d..(r + 1) * d].iter().copied(), (0..d).map(|a| self.wo[a * dk + s]));
            }
        }
        out
    }

    /// `½ [W_k; W_q] [W_qᵀ W_kᵀ] / sqrt(d_k)` (`2d_k x 2d_k`): since
    /// `S_h = ½ [W_qᵀ W_kᵀ] [W_k; W_q] / sqrt(d_k)`, its eigenvalues are `S_h`'s nonzero ones.
    pub fn symmetric_core(&self) -> Vec<f64> {
        let (d, dk) = (self.d, self.dk);
        let m = 2 * dk;
        let scale = (dk as f64).sqrt();
        // Row i of [W_k; W_q] and column j of [W_qᵀ W_kᵀ] (row j of [W_q; W_k]).
        let left =
            |i: usize| if i < dk { &self.wk[i * d..(i + 1) * d] } else { &self.wq[(i - dk) * d..(i - dk + 1) * d] };
        let right =
            |j: usize| if j < dk { &self.wq[j * d..(j + 1) * d] } else { &self.wk[(j - dk) * d..(j - dk + 1) * d] };
        let mut out = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                out[i * m + j] = 0.5 * dot(left(i).iter().copied(), right(j).iter().copied()) / scale;
            }
        }
        out
    }
}
