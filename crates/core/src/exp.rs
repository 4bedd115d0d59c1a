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
///
/// Written without branches (every case is a select on values computed for all inputs), so a loop
/// over a slice of inputs vectorises — f64x2 in wasm with `+simd128`, the target's widest vectors
/// natively — and each lane computes exactly the scalar arithmetic below, in the same order: the
/// bits do not depend on how the loop is vectorised. `crates/core/tests/exp.rs` checks the bits
/// against the original branchy form of the same formulas (kept in the test) on dense samples.
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    // Clamp into the computed range, so every lane computes something finite; the special cases
    // are selected at the end.
    let xc = if x > EXP_OVERFLOW { EXP_OVERFLOW } else { x };
    let xc = if xc < EXP_UNDERFLOW { EXP_UNDERFLOW } else { xc };
    let xc = if x.is_nan() { 0.0 } else { xc };
    // k = trunc(y +- 0.5) (rounding half away from zero), |k| <= 1075.
    let y = xc * LOG2_E;
    let t = if y >= 0.0 { y + 0.5 } else { y - 0.5 };
    let kf = trunc_small(t);
    let er = exp_reduced(xc, kf);
    // er * 2^k as (er * 2^ka) * g: ka = k - 1, g = 2 above the largest normal exponent; ka = k + 60,
    // g = 2^-60 for subnormal results (the first product exact, the second rounds once); else g = 1.
    let ka = if kf > 1023.0 {
        kf - 1.0
    } else if kf < -1022.0 {
        kf + 60.0
    } else {
        kf
    };
    let g = if kf > 1023.0 {
        2.0
    } else if kf < -1022.0 {
        TWO_M60
    } else {
        1.0
    };
    let e = (er * pow2_of_integral(ka)) * g;
    let e = if x > EXP_OVERFLOW { f64::INFINITY } else { e };
    let e = if x < EXP_UNDERFLOW { 0.0 } else { e };
    if x.is_nan() {
        x
    } else {
        e
    }
}

/// 2^-60.
const TWO_M60: f64 = 8.673_617_379_884_035e-19;
/// 2^52: adding it to a value in [0, 2^52) rounds that value to an integer (the current rounding
/// mode, round to nearest even) and leaves the integer in the low mantissa bits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// `trunc(t)` for `|t| < 2^52`, as `(t as i64) as f64` would give it, without a conversion
/// instruction (baseline x86-64 has no vector trunc; this is adds, compares and selects).
#[inline(always)]
fn trunc_small(t: f64) -> f64 {
    let floor = floor_small(if t < 0.0 { -t } else { t });
    if t < 0.0 {
        -floor
    } else {
        floor
    }
}

/// `floor(u)` for `0 <= u < 2^52`: round to an integer by adding and subtracting 2^52, then step
/// down when that rounded up.
#[inline(always)]
fn floor_small(u: f64) -> f64 {
    let rounded = (u + TWO_52) - TWO_52;
    if rounded > u {
        rounded - 1.0
    } else {
        rounded
    }
}

/// `e^r` for the reduced argument `r = (x - k LN2_HI) - k LN2_LO` of `x` with `k = kf`: the
/// Taylor polynomial `1 + r + r^2 (1/2 + r (1/6 + ...))` in Horner form. Shared by [`exp`] and
/// [`exp_nonpositive`], so both compute the same bits.
#[inline(always)]
fn exp_reduced(x: f64, kf: f64) -> f64 {
    let hi = x - kf * LN2_HI;
    let lo = kf * LN2_LO;
    let r = hi - lo;
    let mut p = C[11];
    let mut i = 11;
    while i > 0 {
        i -= 1;
        p = C[i] + r * p;
    }
    1.0 + (r + (r * r) * p)
}

/// `2^k` for an integral `k` in [-1022, 1023] (given as f64): the biased exponent `k + 1023` is
/// placed in the low bits of `k + 1023 + 2^52` and shifted into the exponent field.
#[inline(always)]
fn pow2_of_integral(k: f64) -> f64 {
    f64::from_bits((k + (1023.0 + TWO_52)).to_bits() << 52)
}

/// [`exp`] for `x <= 0` (including `-inf`), with the same bits: the arguments of the attention
/// weights `exp(c (s_ij - max_k s_ik))` are never positive, so the overflow case and half of the
/// rounding of `k` drop out and the vectorised loop is about half as long.
///
/// Bit-identical to [`exp`] for every `x <= 0` (tested over dense samples of `[-750, 0]`, the
/// rounding ties of `k`, the subnormal range and the edges). Positive or NaN inputs give
/// meaningless values: callers guarantee `x <= 0`.
#[inline(always)]
pub fn exp_nonpositive(x: f64) -> f64 {
    // k = trunc(y - 0.5) = -floor(0.5 - y) for y = x log2(e) <= 0 (at y = -0 this gives k = -0,
    // which yields the same bits as k = +0 below).
    let kf = -floor_small(0.5 - x * LOG2_E);
    let er = exp_reduced(x, kf);
    let subnormal = kf < -1022.0;
    let ka = if subnormal { kf + 60.0 } else { kf };
    let g = if subnormal { TWO_M60 } else { 1.0 };
    let e = (er * pow2_of_integral(ka)) * g;
    if x < EXP_UNDERFLOW {
        0.0
    } else {
        e
    }
}
