//! The four architectures of science.md §3 (and the configured one), and [`DepthRun`]: one run
//! of a configuration, variant by variant, for a Web Worker that reports each curve as it arrives.
//!
//! ```text
//! let mut run = DepthRun::new(&config);            // input tokens resolved once
//! for &v in config.variants.iter() {
//!     let result = run.run_variant(v);             // forward pass + rank + similarity analyzers
//!     post(result);                                 // residual per layer, singular values, stats
//! }
//! run.attention(layer, head);                       // views of the last variant run
//! ```
//!
//! Every variant of a run uses the same seed, hence the same weights and input; only the
//! architecture differs ([`Variant::block`]).

use super::config::{DepthConfig, Precision, Variant};
use super::forward::{self, rows_f64, Forward};
use super::halves::{HalfRun, HalfState};
use super::input::Input;
use super::paths::{self, PathLengths};
use super::rank;
use super::similarity::{self, LayerSimilarity};
use super::{products, Real};
use crate::link::ConfigError;
use crate::nan::null;
use serde::{Deserialize, Serialize};

/// Deviates cost about as much as this many multiply-adds (the ziggurat's table lookups and its
/// PRNG draw, measured in wasm: 3.9 ns per deviate, 0.067 ns per multiply-add of the products).
const DEVIATE_COST: f64 = 50.0;

impl Variant {
    /// The work of one forward pass of this variant, in multiply-adds (weight generation counted
    /// at [`DEVIATE_COST`] per weight): per layer, the `Q, K, V` and `W_O` products, every head's
    /// scores and weighted sums, and the MLP's two products when the variant has one. An estimate
    /// for ordering work, not a measurement.
    pub fn work(self, c: &DepthConfig, n: usize) -> f64 {
        let (n, d, hd, w) = (n as f64, c.d_model as f64, (c.heads * c.d_head) as f64, c.mlp_width as f64);
        let attention = n * d * 4.0 * hd + 2.0 * n * n * hd + DEVIATE_COST * 4.0 * d * hd;
        let mlp = if self.block(c).mlp { 2.0 * n * d * w + DEVIATE_COST * 2.0 * d * w } else { 0.0 };
        c.layers as f64 * (attention + mlp)
    }
}

/// The order in which workers side by side should take the configured variants: the first one
/// first (its curve is the first drawn), then the others heaviest first by [`Variant::work`]
/// (ties in the configured order), so that the last to finish is a light one and the workers
/// end close together.
pub fn schedule(c: &DepthConfig, n: usize) -> Vec<Variant> {
    let mut rest: Vec<Variant> = c.variants.iter().skip(1).copied().collect();
    rest.sort_by(|a, b| b.work(c, n).total_cmp(&a.work(c, n)));
    c.variants.first().copied().into_iter().chain(rest).collect()
}

/// Whether the first variant of `c`'s schedule on `n` tokens pays to run in halves on two workers
/// ([`DepthRun::halves_pay`]).
pub fn halves_pay(c: &DepthConfig, n: usize) -> bool {
    let first = schedule(c, n).first().copied();
    c.heads >= 2 && c.d_model >= 2 && first.is_some_and(|v| v.work(c, n) >= HALVES_FROM_WORK)
}

/// What one variant's run reports (science.md §3-4); layer `l = 0` is the input.
/// Read back from JSON (`null` as NaN) where a page draws what its worker computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    /// The variant.
    pub variant: Variant,
    /// `||res(X_l)||_{1,inf} / ||X_l||_{1,inf}` for `l = 0..=L` (centre per `residual_def`;
    /// NaN, serialised as null, after an overflow).
    #[serde(deserialize_with = "null::list")]
    pub residual: Vec<f64>,
    /// `||X_l||_{1,inf}`, `l = 0..=L` (NaN after an overflow).
    #[serde(deserialize_with = "null::list")]
    pub composite_norm: Vec<f64>,
    /// Singular values of each `X_l`, largest first (`L + 1` lists of `min(n, d_model)`, NaN after an
    /// overflow): SVD for
    /// `precision=f64`; for `f32` from the Gram matrix ([`rank::singular_values_gram`], good to
    /// about 1e-8 of the largest).
    #[serde(deserialize_with = "null::lists")]
    pub singular_values: Vec<Vec<f64>>,
    /// Context similarity statistics of layers `1..=L` (up to and including an overflowed layer).
    pub similarity: Vec<LayerSimilarity>,
    /// Set when a layer's output was not finite: which layer and what to change.
    pub overflow: Option<String>,
}

/// The records of the last variant run, in the run's precision.
#[derive(Clone, Debug)]
enum Records {
    F32(Forward<f32>),
    F64(Forward<f64>),
}

