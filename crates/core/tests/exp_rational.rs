//! The version-2 exponential of the attention weights (`exp::rational`) against libm: accuracy
//! over its domain `x <= 0`, special values, edges, and the same bits in a loop with opaque
//! constants (the way the row kernel calls it) as in single calls.

use attn_core::exp::rational::{exp_rational, RationalExp};
use attn_core::exp::EXP_UNDERFLOW;
use attn_core::rng::Rng;

fn ulp_diff(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// Dense samples of the domain: uniform over [-708, 0], dense near 0 where the weights live,
/// tiny arguments, the rounding ties of k (half-integer multiples of ln 2) and their neighbours.
fn samples() -> Vec<f64> {
    let mut rng = Rng::new(21, 8);
    let mut xs = Vec::new();
    for _ in 0..400_000 {
        xs.push(rng.uniform(-708.0, 0.0));
        xs.push(rng.uniform(-40.0, 0.0));
        xs.push(-rng.uniform(0.0, 1.0) * 1e-6);
    }
    for k in -1022..=0 {
        let mut v = (k as f64 - 0.5) * std::f64::consts::LN_2;
        for _ in 0..4 {
            xs.push(v);
            v = f64::from_bits(v.to_bits() + 1);
        }
        xs.push(k as f64 * std::f64::consts::LN_2);
    }
    for i in 0..=20_000 {
        xs.push(-(i as f64) * 1e-3);
    }
    xs.retain(|&x| x >= -708.0);
    xs
}

#[test]
fn within_one_ulp_of_libm_over_the_normal_range() {
    let xs = samples();
    let worst = xs.iter().map(|&x| ulp_diff(exp_rational(x), libm::exp(x))).max().unwrap();
    assert!(worst <= 1, "worst error {} ulp over {} points", worst, xs.len());
}

#[test]
fn subnormal_results_are_within_one_spacing() {
    let mut rng = Rng::new(4, 6);
    for _ in 0..100_000 {
        let x = rng.uniform(EXP_UNDERFLOW, -708.0);
        let (a, b) = (exp_rational(x), libm::exp(x));
        assert!(ulp_diff(a, b) <= 1, "x = {}: {:e} vs {:e}", x, a, b);
    }
}

#[test]
fn special_values_are_exact() {
    assert_eq!(exp_rational(0.0), 1.0);
    assert_eq!(exp_rational(-0.0), 1.0);
    assert_eq!(exp_rational(-1e-300), 1.0);
    assert_eq!(exp_rational(f64::NEG_INFINITY), 0.0);
    assert_eq!(exp_rational(-746.0), 0.0);
    assert_eq!(exp_rational(-1e10), 0.0);
    assert_eq!(exp_rational(f64::MIN), 0.0);
    assert!(exp_rational(EXP_UNDERFLOW + 1e-9) > 0.0);
    assert!(ulp_diff(exp_rational(-1.0), 1.0 / std::f64::consts::E) <= 1);
}

#[test]
fn monotone_on_a_fine_grid() {
    let mut prev = 0.0;
    let mut x = -40.0;
    while x <= 0.0 {
        let y = exp_rational(x);
        assert!(y >= prev, "not monotone at {}", x);
        prev = y;
        x += 1.0 / 1024.0 + 1e-7;
    }
}

#[test]
fn the_loop_with_opaque_constants_gives_the_same_bits() {
    let k = RationalExp::opaque();
    let xs = samples();
    let looped: Vec<f64> = xs.iter().map(|&x| k.eval(x)).collect();
    for (&x, &y) in xs.iter().zip(&looped) {
        assert_eq!(y.to_bits(), exp_rational(x).to_bits(), "x = {:e}", x);
    }
}
