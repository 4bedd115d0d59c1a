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

pub mod rational;

pub(crate) const LOG2_E: f64 = core::f64::consts::LOG2_E;
/// High part of ln 2: its low 21 bits are zero, so `k * LN2_HI` is exact for |k| < 2^11.
pub(crate) const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// ln 2 - LN2_HI.
pub(crate) const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

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
    let er = exp_reduced(xc, kf, &ExpConstants::VALUES);
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
pub(crate) const TWO_M60: f64 = 8.673_617_379_884_035e-19;
/// 2^52: adding it to a value in [0, 2^52) rounds that value to an integer (the current rounding
/// mode, round to nearest even) and leaves the integer in the low mantissa bits.
pub(crate) const TWO_52: f64 = 4_503_599_627_370_496.0;

/// `trunc(t)` for `|t| < 2^52`, as `(t as i64) as f64` would give it, without a conversion
/// instruction (baseline x86-64 has no vector trunc; this is adds, compares and selects).
#[inline(always)]
fn trunc_small(t: f64) -> f64 {
    let floor = floor_small(if t < 0.0 { -t } else { t }, &ExpConstants::VALUES);
    if t < 0.0 {
        -floor
    } else {
        floor
    }
}

/// `floor(u)` for `0 <= u < 2^52`: round to an integer by adding and subtracting 2^52, then step
/// down when that rounded up (constants `k`, always [`ExpConstants::VALUES`]).
#[inline(always)]
fn floor_small(u: f64, k: &ExpConstants) -> f64 {
    let rounded = (u + k.two_52) - k.two_52;
    if rounded > u {
        rounded - k.one
    } else {
        rounded
    }
}

/// `e^r` for the reduced argument `r = (x - k LN2_HI) - k LN2_LO` of `x` with `k = kf`: the
/// Taylor polynomial `1 + r + r^2 (1/2 + r (1/6 + ...))` in Horner form, with the constants
/// `k` (always [`ExpConstants::VALUES`]; see [`ExpConstants::opaque`] for why they are passed).
/// Shared by [`exp`] and [`exp_nonpositive`], so both compute the same bits.
#[inline(always)]
fn exp_reduced(x: f64, kf: f64, k: &ExpConstants) -> f64 {
    let hi = x - kf * k.ln2_hi;
    let lo = kf * k.ln2_lo;
    let r = hi - lo;
    let mut p = k.c[11];
    let mut i = 11;
    while i > 0 {
        i -= 1;
        p = k.c[i] + r * p;
    }
    k.one + (r + (r * r) * p)
}

/// `2^k` for an integral `k` in [-1022, 1023] (given as f64): the biased exponent `k + 1023` is
/// placed in the low bits of `k + 1023 + 2^52` and shifted into the exponent field.
#[inline(always)]
fn pow2_of_integral(k: f64) -> f64 {
    f64::from_bits((k + (1023.0 + TWO_52)).to_bits() << 52)
}

/// The constants of [`exp`]'s arithmetic for `x <= 0`, as values: [`ExpConstants::VALUES`], or
/// the same values hidden from the optimiser by [`ExpConstants::opaque`] for a loop.
#[derive(Clone, Copy, Debug)]
pub struct ExpConstants {
    log2_e: f64,
    half: f64,
    one: f64,
    two_52: f64,
    ln2_hi: f64,
    ln2_lo: f64,
    /// Taylor coefficients 1/k! for k = 2..=13.
    c: [f64; 12],
    scale: NonpositiveScale,
}

/// The first and last steps of both exponentials for `x <= 0` (this Taylor form and
/// [`rational::RationalExp`]).
///
/// First, [`NonpositiveScale::clamp`] raises `x` to at least -750.5, where `k = -1083`: then
/// `k + 60 + 1023 = 0`, the scale `2^(k + 60)` below is built as +0 and the result is exactly 0
/// with normal arithmetic only. No select is needed at the end: for every `x` in
/// `[-750.5, EXP_UNDERFLOW)` the result rounds to 0 anyway (`e^x < 2^-1075`, half the smallest
/// subnormal, by a margin the reduced exponential's error cannot bridge except within a few ulps
/// of [`EXP_UNDERFLOW`], which the tests check one by one), so the bits are those of a select
/// `x < EXP_UNDERFLOW ? 0 : e` (the earlier form), in one vector instruction instead of three.
///
/// Why exactly -750.5: in a clustered run most weights (pairs in different clusters) are far
/// below `e^-746`. Clamped to a `k` whose product `e^r 2^(k + 60)` is normal, each of them would
/// round a subnormal product, and on x86 every subnormal result costs a microcode assist of
/// about a hundred cycles (a clamp to -746 made such a step 5x slower); unclamped, a huge `k`
/// built an arbitrary scale, with assists in some lanes.
///
/// Last, `e^r 2^k`, formed as `(e^r 2^(k + 60)) 2^-60` for every `k`. The first product is exact
/// (`k + 60 >= -1022` keeps it normal, or it is +0 at `k = -1083`) and the second is exact when
/// the result is normal and rounds once when it is subnormal — the one rounding of the exact
/// `e^r 2^k` that [`exp`] does with its case split, so the bits are the same without a select.
/// Below [`EXP_UNDERFLOW`] (and for `-inf`), 0.
#[derive(Clone, Copy, Debug)]
pub struct NonpositiveScale {
    /// 60 + 1023 + 2^52: adds the bias of `2^(k + 60)`.
    bias_60: f64,
    two_m60: f64,
    /// -750.5: the clamp of the argument (`k = -1083`, scale +0).
    floor: f64,
}

