//! The depth lab's rank-collapse chart (science.md §3): the relative residual
//! `||res(X_l)|| / ||X_l||` against layer `l`, one curve per variant, on a linear or log axis.
//!
//! On the log axis (drawn over `log10`, ticks at powers of ten down to the floor, labelled below
//! 1 as `0.001` and `10⁻¹⁸`) a residual of exactly 0 is drawn at the axis floor, a power of ten
//! under the smallest positive value, and a note under the plot says so. A layer whose value is
//! not finite (an f32 overflow; null in the worker's JSON) is not drawn, never as a number: the
//! curve's last finite point gets a hollow ring, and a note says "○ overflow at layer k" with the
//! variants whose first such layer is k. The legend and
//! the notes sit in a band under the plot, so they never cover a curve. The log axis also marks
//! the run's round-off floor: a dashed line at the unit round-off of its precision (`2⁻²⁴` for
//! `f32`, `2⁻⁵³` for `f64`), labelled, where a collapsed stack's residual stops falling. It returns the one chart
//! [`Layout`]: layer `start` (0) at `x0`, `end` (the last layer) at `x1`.

use crate::charts::axes::{self, log_ticks, power_label, Axes, Ticked};
use crate::charts::clear_spot::{first_clear, PixelBox};
use crate::charts::depth::{colour, legend_text, start, title, Results};
use crate::charts::layout::{Layout, Panel};
use crate::charts::legend::{band, draw_band, Entry};
use crate::charts::plot::{err, note, Geometry, Rect, Theme};
use attn_core::depth::Precision;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

/// The notes under the chart: zeros drawn at the floor (log axis) and layers that are not finite.
fn notes(results: &Results, log: bool, floor: &str) -> Vec<String> {
    let mut out = Vec::new();
    let zero = results.iter().any(|r| r.residual.contains(&0.0));
    if log && zero {
        out.push(format!("0 drawn at the floor {}", floor));
    }
    let mut bad: Vec<(usize, &str)> =
        results.iter().filter_map(|r| Some((first_not_finite(r.residual)?, r.label))).collect();
    bad.sort_by_key(|&(l, _)| l);
    for (k, group) in bad.chunk_by(|a, b| a.0 == b.0).map(|g| (g[0].0, g)) {
        let which: Vec<&str> = group.iter().map(|&(_, v)| v).collect();
        out.push(format!("○ overflow at layer {} ({}): no value from there on", k, which.join(", ")));
    }
    out
}

/// The first layer whose value is not finite, if any.
pub fn first_not_finite(residual: &[f64]) -> Option<usize> {
    residual.iter().position(|v| !v.is_finite())
}

/// The last finite point before the first value that is not finite: where the ring is drawn
/// (`None` when every value is finite or the first is not).
pub fn last_finite(residual: &[f64]) -> Option<(usize, f64)> {
    let k = first_not_finite(residual)?;
    let l = k.checked_sub(1)?;
    Some((l, residual[l]))
}

/// The dashed line at `log10` of `precision`'s unit round-off, when the log axis reaches it
/// (nothing otherwise), labelled where no curve passes: above or under the line, at its left
/// end or its right end, the first of these that `curves` (the chart's points, in its
/// coordinates) leave clear; above the left end when none is.
fn round_off_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &mut ChartContext<DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Ticked>>,
    g: &Geometry,
    th: &Theme,
    precision: Precision,
    (x_end, curves): (f64, &[Vec<(f64, f64)>]),
) -> Result<(), String> {
    let u = precision.unit_round_off();
    let y = u.log10();
    let range = chart.y_range();
    if !(range.start <= y && y <= range.end) {
        return Ok(());
    }
    let dash = (5.0 * g.dpr).round() as i32;
    let gap = (4.0 * g.dpr).round() as i32;
    let style = th.muted.stroke_width(g.line(1.2));
    chart.draw_series(DashedLineSeries::new([(-0.3, y), (x_end, y)], dash, gap, style)).map_err(err)?;
    let label = match precision {
        Precision::F32 => "f32 round-off 2⁻²⁴ ≈ 6·10⁻⁸",
        Precision::F64 => "f64 round-off 2⁻⁵³ ≈ 1.1·10⁻¹⁶",
    };
    let font = ("sans-serif", g.small()).into_font().color(&th.muted).pos(Pos::new(HPos::Left, VPos::Top));
    let (w, h) = area.estimate_text_size(label, &font).map_err(err)?;
    let (w, h) = (w as f64, h as f64);
    let px = |p: &(f64, f64)| {
        let (x, y) = chart.backend_coord(p);
        (x as f64, y as f64)
    };
    let ((left, line), (right, _)) = (px(&(-0.3, y)), px(&(x_end, y)));
    let (inset, lift) = (4.0 * g.dpr, 2.0 * g.dpr);
    let at = |x0: f64, above: bool| {
        let y0 = if above { line - lift - h } else { line + lift };
        PixelBox { x0, y0, x1: x0 + w, y1: y0 + h }
    };
    let (l, r) = (left + inset, right - inset - w);
    let candidates = [at(l, true), at(l, false), at(r, true), at(r, false)];
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let plot = PixelBox { x0: xr.start as f64, y0: yr.start as f64, x1: xr.end as f64, y1: yr.end as f64 };
    let drawn: Vec<Vec<(f64, f64)>> = curves.iter().map(|c| c.iter().map(px).collect()).collect();
    let marker = 2.5 * g.dpr + g.line(2.0) as f64;
    let spot = candidates[first_clear(&candidates, &plot, &drawn, marker).unwrap_or(0)];
    let (ax, ay) = area.get_pixel_range();
    area.draw_text(label, &font, (spot.x0 as i32 - ax.start, spot.y0 as i32 - ay.start)).map_err(err)?;
    Ok(())
}

