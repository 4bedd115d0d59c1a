//! The sweep plot: final distinct-token entropy (mean ± std over seeds) against
//! `r = eta_Y / eta_Z` on a log axis, one curve per `eta_Z`, with the uniform-attention entropy
//! as a dashed reference. Drawing only: the numbers come from the core's `run_cell`.

use crate::charts::axes::{self, Axes};
use crate::charts::layout::Layout;
use crate::charts::legend::{legend, legend_height};
use crate::charts::plot::{clamp_dpr, err, note, root, theme, tick, Geometry, Rect};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

/// Draws the finished cells (`eta_z`, `ratio`, `mean`, `std` aligned) on `canvas`.
#[allow(clippy::too_many_arguments)]
pub fn draw(
    canvas: HtmlCanvasElement,
    eta_z: &[f64],
    ratio: &[f64],
    mean: &[f64],
    std: &[f64],
    reference: f64,
    dpr: f64,
    colours: &[u32],
) -> Result<Layout, String> {
    let dpr = clamp_dpr(dpr);
    let (root, texts) = root(canvas)?;
    let th = theme(colours)?;
    root.fill(&th.bg).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    if w < 60 || h < 60 {
        return Ok(Layout::default());
    }
    let g = Geometry::new(dpr);
    let n = eta_z.len().min(ratio.len()).min(mean.len()).min(std.len());
    let ok = |i: &usize| ratio[*i] > 0.0 && mean[*i].is_finite() && std[*i].is_finite();
    let cells: Vec<usize> = (0..n).filter(ok).collect();

    // Curves: one per eta_Z, in order of first appearance, points sorted by ratio.
    let mut groups: Vec<(f64, Vec<usize>)> = Vec::new();
    for &i in &cells {
        match groups.iter_mut().find(|(e, _)| *e == eta_z[i]) {
            Some((_, v)) => v.push(i),
            None => groups.push((eta_z[i], vec![i])),
        }
    }
    for (_, v) in groups.iter_mut() {
        v.sort_by(|&a, &b| ratio[a].total_cmp(&ratio[b]));
    }

    let (r_lo, r_hi) =
        cells.iter().map(|&i| ratio[i]).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), r| (a.min(r), b.max(r)));
    let (r_lo, r_hi) = if r_lo.is_finite() { (r_lo, r_hi) } else { (1.0, 10.0) };
    let x_range = (r_lo / 1.5)..(r_hi * 1.5);
    // Ticks at the grid's r values (or 1, 10 before any cell has finished).
    let mut ticks: Vec<f64> = cells.iter().map(|&i| ratio[i]).collect();
    ticks.sort_by(f64::total_cmp);
    ticks.dedup();
    if ticks.is_empty() {
        ticks = vec![1.0, 10.0];
    }
    let (lo, hi) = cells
        .iter()
        .flat_map(|&i| [mean[i] - std[i], mean[i] + std[i]])
        .chain(std::iter::once(reference))
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 0.5, lo + 0.5)
    } else {
        (0.0, 2.5)
    };
    let pad = ((hi - lo) * 0.1).max(0.02);

    let mut chart = axes::builder(&root, &g, (g.font * 1.3) as u32)
        .build_cartesian_2d(x_range.clone().log_scale().with_key_points(ticks), (lo - pad).max(0.0)..hi + pad)
        .map_err(err)?;
    let x_fmt = |v: &f64| tick(*v);
    let x_desc = "ratio r of the learning rates of Y and Z (log scale)";
    axes::mesh(
        &mut chart,
        &g,
        &th,
        Axes { x_labels: 8, y_labels: 6, x_fmt: &x_fmt, x_desc, y_desc: Some("final entropy (nats)"), y_fmt: None },
    )?;

    // The uniform-attention reference.
    if reference.is_finite() {
        let dash = (5.0 * dpr).round() as i32;
        let gap = (4.0 * dpr).round() as i32;
        chart
            .draw_series(DashedLineSeries::new(
                [(x_range.start, reference), (x_range.end, reference)],
                dash,
                gap,
                th.muted.stroke_width(g.line(1.5)),
            ))
            .map_err(err)?;
        let (px, py) = chart.backend_coord(&(x_range.end, reference));
        let style = ("sans-serif", g.small()).into_font().color(&th.muted).pos(Pos::new(HPos::Right, VPos::Bottom));
        // Within the plot's width (a narrow chart drops the parenthesis, then cuts the text).
        let (xr, _) = chart.plotting_area().get_pixel_range();
        let room = px - (3.0 * dpr) as i32 - xr.start;
        let text = crate::charts::plot::fit_text(
            &root,
            &style,
            &format!("uniform attention (Z = 0): {}", tick(reference)),
            room,
        );
        root.draw_text(&text, &style, (px - (3.0 * dpr) as i32, py - (2.0 * dpr) as i32)).map_err(err)?;
    }

    // Curves, offset sideways a little (×1.03 per curve) so the error bars stay apart.
    let k = groups.len() as f64;
    let radius = (3.5 * dpr).round() as i32;
    let bar = (8.0 * dpr).round() as u32;
    let mut entries = Vec::new();
    for (j, (e, idx)) in groups.iter().enumerate() {
        let colour = th.series[j % th.series.len()];
        entries.push((colour, format!("eta_z = {}", tick(*e))));
        let shift = 1.03f64.powf(j as f64 - (k - 1.0) / 2.0);
        let pts: Vec<(f64, f64)> = idx.iter().map(|&i| (ratio[i] * shift, mean[i])).collect();
        let style = colour.stroke_width(g.line(2.0));
        chart.draw_series(LineSeries::new(pts.iter().copied(), style)).map_err(err)?;
        chart
            .draw_series(idx.iter().map(|&i| {
                ErrorBar::new_vertical(
                    ratio[i] * shift,
                    mean[i] - std[i],
                    mean[i],
                    mean[i] + std[i],
                    colour.stroke_width(g.line(1.5)),
                    bar,
                )
            }))
            .map_err(err)?;
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, radius, colour.filled()))).map_err(err)?;
    }
    let title = ("sans-serif", g.font * 1.05).into_font().color(&th.fg);
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    // The legend in the lower right corner of the plot.
    let margin = (6.0 * dpr) as i32;
    let corner = (xr.end - margin, yr.end - margin - legend_height(&g, entries.len()));
    legend(&root, &g, &th, &entries, corner, true)?;
    let room = root.dim_in_pixel().0 as i32 - xr.start - g.margin_r as i32;
    let heading =
        crate::charts::plot::fit_text(&root, &title, "final distinct-token entropy (mean ± std over seeds)", room);
    root.draw_text(&heading, &title, (xr.start, (g.font * 0.35) as i32)).map_err(err)?;
    if groups.is_empty() {
        note(
            &root,
            &g,
            &th,
            &crate::charts::plot::fit_text(
                &root,
                &("sans-serif", g.font).into_font().color(&th.muted),
                "no finished cells yet",
                xr.end - xr.start,
            ),
            ((xr.start + xr.end) / 2, yr.start + (yr.end - yr.start) * 3 / 4),
        )?;
    }
    root.present().map_err(err)?;
    Ok(Layout {
        x0: xr.start as f64 / dpr,
        x1: xr.end as f64 / dpr,
        plot: Some(Rect::of(&xr, &yr).css(dpr)),
        labels: texts.css(dpr),
        ..Layout::default()
    })
}
