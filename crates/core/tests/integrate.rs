//! The fast path's guarantees (docs/particle-lab.md, "Same bits everywhere"): a step driven stage by stage with velocities computed in
//! blocks of rows by separate fields (what the page's worker pool and the CLI's threads do) gives
//! the same bits as `Simulation::step` for 1, 2 and 3 blocks; and the fast row kernel agrees with
//! a straightforward reference implementation (full n x n softmax with libm's exp) to 1e-9
//! relative over 100 steps.

use attn_core::particles::config::{Integrator, Model, Space};
use attn_core::particles::field::{check_velocity, Field};
use attn_core::{parse, Simulation};

const CONFIGS: [&str; 6] = [
    "preset=polytope&n=67&d=2&integrator=rk4",
    "preset=polytope-3d&n=45",
    "preset=random-psd&n=50&d=5&integrate_in=x",
    "preset=sphere-sa&n=40&d=3",
    "preset=sphere-usa&n=33&d=3",
    "preset=sphere-sa-clusters&n=31&d=2&integrator=retraction",
];

/// Steps `sim` once through `begin_step` / `pending_stage` / `supply_velocity`, each stage's
/// velocity computed as `blocks` blocks of rows, each by its own field.
fn step_in_blocks(sim: &mut Simulation, fields: &mut [Field]) {
    let (n, d) = (sim.n(), sim.d());
    sim.begin_step().unwrap();
    let mut velocity = vec![0.0; n * d];
    loop {
        let (stage, state) = sim.pending_stage().expect("a stage is pending");
        let state = state.to_vec();
        let blocks = fields.len();
        for (b, field) in fields.iter_mut().enumerate() {
            let (lo, hi) = (b * n / blocks, (b + 1) * n / blocks);
            field.velocity_rows(stage.t, &state, lo, hi, &mut velocity[lo * d..hi * d], stage.projected).unwrap();
        }
        check_velocity(&velocity).unwrap();
        if sim.supply_velocity(&velocity).unwrap() {
            return;
        }
    }
}

#[test]
fn blocks_of_rows_give_the_same_bits_as_one_step() {
    for config in CONFIGS {
        let c = parse(config).unwrap();
        let mut reference = Simulation::new(&c);
        let states: Vec<Vec<f64>> = (0..25)
            .map(|_| {
                reference.step().unwrap();
                reference.state().to_vec()
            })
            .collect();
        for blocks in [1usize, 2, 3] {
            let mut sim = Simulation::new(&c);
            let mut fields: Vec<Field> = (0..blocks).map(|_| Field::new(&c, sim.matrices())).collect();
            for (step, want) in states.iter().enumerate() {
                step_in_blocks(&mut sim, &mut fields);
                let same = sim.state().iter().zip(want).all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{}: {} blocks differ at step {}", config, blocks, step + 1);
            }
            assert_eq!(sim.step_count(), 25);
        }
    }
}

#[test]
fn a_worker_divergence_pauses_with_the_last_good_state() {
    let c = parse("preset=polytope&n=20").unwrap();
    let mut sim = Simulation::new(&c);
    sim.step().unwrap();
    let good = sim.state().to_vec();
    sim.begin_step().unwrap();
    let e = sim.abort_step("the attention scores overflowed");
    assert!(e.message.contains("Paused at t = 0.1 (step 1)"), "{}", e.message);
    assert_eq!(sim.state(), &good[..]);
    assert!(sim.step().is_err());
    // A non-finite velocity from outside is caught like the field's own.
    let mut sim = Simulation::new(&c);
    sim.begin_step().unwrap();
    let mut v = vec![0.0; 40];
    v[7] = f64::NAN;
    assert!(sim.supply_velocity(&v).is_err());
    assert!(sim.supply_velocity(&v).is_err(), "no step in progress any more");
}