/// What the chart says of its variants and layers: the depth lab's ([`DEPTH_TEXTS`]) or the
/// model lab's ([`MODEL_TEXTS`], where SAN+MLP keeps the MLP's skip and layer 0 is the
/// embeddings).
pub struct Texts {
    /// The legend's explanation of a variant label.
    pub legend: fn(&str) -> &'static str,
    /// The x axis's description.
    pub x_desc: &'static str,
}

/// The depth lab's texts.
pub const DEPTH_TEXTS: Texts = Texts { legend: legend_text, x_desc: "layer l (0 = the input)" };

/// The model lab's legend: Dong et al.'s BERT surgery on trained weights, where SAN+MLP removes
/// only the attention's skip (core `model::forward::Variant::legend`).
#[cfg(feature = "model")]
fn model_legend(label: &str) -> &'static str {
    attn_core::model::Variant::from_label(label).map_or("", attn_core::model::forward::Variant::legend)
}

/// The model lab's texts.
#[cfg(feature = "model")]
pub const MODEL_TEXTS: Texts = Texts { legend: model_legend, x_desc: "layer l (0 = the embeddings)" };

/// The y axis: log or linear, and the precision whose round-off floor the log axis marks.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// A log y axis.
    pub log: bool,
    /// The run's floating-point type.
    pub precision: Precision,
}

