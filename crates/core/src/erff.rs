//! The error function in `f32` over many values at once, with the bits of `libm::erff`: the
//! model's GELU (science.md §6.2) calls it once per hidden unit, and the scalar function branches
//! on the size of its argument, so a loop over it does not vectorise (GELU was 8-10 ms of
//! MiniLM's 56 ms forward on 128 tokens natively, 6.6 ms this way).
//!
//! [`erff_lanes`] computes, for each of [`LANES`] values, every branch of `libm::erff` (musl's
//! `erff`: a rational function below 0.84375, another up to 1.25, `exp(-z² - 0.5625) exp(...)/x`
//! with two sets of coefficients up to 6, the constant `1 - 2^-120` beyond, the special values)
//! and keeps the one `libm` would take. Each branch's arithmetic is `libm`'s, operation for
//! operation in the same order (`expf` and its `scalbnf` included), with no FMA; the branches
//! become selects, so the loops over the lanes vectorise. Same bits as `libm::erff` for every
//! input (tested on every 61st `f32` bit pattern and around each branch boundary), natively
//! and in wasm.

// The coefficients are libm's literals digit for digit (more digits than an f32 holds; each
// rounds to the f32 libm uses, which the tests' bit comparisons prove).
#![allow(clippy::excessive_precision)]

/// Values per call of [`erff_lanes`] (16 `f32`: one AVX-512 register, four simd128 ones).
pub const LANES: usize = 16;

const ERX: f32 = 8.4506291151e-01;
const EFX8: f32 = 1.0270333290e+00;
const PP: [f32; 5] = [1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02, -5.7702702470e-03, -2.3763017452e-05];
const QQ: [f32; 5] = [3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03, 1.3249473704e-04, -3.9602282413e-06];
const PA: [f32; 7] = [
    -2.3621185683e-03,
    4.1485610604e-01,
    -3.7220788002e-01,
    3.1834661961e-01,
    -1.1089469492e-01,
    3.5478305072e-02,
    -2.1663755178e-03,
];
const QA: [f32; 6] =
    [1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02, 1.2617121637e-01, 1.3637083583e-02, 1.1984500103e-02];
const RA: [f32; 8] = [
    -9.8649440333e-03,
    -6.9385856390e-01,
    -1.0558626175e+01,
    -6.2375331879e+01,
    -1.6239666748e+02,
    -1.8460508728e+02,
    -8.1287437439e+01,
    -9.8143291473e+00,
];
const SA: [f32; 8] = [
    1.9651271820e+01,
    1.3765776062e+02,
    4.3456588745e+02,
    6.4538726807e+02,
    4.2900814819e+02,
    1.0863500214e+02,
    6.5702495575e+00,
    -6.0424413532e-02,
];
const RB: [f32; 7] = [
    -9.8649431020e-03,
    -7.9928326607e-01,
    -1.7757955551e+01,
    -1.6063638306e+02,
    -6.3756646729e+02,
    -1.0250950928e+03,
    -4.8351919556e+02,
];
const SB: [f32; 7] = [
    3.0338060379e+01,
    3.2579251099e+02,
    1.5367296143e+03,
    3.1998581543e+03,
    2.5530502930e+03,
    4.7452853394e+02,
    -2.2440952301e+01,
];

const LN2_HI: f32 = 6.9314575195e-01;
const LN2_LO: f32 = 1.4286067653e-06;
const INV_LN2: f32 = 1.4426950216e+00;
const P1: f32 = 1.6666625440e-1;
const P2: f32 = -2.7667332906e-3;

/// `libm::erff` of each of `x`'s values (module documentation).
pub fn erff_lanes(x: &[f32; LANES]) -> [f32; LANES] {
    let mut out = [0.0f32; LANES];
    for (o, &v) in out.iter_mut().zip(x) {
        *o = erff_select(v);
    }
    out
}

/// One lane of [`erff_lanes`]: every branch of `libm::erff` computed, the right one kept.
#[inline(always)]
fn erff_select(x: f32) -> f32 {
    let bits = x.to_bits();
    let negative = bits >> 31 != 0;
    let ix = bits & 0x7fff_ffff;
    let sign = if negative { 1.0f32 } else { 0.0 };
    // erf(nan) = nan, erf(±inf) = ±1.
    let special = 1.0 - 2.0 * sign + 1.0 / x;
    let small = erff_small(x);
    // 0.84375 <= |x| < 6: 1 - erfc2(ix, x); |x| >= 6: 1 - 2^-120; then the sign.
    let y = if ix < 0x40c0_0000 { 1.0 - erfc2(ix, x) } else { 1.0 - f32::from_bits(0x0380_0000) };
    let large = if negative { -y } else { y };
    if ix >= 0x7f80_0000 {
        special
    } else if is_small(x) {
        small
    } else {
        large
    }
}

/// Whether `|x| < 0.84375`: `libm::erff`'s two cheapest branches ([`erff_small_lanes`]).
#[inline(always)]
pub fn is_small(x: f32) -> bool {
    x.to_bits() & 0x7fff_ffff < 0x3f58_0000
}

/// `libm::erff` of each of `x`'s values, every one with `|x| < 0.84375` ([`is_small`]; others
/// give meaningless values): the two branches of [`erff_lanes`] for them, a fraction of its work.
pub fn erff_small_lanes(x: &[f32; LANES]) -> [f32; LANES] {
    x.map(erff_small)
}

