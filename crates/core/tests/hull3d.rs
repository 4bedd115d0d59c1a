//! analysis::hull3d: the hull of 2-D and 3-D token sets as vertices and edges (the polytope
//! overlay, science.md §1.3), checked against the Carathéodory vertex test and Euler's formula.

use attn_core::particles::analysis::hull::is_extreme_point;
use attn_core::particles::analysis::hull3d::{hull_3d, hull_edges};
use attn_core::rng::Rng;

#[test]
fn a_cube_with_inner_points_gives_its_8_corners_and_12_edges() {
    let mut x = Vec::new();
    let mut rng = Rng::new(2, 0);
    for _ in 0..20 {
        x.extend([rng.uniform01() * 1.6 - 0.8, rng.uniform01() * 1.6 - 0.8, rng.uniform01() * 1.6 - 0.8]);
    }
    let mut corners = Vec::new();
    for k in 0..8 {
        x.extend([(k & 1) as f64 * 2.0 - 1.0, ((k >> 1) & 1) as f64 * 2.0 - 1.0, ((k >> 2) & 1) as f64 * 2.0 - 1.0]);
        corners.push(20 + k);
    }
    let h = hull_3d(&x);
    assert_eq!(h.vertices, corners);
    // The square faces' diagonals are not edges.
    assert_eq!(h.edges.len(), 12);
    for [a, b] in &h.edges {
        let d: f64 = (0..3).map(|c| (x[3 * a + c] - x[3 * b + c]).abs()).sum();
        assert_eq!(d, 2.0, "edge {a}-{b} is a cube edge");
    }
    // Each edge joins two faces of the cube: their outward normals are two of ±e_k, at right
    // angles, each pointing away from the centre through the edge's midpoint.
    assert_eq!(h.normals.len(), 12);
    for ([a, b], [n0, n1]) in h.edges.iter().zip(&h.normals) {
        let mid: Vec<f64> = (0..3).map(|c| (x[3 * a + c] + x[3 * b + c]) / 2.0).collect();
        for n in [n0, n1] {
            let axis = (0..3).max_by(|&i, &j| n[i].abs().total_cmp(&n[j].abs())).unwrap();
            assert!((n[axis].abs() - 1.0).abs() < 1e-12, "edge {a}-{b}: normal {n:?} is an axis");
            assert_eq!(n[axis].signum(), mid[axis].signum(), "edge {a}-{b}: normal {n:?} points outward");
        }
        assert!((0..3).map(|c| n0[c] * n1[c]).sum::<f64>().abs() < 1e-12, "edge {a}-{b}: two different faces");
    }
}

#[test]
fn random_clouds_vertices_are_the_extreme_points() {
    let mut rng = Rng::new(9, 0);
    for m in [4, 9, 16, 300] {
        let x: Vec<f64> = (0..3 * m).map(|_| rng.uniform01() * 10.0 - 5.0).collect();
        let h = hull_edges(&x, m, 3).unwrap();
        // The Carathéodory test costs O(m^4) per point: only on the small clouds.
        for k in (0..m).filter(|_| m <= 16) {
            assert_eq!(h.vertices.contains(&k), is_extreme_point(&x, m, 3, k, 1e-9), "m = {m}, point {k}");
        }
        // A simplicial polytope: V - E + F = 2 with 2E = 3F.
        let (v, e) = (h.vertices.len() as i64, h.edges.len() as i64);
        assert_eq!(3 * (2 - v + e), 2 * e, "m = {m}: V = {v}, E = {e}");
        assert!(h.edges.iter().all(|[a, b]| a < b && h.vertices.contains(a) && h.vertices.contains(b)));
        // Deterministic.
        assert_eq!(hull_3d(&x), h);
    }
}

#[test]
fn flat_and_degenerate_sets_and_the_2d_polygon() {
    // A square in the plane z = 1 with its centre: 4 vertices, 4 edges.
    let x = [0.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 2.0, 1.0, 0.0, 2.0, 1.0, 1.0, 1.0, 1.0];
    let h = hull_3d(&x);
    assert_eq!(h.vertices, [0, 1, 2, 3]);
    assert_eq!(h.edges, [[0, 1], [0, 3], [1, 2], [2, 3]]);
    assert!(h.normals.is_empty(), "a flat hull has no sides to hide");
    // Collinear: the segment between the ends.
    let h = hull_3d(&[0.0, 0.0, 0.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0]);
    assert_eq!((h.vertices, h.edges), (vec![0, 1], vec![[0, 1]]));
    assert_eq!(hull_3d(&[1.0, 1.0, 1.0, 1.0, 1.0, 1.0]).edges.len(), 0);
    // 2-D: the polygon counter-clockwise, its edges sorted.
    let y = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 0.5];
    let h = hull_edges(&y, 5, 2).unwrap();
    assert_eq!(h.vertices, [0, 1, 2, 3]);
    assert_eq!(h.edges, [[0, 1], [0, 3], [1, 2], [2, 3]]);
    assert_eq!(hull_edges(&[0.0; 4], 1, 4), None, "d = 4");
    assert_eq!(hull_edges(&[f64::NAN, 0.0], 1, 2), None);
}
