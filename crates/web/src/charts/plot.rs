//! What the charts drawn with plotters share: the theme (the page's CSS colours), tick and readout
//! labels, sizes scaled by the device pixel ratio, and one stacked panel (a series over a linear
//! x axis, its title, dashed reference lines). Drawing only, no science.

use crate::charts::canvas::{Canvas, Texts};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
use web_sys::HtmlCanvasElement;

/// Colours of a chart.
pub struct Theme {
    pub bg: RGBColor,
    pub fg: RGBColor,
    pub muted: RGBColor,
    pub grid: RGBColor,
    /// Series colours, used in order (Okabe-Ito in the page's stylesheet: colour-blind safe).
    pub series: [RGBColor; 7],
}

/// How many colours a chart's theme takes: background, text, muted text, grid lines, then the
/// series colours ([`theme`]).
pub const THEME_COLOURS: usize = 4 + 7;

/// The chart theme of the page's stylesheet: `colours` are `0xRRGGBB` values of its CSS custom
/// properties `--panel`, `--fg`, `--muted`, `--chart-grid`, `--series-1` … `--series-7`
/// (render/palette.js `chartColours`, which reads them for the theme shown). An error names what
/// is missing when there are not [`THEME_COLOURS`] of them.
pub fn theme(colours: &[u32]) -> Result<Theme, String> {
    let rgb = |c: u32| RGBColor((c >> 16) as u8, (c >> 8) as u8, c as u8);
    match colours {
        [bg, fg, muted, grid, series @ ..] if series.len() == 7 => Ok(Theme {
            bg: rgb(*bg),
            fg: rgb(*fg),
            muted: rgb(*muted),
            grid: rgb(*grid),
            series: std::array::from_fn(|k| rgb(series[k])),
        }),
        _ => Err(format!(
            "chart colours: {} given; {} are needed (--panel, --fg, --muted, --chart-grid, --series-1 … --series-7)",
            colours.len(),
            THEME_COLOURS
        )),
    }
}

/// Shortest readable label of a tick value.
pub fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        return format!("{:.0e}", v);
    }
    let s = format!("{:.3}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Label of tick value `v` on an axis whose ticks are about `step` apart: enough digits to tell
/// neighbouring ticks apart (a nearly constant series has ticks that [`tick`] would print alike),
/// exponent form for values below 1e-3 or from 1e5 on.
pub fn span_label(v: f64, step: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return tick(v);
    }
    let step = if step.is_finite() && step > 0.0 { step } else { v.abs() };
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let digits = ((a / step).log10().ceil() as i64).clamp(0, 12) as usize;
        return format!("{:.*e}", digits, v);
    }
    let decimals = ((-step.log10()).ceil() as i64 + 1).clamp(0, 12) as usize;
    let s = format!("{:.*}", decimals, v);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Readout of a value in a panel title.
pub fn readout(v: f64) -> String {
    if v.is_nan() {
        "–".into()
    } else if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e5) {
        format!("{:.2e}", v)
    } else {
        let s = format!("{:.4}", v);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `text` made to fit `room` device pixels in `font` on `area`'s canvas: first without its
/// parenthesised parts (last first), then cut short with "…".
pub fn fit_text<CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<Canvas, CT>,
    font: &TextStyle,
    text: &str,
    room: i32,
) -> String {
    let fits = |t: &str| area.estimate_text_size(t, font).map_or(true, |s| s.0 as i32 <= room);
    let mut shown = text.to_string();
    while !fits(&shown) {
        match (shown.rfind(" ("), shown.rfind(')')) {
            (Some(a), Some(b)) if a < b => shown.replace_range(a..=b, ""),
            _ => break,
        }
    }
    while !fits(&shown) {
        let mut chars: Vec<char> = shown.trim_end_matches('…').chars().collect();
        if chars.pop().is_none() {
            break;
        }
        shown = format!("{}…", chars.iter().collect::<String>().trim_end());
    }
    shown
}

/// A plotters error as a message.
pub fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("chart: {:?}", e)
}

