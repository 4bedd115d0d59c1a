//! Velocity fields of the particle models (science.md §1 and §2) and the attention matrix `P`.
//!
//! One [`Field`] evaluates, for a state (`n x d`, row-major), either the velocity of every token
//! or the attention matrix. Scores are `s_ij = <Q y_i, K y_j>` and each row of `P` is computed as
//! `exp(c (s_ij - max_k s_ik)) / sum`, so `P` stays finite however large the scores grow
//! (science.md, "Overflow"). The Euclidean model in `z` keeps the growth of `exp(tV) = e^s M`
//! apart: `y = M z` and `c = beta e^{2s}`; when `c` itself overflows, the hardmax limit is used
//! (uniform over the row's maximal scores). Nothing here allocates after [`Field::new`].

pub mod low_rank;
pub(crate) mod rows;

use super::config::{Config, Model, Space};
use super::init::Matrices;
use crate::kernels::{self, KeyPanels, Shift, SumsScratch};
use crate::linalg::{apply_rows, expm_scaled_into};
use crate::run::Divergence;

pub use rows::{RowWeights, WeightExp};

/// Up to this token dimension the velocity is computed one row at a time with the scores fused
/// into one pass over the keys (in wasm at n = 4096, d = 3, RK4 the tiled kernels took 20-35%
/// longer); above it, with the tiled kernels of `crate::kernels`. Same bits either way.
pub const SMALL_D: usize = 3;

/// `exp(tV) = e^s M` cached for one time value.
#[derive(Clone, Debug)]
struct ExpSlot {
    t_bits: u64,
    m: Vec<f64>,
    s: f64,
    valid: bool,
}

/// The velocity field of one configuration, with its scratch memory.
#[derive(Clone, Debug)]
pub struct Field {
    model: Model,
    space: Space,
    n: usize,
    d: usize,
    beta: f64,
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    /// Queries `Q y_i`, coordinate-major (`d x n`; see `rows`).
    a: Vec<f64>,
    /// Keys `K y_j`, coordinate-major (`d x n`).
    b: Vec<f64>,
    /// Values `V y_j`, coordinate-major (`d x n`), `y` the integrated variable (x, or z).
    w: Vec<f64>,
    /// `M z` in the z model (`n x d`).
    y: Vec<f64>,
    /// Whether Q, K are the identity (their products are then skipped: same bits, less work).
    q_is_identity: bool,
    k_is_identity: bool,
    /// One row of unnormalised weights (`n`).
    e: Vec<f64>,
    /// The keys packed for the score kernel (`kernels::KeyPanels`).
    kp: KeyPanels<f64>,
    /// The queries of one block of rows, packed (`kernels::pack_queries`).
    qp: Vec<f64>,
    /// Scores, then unnormalised weights, of one block of rows (`RB x n`).
    s: Vec<f64>,
    /// The relative field's shifts `w_i` of one block of rows (`RB x d`).
    shift: Vec<f64>,
    /// Row factors of one block (`RB`).
    factor: Vec<f64>,
    /// The weighted sums' lane sums between token tiles (`kernels::SumsScratch`).
    sums: SumsScratch<f64>,
    w1: Vec<f64>,
    w2: Vec<f64>,
    slots: [ExpSlot; 3],
    next_slot: usize,
    /// Score factor `c` of the prepared state; infinite means hardmax.
    c: f64,
    /// The attention weights' exponential (the configuration's version).
    exp: WeightExp,
}

