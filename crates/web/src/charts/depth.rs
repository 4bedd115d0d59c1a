//! The depth lab's plotters charts (science.md §3-4): relative residual against layer for the
//! four variants (linear or log), the |i - j| histograms of high-similarity pairs as a ridge
//! plot, the same-sentence share against layer with the chance level, the share of paths of each
//! length, and the singular values of one layer. Drawing only: every number comes from the
//! core's results ([`Series`]).

use crate::charts::axes::{self, log_ticks, power_label, Axes, Ticked};
use crate::charts::canvas::{Canvas, Texts};
use crate::charts::layout::Layout;
use crate::charts::legend::{band, draw_band, Entry};
use crate::charts::plot::{clamp_dpr, err, fit_text, note, root, theme, tick, Geometry, Rect, Theme};
use crate::charts::quiet;
use attn_core::collapse::similarity::LayerSimilarity;
use attn_core::depth::{PathLengths, VariantResult};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

/// One variant as the depth charts draw it, borrowed from the core's results: the depth lab's
/// `VariantResult` (with its `PathLengths` once computed), or a model curve and the model's
/// statistics. A NaN (an overflow) is left out of every curve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Series<'a> {
    /// The variant's label (`SAN`, `SAN+MLP`, `SAN+skip`, `transformer`, `configured`).
    pub label: &'a str,
    /// The relative residual of `X_l`, `l = 0..=L`.
    pub residual: &'a [f64],
    /// The singular values of each `X_l`, largest first.
    pub singular_values: &'a [Vec<f64>],
    /// The context-similarity statistics of layers `1..=L`.
    pub similarity: &'a [LayerSimilarity],
    /// The path-length decomposition, where there is one.
    pub paths: Option<&'a PathLengths>,
}

impl<'a> Series<'a> {
    /// A depth lab variant's result and its path lengths.
    pub fn of(r: &'a VariantResult, paths: Option<&'a PathLengths>) -> Series<'a> {
        Series {
            label: r.variant.label(),
            residual: &r.residual,
            singular_values: &r.singular_values,
            similarity: &r.similarity,
            paths,
        }
    }
}

/// The variants drawn, in the architectures' order.
pub type Results<'a> = [Series<'a>];

/// The colour of a variant: its architecture's series colour (core `architecture::order_of`),
/// whatever order the results arrive in; an unknown label takes `configured`'s.
pub fn colour(th: &Theme, label: &str) -> RGBColor {
    th.series[attn_core::architecture::order_of(label).unwrap_or(4)]
}

/// The depth lab's legend entry of variant `label`, what its layer does in that lab (core
/// `depth::Variant::legend`; empty for an unknown label).
pub fn legend_text(label: &str) -> &'static str {
    attn_core::depth::Variant::from_name(label).map_or("", attn_core::depth::Variant::legend)
}

/// The drawing area of a depth chart's canvas.
pub type Area = DrawingArea<Canvas, Shift>;

/// A chart's title at `x` along the top edge, made to fit the canvas ([`fit_text`]).
pub fn title(area: &Area, g: &Geometry, th: &Theme, text: &str, x: i32) -> Result<(), String> {
    let font = ("sans-serif", g.font * 1.05).into_font().color(&th.fg);
    let room = area.dim_in_pixel().0 as i32 - x - g.margin_r as i32;
    area.draw_text(&fit_text(area, &font, text, room), &font, (x, (g.font * 0.35) as i32)).map_err(err)
}

/// The canvas filled with the theme's background, the record of its texts, sizes and theme;
/// `None` when it is too small to draw on.
pub fn start(
    canvas: HtmlCanvasElement,
    dpr: f64,
    colours: &[u32],
) -> Result<Option<(Area, Texts, Geometry, Theme)>, String> {
    let (area, texts) = root(canvas)?;
    let th = theme(colours)?;
    area.fill(&th.bg).map_err(err)?;
    let (w, h) = area.dim_in_pixel();
    if w < 60 || h < 60 {
        return Ok(None);
    }
    Ok(Some((area, texts, Geometry::new(clamp_dpr(dpr)), th)))
}

