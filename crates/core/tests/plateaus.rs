//! analysis::plateaus: intervals of at least 10 time units over which the cluster count stays the
//! same, from the chart's samples (metastability, science.md §2.4).

use attn_core::particles::analysis::history::History;
use attn_core::particles::analysis::plateaus::{plateaus, Plateau, MIN_PLATEAU};
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
    // 5 over 0..2 (too short), 3 over 3..14 (11 units), 2 over 15..19 (4) and 21..29 (8).
    assert_eq!(plateaus(&t, &v, 10.0), [Plateau { t0: 3.0, t1: 14.0, value: 3.0 }]);
    assert_eq!(plateaus(&t, &v, 8.0).len(), 2);
    assert_eq!(plateaus(&t, &v, 8.0)[1], Plateau { t0: 21.0, t1: 29.0, value: 2.0 });
    assert!(plateaus(&[], &[], 10.0).is_empty());
}

/// The chart's samples of `config`: the metrics every `every` steps up to `steps`.
fn history(config: &str, steps: u64, every: u64) -> History {
    let mut s = crate::common::sim(config);
    let mut scratch = MetricsScratch::default();
    let mut h = History::default();
    loop {
        let m = Metrics::compute(&mut s, &mut scratch).unwrap();
        h.push(s.step_count(), s.t(), &m);
        if s.step_count() >= steps {
            return h;
        }
        crate::common::run(&mut s, every);
    }
}

fn check(h: &History, p: &[Plateau]) {
    for q in p {
        assert!(q.t1 - q.t0 >= MIN_PLATEAU);
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
