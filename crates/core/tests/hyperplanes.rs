//! The `hyperplanes` metric (analysis::hyperplanes, science.md §1.3): groups of `<psi1, z_i>` by
//! single linkage at `cluster_tol` times their range.

use attn_core::particles::analysis::hyperplanes::{hyperplanes, projections, value_groups};
use attn_core::particles::analysis::{Metrics, MetricsScratch};
use attn_core::particles::config::Space;
use attn_core::rng::Rng;
use nalgebra::DMatrix;

#[test]
fn groups_of_constructed_points_on_parallel_lines() {
    // 30 points on the lines x = 0, 0.5 and 1 (normal psi = e1), anywhere along y.
    let mut rng = Rng::new(5, 0);
    let x: Vec<f64> = (0..30).flat_map(|i| [0.5 * (i % 3) as f64, 10.0 * rng.uniform01()]).collect();
    assert_eq!(hyperplanes(&x, 30, 2, &[1.0, 0.0], 1e-3), Some(3));
    // Tolerance 0.6 of the range links the gaps of 0.5: one group.
    assert_eq!(hyperplanes(&x, 30, 2, &[1.0, 0.0], 0.6), Some(1));
    // Along e2 the values are spread: about one group per point.
    assert!(hyperplanes(&x, 30, 2, &[0.0, 1.0], 1e-3).unwrap() > 20);
    // psi = (1, 1)/sqrt 2 on points with x + y in {0, 2}.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let y = [0.0, 0.0, -1.0, 1.0, 2.0, 0.0, 0.5, 1.5];
    assert_eq!(projections(&y, 4, 2, &[s, s]).len(), 4);
    assert_eq!(hyperplanes(&y, 4, 2, &[s, s], 1e-3), Some(2));
    // Equal values are one group; a gap exactly at the tolerance splits.
    assert_eq!(value_groups(&[2.0, 2.0, 2.0], 1e-3), Some(1));
    assert_eq!(value_groups(&[0.0, 0.25, 1.0], 0.25), Some(3));
    assert_eq!(value_groups(&[0.0, 0.2, 1.0], 0.25), Some(2));
    assert_eq!(value_groups(&[0.0, f64::INFINITY], 0.25), None);
    assert_eq!(value_groups(&[], 0.25), None);
}

/// Independent `psi1`: nalgebra's eigen-decomposition of `V^T` (2 x 2, real spectrum).
fn reference_psi(v: &[f64]) -> Vec<f64> {
    let vt = DMatrix::from_row_slice(2, 2, v).transpose();
    let e = vt.clone().complex_eigenvalues();
    let lambda = if e[0].re > e[1].re { e[0].re } else { e[1].re };
    // (V^T - lambda I) y = 0: y orthogonal to the first row of the shifted matrix.
    let (a, b) = (vt[(0, 0)] - lambda, vt[(0, 1)]);
    let (p, q) = if a.abs() + b.abs() > 0.0 { (-b, a) } else { (vt[(1, 1)] - lambda, -vt[(1, 0)]) };
    let l = (p * p + q * q).sqrt();
    vec![p / l, q / l]
}

/// A custom `V` (not the preset's): the metric is 1 to 3 at `until` (the theorem's range; no
/// count is asserted), equals the grouping of `<psi1, z_i>` with an independent `psi1`, is the
/// same in `x` and `z`, and is null for `V = I` and sphere models.
#[test]
fn hyperplanes_of_a_custom_value_matrix() {
    for (v_text, v) in [("1,0.5;0.2,0.3", [1.0, 0.5, 0.2, 0.3]), ("0.9,-0.4;0.3,0.2", [0.9, -0.4, 0.3, 0.2])] {
        let config = format!("version=4&preset=hyperplanes&v={v_text}&seed=3&until=20");
        let mut s = crate::common::sim(&config);
        crate::common::run(&mut s, 200);
        let mut scratch = MetricsScratch::default();
        let m = Metrics::compute(&mut s, &mut scratch).unwrap();
        let h = m.hyperplanes.expect("psi1 is defined for this V");
        assert!((1..=3).contains(&h), "{config}: {h} hyperplanes");
        let psi = reference_psi(&v);
        let mut z = vec![0.0; 80];
        s.tokens_in(Space::Z, &mut z);
        assert_eq!(hyperplanes(&z, 40, 2, &psi, 1e-3), Some(h), "{config}");
        let mut x = vec![0.0; 80];
        s.tokens_in(Space::X, &mut x);
        assert_eq!(hyperplanes(&x, 40, 2, &psi, 1e-3), Some(h), "{config}: x and z");
        // At t = 0 the tokens are spread: many more groups than 3.
        let mut s0 = crate::common::sim(&config);
        assert!(Metrics::compute(&mut s0, &mut MetricsScratch::default()).unwrap().hyperplanes.unwrap() > 10);
    }
    for config in
        ["version=4&preset=polytope", "version=4&preset=collapse", "version=4&preset=sphere-sa&v=1,0,0;0,0.5,0;0,0,0.2"]
    {
        let mut s = crate::common::sim(config);
        assert_eq!(Metrics::compute(&mut s, &mut MetricsScratch::default()).unwrap().hyperplanes, None, "{config}");
    }
}
