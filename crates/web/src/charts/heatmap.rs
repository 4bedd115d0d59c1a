//! Heatmap colours: viridis, the pixels' side for large `n` (a matrix's pixels are
//! [`super::pooled`]'s), and any `rows x cols` grid of values (the training lab's `c_n` per iteration). Pure drawing code
//! (no science): the values, and the block maxima of a large `P`, come from the core.

use attn_core::particles::analysis::attention::block_side;

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

/// Viridis colour of `v` in [0, 1] (clamped; NaN maps to 0), linear between the stops, each
/// channel rounded to the nearest byte (halves up): [`exact`]'s colour, read from a table of
/// [`BUCKETS`] equal buckets of `[0, 1]` where the whole bucket has one colour (about 99 % of
/// them), else computed.
pub fn viridis(v: f64) -> [u8; 3] {
    let v = if v > 0.0 {
        v.min(1.0)
    } else {
        0.0 // also NaN
    };
    // `v * BUCKETS` is exact (a power of two): bucket `q` holds `[q, q + 1) / BUCKETS`.
    let [r, g, b, known] = table()[(v * BUCKETS as f64) as usize].to_le_bytes();
    if known == 1 {
        [r, g, b]
    } else {
        exact(v)
    }
}

/// Buckets of [`viridis`]' table (a power of two, a multiple of the 8 segments between stops,
/// so no bucket straddles a stop).
const BUCKETS: usize = 1 << 16;

/// Per bucket (and one for `v = 1`), the colour with a last byte of 1 where every `v` of the
/// bucket has it, else 0. Within a segment each channel is an increasing or decreasing function
/// of `v` (each rounding is monotonic), so a bucket whose first and last values share a colour
/// is one colour throughout.
fn table() -> &'static [u32] {
    static TABLE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let entry = |[r, g, b]: [u8; 3], known: bool| u32::from_le_bytes([r, g, b, known as u8]);
        let mut t: Vec<u32> = (0..BUCKETS)
            .map(|q| {
                let first = q as f64 / BUCKETS as f64;
                let last = f64::from_bits(((q + 1) as f64 / BUCKETS as f64).to_bits() - 1);
                let c = exact(first);
                entry(c, exact(last) == c)
            })
            .collect();
        t.push(entry(exact(1.0), true));
        t
    })
}

/// The colour of `v` in `[0, 1]`, computed: the segment `i = floor(8 v)` (7 at `v = 1`), `f = 8 v
/// - i`, each channel `a + (b - a) f` rounded, halves up.
fn exact(v: f64) -> [u8; 3] {
    let x = v * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |c: usize| round_half_up(a[c] as f64 + (b[c] as f64 - a[c] as f64) * f) as u8;
    [mix(0), mix(1), mix(2)]
}

/// `x.round()` for `x >= 0` (halves away from zero) without the call: wasm has no such
/// instruction, and `f64::round` there is a libm call. `x - x.trunc()` is exact.
fn round_half_up(x: f64) -> f64 {
    let t = x.trunc();
    if x - t >= 0.5 {
        t + 1.0
    } else {
        t
    }
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
    fn no_value_is_not_a_colour_of_the_map() {
        assert!((0..256).all(|k| viridis(k as f64 / 255.0) != NO_VALUE));
    }

    #[test]
    fn halves_round_up_as_f64_round_does() {
        let mut xs = vec![0.0, 0.5, 1.5, 254.5, 255.0, 0.49999999999999994, 2.5000000000000004, 127.49999999999999];
        xs.extend((0..=2550).map(|k| k as f64 / 10.0));
        xs.extend((0..4096).map(|k| 255.0 * k as f64 / 4095.0));
        for x in xs {
            assert_eq!(round_half_up(x).to_bits(), x.round().to_bits(), "{x}");
        }
    }

    /// The colour as first written: clamped, `f64::round`.
    fn reference(v: f64) -> [u8; 3] {
        let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        let x = v * (VIRIDIS.len() - 1) as f64;
        let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
        let f = x - i as f64;
        let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
        let mix = |c: usize| (a[c] as f64 + (b[c] as f64 - a[c] as f64) * f).round() as u8;
        [mix(0), mix(1), mix(2)]
    }

    #[test]
    fn the_tables_colours_are_the_computed_ones() {
        let mut vs = vec![f64::NAN, f64::NEG_INFINITY, -1.0, -0.0, 0.0, 1.0, 1.5, f64::INFINITY, f64::MIN_POSITIVE];
        // Every bucket's edges and middle, and the values next to them.
        for q in 0..=BUCKETS {
            let v = q as f64 / BUCKETS as f64;
            let next = |x: f64, up: bool| f64::from_bits(if up { x.to_bits() + 1 } else { x.to_bits() - 1 });
            vs.extend([v, v + 0.5 / BUCKETS as f64]);
            if q > 0 {
                vs.push(next(v, false));
            }
            vs.push(next(v, true));
        }
        // Random values, and values where a channel's exact value is near a half.
        let mut r = attn_core::rng::Rng::new(3, 0);
        vs.extend((0..200_000).map(|_| r.uniform01()));
        let known = table().iter().filter(|e| e.to_le_bytes()[3] == 1).count();
        assert!(known > BUCKETS * 98 / 100, "{known} buckets of one colour");
        for v in vs {
            assert_eq!(viridis(v), reference(v), "v = {v:e}");
        }
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
