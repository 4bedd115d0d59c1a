//! The velocity field of §1.1 / §2.1 in low-rank form (science.md §7.6): one trained head as a
//! particle system, `dx_i/dt = sum_j P_ij V_h x_j` with `P_ij = softmax_j(x_iᵀ A x_j)` (beta = 1),
//! `A = S_h = (B_h + B_hᵀ)/2` (`sym`) or `B_h = W_qᵀ W_k / sqrt(d_k)` (`raw`), `V_h = W_o W_v`.
//!
//! Nothing `d x d` is ever formed: the tokens are projected by the factors (`q_i = W_q x_i`,
//! `k_i = W_k x_i`, `u_i = W_v x_i`, each `d_k`), the scores are `q_i · k_j / sqrt(d_k)` (`raw`)
//! or `½ (q_i · k_j + k_i · q_j) / sqrt(d_k)` (`sym`, one dot product of `[q_i; k_i]` with
//! `[k_j; q_j]`), and the velocity is `W_o (sum_j P_ij u_j)`: O(n d d_k + n² d_k) per evaluation.
//! The softmax is the particle lab's ([`super::rows::softmax_row`], the rational exponential of
//! today's links); every sum runs in a fixed order (the projections over the features in
//! increasing order, the scores over the score coordinates in increasing order, the weighted
//! sums in the lane order of [`super::rows`]): the same bits natively and in wasm. The scores
//! and the weighted sums of all rows run on the shared tiles ([`crate::kernels::scores_block`],
//! [`crate::kernels::weighted_sums_block`]), which add in those orders. The particle lab's own
//! dense [`super::Field`] is untouched.
//!
//! On the sphere of radius `R` (§2.1 SA) the velocity is projected onto the tangent space at
//! `x_i`, `v - (<x_i, v> / |x_i|²) x_i`.

use super::rows::{softmax_row, WeightExp};
use crate::kernels::{self, KeyPanels, Shift, SumsScratch};
use crate::linalg::rows_times;
use crate::run::Divergence;

crate::named_enum! {
    /// Which bilinear form scores a head's tokens (the model lab's key `bilinear`).
    pub enum Bilinear {
        /// `S_h = (B_h + B_hᵀ) / 2`, the clusters papers' symmetric form (the authors' notebook's `B_m`).
        Sym = "sym",
        /// `B_h = W_qᵀ W_k / sqrt(d_k)` itself, the trained model's own scores without biases.
        Raw = "raw",
    }
}

/// One head's factors, row-major `f64`: `W_q`, `W_k`, `W_v` (`d_k x d`) and `W_o` (`d x d_k`).
#[derive(Clone, Copy, Debug)]
pub struct Factors<'a> {
    /// `d`, the token dimension.
    pub d: usize,
    /// `d_k`, the head's width.
    pub dk: usize,
    /// `W_q`, `d_k x d`.
    pub wq: &'a [f64],
    /// `W_k`, `d_k x d`.
    pub wk: &'a [f64],
    /// `W_v`, `d_k x d`.
    pub wv: &'a [f64],
    /// `W_o`, `d x d_k`.
    pub wo: &'a [f64],
}

/// The low-rank velocity field of one head over `n` tokens, with its scratch memory (nothing is
/// allocated after the first evaluation).
#[derive(Clone, Debug)]
pub struct LowRankField {
    n: usize,
    d: usize,
    dk: usize,
    bilinear: Bilinear,
    /// `[W_q; W_k; W_v]ᵀ`, `d x 3d_k`: row `c` holds column `c` of the three factors.
    wt: Vec<f64>,
    /// `W_oᵀ`, `d_k x d`.
    wo_t: Vec<f64>,
    /// The score factor: `1/sqrt(d_k)` (`raw`) or `½/sqrt(d_k)` (`sym`).
    c: f64,
    /// Each token's projections `[q_i; k_i; u_i]` (`n x 3d_k`).
    p: Vec<f64>,
    /// The values `u_j`, coordinate-major (`d_k x n`).
    u: Vec<f64>,
    /// The score sides packed for the scores kernel, read from `p`: the queries `q_i` (`raw`)
    /// or `[q_i; k_i]` (`sym`), the keys `k_j` or `[k_j; q_j]`.
    packed_q: Vec<f64>,
    packed_k: KeyPanels<f64>,
    /// Every row's scores, then its unnormalised weights (`n x n`, row-major).
    s: Vec<f64>,
    /// Each row's `1 / sum_j e_ij` (`n`).
    inv: Vec<f64>,
    /// `sum_j e_ij u_j` of every row (`n x d_k`, row-major), and the kernel's working memory.
    g: Vec<f64>,
    sums: SumsScratch<f64>,
}

