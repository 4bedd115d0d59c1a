//! Folds that keep a NaN. `f64::max` and `f64::min` return the other argument when one is NaN,
//! so a norm or a largest value folded with them drops a NaN and reports a number (a norm of NaNs
//! folds to 0) as if nothing were wrong. These return NaN instead; on arguments that are not NaN
//! they are `f64::max` and `f64::min` (the same bits). Used by every norm, largest and smallest
//! value on a result's path ([`crate::collapse`], the depth, training and particle analyses).

/// The larger of `a` and `b`; NaN when either is NaN.
pub fn max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The smaller of `a` and `b`; NaN when either is NaN.
pub fn min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// The largest of `values` folded from `init` with [`max`] (`init` for none; NaN when one is NaN).
pub fn max_of(init: f64, values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(init, max)
}

/// The smallest of `values` folded from `init` with [`min`] (`init` for none; NaN when one is NaN).
pub fn min_of(init: f64, values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(init, min)
}

/// `max_i |x_i|` (0 for none; NaN when one is NaN, `inf` when one is infinite and none NaN).
pub fn max_abs(x: &[f64]) -> f64 {
    max_of(0.0, x.iter().map(|v| v.abs()))
}

/// Reading back what JSON wrote: JSON has no NaN, so `serde_json` writes a NaN as `null`; these
/// read `null` (and a JavaScript NaN) as NaN, for `#[serde(deserialize_with = ...)]` on the
/// result fields that may hold one.
pub mod null {
    use serde::{Deserialize, Deserializer};

    fn or_nan(v: Option<f64>) -> f64 {
        v.unwrap_or(f64::NAN)
    }

    /// One number or `null`.
    pub fn one<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(or_nan(Option::deserialize(d)?))
    }

    /// A list of numbers, each possibly `null`.
    pub fn list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Ok(Vec::<Option<f64>>::deserialize(d)?.into_iter().map(or_nan).collect())
    }

    /// A list of lists of numbers, each possibly `null`.
    pub fn lists<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
        let rows = Vec::<Vec<Option<f64>>>::deserialize(d)?;
        Ok(rows.into_iter().map(|r| r.into_iter().map(or_nan).collect()).collect())
    }
}
