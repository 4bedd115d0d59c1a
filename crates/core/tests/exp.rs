//! The core's exp against libm: accuracy over the whole range, special values, edges.

use attn_core::exp::{exp, EXP_OVERFLOW, EXP_UNDERFLOW};
use attn_core::rng::Rng;

fn ulp_diff(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

#[test]
fn within_one_ulp_of_libm_over_the_normal_range() {
    let mut rng = Rng::new(7, 99);
    let mut worst = 0;
    let mut count = 0;
    for _ in 0..400_000 {
        let x = rng.uniform(-708.0, EXP_OVERFLOW);
        worst = worst.max(ulp_diff(exp(x), libm::exp(x)));
        count += 1;
    }
    // Dense near zero, where P's entries live.
    for _ in 0..400_000 {
        let x = rng.uniform(-40.0, 1.0);
        worst = worst.max(ulp_diff(exp(x), libm::exp(x)));
        count += 1;
    }
    for i in -2000..=2000 {
        let x = i as f64 * 1e-3;
        worst = worst.max(ulp_diff(exp(x), libm::exp(x)));
    }
    assert!(worst <= 1, "worst error {} ulp over {} points", worst, count);
}

#[test]
fn subnormal_results_are_close() {
    let mut rng = Rng::new(3, 5);
    for _ in 0..100_000 {
        let x = rng.uniform(EXP_UNDERFLOW, -708.0);
        let (a, b) = (exp(x), libm::exp(x));
        assert!(ulp_diff(a, b) <= 1, "x = {}: {} vs {}", x, a, b);
    }
}

#[test]
fn special_values_overflow_and_underflow() {
    assert_eq!(exp(0.0), 1.0);
    assert!(ulp_diff(exp(1.0), std::f64::consts::E) <= 1);
    assert!(exp(f64::NAN).is_nan());
    assert_eq!(exp(f64::INFINITY), f64::INFINITY);
    assert_eq!(exp(f64::NEG_INFINITY), 0.0);
    assert!(exp(EXP_OVERFLOW).is_finite());
    assert_eq!(exp(709.79), f64::INFINITY);
    assert_eq!(exp(1e10), f64::INFINITY);
    assert_eq!(exp(-746.0), 0.0);
    assert_eq!(exp(-1e10), 0.0);
    assert!(exp(EXP_UNDERFLOW + 1e-9) > 0.0);
    assert!(exp(-1e-300) == 1.0 && exp(1e-300) == 1.0);
}

#[test]
fn monotone_on_a_fine_grid() {
    let mut prev = 0.0;
    let mut x = -30.0;
    while x < 30.0 {
        let y = exp(x);
        assert!(y >= prev, "not monotone at {}", x);
        prev = y;
        x += 1.0 / 1024.0 + 1e-7;
    }
}
