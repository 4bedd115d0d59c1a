//! Weighted sums `O = P Wᵀ` over a block of rows of weights: `o_ic = sum_j p_ij (w_cj - shift_ic)`
//! in [`LANES`] lane classes of `j`, each in increasing order, combined by [`combine`] (module doc
//! of [`super`]).
//!
//! Register blocking: a tile of [`WR`] rows × [`WC`] coordinates keeps its `WR x WC x LANES`
//! partial sums while the loop runs over `j`, so each loaded weight serves `WC` coordinates and
//! each loaded value `WR` rows. When a vector register holds fewer than [`LANES`] lanes ([`G`]:
//! 2 in wasm simd128 and SSE2), the lanes are advanced `G` at a time in `LANES / G` passes over a
//! cache tile of [`TJ`] tokens (each lane still adds its `j` in increasing order), so the
//! accumulators of a pass fit the 16 vector registers. Cache tiling: the tiles of [`TJ`] tokens
//! are the outer loop, so the block's weights of one tile (`rows x TJ`, 64 KB for 16 rows) stay in
//! L2 while every pair of coordinates reads them, and the lane sums wait in memory between tiles
//! (with whole rows outermost, 16 rows x 4096 tokens left L2 once per pair of coordinates: up to
//! 15 % of a step at n = 4096 in wasm).

use super::shape::{TJ, WC, WR};
use super::{combine, Float, LANES};

/// The lane sums of [`weighted_sums_block`]'s register tiles between token tiles: memory a caller
/// keeps, so stepping does not allocate (empty by default, grown on first use).
#[derive(Clone, Debug, Default)]
pub struct SumsScratch<T: Float>(Vec<[[[T; LANES]; WC]; WR]>);

impl<T: Float> SumsScratch<T> {
    /// Working memory for blocks of up to `rows` rows of `d` coordinates, allocated now.
    pub fn sized(rows: usize, d: usize) -> SumsScratch<T> {
        SumsScratch(vec![[[[T::ZERO; LANES]; WC]; WR]; rows.div_ceil(WR) * d.div_ceil(WC)])
    }
}

/// What is subtracted from the values in a weighted sum.
#[derive(Clone, Copy, Debug)]
pub enum Shift<'a, T> {
    /// Nothing: `o_ic = sum_j p_ij w_cj`.
    None,
    /// `shift[r * d + c]` from value `c` for row `r`: `o_rc = sum_j p_rj (w_cj - shift_rc)`
    /// (the relative field of the particle lab's z model, `shift_r = w_i`); `rows x d`.
    Rows(&'a [T]),
}

/// `out[r * d + c] = sum_j e[r * n + j] * (w[c * n + j] - shift_rc)` for `r < rows`, `c < d`, in
/// lane order: `e` holds `rows x n` weights (row-major), `w` the values coordinate-major
/// (`d x n`), `out` at least `rows x d` (row-major); `scratch` is working memory. Panics if a
/// slice is shorter than stated.
///
/// Loop order (speed only): tiles of [`TJ`] tokens outermost, so the block's weights of one tile
/// (`rows x TJ`) stay in cache while every coordinate reads them (with the whole rows of `e`
/// outermost, a block of 16 rows x 4096 tokens left L2 once per pair of coordinates); within a
/// tile, pairs of coordinates, then groups of rows. Each register tile's lane sums wait in `acc`
/// between token tiles; every lane still adds its `j` in increasing order.
#[allow(clippy::too_many_arguments)] // the product's operands and shapes, then the output and its scratch
pub fn weighted_sums_block<T: Float>(
    e: &[T],
    rows: usize,
    w: &[T],
    n: usize,
    d: usize,
    shift: Shift<T>,
    out: &mut [T],
    scratch: &mut SumsScratch<T>,
) {
    if rows == 0 || d == 0 {
        return;
    }
    let (e, w) = (&e[..rows * n], &w[..d * n]);
    let (cgroups, rgroups) = (d.div_ceil(WC), rows.div_ceil(WR));
    // Tails of rows and coordinates repeat the last one (the same arithmetic, written once).
    let cols = |cg: usize| -> [usize; WC] { std::array::from_fn(|k| (cg * WC + k).min(d - 1)) };
    let rws = |rg: usize| -> [usize; WR] { std::array::from_fn(|k| (rg * WR + k).min(rows - 1)) };
    let shifts = |rs: [usize; WR], cs: [usize; WC]| match shift {
        Shift::None => [[T::ZERO; WC]; WR],
        Shift::Rows(s) => rs.map(|r| cs.map(|c| s[r * d + c])),
    };
    let acc = &mut scratch.0;
    acc.clear();
    acc.resize(cgroups * rgroups, [[[T::ZERO; LANES]; WC]; WR]);
    let m = n / LANES;
    // Token tiles outermost; the last one (also when n < LANES, m = 0) ends each register tile
    // with the last n mod LANES tokens and writes its combined sums.
    let mut q0 = 0;
    loop {
        let q1 = m.min(q0 + TJ / LANES);
        let last = q1 == m;
        for cg in 0..cgroups {
            let cs = cols(cg);
            let wr: [&[T]; WC] = cs.map(|c| &w[c * n..(c + 1) * n]);
            for rg in 0..rgroups {
                let rs = rws(rg);
                let er: [&[T]; WR] = rs.map(|r| &e[r * n..(r + 1) * n]);
                let (a, sh) = (&mut acc[cg * rgroups + rg], shifts(rs, cs));
                match shift {
                    Shift::None => T::sums_tile::<false>(er, wr, sh, q0, q1, a),
                    Shift::Rows(_) => T::sums_tile::<true>(er, wr, sh, q0, q1, a),
                }
                if last {
                    tail(er, wr, sh, matches!(shift, Shift::Rows(_)), n, a);
                    for (k, &r) in rs.iter().enumerate().take(rows - rg * WR) {
                        for (mm, &c) in cs.iter().enumerate().take(d - cg * WC) {
                            out[r * d + c] = combine(&a[k][mm]);
                        }
                    }
                }
            }
        }
        if last {
            break;
        }
        q0 = q1;
    }
}