/// One run of a depth configuration: the input, and the records of the last variant run.
#[derive(Clone, Debug)]
pub struct DepthRun {
    config: DepthConfig,
    input: Input,
    last: Option<(Variant, Records)>,
    /// A pass in halves under way ([`super::halves`]).
    half: Option<(Variant, HalfState)>,
}

impl DepthRun {
    /// A run of a validated configuration; the input comes from the configuration.
    pub fn new(config: &DepthConfig) -> DepthRun {
        DepthRun { config: config.clone(), input: Input::from_config(config), last: None, half: None }
    }

    /// A run on given tokens (`n x d` row-major, e.g. the particle view's current tokens); the
    /// configuration must have `input=particle`, `tokens = n`, `d_model = d`. Errors name the key.
    pub fn with_tokens(config: &DepthConfig, tokens: &[f64], n: usize, d: usize) -> Result<DepthRun, ConfigError> {
        Ok(DepthRun {
            config: config.clone(),
            input: Input::from_tokens(config, tokens, n, d)?,
            last: None,
            half: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &DepthConfig {
        &self.config
    }

    /// The input: tokens, labels, sentences, separators.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// Sequence length `n`.
    pub fn n(&self) -> usize {
        self.input.n
    }

    /// The variants the configuration asks for, in order.
    pub fn variants(&self) -> &[Variant] {
        &self.config.variants
    }

    /// The same-sentence chance level `sum_s n_s (n_s - 1) / (n (n - 1))` of the input.
    pub fn chance_level(&self) -> f64 {
        self.input.chance_level()
    }

    /// The configured variants in the order workers side by side should take them ([`schedule`]).
    pub fn schedule(&self) -> Vec<Variant> {
        schedule(&self.config, self.input.n)
    }

    /// Share of paths of each length `k = 0..=L` ([`paths::path_shares`]).
    pub fn path_shares(&self) -> Vec<f64> {
        paths::path_shares(self.config.layers, self.config.heads)
    }

    /// Runs variant `v` (forward pass and analyzers) and keeps its records for the views,
    /// replacing the previous variant's (dropped first, so one variant's records are held at a
    /// time, also while the next one runs).
    pub fn run_variant(&mut self, v: Variant) -> VariantResult {
        self.last = None;
        self.half = None;
        let block = v.block(&self.config);
        let (result, records) = match self.config.precision {
            Precision::F32 => {
                let f = forward::run::<f32>(&self.config, &block, &self.input.tokens, self.input.n);
                (analyze(&self.config, &self.input, v, &f), Records::F32(f))
            }
            Precision::F64 => {
                let f = forward::run::<f64>(&self.config, &block, &self.input.tokens, self.input.n);
                (analyze(&self.config, &self.input, v, &f), Records::F64(f))
            }
        };
        self.last = Some((v, records));
        result
    }

    /// Runs every configured variant in order.
    pub fn run_all(&mut self) -> Vec<VariantResult> {
        self.config.variants.clone().into_iter().map(|v| self.run_variant(v)).collect()
    }

    /// The variant whose records the views read.
    pub fn last_variant(&self) -> Option<Variant> {
        self.last.as_ref().map(|(v, _)| *v)
    }

    /// `X_l` of the last variant (`l = 0..=L`), `n x d_model` row-major.
    pub fn hidden(&self, l: usize) -> Option<Vec<f64>> {
        match &self.last.as_ref()?.1 {
            Records::F32(f) => f.hidden_rows(l),
            Records::F64(f) => f.hidden_rows(l),
        }
    }

    /// `P` of `head` in layer `l = 1..=L` of the last variant, `n x n` row-major.
    pub fn attention(&self, l: usize, head: usize) -> Option<Vec<f64>> {
        match &self.last.as_ref()?.1 {
            Records::F32(f) => f.attention(l, head).map(|p| p.iter().map(|&x| x as f64).collect()),
            Records::F64(f) => f.attention(l, head).map(|p| p.to_vec()),
        }
    }

    /// The output `O = P V` of `head` in layer `l = 1..=L` before `W_O`, `n x d_head` row-major.
    pub fn head_output(&self, l: usize, head: usize) -> Option<Vec<f64>> {
        match &self.last.as_ref()?.1 {
            Records::F32(f) => f.head_output(l, head),
            Records::F64(f) => f.head_output(l, head),
        }
    }

    /// The normalised context similarity matrix `S` of `head` in layer `l = 1..=L` (zero
    /// diagonal, `n x n` row-major) of the last variant.
    pub fn similarity_matrix(&self, l: usize, head: usize) -> Option<Vec<f64>> {
        let o = self.head_output(l, head)?;
        Some(similarity::similarity_matrix(&o, self.input.n, self.config.d_head, self.config.similarity_norm))
    }

    /// Which path lengths carry the last variant's output ([`paths::path_lengths`]); an error
    /// message for variants with an MLP, with biases, after an overflow, or before any run.
    pub fn path_lengths(&self) -> Result<PathLengths, String> {
        let (v, records) = self.last.as_ref().ok_or("no variant has been run yet")?;
        let block = v.block(&self.config);
        match records {
            Records::F32(f) => paths::path_lengths(&self.config, &block, f),
            Records::F64(f) => paths::path_lengths(&self.config, &block, f),
        }
    }
}

/// A pass in halves pays off when the first variant is this much work ([`Variant::work`],
/// multiply-adds) or more: the halves hand each other every head's `P` and `O` twice a layer.
pub const HALVES_FROM_WORK: f64 = 1e9;

/// A variant's pass in two halves, one per worker ([`super::halves`]).
impl DepthRun {
    /// Whether the first variant to run should run in halves on two workers: two heads at least
    /// and [`HALVES_FROM_WORK`] of work.
    pub fn halves_pay(&self) -> bool {
        halves_pay(&self.config, self.input.n)
    }

    /// Starts half `half` (0 or 1) of variant `v`'s pass; the records of the previous variant
    /// are dropped.
    pub fn start_half(&mut self, v: Variant, half: usize) -> Result<(), String> {
        self.last = None;
        self.half = None;
        let block = v.block(&self.config);
        let (c, x0, n) = (&self.config, &self.input.tokens, self.input.n);
        let state = match c.precision {
            Precision::F32 => HalfState::F32(HalfRun::new(c, &block, x0, n, half)?),
            Precision::F64 => HalfState::F64(HalfRun::new(c, &block, x0, n, half)?),
        };
        self.half = Some((v, state));
        Ok(())
    }

    fn half_state(&mut self) -> Result<&mut HalfState, String> {
        self.half.as_mut().map(|(_, s)| s).ok_or_else(|| "no pass in halves has been started".into())
    }

    /// Step 1 of the next layer ([`HalfRun::heads`]); `None` when every layer is done.
    pub fn half_heads(&mut self) -> Result<Option<Vec<f64>>, String> {
        Ok(self.half_state()?.heads())
    }

    /// Step 2 ([`HalfRun::take_heads`]).
    pub fn half_take_heads(&mut self, theirs: &[f64]) -> Result<Vec<f64>, String> {
        self.half_state()?.take_heads(theirs)
    }

    /// Step 3 ([`HalfRun::take_output`]).
    pub fn half_take_output(&mut self, theirs: &[f64]) -> Result<(), String> {
        self.half_state()?.take_output(theirs)
    }

    /// Ends the pass in halves once every layer is done: its records become the last variant's,
    /// as after [`DepthRun::run_variant`] (the result: [`DepthRun::last_result_but_singular_values`]
    /// and the other half's [`DepthRun::last_singular_values`]).
    pub fn finish_half(&mut self) -> Result<(), String> {
        if !self.half_state()?.done() {
            return Err("finish_half: the pass in halves has layers left".into());
        }
        let (v, state) = self.half.take().expect("checked above");
        let records = match state {
            HalfState::F32(h) => Records::F32(h.into_forward()),
            HalfState::F64(h) => Records::F64(h.into_forward()),
        };
        self.last = Some((v, records));
        Ok(())
    }

    /// The last variant's result but for its singular values ([`analyze_but_singular_values`]).
    pub fn last_result_but_singular_values(&self) -> Option<VariantResult> {
        let (c, input) = (&self.config, &self.input);
        Some(match self.last.as_ref()? {
            (v, Records::F32(f)) => analyze_but_singular_values(c, input, *v, f),
            (v, Records::F64(f)) => analyze_but_singular_values(c, input, *v, f),
        })
    }

    /// The singular values of the last variant's `X_0 .. X_L` ([`singular_values`]), list after
    /// list in one array of `(L + 1) min(n, d_model)` values.
    pub fn last_singular_values(&self) -> Option<Vec<f64>> {
        let (c, n) = (&self.config, self.input.n);
        let lists = match &self.last.as_ref()?.1 {
            Records::F32(f) => singular_values(c, n, f),
            Records::F64(f) => singular_values(c, n, f),
        };
        Some(lists.concat())
    }

    /// `result` with the singular values `flat` ([`DepthRun::last_singular_values`]' layout).
    pub fn with_singular_values(&self, mut result: VariantResult, flat: &[f64]) -> Result<VariantResult, String> {
        let k = self.input.n.min(self.config.d_model);
        if k == 0 || flat.len() != (self.config.layers + 1) * k {
            return Err(format!("{} singular values, not {} lists of {k}", flat.len(), self.config.layers + 1));
        }
        result.singular_values = flat.chunks(k).map(<[f64]>::to_vec).collect();
        Ok(result)
    }
}

/// The analyzers of one forward pass: residuals, norms, singular values, similarity statistics.
pub fn analyze<T: Real>(c: &DepthConfig, input: &Input, v: Variant, f: &Forward<T>) -> VariantResult {
    analyze_with(c, input, v, f, true)
}

/// [`analyze`] but for the singular values, left empty (the costliest part: a pass in halves
/// has them computed by the other half, [`DepthRun::last_singular_values`]).
pub fn analyze_but_singular_values<T: Real>(
    c: &DepthConfig,
    input: &Input,
    v: Variant,
    f: &Forward<T>,
) -> VariantResult {
    analyze_with(c, input, v, f, false)
}

/// The singular values of each `X_l` of a forward pass, as [`VariantResult::singular_values`]
/// (NaN lists from an overflowed layer on).
pub fn singular_values<T: Real>(c: &DepthConfig, n: usize, f: &Forward<T>) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = finite_rows(f).map(|x| singular_values_of(c, &x, n)).collect();
    out.resize(c.layers + 1, vec![f64::NAN; n.min(c.d_model)]);
    out
}

/// `X_0, X_1, ...` as row-major `f64`, one at a time, up to the first with a non-finite entry
/// (the overflowed layer, whose statistics stay NaN).
fn finite_rows<T: Real>(f: &Forward<T>) -> impl Iterator<Item = Vec<f64>> + '_ {
    f.hidden.iter().map(rows_f64).take_while(|x| x.iter().all(|v| v.is_finite()))
}

/// The singular values of one `X_l` (`x`, `n x d_model` row-major): SVD for `precision=f64`,
/// from the Gram matrix for `f32`.
fn singular_values_of(c: &DepthConfig, x: &[f64], n: usize) -> Vec<f64> {
    match c.precision {
        Precision::F32 => rank::singular_values_gram(x, n, c.d_model),
        Precision::F64 => rank::singular_values(x, n, c.d_model),
    }
}

/// [`analyze`], with the singular values only `with_singular_values` (each `X_l` converted once).
fn analyze_with<T: Real>(
    c: &DepthConfig,
    input: &Input,
    v: Variant,
    f: &Forward<T>,
    with_singular_values: bool,
) -> VariantResult {
    let (n, d) = (input.n, c.d_model);
    let mut residual = vec![f64::NAN; c.layers + 1];
    let mut composite_norm = vec![f64::NAN; c.layers + 1];
    let mut singular_values = Vec::new();
    for (l, x) in finite_rows(f).enumerate() {
        residual[l] = rank::relative_residual_with(c.residual_def, &x, n, d);
        composite_norm[l] = rank::composite_norm(&x, n, d);
        if with_singular_values {
            singular_values.push(singular_values_of(c, &x, n));
        }
    }
    if with_singular_values {
        singular_values.resize(c.layers + 1, vec![f64::NAN; n.min(d)]);
    }
    let mut layers = Vec::with_capacity(f.layers.len());
    for (index, rec) in f.layers.iter().enumerate() {
        let l = index + 1;
        let heads = (0..c.heads)
            .map(|h| {
                // O O^T in the run's precision (its matrix kernel), then S in f64.
                let o = rec.head_outputs.columns(h * c.d_head, c.d_head);
                let g = products::gram(&o);
                let mut s: Vec<f64> = g.iter().map(|v| v.widen()).collect();
                similarity::normalize(&mut s, n, c.similarity_norm);
                let p: Vec<f64> = rec.attention[h * n * n..(h + 1) * n * n].iter().map(|x| x.widen()).collect();
                similarity::head_stats(
                    h,
                    &s,
                    &p,
                    n,
                    &input.sentence,
                    &input.separator,
                    c.select,
                    c.quantile,
                    c.threshold,
                )
            })
            .collect();
        layers.push(similarity::layer_stats(l, heads));
    }
    let overflow = f.overflow.map(|l| {
        format!(
            "layer {} produced non-finite values in {}; lower weight_scale or qk_scale, use layernorm, or precision=f64",
            l,
            if c.precision == Precision::F32 { "f32" } else { "f64" }
        )
    });
    VariantResult { variant: v, residual, composite_norm, singular_values, similarity: layers, overflow }
}