/// `libm::erff` for `|x| < 0.84375`: `x + x r(z) / s(z)`, `z = x²`, or below 2^-28 its tiny
/// form.
#[inline(always)]
fn erff_small(x: f32) -> f32 {
    let tiny = 0.125 * (8.0 * x + EFX8 * x);
    let z = x * x;
    let r = PP[0] + z * (PP[1] + z * (PP[2] + z * (PP[3] + z * PP[4])));
    let s = 1.0 + z * (QQ[0] + z * (QQ[1] + z * (QQ[2] + z * (QQ[3] + z * QQ[4]))));
    let small = x + x * (r / s);
    if x.to_bits() & 0x7fff_ffff < 0x3180_0000 {
        tiny
    } else {
        small
    }
}

/// `libm`'s `erfc2(ix, x)` for `0.84375 <= |x| < 6`, both of its ranges computed.
#[inline(always)]
fn erfc2(ix: u32, x: f32) -> f32 {
    // |x| < 1.25: erfc1(x).
    let s1 = x.abs() - 1.0;
    let p = PA[0] + s1 * (PA[1] + s1 * (PA[2] + s1 * (PA[3] + s1 * (PA[4] + s1 * (PA[5] + s1 * PA[6])))));
    let q = 1.0 + s1 * (QA[0] + s1 * (QA[1] + s1 * (QA[2] + s1 * (QA[3] + s1 * (QA[4] + s1 * QA[5])))));
    let erfc1 = 1.0 - ERX - p / q;
    let ax = x.abs();
    let s = 1.0 / (ax * ax);
    let ra = RA[0] + s * (RA[1] + s * (RA[2] + s * (RA[3] + s * (RA[4] + s * (RA[5] + s * (RA[6] + s * RA[7]))))));
    let sa = 1.0
        + s * (SA[0] + s * (SA[1] + s * (SA[2] + s * (SA[3] + s * (SA[4] + s * (SA[5] + s * (SA[6] + s * SA[7])))))));
    let rb = RB[0] + s * (RB[1] + s * (RB[2] + s * (RB[3] + s * (RB[4] + s * (RB[5] + s * RB[6])))));
    let sb = 1.0 + s * (SB[0] + s * (SB[1] + s * (SB[2] + s * (SB[3] + s * (SB[4] + s * (SB[5] + s * SB[6]))))));
    let near = ix < 0x4036_db6d; // |x| < 1/0.35
    let (r, big_s) = if near { (ra, sa) } else { (rb, sb) };
    let z = f32::from_bits(ax.to_bits() & 0xffff_e000);
    let tail = expf(-z * z - 0.5625) * expf((z - ax) * (z + ax) + r / big_s) / ax;
    if ix < 0x3fa0_0000 {
        erfc1
    } else {
        tail
    }
}

/// `libm::expf`, every branch computed and the right one kept.
#[inline(always)]
fn expf(x: f32) -> f32 {
    let bits = x.to_bits();
    let negative = bits >> 31 != 0;
    let hx = bits & 0x7fff_ffff;
    // Argument reduction: k = round(x / ln 2) above 1.5 ln 2, ±1 above ln 2 / 2, else 0 (for
    // which hi = x and lo = 0 below, as libm's own k = 0 branch has them).
    let half = if negative { -0.5f32 } else { 0.5 };
    // libm's `(INV_LN2 * x + half) as i32`: truncated, then converted exactly through the bits
    // of `t + 1.5 · 2^23` (an `as` conversion saturates, which does not vectorise). The lanes
    // this k is kept for have |t| < 150; the clamp keeps the others' small (a NaN stays NaN and
    // gives a k far from overflow too), so no integer arithmetic below can overflow.
    let t = (INV_LN2 * x + half).trunc().clamp(-256.0, 256.0);
    let k_far = (t + 12_582_912.0).to_bits() as i32 - 0x4b40_0000;
    let k_near = if negative { -1 } else { 1 };
    let k = if hx > 0x3f85_1592 {
        k_far
    } else if hx > 0x3eb1_7218 {
        k_near
    } else {
        0
    };
    let kf = k as f32;
    let (hi, lo, xr) = if k != 0 {
        let hi = x - kf * LN2_HI;
        let lo = kf * LN2_LO;
        (hi, lo, hi - lo)
    } else {
        (x, 0.0, x)
    };
    let xx = xr * xr;
    let c = xr - xx * (P1 + xx * P2);
    let y = 1.0 + (xr * c / (2.0 - c) - lo + hi);
    let scaled = scalbnf(y, k);
    let value = if k == 0 { y } else { scaled };
    let x1p127 = f32::from_bits(0x7f00_0000);
    if hx > 0x7f80_0000 {
        x // NaN
    } else if hx >= 0x42b1_7218 && !negative {
        x * x1p127 // overflow
    } else if hx >= 0x42cf_f1b5 && negative {
        0.0 // underflow
    } else if hx <= 0x3900_0000 {
        1.0 + x
    } else {
        value
    }
}

/// `libm`'s `scalbnf(y, n)` (its generic `scalbn` for `f32`), branch-free: `y 2^n` with the
/// pre-scaling it does outside `[-126, 127]` (`n` from `expf` lies in `[-150, 128]`).
#[inline(always)]
fn scalbnf(y: f32, n: i32) -> f32 {
    let (pre, m) = if n > 127 {
        (f32::from_bits(0x7f00_0000), (n - 127).min(127))
    } else if n < -126 {
        // 2^-126 · 2^24, and n + 102 (at least -126 for n >= -228).
        (f32::from_bits(0x0080_0000) * f32::from_bits((24 + 127) << 23), (n + 102).max(-126))
    } else {
        (1.0, n)
    };
    let scale = f32::from_bits(((127 + m) as u32) << 23);
    (y * pre) * scale
}
