//! The depth lab's number type, `f32` or `f64` ([`super::config::Precision`]): a leaf every
//! file of the lab uses.

/// The floating-point type the stack runs in: `f32` (BERT's own precision, fast) or `f64`.
///
/// A thin layer over nalgebra's `RealField` with the conversions the lab needs.
pub trait Real: nalgebra::RealField + crate::kernels::Float + Copy + Default + std::fmt::Debug + 'static {
    /// `x` rounded to this type.
    fn lift(x: f64) -> Self;
    /// This value as `f64` (exact).
    fn widen(self) -> f64;
    /// The error function (`libm`).
    fn erf(self) -> Self;
    /// `e^x` by the core's exp ([`crate::exp::exp`], in `f64`, then rounded to this type): the
    /// same bits on every target, unlike `std`'s (glibc natively, a port in wasm).
    fn exp_fixed(self) -> Self;
    /// The hyperbolic tangent (`libm`).
    fn tanh_fixed(self) -> Self;
}

impl Real for f32 {
    fn lift(x: f64) -> Self {
        x as f32
    }
    fn widen(self) -> f64 {
        self as f64
    }
    fn erf(self) -> Self {
        libm::erff(self)
    }
    fn exp_fixed(self) -> Self {
        crate::exp::exp(self as f64) as f32
    }
    fn tanh_fixed(self) -> Self {
        libm::tanhf(self)
    }
}

impl Real for f64 {
    fn lift(x: f64) -> Self {
        x
    }
    fn widen(self) -> f64 {
        self
    }
    fn erf(self) -> Self {
        libm::erf(self)
    }
    fn exp_fixed(self) -> Self {
        crate::exp::exp(self)
    }
    fn tanh_fixed(self) -> Self {
        libm::tanh(self)
    }
}