impl LowRankField {
    /// The field of head `f` on `n` tokens under `bilinear`.
    pub fn new(f: Factors, bilinear: Bilinear, n: usize) -> LowRankField {
        let (d, dk) = (f.d, f.dk);
        let mut wt = vec![0.0; d * 3 * dk];
        for (k, w) in [f.wq, f.wk, f.wv].into_iter().enumerate() {
            for r in 0..dk {
                for c in 0..d {
                    wt[c * 3 * dk + k * dk + r] = w[r * d + c];
                }
            }
        }
        let mut wo_t = vec![0.0; dk * d];
        for a in 0..d {
            for r in 0..dk {
                wo_t[r * d + a] = f.wo[a * dk + r];
            }
        }
        let scale = 1.0 / (dk as f64).sqrt();
        LowRankField {
            n,
            d,
            dk,
            bilinear,
            wt,
            wo_t,
            c: if bilinear == Bilinear::Sym { 0.5 * scale } else { scale },
            p: vec![0.0; n * 3 * dk],
            u: vec![0.0; dk * n],
            packed_q: Vec::new(),
            packed_k: KeyPanels::default(),
            s: vec![0.0; n * n],
            inv: vec![0.0; n],
            g: vec![0.0; n * dk],
            sums: SumsScratch::sized(n, dk),
        }
    }

    /// Tokens `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Projects the tokens of `state` (`n x d`) by the factors and lays out the values
    /// coordinate-major (module documentation).
    fn prepare(&mut self, state: &[f64]) -> Result<(), Divergence> {
        let (n, d, dk) = (self.n, self.d, self.dk);
        let w3 = 3 * dk;
        rows_times(state, d, &self.wt, w3, n, d, w3, &mut self.p);
        if self.p.iter().any(|x| !x.is_finite()) {
            return Err(Divergence {
                message: "the projections W_q x, W_k x, W_v x overflowed (tokens too large for f64)".into(),
            });
        }
        for i in 0..n {
            let pi = &self.p[i * w3..(i + 1) * w3];
            for r in 0..dk {
                self.u[r * n + i] = pi[2 * dk + r];
            }
        }
        Ok(())
    }

    /// Every row's unnormalised weights into `self.s` and `1 / sum` into `self.inv`: the scores
    /// `s_ij = sum_r a_ir b_jr` (`r` in increasing order, the scores kernel; `a_i = q_i`,
    /// `b_j = k_j` for `raw`, `a_i = [q_i; k_i]`, `b_j = [k_j; q_j]` for `sym`), then each row's
    /// softmax.
    fn weights(&mut self) -> Result<(), Divergence> {
        let n = self.n;
        if n == 0 {
            return Ok(());
        }
        let (dk, p) = (self.dk, &self.p);
        let m = if self.bilinear == Bilinear::Sym { 2 * dk } else { dk };
        // In `p`'s row `[q; k; u]`, `a_i` starts at `q_i` and `b_j` at `k_j`, wrapping to `q_j`.
        kernels::pack_queries(n, m, |i, r| p[i * 3 * dk + r], &mut self.packed_q);
        kernels::pack_keys(n, m, |j, r| p[j * 3 * dk + (dk + r) % (2 * dk)], &mut self.packed_k);
        kernels::scores_block(&self.packed_q, n, &self.packed_k, &mut self.s);
        for (row, inv) in self.s.chunks_exact_mut(n).zip(self.inv.iter_mut()) {
            let rw = softmax_row(row, self.c, WeightExp::Rational).map_err(|_| Divergence {
                message:
                    "the scores x_iᵀ A x_j overflowed (tokens too large for f64); use a smaller dt or stop earlier"
                        .into(),
            })?;
            *inv = 1.0 / rw.sum;
        }
        Ok(())
    }

