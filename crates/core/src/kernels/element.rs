//! The arithmetic of the kernels' element types, `f32` and `f64`: the plain IEEE operations, the
//! number of lanes of a weighted sum and the fixed order that combines them (module doc of
//! [`super`]).

use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

/// Number of partial sums (lane classes of `j`) in a weighted sum.
pub const LANES: usize = 8;

/// An element type of the kernels: `f32` or `f64`, with the plain IEEE operations.
pub trait Element:
    Copy + PartialOrd + Default + Debug + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + 'static
{
    /// Additive zero (`+0.0`).
    const ZERO: Self;
}

impl Element for f32 {
    const ZERO: Self = 0.0;
}

impl Element for f64 {
    const ZERO: Self = 0.0;
}

/// Combines the lane sums in the fixed order `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`.
#[inline(always)]
pub fn combine<T: Element>(acc: &[T; LANES]) -> T {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}
