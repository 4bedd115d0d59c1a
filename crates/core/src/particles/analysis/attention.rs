//! Statistics of the attention matrix `P` (`n x n`, row-major, row-stochastic), each written
//! once as a fold over rows, so a stored `P` ([`boolean_distance`], [`leaders`], [`block_maxima`])
//! and one streamed row by row ([`super::metrics`]) give the same bits.

/// `max_ij |P_ij - round(P_ij)|`: 0 when `P` is Boolean (science.md §1, checks 4-6).
pub fn boolean_distance(p: &[f64], n: usize) -> f64 {
    p[..n * n].chunks(n.max(1)).fold(0.0, boolean_distance_row)
}

/// [`boolean_distance`]'s fold over one row, continuing from `acc` (start at 0).
pub fn boolean_distance_row(acc: f64, row: &[f64]) -> f64 {
    row.iter().fold(acc, |m, &x| m.max((x - x.round()).abs()))
}

/// The leaders: tokens `j` with `max_i P_ij > 1/2`, in increasing order. In the Boolean limit
/// these are the non-zero columns of `round(P)` (science.md §1, the 1-D result).
pub fn leaders(p: &[f64], n: usize) -> Vec<usize> {
    let mut leader = vec![false; n];
    for row in p[..n * n].chunks(n.max(1)) {
        mark_leaders(row, &mut leader);
    }
    (0..n).filter(|&j| leader[j]).collect()
}

/// [`leaders`]' fold over one row: marks the columns `j` with `row[j] > 1/2`.
pub fn mark_leaders(row: &[f64], leader: &mut [bool]) {
    for (j, &x) in row.iter().enumerate() {
        if x > 0.5 {
            leader[j] = true;
        }
    }
}

/// Side (pixels) of a heatmap of an `n x n` matrix with at most `max_side` pixels per side, and
/// the block of entries per pixel side: `(ceil(n / b), b)` with `b = ceil(n / max_side)`.
pub fn block_side(n: usize, max_side: usize) -> (usize, usize) {
    let max_side = max_side.max(1);
    let block = n.div_ceil(max_side).max(1);
    (n.div_ceil(block), block)
}

/// The block maxima of `p` (`n x n`, row-major) for a heatmap of at most `max_side` pixels per
/// side ([`block_side`]): `side x side`, row-major, each the largest entry of its
/// `block x block` block (`-inf` for an empty block; NaN entries never win).
pub fn block_maxima(p: &[f64], n: usize, max_side: usize) -> (Vec<f64>, usize) {
    let (side, block) = block_side(n, max_side);
    let mut pooled = vec![f64::NEG_INFINITY; side * side];
    for (i, row) in p[..n * n].chunks(n.max(1)).enumerate() {
        pool_row(row, i, side, block, &mut pooled);
    }
    (pooled, side)
}

/// [`block_maxima`]' fold of row `i` into `pooled` (`side x side`, started at `-inf`).
pub fn pool_row(row: &[f64], i: usize, side: usize, block: usize, pooled: &mut [f64]) {
    let n = row.len();
    let r = i / block;
    for c in 0..side {
        let cols = &row[(c * block).min(n)..((c + 1) * block).min(n)];
        let cell = &mut pooled[r * side + c];
        for &x in cols {
            if x > *cell {
                *cell = x;
            }
        }
    }
}
