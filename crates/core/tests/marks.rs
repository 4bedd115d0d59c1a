//! The cluster centres the `hull` overlay marks (science.md §1.7, the polytope overlay): the
//! clusters holding at least one token in 256 (and 2), the larger first, none within 0.05
//! reference spreads of a mark before it. Up to 512 tokens every cluster of two or more is
//! marked as before; at 4096 the pairs of a forming polytope are not, and crowded centres give
//! one mark.

use crate::common::{run, sim};
use attn_core::particles::analysis::cluster_centres;
use attn_core::particles::analysis::marks::{centre_marks, mark_min_size, mark_spacing, MARK_SPACING};
use attn_core::particles::analysis::metrics::{Metrics, MetricsScratch};
use attn_core::particles::analysis::spread;

#[test]
fn the_smallest_cluster_marked_is_one_token_in_256_and_at_least_2() {
    assert_eq!(mark_min_size(1), 2);
    assert_eq!(mark_min_size(20), 2);
    assert_eq!(mark_min_size(512), 2);
    assert_eq!(mark_min_size(513), 3);
    assert_eq!(mark_min_size(1024), 4);
    assert_eq!(mark_min_size(4096), 16);
    assert_eq!(mark_min_size(4097), 17);
}

#[test]
fn marks_are_clusters_of_min_size_largest_first_and_never_crowded() {
    // Cluster 0: 3 tokens around (0, 0); 1: a lone token; 2: 2 tokens at (10, 10);
    // 3: 2 tokens at (10.5, 10) (crowds 2 at spacing 1, and loses the tie to the lower label);
    // 4: 4 tokens at (20, 0).
    let x = [
        -1.0, 0.0, 1.0, 0.0, 0.0, 3.0, // 0
        50.0, 50.0, // 1
        10.0, 9.0, 10.0, 11.0, // 2
        10.5, 9.0, 10.5, 11.0, // 3
        19.0, 0.0, 21.0, 0.0, 20.0, 1.0, 20.0, -1.0, // 4
    ];
    let labels = [0, 0, 0, 1, 2, 2, 3, 3, 4, 4, 4, 4];
    let n = labels.len();
    assert_eq!(centre_marks(&x, n, 2, &labels, 5, 0.0), [20.0, 0.0, 0.0, 1.0, 10.0, 10.0, 10.5, 10.0]);
    assert_eq!(centre_marks(&x, n, 2, &labels, 5, 1.0), [20.0, 0.0, 0.0, 1.0, 10.0, 10.0]);
    // Exactly the spacing apart is not crowded.
    assert_eq!(centre_marks(&x, n, 2, &labels, 5, 0.5), [20.0, 0.0, 0.0, 1.0, 10.0, 10.0, 10.5, 10.0]);
    // Everything within 100 of the largest: one mark.
    assert_eq!(centre_marks(&x, n, 2, &labels, 5, 100.0), [20.0, 0.0]);
    // A cluster whose centre is not finite is not marked, and crowds nothing.
    let mut bad = x;
    bad[16] = f64::NAN;
    assert_eq!(centre_marks(&bad, n, 2, &labels, 5, 100.0), [0.0, 1.0]);
    // Labels without tokens are skipped.
    assert_eq!(centre_marks(&x, n, 2, &labels, 7, 0.0).len(), 8);
}

/// 4096 tokens as a polytope forms: 4 dense corners (50 tokens each, a few clusters each, two
/// of them close) among 1948 pairs spread over the square. Every pair is a cluster of two the
/// overlay used to mark; the marks are the 4 corners.
#[test]
fn at_4096_tokens_the_pairs_are_not_marked_and_a_corner_gives_one_mark() {
    let n = 4096;
    let mut x = Vec::with_capacity(2 * n);
    let mut labels = Vec::with_capacity(n);
    let corners = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)];
    let mut label = 0u32;
    for (k, &(cx, cy)) in corners.iter().enumerate() {
        // Corner k: a cluster of 30 and one of 20 beside it, 0.1 apart (under the spacing, 0.5).
        for (part, size, dx) in [(0, 30, 0.0), (1, 20, 0.1)] {
            for i in 0..size {
                x.extend([cx + dx + 1e-3 * i as f64, cy + 1e-3 * (k + part) as f64]);
                labels.push(label);
            }
            label += 1;
        }
    }
    let pairs = (n - labels.len()) / 2;
    for p in 0..pairs {
        let (u, v) = ((p % 44) as f64 / 44.0, (p / 44) as f64 / 45.0);
        for e in [0.0, 1e-3] {
            x.extend([-4.5 + 9.0 * u + e, -4.5 + 9.0 * v]);
            labels.push(label);
        }
        label += 1;
    }
    assert_eq!(labels.len(), n);
    let count = label as usize;
    assert_eq!(cluster_centres(&x, n, 2, &labels, count, 2).len() / 2, 8 + pairs, "the clusters of two or more");
    let marks = centre_marks(&x, n, 2, &labels, count, 0.05 * 10.0);
    assert_eq!(marks.len(), 8, "4 marks");
    for (m, &(cx, cy)) in marks.chunks(2).zip(&corners) {
        assert!((m[0] - cx).abs() < 0.05 && (m[1] - cy).abs() < 0.05, "{m:?} at the corner ({cx}, {cy})");
    }
}

/// On the default `polytope` (20 tokens) the marks are the clusters of two or more, at every
/// step of the run, but for centres drawn on top of each other: every such centre is a mark, or
/// within a tenth of the spacing (about 1 CSS px) of a larger cluster's mark. The spacing is 0.05
/// times the larger of the initial and the current spread.
#[test]
fn polytope_marks_every_cluster_of_two_or_more_and_the_spacing_follows_the_reference() {
    let mut s = sim("preset=polytope");
    let (n, d) = (s.n(), s.d());
    let s0 = s.initial_spread();
    let mut scratch = MetricsScratch::default();
    let (mut marked, mut merged) = (0, 0);
    for step in 0..=200u64 {
        if step > 0 {
            run(&mut s, 1);
        }
        let m = Metrics::compute(&mut s, &mut scratch).unwrap();
        let z = scratch.tokens.clone();
        let spacing = mark_spacing(&s, &z);
        assert_eq!(spacing, MARK_SPACING * s0.max(spread(&z, n, d)), "step {step}");
        let marks = centre_marks(&z, n, d, &scratch.labels, m.clusters, spacing);
        let all = cluster_centres(&z, n, d, &scratch.labels, m.clusters, 2);
        let dist = |a: &[f64], b: &[f64]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
        for c in all.chunks(d) {
            let nearest = marks.chunks(d).map(|q| dist(c, q)).fold(f64::INFINITY, f64::min);
            assert!(nearest < 0.1 * spacing, "step {step}: a centre {nearest} from the nearest mark");
            merged += usize::from(nearest > 0.0);
        }
        for q in marks.chunks(d) {
            assert!(all.chunks(d).any(|c| c == q), "step {step}: each mark is a cluster's centre");
        }
        if step == 150 {
            assert_eq!(marks.len(), all.len(), "at t = 15 every cluster of two or more is marked");
        }
        marked += marks.len() / d;
    }
    assert!(marked > 200, "{marked} marks over the run");
    assert!(merged <= 8, "{merged} centres drawn on another's mark");
}
