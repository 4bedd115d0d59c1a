//! A training run, driven one SGD iteration at a time (science.md §5).

use super::analysis::{
    all_class_attention, max_abs_change, mean_distinct_entropy, snap_iteration, snap_iteration_live,
    uniform_attention_entropy,
};
use super::config::{TrainingConfig, WeightsInit};
use super::data::{Class, Dataset};
use super::model::{sequence_loss, transpose, ModelScratch};
use super::sgd::sgd_step;
use crate::rng::Rng;
use crate::run::Divergence;
use crate::run::{Status, Stepping};

/// PRNG stream of the uniform initialisation of `Y` and `Z`.
pub const STREAM_INIT: u64 = 0x7261_696e_5f69_6e69;
/// PRNG stream of the batches.
pub const STREAM_DATA: u64 = 0x7261_696e_5f64_6174;

/// What a run records every iteration. "State `i`" means the parameters after `i` iterations
/// (state 0 is the initialisation); "iteration `i`" is the update from state `i` to state `i + 1`.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Mean cross-entropy (nats) of the batch of iteration `i`, at state `i` (before its update).
    /// One entry per iteration.
    pub loss: Vec<f64>,
    /// `max_{n,l} |c_{l|n}(state i+1) - c_{l|n}(state i)|`, one entry per iteration.
    pub max_dc: Vec<f64>,
    /// Distinct-token entropy averaged over classes (nats), one entry per state (iterations + 1).
    pub entropy: Vec<f64>,
    /// The recorded query row `Z[query_row, :]`, `M` per state, `(iterations + 1) x M` row-major.
    pub query_logits: Vec<f64>,
    /// `c_n` of the classes of the recorded query row (`K_q` of them, see
    /// [`Trainer::query_classes`]), `K_q x M` per state: `(iterations + 1) x K_q x M` row-major.
    pub query_c: Vec<f64>,
}

/// A training run of one configuration: parameters `Y`, `Z` (`M x M` row-major each), their
/// momentum buffers, the seeded data stream, the current `c_n` and the per-iteration [`Record`].
///
/// `step()` takes one SGD iteration and allocates nothing (the record is reserved for
/// `iterations` iterations at construction; stepping past `iterations` is allowed and grows it).
#[derive(Clone, Debug)]
pub struct Trainer {
    config: TrainingConfig,
    data: Dataset,
    m: usize,
    /// `Y` row-major (the public view, refreshed after each update).
    y: Vec<f64>,
    /// `Y^T`: the decoder in the layout the model and the update work in.
    yt: Vec<f64>,
    z: Vec<f64>,
    /// Momentum of `Y`, transposed like `yt`.
    vyt: Vec<f64>,
    vz: Vec<f64>,
    /// Gradient of `Y`, transposed like `yt`.
    gyt: Vec<f64>,
    gz: Vec<f64>,
    rng: Rng,
    iteration: usize,
    status: Status,
    dense: Vec<u32>,
    support: Vec<usize>,
    counts: Vec<f64>,
    scratch: ModelScratch,
    c: Vec<f64>,
    c_prev: Vec<f64>,
    query_token: usize,
    query_classes: Vec<usize>,
    record: Record,
}

impl Trainer {
    /// Builds the run of a validated configuration at state 0: data, initial `Y`, `Z`
    /// (zero, or uniform in `[-1/sqrt(M), 1/sqrt(M))`, `Y` first then `Z`, row-major, from stream
    /// [`STREAM_INIT`] of the seed), and the record of state 0.
    pub fn new(config: &TrainingConfig) -> Trainer {
        let data = Dataset::new(config);
        let m = data.m();
        let k = data.classes().len();
        let mut y = vec![0.0; m * m];
        let mut z = vec![0.0; m * m];
        if config.weights_init == WeightsInit::Uniform {
            let a = 1.0 / (m as f64).sqrt();
            let mut rng = Rng::new(config.seed, STREAM_INIT);
            y.iter_mut().chain(z.iter_mut()).for_each(|x| *x = rng.uniform(-a, a));
        }
        let query_token = data.query_tokens()[config.query_row.min(data.query_tokens().len() - 1)];
        let query_classes: Vec<usize> = (0..k).filter(|&n| data.classes()[n].query == query_token).collect();
        let states = config.iterations + 1;
        let record = Record {
            loss: Vec::with_capacity(config.iterations),
            max_dc: Vec::with_capacity(config.iterations),
            entropy: Vec::with_capacity(states),
            query_logits: Vec::with_capacity(states * m),
            query_c: Vec::with_capacity(states * query_classes.len() * m),
        };
        let mut t = Trainer {
            config: config.clone(),
            m,
            vyt: vec![0.0; m * m],
            vz: vec![0.0; m * m],
            gyt: vec![0.0; m * m],
            gz: vec![0.0; m * m],
            yt: {
                let mut yt = vec![0.0; m * m];
                transpose(&y, m, &mut yt);
                yt
            },
            y,
            z,
            rng: Rng::new(config.seed, STREAM_DATA),
            iteration: 0,
            status: if config.iterations > 0 { Status::Running } else { Status::Finished },
            dense: vec![0; m],
            support: Vec::with_capacity(m),
            counts: Vec::with_capacity(m),
            scratch: ModelScratch::new(m),
            c: vec![0.0; k * m],
            c_prev: vec![0.0; k * m],
            query_token,
            query_classes,
            record,
            data,
        };
        all_class_attention(&t.z, m, t.data.classes(), &mut t.c);
        t.record_state();
        t
    }

    fn record_state(&mut self) {
        let m = self.m;
        let h = mean_distinct_entropy(&self.c, m, self.data.classes());
        self.record.entropy.push(h);
        let q = self.query_token;
        self.record.query_logits.extend_from_slice(&self.z[q * m..(q + 1) * m]);
        for &n in &self.query_classes {
            self.record.query_c.extend_from_slice(&self.c[n * m..(n + 1) * m]);
        }
    }

