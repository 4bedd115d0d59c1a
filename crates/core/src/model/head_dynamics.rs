//! One trained head as a particle system (science.md §7.6): the tokens `h_{L−1}` of the
//! unmodified forward move by `dx_i/dt = sum_j P_ij V_h x_j`, `P_ij = softmax_j(x_iᵀ A x_j)`
//! (beta = 1; `A = S_h` or `B_h`, the key `bilinear`), through the particle core's low-rank field
//! ([`LowRankField`]), by forward Euler in R^d (with the rescaled tokens `z = exp(-tV_h) x` of
//! §1.2, `exp(-tV_h) = I + W_o F(-t) W_v`, [`value_exp_factor`]) or on the sphere of radius
//! `sqrt(d_model)` (§2.1 SA: the velocity projected onto the tangent space, each token put back
//! on the sphere after the step, §2.2). Time `t = step · dt`, never accumulated.

use super::clusters::{cosines, labels_of, mean_cosine};
use super::encoder::Encoder;
use super::head_spectrum::head_spectrum;
use super::heads::{head_matrices, HeadMatrices};
use super::ops::Pool;
use super::repeat::Repeater;
use super::tokenizer::Encoding;
use super::Variant;
use crate::particles::analysis::attention::{boolean_distance_row, mark_leaders};
use crate::particles::analysis::hyperplanes::hyperplanes;
use crate::particles::analysis::spectrum::{top_left_eigenvector, SIMPLE_TOL};
use crate::particles::field::low_rank::{value_exp_factor, Bilinear, Factors, LowRankField};

/// The default step size `dt`.
pub const DEFAULT_DT: f64 = 0.01;
/// The default end time `until`.
pub const DEFAULT_UNTIL: f64 = 10.0;
/// Most Euler steps of one run (`until / dt`, rounded).
pub const MAX_STEPS: u64 = 100_000;
/// About this many listed samples per run: every `ceil(steps / SAMPLES)`-th step, and the last.
pub const SAMPLES: u64 = 100;
/// The `hyperplanes` metric's relative tolerance (the particle lab's default `cluster_tol`, §1.7).
pub const HYPERPLANE_TOL: f64 = 0.016;

/// What to run: head `head` (0-based) of layer `layer` (1-based).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadDynamicsSpec {
    /// The layer, 1-based.
    pub layer: usize,
    /// The head, 0-based.
    pub head: usize,
    /// The scores' bilinear form.
    pub bilinear: Bilinear,
    /// On the sphere of radius `sqrt(d_model)` (§2.1 SA) rather than in R^d.
    pub sphere: bool,
    /// The Euler step.
    pub dt: f64,
    /// The end time.
    pub until: f64,
    /// The cluster rule's tolerance (§7.3).
    pub cos_tol: f64,
}

impl HeadDynamicsSpec {
    /// The run a model link asks for: its layer and head, `bilinear`, `cos_tol`, on the sphere
    /// when `head_space=sphere`, the default `dt` and `until`.
    pub fn of_link(link: &super::keys::ModelLink) -> HeadDynamicsSpec {
        HeadDynamicsSpec {
            layer: link.layer,
            head: link.head,
            bilinear: link.bilinear,
            sphere: link.head_space == super::keys::HeadSpace::Sphere,
            dt: DEFAULT_DT,
            until: DEFAULT_UNTIL,
            cos_tol: link.cos_tol,
        }
    }

    /// The Euler steps, `round(until / dt)`.
    pub fn steps(&self) -> u64 {
        (self.until / self.dt).round() as u64
    }

    /// Every how many steps a sample is listed: `ceil(steps / SAMPLES)`, at least 1.
    pub fn every(&self) -> u64 {
        self.steps().div_ceil(SAMPLES).max(1)
    }

    /// Refuses a `dt` or `until` that is not a positive finite number, or more than
    /// [`MAX_STEPS`] steps (or none), naming the flag.
    pub fn check(&self) -> Result<(), String> {
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return Err(format!("invalid --dt {}: a positive number", self.dt));
        }
        if !(self.until.is_finite() && self.until > 0.0) {
            return Err(format!("invalid --until {}: a positive number", self.until));
        }
        let steps = self.until / self.dt;
        if !(0.5..=MAX_STEPS as f64).contains(&steps) {
            return Err(format!(
                "invalid --until {} with --dt {}: {} Euler steps, at least 1 and at most {}",
                self.until,
                self.dt,
                steps.round(),
                MAX_STEPS
            ));
        }
        Ok(())
    }
}

