//! The seeded generator's normal deviates: Box-Muller with the square root in hardware and
//! `libm::sincos` gives, bit for bit, `sqrt(-2 ln u1)` times `libm::cos` / `libm::sin` of `2π u2`
//! with every function from `libm` (the formula the runs' numbers were made with), over a million
//! draws of several seeds and streams, the extremes of `u1` and `u2` included.

use attn_core::rng::Rng;

/// The pair of deviates of the uniforms `(u1, u2)`, every function from `libm`.
fn libm_pair(u1: f64, u2: f64) -> (f64, f64) {
    let r = libm::sqrt(-2.0 * libm::log(u1));
    let theta = 2.0 * core::f64::consts::PI * u2;
    (r * libm::cos(theta), r * libm::sin(theta))
}

#[test]
fn normal_deviates_are_the_libm_formula_bit_for_bit() {
    for (seed, stream) in [(0u32, 0u64), (1, 7), (42, 3), (u32::MAX, u64::MAX)] {
        let mut rng = Rng::new(seed, stream);
        let mut uniforms = Rng::new(seed, stream);
        for i in 0..250_000 {
            let u1 = 1.0 - uniforms.uniform01();
            let u2 = uniforms.uniform01();
            let (first, second) = libm_pair(u1, u2);
            let (a, b) = (rng.normal(), rng.normal());
            assert_eq!(a.to_bits(), first.to_bits(), "seed {seed}, stream {stream}, pair {i}: first deviate");
            assert_eq!(b.to_bits(), second.to_bits(), "seed {seed}, stream {stream}, pair {i}: second deviate");
        }
    }
}

#[test]
fn the_square_root_and_sincos_agree_with_libm_at_the_extremes() {
    // u1 = 1 (r = 0), the smallest u1 (the largest r), and angles at the quadrant boundaries,
    // where sin and cos reduce their argument differently.
    let tiny = 1.0 / 9_007_199_254_740_992.0;
    for u1 in [1.0, tiny, 0.5, 1.0 - tiny, 1e-300, f64::MIN_POSITIVE] {
        let x = -2.0 * libm::log(u1);
        assert_eq!(x.sqrt().to_bits(), libm::sqrt(x).to_bits(), "sqrt(-2 ln {u1:e})");
    }
    let quarter = 0.25 - tiny;
    for u2 in [0.0, tiny, 0.125, quarter, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0 - tiny] {
        let theta = 2.0 * core::f64::consts::PI * u2;
        let (s, c) = libm::sincos(theta);
        assert_eq!(s.to_bits(), libm::sin(theta).to_bits(), "sin(2π·{u2})");
        assert_eq!(c.to_bits(), libm::cos(theta).to_bits(), "cos(2π·{u2})");
    }
}
