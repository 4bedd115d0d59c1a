//! The core's one exponential function, used everywhere on the stepping path.
//!
//! `f64::exp` calls the platform's libm natively but a Rust port on wasm, so it can give
//! different bits on different targets (toolchain.md, "Bit-identical native and wasm results").
//! [`exp`] is plain Rust arithmetic in a fixed order: it returns the same bits on every target.
//!
//! Method: range reduction `x = k ln 2 + r`, `|r| <= ln 2 / 2`, with `ln 2` split in a high part
//! that has trailing zero bits (so `k * LN2_HI` is exact) and a low part; `e^r` by its Taylor
//! polynomial of degree 13 in Horner form (truncation error below 5e-18 relative); then the result
//! is scaled by `2^k` through the exponent bits, in two steps for subnormal results.
//!
//! Accuracy (tested in `crates/core/tests/exp.rs`): within 1 ulp of the correctly rounded value
//! (compared with the `libm` crate) over the whole normal range `[-708, 709.78]`; subnormal results
//! (`x < -708.4`) are within 1 ulp of the subnormal spacing. Overflows to `+inf` above
//! `ln(f64::MAX) = 709.782712893384`, underflows to `+0` below `-745.1332191019412`, `exp(NaN)` is
//! NaN, `exp(-inf) = 0`, `exp(inf) = inf`.

/// Largest x with a finite e^x.
pub const EXP_OVERFLOW: f64 = 709.782712893384;
/// Below this, e^x rounds to zero.
pub const EXP_UNDERFLOW: f64 = -745.1332191019412;

const LOG2_E: f64 = core::f64::consts::LOG2_E;
/// High part of ln 2: its low 21 bits are zero, so `k * LN2_HI` is exact for |k| < 2^11.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// ln 2 - LN2_HI.
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// Taylor coefficients 1/k! for k = 2..=13.
const C: [f64; 12] = [
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
    1.0 / 362880.0,
    1.0 / 3628800.0,
    1.0 / 39916800.0,
    1.0 / 479001600.0,
    1.0 / 6227020800.0,
];

/// `e^x` with identical bits on every target (see the module documentation for accuracy).
#[inline]
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > EXP_OVERFLOW {
        return f64::INFINITY;
    }
    if x < EXP_UNDERFLOW {
        return 0.0;
    }
    // k = round(x / ln 2), |k| <= 1075.
    let kf = {
        let y = x * LOG2_E;
        let t = if y >= 0.0 { y + 0.5 } else { y - 0.5 };
        (t as i64) as f64
    };
    let hi = x - kf * LN2_HI;
    let lo = kf * LN2_LO;
    let r = hi - lo;
    // e^r = 1 + r + r^2 (1/2 + r (1/6 + ...)).
    let mut p = C[11];
    let mut i = 11;
    while i > 0 {
        i -= 1;
        p = C[i] + r * p;
    }
    let er = 1.0 + (r + (r * r) * p);
    scale_by_pow2(er, kf as i32)
}

/// `y * 2^k` for `y` in [0.7, 1.5] and `k` in [-1076, 1024], exact unless the result is subnormal.
#[inline]
fn scale_by_pow2(y: f64, k: i32) -> f64 {
    if k > 1023 {
        y * 2.0 * pow2(k - 1)
    } else if k >= -1022 {
        y * pow2(k)
    } else {
        // Two steps: the first is exact, the second rounds once into the subnormal range.
        (y * pow2(k + 60)) * pow2(-60)
    }
}

/// `2^k` for normal exponents `k` in [-1022, 1023].
#[inline]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}
