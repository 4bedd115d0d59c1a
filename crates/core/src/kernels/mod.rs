//! The matrix products of attention, shared by every lab that computes attention (science.md,
//! "Matrix products"): scores `S = A Bᵀ` ([`scores`]) and weighted sums
//! `O = P Wᵀ` over rows of weights ([`sums`]), in `f32` or `f64` ([`Float`]).
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
pub mod scores;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
pub mod sums;

use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

pub use scores::{pack_keys, pack_queries, scores_block, KeyPanels};

// The f32 tiles of the build's instruction set: the same functions in each module, one module per
// target (each keeps the generic tile's order per lane).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
use avx2 as f32_tiles;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as f32_tiles;
pub use sums::{weighted_sums_block, Shift, SumsScratch};

/// Number of partial sums (lane classes of `j`) in a weighted sum.
pub const LANES: usize = 8;

/// The element types of the kernels: `f32` and `f64`, with the plain IEEE operations.
pub trait Float:
    Copy + PartialOrd + Default + Debug + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + 'static
{
    /// Additive zero (`+0.0`).
    const ZERO: Self;

    /// One register tile of scores: `acc[r][k] = sum_c a[c][r] b[c][k]` over `c = 0..d` in
    /// increasing order, the first product not added to a zero (`a`: `d` rows of [`shape::SR`]
    /// query coordinates; `b`: `d` rows of [`shape::SK`] key coordinates; `d >= 1`). The generic
    /// loop, or the target's vector instructions where the compiler does not vectorise it (wasm
    /// simd128, [`simd128`]) or vectorises it narrower than the target's registers (f64 with
    /// AVX-512, `avx512.rs`) or with shuffles (f32 with AVX2, `avx2.rs`): the same bits.
    #[inline(always)]
    fn score_tile(a: &[[Self; shape::SR]], b: &[[Self; shape::SK]]) -> [[Self; shape::SK]; shape::SR] {
        scores::tile(a, b)
    }

    /// Key panels per call of [`Float::score_tiles`] in [`scores_block`] (1, 2 or 4): more than
    /// one where this target's tile of several panels is faster.
    const PANELS: usize = 1;

    /// `P` register tiles of scores against `P` key panels: `out[p] = score_tile(a, b[p])`, the
    /// same bits; the target's vector instructions where it has them for this type (f32 with
    /// AVX2, `avx2.rs`; f32 with wasm simd128, [`simd128`]).
    #[inline(always)]
    fn score_tiles<const P: usize>(
        a: &[[Self; shape::SR]],
        b: [&[[Self; shape::SK]]; P],
    ) -> [[[Self; shape::SK]; shape::SR]; P] {
        b.map(|b| Self::score_tile(a, b))
    }

    /// One register tile of weighted sums over the chunks `q0..q1` of [`LANES`] tokens (see
    /// [`sums`]): the generic loop, or the target's vector instructions ([`simd128`], `avx2.rs`,
    /// `avx512.rs`): the same bits.
    #[inline(always)]
    fn sums_tile<const REL: bool>(
        e: [&[Self]; shape::WR],
        w: [&[Self]; shape::WC],
        sh: [[Self; shape::WC]; shape::WR],
        q0: usize,
        q1: usize,
        acc: &mut [[[Self; LANES]; shape::WC]; shape::WR],
    ) {
        sums::tile::<Self, REL>(e, w, sh, q0, q1, acc)
    }
}

impl Float for f32 {
    const ZERO: Self = 0.0;

    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512f")))]
    const PANELS: usize = 2;
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    const PANELS: usize = 3;

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    const PANELS: usize = 4;

