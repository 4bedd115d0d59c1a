//! The analyses of `P` over a block of its rows (docs/particle-lab.md, "The analyses of a pooled
//! run"): what one worker of the page's
//! pool computes from the rows it owns, and the exact combine of the blocks. Each row is folded
//! with the functions the whole-`P` analyzers use ([`boolean_distance_row`], [`mark_leaders`],
//! [`row_argmax`], [`pool_row`] / [`pool_row_cells`], the rows of [`super::rank::sample_rows`]), and the
//! blocks combine with operations that do not depend on how the rows were split: a maximum
//! (`f64::max`, whose result is one of its arguments; entries of the Boolean distance are never
//! `-0`), a logical or, and the heatmap's cells taken in block order with the same "first larger
//! wins" rule as the row fold. So any split of `0..n`, combined in order, gives the bits of one
//! pass over all of `P` ([`super::metrics`], [`super::attention`], [`super::rank`]).

use super::attention::{boolean_distance_row, mark_leaders, pool_row, row_finite};
use super::order::{pool_row_cells, row_argmax};

/// What the analyses of a block of rows need to know of the whole run.
#[derive(Clone, Copy, Debug)]
pub struct PartialSpec<'a> {
    /// Tokens (`P` is `n x n`).
    pub n: usize,
    /// The heatmap's block maxima, `(side, block)` ([`super::attention::block_side`]); `None`:
    /// no heatmap.
    pub pool: Option<(usize, usize)>,
    /// The heatmap's order as each token's cell, its position over the block
    /// ([`super::order::heat_cells`] of [`super::TokenOrder::positions`]); `None`: token order.
    pub cells: Option<&'a [usize]>,
    /// Keep the effective rank's sampled rows ([`is_sampled`]).
    pub rank: bool,
}

/// The analyses of rows `lo..hi` of `P`.
#[derive(Clone, Debug, Default)]
pub struct RowsPartial {
    /// First row.
    pub lo: usize,
    /// One past the last row.
    pub hi: usize,
    /// `max |P_ij - round P_ij|` over these rows (from 0).
    pub boolean_distance: f64,
    /// Every entry of these rows finite.
    pub finite: bool,
    /// `leader[j]`: some `P_ij > 1/2` in these rows (`n`).
    pub leader: Vec<bool>,
    /// The column of the largest entry of each row ([`row_argmax`], `hi - lo`).
    pub best: Vec<usize>,
    /// The block maxima of these rows (`side x side`, `-inf` where no entry fell); empty
    /// without a heatmap.
    pub pooled: Vec<f64>,
    /// The sampled rows among these (`k x n`, in row order); empty unless `rank`.
    pub rank_rows: Vec<f64>,
}

impl RowsPartial {
    /// An empty partial for rows `lo..hi`, ready for [`RowsPartial::fold_row`] of each row in
    /// order.
    pub fn start(spec: &PartialSpec, lo: usize, hi: usize) -> RowsPartial {
        let cells = spec.pool.map_or(0, |(side, _)| side * side);
        RowsPartial {
            lo,
            hi,
            boolean_distance: 0.0,
            finite: true,
            leader: vec![false; spec.n],
            best: Vec::with_capacity(hi - lo),
            pooled: vec![f64::NEG_INFINITY; cells],
            rank_rows: Vec::new(),
        }
    }

    /// Folds row `i` of `P` (length `n`; rows are folded in increasing order, from `lo`).
    pub fn fold_row(&mut self, spec: &PartialSpec, i: usize, row: &[f64]) {
        debug_assert_eq!(i, self.lo + self.best.len(), "rows are folded in order");
        self.best.push(row_argmax(row));
        self.boolean_distance = boolean_distance_row(self.boolean_distance, row);
        self.finite &= row_finite(row);
        mark_leaders(row, &mut self.leader);
        if spec.rank && is_sampled(spec.n, i) {
            self.rank_rows.extend_from_slice(row);
        }
        if let Some((side, block)) = spec.pool {
            match spec.cells {
                Some(cells) => pool_row_cells(row, i, cells, side, &mut self.pooled),
                None => pool_row(row, i, side, block, &mut self.pooled),
            }
        }
    }

    /// The partial of rows `lo..hi` of a stored `P` (`n x n`, row-major).
    pub fn of_p(p: &[f64], spec: &PartialSpec, lo: usize, hi: usize) -> RowsPartial {
        let n = spec.n;
        let mut part = RowsPartial::start(spec, lo, hi);
        for i in lo..hi {
            part.fold_row(spec, i, &p[i * n..(i + 1) * n]);
        }
        part
    }

