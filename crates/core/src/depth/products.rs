//! The depth lab's matrix products on the shared kernels (science.md, "Matrix products"):
//! every `X W`, `P V` and Gram matrix of the stack goes through [`crate::kernels::scores_block`],
//! whose entries are sums over the inner index in increasing order with no FMA, so the page
//! (wasm) and `attn depth` (native) give the same bits. nalgebra keeps the storage (column-major
//! [`DMatrix`]) but never multiplies: its products run different kernels natively (with FMA where
//! the CPU has it) and in wasm.

use super::Real;
use crate::kernels::{self, KeyPanels};
use nalgebra::{DMatrix, Dyn, Matrix, Storage};

/// `a b` (`n x k` times `k x m`, any nalgebra storage, e.g. column or row views): entry `(i, j)`
/// is `sum_c a_ic b_cj` with `c` increasing. `k = 0` gives zeros.
pub fn mul<T, SA, SB>(a: &Matrix<T, Dyn, Dyn, SA>, b: &Matrix<T, Dyn, Dyn, SB>) -> DMatrix<T>
where
    T: Real,
    SA: Storage<T, Dyn, Dyn>,
    SB: Storage<T, Dyn, Dyn>,
{
    assert_eq!(a.ncols(), b.nrows(), "mul: inner dimensions differ");
    product(a.nrows(), b.ncols(), a.ncols(), |i, c| a[(i, c)], |j, c| b[(c, j)])
}

/// `a aᵀ` (`n x k` gives `n x n`): the Gram matrix of `a`'s rows, entry `(i, j)` the dot
/// product of rows `i` and `j`, coordinates in increasing order (exactly symmetric).
pub fn gram<T, SA>(a: &Matrix<T, Dyn, Dyn, SA>) -> DMatrix<T>
where
    T: Real,
    SA: Storage<T, Dyn, Dyn>,
{
    product(a.nrows(), a.nrows(), a.ncols(), |i, c| a[(i, c)], |j, c| a[(j, c)])
}

/// `aᵀ a` (`n x k` gives `k x k`): the Gram matrix of `a`'s columns.
pub fn gram_columns<T, SA>(a: &Matrix<T, Dyn, Dyn, SA>) -> DMatrix<T>
where
    T: Real,
    SA: Storage<T, Dyn, Dyn>,
{
    product(a.ncols(), a.ncols(), a.nrows(), |i, c| a[(c, i)], |j, c| a[(c, j)])
}

/// The `n x m` product whose entry `(i, j)` is `sum_c left(i, c) right(j, c)` over `c = 0..k`.
/// The kernel writes its scores row-major per query; taking the columns `j` as queries and the
/// rows `i` as keys makes that the column-major layout of the result.
fn product<T: Real>(
    n: usize,
    m: usize,
    k: usize,
    left: impl Fn(usize, usize) -> T,
    right: impl Fn(usize, usize) -> T,
) -> DMatrix<T> {
    let mut out = DMatrix::<T>::zeros(n, m);
    if n == 0 || m == 0 || k == 0 {
        return out;
    }
    let (mut queries, mut keys) = (Vec::new(), KeyPanels::default());
    kernels::pack_queries(m, k, right, &mut queries);
    kernels::pack_keys(n, k, left, &mut keys);
    kernels::scores_block(&queries, m, &keys, out.as_mut_slice());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
        DMatrix::from_fn(a.nrows(), b.ncols(), |i, j| {
            let mut s = 0.0;
            for c in 0..a.ncols() {
                s += a[(i, c)] * b[(c, j)];
            }
            s
        })
    }

    #[test]
    fn products_are_the_plain_sums_in_increasing_order_bit_for_bit() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        for (n, k, m) in [(1, 1, 1), (7, 3, 5), (13, 64, 9), (33, 17, 40), (5, 0, 3)] {
            let a = DMatrix::from_fn(n, k, |_, _| next());
            let b = DMatrix::from_fn(k, m, |_, _| next());
            assert_eq!(mul(&a, &b), naive(&a, &b), "{n} x {k} x {m}");
            assert_eq!(
                mul(&a.columns(0, k.min(2)), &b.rows(0, k.min(2))),
                naive(&a.columns(0, k.min(2)).into_owned(), &b.rows(0, k.min(2)).into_owned())
            );
            assert_eq!(gram(&a), naive(&a, &a.transpose()));
            assert_eq!(gram_columns(&a), naive(&a.transpose(), &a));
        }
    }
}