/// Draws the relative residual against layer for `results` on the y axis `scale`.
pub fn residual(
    canvas: HtmlCanvasElement,
    results: &Results,
    layers: usize,
    scale: Scale,
    dpr: f64,
    colours: &[u32],
    words: &Texts,
) -> Result<Layout, String> {
    let Scale { log, precision } = scale;
    let empty = Layout::default;
    let Some((area, texts, g, th)) = start(canvas, dpr, colours)? else {
        return Ok(empty());
    };
    let values = || results.iter().flat_map(|r| r.residual.iter().copied()).filter(|v| v.is_finite());
    let hi = values().fold(0.0f64, f64::max);
    let pos_min = values().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    // Log axis over log10: from a power of ten at least 0.2 decades under the smallest positive
    // value (10^-3 when there is none) to 0.25 decades over the largest.
    let lo_e = if pos_min.is_finite() { (pos_min.log10() - 0.2).floor().max(-300.0) } else { -3.0 };
    let hi_e = if hi > 0.0 { (hi.log10() + 0.25).max(lo_e + 1.0) } else { lo_e + 3.0 };
    let floor_text = power_label(&lo_e);
    let entries: Vec<Entry> = results
        .iter()
        .map(|r| Entry {
            colour: colour(&th, r.label),
            text: (words.legend)(r.label).to_string(),
            short: r.label.to_string(),
        })
        .collect();
    let notes = notes(results, log, &floor_text);
    let (w, _) = area.dim_in_pixel();
    let pad = g.margin_r as i32;
    let legend_band = band(&area, &g, &entries, &notes, w as i32 - 2 * pad);
    let gap = if legend_band.height > 0 { (6.0 * g.dpr) as i32 } else { 0 };
    let x_max = layers.max(1) as f64;
    let x_range = -0.3..x_max + 0.3;
    let y_desc = if log { "‖res(Xₗ)‖ / ‖Xₗ‖ (log)" } else { "‖res(Xₗ)‖ / ‖Xₗ‖" };
    let mut builder = axes::builder(&area, &g, (g.font * 1.4) as u32);
    builder.margin_bottom((legend_band.height + gap) as u32);
    let x_fmt = axes::whole;
    let frame = |y_fmt| Axes {
        x_labels: layers.min(12) + 1,
        y_labels: 6,
        x_fmt: &x_fmt,
        x_desc: words.x_desc,
        y_desc: Some(y_desc),
        y_fmt,
    };
    let radius = (2.5 * g.dpr).round() as i32;
    let ring = (6.0 * g.dpr).round() as i32;
    // Each curve's finite points on the axis `at` maps values to.
    let points = |at: &dyn Fn(f64) -> f64| -> Vec<Vec<(f64, f64)>> {
        results
            .iter()
            .map(|r| {
                r.residual.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(l, &v)| (l as f64, at(v))).collect()
            })
            .collect()
    };
    macro_rules! curves {
        ($chart:expr, $at:expr, $floor:expr) => {{
            let chart = &mut $chart;
            for (r, pts) in results.iter().zip(points(&$at)) {
                let c = colour(&th, r.label);
                chart.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(g.line(2.0)))).map_err(err)?;
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, radius, c.filled()))).map_err(err)?;
                // The last finite point of a curve that overflows: a hollow ring (background
                // inside), never a point at 0 or at the floor.
                if let Some((l, v)) = last_finite(r.residual) {
                    let p = (l as f64, $at(v));
                    chart.draw_series([Circle::new(p, ring, th.bg.filled())]).map_err(err)?;
                    chart.draw_series([Circle::new(p, ring, c.stroke_width(g.line(2.0)))]).map_err(err)?;
                }
            }
            let (xr, yr) = chart.plotting_area().get_pixel_range();
            let (px0, _) = chart.backend_coord(&(0.0, $floor));
            let (px1, _) = chart.backend_coord(&(x_max, $floor));
            (xr, yr, px0, px1)
        }};
    }
    let (xr, yr, px0, px1) = if log {
        let y = Ticked::new(lo_e..hi_e, log_ticks(lo_e, hi_e, 7));
        let mut chart = builder.build_cartesian_2d(x_range, y).map_err(err)?;
        axes::mesh(&mut chart, &g, &th, frame(Some(&power_label)))?;
        let at = |v: f64| if v > 0.0 { v.log10().max(lo_e) } else { lo_e };
        round_off_line(&area, &mut chart, &g, &th, precision, (x_max + 0.3, &points(&at)))?;
        curves!(chart, at, lo_e)
    } else {
        let top = if hi > 0.0 { hi * 1.08 } else { 1.0 };
        let mut chart = builder.build_cartesian_2d(x_range, 0.0..top).map_err(err)?;
        axes::mesh(&mut chart, &g, &th, frame(None))?;
        curves!(chart, |v: f64| v, 0.0)
    };
    let (_, h) = area.dim_in_pixel();
    let legend = draw_band(&area, &g, &th, &entries, &legend_band, (pad, h as i32 - legend_band.height))?;
    title(&area, &g, &th, "relative residual of Xₗ against depth (rank collapse)", xr.start)?;
    if results.is_empty() {
        note(&area, &g, &th, "computing the first variant…", ((xr.start + xr.end) / 2, (yr.start + yr.end) / 2))?;
    }
    area.present().map_err(err)?;
    Ok(Layout {
        x0: px0 as f64 / g.dpr,
        x1: px1 as f64 / g.dpr,
        start: 0.0,
        end: x_max,
        panels: vec![Panel {
            name: "residual",
            y0: yr.start as f64 / g.dpr,
            y1: yr.end as f64 / g.dpr,
            v0: f64::NAN,
            v1: f64::NAN,
        }],
        plot: Some(Rect::of(&xr, &yr).css(g.dpr)),
        legend: legend.map(|r| r.css(g.dpr)),
        labels: texts.css(g.dpr),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_marks_the_last_finite_point_before_the_first_value_that_is_not() {
        let r = [0.9, 0.5, f64::INFINITY, f64::NAN];
        assert_eq!((first_not_finite(&r), last_finite(&r)), (Some(2), Some((1, 0.5))));
        let nan = [0.9, f64::NAN, 0.2];
        assert_eq!((first_not_finite(&nan), last_finite(&nan)), (Some(1), Some((0, 0.9))));
        assert_eq!((first_not_finite(&[1.0]), last_finite(&[1.0])), (None, None));
        assert_eq!(last_finite(&[f64::NAN, 1.0]), None);
    }
}