    /// The velocity of every token of `state` (`n x d`) into `out` (`n x d`): `sum_j P_ij V_h x_j`,
    /// projected onto the tangent space at `x_i` when `tangent` (§2.1 SA). Errors when a
    /// projection, a score or the velocity is not finite.
    pub fn velocity(&mut self, state: &[f64], out: &mut [f64], tangent: bool) -> Result<(), Divergence> {
        let (n, d, dk) = (self.n, self.d, self.dk);
        self.prepare(state)?;
        self.weights()?;
        kernels::weighted_sums_block(&self.s, n, &self.u, n, dk, Shift::None, &mut self.g, &mut self.sums);
        for (gi, &inv) in self.g.chunks_exact_mut(dk.max(1)).zip(&self.inv) {
            gi.iter_mut().for_each(|g| *g *= inv);
        }
        self.output_of(&self.g, out, n);
        if tangent {
            for (xi, oi) in state.chunks_exact(d.max(1)).zip(out.chunks_exact_mut(d.max(1))).take(n) {
                project_tangent_scaled(xi, oi);
            }
        }
        super::check_velocity(out)
    }

    /// `u_i = W_v x_i` of every token of `state` (`n x d`) into `out` (`n x d_k`).
    pub fn values(&self, state: &[f64], out: &mut [f64]) {
        let (n, d, dk) = (self.n, self.d, self.dk);
        rows_times(state, d, &self.wt[2 * dk..], 3 * dk, n, d, dk, out);
    }

    /// `W_o g_i` of `rows` rows `g` (`rows x d_k`) into `out` (`rows x d`).
    pub fn output_of(&self, g: &[f64], out: &mut [f64], rows: usize) {
        rows_times(g, self.dk, &self.wo_t, self.d, rows, self.dk, self.d, out);
    }

    /// Streams the rows of `P` of `state`: `visit(i, row)` for `i = 0..n` in order.
    pub fn attention_rows(&mut self, state: &[f64], visit: &mut dyn FnMut(usize, &[f64])) -> Result<(), Divergence> {
        let n = self.n.max(1);
        self.prepare(state)?;
        self.weights()?;
        for (i, (row, &inv)) in self.s.chunks_exact_mut(n).zip(&self.inv).enumerate() {
            row.iter_mut().for_each(|x| *x *= inv);
            visit(i, row);
        }
        Ok(())
    }
}

/// `v <- v - (<x, v> / <x, x>) x`: the projection onto the tangent space at `x` of the sphere
/// of radius `|x|` (§2.1; [`crate::linalg::project_tangent`] for a unit `x`), each sum over the
/// coordinates in increasing order. A zero `x` leaves `v` as it is.
pub fn project_tangent_scaled(x: &[f64], v: &mut [f64]) {
    let (mut xv, mut xx) = (0.0, 0.0);
    for (a, b) in x.iter().zip(v.iter()) {
        xv += a * b;
        xx += a * a;
    }
    if xx == 0.0 {
        return;
    }
    let f = xv / xx;
    for (vc, xc) in v.iter_mut().zip(x) {
        *vc -= f * xc;
    }
}

/// `F(t) = sum_{k>=1} t^k M^(k-1) / k!` (`d_k x d_k`) for `M = W_v W_o`, so that
/// `exp(t V_h) = I + W_o F(t) W_v` (science.md §7.6): the top right block of the exponential of
/// the `2d_k x 2d_k` block matrix `t [[M, I], [0, 0]]` (its powers are `[[M^k, M^(k-1)], [0, 0]]`),
/// from the particle lab's [`crate::linalg::expm_scaled`] (scaling, a degree-18 Taylor polynomial,
/// squarings), its factored-out growth `e^s` multiplied back in (non-finite entries once that
/// overflows).
pub fn value_exp_factor(m: &[f64], dk: usize, t: f64) -> Vec<f64> {
    let w = 2 * dk;
    let mut block = vec![0.0; w * w];
    for r in 0..dk {
        block[r * w..r * w + dk].copy_from_slice(&m[r * dk..(r + 1) * dk]);
        block[r * w + dk + r] = 1.0;
    }
    let (e, s) = crate::linalg::expm_scaled(&block, w, t);
    let g = crate::exp::exp(s);
    let mut f = vec![0.0; dk * dk];
    for r in 0..dk {
        for c in 0..dk {
            f[r * dk + c] = g * e[r * w + dk + c];
        }
    }
    f
}
