//! A matrix's heatmap in two steps: its entries pooled once into the pixels' blocks
//! ([`Pooled`]: each block's largest finite entry, and the matrix's finite range), then coloured
//! on a scale, the matrix's own or one shared by a grid of them. Each pixel shows the largest
//! entry of its `block x block` block ([`heatmap::side`]) in viridis, grey ([`NO_VALUE`]) when an
//! entry of the block is not finite. For a similarity matrix `S` the pixels are those of
//! `(S - lo) / span` with the diagonal at 0: the largest of a block's values is the value of its
//! largest entry, since `x -> (x - lo) / span` rounds monotonically. One pass over the entries.

use super::heatmap::{self, NO_VALUE};

/// One `n x n` matrix pooled for a heatmap of at most `max_side` pixels a side.
#[derive(Clone, Debug)]
pub struct Pooled {
    /// Pixels per side ([`heatmap::side`]).
    pub side: usize,
    /// Per pixel (`side x side`, row-major): the largest finite entry of its block; NaN when an
    /// entry of the block is not finite; `-inf` when the block has no entry pooled (a diagonal
    /// pixel of a 1-entry block when the diagonal is left out).
    max: Vec<f64>,
    /// The smallest and largest finite entries pooled, in row-major order (`(inf, -inf)` when
    /// there is none).
    pub range: (f64, f64),
}

impl Pooled {
    /// Pools `m` (`n x n`, row-major): every entry, or all but the diagonal (`off_diagonal`).
    /// A matrix shorter than `n x n` has no values: every pixel grey.
    pub fn new<T: Copy + Into<f64>>(m: &[T], n: usize, max_side: usize, off_diagonal: bool) -> Pooled {
        let (side, block) = heatmap::side(n, max_side);
        if m.len() < n * n {
            return Pooled { side, max: vec![f64::NAN; side * side], range: (f64::INFINITY, f64::NEG_INFINITY) };
        }
        let m = &m[..n * n];
        let mut max = vec![f64::NEG_INFINITY; side * side];
        // First as if every entry were finite: selects, no branch on the values (`f64::min` and
        // `max` are calls in wasm). `x - x` is 0 for a finite `x` and NaN otherwise.
        let (mut lo, mut probe) = (f64::INFINITY, 0.0f64);
        #[allow(clippy::eq_op, reason = "x - x is NaN exactly when x is not finite")]
        let mut fold = |cell: &mut f64, x: T| {
            let x: f64 = x.into();
            *cell = if x > *cell { x } else { *cell };
            lo = if x < lo { x } else { lo };
            probe += x - x;
        };
        for_each_entry(m, n, side, block, off_diagonal, &mut max, &mut fold);
        if probe.is_nan() {
            return Self::with_non_finite(m, n, side, block, off_diagonal);
        }
        let hi = max.iter().fold(f64::NEG_INFINITY, |h, &v| if v > h { v } else { h });
        Pooled { side, max, range: (lo, hi) }
    }

    /// [`Pooled::new`] of a matrix with a non-finite entry: its block grey, the range over the
    /// finite entries.
    fn with_non_finite<T: Copy + Into<f64>>(
        m: &[T],
        n: usize,
        side: usize,
        block: usize,
        off_diagonal: bool,
    ) -> Pooled {
        let mut max = vec![f64::NEG_INFINITY; side * side];
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut fold = |cell: &mut f64, x: T| {
            let x: f64 = x.into();
            if !x.is_finite() {
                *cell = f64::NAN;
            } else {
                lo = if x < lo { x } else { lo };
                hi = if x > hi { x } else { hi };
                // A NaN cell (a non-finite entry seen) stays NaN.
                *cell = if x > *cell { x } else { *cell };
            }
        };
        for_each_entry(m, n, side, block, off_diagonal, &mut max, &mut fold);
        Pooled { side, max, range: (lo, hi) }
    }

    /// The largest finite entry ([`heatmap::finite_max`]: 1 when there is none or it is not
    /// positive).
    pub fn finite_max(&self) -> f64 {
        if self.range.1 > 0.0 {
            self.range.1
        } else {
            1.0
        }
    }

    /// RGBA pixels (`side x side x 4`, opaque), each `viridis(max / scale)` (a scale that is not
    /// positive and finite: 1), grey ([`NO_VALUE`]) for a block with a non-finite entry.
    pub fn rgba(&self, scale: f64) -> Vec<u8> {
        let inv = if scale > 0.0 && scale.is_finite() { 1.0 / scale } else { 1.0 };
        self.pixels(|m| m * inv)
    }

    /// RGBA pixels over `[lo, hi]`: each `viridis((max - lo) / span)` (`span = hi - lo`, 1 when
    /// not positive; `lo` not finite: 0), a left-out diagonal at the low end (0), grey for a block
    /// with a non-finite entry.
    pub fn rgba_in(&self, lo: f64, hi: f64) -> Vec<u8> {
        let span = if hi > lo { hi - lo } else { 1.0 };
        let lo = if lo.is_finite() { lo } else { 0.0 };
        self.pixels(|m| (m - lo) / span)
    }

