//! The heatmap's token order (science.md §1): rows and columns of `P` grouped so that what the
//! theorems predict shows as blocks. Clustered tokens attend within their cluster, so ordering by
//! cluster turns a clustered `P` into diagonal blocks; in the Boolean limit every token attends to
//! its leader, so ordering by leader turns `round(P)` into one full column per group. In token
//! order the same matrix looks like confetti.
//!
//! An order is a permutation `perm` (`perm[a]` is the token shown at row and column `a`) and the
//! positions where a new group starts (`starts`, increasing, without 0), where the page draws
//! its separators.

/// A token order for the heatmap: `perm` (position -> token) and the group starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TokenOrder {
    /// `perm[a]`: the token at position `a` (a permutation of `0..n`).
    pub perm: Vec<usize>,
    /// Positions where a new group begins (increasing, each in `1..n`).
    pub starts: Vec<usize>,
}

impl TokenOrder {
    /// Token order (the identity), no groups.
    pub fn index(n: usize) -> TokenOrder {
        TokenOrder { perm: (0..n).collect(), starts: Vec::new() }
    }

    /// By cluster (`labels[i]`: token `i`'s single-linkage cluster, [`super::clusters`]):
    /// clusters of two or more tokens first, largest first (ties: the one whose first token comes
    /// first), each in token order; then the tokens alone, in token order, as one last group.
    pub fn by_cluster(labels: &[u32]) -> TokenOrder {
        let n = labels.len();
        let groups = labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
        let mut size = vec![0usize; groups];
        let mut first = vec![usize::MAX; groups];
        for (i, &l) in labels.iter().enumerate() {
            size[l as usize] += 1;
            first[l as usize] = first[l as usize].min(i);
        }
        let alone = |i: usize| size[labels[i] as usize] < 2;
        Self::grouped(
            n,
            |i| if alone(i) { (1, 0, 0) } else { (0, n - size[labels[i] as usize], first[labels[i] as usize]) },
            |i| if alone(i) { usize::MAX } else { labels[i] as usize },
        )
    }

    /// By leader (`best[i]`: the column of the largest entry of row `i` of `P`, [`row_argmax`]):
    /// one group per leader, in the leaders' token order, the leader first in its own group, then
    /// the others in token order.
    pub fn by_leader(best: &[usize]) -> TokenOrder {
        Self::grouped(best.len(), |i| (best[i], usize::from(i != best[i]), 0), |i| best[i])
    }

    /// Tokens sorted by `key` (then by token), a new group wherever `group` changes.
    fn grouped(n: usize, key: impl Fn(usize) -> (usize, usize, usize), group: impl Fn(usize) -> usize) -> TokenOrder {
        let mut perm: Vec<usize> = (0..n).collect();
        perm.sort_by_key(|&i| (key(i), i));
        let starts = (1..n).filter(|&a| group(perm[a]) != group(perm[a - 1])).collect();
        TokenOrder { perm, starts }
    }

    /// `pos[i]`: the position of token `i` (the inverse of `perm`).
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.perm.len()];
        for (a, &i) in self.perm.iter().enumerate() {
            pos[i] = a;
        }
        pos
    }
}

/// The column of the largest entry of `row` (the first on ties; NaN never wins; 0 for a row
/// without a number).
///
/// Folded in [`crate::kernels::LANES`] lanes (each keeps the first column of its largest entry,
/// indices held as exact `f64` so the loop vectorises), then the lanes give the largest entry
/// and, among lanes tied on it, the smallest column: the first largest entry of the row, as a
/// plain scan finds it.
pub fn row_argmax(row: &[f64]) -> usize {
    const L: usize = crate::kernels::LANES;
    let mut top = [f64::NEG_INFINITY; L];
    let mut best = [0.0f64; L];
    let (chunks, rest) = row.as_chunks::<L>();
    for (q, chunk) in chunks.iter().enumerate() {
        let base = (q * L) as f64;
        for l in 0..L {
            let x = chunk[l];
            let wins = x > top[l];
            top[l] = if wins { x } else { top[l] };
            best[l] = if wins { base + l as f64 } else { best[l] };
        }
    }
    let (mut t, mut b) = (f64::NEG_INFINITY, 0usize);
    for l in 0..L {
        let j = best[l] as usize;
        if top[l] > t || (top[l] == t && t > f64::NEG_INFINITY && j < b) {
            (t, b) = (top[l], j);
        }
    }
    for (k, &x) in rest.iter().enumerate() {
        if x > t {
            (t, b) = (x, chunks.len() * L + k);
        }
    }
    b
}

/// The heatmap cell (row or column of pixels) of each token: `pos[j] / block` (`pos`:
/// [`TokenOrder::positions`]), for [`pool_row_cells`]: computed once per `P` rather than a
/// division per entry.
pub fn heat_cells(pos: &[usize], block: usize) -> Vec<usize> {
    pos.iter().map(|&p| p / block).collect()
}

/// [`super::attention::pool_row`] for an ordered heatmap: row `i` of `P` folded into row
/// `cells[i]` of the `side x side` block maxima `pooled` (started at `-inf`; NaN never wins), its
/// entry `j` into column `cells[j]` (`cells`: [`heat_cells`] of the order's positions).
pub fn pool_row_cells(row: &[f64], i: usize, cells: &[usize], side: usize, pooled: &mut [f64]) {
    let r = cells[i];
    let out = &mut pooled[r * side..(r + 1) * side];
    // A select and a store every time rather than a branch: P's entries come in no order the
    // branch predictor could learn.
    for (&c, &x) in cells.iter().zip(row) {
        let cell = &mut out[c];
        *cell = if x > *cell { x } else { *cell };
    }
}
