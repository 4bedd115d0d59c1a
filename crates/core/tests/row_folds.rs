//! The folds of a row of `P` written to vectorise (`analysis::attention`, `analysis::order`) give
//! what the plain loops they replaced give, bit for bit: on random rows, rows with ties, `-0`,
//! NaN, infinities, entries at and around 1/2, and lengths on both sides of the 8 lanes.

use attn_core::particles::analysis::attention::{boolean_distance_row, mark_leaders, round_half_away, row_finite};
use attn_core::particles::analysis::order::{heat_cells, pool_row_cells, row_argmax};
use attn_core::rng::Rng;

/// The plain scans (the code before the lane folds).
fn plain_argmax(row: &[f64]) -> usize {
    let (mut best, mut top) = (0, f64::NEG_INFINITY);
    for (j, &x) in row.iter().enumerate() {
        if x > top {
            (top, best) = (x, j);
        }
    }
    best
}

fn plain_boolean(acc: f64, row: &[f64]) -> f64 {
    row.iter().fold(acc, |m, &x| m.max((x - x.round()).abs()))
}

const SPECIAL: [f64; 14] = [
    0.0,
    -0.0,
    0.5,
    0.49999999999999994,
    0.5000000000000001,
    1.0,
    -0.5,
    -1.5,
    2.5,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    4503599627370497.0,
    f64::MIN_POSITIVE,
];

/// Rows of many kinds: weights in [0, 1], a few values repeated (ties), special values mixed in.
fn rows() -> Vec<Vec<f64>> {
    let mut r = Rng::new(7, 0);
    let mut out = Vec::new();
    for len in [0, 1, 3, 7, 8, 9, 16, 31, 64, 257] {
        for kind in 0..6 {
            let row = (0..len)
                .map(|_| match kind {
                    0 => r.uniform(0.0, 1.0),
                    1 => (r.uniform(0.0, 1.0) * 4.0).floor() / 4.0,
                    2 => SPECIAL[(r.uniform(0.0, 1.0) * SPECIAL.len() as f64) as usize % SPECIAL.len()],
                    3 => r.normal() * 3.0,
                    4 => f64::NEG_INFINITY,
                    _ => {
                        if r.uniform(0.0, 1.0) < 0.2 {
                            f64::NAN
                        } else {
                            r.uniform(0.0, 1.0)
                        }
                    }
                })
                .collect();
            out.push(row);
        }
    }
    out
}

#[test]
fn round_half_away_is_f64_round() {
    let mut r = Rng::new(3, 1);
    let mut xs: Vec<f64> = SPECIAL.to_vec();
    xs.extend((0..100_000).map(|_| r.normal() * 10.0));
    xs.extend((0..1000).map(|k| k as f64 / 4.0 - 100.0));
    xs.extend((0..1000).map(|_| f64::from_bits(r.uniform(0.0, 1.0).to_bits() ^ 0x8000_0000_0000_0000)));
    for x in xs {
        let (got, want) = (round_half_away(x), x.round());
        assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "{x}: {got} vs {want}");
    }
}

#[test]
fn lane_folds_equal_the_plain_loops() {
    for row in rows() {
        assert_eq!(row_argmax(&row), plain_argmax(&row), "argmax of {row:?}");
        for acc in [0.0, 0.25] {
            let (got, want) = (boolean_distance_row(acc, &row), plain_boolean(acc, &row));
            assert_eq!(got.to_bits(), want.to_bits(), "boolean distance of {row:?}");
        }
        assert_eq!(row_finite(&row), row.iter().all(|x| x.is_finite()), "finite {row:?}");
        let mut got = vec![false; row.len()];
        mark_leaders(&row, &mut got);
        let want: Vec<bool> = row.iter().map(|&x| x > 0.5).collect();
        assert_eq!(got, want, "leaders of {row:?}");
    }
}

#[test]
fn pooled_cells_equal_a_division_per_entry() {
    let mut r = Rng::new(11, 2);
    for (n, block) in [(1usize, 1usize), (7, 3), (20, 4), (33, 5)] {
        let side = n.div_ceil(block);
        // A permutation of the tokens as positions.
        let mut pos: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            pos.swap(i, (r.uniform(0.0, 1.0) * (i + 1) as f64) as usize % (i + 1));
        }
        let cells = heat_cells(&pos, block);
        let (mut got, mut want) = (vec![f64::NEG_INFINITY; side * side], vec![f64::NEG_INFINITY; side * side]);
        for i in 0..n {
            let row: Vec<f64> = (0..n).map(|_| r.uniform(0.0, 1.0)).collect();
            pool_row_cells(&row, i, &cells, side, &mut got);
            for (j, &x) in row.iter().enumerate() {
                let cell = &mut want[(pos[i] / block) * side + pos[j] / block];
                if x > *cell {
                    *cell = x;
                }
            }
        }
        assert_eq!(got, want, "n = {n}, block {block}");
    }
}
