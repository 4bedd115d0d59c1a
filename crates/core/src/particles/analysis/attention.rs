//! Statistics of the attention matrix `P` (`n x n`, row-major, row-stochastic), each written
//! once as a fold over rows, so a stored `P` ([`boolean_distance`], [`leaders`], [`block_maxima`])
//! and one streamed row by row ([`super::metrics`]) give the same bits.

/// `max_ij |P_ij - round(P_ij)|`: 0 when `P` is Boolean (science.md §1, checks 4-6).
pub fn boolean_distance(p: &[f64], n: usize) -> f64 {
    p[..n * n].chunks(n.max(1)).fold(0.0, boolean_distance_row)
}

/// [`boolean_distance`]'s fold over one row, continuing from `acc` (start at 0).
///
/// The largest of a set does not depend on the order it is taken in, so the row is folded in
/// [`crate::kernels::LANES`] lanes, with [`round_half_away`] and a compare and select instead of
/// `f64::max` (in wasm both `round` and `max` are function calls per entry): the lanes start at
/// `-inf`, a NaN never wins (as `f64::max` ignores it), `|x - round(x)|` is never `-0`, and the
/// lanes' largest is then taken with `acc` by `f64::max`. The bits of `row.iter().fold(acc, |m,
/// &x| m.max((x - x.round()).abs()))` for every row and every `acc` that is not NaN.
pub fn boolean_distance_row(acc: f64, row: &[f64]) -> f64 {
    const L: usize = crate::kernels::LANES;
    let dist = |x: f64| (x - round_half_away(x)).abs();
    let mut lanes = [f64::NEG_INFINITY; L];
    let (chunks, rest) = row.as_chunks::<L>();
    for chunk in chunks {
        for l in 0..L {
            let v = dist(chunk[l]);
            lanes[l] = if v > lanes[l] { v } else { lanes[l] };
        }
    }
    let top = rest.iter().map(|&x| dist(x)).fold(f64::NEG_INFINITY, |m, v| if v > m { v } else { m });
    let top = lanes.iter().fold(top, |m, &v| if v > m { v } else { m });
    if row.is_empty() {
        acc
    } else {
        acc.max(top)
    }
}

/// `x.round()` (half away from zero), for every `f64` including infinities and NaN, with the
/// same bits, as a truncation, a subtraction and selects: wasm has no instruction for it, and
/// `f64::round` there is a function call per value.
///
/// `t = trunc(x)` is exact and so is `x - t` (`|x - t| < 1` shares `x`'s exponent or lies
/// below it); the result is `t` moved one away from zero when `|x - t| >= 1/2` (for `|x| >= 2^52`
/// and infinities `x - t` is 0 or NaN: `t`).
#[inline(always)]
pub fn round_half_away(x: f64) -> f64 {
    let t = x.trunc();
    let f = x - t;
    if f >= 0.5 {
        t + 1.0
    } else if f <= -0.5 {
        t - 1.0
    } else {
        t
    }
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

/// [`leaders`]' fold over one row: marks the columns `j` with `row[j] > 1/2`. (A branch, which
/// is almost never taken and so predicted: a branchless `|=` on the `bool`s compiled to ~17
/// wasm instructions per entry.)
pub fn mark_leaders(row: &[f64], leader: &mut [bool]) {
    for (l, &x) in leader.iter_mut().zip(row) {
        if x > 0.5 {
            *l = true;
        }
    }
}

/// Whether every entry of `row` is finite: `x - x` is 0 for a finite `x` and NaN otherwise, and
/// a sum of zeros stays 0 while any NaN makes it NaN (lane sums, so the loop vectorises).
#[allow(clippy::eq_op)] // `x - x` is the finiteness test
pub fn row_finite(row: &[f64]) -> bool {
    const L: usize = crate::kernels::LANES;
    let mut lanes = [0.0f64; L];
    let (chunks, rest) = row.as_chunks::<L>();
    for chunk in chunks {
        for l in 0..L {
            lanes[l] += chunk[l] - chunk[l];
        }
    }
    let tail = rest.iter().fold(0.0, |s, &x| s + (x - x));
    lanes.iter().fold(tail, |s, &x| s + x) == 0.0
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
        // The running maximum in a register, a select per entry (no branch), stored once.
        let cell = &mut pooled[r * side + c];
        *cell = cols.iter().fold(*cell, |m, &x| if x > m { x } else { m });
    }
}
