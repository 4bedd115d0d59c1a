//! Science checks of science.md §2: SA and USA on the sphere.

use crate::common::{run, sim};
use attn_core::particles::analysis::{cluster_labels, interaction_energy};
use attn_core::Status;

/// The retraction scheme never decreases the interaction energy per step (relative 1e-12), SA
/// and USA, dt = 0.1, n = 64, d = 3, beta in {1, 4}.
#[test]
fn retraction_never_decreases_energy() {
    for model in ["sphere-sa", "sphere-usa"] {
        for beta in [1.0, 4.0] {
            let mut s = sim(&format!("preset=sphere-sa&model={}&beta={}&dt=0.1&n=64&until=30", model, beta));
            let mut e = interaction_energy(s.state(), 64, 3, beta);
            for step in 0..300 {
                s.step().unwrap();
                let e2 = interaction_energy(s.state(), 64, 3, beta);
                assert!(e2 >= e * (1.0 - 1e-12), "{} beta {} step {}: {} -> {}", model, beta, step, e, e2);
                e = e2;
            }
            let max = attn_core::exp::exp(beta) / (2.0 * beta);
            assert!(e <= max * (1.0 + 1e-12));
        }
    }
}

/// SA, n = 64, d = 3, beta = 1: all <x_i, x_j> > 0.9999 by T = 15 (one cluster), and the
/// energy is then close to its maximum e^beta / (2 beta).
#[test]
fn sa_small_beta_gives_one_cluster() {
    for seed in 1..=3u32 {
        let mut s = sim(&format!("preset=sphere-sa&seed={}", seed));
        run(&mut s, 150);
        assert_eq!(s.status(), &Status::Finished);
        let x = s.state();
        let mut min_dot = f64::INFINITY;
        for i in 0..64 {
            for j in 0..64 {
                let dot: f64 = (0..3).map(|c| x[i * 3 + c] * x[j * 3 + c]).sum();
                min_dot = min_dot.min(dot);
            }
        }
        assert!(min_dot > 0.9999, "seed {}: min <x_i, x_j> = {}", seed, min_dot);
        let e = interaction_energy(x, 64, 3, 1.0);
        assert!((e - std::f64::consts::E / 2.0).abs() < 1e-3);
    }
}

/// Tokens stay on the unit sphere under both schemes.
#[test]
fn tokens_stay_on_the_sphere() {
    for integrator in ["retraction", "rk4"] {
        let mut s = sim(&format!("preset=sphere-usa&integrator={}", integrator));
        run(&mut s, 100);
        for row in s.state().chunks(3) {
            let r: f64 = row.iter().map(|v| v * v).sum();
            assert!((r - 1.0).abs() < 1e-14);
        }
    }
}

/// rho(t) of the equiangular start x_i = e_i (n = d = 3, SA, beta = 1) by the scalar ODE
/// rho' = 2(1 - rho)((n - 1)rho + 1)/(e^{beta(1 - rho)} + n - 1), by fine RK4.
fn rho_reference(t_end: f64, beta: f64, n: f64) -> f64 {
    let f = |r: f64| 2.0 * (1.0 - r) * ((n - 1.0) * r + 1.0) / (libm::exp(beta * (1.0 - r)) + n - 1.0);
    let steps = 100_000;
    let h = t_end / steps as f64;
    let mut r = 0.0;
    for _ in 0..steps {
        let k1 = f(r);
        let k2 = f(r + 0.5 * h * k1);
        let k3 = f(r + 0.5 * h * k2);
        let k4 = f(r + h * k3);
        r += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    r
}

fn rho_error(integrator: &str, dt: f64, t_end: f64) -> f64 {
    let cfg = format!(
        "preset=sphere-sa&n=3&init=points&points=1,0,0;0,1,0;0,0,1&integrator={}&dt={}&until={}",
        integrator, dt, t_end
    );
    let mut s = sim(&cfg);
    run(&mut s, (t_end / dt).round() as u64);
    let x = s.state();
    let rho: f64 = (0..3).map(|c| x[c] * x[3 + c]).sum();
    // Equiangular: all three inner products agree.
    let rho13: f64 = (0..3).map(|c| x[c] * x[6 + c]).sum();
    assert!((rho - rho13).abs() < 1e-12);
    (rho - rho_reference(t_end, 1.0, 3.0)).abs()
}

/// The equiangular start stays equiangular and rho(t) solves its scalar ODE: projected RK4 has
/// error O(dt^4), the retraction O(dt).
#[test]
fn equiangular_start_follows_the_scalar_ode() {
    let (r1, r2) = (rho_error("rk4", 0.1, 2.0), rho_error("rk4", 0.05, 2.0));
    assert!(r1 < 1e-5, "rk4 error {:e}", r1);
    let order_rk4 = (r1 / r2).log2();
    assert!((3.5..4.6).contains(&order_rk4), "rk4 observed order {}", order_rk4);
    let (e1, e2) = (rho_error("retraction", 0.02, 2.0), rho_error("retraction", 0.01, 2.0));
    let order_ret = (e1 / e2).log2();
    assert!((0.8..1.3).contains(&order_ret), "retraction observed order {} ({:e}, {:e})", order_ret, e1, e2);
}

/// Metastability (arXiv 2410.06833): the five points form two clusters within a few time units
/// and those two clusters persist for hundreds of time units.
#[test]
fn metastability_two_clusters_persist() {
    let mut s = sim("preset=metastability");
    run(&mut s, 100);
    let (at_10, labels_10) = cluster_labels(s.state(), 5, 2, 0.05);
    assert_eq!(at_10, 2, "clusters at t = 10");
    run(&mut s, 2900);
    assert!((s.t() - 300.0).abs() < 1e-9);
    let (at_300, labels_300) = cluster_labels(s.state(), 5, 2, 0.05);
    assert_eq!(at_300, 2, "clusters at t = 300");
    assert_eq!(labels_10, labels_300);
}

/// The clusters metric uses the initial spread as its length scale, so a collapse into one
/// cluster is counted as one (sphere-sa at T = 15), and the metastable pair as two.
#[test]
fn clusters_metric_counts_collapsed_tokens_as_one() {
    use attn_core::particles::analysis::{Metrics, MetricsScratch};
    let mut s = sim("preset=sphere-sa");
    run(&mut s, 150);
    let m = Metrics::compute(&mut s, &mut MetricsScratch::default()).unwrap();
    assert_eq!(m.clusters, 1);
    let mut s = sim("preset=metastability&cluster_tol=0.05");
    run(&mut s, 300);
    let m = Metrics::compute(&mut s, &mut MetricsScratch::default()).unwrap();
    assert_eq!(m.clusters, 2);
}
