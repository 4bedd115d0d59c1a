//! The convex hull of 2-D and 3-D token sets as vertices and edges, for drawing the polytope of
//! science.md §1.3 (the hull of the initial rescaled tokens `z(0) = x(0)`): the 2-D polygon of
//! [`super::hull::hull_2d`], and in 3-D an incremental hull (points added in index order,
//! triangles kept outward) whose edges between coplanar triangles are dropped. Deterministic:
//! plain `f64` arithmetic and `sqrt`, fixed order.

use super::hull::hull_2d;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A convex hull: the indices of its vertices (increasing; a 2-D polygon's in counter-clockwise
/// order) and its edges as index pairs `[i, j]` with `i < j` (increasing).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HullEdges {
    /// Vertex indices.
    pub vertices: Vec<usize>,
    /// Edges, each `[i, j]` with `i < j`.
    pub edges: Vec<[usize; 2]>,
    /// For a solid 3-D hull, the outward unit normals of the two faces each edge joins (one entry
    /// per edge, in `edges`' order): an edge whose faces both turn away from the viewer is hidden
    /// behind the hull. Empty for a polygon, a segment or a point.
    pub normals: Vec<[P3; 2]>,
}

/// A point or direction in 3-D.
pub type P3 = [f64; 3];

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P3, b: P3) -> P3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(a: P3) -> P3 {
    let l = dot(a, a).sqrt();
    if l > 0.0 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        [0.0; 3]
    }
}

/// The hull of the tokens `x` (`n x d`, row-major) for `d = 2` ([`hull_2d`]'s polygon) or
/// `d = 3` ([`hull_3d`]); `None` for other `d` or when a coordinate is not finite.
pub fn hull_edges(x: &[f64], n: usize, d: usize) -> Option<HullEdges> {
    if x.len() != n * d || x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    match d {
        2 => Some(polygon(hull_2d(x))),
        3 => Some(hull_3d(x)),
        _ => None,
    }
}

fn polygon(ring: Vec<usize>) -> HullEdges {
    let k = ring.len();
    let mut edges: Vec<[usize; 2]> = match k {
        0 | 1 => Vec::new(),
        2 => vec![[ring[0], ring[1]]],
        _ => (0..k).map(|e| [ring[e], ring[(e + 1) % k]]).collect(),
    };
    for e in &mut edges {
        e.sort_unstable();
    }
    edges.sort_unstable();
    HullEdges { vertices: ring, edges, normals: Vec::new() }
}

struct Face {
    v: [usize; 3],
    normal: P3,
    offset: f64,
    alive: bool,
}

fn face(pts: &[P3], v: [usize; 3]) -> Face {
    let normal = unit(cross(sub(pts[v[1]], pts[v[0]]), sub(pts[v[2]], pts[v[0]])));
    Face { v, normal, offset: dot(normal, pts[v[0]]), alive: true }
}