    #[cfg(any(
        all(target_arch = "x86_64", target_feature = "avx2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    #[inline(always)]
    fn score_tile(a: &[[f32; shape::SR]], b: &[[f32; shape::SK]]) -> [[f32; shape::SK]; shape::SR] {
        let [t] = f32_tiles::score_tiles_f32::<1>(a, [b]);
        t
    }

    #[cfg(any(
        all(target_arch = "x86_64", target_feature = "avx2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    #[inline(always)]
    fn score_tiles<const P: usize>(
        a: &[[f32; shape::SR]],
        b: [&[[f32; shape::SK]]; P],
    ) -> [[[f32; shape::SK]; shape::SR]; P] {
        f32_tiles::score_tiles_f32(a, b)
    }

    #[cfg(any(
        all(target_arch = "x86_64", target_feature = "avx2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    #[inline(always)]
    fn sums_tile<const REL: bool>(
        e: [&[f32]; shape::WR],
        w: [&[f32]; shape::WC],
        sh: [[f32; shape::WC]; shape::WR],
        q0: usize,
        q1: usize,
        acc: &mut [[[f32; LANES]; shape::WC]; shape::WR],
    ) {
        f32_tiles::sums_tile_f32::<REL>(e, w, sh, q0, q1, acc)
    }
}

impl Float for f64 {
    const ZERO: Self = 0.0;

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn score_tile(a: &[[f64; shape::SR]], b: &[[f64; shape::SK]]) -> [[f64; shape::SK]; shape::SR] {
        simd128::score_tile_f64(a, b)
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn sums_tile<const REL: bool>(
        e: [&[f64]; shape::WR],
        w: [&[f64]; shape::WC],
        sh: [[f64; shape::WC]; shape::WR],
        q0: usize,
        q1: usize,
        acc: &mut [[[f64; LANES]; shape::WC]; shape::WR],
    ) {
        simd128::sums_tile_f64::<REL>(e, w, sh, q0, q1, acc)
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    #[inline(always)]
    fn score_tile(a: &[[f64; shape::SR]], b: &[[f64; shape::SK]]) -> [[f64; shape::SK]; shape::SR] {
        avx512::score_tile_f64(a, b)
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    #[inline(always)]
    fn sums_tile<const REL: bool>(
        e: [&[f64]; shape::WR],
        w: [&[f64]; shape::WC],
        sh: [[f64; shape::WC]; shape::WR],
        q0: usize,
        q1: usize,
        acc: &mut [[[f64; LANES]; shape::WC]; shape::WR],
    ) {
        avx512::sums_tile_f64::<REL>(e, w, sh, q0, q1, acc)
    }
}

/// Combines the lane sums in the fixed order `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`.
#[inline(always)]
pub fn combine<T: Float>(acc: &[T; LANES]) -> T {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// Tile shapes of this build target (they change speed only, never bits; see the module doc).
///
/// `SR x SK`: queries × keys of a score tile (accumulators in registers); `WR x WC`: rows ×
/// coordinates of a weighted-sum tile, each with [`LANES`] partial sums, of which `G` are
/// advanced together by the generic tile (4 with AVX-512; 2 with SSE2 and wasm simd128; the f64
/// tile of AVX-512 builds, `avx512.rs`, advances all 8 in one 512-bit register, and wasm's f64
/// tile, `simd128.rs`, is written out for its 2);
/// `TJ`: tokens `j` per cache tile of a weighted sum; `RB`: rows per block of scores.
///
/// Picked by timing the kernels alone on the development machine (AMD EPYC, AVX-512; wasm under
/// Node 20). A tile holds at most 64 accumulators: beyond that LLVM stops unrolling the tile's
/// loops and keeps the sums in memory (4-10x slower; e.g. 6 x 16 scores or 2 x 8 x 4 sums). In
/// wasm, 2 x 4 score tiles (4 f64x2 accumulators) beat 4 x 4 by 7-21 % at d = 128 and tie at
/// d = 16 (whole steps, interleaved A/B under Node, 2026-12-02); 4 x 6, 2 x 8 and 8 x 2 were
/// slower. f32 score tiles span [`Float::PANELS`] key panels (AVX-512 builds 3, AVX2 2, wasm 4;
/// the MiniLM forward, 2026-12-06: 3 panels 5 % faster than 2 natively, whole benchmark process).
pub mod shape {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    mod target {
        pub const SR: usize = 8;
        pub const SK: usize = 8;
        pub const WR: usize = 4;
        pub const WC: usize = 4;
        pub const G: usize = 4;
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512f")))]
    mod target {
        pub const SR: usize = 4;
        pub const SK: usize = 8;
        pub const WR: usize = 4;
        pub const WC: usize = 2;
        pub const G: usize = 4;
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    mod target {
        pub const SR: usize = 2;
        pub const SK: usize = 4;
        pub const WR: usize = 4;
        pub const WC: usize = 2;
        pub const G: usize = 2;
    }
    /// Queries per score tile.
    pub const SR: usize = target::SR;
    /// Keys per score tile (and per key panel, [`super::KeyPanels`]).
    pub const SK: usize = target::SK;
    /// Rows per weighted-sum tile.
    pub const WR: usize = target::WR;
    /// Coordinates per weighted-sum tile.
    pub const WC: usize = target::WC;
    /// Lanes of a weighted sum advanced together (divides [`super::LANES`]).
    pub const G: usize = target::G;
    /// Tokens `j` per cache tile of a weighted sum (a multiple of [`super::LANES`]).
    pub const TJ: usize = 512;
    /// Rows per block of scores: a block holds `RB x n` scores.
    pub const RB: usize = 16;
}
