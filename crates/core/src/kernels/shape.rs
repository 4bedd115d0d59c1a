//! Tile shapes of this build target (they change speed only, never bits; module doc of [`super`]).
//!
//! `SR x SK`: queries × keys of a score tile (accumulators in registers); `WR x WC`: rows ×
//! coordinates of a weighted-sum tile, each with [`super::LANES`] partial sums, of which `G` are
//! advanced together by the generic tile (4 with AVX-512; 2 with SSE2 and wasm simd128; the f64
//! tile of AVX-512 builds, `avx512.rs`, advances all 8 in one 512-bit register, and wasm's f64
//! tile, `simd128.rs`, is written out for its 2);
//! `TJ`: tokens `j` per cache tile of a weighted sum; `RB`: rows per block of scores.
//!
//! Picked by timing the kernels alone on the development machine (AMD EPYC, AVX-512; wasm under
//! Node 20). A tile holds at most 64 accumulators: beyond that LLVM stops unrolling the tile's
//! loops and keeps the sums in memory (4-10x slower; e.g. 6 x 16 scores or 2 x 8 x 4 sums). In
//! wasm, 2 x 4 score tiles (4 f64x2 accumulators) beat 4 x 4 by 7-21 % at d = 128 and tie at
//! d = 16 (whole steps, interleaved A/B under Node, 2026-12-02); 4 x 6, 2 x 8 and 8 x 2 were
//! slower. f32 score tiles span [`super::Float::PANELS`] key panels (AVX-512 builds 3, AVX2 2, wasm 4;
//! the MiniLM forward, 2026-12-06: 3 panels 5 % faster than 2 natively, whole benchmark process).

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
