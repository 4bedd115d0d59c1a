//! Stochastic gradient descent with optional momentum, PyTorch convention (science.md §5):
//!
//! ```text
//! v     <- mu v + g
//! theta <- theta - eta v
//! ```
//!
//! with `v = 0` before the first step (so the first step is `theta -= eta g`, as PyTorch's
//! first-step `buf = g`). The model uses two parameter groups: `Z` with `eta_Z` and `Y` with
//! `eta_Y = r eta_Z`, each with its own velocity. Elementwise, in index order: plain arithmetic.

/// One momentum-SGD update of `theta` (any shape, flattened) with gradient `grad`, velocity
/// `velocity` (same length; updated in place), learning rate `eta` and momentum `mu` in `[0, 1)`.
pub fn sgd_step(theta: &mut [f64], velocity: &mut [f64], grad: &[f64], eta: f64, mu: f64) {
    for ((t, v), g) in theta.iter_mut().zip(velocity.iter_mut()).zip(grad) {
        *v = mu * *v + *g;
        *t -= eta * *v;
    }
}
