//! Scores `S = A Bᵀ` over a block of queries: `s_ij = sum_c a_ic b_jc`, the coordinates added in
//! increasing order for each pair (module doc of [`super`]).
//!
//! Register blocking: a tile of [`SR`] queries × [`SK`] keys is accumulated in registers while the
//! loop runs over the coordinates, so each loaded key coordinate serves `SR` queries and each
//! query coordinate `SK` keys (a row-by-row loop loads every key once per query). Cache tiling:
//! keys are packed in panels of `SK` keys (`d x SK`, contiguous, [`KeyPanels`]); the loop over
//! panels is outside the loop over the block's queries, so a panel is read from memory once per
//! block and then from L1.

use super::shape::{SK, SR};
use super::Float;

/// Keys packed for [`scores_block`]: panel `p` holds keys `p SK .. p SK + SK` as a `d x SK`
/// row-major array (coordinate `c` of key `p SK + k` at `p d SK + c SK + k`); the last panel is
/// padded with zeros. `n` keys of dimension `d`.
#[derive(Clone, Debug, Default)]
pub struct KeyPanels<T: Float> {
    data: Vec<T>,
    n: usize,
    d: usize,
}

impl<T: Float> KeyPanels<T> {
    /// Number of keys.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Dimension of a key.
    pub fn d(&self) -> usize {
        self.d
    }

    /// Coordinate `c` of key `j` as packed (`j < n`, `c < d`): what `pack_keys`' `key(j, c)` gave.
    pub fn get(&self, j: usize, c: usize) -> T {
        self.data[(j / SK) * self.d * SK + c * SK + j % SK]
    }
}

/// Packs `n` keys of dimension `d` into `out` (reusing its memory): `key(j, c)` is coordinate `c`
/// of key `j`, read once each.
pub fn pack_keys<T: Float>(n: usize, d: usize, key: impl Fn(usize, usize) -> T, out: &mut KeyPanels<T>) {
    let panels = n.div_ceil(SK);
    out.data.clear();
    out.data.resize(panels * d * SK, T::ZERO);
    out.n = n;
    out.d = d;
    for p in 0..panels {
        let panel = &mut out.data[p * d * SK..(p + 1) * d * SK];
        for k in 0..SK.min(n - p * SK) {
            for c in 0..d {
                panel[c * SK + k] = key(p * SK + k, c);
            }
        }
    }
}

/// Packs `rows` queries of dimension `d` into `out` (resized to `rows.div_ceil(SR) * d * SR`) for
/// [`scores_block`]: group `g` holds queries `g SR .. g SR + SR` as a `d x SR` row-major array,
/// padded with zeros. `query(r, c)` is coordinate `c` of query `r`.
pub fn pack_queries<T: Float>(rows: usize, d: usize, query: impl Fn(usize, usize) -> T, out: &mut Vec<T>) {
    let groups = rows.div_ceil(SR);
    out.clear();
    out.resize(groups * d * SR, T::ZERO);
    for g in 0..groups {
        let panel = &mut out[g * d * SR..(g + 1) * d * SR];
        for r in 0..SR.min(rows - g * SR) {
            for c in 0..d {
                panel[c * SR + r] = query(g * SR + r, c);
            }
        }
    }
}

/// The scores of `rows` queries (packed by [`pack_queries`] into `queries`) against every key of
/// `keys`: `s[r * n + j] = sum_c q_rc k_jc`, coordinates in increasing order (`n = keys.n()`;
/// `s` holds at least `rows x n`, row-major). Needs `d >= 1`; panics if `queries` or `s` is
/// shorter than stated.
pub fn scores_block<T: Float>(queries: &[T], rows: usize, keys: &KeyPanels<T>, s: &mut [T]) {
    scores_block_from(queries, rows, keys, 0, s);
}

/// [`scores_block`] against the keys from the panel holding key `first` on: `s[r * n + j]` for
/// `j >= first - first % SK` (the panel's start), the other entries of `s` left as they are.
pub fn scores_block_from<T: Float>(queries: &[T], rows: usize, keys: &KeyPanels<T>, first: usize, s: &mut [T]) {
    let (n, d) = (keys.n, keys.d);
    if rows == 0 || n == 0 {
        return;
    }
    assert!(d >= 1, "scores need d >= 1");
    let panels = n.div_ceil(SK);
    // Runs of `T::PANELS` panels at once where the target has a wider tile, the rest one by one.
    let mut p = first / SK;
    while T::PANELS > 1 && p + T::PANELS <= panels {
        match T::PANELS {
            2 => panel_run::<T, 2>(queries, rows, keys, p, s),
            3 => panel_run::<T, 3>(queries, rows, keys, p, s),
            _ => panel_run::<T, 4>(queries, rows, keys, p, s),
        }
        p += T::PANELS;
    }
    while p < panels {
        panel_run::<T, 1>(queries, rows, keys, p, s);
        p += 1;
    }
}

