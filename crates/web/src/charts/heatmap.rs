//! Heatmap pixels: the attention matrix `P` mapped to viridis, downsampled for large `n`, and
//! any `rows x cols` grid of values (the training lab's `c_n` per iteration). Pure drawing code
//! (no science): the values, and the block maxima of a large `P`, come from the core.

use attn_core::particles::analysis::attention::{block_maxima, block_side};

/// Viridis at 0, 1/8, ..., 1 (matplotlib's colour-blind-safe sequential map), as RGB.
const VIRIDIS: [[u8; 3]; 9] = [
    [0x44, 0x01, 0x54],
    [0x47, 0x2c, 0x7a],
    [0x3b, 0x51, 0x8b],
    [0x2c, 0x71, 0x8e],
    [0x21, 0x90, 0x8d],
    [0x27, 0xad, 0x81],
    [0x5c, 0xc8, 0x63],
    [0xaa, 0xdc, 0x32],
    [0xfd, 0xe7, 0x25],
];

/// The viridis stops as CSS colours (`#440154` … `#fde725`): the page's token colours by index
/// and its colour-bar legend use the same stops as the heatmaps.
pub fn viridis_hex() -> Vec<String> {
    VIRIDIS.iter().map(|[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}")).collect()
}

/// Viridis colour of `v` in [0, 1] (clamped; NaN maps to 0), linear between the stops.
pub fn viridis(v: f64) -> [u8; 3] {
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let x = v * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |c: usize| (a[c] as f64 + (b[c] as f64 - a[c] as f64) * f).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// Side (pixels) of the heatmap image of an `n x n` matrix with at most `max_side` pixels per
/// side, and the block size (core `block_side`).
pub fn side(n: usize, max_side: usize) -> (usize, usize) {
    block_side(n, max_side)
}

/// Largest finite entry of `p` (1 when there is none or it is not positive).
pub fn finite_max(p: &[f64]) -> f64 {
    let m = p.iter().copied().filter(|x| x.is_finite()).fold(0.0f64, f64::max);
    if m > 0.0 {
        m
    } else {
        1.0
    }
}

/// The colour of a pixel with no value (an entry that is not finite: an `f32` overflow): a grey
/// outside viridis, never the colour of a number.
pub const NO_VALUE: [u8; 3] = [0x9e, 0x9e, 0x9e];

/// RGBA pixels (`side x side x 4`, row-major, opaque) of `p` (`n x n`, row-major): each pixel
/// shows the largest entry of its `block x block` block, coloured `viridis(value / scale)`, or
/// [`NO_VALUE`] when an entry of the block is not finite.
pub fn rgba(p: &[f64], n: usize, max_side: usize, scale: f64) -> Vec<u8> {
    let (side, block) = side(n, max_side);
    let mut out = vec![0u8; side * side * 4];
    if p.len() < n * n {
        return out;
    }
    let inv = if scale > 0.0 && scale.is_finite() { 1.0 / scale } else { 1.0 };
    let (pooled, _) = block_maxima(p, n, max_side);
    // The block maxima skip NaN (the particle lab's fold): mark the blocks holding one here.
    let mut missing = vec![false; side * side];
    for (k, x) in p[..n * n].iter().enumerate() {
        if !x.is_finite() {
            missing[(k / n / block) * side + (k % n) / block] = true;
        }
    }
    for ((px, &m), &none) in out.chunks_mut(4).zip(&pooled).zip(&missing) {
        let [cr, cg, cb] = if none { NO_VALUE } else { viridis(m * inv) };
        px.copy_from_slice(&[cr, cg, cb, 255]);
    }
    out
}

/// RGBA pixels (`rows x cols x 4`, row-major, opaque) of a grid whose entry `(r, c)` is
/// `value(r, c)`, coloured `viridis(value / scale)` (NaN as 0).
pub fn grid_rgba(rows: usize, cols: usize, scale: f64, value: impl Fn(usize, usize) -> f64) -> Vec<u8> {
    let inv = if scale > 0.0 && scale.is_finite() { 1.0 / scale } else { 1.0 };
    let mut out = vec![0u8; rows * cols * 4];
    for r in 0..rows {
        for c in 0..cols {
            let [cr, cg, cb] = viridis(value(r, c) * inv);
            let o = (r * cols + c) * 4;
            out[o] = cr;
            out[o + 1] = cg;
            out[o + 2] = cb;
            out[o + 3] = 255;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_stops_are_the_heatmaps_colours() {
        let hex = viridis_hex();
        assert_eq!(hex.len(), 9);
        for (k, h) in hex.iter().enumerate() {
            let [r, g, b] = viridis(k as f64 / 8.0);
            assert_eq!(*h, format!("#{r:02x}{g:02x}{b:02x}"));
        }
        assert_eq!((hex[0].as_str(), hex[8].as_str()), ("#440154", "#fde725"));
    }

    #[test]
    fn an_entry_that_is_not_finite_is_grey_never_a_colour_of_the_map() {
        // Before: NaN took the colour of 0 (viridis' low end), +inf that of the top.
        let p = [0.5, f64::NAN, f64::INFINITY, 1.0];
        let px = rgba(&p, 2, 512, 1.0);
        assert_eq!(&px[0..3], &viridis(0.5));
        assert_eq!((&px[4..7], &px[8..11]), (&NO_VALUE[..], &NO_VALUE[..]));
        assert_eq!(&px[12..15], &viridis(1.0));
        // Pooled blocks: a block holding a NaN is grey.
        let mut big = vec![0.25; 16];
        big[5] = f64::NAN;
        let px = rgba(&big, 4, 2, 1.0);
        assert_eq!((&px[0..3], &px[4..7]), (&NO_VALUE[..], &viridis(0.25)[..]));
        assert!((0..256).all(|k| viridis(k as f64 / 255.0) != NO_VALUE));
    }

    #[test]
    fn palette_ends_are_viridis_ends() {
        assert_eq!(viridis(0.0), [0x44, 0x01, 0x54]);
        assert_eq!(viridis(1.0), [0xfd, 0xe7, 0x25]);
        assert_eq!(viridis(f64::NAN), viridis(0.0));
        assert_eq!(viridis(7.0), viridis(1.0));
    }

    #[test]
    fn large_matrices_are_downsampled_to_at_most_max_side() {
        assert_eq!(side(20, 512), (20, 1));
        assert_eq!(side(4096, 512), (512, 8));
        assert_eq!(side(1000, 512), (500, 2));
        let n = 1000;
        let mut p = vec![0.0; n * n];
        p[999 * n + 3] = 1.0;
        let px = rgba(&p, n, 512, 1.0);
        assert_eq!(px.len(), 500 * 500 * 4);
        // The block holding (999, 3) shows the max, 1.0 -> the bright end.
        let o = (499 * 500 + 1) * 4;
        assert_eq!(&px[o..o + 3], &viridis(1.0));
        assert_eq!(&px[0..3], &viridis(0.0));
    }

    #[test]
    fn grid_pixels_follow_rows_then_columns() {
        let px = grid_rgba(2, 3, 2.0, |r, c| (r * 3 + c) as f64 * 0.4);
        assert_eq!(px.len(), 2 * 3 * 4);
        assert_eq!(&px[0..4], &[0x44, 0x01, 0x54, 255]);
        // (1, 2): value 2.0 / scale 2.0 = 1, the bright end.
        assert_eq!(&px[20..23], &viridis(1.0));
        assert_eq!(&px[4..7], &viridis(0.2));
    }
}
