//! The tiled kernels keep the tokens' bits (science.md, "Matrix products"): for token dimensions on both sides of the
//! streamed/tiled switch (`field::SMALL_D`) and numbers of tokens that are no multiple of any tile
//! size, two steps of `Simulation::step` and of velocities computed in 2 and 3 blocks of rows
//! (the CLI's threads, the page's workers) equal, bit for bit, two steps driven by a plain
//! reference velocity written here with the order of science.md, "Matrix products": each score's
//! coordinates in increasing order, the max-subtracted exponentials, 8 lane sums combined in the
//! fixed tree. (The wasm build is compared with the native one, case by case at these d and n, by
//! `tests/e2e/wasm_bits.test.mjs`, and by the other browser tests and `cargo xtask bench`.)

use attn_core::exp::rational::exp_rational;
use attn_core::kernels::{combine, LANES};
use attn_core::particles::config::{Model, Space};
use attn_core::particles::field::{check_velocity, Field};
use attn_core::particles::init::Matrices;
use attn_core::{parse, Config, Simulation};

/// `A x_i` for every token, row-major (`n x d`): the copy when `A` is the identity and
/// `identity_shortcut`, else `sum_c A_rc x_ic` with `c` increasing.
fn project(a: &[f64], x: &[f64], n: usize, d: usize, identity_shortcut: bool) -> Vec<f64> {
    let mut out = vec![0.0; n * d];
    let copy = identity_shortcut && attn_core::linalg::is_identity(a, d);
    for i in 0..n {
        for r in 0..d {
            out[i * d + r] = if copy {
                x[i * d + r]
            } else {
                let mut s = a[r * d] * x[i * d];
                for c in 1..d {
                    s += a[r * d + c] * x[i * d + c];
                }
                s
            };
        }
    }
    out
}

/// The velocity of `state` at time `t`, plainly, in the order the core promises.
fn plain_velocity(
    cfg: &Config,
    m: &Matrices,
    exp_field: &mut Field,
    t: f64,
    state: &[f64],
    projected: bool,
) -> Vec<f64> {
    let (n, d) = (cfg.n, cfg.d);
    let relative = cfg.model == Model::Euclidean && cfg.integrate_in == Space::Z;
    let (a, b, c) = if relative {
        let mut em = vec![0.0; d * d];
        let s = exp_field.exp_tv(t, false, &mut em);
        let mut y = vec![0.0; n * d];
        attn_core::linalg::apply_rows(&em, state, n, d, &mut y);
        (project(&m.q, &y, n, d, true), project(&m.k, &y, n, d, true), cfg.beta * attn_core::exp::exp(2.0 * s))
    } else {
        (project(&m.q, state, n, d, true), project(&m.k, state, n, d, true), cfg.beta)
    };
    let w = project(&m.v, state, n, d, false);
    let mut out = vec![0.0; n * d];
    for i in 0..n {
        let scores: Vec<f64> = (0..n)
            .map(|j| {
                let mut s = a[i * d] * b[j * d];
                for k in 1..d {
                    s += a[i * d + k] * b[j * d + k];
                }
                s
            })
            .collect();
        let max = scores.iter().fold(f64::NEG_INFINITY, |m, &s| if s > m { s } else { m });
        assert!(max.is_finite(), "scores overflowed: choose milder test parameters");
        // The configuration's version picks the exponential (Taylor before version 2).
        let exp = if cfg.version >= 2 { exp_rational } else { attn_core::exp::exp_nonpositive };
        let e: Vec<f64> = if c.is_finite() {
            scores.iter().map(|&s| exp(c * (s - max))).collect()
        } else {
            scores.iter().map(|&s| if s == max { 1.0 } else { 0.0 }).collect()
        };
        let lane_sum = |f: &dyn Fn(usize) -> f64| {
            let mut acc = [0.0; LANES];
            for (j, &ej) in e.iter().enumerate() {
                acc[j % LANES] += ej * f(j);
            }
            combine(&acc)
        };
        let factor = if cfg.model == Model::SphereUsa {
            attn_core::exp::exp(cfg.beta * max) / n as f64
        } else {
            1.0 / lane_sum(&|_| 1.0)
        };
        for r in 0..d {
            let sum = if relative { lane_sum(&|j| w[j * d + r] - w[i * d + r]) } else { lane_sum(&|j| w[j * d + r]) };
            out[i * d + r] = sum * factor;
        }
        if projected && cfg.model != Model::Euclidean {
            attn_core::linalg::project_tangent(&state[i * d..(i + 1) * d], &mut out[i * d..(i + 1) * d]);
        }
    }
    out
}

