//! A trained layer repeated (science.md §7): `x ← Block_L(x)` again and again, the weights
//! constant in time as in ALBERT. Each repetition is the forward's own layer function
//! ([`super::forward::layer`]) of the chosen [`Variant`] (§6.3), with every bias and the trained
//! LayerNorms, in `f32`, the state kept in `f32` between repetitions. Repetition 0 is `h_{L−1}`,
//! the input of layer `L` in the *unmodified* forward. A repetition whose output has a non-finite
//! entry stops the run ([`Stopped`]).

use super::clusters::{cosines, labels_of, mean_cosine};
use super::encoder::Encoder;
use super::forward::{attention, embed, layer, Variant};
use super::ops::Pool;
use super::tokenizer::Encoding;
use crate::particles::analysis::attention::{boolean_distance, leaders};

/// Most repetitions of one run.
pub const MAX_ITERATIONS: usize = 1000;

/// A layer repeated: the state after `iteration` repetitions.
#[derive(Clone, Debug)]
pub struct Repeater<'a> {
    encoder: &'a Encoder,
    layer: usize,
    variant: Variant,
    n: usize,
    state: Vec<f32>,
    iteration: usize,
}

/// Why a run stopped: the repetition whose output is not finite, and what.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stopped {
    /// The repetition (1-based) whose output has a non-finite entry.
    pub iteration: usize,
    /// What overflowed: how many entries, the first's token and feature.
    pub what: String,
}

impl<'a> Repeater<'a> {
    /// Repetition 0 of layer `layer` (1-based, at most the model's layers) of `variant` on `enc`'s
    /// tokens: `h_{layer−1}` of the unmodified forward.
    pub fn new(encoder: &'a Encoder, enc: &Encoding, layer_no: usize, variant: Variant, pool: &dyn Pool) -> Self {
        let c = &encoder.config;
        assert!((1..=c.layers).contains(&layer_no), "layer {} out of 1..={}", layer_no, c.layers);
        let n = enc.ids.len();
        let mut state = embed(&enc.ids, c, &encoder.weights);
        for lw in &encoder.weights.layers[..layer_no - 1] {
            state = layer(&state, n, c, lw, Variant::Transformer, pool).0;
        }
        Repeater { encoder, layer: layer_no, variant, n, state, iteration: 0 }
    }

    /// The run of layer `layer_no` of `variant` continued from `state` (`n x d`, a state
    /// [`Repeater::state`] gave) after `iteration` repetitions: its steps are those the run that
    /// gave `state` would take (the page runs its repetitions in chunks).
    pub fn resume(
        encoder: &'a Encoder,
        layer_no: usize,
        variant: Variant,
        n: usize,
        state: Vec<f32>,
        iteration: usize,
    ) -> Self {
        assert!(
            (1..=encoder.config.layers).contains(&layer_no),
            "layer {} out of 1..={}",
            layer_no,
            encoder.config.layers
        );
        assert_eq!(state.len(), n * encoder.config.hidden, "state is not n x d");
        Repeater { encoder, layer: layer_no, variant, n, state, iteration }
    }

    /// Tokens `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Repetitions done.
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// The state after [`Repeater::iteration`] repetitions (`n x d`, row-major).
    pub fn state(&self) -> &[f32] {
        &self.state
    }

    /// One more repetition. A non-finite output is refused (the state stays the last finite one).
    pub fn step(&mut self, pool: &dyn Pool) -> Result<(), Stopped> {
        let c = &self.encoder.config;
        let lw = &self.encoder.weights.layers[self.layer - 1];
        let (y, _, _) = layer(&self.state, self.n, c, lw, self.variant, pool);
        let iteration = self.iteration + 1;
        let bad = y.iter().filter(|v| !v.is_finite()).count();
        if bad > 0 {
            let first = y.iter().position(|v| !v.is_finite()).unwrap_or(0);
            return Err(Stopped {
                iteration,
                what: format!(
                    "repetition {} of layer {} ({}) gave {} non-finite hidden-state entries (first: token {}, \
                     feature {}, {})",
                    iteration,
                    self.layer,
                    self.variant.label(),
                    bad,
                    first / c.hidden,
                    first % c.hidden,
                    y[first]
                ),
            });
        }
        self.state = y;
        self.iteration = iteration;
        Ok(())
    }
}

/// One head's attention statistics of science.md §1.7 at one repetition.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HeadBoolean {
    /// The Boolean distance `max_ij |P_ij − round P_ij|` (0 exactly when `P` is Boolean).
    pub boolean_distance: f64,
    /// The leaders: the tokens `j` with `max_i P_ij > 1/2`, ascending.
    pub leaders: Vec<usize>,
}