/// A straightforward reference: the whole n x n score matrix, a max-subtracted softmax per row
/// with libm's exp, `P V y` by plain loops (science.md §1, §2). Returns the velocity of `y`.
fn reference_velocity(
    c: &attn_core::Config,
    q: &[f64],
    k: &[f64],
    v: &[f64],
    t: f64,
    y: &[f64],
    projected: bool,
) -> Vec<f64> {
    let (n, d) = (c.n, c.d);
    let apply =
        |m: &[f64], x: &[f64]| -> Vec<f64> { (0..d).map(|r| (0..d).map(|s| m[r * d + s] * x[s]).sum()).collect() };
    let in_z = c.model == Model::Euclidean && c.integrate_in == Space::Z;
    // In z (these tests use V = I there): x = e^t z.
    let g = if in_z { t.exp() } else { 1.0 };
    let qy: Vec<Vec<f64>> = (0..n).map(|i| apply(q, &y[i * d..(i + 1) * d]).iter().map(|a| a * g).collect()).collect();
    let ky: Vec<Vec<f64>> = (0..n).map(|j| apply(k, &y[j * d..(j + 1) * d]).iter().map(|a| a * g).collect()).collect();
    let vy: Vec<Vec<f64>> = (0..n).map(|j| apply(v, &y[j * d..(j + 1) * d])).collect();
    let mut out = vec![0.0; n * d];
    for i in 0..n {
        let s: Vec<f64> = (0..n).map(|j| c.beta * (0..d).map(|r| qy[i][r] * ky[j][r]).sum::<f64>()).collect();
        let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = s.iter().map(|x| libm::exp(x - m)).collect();
        let sum: f64 = e.iter().sum();
        let weight = |j: usize| {
            if c.model == Model::SphereUsa {
                libm::exp(m) * e[j] / n as f64
            } else {
                e[j] / sum
            }
        };
        for r in 0..d {
            let mut acc = 0.0;
            for j in 0..n {
                acc += weight(j) * if in_z { vy[j][r] - vy[i][r] } else { vy[j][r] };
            }
            out[i * d + r] = acc;
        }
        if projected && c.model != Model::Euclidean {
            let xi = &y[i * d..(i + 1) * d];
            let dot: f64 = (0..d).map(|r| xi[r] * out[i * d + r]).sum();
            for r in 0..d {
                out[i * d + r] -= dot * xi[r];
            }
        }
    }
    out
}

/// One step of the reference: Euler / retraction / RK4 written plainly.
fn reference_step(c: &attn_core::Config, q: &[f64], k: &[f64], v: &[f64], step: u64, y: &mut Vec<f64>) {
    let dt = c.dt;
    let t0 = step as f64 * dt;
    let sphere = c.model != Model::Euclidean;
    let add = |a: &[f64], b: &[f64], h: f64| -> Vec<f64> { a.iter().zip(b).map(|(x, y)| x + h * y).collect() };
    match c.integrator {
        Integrator::Euler | Integrator::Retraction => {
            let k1 = reference_velocity(c, q, k, v, t0, y, false);
            *y = add(y, &k1, dt);
        }
        Integrator::Rk4 => {
            let k1 = reference_velocity(c, q, k, v, t0, y, sphere);
            let k2 = reference_velocity(c, q, k, v, t0 + dt / 2.0, &add(y, &k1, dt / 2.0), sphere);
            let k3 = reference_velocity(c, q, k, v, t0 + dt / 2.0, &add(y, &k2, dt / 2.0), sphere);
            let k4 = reference_velocity(c, q, k, v, t0 + dt, &add(y, &k3, dt), sphere);
            for i in 0..y.len() {
                y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
            }
        }
    }
    if sphere {
        for row in y.chunks_mut(c.d) {
            let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
            row.iter_mut().for_each(|x| *x /= norm);
        }
    }
}

#[test]
fn the_fast_kernel_agrees_with_a_plain_reference_over_100_steps() {
    let configs = [
        "preset=polytope&n=48&d=2&integrator=rk4",
        "preset=polytope&n=40&d=3&integrator=euler&integrate_in=x&v=identity&until=100",
        "preset=random-psd&n=36&d=4&integrate_in=x",
        "preset=sphere-sa&n=40&d=3",
        "preset=sphere-usa&n=30&d=3",
        "preset=sphere-sa-clusters&n=30&d=2&integrator=retraction",
        // The tiled kernels (d above field::SMALL_D), n no multiple of a tile size.
        "preset=random-psd&n=37&d=16&integrate_in=x&dt=0.01",
        "preset=sphere-sa&n=33&d=64&integrator=rk4",
        "preset=sphere-usa&n=29&d=16",
    ];
    for config in configs {
        let c = parse(config).unwrap();
        let mut sim = Simulation::new(&c);
        let m = sim.matrices().clone();
        let mut y = sim.state().to_vec();
        for step in 0..100 {
            sim.step().unwrap();
            reference_step(&c, &m.q, &m.k, &m.v, step, &mut y);
        }
        let scale = crate::common::max_abs(&y);
        let worst = crate::common::max_diff(sim.state(), &y);
        assert!(worst <= 1e-9 * scale, "{}: max |fast - reference| = {:e} (scale {:e})", config, worst, scale);
    }
}
