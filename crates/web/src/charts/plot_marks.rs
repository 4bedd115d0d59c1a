//! Marks drawn over a panel after its series (drawing only): shaded spans of the x axis, e.g. the
//! plateaus of the particle lab's count.

use crate::charts::canvas::Canvas;
use crate::charts::plot::err;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Shades each span `(x0, x1)` of the x axis (whose values `x_range` cover the pixel columns
/// `xr`) over the plot rows `yr` of `area` (pixel ranges in the canvas, as [`super::plot::panel`]
/// returns them), in `colour` at low opacity, with a thin edge at both ends. A span shorter than a
/// pixel is drawn one pixel wide.
pub fn shade_spans(
    area: &DrawingArea<Canvas, Shift>,
    spans: &[(f64, f64)],
    x_range: Range<f64>,
    xr: &Range<i32>,
    yr: &Range<i32>,
    colour: RGBColor,
) -> Result<(), String> {
    let (ax, ay) = area.get_pixel_range();
    let width = (x_range.end - x_range.start).max(f64::MIN_POSITIVE);
    let to_px = |x: f64| {
        let u = ((x - x_range.start) / width).clamp(0.0, 1.0);
        xr.start + (u * (xr.end - xr.start) as f64).round() as i32 - ax.start
    };
    let (top, bottom) = (yr.start - ay.start, yr.end - ay.start);
    for &(a, b) in spans.iter().filter(|(a, b)| a.is_finite() && b.is_finite()) {
        let (x0, x1) = (to_px(a), to_px(b).max(to_px(a) + 1));
        area.draw(&Rectangle::new([(x0, top), (x1, bottom)], colour.mix(0.16).filled())).map_err(err)?;
        for x in [x0, x1] {
            area.draw(&PathElement::new([(x, top), (x, bottom)], colour.mix(0.55).stroke_width(1))).map_err(err)?;
        }
    }
    Ok(())
}
