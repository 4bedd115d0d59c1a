//! The weights of one transformer layer (science.md §3): per-head `W_Q, W_K, W_V`
//! (`d_model x d_head`), `W_O` (`H d_head x d_model`), the MLP's `W_1` (`d_model x width`) and
//! `W_2` (`width x d_model`), and optional biases.
//!
//! `weights=random`: every entry i.i.d. N(0, s^2) with `s = qk_scale` for `W_Q, W_K`,
//! `s = weight_scale` for `W_V, W_O, W_1, W_2`, `s = bias_scale` for the biases (none when 0).
//! Each matrix (and each head's block) has its own PRNG stream ([`stream`]) derived from the
//! seed, the layer, the kind of matrix and the head; so changing the MLP width
//! leaves the attention weights alone, and `shared=on` uses layer 0's weights everywhere. Entries
//! are drawn column by column (the column-major order of each `rows x cols` block). The
//! normal deviates come from a ziggurat ([`Normals`]) driven by the seeded [`Rng`] and `libm`: BERT
//! has 85 million weights, too many for Box-Muller's four transcendental calls per pair.
//!
//! `weights=particle`: the particle model of science.md §1 as one head with `d_head = d_model = d`:
//! `W_Q = beta sqrt(d) Q^T`, `W_K = K^T`, `W_V = dt V^T`, `W_O = I`, so that
//! `softmax(Q_rows K_rows^T / sqrt(d_head))` is the particle model's `P` and
//! `X + P X W_V W_O = X + dt P X V^T` is one forward Euler step of `dx_i/dt = sum_j P_ij V x_j`
//! (SAN+skip without LayerNorm and without MLP). MLP weights and biases stay random.
//!
//! Weights are generated layer by layer as the forward pass needs them (one layer in memory).

use super::config::{DepthConfig, WeightsSource};
use super::Real;
use crate::rng::Rng;
use nalgebra::DMatrix;
use std::sync::OnceLock;

/// The kinds of weight matrices, part of each PRNG stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `W_Q` of a head.
    Query = 1,
    /// `W_K` of a head.
    Key = 2,
    /// `W_V` of a head.
    Value = 3,
    /// `W_O`.
    Output = 4,
    /// `W_1`.
    Mlp1 = 5,
    /// `W_2`.
    Mlp2 = 6,
    /// Biases of `Q, K, V` (all heads).
    BiasQkv = 7,
    /// Bias of `W_O`.
    BiasOutput = 8,
    /// Bias of `W_1`.
    BiasMlp1 = 9,
    /// Bias of `W_2`.
    BiasMlp2 = 10,
}

/// The PRNG stream of a matrix: `layer << 32 | kind << 16 | head`.
pub fn stream(layer: usize, kind: Kind, head: usize) -> u64 {
    ((layer as u64) << 32) | ((kind as u64) << 16) | head as u64
}

struct Tables {
    x: [f64; 129],
    r: [f64; 128],
}

const ZIG_R: f64 = 3.442619855899;
const ZIG_V: f64 = 9.91256303526217e-3;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut x = [0.0; 129];
        let mut r = [0.0; 128];
        let mut f = libm::exp(-0.5 * ZIG_R * ZIG_R);
        x[0] = ZIG_V / f;
        x[1] = ZIG_R;
        x[128] = 0.0;
        for i in 2..128 {
            x[i] = (-2.0 * libm::log(ZIG_V / x[i - 1] + f)).sqrt();
            f = libm::exp(-0.5 * x[i] * x[i]);
        }
        for i in 0..128 {
            r[i] = x[i + 1] / x[i];
        }
        Tables { x, r }
    })
}

/// Standard normal deviates from a seeded [`Rng`]: the 128-block ziggurat of Marsaglia and Tsang
/// in Doornik's form (ZIGNOR, 2005), two deviates per 64-bit draw.
///
/// Each 32-bit half of a draw gives one deviate about 98.8% of the time: its 7 lowest bits pick
/// the block, its 25 highest make `u` uniform in (-1, 1) (disjoint bits, so block and position
/// are independent); the rare rejections (wedges, the tail beyond `R`) use further full draws.
/// Exact up to the 2^-24 granularity of `u`, deterministic (integer arithmetic and `libm`).
#[derive(Clone, Debug)]
pub struct Normals {
    rng: Rng,
    spare: Option<u32>,
}

impl Normals {
    /// Deviates driven by `rng`.
    pub fn new(rng: Rng) -> Self {
        Normals { rng, spare: None }
    }

    /// The next standard normal deviate.
    #[inline]
    pub fn sample(&mut self) -> f64 {
        let t = tables();
        loop {
            let bits = match self.spare.take() {
                Some(b) => b,
                None => {
                    let w = self.rng.next_u64();
                    self.spare = Some((w >> 32) as u32);
                    w as u32
                }
            };
            let i = (bits & 0x7f) as usize;
            let u = ((bits >> 7) as f64 + 0.5) * (1.0 / 16_777_216.0) - 1.0;
            if u.abs() < t.r[i] {
                return u * t.x[i];
            }
            if let Some(x) = self.slow(u, i, t) {
                return x;
            }
        }
    }