    /// The leaders: columns `j` with some `P_ij > 1/2`, increasing ([`super::leaders`]).
    pub fn leaders(&self) -> Vec<usize> {
        (0..self.leader.len()).filter(|&j| self.leader[j]).collect()
    }

    /// The partials of consecutive blocks (`parts[b].hi == parts[b + 1].lo`) as one partial over
    /// their rows, bit for bit what one pass over those rows gives. `None` when `parts` is empty,
    /// the blocks are not consecutive, or their sizes disagree.
    pub fn combine(parts: &[RowsPartial]) -> Option<RowsPartial> {
        let first = parts.first()?;
        let (n, cells) = (first.leader.len(), first.pooled.len());
        if parts.windows(2).any(|w| w[0].hi != w[1].lo)
            || parts.iter().any(|p| p.leader.len() != n || p.pooled.len() != cells || p.best.len() != p.hi - p.lo)
        {
            return None;
        }
        let mut all = RowsPartial {
            lo: first.lo,
            hi: parts.last()?.hi,
            boolean_distance: 0.0,
            finite: true,
            leader: vec![false; n],
            best: Vec::with_capacity(n),
            pooled: vec![f64::NEG_INFINITY; cells],
            rank_rows: Vec::new(),
        };
        for p in parts {
            all.boolean_distance = all.boolean_distance.max(p.boolean_distance);
            all.finite &= p.finite;
            for (l, &m) in all.leader.iter_mut().zip(&p.leader) {
                *l |= m;
            }
            all.best.extend_from_slice(&p.best);
            for (cell, &x) in all.pooled.iter_mut().zip(&p.pooled) {
                if x > *cell {
                    *cell = x;
                }
            }
            all.rank_rows.extend_from_slice(&p.rank_rows);
        }
        Some(all)
    }

    /// The partial as numbers, for a message between workers: `lo, hi, boolean_distance,
    /// finite (0/1), rank rows kept (k)`, then `leader` (`n`, 0/1), `best` (`hi - lo`), `pooled`,
    /// `rank_rows` (`k x n`). Every value is exact in an `f64` (indices below 2^53).
    pub fn to_f64s(&self) -> Vec<f64> {
        let n = self.leader.len();
        let k = self.rank_rows.len().checked_div(n).unwrap_or(0);
        let mut out = Vec::with_capacity(5 + n + self.best.len() + self.pooled.len() + self.rank_rows.len());
        out.extend([self.lo as f64, self.hi as f64, self.boolean_distance, f64::from(u8::from(self.finite)), k as f64]);
        out.extend(self.leader.iter().map(|&l| f64::from(u8::from(l))));
        out.extend(self.best.iter().map(|&j| j as f64));
        out.extend_from_slice(&self.pooled);
        out.extend_from_slice(&self.rank_rows);
        out
    }

    /// [`RowsPartial::to_f64s`] read back, for `n` tokens and `cells` heatmap cells (`side²`, 0
    /// without a heatmap). `None` when the numbers do not have that shape.
    pub fn from_f64s(x: &[f64], n: usize, cells: usize) -> Option<RowsPartial> {
        let index = |v: f64| (v >= 0.0 && v.fract() == 0.0 && v <= n as f64).then_some(v as usize);
        let head = x.get(..5)?;
        let (lo, hi, k) = (index(head[0])?, index(head[1])?, index(head[4])?);
        if lo > hi || x.len() != 5 + n + (hi - lo) + cells + k * n {
            return None;
        }
        let (leader, rest) = x[5..].split_at(n);
        let (best, rest) = rest.split_at(hi - lo);
        let (pooled, rank_rows) = rest.split_at(cells);
        let best = best.iter().map(|&v| index(v).filter(|&j| j < n)).collect::<Option<Vec<_>>>()?;
        Some(RowsPartial {
            lo,
            hi,
            boolean_distance: head[2],
            finite: head[3] != 0.0,
            leader: leader.iter().map(|&v| v != 0.0).collect(),
            best,
            pooled: pooled.to_vec(),
            rank_rows: rank_rows.to_vec(),
        })
    }
}

/// Whether row `i` is one of the effective rank's sampled rows ([`super::rank::sample_rows`]: `floor(k n / m)`,
/// `m = min(n, 256)`), without listing them.
pub fn is_sampled(n: usize, i: usize) -> bool {
    let m = n.min(super::rank::RANK_MAX_ROWS);
    // The smallest k with floor(k n / m) >= i is ceil(i m / n); row i is sampled when it is hit.
    let k = (i * m).div_ceil(n.max(1));
    k < m && k * n / m == i
}
