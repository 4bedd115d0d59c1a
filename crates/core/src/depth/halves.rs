//! One variant's forward pass computed in two halves side by side (two Web Workers, each with its
//! own wasm instance), ending with the same records as the whole pass ([`forward::run`]), bit for
//! bit.
//!
//! Half `k` (0 or 1) takes the heads [`part`]`(H, k)` and the columns [`part`]`(d_model, k)` of
//! `O W_O`. Each layer goes in three steps, the halves handing each other what they computed:
//!
//! ```text
//! half.heads()              -> its heads' O_h (columns of O) and P_h: sent to the other half
//! half.take_heads(theirs)   -> every head's O_h and P_h held; its columns of O W_O: sent
//! half.take_output(theirs)  -> SA(X) whole; skip, LayerNorm and MLP as in the whole pass: X_l
//! ```
//!
//! Every entry is the same sum in the same order as in the whole pass (a product's entries do
//! not depend on which columns are computed with them, [`forward::attend_heads`]), so after each
//! layer both halves hold the whole pass's `X_l`, every head's `P_h` and `O_h`. Only the heads'
//! weights are split (each head has its own PRNG stream); `W_O` and the MLP are generated whole
//! by both halves, the MLP is computed whole by both.

use super::config::{Block, DepthConfig};
use super::forward::{self, after_attention, attend_heads, attention_input, from_rows, Forward, LayerRecord};
use super::weights::{layer_weights_of_heads, LayerWeights};
use super::Real;
use nalgebra::DMatrix;
use std::ops::Range;

/// Half `k` (0 or 1) of `0..total`: the first `ceil(total / 2)` for half 0, the rest for half 1.
pub fn part(total: usize, k: usize) -> Range<usize> {
    let m = total.div_ceil(2);
    if k == 0 {
        0..m
    } else {
        m..total
    }
}

/// A layer between its steps: the attention input's LayerNorm scales, `O` and every head's `P`
/// (this half's filled, the other's once taken), and `SA(X)` once this half's columns are in.
#[derive(Clone, Debug)]
struct Pending<T: Real> {
    ln_scale: Vec<T>,
    o: DMatrix<T>,
    p: Vec<T>,
    a: Option<DMatrix<T>>,
}

/// One half of a variant's forward pass (module documentation).
#[derive(Clone, Debug)]
pub struct HalfRun<T: Real> {
    config: DepthConfig,
    block: Block,
    half: usize,
    forward: Forward<T>,
    weights: Option<(usize, LayerWeights<T>)>,
    pending: Option<Pending<T>>,
}

impl<T: Real> HalfRun<T> {
    /// Half `half` of the pass of a validated configuration's stack with architecture `block`
    /// on `x0` (`n x d_model`, row-major). Needs two heads at least, and `half` 0 or 1.
    pub fn new(c: &DepthConfig, block: &Block, x0: &[f64], n: usize, half: usize) -> Result<Self, String> {
        if half > 1 {
            return Err(format!("a pass has halves 0 and 1, not {half}"));
        }
        if c.heads < 2 || c.d_model < 2 {
            return Err("a pass in halves needs two heads and two features at least".into());
        }
        let forward = Forward {
            n,
            heads: c.heads,
            d_head: c.d_head,
            hidden: vec![from_rows::<T>(x0, n, c.d_model)],
            layers: Vec::with_capacity(c.layers),
            overflow: None,
        };
        Ok(HalfRun { config: c.clone(), block: *block, half, forward, weights: None, pending: None })
    }

    /// Whether every layer is done (or the pass stopped at an overflow).
    pub fn done(&self) -> bool {
        self.forward.overflow.is_some() || self.forward.layers.len() == self.config.layers
    }

    /// Step 1 of the next layer: this half's heads. Returns their `O_h` columns (`O`'s
    /// column-major data, `n x d_head` per head) then their `P_h` (row-major, head after head),
    /// for the other half; `None` when the pass is done.
    pub fn heads(&mut self) -> Option<Vec<T>> {
        if self.done() {
            return None;
        }
        let c = &self.config;
        let (n, heads, dh) = (self.forward.n, c.heads, c.d_head);
        let own = part(heads, self.half);
        let layer = if c.shared { 0 } else { self.forward.layers.len() };
        if self.weights.as_ref().map(|(l, _)| *l) != Some(layer) {
            self.weights = Some((layer, layer_weights_of_heads(c, layer, self.block.mlp, own.clone())));
        }
        let w = &self.weights.as_ref().expect("generated above").1;
        let x = self.forward.hidden.last().expect("the input at least");
        let mut ln_scale = Vec::new();
        let z = attention_input(x, &self.block, &mut ln_scale);
        let mut o = DMatrix::<T>::zeros(n, heads * dh);
        // Every head's `P` in place: the heads before this half's as zeros, then its own
        // (appended by `attend_heads`), then the rest as zeros.
        let mut p = vec![T::zero(); own.start * n * n];
        p.reserve(heads * n * n - p.len());
        attend_heads(&z, w, heads, dh, own.clone(), &mut o, &mut p);
        p.resize(heads * n * n, T::zero());
        let mut sent = o.as_slice()[own.start * dh * n..own.end * dh * n].to_vec();
        sent.extend_from_slice(&p[own.start * n * n..own.end * n * n]);
        self.pending = Some(Pending { ln_scale, o, p, a: None });
        Some(sent)
    }