    /// The rejection steps of the ziggurat (about 1.2% of the deviates).
    #[cold]
    fn slow(&mut self, u: f64, i: usize, t: &Tables) -> Option<f64> {
        if i == 0 {
            // The tail beyond R (Marsaglia 1964).
            loop {
                let a = libm::log(1.0 - self.rng.uniform01()) / ZIG_R;
                let b = libm::log(1.0 - self.rng.uniform01());
                if -2.0 * b >= a * a {
                    return Some(if u < 0.0 { a - ZIG_R } else { ZIG_R - a });
                }
            }
        }
        let x = u * t.x[i];
        let f0 = libm::exp(-0.5 * (t.x[i] * t.x[i] - x * x));
        let f1 = libm::exp(-0.5 * (t.x[i + 1] * t.x[i + 1] - x * x));
        (f1 + self.rng.uniform01() * (f0 - f1) < 1.0).then_some(x)
    }

    /// Fills `out` with `sd` times standard normal deviates, in order. Not inlined: a Web
    /// Worker's wasm engine optimises a function after its first calls, so filling column by
    /// column keeps the work in optimised code.
    ///
    /// The same deviates as calling [`Normals::sample`] for each entry, drawn two at a time: a
    /// 64-bit draw whose halves both fall inside their blocks (about 97.6% of draws) gives two
    /// entries without the spare's bookkeeping; any other draw goes through `sample`'s steps.
    #[inline(never)]
    pub fn fill<T: Real>(&mut self, out: &mut [T], sd: f64) {
        let t = tables();
        let mut k = 0;
        while k < out.len() {
            if self.spare.is_none() && k + 1 < out.len() {
                let w = self.rng.next_u64();
                let (lo, hi) = (w as u32, (w >> 32) as u32);
                let (i0, i1) = ((lo & 0x7f) as usize, (hi & 0x7f) as usize);
                let u0 = ((lo >> 7) as f64 + 0.5) * (1.0 / 16_777_216.0) - 1.0;
                let u1 = ((hi >> 7) as f64 + 0.5) * (1.0 / 16_777_216.0) - 1.0;
                let (in0, in1) = (u0.abs() < t.r[i0], u1.abs() < t.r[i1]);
                if in0 && in1 {
                    out[k] = T::lift(sd * (u0 * t.x[i0]));
                    out[k + 1] = T::lift(sd * (u1 * t.x[i1]));
                    k += 2;
                    continue;
                }
                // As `sample` after drawing `w`: the high half waits as the spare.
                self.spare = Some(hi);
                let first = if in0 { Some(u0 * t.x[i0]) } else { self.slow(u0, i0, t) };
                out[k] = T::lift(sd * first.unwrap_or_else(|| self.sample()));
            } else {
                out[k] = T::lift(sd * self.sample());
            }
            k += 1;
        }
    }
}

/// The MLP of a layer.
#[derive(Clone, Debug)]
pub struct Mlp<T: Real> {
    /// `W_1`, `d_model x width`.
    pub w1: DMatrix<T>,
    /// Bias of `W_1` (`width`; empty = none).
    pub b1: Vec<T>,
    /// `W_2`, `width x d_model`.
    pub w2: DMatrix<T>,
    /// Bias of `W_2` (`d_model`; empty = none).
    pub b2: Vec<T>,
}

/// The weights of one layer.
#[derive(Clone, Debug)]
pub struct LayerWeights<T: Real> {
    /// `[W_Q^0 .. W_Q^{H-1} | W_K^0 .. | W_V^0 ..]`: `d_model x 3 H d_head`; head `h`'s `W_Q` is
    /// columns `h d_head .. (h + 1) d_head`, its `W_K` the same plus `H d_head`, its `W_V` plus `2 H d_head`.
    pub wqkv: DMatrix<T>,
    /// Biases of the `Q, K, V` columns (`3 H d_head`; empty = none).
    pub bqkv: Vec<T>,
    /// `W_O`, `H d_head x d_model` (rows `h d_head .. (h + 1) d_head` act on head `h`).
    pub wo: DMatrix<T>,
    /// Bias of `W_O` (`d_model`; empty = none).
    pub bo: Vec<T>,
    /// The MLP, when generated.
    pub mlp: Option<Mlp<T>>,
}

impl<T: Real> LayerWeights<T> {
    /// `W_V^h W_O^h` (`d_model x d_model`): what head `h` adds to the token, `P X W_V^h W_O^h`.
    pub fn value_output(&self, h: usize, heads: usize, d_head: usize) -> DMatrix<T> {
        let v = self.wqkv.columns(2 * heads * d_head + h * d_head, d_head);
        let o = self.wo.rows(h * d_head, d_head);
        v * o
    }
}