    /// One SGD iteration regardless of `iterations`: draws a batch, computes the mean loss and
    /// exact gradients (see [`super::model`]), updates `Z` with `eta_Z` and `Y` with
    /// `eta_Y = ratio * eta_Z` (momentum SGD, [`super::sgd`]), then records the new state.
    /// If the loss or a gradient is not finite the parameters are left unchanged and the status
    /// becomes [`Status::Diverged`].
    pub fn step(&mut self) -> Result<(), Divergence> {
        if let Status::Diverged(message) = &self.status {
            return Err(Divergence { message: message.clone() });
        }
        let m = self.m;
        self.gyt.iter_mut().for_each(|x| *x = 0.0);
        self.gz.iter_mut().for_each(|x| *x = 0.0);
        let mut total = 0.0;
        for _ in 0..self.config.batch {
            let n = self.data.draw(&mut self.rng, &mut self.dense, &mut self.support, &mut self.counts);
            let class = &self.data.classes()[n];
            total += sequence_loss(
                &self.yt,
                &self.z,
                m,
                class.query,
                class.next,
                &self.support,
                &self.counts,
                &mut self.scratch,
                Some((&mut self.gyt, &mut self.gz)),
            );
        }
        let inv = 1.0 / self.config.batch as f64;
        let loss = total * inv;
        self.gyt.iter_mut().for_each(|x| *x *= inv);
        self.gz.iter_mut().for_each(|x| *x *= inv);
        if !loss.is_finite() || !self.gyt.iter().chain(self.gz.iter()).all(|x| x.is_finite()) {
            let message = format!(
                "Paused at iteration {}: the loss or its gradient overflowed the f64 range; use a smaller eta_z or ratio.",
                self.iteration
            );
            self.status = Status::Diverged(message.clone());
            return Err(Divergence { message });
        }
        let (eta_z, mu) = (self.config.eta_z, self.config.momentum);
        let eta_y = self.config.ratio * eta_z;
        sgd_step(&mut self.z, &mut self.vz, &self.gz, eta_z, mu);
        sgd_step(&mut self.yt, &mut self.vyt, &self.gyt, eta_y, mu);
        transpose(&self.yt, m, &mut self.y);
        std::mem::swap(&mut self.c, &mut self.c_prev);
        all_class_attention(&self.z, m, self.data.classes(), &mut self.c);
        self.record.loss.push(loss);
        self.record.max_dc.push(max_abs_change(&self.c, &self.c_prev));
        self.iteration += 1;
        self.record_state();
        self.status = if self.iteration >= self.config.iterations { Status::Finished } else { Status::Running };
        Ok(())
    }

    /// Runs to `iterations` (or a divergence).
    pub fn run(&mut self) -> &Record {
        self.advance(u64::MAX);
        &self.record
    }

    /// The configuration.
    pub fn config(&self) -> &TrainingConfig {
        &self.config
    }

    /// The data (vocabulary, classes, labels).
    pub fn data(&self) -> &Dataset {
        &self.data
    }

    /// The classes (`K`), in the order of the rows of [`Trainer::c`].
    pub fn classes(&self) -> &[Class] {
        self.data.classes()
    }

    /// Vocabulary size `M`.
    pub fn m(&self) -> usize {
        self.m
    }

    /// Number of classes `K`.
    pub fn k(&self) -> usize {
        self.data.classes().len()
    }

    /// Iterations taken.
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// Where the run stands.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Decoder `Y` (`M x M` row-major; output logits are `Y f~`).
    pub fn y(&self) -> &[f64] {
        &self.y
    }

    /// Attention logits `Z` (`M x M` row-major; row `m` is the query token `m`'s logits).
    pub fn z(&self) -> &[f64] {
        &self.z
    }

    /// `c_n` of every class at the current state (`K x M` row-major, rows sum to 1; science.md §5).
    pub fn c(&self) -> &[f64] {
        &self.c
    }

    /// The token id of the recorded query row.
    pub fn query_token(&self) -> usize {
        self.query_token
    }

    /// The classes whose query is the recorded row (indices into [`Trainer::classes`]), in the
    /// order of [`Record::query_c`].
    pub fn query_classes(&self) -> &[usize] {
        &self.query_classes
    }

    /// The per-iteration record.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Distinct-token entropy (nats) of the current state.
    pub fn entropy(&self) -> f64 {
        *self.record.entropy.last().unwrap_or(&0.0)
    }

    /// Distinct-token entropy (nats) of uniform attention (`Z = 0`) on this run's data
    /// ([`uniform_attention_entropy`]): the reference the entropy falls from.
    pub fn uniform_entropy(&self) -> f64 {
        uniform_attention_entropy(self.m, self.data.classes())
    }

    /// Loss of the last iteration (NaN before the first).
    pub fn last_loss(&self) -> f64 {
        *self.record.loss.last().unwrap_or(&f64::NAN)
    }

    /// [`snap_iteration`] of the record so far with the configuration's `snap_tol`.
    pub fn snap_iteration(&self) -> Option<usize> {
        snap_iteration(&self.record.max_dc, self.config.snap_tol)
    }

    /// [`snap_iteration_live`] of the record so far with `snap_tol` and a window of `window`
    /// iterations.
    pub fn snap_iteration_live(&self, window: usize) -> Option<usize> {
        snap_iteration_live(&self.record.max_dc, self.config.snap_tol, window)
    }
}

impl Stepping for Trainer {
    fn step(&mut self) -> Result<(), Divergence> {
        Trainer::step(self)
    }

    fn status(&self) -> &Status {
        Trainer::status(self)
    }
}