    /// Step 2: the other half's heads (what its [`HalfRun::heads`] returned). Returns this half's
    /// columns of `O W_O (+ b_O)` (column-major, `n` per column) for the other half.
    pub fn take_heads(&mut self, theirs: &[T]) -> Result<Vec<T>, String> {
        let (n, heads, dh, d) = (self.forward.n, self.config.heads, self.config.d_head, self.config.d_model);
        let pending = match self.pending.as_mut() {
            Some(p) if p.a.is_none() => p,
            _ => return Err("take_heads: this half has no heads of a layer waiting".into()),
        };
        let other = part(heads, 1 - self.half);
        let (o_len, p_len) = (other.len() * dh * n, other.len() * n * n);
        if theirs.len() != o_len + p_len {
            return Err(format!("take_heads: {} values, not the {} of heads {other:?}", theirs.len(), o_len + p_len));
        }
        pending.o.as_mut_slice()[other.start * dh * n..other.end * dh * n].copy_from_slice(&theirs[..o_len]);
        pending.p[other.start * n * n..other.end * n * n].copy_from_slice(&theirs[o_len..]);
        let w = &self.weights.as_ref().expect("generated with the heads").1;
        let cols = part(d, self.half);
        let mine = forward::output_columns(&pending.o, w, cols.clone());
        let mut a = DMatrix::<T>::zeros(n, d);
        a.as_mut_slice()[cols.start * n..cols.end * n].copy_from_slice(mine.as_slice());
        pending.a = Some(a);
        Ok(mine.as_slice().to_vec())
    }

    /// Step 3: the other half's columns of `O W_O` (what its [`HalfRun::take_heads`] returned);
    /// finishes the layer as the whole pass does.
    pub fn take_output(&mut self, theirs: &[T]) -> Result<(), String> {
        let (n, d) = (self.forward.n, self.config.d_model);
        let other = part(d, 1 - self.half);
        match &self.pending {
            Some(p) if p.a.is_some() => {}
            _ => return Err("take_output: this half has no columns of a layer waiting".into()),
        }
        if theirs.len() != other.len() * n {
            return Err(format!(
                "take_output: {} values, not the {} of columns {other:?}",
                theirs.len(),
                other.len() * n
            ));
        }
        let Pending { mut ln_scale, o, p, a } = self.pending.take().expect("checked above");
        let mut a = a.expect("checked above");
        a.as_mut_slice()[other.start * n..other.end * n].copy_from_slice(theirs);
        let w = &self.weights.as_ref().expect("generated with the heads").1;
        let x = self.forward.hidden.last().expect("the input at least");
        let y = after_attention(x, a, w, &self.block, &mut ln_scale);
        let finite = y.iter().all(|v| v.is_finite());
        self.forward.hidden.push(y);
        self.forward.layers.push(LayerRecord { attention: p, head_outputs: o, ln_scale });
        if !finite {
            self.forward.overflow = Some(self.forward.layers.len());
        }
        Ok(())
    }

    /// The records so far: after the last layer, the whole pass's.
    pub fn into_forward(self) -> Forward<T> {
        self.forward
    }
}

/// A half in the run's precision.
#[derive(Clone, Debug)]
pub enum HalfState {
    /// `precision=f32`.
    F32(HalfRun<f32>),
    /// `precision=f64`.
    F64(HalfRun<f64>),
}

/// The values handed between halves, as `f64` (exact for `f32` values).
fn widen<T: Real>(v: Vec<T>) -> Vec<f64> {
    v.into_iter().map(|x| x.widen()).collect()
}

fn narrow<T: Real>(v: &[f64]) -> Vec<T> {
    v.iter().map(|&x| T::lift(x)).collect()
}

impl HalfState {
    /// Whether every layer is done ([`HalfRun::done`]).
    pub fn done(&self) -> bool {
        match self {
            HalfState::F32(h) => h.done(),
            HalfState::F64(h) => h.done(),
        }
    }

    /// [`HalfRun::heads`], the values as `f64`.
    pub fn heads(&mut self) -> Option<Vec<f64>> {
        match self {
            HalfState::F32(h) => h.heads().map(widen),
            HalfState::F64(h) => h.heads(),
        }
    }

    /// [`HalfRun::take_heads`], the values as `f64`.
    pub fn take_heads(&mut self, theirs: &[f64]) -> Result<Vec<f64>, String> {
        match self {
            HalfState::F32(h) => h.take_heads(&narrow(theirs)).map(widen),
            HalfState::F64(h) => h.take_heads(theirs),
        }
    }

    /// [`HalfRun::take_output`], the values as `f64`.
    pub fn take_output(&mut self, theirs: &[f64]) -> Result<(), String> {
        match self {
            HalfState::F32(h) => h.take_output(&narrow(theirs)),
            HalfState::F64(h) => h.take_output(theirs),
        }
    }
}