/// A velocity `(t, state, projected) -> v`.
type Velocity<'a> = dyn FnMut(f64, &[f64], bool) -> Vec<f64> + 'a;

/// One step through the stage protocol, each stage's velocity from `velocity(t, state, projected)`.
fn step_by(sim: &mut Simulation, velocity: &mut Velocity) {
    sim.begin_step().unwrap();
    loop {
        let (stage, state) = sim.pending_stage().expect("a stage is pending");
        let v = velocity(stage.t, state, stage.projected);
        check_velocity(&v).unwrap();
        if sim.supply_velocity(&v).unwrap() {
            return;
        }
    }
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Two steps of `config`: `Simulation::step`, 2 and 3 blocks of rows, and the plain reference.
fn check(config: &str) {
    let cfg = parse(config).unwrap_or_else(|e| panic!("{config}: {e:?}"));
    let (n, d) = (cfg.n, cfg.d);
    let mut sim = Simulation::new(&cfg);
    let m = sim.matrices().clone();
    let mut exp_field = Field::new(&cfg, &m);
    let mut reference = Simulation::new(&cfg);
    let mut blocked: Vec<(Simulation, Vec<Field>)> =
        [2usize, 3].iter().map(|&k| (Simulation::new(&cfg), (0..k).map(|_| Field::new(&cfg, &m)).collect())).collect();
    for step in 1..=2 {
        sim.step().unwrap_or_else(|e| panic!("{config}: {}", e.message));
        step_by(&mut reference, &mut |t, s, p| plain_velocity(&cfg, &m, &mut exp_field, t, s, p));
        assert!(same_bits(sim.state(), reference.state()), "{config}: step {step} differs from the plain reference");
        for (other, fields) in blocked.iter_mut() {
            let k = fields.len();
            step_by(other, &mut |t, s, p| {
                let mut v = vec![0.0; n * d];
                for (b, f) in fields.iter_mut().enumerate() {
                    let (lo, hi) = attn_core::particles::field::row_block(n, k, b);
                    f.velocity_rows(t, s, lo, hi, &mut v[lo * d..hi * d], p).unwrap();
                }
                v
            });
            assert!(same_bits(sim.state(), other.state()), "{config}: step {step}, {k} blocks differ");
        }
    }
}

/// The four models and spaces with both schemes, `n` tokens of dimension `d` (half of them at
/// version 4, the rational exponential; the others without a version, i.e. version 1's Taylor form).
/// To keep the test time in budget: the z model (whose `exp(tV)` costs O(d^3) per stage and
/// field) up to d = 64, and only Euler and the retraction when `heavy`.
fn configs(n: usize, d: usize, heavy: bool) -> Vec<String> {
    let mut out = Vec::new();
    for scheme in if heavy { &["euler"][..] } else { &["euler", "rk4"][..] } {
        out.push(format!("preset=random-psd&integrate_in=x&n={n}&d={d}&dt=0.001&integrator={scheme}"));
        if d <= 64 {
            out.push(format!("version=4&preset=random-psd&integrate_in=z&n={n}&d={d}&dt=0.001&integrator={scheme}"));
        }
    }
    for scheme in if heavy { &["retraction"][..] } else { &["retraction", "rk4"][..] } {
        out.push(format!("preset=sphere-sa&n={n}&d={d}&integrator={scheme}&q=psd&k=psd&v=psd&beta=0.5"));
        out.push(format!("version=4&preset=sphere-usa&n={n}&d={d}&integrator={scheme}&beta=0.5"));
    }
    out
}

const DS: [usize; 8] = [1, 2, 3, 5, 16, 64, 128, 256];

#[test]
fn small_and_odd_sizes_keep_their_bits() {
    for d in DS {
        for n in [1, 7] {
            configs(n, d, false).iter().for_each(|c| check(c));
        }
    }
}

#[test]
fn n_513_keeps_its_bits() {
    for d in DS {
        configs(513, d, d > 64).iter().for_each(|c| check(c));
    }
}

#[test]
fn n_1000_keeps_its_bits() {
    for d in DS {
        configs(1000, d, d > 16).iter().for_each(|c| check(c));
    }
}
