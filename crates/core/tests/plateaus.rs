//! analysis::plateaus: intervals of at least 10 time units over which the cluster count stays the
//! same with the clusters settled, from the chart's samples (metastability, science.md §2.4).

use attn_core::particles::analysis::history::History;
use attn_core::particles::analysis::metrics::separation_of_state;
use attn_core::particles::analysis::plateaus::{plateaus, Plateau, MIN_PLATEAU};
use attn_core::particles::analysis::settled::{is_settled, separation_ratio, value_labels, SETTLED_RATIO};
use attn_core::particles::analysis::{Metrics, MetricsScratch};

#[test]
fn plateaus_of_a_constructed_series() {
    let t: Vec<f64> = (0..30).map(|k| k as f64).collect();
    let mut v: Vec<f64> = (0..30)
        .map(|k| {
            if k < 3 {
                5.0
            } else if k < 15 {
                3.0
            } else {
                2.0
            }
        })
        .collect();
    v[20] = f64::NAN;
    let mut settled = vec![0.0; 30];
    // 5 over 0..2 (too short), 3 over 3..14 (11 units), 2 over 15..19 (4) and 21..29 (8).
    assert_eq!(plateaus(&t, &v, &settled, 10.0), [Plateau { t0: 3.0, t1: 14.0, value: 3.0 }]);
    assert_eq!(plateaus(&t, &v, &settled, 8.0).len(), 2);
    assert_eq!(plateaus(&t, &v, &settled, 8.0)[1], Plateau { t0: 21.0, t1: 29.0, value: 2.0 });
    assert!(plateaus(&[], &[], &[], 10.0).is_empty());
    // An unsettled sample ends a run like a NaN: 3 over 3..8 and 10..14, both too short.
    settled[9] = 0.3;
    assert!(plateaus(&t, &v, &settled, 10.0).is_empty());
    settled[9] = f64::NAN;
    assert!(plateaus(&t, &v, &settled, 10.0).is_empty());
    settled[9] = SETTLED_RATIO;
    assert_eq!(plateaus(&t, &v, &settled, 10.0).len(), 1);
}

/// The separation ratio: the largest radius over the closest centres, its edge cases.
#[test]
fn separation_ratio_of_constructed_groups() {
    // Two groups on a line: {0, 1} (centre 0.5, radius 0.5) and {10, 12} (centre 11, radius 1).
    let x = [0.0, 1.0, 10.0, 12.0];
    assert_eq!(separation_ratio(&x, 4, 1, &[0, 0, 1, 1], 2), 1.0 / 10.5);
    assert!(is_settled(1.0 / 10.5));
    // Every token alone: nothing gathered, never settled; one group: settled.
    assert_eq!(separation_ratio(&x, 4, 1, &[0, 1, 2, 3], 4), f64::INFINITY);
    assert_eq!(separation_ratio(&x, 4, 1, &[0, 0, 0, 0], 1), 0.0);
    // Groups smeared into each other: {0, 10} and {1, 12} (centres 5 and 6.5).
    assert!(!is_settled(separation_ratio(&x, 4, 1, &[0, 1, 0, 1], 2)));
    // In 2-D, with a NaN.
    let y = [0.0, 0.0, 0.0, 1.0, 30.0, 40.0, 30.0, 41.0];
    assert_eq!(separation_ratio(&y, 4, 2, &[0, 0, 1, 1], 2), 0.5 / libm::sqrt(900.0 + 1600.0));
    let mut z = y;
    z[3] = f64::NAN;
    assert!(separation_ratio(&z, 4, 2, &[0, 0, 1, 1], 2).is_nan());
    assert!(!is_settled(f64::NAN));
    // The 1-D groups of the hyperplanes metric, labelled in increasing order of value.
    assert_eq!(value_labels(&[5.0, 0.0, 5.1, 0.1], 0.1), Some((vec![1, 0, 1, 0], 2)));
    assert_eq!(value_labels(&[1.0, f64::NAN], 0.1), None);
}

/// polytope-line: every token stays alone in `z` (30 clusters of 30 tokens over the whole run):
/// the count is constant but nothing gathered, so no plateau is shaded.
#[test]
fn polytope_line_has_no_plateau_of_lone_tokens() {
    let h = history("preset=polytope-line", 150, 2);
    assert!(h.clusters.iter().all(|&c| c == 30.0), "{:?}", h.clusters);
    assert_eq!(h.plateaus(), []);
    assert!(h.separation.iter().all(|&r| r == f64::INFINITY));
}

/// The chart's samples of `config`: the metrics every `every` steps up to `steps`.
fn history(config: &str, steps: u64, every: u64) -> History {
    let mut s = crate::common::sim(config);
    let mut scratch = MetricsScratch::default();
    let mut h = History::default();
    loop {
        let m = Metrics::compute(&mut s, &mut scratch).unwrap();
        let separation = separation_of_state(&mut s, &mut scratch, &m);
        h.push(s.step_count(), s.t(), &m, separation);
        if s.step_count() >= steps {
            return h;
        }
        crate::common::run(&mut s, every);
    }
}

fn check(h: &History, p: &[Plateau]) {
    for q in p {
        assert!(q.t1 - q.t0 >= MIN_PLATEAU);
        assert!((0..h.len()).filter(|&k| h.t[k] >= q.t0 && h.t[k] <= q.t1).all(|k| is_settled(h.separation[k])));
        // Every sample inside has the count; the samples just outside do not.
        let inside: Vec<usize> = (0..h.len()).filter(|&k| h.t[k] >= q.t0 && h.t[k] <= q.t1).collect();
        assert!(inside.iter().all(|&k| h.clusters[k] == q.value));
        let (first, last) = (inside[0], *inside.last().unwrap());
        assert!(first == 0 || h.clusters[first - 1] != q.value);
        assert!(last + 1 == h.len() || h.clusters[last + 1] != q.value);
    }
}

/// Metastability: two clusters within a few time units that persist for hundreds.
#[test]
fn metastability_has_a_long_two_cluster_plateau() {
    let h = history("version=4&preset=metastability", 4000, 10);
    let p = h.plateaus();
    check(&h, &p);
    println!("metastability plateaus: {p:?}");
    let two = p.iter().find(|q| q.value == 2.0).expect("a plateau of 2 clusters");
    assert!(two.t0 < 10.0 && two.t1 - two.t0 > 100.0, "{p:?}");
}

/// polytope-3d: the count settles on its final value, a plateau that runs to `until`.
#[test]
fn polytope_3d_ends_on_a_plateau() {
    let h = history("version=4&preset=polytope-3d", 200, 2);
    let p = h.plateaus();
    check(&h, &p);
    let last = p.last().expect("a plateau");
    assert_eq!(last.t1, 20.0);
    assert_eq!(last.value, *h.clusters.last().unwrap());
    assert_eq!(h.counts().0, "clusters");
}
