//! The matrix products of attention, shared by every lab that computes attention (science.md,
//! "Matrix products"): scores `S = A Bᵀ` ([`scores`]) and weighted sums
//! `O = P Wᵀ` over rows of weights ([`sums`]), in `f32` or `f64` ([`Float`]); and, on the score
//! tiles, Gram matrices with a plain loop's bits ([`gram`]).
//!
//! Order of the arithmetic (what makes the same inputs give the same bits on every target, for
//! every tile shape, any number of threads or workers):
//! - a score `s_ij = sum_c a_ic b_jc` adds its coordinates in increasing order,
//!   `((a_0 b_0 + a_1 b_1) + a_2 b_2) + ...` (the first product is not added to a zero);
//! - a weighted sum `o_ic = sum_j p_ij w_cj` is kept in [`LANES`] partial sums, lane `l` adding
//!   `j = l, l + 8, l + 16, ...` in increasing order starting from zero, the lanes combined as
//!   `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))` ([`combine`]).
//!
//! These are the orders of the particle stepper since its first version, so its tokens keep their
//! bits. How the work is cut into tiles is free: a tile of queries × keys (or rows × coordinates)
//! is held in registers and loops over the shared dimension; every output element is its own
//! chain of operations, so the tile shape ([`shape`], picked per build target) changes the speed,
//! never a bit. Rust never contracts `a * b + c` into an FMA and LLVM never reassociates a
//! floating-point sum, so vectorised code keeps the order written here.
//!
//! Nothing here imports a lab.

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
mod avx512;
mod element;
mod float;
pub mod gram;
pub mod scores;
pub mod shape;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
pub mod sums;
mod tiles;

pub use element::{combine, Element, LANES};
pub use float::Float;
pub use gram::gram;
pub use scores::{pack_keys, pack_queries, scores_block, scores_block_from, KeyPanels};
pub use sums::{weighted_sums_block, Shift, SumsScratch};
