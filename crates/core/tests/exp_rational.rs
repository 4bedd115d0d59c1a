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

/// The rational form as first written (configuration version 2 before the clamp): a select
/// `x < EXP_UNDERFLOW ? 0 : e` at the end instead of clamping `x` to at least -750.5 first.
fn rational_with_select(x: f64) -> f64 {
    const P: [f64; 5] = [
        f64::from_bits(0x3FC5_5555_5555_553E),
        f64::from_bits(0xBF66_C16C_16BE_BD93),
        f64::from_bits(0x3F11_566A_AF25_DE2C),
        f64::from_bits(0xBEBB_BD41_C5D2_6BF1),
        f64::from_bits(0x3E66_3769_72BE_A4D0),
    ];
    let two_52 = 4_503_599_627_370_496.0;
    let (ln2_hi, ln2_lo) = (f64::from_bits(0x3fe6_2e42_fee0_0000), 1.908_214_929_270_587_7e-10);
    let kf = (x * std::f64::consts::LOG2_E + 1.5 * two_52) - 1.5 * two_52;
    let hi = x - kf * ln2_hi;
    let lo = kf * ln2_lo;
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (P[0] + t * (P[1] + t * (P[2] + t * (P[3] + t * P[4]))));
    let er = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    let scale = f64::from_bits((kf + (60.0 + (1023.0 + two_52))).to_bits() << 52);
    let e = (er * scale) * 8.673_617_379_884_035e-19;
    if x < EXP_UNDERFLOW {
        0.0
    } else {
        e
    }
}

/// The clamp (a max) replaced the select without changing a bit: dense samples of the domain down
/// to -760, every double within 200,000 ulps of the underflow threshold and of -750.5, and the
/// infinite and huge arguments.
#[test]
fn the_clamp_gives_the_bits_of_the_select() {
    let mut rng = Rng::new(22, 8);
    let mut xs = samples();
    for _ in 0..400_000 {
        xs.push(rng.uniform(-760.0, -700.0));
        xs.push(rng.uniform(-751.0, -745.0));
    }
    let (mut up, mut down) = (EXP_UNDERFLOW, EXP_UNDERFLOW);
    for _ in 0..200_000 {
        up = f64::from_bits(up.to_bits() - 1);
        down = f64::from_bits(down.to_bits() + 1);
        xs.extend([up, down]);
    }
    let (mut up, mut down) = (-750.5f64, -750.5f64);
    for _ in 0..200_000 {
        up = f64::from_bits(up.to_bits() - 1);
        down = f64::from_bits(down.to_bits() + 1);
        xs.extend([up, down]);
    }
    xs.extend([EXP_UNDERFLOW, -746.0, -750.5, -1e10, f64::MIN, -1e300]);
    let k = RationalExp::opaque();
    for &x in &xs {
        let want = rational_with_select(x).to_bits();
        assert_eq!(exp_rational(x).to_bits(), want, "x = {:e}", x);
        assert_eq!(k.eval(x).to_bits(), want, "loop, x = {:e}", x);
    }
    assert_eq!(exp_rational(f64::NEG_INFINITY), 0.0);
}