/// §1.3's verdict on `V_h` with numbers: `λ₁` (largest modulus, §1.7), whether it is real,
/// positive and simple (§1.7's `1e-9 λ₁` rule), and `φ₁ᵀ S_h φ₁` for the unit right eigenvector
/// `φ₁` when those hold (`= φ₁ᵀ B_h φ₁`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// `λ₁` as `[re, im]`.
    pub lambda1: (f64, f64),
    /// `λ₁` is real.
    pub real: bool,
    /// `λ₁` is real and positive.
    pub positive: bool,
    /// Every other eigenvalue is smaller in modulus by more than `1e-9 |λ₁|`.
    pub simple: bool,
    /// `φ₁ᵀ S_h φ₁` (`|φ₁| = 1`), when `λ₁` is real, positive and simple.
    pub phi1_s_phi1: Option<f64>,
    /// §1.3's hyperplanes row applies: all of the above and `φ₁ᵀ S_h φ₁ > 0`.
    pub hyperplanes_row: bool,
}

/// The cluster statistics of one set of tokens (§7.3).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TokenStats {
    /// Number of clusters.
    pub clusters: usize,
    /// Each token's cluster.
    pub labels: Vec<usize>,
    /// Mean cosine over `i < j`.
    pub mean_cos: f64,
}

impl TokenStats {
    /// The statistics of `x` (`n x d`) under `cos_tol`.
    pub fn of(x: &[f64], n: usize, d: usize, cos_tol: f64) -> TokenStats {
        let cos = cosines(x, n, d);
        let labels = labels_of(&cos, n, cos_tol);
        let clusters = labels.iter().max().map_or(0, |m| m + 1);
        TokenStats { clusters, labels, mean_cos: mean_cosine(&cos, n) }
    }
}

/// One listed step of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Sample {
    /// Steps done.
    pub step: u64,
    /// `t = step · dt`.
    pub t: f64,
    /// The clusters of `x` (§7.3).
    #[serde(flatten)]
    pub x: TokenStats,
    /// `max_ij |P_ij − round P_ij|` (§1.7).
    pub boolean_distance: f64,
    /// The tokens `j` with `max_i P_ij > 1/2` (§1.7).
    pub leaders: Vec<usize>,
    /// The largest `|x_i|`.
    pub max_norm: f64,
    /// The groups of `<ψ₁, x_i>` (§1.7's `hyperplanes` at [`HYPERPLANE_TOL`]), in R^d when `ψ₁`
    /// is defined.
    pub hyperplanes: Option<usize>,
    /// The clusters of the rescaled `z` (R^d only; `None` when `z` is not finite).
    pub z: Option<TokenStats>,
}

/// Why a run stopped: the step whose state is not finite, and what.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HeadStopped {
    /// The step (1-based) that failed, or whose state's scores overflowed; 0 for the initial state.
    pub step: u64,
    /// What overflowed.
    pub what: String,
}

/// A head's particles, stepped by forward Euler.
#[derive(Clone, Debug)]
pub struct HeadRun {
    spec: HeadDynamicsSpec,
    m: HeadMatrices,
    /// `M = W_v W_o` (`d_k x d_k`).
    core: Vec<f64>,
    field: LowRankField,
    n: usize,
    x: Vec<f64>,
    vel: Vec<f64>,
    step: u64,
    psi: Option<Vec<f64>>,
}

impl HeadRun {
    /// The run of `spec` on head matrices `m` from the tokens `x0` (`n x d`); on the sphere each
    /// token is first scaled to radius `sqrt(d)` (a zero token is refused).
    pub fn new(m: HeadMatrices, x0: Vec<f64>, n: usize, spec: HeadDynamicsSpec) -> Result<HeadRun, HeadStopped> {
        let f = Factors { d: m.d, dk: m.dk, wq: &m.wq, wk: &m.wk, wv: &m.wv, wo: &m.wo };
        let field = LowRankField::new(f, spec.bilinear, n);
        let core = m.value_core();
        let mut run = HeadRun { spec, core, field, n, vel: vec![0.0; x0.len()], x: x0, step: 0, psi: None, m };
        if spec.sphere {
            run.onto_sphere(0)?;
        } else {
            run.psi = left_eigenvector(&run.m, &run.core);
        }
        Ok(run)
    }

