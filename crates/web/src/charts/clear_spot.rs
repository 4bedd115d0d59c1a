//! Where a label goes clear of the curves: the first of a chart's candidate boxes (in pixels)
//! that no curve crosses, a curve being the polyline through its points with its markers (the
//! box grown by the markers' radius). Pure geometry, so the choice is tested natively.

/// An axis-aligned box in pixels: `x0 <= x <= x1`, `y0 <= y <= y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelBox {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl PixelBox {
    /// The box grown by `by` pixels on every side.
    pub fn grown(self, by: f64) -> PixelBox {
        PixelBox { x0: self.x0 - by, y0: self.y0 - by, x1: self.x1 + by, y1: self.y1 + by }
    }

    /// Whether the box lies inside `outer`.
    pub fn inside(&self, outer: &PixelBox) -> bool {
        self.x0 >= outer.x0 && self.x1 <= outer.x1 && self.y0 >= outer.y0 && self.y1 <= outer.y1
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        self.x0 <= x && x <= self.x1 && self.y0 <= y && y <= self.y1
    }
}

/// Whether the segment from `a` to `b` meets the box (Liang-Barsky clipping).
pub fn segment_meets(a: (f64, f64), b: (f64, f64), r: &PixelBox) -> bool {
    if r.contains(a) || r.contains(b) {
        return true;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - r.x0), (dx, r.x1 - a.0), (-dy, a.1 - r.y0), (dy, r.y1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return false; // parallel to this edge and outside it
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Whether any of `curves` (polylines in pixels, markers of radius `marker` at their points)
/// crosses `label`.
pub fn crossed(label: &PixelBox, curves: &[Vec<(f64, f64)>], marker: f64) -> bool {
    let r = label.grown(marker);
    curves.iter().any(|pts| match pts.as_slice() {
        [only] => r.contains(*only),
        _ => pts.windows(2).any(|w| segment_meets(w[0], w[1], &r)),
    })
}

/// The index of the first candidate inside `plot` that no curve crosses, or `None`.
pub fn first_clear(candidates: &[PixelBox], plot: &PixelBox, curves: &[Vec<(f64, f64)>], marker: f64) -> Option<usize> {
    candidates.iter().position(|c| c.inside(plot) && !crossed(c, curves, marker))
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: PixelBox = PixelBox { x0: 10.0, y0: 10.0, x1: 50.0, y1: 20.0 };

    #[test]
    fn a_segment_through_the_box_meets_it_and_one_beside_it_does_not() {
        assert!(segment_meets((0.0, 15.0), (60.0, 15.0), &B), "across, no end inside");
        assert!(segment_meets((0.0, 0.0), (60.0, 30.0), &B), "diagonal through");
        assert!(segment_meets((20.0, 12.0), (200.0, 300.0), &B), "an end inside");
        assert!(!segment_meets((0.0, 25.0), (60.0, 25.0), &B), "below, parallel");
        assert!(!segment_meets((0.0, 0.0), (9.0, 30.0), &B), "left of it");
        assert!(!segment_meets((0.0, 5.0), (60.0, 9.0), &B), "above, slanted");
        assert!(!segment_meets((55.0, 0.0), (55.0, 30.0), &B), "vertical, right of it");
    }

    #[test]
    fn the_first_clear_candidate_inside_the_plot_is_chosen() {
        let plot = PixelBox { x0: 0.0, y0: 0.0, x1: 300.0, y1: 200.0 };
        // A curve falling steeply at the left, then flat just above the line at y = 150.
        let curve = vec![(10.0, 10.0), (40.0, 60.0), (70.0, 140.0), (300.0, 142.0)];
        let above_left = PixelBox { x0: 12.0, y0: 130.0, x1: 150.0, y1: 148.0 };
        let below_left = PixelBox { x0: 12.0, y0: 152.0, x1: 150.0, y1: 170.0 };
        let outside = PixelBox { x0: 12.0, y0: 190.0, x1: 150.0, y1: 210.0 };
        let curves = [curve];
        assert!(crossed(&above_left, &curves, 3.0));
        assert_eq!(first_clear(&[above_left, below_left], &plot, &curves, 3.0), Some(1));
        assert_eq!(first_clear(&[above_left, outside], &plot, &curves, 3.0), None);
        // A marker 2 px under the box counts when the markers' radius is 3 px.
        let dot = vec![vec![(100.0, 172.0)]];
        assert!(crossed(&below_left, &dot, 3.0));
        assert!(!crossed(&below_left, &dot, 1.0));
    }
}
