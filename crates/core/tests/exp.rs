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

/// The exponential as first written (version 1 links' Taylor form): the same formulas with branches and an integer
/// conversion. The branch-free, vectorisable `exp` must give the same bits for every input, so
/// links made with the first version replay unchanged.
fn reference_exp(x: f64) -> f64 {
    const LOG2_E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let c: [f64; 12] = std::array::from_fn(|i| 1.0 / (2..=i as u64 + 2).product::<u64>() as f64);
    let pow2 = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    if x.is_nan() {
        return x;
    }
    if x > EXP_OVERFLOW {
        return f64::INFINITY;
    }
    if x < EXP_UNDERFLOW {
        return 0.0;
    }
    let y = x * LOG2_E;
    let t = if y >= 0.0 { y + 0.5 } else { y - 0.5 };
    let kf = (t as i64) as f64;
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    let mut p = c[11];
    for i in (0..11).rev() {
        p = c[i] + r * p;
    }
    let er = 1.0 + (r + (r * r) * p);
    let k = kf as i32;
    if k > 1023 {
        er * 2.0 * pow2(k - 1)
    } else if k >= -1022 {
        er * pow2(k)
    } else {
        (er * pow2(k + 60)) * pow2(-60)
    }
}

#[test]
fn same_bits_as_the_first_version_everywhere() {
    let mut rng = Rng::new(11, 4);
    let mut xs: Vec<f64> = Vec::new();
    for _ in 0..300_000 {
        xs.push(rng.uniform(-750.0, 712.0));
        xs.push(rng.uniform(-40.0, 0.0));
        xs.push(rng.uniform(-1.0, 1.0) * 1e-6);
    }
    // Half-integer multiples of ln 2 (rounding ties of k), range edges, specials.
    for k in -1080..=1030 {
        let base = (k as f64 + 0.5) * std::f64::consts::LN_2;
        let mut v = base;
        for _ in 0..4 {
            xs.push(v);
            v = f64::from_bits(v.to_bits() + 1);
        }
        xs.push(k as f64 * std::f64::consts::LN_2);
    }
    xs.extend([0.0, -0.0, 1e-300, -1e-300, f64::MIN_POSITIVE, -f64::MIN_POSITIVE, EXP_OVERFLOW, EXP_UNDERFLOW]);
    xs.extend([709.79, -745.2, -708.4, -708.3, 1e10, -1e10, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN]);
    // Bits of the vectorised loop (the way the row kernel calls it) and of single calls.
    let mut vectorised = xs.clone();
    vectorised.iter_mut().for_each(|x| *x = exp(*x));
    for (i, &x) in xs.iter().enumerate() {
        let want = reference_exp(x);
        assert_eq!(exp(x).to_bits(), want.to_bits(), "x = {:e}", x);
        assert_eq!(vectorised[i].to_bits(), want.to_bits(), "vectorised, x = {:e}", x);
    }
    assert!(exp(f64::NAN).is_nan());
}

/// The doubles within 200,000 ulps of [`EXP_UNDERFLOW`] on both sides, and the clamp's
/// neighbourhood (-750.5): where the nonpositive forms' clamp replaced a select, one by one.
fn around_the_underflow() -> Vec<f64> {
    let mut xs = Vec::new();
    for base in [EXP_UNDERFLOW, -750.5] {
        let (mut up, mut down) = (base, base);
        for _ in 0..200_000 {
            up = f64::from_bits(up.to_bits() - 1);
            down = f64::from_bits(down.to_bits() + 1);
            xs.push(up);
            xs.push(down);
        }
    }
    let mut x = -751.0;
    while x < -745.0 {
        xs.push(x);
        x += 1e-6;
    }
    xs
}

#[test]
fn the_nonpositive_form_has_the_same_bits_on_its_domain() {
    use attn_core::exp::exp_nonpositive;
    let mut rng = Rng::new(12, 4);
    let mut xs: Vec<f64> = Vec::new();
    for _ in 0..300_000 {
        xs.push(rng.uniform(-760.0, 0.0));
        xs.push(rng.uniform(-40.0, 0.0));
        xs.push(-rng.uniform(0.0, 1.0) * 1e-6);
    }
    for k in -1080..=0 {
        let mut v = (k as f64 - 0.5) * std::f64::consts::LN_2;
        for _ in 0..4 {
            xs.push(v);
            v = f64::from_bits(v.to_bits() + 1);
        }
        xs.push(k as f64 * std::f64::consts::LN_2);
    }
    xs.extend([
        0.0,
        -0.0,
        -1e-300,
        -f64::MIN_POSITIVE,
        -5e-324,
        EXP_UNDERFLOW,
        -708.4,
        -708.3,
        -745.2,
        -1e10,
        f64::MIN,
    ]);
    xs.push(f64::NEG_INFINITY);
    xs.extend(around_the_underflow());
    // The loop of the attention rows: constants hidden from the optimiser, read once.
    let k = attn_core::exp::ExpConstants::opaque();
    let mut vectorised = xs.clone();
    vectorised.iter_mut().for_each(|x| *x = k.eval(*x));
    for (i, &x) in xs.iter().enumerate() {
        let want = reference_exp(x);
        assert_eq!(exp_nonpositive(x).to_bits(), want.to_bits(), "x = {:e}", x);
        assert_eq!(vectorised[i].to_bits(), want.to_bits(), "vectorised, x = {:e}", x);
    }
}
