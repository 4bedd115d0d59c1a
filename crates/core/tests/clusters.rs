//! `particles::analysis::clusters::cluster_labels_into`: the sweep over the tokens sorted by
//! their first coordinate finds the same links, groups and labels as the plain test of every
//! pair (kept here as the reference), on spread, clustered, duplicated and non-finite tokens.

use attn_core::particles::analysis::clusters::cluster_labels_into;
use attn_core::rng::Rng;

/// The plain single linkage: every pair `i < j` tested, `dist² < tol²` or `dist² == 0` linked.
fn reference(x: &[f64], n: usize, d: usize, tol: f64) -> (usize, Vec<u32>) {
    let tol2 = tol * tol;
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in (i + 1)..n {
            let mut dist2 = 0.0;
            for c in 0..d {
                let diff = x[i * d + c] - x[j * d + c];
                dist2 += diff * diff;
            }
            if dist2 < tol2 || dist2 == 0.0 {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                if ri != rj {
                    parent[ri.max(rj)] = ri.min(rj);
                }
            }
        }
    }
    let mut labels = vec![u32::MAX; n];
    let mut count = 0;
    for i in 0..n {
        let r = find(&mut parent, i);
        if labels[r] == u32::MAX {
            labels[r] = count;
            count += 1;
        }
        labels[i] = labels[r];
    }
    (count as usize, labels)
}

fn swept(x: &[f64], n: usize, d: usize, tol: f64) -> (usize, Vec<u32>) {
    let mut labels = vec![0; n];
    let count = cluster_labels_into(x, n, d, tol, &mut labels, &mut vec![0; n]);
    (count, labels)
}

fn check(x: &[f64], n: usize, d: usize, tol: f64, what: &str) {
    let got = swept(x, n, d, tol);
    assert_eq!(got, reference(x, n, d, tol), "{what}: n {n}, d {d}, tol {tol}");
}

#[test]
fn spread_tokens_give_the_plain_groups() {
    let mut rng = Rng::new(7, 0);
    for &(n, d) in &[(1, 3), (2, 1), (300, 1), (1000, 3), (513, 5), (200, 16)] {
        let x: Vec<f64> = (0..n * d).map(|_| rng.normal()).collect();
        for &tol in &[0.0, 1e-3, 0.05, 0.2, 0.6, 3.0, 1e9] {
            check(&x, n, d, tol, "gaussian");
        }
    }
}

#[test]
fn clustered_tokens_at_the_threshold_give_the_plain_groups() {
    // Tight clusters on a lattice whose spacing is the threshold itself, and chains of tokens
    // exactly `tol` apart in the first coordinate (not linked: `<`, not `<=`).
    let mut rng = Rng::new(11, 1);
    let (n, d) = (900, 3);
    let mut x = Vec::with_capacity(n * d);
    for i in 0..n {
        let centre = (i % 9) as f64 * 0.1;
        x.push(centre + 1e-4 * rng.normal());
        x.push(((i / 9) % 3) as f64 * 0.1 + 1e-4 * rng.normal());
        x.push(1e-4 * rng.normal());
    }
    for &tol in &[0.0999, 0.1, 0.1001, 0.15, 1e-5] {
        check(&x, n, d, tol, "lattice");
    }
    let chain: Vec<f64> = (0..50).map(|i| i as f64 * 0.25).collect();
    for &tol in &[0.25, 0.2500001, 0.2499999] {
        check(&chain, 50, 1, tol, "chain");
    }
}

#[test]
fn duplicates_and_non_finite_tokens_give_the_plain_groups() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let tokens = [
        [1.0, 2.0],
        [1.0, 2.0], // a duplicate: linked even at tol 0
        [nan, 0.0],
        [-nan, 0.0],
        [inf, 0.0],
        [inf, 0.0], // inf - inf is NaN: not linked
        [-inf, 1.0],
        [0.0, nan],
        [0.0, 0.0],
        [-0.0, 0.0], // equal to the one before
        [1.0, 2.0 + 1e-12],
    ];
    let x: Vec<f64> = tokens.concat();
    let n = x.len() / 2;
    for &tol in &[0.0, 1e-9, 0.5, 10.0, inf, nan] {
        check(&x, n, 2, tol, "non-finite");
    }
    // d = 0: every token at distance 0 from every other, one group.
    assert_eq!(swept(&[], 4, 0, 0.1), (1, vec![0; 4]));
}
