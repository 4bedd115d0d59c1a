//! The exponential of the attention weights from configuration version 2 on: a rational
//! approximation after range reduction, about 1.5 times faster than the Taylor form of
//! [`super::exp`] in the row loop (fewer operations per weight), within 1 ulp of libm.
//!
//! Links of versions 0 and 1 keep [`super::exp_nonpositive`] (their tokens replay bit for bit);
//! a version-2 run uses [`RationalExp::eval`] for every `exp(c (s_ij - max_k s_ik))` of the
//! attention rows (`crate::particles::field::rows`). Every other exponential of the core (the USA model's
//! `c`, the energy, the training and depth labs) stays [`super::exp`] in every version.
//!
//! Method (the classic one of FreeBSD's `e_exp.c`, written for `x <= 0` without branches):
//! `k = round(x / ln 2)` (to nearest, by adding and subtracting 1.5 * 2^52), `hi = x - k LN2_HI`
//! (exact), `lo = k LN2_LO`, `r = hi - lo`; with `t = r^2` and
//! `c = r - t (P1 + t (P2 + t (P3 + t (P4 + t P5))))` (a minimax fit of `r (e^r + 1) / (e^r - 1)`),
//! `e^r = 1 - ((lo - r c / (2 - c)) - hi)`; then `e^x = (e^r 2^(k + 60)) 2^-60`, exact for normal
//! results and rounded once for subnormal ones, after clamping `x` to at least -750.5
//! ([`super::NonpositiveScale`], shared with the Taylor form). Plain IEEE operations in a fixed
//! order (one division, no FMA): the same bits on every target.
//!
//! Accuracy (tested in `crates/core/tests/exp_rational.rs`): within 1 ulp of libm over
//! `[-708, 0]` and within one subnormal spacing below; `exp(0) = exp(-0) = 1`, `exp(x) = 0` for
//! `x < -745.1332191019412` and for `-inf`. Defined for `x <= 0` only (the attention weights'
//! arguments); positive or NaN inputs give meaningless values.

use super::{NonpositiveScale, LN2_HI, LN2_LO, LOG2_E, TWO_52};

/// The constants of [`RationalExp::eval`], as values a loop can hold in registers.
#[derive(Clone, Copy, Debug)]
pub struct RationalExp {
    log2_e: f64,
    /// 1.5 * 2^52: `(y + m) - m` rounds `y` (|y| < 2^51) to the nearest integer.
    round: f64,
    ln2_hi: f64,
    ln2_lo: f64,
    /// P1..P5 of FreeBSD's `e_exp.c`.
    p: [f64; 5],
    one: f64,
    two: f64,
    scale: NonpositiveScale,
}

impl RationalExp {
    /// The constants.
    pub const VALUES: RationalExp = RationalExp {
        log2_e: LOG2_E,
        round: 1.5 * TWO_52,
        ln2_hi: LN2_HI,
        ln2_lo: LN2_LO,
        p: [
            f64::from_bits(0x3FC5_5555_5555_553E),
            f64::from_bits(0xBF66_C16C_16BE_BD93),
            f64::from_bits(0x3F11_566A_AF25_DE2C),
            f64::from_bits(0xBEBB_BD41_C5D2_6BF1),
            f64::from_bits(0x3E66_3769_72BE_A4D0),
        ],
        one: 1.0,
        two: 2.0,
        scale: NonpositiveScale::VALUES,
    };

    /// [`RationalExp::VALUES`] hidden from the optimiser (read once before a loop; see
    /// [`super::ExpConstants::opaque`] for why). Same numbers, same bits.
    #[inline(always)]
    pub fn opaque() -> RationalExp {
        core::hint::black_box(RationalExp::VALUES)
    }

    /// `e^x` for `x <= 0` or `-inf` (see the module documentation).
    #[inline(always)]
    pub fn eval(&self, x: f64) -> f64 {
        let k = self;
        let x = k.scale.clamp(x);
        let kf = (x * k.log2_e + k.round) - k.round;
        let hi = x - kf * k.ln2_hi;
        let lo = kf * k.ln2_lo;
        let r = hi - lo;
        let t = r * r;
        let c = r - t * (k.p[0] + t * (k.p[1] + t * (k.p[2] + t * (k.p[3] + t * k.p[4]))));
        let er = k.one - ((lo - (r * c) / (k.two - c)) - hi);
        k.scale.apply(er, kf)
    }
}

/// `e^x` for `x <= 0` with the rational form ([`RationalExp::eval`] with its constants).
#[inline(always)]
pub fn exp_rational(x: f64) -> f64 {
    RationalExp::VALUES.eval(x)
}