/// The |i - j| histograms of one variant, one ridge per layer (each scaled to its own peak).
pub fn histograms(canvas: HtmlCanvasElement, r: Option<&Series>, dpr: f64, colours: &[u32]) -> Result<Layout, String> {
    let Some((area, texts, g, th)) = start(canvas, dpr, colours)? else {
        return Ok(Layout::default());
    };
    let layers = r.map_or(0, |r| r.similarity.len());
    if let Some(r) =
        r.filter(|r| layers > 0 && r.similarity.iter().all(|l| l.distance_histogram.iter().all(|&c| c == 0)))
    {
        return quiet::say(&area, &texts, &g, &th, &format!("{}: |i − j| per layer", r.label), NO_PAIRS);
    }
    let n = r.and_then(|r| r.similarity.first()).map_or(2, |l| l.distance_histogram.len().max(2));
    let mut chart = axes::builder(&area, &g, (g.font * 0.8) as u32)
        .build_cartesian_2d(0.0..(n - 1) as f64, 0.0..(layers.max(1) as f64 + 0.45))
        .map_err(err)?;
    let labels = layers.max(1);
    let step = labels.div_ceil(12).max(1);
    let x_desc = "|i − j| (token distance) of the high-similarity pairs";
    let frame = Axes { x_labels: 8, y_labels: 0, x_fmt: &axes::whole, x_desc, y_desc: None, y_fmt: None };
    axes::mesh(&mut chart, &g, &th, frame)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    if let Some(r) = r {
        let c = r.label;
        let base = colour(&th, c);
        let small = ("sans-serif", g.small()).into_font().color(&th.muted).pos(Pos::new(HPos::Right, VPos::Center));
        for (idx, layer) in r.similarity.iter().enumerate() {
            // Layer 1 at the top.
            let y0 = (layers - 1 - idx) as f64;
            let h = &layer.distance_histogram;
            let peak = h.iter().copied().max().unwrap_or(0).max(1) as f64;
            let mut pts: Vec<(f64, f64)> = vec![(0.0, y0)];
            pts.extend(h.iter().enumerate().skip(1).map(|(k, &v)| (k as f64, y0 + 1.4 * v as f64 / peak)));
            pts.push(((n - 1) as f64, y0));
            chart.draw_series(std::iter::once(Polygon::new(pts.clone(), th.bg.mix(1.0).filled()))).map_err(err)?;
            chart.draw_series(std::iter::once(Polygon::new(pts.clone(), base.mix(0.55).filled()))).map_err(err)?;
            chart
                .draw_series(LineSeries::new(pts[1..pts.len() - 1].iter().copied(), base.stroke_width(g.line(1.0))))
                .map_err(err)?;
            if idx % step == 0 || idx + 1 == layers {
                let (px, py) = chart.backend_coord(&(0.0, y0));
                area.draw_text(&format!("layer {}", layer.layer), &small, (px - (4.0 * g.dpr) as i32, py))
                    .map_err(err)?;
            }
        }
        title(&area, &g, &th, &format!("{}: |i − j| per layer", r.label), xr.start)?;
    } else {
        title(&area, &g, &th, "distance histogram per layer", xr.start)?;
        note(&area, &g, &th, "waiting for the variant's result…", ((xr.start + xr.end) / 2, (yr.start + yr.end) / 2))?;
    }
    area.present().map_err(err)?;
    Ok(Layout { plot: Some(Rect::of(&xr, &yr).css(g.dpr)), labels: texts.css(g.dpr), ..Layout::default() })
}

/// The same-sentence chart's title.
const SAME_TITLE: &str = "same-sentence share of the high-similarity pairs";

/// What the same-sentence panel says instead of a flat line when the tokens form one sentence.
pub const ONE_SENTENCE: &str =
    "All tokens are in one sentence, so every high-similarity pair is a same-sentence pair and \
     the share is 1 at every layer. Use input=text with several sentences, or sentences=, to compare with chance.";

/// What the singular-value panel says when X has one singular value (`d_model = 1`).
pub const ONE_SINGULAR_VALUE: &str =
    "X has a single singular value (d_model = 1): its ratio to the largest is 1 at every layer, nothing to compare.";

/// What the singular-value panel says when X is zero (or not finite) at the layer in every
/// variant (a LayerNorm of one coordinate, an overflow).
pub const ZERO_STATE: &str =
    "X is zero (or not finite) at this layer in every variant: it has no singular values to compare. Move the slider to another layer.";

/// What the distance panel says when the variant has no high-similarity pair in any layer.
pub const NO_PAIRS: &str =
    "No high-similarity pairs in any layer (see select, quantile, threshold): no distances to show.";