    /// The run of `spec` from `h_{L−1}` of the unmodified forward on `enc`'s tokens (the `f32`
    /// states as `f64`). `None` when the layer or head is out of range.
    pub fn from_encoder(
        encoder: &Encoder,
        enc: &Encoding,
        spec: HeadDynamicsSpec,
        pool: &dyn Pool,
    ) -> Option<Result<HeadRun, HeadStopped>> {
        let m = head_matrices(&encoder.config, &encoder.weights, spec.layer, spec.head)?;
        let r = Repeater::new(encoder, enc, spec.layer, Variant::Transformer, pool);
        let x0 = r.state().iter().map(|&v| v as f64).collect();
        Some(HeadRun::new(m, x0, r.n(), spec))
    }

    /// The head's matrices.
    pub fn matrices(&self) -> &HeadMatrices {
        &self.m
    }

    /// Steps done.
    pub fn step_count(&self) -> u64 {
        self.step
    }

    /// The tokens `x` now (`n x d`).
    pub fn state(&self) -> &[f64] {
        &self.x
    }

    /// Puts every token on the sphere of radius `sqrt(d)`: `x_i <- sqrt(d) x_i / |x_i|`
    /// ([`crate::linalg::normalize`], then the radius).
    fn onto_sphere(&mut self, step: u64) -> Result<(), HeadStopped> {
        let d = self.m.d;
        let radius = (d as f64).sqrt();
        for (i, row) in self.x.chunks_mut(d).enumerate() {
            if !crate::linalg::normalize(row) {
                return Err(HeadStopped {
                    step,
                    what: format!("token {} is zero or not finite and cannot be put on the sphere", i),
                });
            }
            row.iter_mut().for_each(|v| *v *= radius);
        }
        Ok(())
    }

    /// One forward Euler step: `x <- x + dt v(x)` (on the sphere, `v` projected and each token
    /// put back on the sphere). A non-finite velocity or state is refused (the state stays).
    pub fn step(&mut self) -> Result<(), HeadStopped> {
        let step = self.step + 1;
        let stop = |what: String| HeadStopped { step, what };
        let from = format!("Euler step {} (from t = {})", step, time(self.step as f64 * self.spec.dt));
        self.field
            .velocity(&self.x, &mut self.vel, self.spec.sphere)
            .map_err(|e| stop(format!("{}: {}", from, e.message)))?;
        let before = self.x.clone();
        for (x, v) in self.x.iter_mut().zip(&self.vel) {
            *x += self.spec.dt * v;
        }
        let ok = if self.spec.sphere { self.onto_sphere(step).map_err(|e| e.what) } else { Ok(()) };
        let bad = self.x.iter().filter(|v| !v.is_finite()).count();
        if ok.is_err() || bad > 0 {
            self.x = before;
            let what = ok.err().unwrap_or_else(|| format!("{} token coordinates overflowed", bad));
            return Err(stop(format!("Euler step {} (to t = {}): {}", step, time(step as f64 * self.spec.dt), what)));
        }
        self.step = step;
        Ok(())
    }

    /// The rescaled tokens `z = exp(-tV_h) x = x + W_o F(-t) W_v x` at `t = step · dt` (R^d);
    /// `None` when an entry is not finite.
    pub fn rescaled(&self) -> Option<Vec<f64>> {
        let (n, d, dk) = (self.n, self.m.d, self.m.dk);
        let f = value_exp_factor(&self.core, dk, -(self.step as f64 * self.spec.dt));
        let mut u = vec![0.0; n * dk];
        self.field.values(&self.x, &mut u);
        let mut g = vec![0.0; n * dk];
        for (ui, gi) in u.chunks_exact(dk.max(1)).zip(g.chunks_exact_mut(dk.max(1))) {
            for (r, gr) in gi.iter_mut().enumerate() {
                *gr = (0..dk).fold(0.0, |s, c| s + f[r * dk + c] * ui[c]);
            }
        }
        let mut z = vec![0.0; n * d];
        self.field.output_of(&g, &mut z, n);
        for (za, &xa) in z.iter_mut().zip(&self.x) {
            *za += xa; // x_a + (W_o g)_a: the same sum as the plain loop (addition commutes)
        }
        z.iter().all(|v| v.is_finite()).then_some(z)
    }

