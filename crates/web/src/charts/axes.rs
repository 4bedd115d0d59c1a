//! The frame of a single-plot chart drawn with plotters: the chart builder with the page's
//! margins, the mesh (ticks, grid, axis descriptions) in the theme's colours, and a log axis
//! drawn as a linear axis over `log10(v)` with ticks at powers of ten ([`log_ticks`],
//! [`power_label`]: `0.01`, `10⁻¹⁸`), so every decade it spans can carry a label.

use crate::charts::canvas::Canvas;
use crate::charts::plot::{err, fit_text, label_count, tick, Geometry, Theme};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// A chart builder on `area` with the page's margins; the y label area is `y_extra` device
/// pixels wider than the default (room for a y description).
pub fn builder<'a, 'b>(
    area: &'a DrawingArea<Canvas, Shift>,
    g: &Geometry,
    y_extra: u32,
) -> ChartBuilder<'a, 'b, Canvas> {
    let mut b = ChartBuilder::on(area);
    // A small left margin keeps a rotated y description's ink inside the canvas.
    b.margin_top(g.title_h)
        .margin_left((2.0 * g.dpr).ceil() as u32)
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
    /// Text of an x tick.
    pub x_fmt: &'a dyn Fn(&f64) -> String,
    /// Text of a y tick (`None`: [`tick`]).
    pub y_fmt: Option<&'a dyn Fn(&f64) -> String>,
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
    // The x description fits under the plot (a narrow chart drops its parenthesised part).
    let room = chart.plotting_area().dim_in_pixel().0 as i32;
    let x_desc = fit_text(chart.plotting_area(), &font, axes.x_desc, room);
    let plain = |v: &f64| tick(*v);
    let y_fmt: &dyn Fn(&f64) -> String = axes.y_fmt.unwrap_or(&plain);
    // No more labels than fit: about 3.2 em apart along x, 2 lines apart along y (a narrow or
    // short chart draws fewer).
    let (pw, ph) = chart.plotting_area().dim_in_pixel();
    let x_labels = axes.x_labels.min(label_count(pw as f64, g.font * 3.2, axes.x_labels));
    let y_labels =
        if axes.y_labels == 0 { 0 } else { axes.y_labels.min(label_count(ph as f64, g.font * 2.0, axes.y_labels)) };
    // The y description fits beside the plot (a short chart drops its parenthesised part).
    let y_desc = axes.y_desc.map(|d| fit_text(chart.plotting_area(), &font, d, ph as i32));
    let mut m = chart.configure_mesh();
    m.x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(axes.x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(font.clone())
        .axis_style(th.muted.stroke_width(lw))
        .bold_line_style(th.grid.stroke_width(lw))
        .light_line_style(TRANSPARENT)
        .x_desc(x_desc)
        .axis_desc_style(font);
    if axes.y_labels == 0 {
        m.disable_y_mesh();
    }
    if let Some(d) = y_desc.as_deref() {
        m.y_desc(d);
    }
    m.draw().map_err(err)
}

/// A linear axis with the ticks given (plotters' own choice ignored): a log axis drawn over
/// `log10(v)` with its ticks at [`log_ticks`].
pub struct Ticked {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ticked {
    /// The axis over `range` with ticks at `ticks` (those inside the range).
    pub fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        let ticks = ticks.into_iter().filter(|t| range.start <= *t && *t <= range.end).collect();
        Ticked { inner: range.into(), ticks }
    }
}

impl Ranged for Ticked {
    type ValueType = f64;
    type FormatOption = NoDefaultFormatting;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

impl ValueFormatter<f64> for Ticked {
    fn format(value: &f64) -> String {
        power_label(value)
    }
}

/// Tick positions (exponents, `log10` of the values) of a log axis from `10^lo` to `10^hi`:
/// whole exponents, every `k`-th so that at most `max` remain (`k` in 1, 2, 3, 5, 10, ...); on
/// an axis of less than two decades also `2·10^e` and `5·10^e`.
pub fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let (first, last) = (lo.ceil() as i64, hi.floor() as i64);
    let count = (last - first + 1).max(0) as usize;
    let max = max.max(2);
    let step = [1usize, 2, 3, 5, 10, 20, 25, 50, 100].into_iter().find(|k| count.div_ceil(*k) <= max).unwrap_or(200);
    let mut out: Vec<f64> = (first..=last).filter(|e| e.rem_euclid(step as i64) == 0).map(|e| e as f64).collect();
    if hi - lo < 2.0 {
        for e in (lo.floor() as i64)..=(hi.ceil() as i64) {
            for m in [2.0f64, 5.0] {
                let t = e as f64 + m.log10();
                if lo <= t && t <= hi {
                    out.push(t);
                }
            }
        }
        out.sort_by(f64::total_cmp);
    }
    out
}

/// Label of a log axis's tick at exponent `e` (the value `10^e`): `1`, `10`, `100`, `0.1`,
/// `0.01`, `0.001` written out, other powers of ten as `10⁻¹⁸`; a tick between powers (`2·10^e`)
/// as its value ([`tick`]).
pub fn power_label(e: &f64) -> String {
    let r = e.round();
    if (e - r).abs() > 1e-9 {
        return tick(10f64.powf(*e));
    }
    let k = r as i64;
    if (-3..=2).contains(&k) {
        return tick(10f64.powi(k as i32));
    }
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = k.unsigned_abs().to_string().chars().map(|c| SUP[c as usize - '0' as usize]).collect();
    format!("10{}{}", if k < 0 { "⁻" } else { "" }, digits)
}

/// Tick label of a log axis at the value `v`: the power of ten written as the depth lab's
/// ([`power_label`]: `10⁻¹⁶`, `0.01`, `1`).
pub fn power_of_ten(v: &f64) -> String {
    power_label(&v.log10().round())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_label_every_decade_they_can() {
        assert_eq!(log_ticks(-18.3, 0.4, 7), vec![-18.0, -15.0, -12.0, -9.0, -6.0, -3.0, 0.0]);
        assert_eq!(log_ticks(-3.2, 0.3, 6), vec![-3.0, -2.0, -1.0, 0.0]);
        let short: Vec<String> = log_ticks(-1.1, 0.2, 6).iter().map(power_label).collect();
        assert_eq!(short, ["0.1", "0.2", "0.5", "1"]);
        assert!(log_ticks(1.0, 1.0, 6).is_empty());
    }

    #[test]
    fn power_labels_read_as_numbers_below_one() {
        assert_eq!(power_label(&-18.0), "10⁻¹⁸");
        assert_eq!(power_label(&-3.0), "0.001");
        assert_eq!(power_label(&0.0), "1");
        assert_eq!(power_label(&5.0), "10⁵");
        assert_eq!(power_label(&2f64.log10()), "2");
        assert_eq!(power_label(&(-1.0 + 5f64.log10())), "0.5");
    }
}