#[allow(clippy::too_many_arguments)]
fn random_matrix<T: Real>(
    seed: u32,
    layer: usize,
    kind: Kind,
    head: usize,
    cols: usize,
    sd: f64,
    out: &mut DMatrix<T>,
    col0: usize,
) {
    let mut normals = Normals::new(Rng::new(seed, stream(layer, kind, head)));
    for j in 0..cols {
        normals.fill(out.column_mut(col0 + j).as_mut_slice(), sd);
    }
}

fn random_vector<T: Real>(seed: u32, layer: usize, kind: Kind, len: usize, sd: f64) -> Vec<T> {
    if sd == 0.0 {
        return Vec::new();
    }
    let mut out = vec![T::zero(); len];
    Normals::new(Rng::new(seed, stream(layer, kind, 0))).fill(&mut out, sd);
    out
}

/// Generates the weights of `layer` (`layer` is ignored when `shared`) for a validated
/// configuration; the MLP only when `with_mlp`.
pub fn layer_weights<T: Real>(c: &DepthConfig, layer: usize, with_mlp: bool) -> LayerWeights<T> {
    layer_weights_of_heads(c, layer, with_mlp, 0..c.heads)
}

/// [`layer_weights`] with the random `W_Q, W_K, W_V` of the heads in `heads` only (the other
/// heads' columns stay zero; each head has its own stream, so those drawn are the same).
pub fn layer_weights_of_heads<T: Real>(
    c: &DepthConfig,
    layer: usize,
    with_mlp: bool,
    heads: std::ops::Range<usize>,
) -> LayerWeights<T> {
    let layer = if c.shared { 0 } else { layer };
    let (d, h, dh) = (c.d_model, c.heads, c.d_head);
    let hd = h * dh;
    let seed = c.seed;
    let mut wqkv = DMatrix::<T>::zeros(d, 3 * hd);
    let mut wo = DMatrix::<T>::zeros(hd, d);
    let particle = match c.weights {
        WeightsSource::Particle => c.particle_config().ok().filter(|p| p.d == d && h == 1 && dh == d),
        WeightsSource::Random => None,
    };
    if let Some(p) = particle {
        let m = crate::particles::init::matrices(&p);
        let q_scale = p.beta * (dh as f64).sqrt();
        for a in 0..d {
            for b in 0..d {
                // Row-form weights act as X W: (Q x)^T = x^T Q^T.
                wqkv[(a, b)] = T::lift(q_scale * m.q[b * d + a]);
                wqkv[(a, hd + b)] = T::lift(m.k[b * d + a]);
                wqkv[(a, 2 * hd + b)] = T::lift(p.dt * m.v[b * d + a]);
            }
            wo[(a, a)] = T::one();
        }
    } else {
        for head in heads {
            random_matrix(seed, layer, Kind::Query, head, dh, c.qk_scale, &mut wqkv, head * dh);
            random_matrix(seed, layer, Kind::Key, head, dh, c.qk_scale, &mut wqkv, hd + head * dh);
            random_matrix(seed, layer, Kind::Value, head, dh, c.weight_scale, &mut wqkv, 2 * hd + head * dh);
        }
        random_matrix(seed, layer, Kind::Output, 0, d, c.weight_scale, &mut wo, 0);
    }
    let bqkv = random_vector(seed, layer, Kind::BiasQkv, 3 * hd, c.bias_scale);
    let bo = random_vector(seed, layer, Kind::BiasOutput, d, c.bias_scale);
    let mlp = with_mlp.then(|| {
        let w = c.mlp_width;
        let mut w1 = DMatrix::<T>::zeros(d, w);
        let mut w2 = DMatrix::<T>::zeros(w, d);
        random_matrix(seed, layer, Kind::Mlp1, 0, w, c.weight_scale, &mut w1, 0);
        random_matrix(seed, layer, Kind::Mlp2, 0, d, c.weight_scale, &mut w2, 0);
        Mlp {
            w1,
            b1: random_vector(seed, layer, Kind::BiasMlp1, w, c.bias_scale),
            w2,
            b2: random_vector(seed, layer, Kind::BiasMlp2, d, c.bias_scale),
        }
    });
    LayerWeights { wqkv, bqkv, wo, bo, mlp }
}

/// Hands out the weights of each layer in turn, generating them on demand and keeping only the
/// last layer's (all layers share one set when `shared=on`).
pub struct WeightStore<'a, T: Real> {
    config: &'a DepthConfig,
    with_mlp: bool,
    cached: Option<(usize, LayerWeights<T>)>,
}

impl<'a, T: Real> WeightStore<'a, T> {
    /// A store for `config`; MLP weights only when `with_mlp`.
    pub fn new(config: &'a DepthConfig, with_mlp: bool) -> Self {
        WeightStore { config, with_mlp, cached: None }
    }

    /// The weights of `layer` (0-based).
    pub fn layer(&mut self, layer: usize) -> &LayerWeights<T> {
        let key = if self.config.shared { 0 } else { layer };
        if self.cached.as_ref().map(|(k, _)| *k) != Some(key) {
            self.cached = Some((key, layer_weights(self.config, key, self.with_mlp)));
        }
        &self.cached.as_ref().expect("cached above").1
    }
}