/// Same-sentence share against layer, one curve per variant, the chance level dashed; one
/// sentence ([`ONE_SENTENCE`]) instead when the tokens form one sentence (`chance` = 1).
pub fn same_sentence(
    canvas: HtmlCanvasElement,
    results: &Results,
    layers: usize,
    chance: f64,
    dpr: f64,
    colours: &[u32],
) -> Result<Layout, String> {
    let Some((area, texts, g, th)) = start(canvas, dpr, colours)? else {
        return Ok(Layout::default());
    };
    if chance >= 1.0 {
        // Every token in one sentence: every pair is a same-sentence pair, the share is 1.
        return quiet::say(&area, &texts, &g, &th, SAME_TITLE, ONE_SENTENCE);
    }
    let x_max = layers.max(1) as f64;
    let mut chart = axes::builder(&area, &g, 0).build_cartesian_2d(0.7..x_max + 0.3, 0.0..1.05).map_err(err)?;
    let frame = Axes {
        x_labels: layers.min(12),
        y_labels: 6,
        x_fmt: &axes::whole,
        x_desc: "layer l",
        y_desc: None,
        y_fmt: None,
    };
    axes::mesh(&mut chart, &g, &th, frame)?;
    if chance.is_finite() {
        let dash = (5.0 * g.dpr).round() as i32;
        let gap = (4.0 * g.dpr).round() as i32;
        chart
            .draw_series(DashedLineSeries::new(
                [(0.7, chance), (x_max + 0.3, chance)],
                dash,
                gap,
                th.muted.stroke_width(g.line(1.5)),
            ))
            .map_err(err)?;
        let (px, py) = chart.backend_coord(&(x_max + 0.3, chance));
        let style = ("sans-serif", g.small())
            .into_font()
            .color(&th.muted)
            .pos(Pos::new(HPos::Right, if chance > 0.85 { VPos::Top } else { VPos::Bottom }));
        let dy = if chance > 0.85 { 3.0 } else { -2.0 };
        area.draw_text(
            &format!("chance {}", tick(chance)),
            &style,
            (px - (3.0 * g.dpr) as i32, py + (dy * g.dpr) as i32),
        )
        .map_err(err)?;
    }
    let radius = (2.5 * g.dpr).round() as i32;
    for r in results {
        let c = colour(&th, r.label);
        let pts: Vec<(f64, f64)> = r
            .similarity
            .iter()
            .filter_map(|l| l.same_sentence.filter(|v| v.is_finite()).map(|v| (l.layer as f64, v)))
            .collect();
        chart.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(g.line(2.0)))).map_err(err)?;
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, radius, c.filled()))).map_err(err)?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    title(&area, &g, &th, SAME_TITLE, xr.start)?;
    area.present().map_err(err)?;
    Ok(Layout { plot: Some(Rect::of(&xr, &yr).css(g.dpr)), labels: texts.css(g.dpr), ..Layout::default() })
}

/// A legend band under the plot: laid out before the chart is built (its height is the
/// chart's bottom margin), drawn after.
fn legend_band(area: &Area, g: &Geometry, entries: &[Entry]) -> (crate::charts::legend::Band, i32) {
    let (w, _) = area.dim_in_pixel();
    let b = band(area, g, entries, &[], w as i32 - 2 * g.margin_r as i32);
    let margin = if b.height > 0 { b.height + (6.0 * g.dpr) as i32 } else { 0 };
    (b, margin)
}