impl Field {
    /// The field of a validated configuration with resolved matrices.
    pub fn new(config: &Config, m: &Matrices) -> Field {
        let (n, d) = (config.n, config.d);
        let slot = ExpSlot { t_bits: 0, m: vec![0.0; d * d], s: 0.0, valid: false };
        let rb = kernels::shape::RB.min(n);
        // Sized once here, so stepping never allocates (packing reuses this memory).
        let mut kp = KeyPanels::default();
        kernels::pack_keys(n, d, |_, _| 0.0, &mut kp);
        let mut qp = Vec::new();
        kernels::pack_queries(rb.max(d), d, |_, _| 0.0, &mut qp);
        Field {
            model: config.model,
            space: config.integrate_in,
            n,
            d,
            beta: config.beta,
            q: m.q.clone(),
            k: m.k.clone(),
            v: m.v.clone(),
            a: vec![0.0; n * d],
            b: vec![0.0; n * d],
            w: vec![0.0; n * d],
            e: vec![0.0; n],
            kp,
            qp,
            s: vec![0.0; rb * n],
            shift: vec![0.0; rb * d],
            factor: vec![0.0; rb],
            sums: SumsScratch::sized(rb, d),
            y: vec![0.0; n * d],
            q_is_identity: crate::linalg::is_identity(&m.q, d),
            k_is_identity: crate::linalg::is_identity(&m.k, d),
            w1: vec![0.0; d * d],
            w2: vec![0.0; d * d],
            slots: [slot.clone(), slot.clone(), slot],
            next_slot: 0,
            c: config.beta,
            exp: WeightExp::of_version(config.version),
        }
    }

    /// `exp(tV) = e^s M` for the z model: returns the slot index holding `(M, s)`.
    fn expm_slot(&mut self, t: f64) -> usize {
        let bits = t.to_bits();
        if let Some(i) = self.slots.iter().position(|s| s.valid && s.t_bits == bits) {
            return i;
        }
        let i = self.next_slot;
        self.next_slot = (i + 1) % self.slots.len();
        let slot = &mut self.slots[i];
        slot.s = expm_scaled_into(&self.v, self.d, t, &mut slot.m, &mut self.w1, &mut self.w2);
        slot.t_bits = bits;
        slot.valid = true;
        i
    }

    /// Computes queries, keys and values of `state` at time `t` and the score factor.
    fn prepare(&mut self, t: f64, state: &[f64]) -> Result<(), Divergence> {
        let (n, d) = (self.n, self.d);
        if self.model == Model::Euclidean && self.space == Space::Z {
            let i = self.expm_slot(t);
            let (m, s) = (&self.slots[i].m, self.slots[i].s);
            // y = M z, then queries Q y and keys K y.
            apply_rows(m, state, n, d, &mut self.y);
            let (kp, qp) = (&mut self.kp, &mut self.qp);
            project_soa(&self.q, self.q_is_identity, &self.y, n, d, &mut self.a, kp, qp);
            project_soa(&self.k, self.k_is_identity, &self.y, n, d, &mut self.b, kp, qp);
            // c = beta e^{2s}; infinite (hardmax) once e^{2s} overflows.
            self.c = self.beta * crate::exp::exp(2.0 * s);
        } else {
            let (kp, qp) = (&mut self.kp, &mut self.qp);
            project_soa(&self.q, self.q_is_identity, state, n, d, &mut self.a, kp, qp);
            project_soa(&self.k, self.k_is_identity, state, n, d, &mut self.b, kp, qp);
            self.c = self.beta;
        }
        project_soa(&self.v, false, state, n, d, &mut self.w, &mut self.kp, &mut self.qp);
        let finite = |xs: &[f64]| xs.iter().all(|x| x.is_finite());
        if !finite(&self.a) || !finite(&self.b) || !finite(&self.w) {
            return Err(Divergence {
                message: "the queries, keys or values Q x, K x, V x overflowed (tokens too large for f64); use a smaller dt or beta, integrate in z, or stop earlier".into(),
            });
        }
        Ok(())
    }

    fn row(&mut self, i: usize) -> Result<RowWeights, Divergence> {
        rows::row_weights(&self.a, &self.b, self.n, self.d, i, self.c, self.exp, &mut self.e)
    }

