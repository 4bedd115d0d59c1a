//! The frame of a single-plot chart drawn with plotters: the chart builder with the page's
//! margins, and the mesh (ticks, grid, axis descriptions) in the theme's colours.

use crate::charts::canvas::Canvas;
use crate::charts::plot::{err, tick, Geometry, Theme};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A chart builder on `area` with the page's margins; the y label area is `y_extra` device
/// pixels wider than the default (room for a y description).
pub fn builder<'a, 'b>(
    area: &'a DrawingArea<Canvas, Shift>,
    g: &Geometry,
    y_extra: u32,
) -> ChartBuilder<'a, 'b, Canvas> {
    let mut b = ChartBuilder::on(area);
    b.margin_top(g.title_h)
        .margin_right(g.margin_r * 2)
        .x_label_area_size(g.x_label)
        .y_label_area_size(g.y_label + y_extra);
    b
}

/// What a chart's axes show.
pub struct Axes<'a> {
    /// Number of x tick labels.
    pub x_labels: usize,
    /// Number of y tick labels; 0 also hides the horizontal grid lines.
    pub y_labels: usize,
    /// Text of an x tick (y ticks use [`tick`]).
    pub x_fmt: &'a dyn Fn(&f64) -> String,
    /// Description under the x axis.
    pub x_desc: &'a str,
    /// Description beside the y axis, if any.
    pub y_desc: Option<&'a str>,
}

/// Text of an x tick at a whole number (layers, path lengths, indices).
pub fn whole(v: &f64) -> String {
    format!("{}", v.round() as i64)
}

/// Draws the mesh of `chart`: tick labels, grid lines in the theme's colours, axis descriptions.
pub fn mesh<X, Y>(
    chart: &mut ChartContext<'_, Canvas, Cartesian2d<X, Y>>,
    g: &Geometry,
    th: &Theme,
    axes: Axes,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let font = ("sans-serif", g.font).into_font().color(&th.fg);
    let lw = g.line(1.0);
    let y_fmt = |v: &f64| tick(*v);
    let mut m = chart.configure_mesh();
    m.x_labels(axes.x_labels)
        .y_labels(axes.y_labels)
        .x_label_formatter(axes.x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(font.clone())
        .axis_style(th.muted.stroke_width(lw))
        .bold_line_style(th.grid.stroke_width(lw))
        .light_line_style(TRANSPARENT)
        .x_desc(axes.x_desc)
        .axis_desc_style(font);
    if axes.y_labels == 0 {
        m.disable_y_mesh();
    }
    if let Some(d) = axes.y_desc {
        m.y_desc(d);
    }
    m.draw().map_err(err)
}