/// Device pixels per CSS pixel, made safe (finite, in [0.5, 4]; 1 otherwise).
pub fn clamp_dpr(dpr: f64) -> f64 {
    if dpr.is_finite() && dpr > 0.0 {
        dpr.clamp(0.5, 4.0)
    } else {
        1.0
    }
}

/// The drawing area of a canvas (`width`/`height` in device pixels) and the record of the
/// texts drawn on it.
pub fn root(canvas: HtmlCanvasElement) -> Result<(DrawingArea<Canvas, Shift>, Texts), String> {
    let backend = Canvas::new(canvas).ok_or("chart: the canvas has no 2d context")?;
    let texts = backend.texts();
    Ok((backend.into_drawing_area(), texts))
}

/// A rectangle: top-left corner `(x, y)`, width `w`, height `h` (device or CSS pixels, as said
/// where it is used).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// The rectangle of pixel ranges `xr`, `yr`.
    pub fn of(xr: &Range<i32>, yr: &Range<i32>) -> Rect {
        Rect { x: xr.start as f64, y: yr.start as f64, w: (xr.end - xr.start) as f64, h: (yr.end - yr.start) as f64 }
    }

    /// This rectangle in CSS pixels (from device pixels, `dpr` per CSS pixel).
    pub fn css(self, dpr: f64) -> Rect {
        Rect { x: self.x / dpr, y: self.y / dpr, w: self.w / dpr, h: self.h / dpr }
    }
}

/// Sizes in device pixels (fonts and label areas scale with `dpr`: plotters-canvas has no
/// HiDPI support of its own).
pub struct Geometry {
    pub dpr: f64,
    pub font: f64,
    pub y_label: u32,
    pub x_label: u32,
    pub title_h: u32,
    pub margin_r: u32,
}

impl Geometry {
    /// The font of a chart's secondary texts (notes, reference lines' labels): 11 CSS px, the
    /// smallest text the page draws.
    pub fn small(&self) -> f64 {
        11.0 * self.dpr
    }

    /// The page's chart sizes at `dpr` device pixels per CSS pixel (12 px font).
    pub fn new(dpr: f64) -> Geometry {
        let font = 12.0 * dpr;
        Geometry {
            dpr,
            font,
            y_label: (46.0 * dpr) as u32,
            x_label: (34.0 * dpr) as u32,
            title_h: (font * 1.6) as u32,
            margin_r: (12.0 * dpr) as u32,
        }
    }

    /// Line width in device pixels of a `css` px line.
    pub fn line(&self, css: f64) -> u32 {
        (css * self.dpr).round().max(1.0) as u32
    }
}

/// A dashed reference line with a short label (horizontal at a value, or vertical at an x).
pub struct RefLine {
    pub at: f64,
    pub colour: RGBColor,
    pub label: String,
}

/// One panel: a series `y` against `t`, its title, and optional reference lines.
pub struct PanelSpec<'a> {
    pub name: &'static str,
    pub title: String,
    pub t: &'a [f64],
    pub y: &'a [f64],
    pub colour: RGBColor,
    pub show_x: bool,
    /// Description of the x axis, shown under the panel when `show_x`.
    pub x_desc: &'a str,
    /// Tick label of a value.
    pub y_fmt: &'a dyn Fn(&f64) -> String,
    /// Value drawn for a sample (e.g. zero lifted to the floor of a log axis).
    pub clamp: &'a dyn Fn(f64) -> f64,
    /// Horizontal dashed lines at values of the y axis (labelled at the right end).
    pub hlines: &'a [RefLine],
    /// Vertical dashed lines at x values (labelled at the top).
    pub vlines: &'a [RefLine],
}

