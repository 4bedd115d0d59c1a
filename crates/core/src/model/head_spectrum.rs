//! The spectra of a trained head's `V_h` and `S_h` (science.md §7): all `d_model` eigenvalues of
//! each, from the nonzero blocks only. `V_h = W_o W_v` has the nonzero eigenvalues of the
//! `d_k x d_k` matrix `W_v W_o`; `S_h` those of the `2d_k x 2d_k` matrix
//! `½ [W_k; W_q][W_qᵀ W_kᵀ] / sqrt(d_k)` ([`HeadMatrices::symmetric_core`]); the other
//! eigenvalues are exactly 0. The solver is the particle lab's
//! ([`crate::particles::analysis::spectrum::eigenvalues`], the one ψ₁ uses): the same bits
//! natively and in wasm.

use super::heads::HeadMatrices;
use crate::particles::analysis::spectrum::eigenvalues;

/// All `d_model` eigenvalues of `V_h` and of `S_h`, as `(re, im)`, sorted by [`sort_eigenvalues`].
#[derive(Clone, Debug, PartialEq)]
pub struct HeadSpectrum {
    /// `V_h`'s eigenvalues.
    pub v: Vec<(f64, f64)>,
    /// `S_h`'s eigenvalues (imaginary parts exactly 0: `S_h` is symmetric).
    pub s: Vec<(f64, f64)>,
}

/// Sorts eigenvalues by modulus descending, then real part descending, then imaginary part
/// descending (a conjugate pair: `+` first).
pub fn sort_eigenvalues(e: &mut [(f64, f64)]) {
    let modulus = |&(re, im): &(f64, f64)| (re * re + im * im).sqrt();
    e.sort_by(|a, b| modulus(b).total_cmp(&modulus(a)).then(b.0.total_cmp(&a.0)).then(b.1.total_cmp(&a.1)));
}

/// The eigenvalues of the `m x m` block `core()`, padded with exact zeros to `d`. When the block
/// is not smaller than `d` (`2 d_k >= d` for `S_h`: one or two heads), `full()` (the `d x d` matrix
/// itself) is used instead. `None` when the solver does not converge.
fn padded(
    m: usize,
    d: usize,
    core: impl FnOnce() -> Vec<f64>,
    full: impl FnOnce() -> Vec<f64>,
) -> Option<Vec<(f64, f64)>> {
    let mut e = if m < d { eigenvalues(&core(), m)? } else { eigenvalues(&full(), d)? };
    e.resize(d, (0.0, 0.0));
    sort_eigenvalues(&mut e);
    Some(e)
}

/// The spectra of `V_h` and `S_h`; `None` when the QR iteration does not converge.
pub fn head_spectrum(h: &HeadMatrices) -> Option<HeadSpectrum> {
    let (d, dk) = (h.d, h.dk);
    let v = padded(dk, d, || h.value_core(), || h.value())?;
    let mut s = padded(2 * dk, d, || h.symmetric_core(), || h.symmetric())?;
    for e in &mut s {
        e.1 = 0.0;
    }
    sort_eigenvalues(&mut s);
    Some(HeadSpectrum { v, s })
}