    /// `<ψ₁, x_i>` of the state now, one per token (the values whose groups are the sample's
    /// `hyperplanes`, §1.3 and §1.7), when `ψ₁` is defined (R^d, §1.3's row applies).
    pub fn psi_values(&self) -> Option<Vec<f64>> {
        let psi = self.psi.as_ref()?;
        Some(crate::particles::analysis::hyperplanes::projections(&self.x, self.n, self.m.d, psi))
    }

    /// Streams the rows of the attention matrix `P` of the state now: `visit(i, row)` for
    /// `i = 0..n` in order (the rows [`HeadRun::sample`] reads).
    pub fn attention_rows(&mut self, visit: &mut dyn FnMut(usize, &[f64])) -> Result<(), String> {
        self.field.attention_rows(&self.x, visit).map_err(|e| e.message)
    }

    /// The statistics of the state now.
    pub fn sample(&mut self) -> Result<Sample, HeadStopped> {
        let (n, d) = (self.n, self.m.d);
        let (mut bd, mut leader) = (0.0, vec![false; n]);
        self.field
            .attention_rows(&self.x, &mut |_, row| {
                bd = boolean_distance_row(bd, row);
                mark_leaders(row, &mut leader);
            })
            .map_err(|e| HeadStopped {
                step: self.step,
                what: format!(
                    "the state after Euler step {} (t = {}): {}",
                    self.step,
                    time(self.step as f64 * self.spec.dt),
                    e.message
                ),
            })?;
        let norm = |r: &[f64]| r.iter().fold(0.0, |s, v| s + v * v).sqrt();
        let z = if self.spec.sphere { None } else { self.rescaled() };
        Ok(Sample {
            step: self.step,
            t: self.step as f64 * self.spec.dt,
            x: TokenStats::of(&self.x, n, d, self.spec.cos_tol),
            boolean_distance: bd,
            leaders: (0..n).filter(|&j| leader[j]).collect(),
            max_norm: self.x.chunks(d).map(norm).fold(0.0, f64::max),
            hyperplanes: self.psi.as_ref().and_then(|p| hyperplanes(&self.x, n, d, p, HYPERPLANE_TOL)),
            z: z.map(|z| TokenStats::of(&z, n, d, self.spec.cos_tol)),
        })
    }
}

/// A time for a message: plain below 1e6, else in exponent form.
fn time(t: f64) -> String {
    if t.abs() < 1e6 {
        format!("{}", t)
    } else {
        format!("{:e}", t)
    }
}

/// The unit left eigenvector `ψ₁ = W_vᵀ η` of `V_h` (`ηᵀ M = λ₁ ηᵀ`, [`top_left_eigenvector`] of
/// `M = W_v W_o`), its largest-magnitude entry positive; `None` unless `λ₁` is real, positive
/// and simple.
fn left_eigenvector(m: &HeadMatrices, core: &[f64]) -> Option<Vec<f64>> {
    let (d, dk) = (m.d, m.dk);
    let eta = top_left_eigenvector(core, dk)?.psi;
    let psi: Vec<f64> = (0..d).map(|c| (0..dk).fold(0.0, |s, r| s + m.wv[r * d + c] * eta[r])).collect();
    unit_positive(psi)
}

/// `v / |v|`, its largest-magnitude entry (the first on ties) positive; `None` for a zero `v`.
fn unit_positive(mut v: Vec<f64>) -> Option<Vec<f64>> {
    let len = v.iter().fold(0.0, |s, x| s + x * x).sqrt();
    if len == 0.0 || !len.is_finite() {
        return None;
    }
    let top = v.iter().enumerate().fold(0, |b, (k, x)| if x.abs() > v[b].abs() { k } else { b });
    let sign = if v[top] < 0.0 { -1.0 } else { 1.0 };
    v.iter_mut().for_each(|x| *x = *x / len * sign);
    Some(v)
}