    /// Writes the velocity of every token of `state` at time `t` into `out` (`n x d`).
    ///
    /// Euclidean x: `sum_j P_ij V x_j`; Euclidean z: `sum_j P_ij V (z_j - z_i)` (science.md §1);
    /// SA: `sum_j P_ij V x_j`, USA: `sum_j W_ij V x_j` (§2), projected onto the tangent space
    /// `Pi_{x_i}` when `projected` (the ODE; the retraction scheme uses the unprojected sum).
    pub fn velocity(&mut self, t: f64, state: &[f64], out: &mut [f64], projected: bool) -> Result<(), Divergence> {
        self.velocity_rows(t, state, 0, self.n, out, projected)?;
        check_velocity(out)
    }

    /// The velocity of tokens `lo..hi` only, into `out` (`(hi - lo) x d`, row-major): the rows a
    /// thread or a worker computes. Each row is computed exactly as in [`Field::velocity`], so
    /// any split of the rows gives the same bits. Errors from the rows (scores or USA weights
    /// overflowing) are returned; the finiteness of the assembled velocity is checked by the
    /// caller with [`check_velocity`]. Panics if `lo > hi` or `hi > n` (callers split `0..n`).
    pub fn velocity_rows(
        &mut self,
        t: f64,
        state: &[f64],
        lo: usize,
        hi: usize,
        out: &mut [f64],
        projected: bool,
    ) -> Result<(), Divergence> {
        self.prepare(t, state)?;
        if self.d <= SMALL_D {
            self.rows_streamed(state, lo, hi, out, projected, None)
        } else {
            self.rows_blocked(state, lo, hi, out, projected)
        }
    }