/// The last `n mod LANES` tokens of a register tile: token `j` goes to lane `j - m LANES`
/// (`= j mod LANES`, `m = n / LANES`), after every full chunk.
#[allow(clippy::needless_range_loop)]
fn tail<T: Float>(
    e: [&[T]; WR],
    w: [&[T]; WC],
    sh: [[T; WC]; WR],
    rel: bool,
    n: usize,
    acc: &mut [[[T; LANES]; WC]; WR],
) {
    let full = n / LANES * LANES;
    for j in full..n {
        let l = j - full;
        for r in 0..WR {
            for c in 0..WC {
                let x = if rel { w[c][j] - sh[r][c] } else { w[c][j] };
                acc[r][c][l] = acc[r][c][l] + e[r][j] * x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain loop: lane l adds j = l, l + 8, ... in increasing order; lanes combined by `combine`.
    fn reference(e: &[f64], w: &[f64], rows: usize, n: usize, d: usize, sh: Option<&[f64]>) -> Vec<f64> {
        let mut out = vec![0.0; rows * d];
        for r in 0..rows {
            for c in 0..d {
                let mut acc = [0.0; LANES];
                for j in 0..n {
                    let s = sh.map_or(0.0, |s| s[r * d + c]);
                    let x = if sh.is_some() { w[c * n + j] - s } else { w[c * n + j] };
                    acc[j % LANES] += e[r * n + j] * x;
                }
                out[r * d + c] = combine(&acc);
            }
        }
        out
    }

    fn values(len: usize, seed: u32) -> Vec<f64> {
        let mut r = crate::rng::Rng::new(seed, 0);
        (0..len).map(|_| r.normal() * 3.0).collect()
    }

    #[test]
    fn weighted_sums_equal_the_plain_loop_bit_for_bit_at_odd_sizes() {
        for &(rows, n, d) in &[(1, 1, 1), (3, 7, 2), (5, 9, 3), (7, 1000, 5), (2, 513, 17), (9, 1031, 4)] {
            let (e, w, sh) = (values(rows * n, 5), values(d * n, 6), values(rows * d, 7));
            for shift in [None, Some(&sh[..])] {
                let mut out = vec![f64::NAN; rows * d];
                let s = shift.map_or(Shift::None, Shift::Rows);
                weighted_sums_block(&e, rows, &w, n, d, s, &mut out, &mut SumsScratch::default());
                let want = reference(&e, &w, rows, n, d, shift);
                let same = out.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits());
                assert!(same, "rows {rows}, n {n}, d {d}, shift {}", shift.is_some());
            }
        }
    }

    #[test]
    fn f32_weighted_sums_equal_the_plain_loop() {
        for &(rows, n, d) in &[(5, 77, 6), (1, 3, 1), (16, 128, 32), (7, 1031, 5)] {
            let e: Vec<f32> = values(rows * n, 8).iter().map(|&x| x as f32).collect();
            let w: Vec<f32> = values(d * n, 9).iter().map(|&x| x as f32).collect();
            let sh: Vec<f32> = values(rows * d, 10).iter().map(|&x| x as f32).collect();
            for rel in [false, true] {
                let mut out = vec![f32::NAN; rows * d];
                let shift = if rel { Shift::Rows(&sh[..]) } else { Shift::None };
                weighted_sums_block(&e, rows, &w, n, d, shift, &mut out, &mut SumsScratch::default());
                for r in 0..rows {
                    for c in 0..d {
                        let mut acc = [0.0f32; LANES];
                        for j in 0..n {
                            let x = if rel { w[c * n + j] - sh[r * d + c] } else { w[c * n + j] };
                            acc[j % LANES] += e[r * n + j] * x;
                        }
                        let got = out[r * d + c].to_bits();
                        assert_eq!(got, combine(&acc).to_bits(), "rows {rows}, n {n}, d {d}, rel {rel}");
                    }
                }
            }
        }
    }
}