/// Each head's Boolean distance and leaders (science.md §1.7) of every head's `P_h` (`heads x n x
/// n`, head-major, as [`attention`] gives them in `f32`), each entry taken exactly to `f64`.
pub fn head_booleans(p: &[f32], heads: usize, n: usize) -> Vec<HeadBoolean> {
    assert_eq!(p.len(), heads * n * n, "P is not heads x n x n");
    p.chunks(n * n)
        .map(|ph| {
            let ph: Vec<f64> = ph.iter().map(|&v| v as f64).collect();
            HeadBoolean { boolean_distance: boolean_distance(&ph, n), leaders: leaders(&ph, n) }
        })
        .collect()
}

/// Every head's `P_h` of layer `layer_no` (1-based) of `encoder` read at `state` (`n x d`): the
/// attention the next repetition applies to repetition `t`'s tokens (`heads x n x n`).
pub fn attention_at(encoder: &Encoder, layer_no: usize, state: &[f32], n: usize, pool: &dyn Pool) -> Vec<f32> {
    let c = &encoder.config;
    assert!((1..=c.layers).contains(&layer_no), "layer {} out of 1..={}", layer_no, c.layers);
    attention(state, n, c, &encoder.weights.layers[layer_no - 1], pool).1
}

/// One listed repetition of a run: its clusters under `cos_tol`, the mean cosine over `i < j`
/// and each head's Boolean distance and leaders of the layer's attention at its tokens.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RepeatStep {
    /// Repetitions done.
    pub iteration: usize,
    /// Number of clusters.
    pub clusters: usize,
    /// Each token's cluster.
    pub labels: Vec<usize>,
    /// Mean cosine over `i < j`, `f64`.
    pub mean_cos: f64,
    /// Each head's Boolean distance and leaders ([`head_booleans`] of [`attention_at`]).
    pub heads: Vec<HeadBoolean>,
}

impl RepeatStep {
    /// The statistics of `state` (`n x d`) after `iteration` repetitions; `heads`, each head's
    /// of the layer's attention there ([`head_booleans`]).
    pub fn of(
        iteration: usize,
        state: &[f32],
        n: usize,
        d: usize,
        cos_tol: f64,
        heads: Vec<HeadBoolean>,
    ) -> RepeatStep {
        let cos = cosines(state, n, d);
        let labels = labels_of(&cos, n, cos_tol);
        let clusters = labels.iter().max().map_or(0, |m| m + 1);
        RepeatStep { iteration, clusters, labels, mean_cos: mean_cosine(&cos, n), heads }
    }
}

/// A run's listed repetitions: `0, every, 2 every, …` and `iterations`, those before a stop.
#[derive(Clone, Debug, PartialEq)]
pub struct Repeated {
    /// The listed repetitions.
    pub steps: Vec<RepeatStep>,
    /// Why the run stopped early, if it did.
    pub stopped: Option<Stopped>,
}

/// What to repeat: layer `layer` (1-based) of `variant`, `iterations` times (1..=[`MAX_ITERATIONS`]),
/// listing every `every`-th repetition, clusters under `cos_tol`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RepeatSpec {
    /// The layer, 1-based.
    pub layer: usize,
    /// The variant of §6.3.
    pub variant: Variant,
    /// Repetitions.
    pub iterations: usize,
    /// Every how many repetitions a step is listed (at least 1).
    pub every: usize,
    /// The cluster rule's tolerance ([`super::clusters`]).
    pub cos_tol: f64,
}

/// Runs `spec` on `enc`'s tokens (module documentation), listing repetitions `0, every, 2 every,
/// …` and the last.
pub fn repeat(encoder: &Encoder, enc: &Encoding, spec: &RepeatSpec, pool: &dyn Pool) -> Repeated {
    let d = encoder.config.hidden;
    let mut r = Repeater::new(encoder, enc, spec.layer, spec.variant, pool);
    let n = r.n();
    let heads = encoder.config.heads;
    let booleans = |x: &[f32]| head_booleans(&attention_at(encoder, spec.layer, x, n, pool), heads, n);
    let mut steps = vec![RepeatStep::of(0, r.state(), n, d, spec.cos_tol, booleans(r.state()))];
    let every = spec.every.max(1);
    for t in 1..=spec.iterations {
        if let Err(stopped) = r.step(pool) {
            return Repeated { steps, stopped: Some(stopped) };
        }
        if t % every == 0 || t == spec.iterations {
            steps.push(RepeatStep::of(t, r.state(), n, d, spec.cos_tol, booleans(r.state())));
        }
    }
    Repeated { steps, stopped: None }
}
