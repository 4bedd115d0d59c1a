//! The kernels' element types as they compute a register tile: [`Float`] picks, per type and
//! build target, the generic tile of [`super::tiles`] or the target's vector instructions
//! (`avx2.rs`, `avx512.rs`, `simd128.rs`), which keep the generic tile's order per lane.

use super::element::{Element, LANES};
use super::shape;
use super::tiles;

// The f32 tiles of the build's instruction set: the same functions in each module, one module per
// target (each keeps the generic tile's order per lane).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
use super::avx2 as f32_tiles;
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
use super::avx512;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::simd128;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::simd128 as f32_tiles;

/// The element types of the kernels with their register tiles: the generic tiles ([`super::tiles`]),
/// or the build target's vector instructions where it has them for the type (the same bits).
pub trait Float: Element {
    /// One register tile of scores: `acc[r][k] = sum_c a[c][r] b[c][k]` over `c = 0..d` in
    /// increasing order, the first product not added to a zero (`a`: `d` rows of [`shape::SR`]
    /// query coordinates; `b`: `d` rows of [`shape::SK`] key coordinates; `d >= 1`). The generic
    /// loop, or the target's vector instructions where the compiler does not vectorise it (wasm
    /// simd128, [`super::simd128`]) or vectorises it narrower than the target's registers (f64 with
    /// AVX-512, `avx512.rs`) or with shuffles (f32 with AVX2, `avx2.rs`): the same bits.
    #[inline(always)]
    fn score_tile(a: &[[Self; shape::SR]], b: &[[Self; shape::SK]]) -> [[Self; shape::SK]; shape::SR] {
        tiles::score_tile(a, b)
    }

    /// Key panels per call of [`Float::score_tiles`] in [`super::scores_block`] (1, 2 or 4): more than
    /// one where this target's tile of several panels is faster.
    const PANELS: usize = 1;

    /// `P` register tiles of scores against `P` key panels: `out[p] = score_tile(a, b[p])`, the
    /// same bits; the target's vector instructions where it has them for this type (f32 with
    /// AVX2, `avx2.rs`; f32 with wasm simd128, [`super::simd128`]).
    #[inline(always)]
    fn score_tiles<const P: usize>(
        a: &[[Self; shape::SR]],
        b: [&[[Self; shape::SK]]; P],
    ) -> [[[Self; shape::SK]; shape::SR]; P] {
        b.map(|b| Self::score_tile(a, b))
    }

    /// One register tile of weighted sums over the chunks `q0..q1` of [`LANES`] tokens (see
    /// [`super::sums`]): the generic loop, or the target's vector instructions ([`super::simd128`], `avx2.rs`,
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
        tiles::sums_tile::<Self, REL>(e, w, sh, q0, q1, acc)
    }
}

impl Float for f32 {
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