/// §1.3's verdict on head `m` ([`Verdict`]); `None` when the eigenvalue iteration does not
/// converge.
pub fn verdict(m: &HeadMatrices) -> Option<Verdict> {
    let (d, dk) = (m.d, m.dk);
    let v = head_spectrum(m)?.v;
    let modulus = |(re, im): (f64, f64)| (re * re + im * im).sqrt();
    let lambda1 = v[0];
    let (real, positive) = (lambda1.1 == 0.0, lambda1.1 == 0.0 && lambda1.0 > 0.0);
    let simple = v.get(1).is_none_or(|&e| modulus(e) < modulus(lambda1) * (1.0 - SIMPLE_TOL));
    let mut phi1_s_phi1 = None;
    if real && positive && simple {
        // φ₁ = W_o ξ with M ξ = λ₁ ξ: ξ is the left eigenvector of Mᵀ.
        let core = m.value_core();
        let core_t: Vec<f64> = (0..dk * dk).map(|k| core[(k % dk) * dk + k / dk]).collect();
        if let Some(xi) = top_left_eigenvector(&core_t, dk) {
            let phi = (0..d).map(|a| (0..dk).fold(0.0, |s, r| s + m.wo[a * dk + r] * xi.psi[r])).collect();
            if let Some(phi) = unit_positive(phi) {
                let proj = |w: &[f64], r: usize| (0..d).fold(0.0, |s, c| s + w[r * d + c] * phi[c]);
                let qk = (0..dk).fold(0.0, |s, r| s + proj(&m.wq, r) * proj(&m.wk, r));
                phi1_s_phi1 = Some(qk / (dk as f64).sqrt());
            }
        }
    }
    let hyperplanes_row = phi1_s_phi1.is_some_and(|q| q > 0.0);
    Some(Verdict { lambda1, real, positive, simple, phi1_s_phi1, hyperplanes_row })
}

/// A whole run: the listed samples (steps `0, every, 2 every, …` and the last), the final tokens
/// (`x`, and `z` in R^d) and why it stopped early, if it did.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadDynamics {
    /// The listed samples.
    pub samples: Vec<Sample>,
    /// The tokens `x` after the last step done (`n x d`).
    pub x: Vec<f64>,
    /// The rescaled `z` then (R^d; `None` on the sphere or when not finite).
    pub z: Option<Vec<f64>>,
    /// Why the run stopped early.
    pub stopped: Option<HeadStopped>,
}

/// Runs `run` to its spec's end, listing samples as [`HeadDynamics`] says.
pub fn run_to_end(run: &mut HeadRun) -> HeadDynamics {
    run_observed(run, &mut |_, _| {})
}

/// [`run_to_end`], calling `seen(run, sample)` at each listed sample with the run in that state
/// (the page keeps what it draws: the tokens and `P` at each sample).
pub fn run_observed(run: &mut HeadRun, seen: &mut dyn FnMut(&mut HeadRun, &Sample)) -> HeadDynamics {
    let mut listed = Listed::default();
    while !listed.advance(run, seen, u64::MAX) {}
    listed.finish(run)
}

/// A run listed a slice at a time: [`run_observed`]'s samples, in the same order with the same
/// bits, from calls of [`Listed::advance`] that each take a bounded number of Euler steps (so a
/// Web Worker can answer its messages between slices and drop a run nobody waits for).
#[derive(Debug, Default)]
pub struct Listed {
    samples: Vec<Sample>,
    stopped: Option<HeadStopped>,
    begun: bool,
}

impl Listed {
    /// Takes up to `max_steps` Euler steps of `run` (the first call lists the initial state
    /// first), calling `seen` at each listed sample; true once the run is over (its last step
    /// taken, or stopped by a non-finite state).
    pub fn advance(&mut self, run: &mut HeadRun, seen: &mut dyn FnMut(&mut HeadRun, &Sample), max_steps: u64) -> bool {
        let (steps, every) = (run.spec.steps(), run.spec.every());
        if !self.begun {
            self.begun = true;
            self.list(run, seen);
        }
        let mut taken = 0;
        while self.stopped.is_none() && run.step < steps && taken < max_steps {
            taken += 1;
            if let Err(e) = run.step() {
                self.stopped = Some(e);
                break;
            }
            if run.step.is_multiple_of(every) || run.step == steps {
                self.list(run, seen);
            }
        }
        self.stopped.is_some() || run.step >= steps
    }

    /// Lists the sample of `run`'s state now, or records why it cannot be taken.
    fn list(&mut self, run: &mut HeadRun, seen: &mut dyn FnMut(&mut HeadRun, &Sample)) {
        match run.sample() {
            Ok(s) => {
                seen(run, &s);
                self.samples.push(s)
            }
            Err(e) => self.stopped = Some(e),
        }
    }

    /// The whole run: the samples listed, the final tokens and why it stopped early.
    pub fn finish(self, run: &HeadRun) -> HeadDynamics {
        let z = if run.spec.sphere { None } else { run.rescaled() };
        HeadDynamics { samples: self.samples, x: run.x.clone(), z, stopped: self.stopped }
    }
}