impl<'a> PanelSpec<'a> {
    /// A panel of `y` against `t` without x tick labels: y ticks by [`tick`], values drawn as
    /// they are, no reference lines.
    pub fn new(name: &'static str, title: String, t: &'a [f64], y: &'a [f64], colour: RGBColor) -> PanelSpec<'a> {
        PanelSpec {
            name,
            title,
            t,
            y,
            colour,
            show_x: false,
            x_desc: "",
            y_fmt: &tick_label,
            clamp: &same,
            hlines: &[],
            vlines: &[],
        }
    }
}

fn tick_label(v: &f64) -> String {
    tick(*v)
}

fn same(v: f64) -> f64 {
    v
}

/// How many tick labels fit along `room` device pixels when each needs `each` of them: between
/// 1 and `most` (narrow and short charts draw fewer labels, never overlapping ones; 2 when
/// the room is unknown).
pub fn label_count(room: f64, each: f64, most: usize) -> usize {
    if !(room.is_finite() && each > 0.0) {
        return 2.min(most.max(1));
    }
    ((room / each).floor() as usize).clamp(1, most.max(1))
}

/// Draws one panel with value axis `y_range`; returns its plot area's pixel ranges.
pub fn panel<Y>(
    area: &DrawingArea<Canvas, Shift>,
    g: &Geometry,
    th: &Theme,
    spec: &PanelSpec,
    x_range: Range<f64>,
    y_range: Y,
) -> Result<(Range<i32>, Range<i32>), String>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let font = ("sans-serif", g.font).into_font().color(&th.fg);
    // Tick labels that fit the panel: about 4.5 em apart along x, 2.2 lines apart along y.
    let (aw, ah) = area.dim_in_pixel();
    let plot_w = aw as f64 - g.y_label as f64 - g.margin_r as f64;
    let below = if spec.show_x { g.x_label as f64 } else { g.font * 0.6 };
    let plot_h = ah as f64 - g.title_h as f64 - below;
    let x_labels = label_count(plot_w, g.font * 4.5, 6);
    let y_labels = label_count(plot_h, g.font * 1.5, 4);
    let mut chart = ChartBuilder::on(area)
        .margin_top(g.title_h)
        .margin_right(g.margin_r)
        .margin_bottom(if spec.show_x { (3.0 * g.dpr) as u32 } else { (g.font * 0.6) as u32 })
        .x_label_area_size(if spec.show_x { g.x_label } else { 0 })
        .y_label_area_size(g.y_label)
        .build_cartesian_2d(x_range.clone(), y_range)
        .map_err(err)?;
    let lw = g.line(1.0);
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(spec.y_fmt)
        .label_style(font.clone())
        .axis_style(th.muted.stroke_width(lw))
        .bold_line_style(th.grid.stroke_width(lw))
        .light_line_style(TRANSPARENT)
        .x_desc(if spec.show_x { spec.x_desc } else { "" })
        .axis_desc_style(font.clone())
        .draw()
        .map_err(err)?;

