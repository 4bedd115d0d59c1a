//! The model lab's grids as viridis tiles: every layer's and head's attention `P_h` and context
//! similarity `S = O_h O_hᵀ`, on per-head or shared colour scales (the link's view key `scale`,
//! core `model::keys::TileScale`). Plain bytes for the page's `ImageData`; the numbers are the
//! core's `f32`, read as `f64`.

use crate::charts::pooled::Pooled;
use attn_core::model::analysis::similarity;
use attn_core::model::keys::TileScale;
use attn_core::model::Forward;

/// The tiles of one analysis, layer-major then head, `side x side x 4` bytes each.
pub struct Tiles {
    /// Pixels per tile side.
    pub side: usize,
    /// Attention tiles, `layers * heads` of them.
    pub attention: Vec<u8>,
    /// Similarity tiles, in the same order.
    pub similarity: Vec<u8>,
    /// The attention colour map's top: each head's largest weight (`grid_scale=head`), or the
    /// largest of every head (`grid_scale=shared`), one per tile.
    pub attention_max: Vec<f64>,
    /// The similarity colour map's `[lo, hi]` per tile: the head's off-diagonal range, or the
    /// range of every head's off-diagonal entries.
    pub similarity_range: Vec<[f64; 2]>,
}

/// The tiles of forward `f` (`layers` layers), at most `max_side` pixels a side, on `scale`.
/// Each head's `P` and `S` are pooled once ([`Pooled`]), then coloured. A layer without records
/// is an error.
pub fn tiles(f: &Forward, layers: usize, max_side: usize, scale: TileScale) -> Result<Tiles, String> {
    let (n, heads) = (f.n, f.heads);
    let missing = || "model: a layer without records".to_string();
    let mut p_all = Vec::with_capacity(layers * heads);
    let mut s_all = Vec::with_capacity(layers * heads);
    for l in 1..=layers {
        for h in 0..heads {
            p_all.push(Pooled::new(f.attention(l, h).ok_or_else(missing)?, n, max_side, false));
            let o = f.head_output(l, h).ok_or_else(missing)?;
            s_all.push(Pooled::new(&similarity(o, n, f.d_head), n, max_side, true));
        }
    }
    let mut attention_max: Vec<f64> = p_all.iter().map(Pooled::finite_max).collect();
    let mut similarity_range: Vec<[f64; 2]> = s_all.iter().map(|s| [s.range.0, s.range.1]).collect();
    if scale == TileScale::Shared {
        let top = attention_max.iter().copied().fold(0.0f64, f64::max);
        attention_max.iter_mut().for_each(|m| *m = top);
        let lo = similarity_range.iter().map(|r| r[0]).fold(f64::INFINITY, f64::min);
        let hi = similarity_range.iter().map(|r| r[1]).fold(f64::NEG_INFINITY, f64::max);
        similarity_range.iter_mut().for_each(|r| *r = [lo, hi]);
    }
    let side = crate::charts::heatmap::side(n, max_side).0;
    let mut attention = Vec::with_capacity(layers * heads * side * side * 4);
    let mut sim = Vec::with_capacity(attention.capacity());
    for (k, (p, s)) in p_all.iter().zip(&s_all).enumerate() {
        attention.extend(p.rgba(attention_max[k]));
        sim.extend(s.rgba_in(similarity_range[k][0], similarity_range[k][1]));
    }
    Ok(Tiles { side, attention, similarity: sim, attention_max, similarity_range })
}