    /// The pixels of the pooled maxima mapped by `value` (increasing) to viridis' `[0, 1]`.
    fn pixels(&self, value: impl Fn(f64) -> f64) -> Vec<u8> {
        let mut out = vec![0u8; self.side * self.side * 4];
        for (px, &m) in out.chunks_exact_mut(4).zip(&self.max) {
            // A left-out diagonal's 0 is viridis' low end, which every value at or below 0
            // (`-inf` included) takes anyway: a diagonal pixel needs no case of its own.
            let [r, g, b] = if m.is_nan() { NO_VALUE } else { heatmap::viridis(value(m)) };
            px.copy_from_slice(&[r, g, b, 255]);
        }
        out
    }
}

/// Calls `fold(cell, x)` for every entry `x` of `m` (`n x n`, row-major; the diagonal left out
/// when `off_diagonal`) in row-major order, with `cell` its pixel's entry of `max` (`side x
/// side`, blocks of `block x block` entries).
fn for_each_entry<T: Copy>(
    m: &[T],
    n: usize,
    side: usize,
    block: usize,
    off_diagonal: bool,
    max: &mut [f64],
    fold: &mut impl FnMut(&mut f64, T),
) {
    for (i, row) in m.chunks(n.max(1)).enumerate() {
        let r = i / block;
        for (c, (cell, cols)) in max[r * side..(r + 1) * side].iter_mut().zip(row.chunks(block)).enumerate() {
            if off_diagonal && c == r {
                let j0 = c * block;
                cols.iter().enumerate().filter(|&(j, _)| j0 + j != i).for_each(|(_, &x)| fold(cell, x));
            } else {
                cols.iter().for_each(|&x| fold(cell, x));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use attn_core::particles::analysis::attention::block_maxima;

    /// The pixels entry by entry: every entry mapped by `value` (the diagonal to 0 when left
    /// out), the core's block maxima of the values, a block with a non-finite value grey.
    fn reference(m: &[f64], n: usize, max_side: usize, off_diagonal: bool, value: impl Fn(f64) -> f64) -> Vec<u8> {
        let t: Vec<f64> = (0..n * n).map(|k| if off_diagonal && k / n == k % n { 0.0 } else { value(m[k]) }).collect();
        let (side, block) = heatmap::side(n, max_side);
        let (pooled, _) = block_maxima(&t, n, max_side);
        let mut missing = vec![false; side * side];
        for (k, x) in t.iter().enumerate() {
            if !x.is_finite() {
                missing[(k / n / block) * side + (k % n) / block] = true;
            }
        }
        let px = pooled.iter().zip(&missing).map(|(&v, &none)| if none { NO_VALUE } else { heatmap::viridis(v) });
        px.flat_map(|[r, g, b]| [r, g, b, 255]).collect()
    }

    /// A matrix with ties, negative entries, NaN and infinities.
    fn matrix(n: usize, seed: u32) -> Vec<f64> {
        let mut r = attn_core::rng::Rng::new(seed, 0);
        (0..n * n)
            .map(|k| match k % 97 {
                13 => f64::NAN,
                41 => f64::INFINITY,
                71 => f64::NEG_INFINITY,
                5 | 6 => 0.25,
                _ => r.normal(),
            })
            .collect()
    }

    #[test]
    fn pooled_pixels_are_the_pixels_of_every_entry() {
        for (n, max_side) in [(1, 128), (3, 128), (40, 128), (130, 128), (300, 128), (97, 10)] {
            let with_non_finite = matrix(n, n as u32);
            let finite: Vec<f64> = with_non_finite.iter().map(|&x| if x.is_finite() { x } else { 0.5 }).collect();
            for m in [with_non_finite, finite] {
                let weights: Vec<f64> = m.iter().map(|&x| x.abs()).collect();
                let p = Pooled::new(&weights, n, max_side, false);
                assert_eq!(p.finite_max(), heatmap::finite_max(&weights), "n = {n}");
                for scale in [p.finite_max(), 2.5, 0.0] {
                    let inv = if scale > 0.0 { 1.0 / scale } else { 1.0 };
                    let want = reference(&weights, n, max_side, false, |x| x * inv);
                    assert_eq!(p.rgba(scale), want, "n = {n}, scale {scale}");
                }
                let s = Pooled::new(&m, n, max_side, true);
                let (lo, hi) = s.range;
                let off = (0..n * n).filter(|k| k / n != k % n).map(|k| m[k]).filter(|x| x.is_finite());
                assert_eq!(lo, off.clone().fold(f64::INFINITY, f64::min), "n = {n}");
                assert_eq!(hi, off.fold(f64::NEG_INFINITY, f64::max), "n = {n}");
                for (a, b) in [(lo, hi), (-3.0, 4.0), (f64::INFINITY, f64::NEG_INFINITY), (1.0, 1.0)] {
                    let span = if b > a { b - a } else { 1.0 };
                    let a0 = if a.is_finite() { a } else { 0.0 };
                    let want = reference(&m, n, max_side, true, |x| (x - a0) / span);
                    assert_eq!(s.rgba_in(a, b), want, "n = {n}, range ({a}, {b})");
                }
            }
        }
    }

    #[test]
    fn f32_entries_pool_as_their_f64_values() {
        let m: Vec<f32> = matrix(50, 7).iter().map(|&x| x as f32).collect();
        let wide: Vec<f64> = m.iter().map(|&x| x as f64).collect();
        let (a, b) = (Pooled::new(&m, 50, 16, true), Pooled::new(&wide, 50, 16, true));
        assert_eq!((a.range, a.rgba_in(-1.0, 2.0)), (b.range, b.rgba_in(-1.0, 2.0)));
    }

    /// A similarity matrix's tile on its own off-diagonal range.
    fn tile(s: &[f64], n: usize) -> Vec<u8> {
        let p = Pooled::new(s, n, 512, true);
        p.rgba_in(p.range.0, p.range.1)
    }

    #[test]
    fn tiles_span_the_off_diagonal_range_with_the_diagonal_dark() {
        // S = [[0, 2, 4], [2, 0, 3], [4, 3, 0]]: range [2, 4].
        let s = [0.0, 2.0, 4.0, 2.0, 0.0, 3.0, 4.0, 3.0, 0.0];
        let px = tile(&s, 3);
        assert_eq!(px.len(), 3 * 3 * 4);
        assert_eq!(&px[0..3], &heatmap::viridis(0.0)); // diagonal
        assert_eq!(&px[4..7], &heatmap::viridis(0.0)); // S_01 = 2, the low end
        assert_eq!(&px[8..11], &heatmap::viridis(1.0)); // S_02 = 4, the high end
        assert_eq!(&px[20..23], &heatmap::viridis(0.5)); // S_12 = 3
    }

    #[test]
    fn a_shared_range_colours_every_tile_on_one_scale() {
        // Two heads: [2, 4] and [1, 2]; shared range [1, 4].
        let a = [0.0, 2.0, 4.0, 0.0];
        let b = [0.0, 1.0, 2.0, 0.0];
        let (pa, pb) = (Pooled::new(&a, 2, 512, true), Pooled::new(&b, 2, 512, true));
        assert_eq!((pa.range, pb.range), ((2.0, 4.0), (1.0, 2.0)));
        let (lo, hi) = (pa.range.0.min(pb.range.0), pa.range.1.max(pb.range.1));
        // Per head, b's largest entry is the top colour; on the shared scale it is a third up.
        assert_eq!(&tile(&b, 2)[8..11], &heatmap::viridis(1.0));
        assert_eq!(&pb.rgba_in(lo, hi)[8..11], &heatmap::viridis(1.0 / 3.0));
        assert_eq!(&pa.rgba_in(lo, hi)[8..11], &heatmap::viridis(1.0));
        assert_eq!(&pa.rgba_in(lo, hi)[4..7], &heatmap::viridis(1.0 / 3.0));
    }

    #[test]
    fn an_entry_that_is_not_finite_is_grey_never_a_colour_of_the_map() {
        // Before: NaN took the colour of 0 (viridis' low end), +inf that of the top.
        let p = [0.5, f64::NAN, f64::INFINITY, 1.0];
        let px = Pooled::new(&p, 2, 512, false).rgba(1.0);
        assert_eq!(&px[0..3], &heatmap::viridis(0.5));
        assert_eq!((&px[4..7], &px[8..11]), (&NO_VALUE[..], &NO_VALUE[..]));
        assert_eq!(&px[12..15], &heatmap::viridis(1.0));
        // Pooled blocks: a block holding a NaN is grey.
        let mut big = vec![0.25; 16];
        big[5] = f64::NAN;
        let px = Pooled::new(&big, 4, 2, false).rgba(1.0);
        assert_eq!((&px[0..3], &px[4..7]), (&NO_VALUE[..], &heatmap::viridis(0.25)[..]));
        // A matrix shorter than stated has no values.
        assert!(Pooled::new(&big, 5, 512, false).rgba(1.0).chunks(4).all(|px| px[..3] == NO_VALUE));
    }

    #[test]
    fn a_large_matrix_shows_each_blocks_largest_entry() {
        let n = 1000;
        let mut p = vec![0.0; n * n];
        p[999 * n + 3] = 1.0;
        let px = Pooled::new(&p, n, 512, false).rgba(1.0);
        assert_eq!(px.len(), 500 * 500 * 4);
        // The block holding (999, 3) shows the max, 1.0 -> the bright end.
        let o = (499 * 500 + 1) * 4;
        assert_eq!(&px[o..o + 3], &heatmap::viridis(1.0));
        assert_eq!(&px[0..3], &heatmap::viridis(0.0));
    }
}