/// The convex hull of 3-D points (`m x 3`, row-major, finite). Flat sets give their polygon
/// (in the plane of the first three points that span it), collinear sets their segment.
pub fn hull_3d(x: &[f64]) -> HullEdges {
    let m = x.len() / 3;
    let pts: Vec<P3> = (0..m).map(|i| [x[3 * i], x[3 * i + 1], x[3 * i + 2]]).collect();
    if m == 0 {
        return HullEdges::default();
    }
    let span = super::clusters::spread(x, m, 3);
    let eps = 1e-12 * span.max(f64::MIN_POSITIVE);
    let argmax = |f: &dyn Fn(P3) -> f64| {
        let mut best = 0;
        for i in 1..m {
            if f(pts[i]) > f(pts[best]) {
                best = i;
            }
        }
        best
    };
    // i0: the lexicographically smallest point; i1 farthest from it; i2 farthest from their
    // line; i3 farthest from their plane.
    let mut i0 = 0;
    for i in 1..m {
        if pts[i] < pts[i0] {
            i0 = i;
        }
    }
    let p0 = pts[i0];
    let i1 = argmax(&|p| dot(sub(p, p0), sub(p, p0)));
    let dir = unit(sub(pts[i1], p0));
    if dot(sub(pts[i1], p0), dir) <= eps {
        return HullEdges { vertices: vec![i0], edges: Vec::new(), normals: Vec::new() };
    }
    let off_line = |p: P3| {
        let c = cross(sub(p, p0), dir);
        dot(c, c)
    };
    let i2 = argmax(&off_line);
    if off_line(pts[i2]).sqrt() <= eps {
        let (a, b) = (i0.min(i1), i0.max(i1));
        return HullEdges { vertices: vec![a, b], edges: vec![[a, b]], normals: Vec::new() };
    }
    let normal = unit(cross(sub(pts[i1], p0), sub(pts[i2], p0)));
    let i3 = argmax(&|p| dot(sub(p, p0), normal).abs());
    if dot(sub(pts[i3], p0), normal).abs() <= eps {
        // Flat: the polygon in the plane (u, w).
        let w = cross(normal, dir);
        let flat: Vec<f64> = pts.iter().flat_map(|&p| [dot(sub(p, p0), dir), dot(sub(p, p0), w)]).collect();
        let mut h = polygon(hull_2d(&flat));
        h.vertices.sort_unstable();
        return h;
    }
    let tetra = [i0, i1, i2, i3];
    let centre = {
        let mut c = [0.0; 3];
        for &i in &tetra {
            for a in 0..3 {
                c[a] += pts[i][a] / 4.0;
            }
        }
        c
    };
    let mut faces: Vec<Face> = Vec::new();
    for v in [[i0, i1, i2], [i0, i1, i3], [i0, i2, i3], [i1, i2, i3]] {
        let f = face(&pts, v);
        faces.push(if dot(f.normal, centre) - f.offset > 0.0 { face(&pts, [v[0], v[2], v[1]]) } else { f });
    }
    for (i, &p) in pts.iter().enumerate() {
        if tetra.contains(&i) {
            continue;
        }
        let visible: Vec<usize> =
            (0..faces.len()).filter(|&f| faces[f].alive && dot(faces[f].normal, p) - faces[f].offset > eps).collect();
        if visible.is_empty() {
            continue;
        }
        let mut directed = BTreeSet::new();
        for &f in &visible {
            let v = faces[f].v;
            for e in 0..3 {
                directed.insert((v[e], v[(e + 1) % 3]));
            }
        }
        let mut horizon = Vec::new();
        for &f in &visible {
            let v = faces[f].v;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                if !directed.contains(&(b, a)) {
                    horizon.push((a, b));
                }
            }
            faces[f].alive = false;
        }
        for (a, b) in horizon {
            faces.push(face(&pts, [a, b, i]));
        }
        if faces.len() > 64 && faces.iter().filter(|f| f.alive).count() * 2 < faces.len() {
            faces.retain(|f| f.alive);
        }
    }
    let alive: Vec<&Face> = faces.iter().filter(|f| f.alive).collect();
    let mut by_edge: BTreeMap<[usize; 2], Vec<usize>> = BTreeMap::new();
    let mut vertices = BTreeSet::new();
    for (k, f) in alive.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (f.v[e], f.v[(e + 1) % 3]);
            by_edge.entry([a.min(b), a.max(b)]).or_default().push(k);
            vertices.insert(a);
        }
    }
    // An edge between two coplanar triangles is a diagonal of one flat face: not drawn.
    let kept: Vec<([usize; 2], Vec<usize>)> = by_edge
        .into_iter()
        .filter(|(_, fs)| fs.len() != 2 || dot(alive[fs[0]].normal, alive[fs[1]].normal) < 1.0 - 1e-9)
        .collect();
    let normals = kept.iter().map(|(_, fs)| [alive[fs[0]].normal, alive[fs[fs.len() - 1]].normal]).collect();
    HullEdges { vertices: vertices.into_iter().collect(), edges: kept.into_iter().map(|(e, _)| e).collect(), normals }
}
