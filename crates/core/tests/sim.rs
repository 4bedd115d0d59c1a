//! The simulation: clock, allocation-free stepping, determinism pin, until and divergence.

use crate::common::alloc::allocations;
use crate::common::sim;
use attn_core::Status;
use attn_core::Stepping;

/// step() allocates nothing, for every model and integrator (including exp(tV) in z).
#[test]
fn step_allocates_nothing() {
    for cfg in [
        "preset=polytope",
        "preset=polytope&integrator=rk4",
        "preset=hyperplanes&integrator=rk4",
        "preset=collapse",
        "preset=sphere-sa",
        "preset=sphere-usa&integrator=rk4",
    ] {
        let mut s = sim(cfg);
        s.step().unwrap();
        let before = allocations();
        for _ in 0..10 {
            s.step().unwrap();
        }
        let after = allocations();
        assert_eq!(after, before, "{}: step() allocated", cfg);
    }
}

/// t = step x dt, never accumulated.
#[test]
fn time_is_step_times_dt() {
    let mut s = sim("preset=polytope&dt=0.1&until=100");
    s.advance(777);
    assert_eq!(s.t(), 777.0 * 0.1);
    assert_eq!(s.step_count(), 777);
}

/// A run stops at `until` (rounded to whole steps) and reports Finished.
#[test]
fn runs_stop_at_until() {
    let mut s = sim("preset=polytope&until=1.26");
    assert_eq!(s.until_steps(), 13);
    assert_eq!(s.advance(1000), 13);
    assert_eq!(s.status(), &Status::Finished);
    assert_eq!(s.advance(5), 0);
}

/// The same configuration gives the same bits (and these bits: a pin against accidental changes
/// of the numerics, which would break old links).
#[test]
fn same_config_same_bits_and_pinned() {
    let fingerprint = |cfg: &str| {
        let mut s = sim(cfg);
        s.advance(200);
        s.state().iter().fold(0xcbf29ce484222325u64, |h, x| (h ^ x.to_bits()).wrapping_mul(0x100000001b3))
    };
    for cfg in ["preset=polytope-3d", "preset=sphere-sa&integrator=rk4", "preset=random-psd&integrator=rk4"] {
        assert_eq!(fingerprint(cfg), fingerprint(cfg));
    }
    let pins = [
        ("preset=polytope-3d", PIN_POLYTOPE_3D),
        ("preset=sphere-sa&integrator=rk4", PIN_SPHERE_RK4),
        ("preset=random-psd&integrator=rk4", PIN_RANDOM_PSD),
    ];
    for (cfg, pin) in pins {
        assert_eq!(fingerprint(cfg), pin, "{}: the numbers changed (0x{:x})", cfg, fingerprint(cfg));
    }
}

const PIN_POLYTOPE_3D: u64 = 0xfdeb6f2e9814b833;
const PIN_SPHERE_RK4: u64 = 0x4724ae88765aacd6;
const PIN_RANDOM_PSD: u64 = 0xa7512d9207b48e72;

/// Different seeds give different starts; the random-PSD matrices do not depend on n.
#[test]
fn seeds_and_streams() {
    let a = sim("seed=1");
    let b = sim("seed=2");
    assert_ne!(a.state(), b.state());
    let m20 = sim("preset=random-psd&n=20").matrices().clone();
    let m30 = sim("preset=random-psd&n=30").matrices().clone();
    assert_eq!(m20, m30);
    let m = &m20;
    // Q^T K = V = M M^T: V symmetric, Q = K.
    assert_eq!(m.q, m.k);
    assert!((m.v[1] - m.v[2]).abs() < 1e-15);
}

/// Sphere models start on the unit sphere whatever the distribution.
#[test]
fn sphere_models_start_on_the_sphere() {
    for init in ["cube", "gaussian", "sphere"] {
        let s = sim(&format!("preset=sphere-sa&init={}&scale=3", init));
        for row in s.state().chunks(3) {
            let r: f64 = row.iter().map(|v| v * v).sum();
            assert!((r - 1.0).abs() < 1e-14);
        }
    }
}

/// USA at an extreme beta overflows its weights: reported, not a panic, last state kept.
#[test]
fn usa_weight_overflow_is_reported() {
    let mut s = sim("preset=sphere-usa&beta=1000");
    let x0 = s.state().to_vec();
    assert!(s.step().is_err());
    match s.status() {
        Status::Diverged(m) => assert!(m.contains("USA weights"), "{}", m),
        other => panic!("{:?}", other),
    }
    assert_eq!(s.state(), &x0[..]);
}