    // Reference lines under the series.
    let y_lo_hi = chart.y_range();
    let dash = (5.0 * g.dpr).round() as i32;
    let gap = (4.0 * g.dpr).round() as i32;
    let small = ("sans-serif", g.small()).into_font();
    // The boxes of the horizontal lines' labels (area pixels: x0, y0, x1, y1), which the
    // vertical lines' labels keep clear of.
    let mut taken: Vec<(i32, i32, i32, i32)> = Vec::new();
    for h in spec.hlines.iter().filter(|h| h.at.is_finite()) {
        let style = h.colour.stroke_width(g.line(1.5));
        let y = (spec.clamp)(h.at);
        chart
            .draw_series(DashedLineSeries::new([(x_range.start, y), (x_range.end, y)], dash, gap, style))
            .map_err(err)?;
        let (px, py) = chart.backend_coord(&(x_range.end, y));
        let (ax, ay) = area.get_pixel_range();
        // Above the line, or below it when the line runs too close to the top of the canvas.
        let above = py - ay.start > (g.font * 1.2) as i32;
        let (vpos, dy) = if above { (VPos::Bottom, -(2.0 * g.dpr)) } else { (VPos::Top, 2.0 * g.dpr) };
        let text = small.clone().color(&h.colour).pos(Pos::new(HPos::Right, vpos));
        let at = (px - ax.start - (3.0 * g.dpr) as i32, py - ay.start + dy as i32);
        // Within the plot's width: a narrow chart shortens the label rather than covering ticks.
        let plot_left = chart.plotting_area().get_pixel_range().0.start - ax.start;
        let label = fit_text(area, &text, &h.label, at.0 - plot_left);
        area.draw_text(&label, &text, at).map_err(err)?;
        let (tw, th_) = area.estimate_text_size(&label, &text).map_err(err)?;
        let top = if above { at.1 - th_ as i32 } else { at.1 };
        taken.push((at.0 - tw as i32, top, at.0, top + th_ as i32));
    }
    for v in spec.vlines.iter().filter(|v| v.at.is_finite()) {
        let style = v.colour.stroke_width(g.line(1.5));
        chart
            .draw_series(DashedLineSeries::new([(v.at, y_lo_hi.start), (v.at, y_lo_hi.end)], dash, gap, style))
            .map_err(err)?;
        if !v.label.is_empty() {
            let (px, py) = chart.backend_coord(&(v.at, y_lo_hi.end));
            let (ax, ay) = area.get_pixel_range();
            // Label to the right of the line, or to its left near the right edge.
            let (xr, _) = chart.plotting_area().get_pixel_range();
            let right = (px as f64) < xr.start as f64 + 0.7 * (xr.end - xr.start) as f64;
            let text =
                small.clone().color(&v.colour).pos(Pos::new(if right { HPos::Left } else { HPos::Right }, VPos::Top));
            let dx = (4.0 * g.dpr) as i32 * if right { 1 } else { -1 };
            let x = px - ax.start + dx;
            let room = if right { xr.end - ax.start - x } else { x - (xr.start - ax.start) };
            let shown = fit_text(area, &text, &v.label, room);
            let (tw, th_) = area.estimate_text_size(&shown, &text).map_err(err)?;
            let (x0, x1) = if right { (x, x + tw as i32) } else { (x - tw as i32, x) };
            let mut y = py - ay.start + (2.0 * g.dpr) as i32;
            // Below any horizontal line's label it would cross.
            for &(a0, b0, a1, b1) in &taken {
                if x0 < a1 && a0 < x1 && y < b1 && b0 < y + th_ as i32 {
                    y = b1 + (2.0 * g.dpr) as i32;
                }
            }
            area.draw_text(&shown, &text, (x, y)).map_err(err)?;
        }
    }

    let style = spec.colour.stroke_width(g.line(2.0));
    // Split the series where values are not finite (e.g. rank of an overflowed P).
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for (&t, &y) in spec.t.iter().zip(spec.y) {
        if y.is_finite() {
            run.push((t, (spec.clamp)(y)));
        } else if !run.is_empty() {
            runs.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    for r in &runs {
        chart.draw_series(LineSeries::new(r.iter().copied(), style)).map_err(err)?;
    }
    if let Some(&(t, y)) = runs.last().and_then(|r| r.last()) {
        let radius = (3.0 * g.dpr).round() as i32;
        chart.draw_series(std::iter::once(Circle::new((t, y), radius, spec.colour.filled()))).map_err(err)?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (ax, ay) = area.get_pixel_range();
    let title = ("sans-serif", g.font * 1.05).into_font().color(&th.fg);
    let room = aw as i32 - (xr.start - ax.start) - g.margin_r as i32;
    let shown = fit_text(area, &title, &spec.title, room);
    area.draw_text(
        &shown,
        &title,
        (xr.start - ax.start, (g.font * 0.35) as i32 + (yr.start - ay.start) - g.title_h as i32),
    )
    .map_err(err)?;
    Ok((xr, yr))
}

/// A centred note in `area` at pixel `(cx, cy)` (area coordinates), in the muted colour.
pub fn note(
    area: &DrawingArea<Canvas, Shift>,
    g: &Geometry,
    th: &Theme,
    text: &str,
    (cx, cy): (i32, i32),
) -> Result<(), String> {
    let style = ("sans-serif", g.font).into_font().color(&th.muted).pos(Pos::new(HPos::Center, VPos::Center));
    area.draw_text(text, &style, (cx, cy)).map_err(err)
}