/// Path shares `C(L,k) H^k / (H+1)^L` as bars; for variants with a decomposition, the share of
/// `sum_k ||S^(k)||_F` carried by each length as a line.
pub fn paths(
    canvas: HtmlCanvasElement,
    shares: &[f64],
    results: &Results,
    dpr: f64,
    colours: &[u32],
) -> Result<Layout, String> {
    let Some((area, texts, g, th)) = start(canvas, dpr, colours)? else {
        return Ok(Layout::default());
    };
    let k_max = shares.len().saturating_sub(1).max(1) as f64;
    let carried: Vec<(&Series, Vec<f64>)> = results
        .iter()
        .filter_map(|r| {
            let p = r.paths?;
            let total: f64 = p.norms.iter().filter(|v| v.is_finite()).sum();
            (total > 0.0).then(|| (r, p.norms.iter().map(|v| v / total).collect()))
        })
        .collect();
    let hi = shares
        .iter()
        .copied()
        .chain(carried.iter().flat_map(|(_, v)| v.iter().copied()))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let mut entries = vec![Entry {
        colour: th.muted,
        text: "bars: share of paths C(L,k) Hᵏ / (H+1)ᴸ".to_string(),
        short: "bars: share of paths".to_string(),
    }];
    for (r, _) in &carried {
        entries.push(Entry {
            colour: colour(&th, r.label),
            text: format!("{}: share of output norm", r.label),
            short: r.label.to_string(),
        });
    }
    let (lb, margin) = legend_band(&area, &g, &entries);
    let mut builder = axes::builder(&area, &g, 0);
    builder.margin_bottom(margin as u32);
    let mut chart = builder.build_cartesian_2d(-0.6..k_max + 0.6, 0.0..hi * 1.1).map_err(err)?;
    let x_desc = "path length k (attention layers a path goes through)";
    let x_labels = (k_max as usize + 1).min(13);
    axes::mesh(
        &mut chart,
        &g,
        &th,
        Axes { x_labels, y_labels: 5, x_fmt: &axes::whole, x_desc, y_desc: None, y_fmt: None },
    )?;
    chart
        .draw_series(
            shares.iter().enumerate().map(|(k, &s)| {
                Rectangle::new([(k as f64 - 0.35, 0.0), (k as f64 + 0.35, s)], th.muted.mix(0.45).filled())
            }),
        )
        .map_err(err)?;
    for (r, v) in &carried {
        let style = colour(&th, r.label).stroke_width(g.line(2.0));
        chart.draw_series(LineSeries::new(v.iter().enumerate().map(|(k, &y)| (k as f64, y)), style)).map_err(err)?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (_, h) = area.dim_in_pixel();
    let legend = draw_band(&area, &g, &th, &entries, &lb, (g.margin_r as i32, h as i32 - lb.height))?;
    title(&area, &g, &th, "paths through the skip connections", xr.start)?;
    area.present().map_err(err)?;
    Ok(Layout {
        plot: Some(Rect::of(&xr, &yr).css(g.dpr)),
        legend: legend.map(|r| r.css(g.dpr)),
        labels: texts.css(g.dpr),
        ..Layout::default()
    })
}

/// `σ_k(X_l) / σ_1(X_l)` of layer `layer` on a log axis (over `log10`, ticks at powers of ten),
/// one curve per variant.
pub fn spectrum(
    canvas: HtmlCanvasElement,
    results: &Results,
    layer: usize,
    dpr: f64,
    colours: &[u32],
) -> Result<Layout, String> {
    let Some((area, texts, g, th)) = start(canvas, dpr, colours)? else {
        return Ok(Layout::default());
    };
    let curves: Vec<(&Series, Vec<(f64, f64)>)> = results
        .iter()
        .filter_map(|r| {
            let sv = r.singular_values.get(layer)?;
            let s1 = sv.first().copied().filter(|v| v.is_finite() && *v > 0.0)?;
            Some((
                r,
                sv.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(k, v)| ((k + 1) as f64, v / s1)).collect(),
            ))
        })
        .collect();
    let title_text = format!("singular values σₖ / σ₁ of X{} (log)", subscript(layer as u64));
    if !curves.is_empty() && curves.iter().all(|(_, c)| c.len() == 1) {
        return quiet::say(&area, &texts, &g, &th, &title_text, ONE_SINGULAR_VALUE);
    }
    if curves.is_empty() && results.iter().any(|r| r.singular_values.len() > layer) {
        return quiet::say(&area, &texts, &g, &th, &title_text, ZERO_STATE);
    }
    let count = curves.iter().map(|(_, c)| c.len()).max().unwrap_or(2).max(2);
    let k_max = count as f64;
    let smallest =
        curves.iter().flat_map(|(_, c)| c.iter().map(|p| p.1)).filter(|v| *v > 0.0).fold(1.0f64, f64::min).max(1e-17);
    let lo_e = (smallest.log10() - 0.2).floor();
    let hi_e = 0.3;
    let entries: Vec<Entry> = curves
        .iter()
        .map(|(r, _)| Entry { colour: colour(&th, r.label), text: r.label.to_string(), short: r.label.to_string() })
        .collect();
    let (lb, margin) = legend_band(&area, &g, &entries);
    let mut builder = axes::builder(&area, &g, 0);
    builder.margin_bottom(margin as u32);
    let y = Ticked::new(lo_e..hi_e, log_ticks(lo_e, hi_e, 6));
    let mut chart = builder.build_cartesian_2d(1.0..k_max, y).map_err(err)?;
    let frame = Axes {
        x_labels: count.min(8),
        y_labels: 6,
        x_fmt: &axes::whole,
        x_desc: "k",
        y_desc: None,
        y_fmt: Some(&power_label),
    };
    axes::mesh(&mut chart, &g, &th, frame)?;
    for (r, pts) in &curves {
        let style = colour(&th, r.label).stroke_width(g.line(2.0));
        let at = |v: f64| if v > 0.0 { v.log10().max(lo_e) } else { lo_e };
        chart.draw_series(LineSeries::new(pts.iter().map(|&(k, v)| (k, at(v))), style)).map_err(err)?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (_, h) = area.dim_in_pixel();
    let legend = draw_band(&area, &g, &th, &entries, &lb, (g.margin_r as i32, h as i32 - lb.height))?;
    title(&area, &g, &th, &title_text, xr.start)?;
    area.present().map_err(err)?;
    Ok(Layout {
        plot: Some(Rect::of(&xr, &yr).css(g.dpr)),
        legend: legend.map(|r| r.css(g.dpr)),
        labels: texts.css(g.dpr),
        ..Layout::default()
    })
}

/// `k` in subscript digits (`X₁₂`): chart texts cannot hold a `<sub>`.
fn subscript(k: u64) -> String {
    const SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    k.to_string().chars().map(|c| SUB[c as usize - '0' as usize]).collect()
}