    /// [`Field::velocity_rows`] (the same bits) that also streams rows `lo..hi` of `P` at the
    /// same `t` and `state` to `visit` ([`Field::attention_rows_in`]'s bits): a worker's first
    /// stage of a step and the analyses of the state it starts from. For `d <= SMALL_D` each row
    /// of `P` is the weights just used for the velocity, normalised after them; otherwise the
    /// rows are computed again after the velocity.
    #[allow(clippy::too_many_arguments, reason = "velocity_rows' arguments and the visitor")]
    pub fn velocity_rows_visiting(
        &mut self,
        t: f64,
        state: &[f64],
        lo: usize,
        hi: usize,
        out: &mut [f64],
        projected: bool,
        visit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<(), Divergence> {
        if self.d > SMALL_D {
            self.velocity_rows(t, state, lo, hi, out, projected)?;
            return self.attention_rows_in(t, state, lo, hi, visit);
        }
        self.prepare(t, state)?;
        self.rows_streamed(state, lo, hi, out, projected, Some(visit))
    }

    /// [`Field::velocity_rows`] for `d <= SMALL_D`, one row at a time (the scores of a row in one
    /// fused pass over the keys, then its weighted sums; per-element order as in `kernels`).
    fn rows_streamed(
        &mut self,
        state: &[f64],
        lo: usize,
        hi: usize,
        out: &mut [f64],
        projected: bool,
        mut visit: Option<&mut RowVisitor>,
    ) -> Result<(), Divergence> {
        let (n, d) = (self.n, self.d);
        let relative = self.model == Model::Euclidean && self.space == Space::Z;
        for i in lo..hi {
            let rw = self.row(i)?;
            let factor = self.row_factor(rw)?;
            let oi = &mut out[(i - lo) * d..(i - lo + 1) * d];
            rows::weighted_sums(&self.e, &self.w, n, d, if relative { Some(i) } else { None }, oi);
            self.finish_row(state, i, factor, projected, oi);
            if let Some(visit) = visit.as_mut() {
                // Row i of P as attention_rows_in makes it (the weights are no longer needed).
                let inv = 1.0 / rw.sum;
                self.e[..n].iter_mut().for_each(|x| *x *= inv);
                visit(i, &self.e[..n]);
            }
        }
        Ok(())
    }

    /// [`Field::velocity_rows`] for `d > SMALL_D`: blocks of rows, the scores of a block at once
    /// (register- and cache-tiled), each row's softmax, then the block's weighted sums
    /// (science.md, "Matrix products"; the same bits as one row at a time).
    fn rows_blocked(
        &mut self,
        state: &[f64],
        lo: usize,
        hi: usize,
        out: &mut [f64],
        projected: bool,
    ) -> Result<(), Divergence> {
        let (n, d) = (self.n, self.d);
        let relative = self.model == Model::Euclidean && self.space == Space::Z;
        let b = &self.b;
        kernels::pack_keys(n, d, |j, c| b[c * n + j], &mut self.kp);
        let mut i0 = lo;
        while i0 < hi {
            let rb = kernels::shape::RB.min(hi - i0);
            let a = &self.a;
            kernels::pack_queries(rb, d, |r, c| a[c * n + i0 + r], &mut self.qp);
            kernels::scores_block(&self.qp, rb, &self.kp, &mut self.s);
            for r in 0..rb {
                let rw = rows::softmax_row(&mut self.s[r * n..(r + 1) * n], self.c, self.exp)?;
                self.factor[r] = self.row_factor(rw)?;
                if relative {
                    for c in 0..d {
                        self.shift[r * d + c] = self.w[c * n + i0 + r];
                    }
                }
            }
            let shift = if relative { Shift::Rows(&self.shift[..rb * d]) } else { Shift::None };
            let block = &mut out[(i0 - lo) * d..(i0 - lo + rb) * d];
            kernels::weighted_sums_block(&self.s, rb, &self.w, n, d, shift, block, &mut self.sums);
            for (r, oi) in block.chunks_exact_mut(d).enumerate() {
                self.finish_row(state, i0 + r, self.factor[r], projected, oi);
            }
            i0 += rb;
        }
        Ok(())
    }

    /// Scales row `i`'s weighted sums by its factor and, on the sphere with `projected`, projects
    /// them onto the tangent space at `x_i`.
    fn finish_row(&self, state: &[f64], i: usize, factor: f64, projected: bool, oi: &mut [f64]) {
        oi.iter_mut().for_each(|o| *o *= factor);
        if projected && self.model != Model::Euclidean {
            let d = self.d;
            crate::linalg::project_tangent(&state[i * d..(i + 1) * d], oi);
        }
    }

    /// The factor of a row of weights: `1 / sum` for `P`; for USA, whose weights are
    /// `W_ij = e^{beta m_i} e^{beta (s_ij - m_i)} / n`, `e^{beta m_i} / n` (an error when it
    /// overflows).
    fn row_factor(&self, rw: RowWeights) -> Result<f64, Divergence> {
        match self.model {
            Model::SphereUsa => {
                let g = crate::exp::exp(self.beta * rw.max_score);
                if !g.is_finite() {
                    return Err(Divergence {
                        message: format!(
                            "the USA weights W = exp(beta <Qx_i, Kx_j>) / n overflowed (beta x score = {:.4e}); use a smaller beta",
                            self.beta * rw.max_score
                        ),
                    });
                }
                Ok(g / self.n as f64)
            }
            _ => Ok(1.0 / rw.sum),
        }
    }

    /// Writes the attention matrix `P` of `state` at time `t` into `out` (`n x n`, row-major,
    /// row-stochastic). For USA this is `W` row-normalised, which equals the softmax `P`.
    pub fn attention(&mut self, t: f64, state: &[f64], out: &mut [f64]) -> Result<(), Divergence> {
        let n = self.n;
        self.attention_rows(t, state, &mut |i, row| out[i * n..(i + 1) * n].copy_from_slice(row))
    }

    /// Row `i` of `P` into `out` (length `n`), as [`Field::attention`] computes it (same bits);
    /// O(n d^2 + n d). Panics if `i >= n`.
    pub fn attention_row(&mut self, t: f64, state: &[f64], i: usize, out: &mut [f64]) -> Result<(), Divergence> {
        self.prepare(t, state)?;
        let n = self.n;
        let rw = self.row(i)?;
        let inv = 1.0 / rw.sum;
        for (o, &x) in out[..n].iter_mut().zip(&self.e[..n]) {
            *o = x * inv;
        }
        Ok(())
    }

    /// Streams the rows of `P` (as [`Field::attention`] computes them, same bits): `visit(i, row)`
    /// for `i = 0..n` in order, `row` of length `n`, without ever storing `P` (memory O(n)).
    pub fn attention_rows(
        &mut self,
        t: f64,
        state: &[f64],
        visit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<(), Divergence> {
        self.attention_rows_in(t, state, 0, self.n, visit)
    }

    /// [`Field::attention_rows`] for rows `lo..hi` only (`visit(i, row)` for `i = lo..hi` in
    /// order; the same bits): the rows a worker analyses. Panics if `lo > hi` or `hi > n`.
    pub fn attention_rows_in(
        &mut self,
        t: f64,
        state: &[f64],
        lo: usize,
        hi: usize,
        visit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<(), Divergence> {
        assert!(lo <= hi && hi <= self.n, "rows {lo}..{hi} of {}", self.n);
        self.prepare(t, state)?;
        let n = self.n;
        for i in lo..hi {
            let rw = self.row(i)?;
            let inv = 1.0 / rw.sum;
            self.e[..n].iter_mut().for_each(|x| *x *= inv);
            visit(i, &self.e[..n]);
        }
        Ok(())
    }

    /// The rescaling `exp(tV) = e^s M` at time `t` (`M` into `out`, `d x d`); returns `s`.
    /// With `negate`, `exp(-tV)` instead.
    pub fn exp_tv(&mut self, t: f64, negate: bool, out: &mut [f64]) -> f64 {
        let tt = if negate { -t } else { t };
        expm_scaled_into(&self.v, self.d, tt, out, &mut self.w1, &mut self.w2)
    }
}

/// What receives the rows of `P` streamed by the field: `visit(i, row)`.
pub type RowVisitor<'a> = dyn FnMut(usize, &[f64]) + 'a;

/// The check after a velocity evaluation: every entry finite, else the divergence the user sees.
pub fn check_velocity(v: &[f64]) -> Result<(), Divergence> {
    if v.iter().any(|x| !x.is_finite()) {
        return Err(Divergence { message: "the velocity overflowed; use a smaller dt or beta".into() });
    }
    Ok(())
}

/// `A x_i` for every token `x_i` of `x` (`n x d`, row-major), written coordinate-major:
/// `out[r * n + i] = sum_c A_rc x_ic` (`c` in increasing order): the score kernel with the rows of
/// `A` as queries and the tokens as keys (`kp`, `qp` its scratch). When `identity`, a transposed
/// copy (identical bits: each product would add exact zeros to `1 * x_ir`).
#[allow(clippy::too_many_arguments)]
fn project_soa(
    a: &[f64],
    identity: bool,
    x: &[f64],
    n: usize,
    d: usize,
    out: &mut [f64],
    kp: &mut KeyPanels<f64>,
    qp: &mut Vec<f64>,
) {
    if identity {
        for i in 0..n {
            for r in 0..d {
                out[r * n + i] = x[i * d + r];
            }
        }
        return;
    }
    kernels::pack_keys(n, d, |i, c| x[i * d + c], kp);
    kernels::pack_queries(d, d, |r, c| a[r * d + c], qp);
    kernels::scores_block(qp, d, kp, out);
}

/// Rows `lo..hi` of block `b` of `blocks` over `n` tokens (sizes differ by at most one): how one
/// velocity evaluation is split over the CLI's threads and the page's workers (each block goes
/// to [`Field::velocity_rows`]; the split never changes a bit).
pub fn row_block(n: usize, blocks: usize, b: usize) -> (usize, usize) {
    let blocks = blocks.max(1);
    (b * n / blocks, (b + 1) * n / blocks)
}
