//! The parts of `attn bench --model` beside the forward (a benchmark that prints numbers, never a
//! timed test): the forward's elementwise work on its own, and the two paths that run a trained
//! layer or head past the forward (a layer repeated, one head's particles).
//!
//! The elementwise work of one forward of `n` tokens is, per layer, the softmax of the `H n x n`
//! scores, GELU of the `n x d_ff` hidden units and two LayerNorms of `n x d_model`, and the
//! embeddings' LayerNorm once: the same functions the forward calls ([`ops`]), on one thread, on
//! inputs of those shapes. GELU's cost depends on its inputs (`erf` has cheap and dear ranges), so
//! its inputs are the text's own: each layer's first feed-forward product of that layer's input
//! `h_{l-1}`; the softmax and LayerNorm inputs are normal values of standard deviation 2 (from the
//! core's seeded PRNG; their cost does not depend on the values). Its share of the one-thread
//! forward tells whether a miss of the products' target is the kernel's or the overhead's.

use attn_core::model::head_dynamics::{run_to_end, HeadDynamicsSpec, HeadRun};
use attn_core::model::keys::ModelLink;
use attn_core::model::ops::{self, Serial};
use attn_core::model::repeat::{repeat, RepeatSpec};
use attn_core::model::weights::Norm;
use attn_core::model::{Encoder, Encoding, Pool, Variant};
use attn_core::rng::Rng;
use serde::Serialize;
use std::time::Instant;

/// Best ms of one forward's elementwise work, per operation and in all.
#[derive(Serialize)]
pub struct Elementwise {
    pub softmax_ms: f64,
    pub gelu_ms: f64,
    pub layer_norm_ms: f64,
    pub elementwise_ms: f64,
}

/// Best ms over `rounds` (after one warm-up) of `f`.
fn best(rounds: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn normals(len: usize, stream: u64) -> Vec<f32> {
    let mut rng = Rng::new(7, stream);
    (0..len).map(|_| (2.0 * rng.normal()) as f32).collect()
}

/// Times one forward's elementwise work for `encoder`'s shapes on `enc`'s tokens (module
/// documentation); each operation's best of `rounds` over the whole forward's calls.
pub fn elementwise(encoder: &Encoder, enc: &Encoding, rounds: usize) -> Elementwise {
    let c = &encoder.config;
    let n = enc.ids.len();
    let (scores, hidden) = (normals(c.heads * n * n, 1), normals(n * c.hidden, 2));
    let forward = encoder.forward(enc, Variant::Transformer, false, &Serial);
    let units: Vec<Vec<f32>> = encoder
        .weights
        .layers
        .iter()
        .zip(&forward.hidden)
        .map(|(lw, h)| ops::linear(h, n, &lw.ffn_in, &Serial))
        .collect();
    let scale = (c.d_head() as f32).sqrt();
    let norm = Norm { gain: vec![1.0; c.hidden], bias: vec![0.0; c.hidden] };
    let (mut s, mut h, mut u) = (scores.clone(), hidden.clone(), units[0].clone());
    let softmax_ms = best(rounds, || {
        for _ in 0..c.layers {
            s.copy_from_slice(&scores);
            for head in s.chunks_mut(n * n) {
                ops::softmax_rows(head, n, scale);
            }
        }
    });
    let gelu_ms = best(rounds, || {
        for layer in &units {
            u.copy_from_slice(layer);
            ops::gelu(&mut u);
        }
    });
    let layer_norm_ms = best(rounds, || {
        for _ in 0..2 * c.layers + 1 {
            h.copy_from_slice(&hidden);
            ops::layer_norm(&mut h, c.hidden, &norm, c.layer_norm_eps);
        }
    });
    Elementwise { softmax_ms, gelu_ms, layer_norm_ms, elementwise_ms: softmax_ms + gelu_ms + layer_norm_ms }
}

/// Best ms of the paths past the forward, with their sizes.
#[derive(Serialize)]
pub struct Paths {
    /// Layer `repeat_layer` repeated `repeat_iterations` times (transformer), every repetition
    /// listed with its statistics and every head's Boolean distance, as the page's panel computes it.
    pub repeat_ms: f64,
    pub repeat_layer: usize,
    pub repeat_iterations: usize,
    /// Layer 1, head 0's particles on the default link's settings, `head_steps` Euler steps.
    pub head_dynamics_ms: f64,
    pub head_steps: u64,
}

/// Times the repeated layer and one head's particles on `enc` (best of `rounds`).
pub fn paths(encoder: &Encoder, enc: &Encoding, pool: &dyn Pool, rounds: usize) -> Paths {
    let link = ModelLink::example();
    let layer = encoder.config.layers.div_ceil(2);
    let spec = RepeatSpec {
        layer,
        variant: Variant::Transformer,
        iterations: link.iterations,
        every: 1,
        cos_tol: link.cos_tol,
    };
    let repeat_ms = best(rounds, || {
        std::hint::black_box(repeat(encoder, enc, &spec, pool));
    });
    let head = HeadDynamicsSpec::of_link(&link);
    let head_dynamics_ms = best(rounds, || {
        if let Some(Ok(mut run)) = HeadRun::from_encoder(encoder, enc, head, pool) {
            std::hint::black_box(run_to_end(&mut run));
        }
    });
    Paths {
        repeat_ms,
        repeat_layer: layer,
        repeat_iterations: spec.iterations,
        head_dynamics_ms,
        head_steps: head.steps(),
    }
}