/// The scores of every query of [`scores_block`] against the keys of panels `p0 .. p0 + P`.
#[inline(always)]
fn panel_run<T: Float, const P: usize>(queries: &[T], rows: usize, keys: &KeyPanels<T>, p0: usize, s: &mut [T]) {
    let (n, d) = (keys.n, keys.d);
    let groups = rows.div_ceil(SR);
    let (qp, _) = queries[..groups * d * SR].as_chunks::<SR>();
    let (kp, _) = keys.data.as_chunks::<SK>();
    let kpanels: [&[[T; SK]]; P] = std::array::from_fn(|i| &kp[(p0 + i) * d..(p0 + i + 1) * d]);
    for g in 0..groups {
        let tiles = T::score_tiles(&qp[g * d..(g + 1) * d], kpanels);
        for (i, acc) in tiles.iter().enumerate() {
            let (j0, kw) = ((p0 + i) * SK, SK.min(n - (p0 + i) * SK));
            for (r, row) in acc.iter().enumerate().take(SR.min(rows - g * SR)) {
                let at = (g * SR + r) * n + j0;
                if kw == SK {
                    // A full panel: a copy of fixed length, inlined (a variable one calls memcpy).
                    s[at..at + SK].copy_from_slice(row);
                } else {
                    s[at..at + kw].copy_from_slice(&row[..kw]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain loop: each pair's sum over coordinates in increasing order.
    fn reference(a: &[f64], b: &[f64], rows: usize, n: usize, d: usize) -> Vec<f64> {
        let mut s = vec![0.0; rows * n];
        for i in 0..rows {
            for j in 0..n {
                let mut x = a[i * d] * b[j * d];
                for c in 1..d {
                    x += a[i * d + c] * b[j * d + c];
                }
                s[i * n + j] = x;
            }
        }
        s
    }

    fn values(len: usize, seed: u64) -> Vec<f64> {
        let mut r = crate::rng::Rng::new(seed as u32, 0);
        (0..len).map(|_| r.normal() * 3.0).collect()
    }

    #[test]
    fn scores_equal_the_plain_loop_bit_for_bit_at_odd_sizes() {
        for &(rows, n, d) in &[(1, 1, 1), (7, 13, 3), (5, 33, 17), (19, 40, 64), (3, 7, 129)] {
            let (a, b) = (values(rows * d, 1), values(n * d, 2));
            let mut kp = KeyPanels::default();
            pack_keys(n, d, |j, c| b[j * d + c], &mut kp);
            let mut qp = Vec::new();
            pack_queries(rows, d, |r, c| a[r * d + c], &mut qp);
            let mut s = vec![f64::NAN; rows * n];
            scores_block(&qp, rows, &kp, &mut s);
            let want = reference(&a, &b, rows, n, d);
            let same = s.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same, "rows {rows}, n {n}, d {d}");
        }
    }

    #[test]
    fn f32_scores_equal_the_plain_loop() {
        // Numbers of keys around runs of several panels (`Float::PANELS`) and partial panels.
        for &(rows, n, d) in &[(6, 21, 9), (1, 1, 1), (9, 16, 2), (17, 37, 33), (8, 64, 384), (3, 71, 5)] {
            let a: Vec<f32> = values(rows * d, 3).iter().map(|&x| x as f32).collect();
            let b: Vec<f32> = values(n * d, 4).iter().map(|&x| x as f32).collect();
            let mut kp = KeyPanels::default();
            pack_keys(n, d, |j, c| b[j * d + c], &mut kp);
            let mut qp = Vec::new();
            pack_queries(rows, d, |r, c| a[r * d + c], &mut qp);
            let mut s = vec![f32::NAN; rows * n];
            scores_block(&qp, rows, &kp, &mut s);
            for i in 0..rows {
                for j in 0..n {
                    let mut x = a[i * d] * b[j * d];
                    for c in 1..d {
                        x += a[i * d + c] * b[j * d + c];
                    }
                    assert_eq!(s[i * n + j].to_bits(), x.to_bits(), "rows {rows}, n {n}, d {d}");
                }
            }
        }
    }

    #[test]
    fn a_negative_zero_first_product_stays_negative_zero() {
        // -0 * 1 = -0; adding it to a +0 accumulator would give +0.
        let mut kp = KeyPanels::default();
        pack_keys(1, 1, |_, _| 1.0f64, &mut kp);
        let mut qp = Vec::new();
        pack_queries(1, 1, |_, _| -0.0f64, &mut qp);
        let mut s = [0.0f64];
        scores_block(&qp, 1, &kp, &mut s);
        assert!(s[0] == 0.0 && s[0].is_sign_negative());
    }
}