impl NonpositiveScale {
    /// The constants.
    pub const VALUES: NonpositiveScale =
        NonpositiveScale { bias_60: 60.0 + (1023.0 + TWO_52), two_m60: TWO_M60, floor: -750.5 };

    /// `max(x, -750.5)` (`-inf` becomes -750.5; NaN stays NaN).
    #[inline(always)]
    pub fn clamp(&self, x: f64) -> f64 {
        if x < self.floor {
            self.floor
        } else {
            x
        }
    }

    /// `er 2^kf` (`kf` integral, at least -1083; `er` the reduced exponential in about
    /// [0.7, 1.42]).
    #[inline(always)]
    pub fn apply(&self, er: f64, kf: f64) -> f64 {
        let scale = f64::from_bits((kf + self.bias_60).to_bits() << 52);
        (er * scale) * self.two_m60
    }
}

impl ExpConstants {
    /// The constants.
    pub const VALUES: ExpConstants = ExpConstants {
        log2_e: LOG2_E,
        half: 0.5,
        one: 1.0,
        two_52: TWO_52,
        ln2_hi: LN2_HI,
        ln2_lo: LN2_LO,
        c: C,
        scale: NonpositiveScale::VALUES,
    };

    /// [`ExpConstants::VALUES`] through `core::hint::black_box`: the same numbers, which the
    /// compiler can no longer treat as constants. A loop that evaluates the exponential with them
    /// reads them once before the loop; with literal constants, LLVM rematerialises each of the
    /// ~20 as a `v128.const` inside a wasm loop (cheap in its cost model), and V8 builds every
    /// `v128.const` from immediates with several instructions each iteration — about 1.7x the
    /// time of the whole attention row. The arithmetic, and so every bit, is unchanged.
    #[inline(always)]
    pub fn opaque() -> ExpConstants {
        core::hint::black_box(ExpConstants::VALUES)
    }

    /// [`exp_nonpositive`]`(x)` with these constants (same bits; `x <= 0` or `-inf`), scaled by
    /// [`NonpositiveScale`].
    #[inline(always)]
    pub fn eval(&self, x: f64) -> f64 {
        let k = self;
        let x = k.scale.clamp(x);
        // k = trunc(y - 0.5) = -floor(0.5 - y) for y = x log2(e) <= 0 (at y = -0 this gives
        // k = -0, which yields the same bits as k = +0 below).
        let kf = -floor_small(k.half - x * k.log2_e, k);
        k.scale.apply(exp_reduced(x, kf, k), kf)
    }

    /// [`exp`]`(x)` for a softmax's argument `v - max`, which is `<= 0` or NaN (from a
    /// non-finite row): [`ExpConstants::eval`] with the NaN kept by a select. The same bits as
    /// `exp` for those arguments.
    #[inline(always)]
    pub fn weight(&self, x: f64) -> f64 {
        let e = self.eval(x);
        if x.is_nan() {
            x
        } else {
            e
        }
    }
}

/// `f` of every value of `values` in place, `L` at a time: a loop over a fixed-width array, which
/// vectorises (the softmaxes' exponentials with [`ExpConstants::weight`]); each value's arithmetic
/// is `f`'s.
#[inline(always)]
pub fn map_in_lanes<T: Copy, const L: usize>(values: &mut [T], f: impl Fn(T) -> T + Copy) {
    let mut lanes = values.chunks_exact_mut(L);
    for chunk in &mut lanes {
        let x: [T; L] = std::array::from_fn(|i| chunk[i]);
        chunk.copy_from_slice(&x.map(f));
    }
    for v in lanes.into_remainder() {
        *v = f(*v);
    }
}

/// [`exp`] for `x <= 0` (including `-inf`), with the same bits: the arguments of the attention
/// weights `exp(c (s_ij - max_k s_ik))` are never positive, so the overflow case and half of the
/// rounding of `k` drop out and the vectorised loop is about half as long.
///
/// Bit-identical to [`exp`] for every `x <= 0` (tested over dense samples of `[-750, 0]`, the
/// rounding ties of `k`, the subnormal range and the edges). Positive or NaN inputs give
/// meaningless values: callers guarantee `x <= 0`. In a loop, hoist the constants with
/// `let k = ExpConstants::opaque();` and call `k.eval(x)` (see [`ExpConstants::opaque`]).
#[inline(always)]
pub fn exp_nonpositive(x: f64) -> f64 {
    ExpConstants::VALUES.eval(x)
}
