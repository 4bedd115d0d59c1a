//! The metrics chart: the core's metrics [`History`] drawn with plotters onto a canvas (stacked panels sharing the time axis). Drawing only, no science.

use crate::charts::axes::power_of_ten;
use crate::charts::layout::{Layout, Panel};
use crate::charts::plot::RefLine;
use crate::charts::plot::{clamp_dpr, err, panel, readout, root, span_label, theme, Geometry, PanelSpec};
use crate::charts::plot_marks::shade_spans;
use attn_core::particles::analysis::history::History;
use plotters::prelude::*;
use std::ops::Range;
use web_sys::HtmlCanvasElement;

/// The theorems drawn on the chart (the view key `overlays`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// Shade the plateaus of the count (`plateaus`).
    pub plateaus: bool,
    /// A dashed line at the Boolean distance's limit 0 (`leaders`).
    pub boolean_limit: bool,
    /// The step whose sample the titles read (the state shown; see [`draw`]).
    pub shown: u64,
}

/// Draws the history on `canvas` (whose `width`/`height` are device pixels, `dpr` per CSS px):
/// stacked panels — the count (`hyperplanes` where the run has it, else clusters), Boolean
/// distance (log scale), effective rank, and the interaction energy where it is defined (sphere
/// models with Q = K = V = I; no row otherwise) — over `t` in `[0, t_max]`, with the `marks`
/// asked for. The titles read the sample at step `marks.shown` (the latest at or before it: the
/// state the page shows, which the timeline may have put before the last sample).
pub fn draw(
    canvas: HtmlCanvasElement,
    h: &History,
    t_max: f64,
    dpr: f64,
    colours: &[u32],
    energy_defined: bool,
    marks: Marks,
) -> Result<Layout, String> {
    let dpr = clamp_dpr(dpr);
    let (root, texts) = root(canvas)?;
    let th = theme(colours)?;
    root.fill(&th.bg).map_err(err)?;
    let (w, hgt) = root.dim_in_pixel();
    if w < 40 || hgt < 40 {
        return Ok(Layout::default());
    }
    let g = Geometry::new(dpr);
    let t1 = if t_max.is_finite() && t_max > 0.0 { t_max } else { 1.0 };
    let x = 0.0..t1;
    let at = h.step.partition_point(|&s| s <= marks.shown).max(1) - 1;
    let last = |v: &[f64]| v.get(at).copied().unwrap_or(f64::NAN);
    // Panels of equal plot height (four with the energy, else three); the last one also holds
    // the time axis labels.
    let count = if energy_defined { 4 } else { 3 };
    let ph = (hgt.saturating_sub(g.x_label) / count) as i32;
    let (a0, rest) = root.split_vertically(ph);
    let (a1, rest) = rest.split_vertically(ph);
    let (a2, a3) = if energy_defined { rest.split_vertically(ph) } else { (rest.clone(), rest) };
    let areas = [a0, a1, a2, a3];
    let mut panels = Vec::new();
    let px = |r: &Range<i32>| (r.start as f64 / dpr, r.end as f64 / dpr);

    // The count: whole numbers from 0 to the largest seen (at least 2); hyperplanes where the
    // run's psi1 is defined (the theorem's count), else clusters.
    let (counted, counts) = h.counts();
    let cmax = counts.iter().copied().filter(|v| v.is_finite()).fold(1.0f64, f64::max);
    let plateaus = if marks.plateaus { h.plateaus() } else { Vec::new() };
    let title = if plateaus.is_empty() {
        format!("{}: {}", counted, readout(last(counts)))
    } else {
        format!("{}: {} (plateaus ≥ 10 shaded)", counted, readout(last(counts)))
    };
    let spec = PanelSpec {
        y_fmt: &|v| {
            if v.fract() == 0.0 {
                format!("{}", *v as i64)
            } else {
                String::new()
            }
        },
        ..PanelSpec::new(counted, title, &h.t, counts, th.series[0])
    };
    let c_top = (cmax * 1.1).ceil().max(2.0);
    let (xr, yr) = panel(&areas[0], &g, &th, &spec, x.clone(), 0.0..c_top)?;
    let spans: Vec<(f64, f64)> = plateaus.iter().map(|p| (p.t0, p.t1)).collect();
    shade_spans(&areas[0], &spans, 0.0..t1, &xr, &yr, th.series[0])?;
    let (y0, y1) = px(&yr);
    panels.push(Panel { name: spec.name, y0, y1, v0: 0.0, v1: c_top });
    let xr_all = xr;

    // Boolean distance on a log scale: 0.5 at most; exact zeros drawn at the floor 1e-16.
    const FLOOR: f64 = 1e-16;
    let title = format!("Boolean distance max|P − round P|: {}", readout(last(&h.boolean_distance)));
    let limit = [RefLine { at: 0.0, colour: th.muted, label: "limit 0 (P Boolean)".into() }];
    let spec = PanelSpec {
        y_fmt: &power_of_ten,
        clamp: &|v| v.max(FLOOR),
        hlines: if marks.boolean_limit { &limit } else { &[] },
        ..PanelSpec::new("boolean_distance", title, &h.t, &h.boolean_distance, th.series[1])
    };
    let (_, yr) = panel(&areas[1], &g, &th, &spec, x.clone(), (FLOOR..1.0).log_scale())?;
    let (y0, y1) = px(&yr);
    panels.push(Panel { name: spec.name, y0, y1, v0: FLOOR, v1: 1.0 });

    // Effective rank: from 1 to the largest seen.
    let rmax = h.effective_rank.iter().copied().filter(|v| v.is_finite()).fold(2.0f64, f64::max);
    let r_top = rmax * 1.08;
    let title = format!("effective rank of P: {}", readout(last(&h.effective_rank)));
    let spec = PanelSpec {
        show_x: !energy_defined,
        x_desc: "t (time units)",
        ..PanelSpec::new("effective_rank", title, &h.t, &h.effective_rank, th.series[2])
    };
    let (_, yr) = panel(&areas[2], &g, &th, &spec, x.clone(), 0.0..r_top)?;
    let (y0, y1) = px(&yr);
    panels.push(Panel { name: spec.name, y0, y1, v0: 0.0, v1: r_top });
    if !energy_defined {
        root.present().map_err(err)?;
        let (x0, x1) = px(&xr_all);
        return Ok(Layout { x0, x1, start: 0.0, end: t1, panels, plot: None, legend: None, labels: texts.css(dpr) });
    }

    // Interaction energy, or the note saying when it is defined.
    let (lo, hi) = h
        .energy
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let has_energy = lo.is_finite();
    // A constant (or nearly constant) energy gets a padded range: at least ±0.5% of its
    // value (±0.5 at 0), so the tick labels read apart.
    let (e0, e1) = if has_energy {
        let scale = hi.abs().max(lo.abs());
        let half = ((hi - lo) * 0.58).max(if scale > 0.0 { 5e-3 * scale } else { 0.5 });
        let mid = (lo + hi) / 2.0;
        (mid - half, mid + half)
    } else {
        (0.0, 1.0)
    };
    let energy_label = move |v: &f64| if has_energy { span_label(*v, (e1 - e0) / 4.0) } else { String::new() };
    let title = format!("interaction energy Eᵦ: {}", readout(last(&h.energy)));
    let (t, y): (&[f64], &[f64]) = if has_energy { (&h.t, &h.energy) } else { (&[], &[]) };
    let spec = PanelSpec {
        show_x: true,
        x_desc: "t (time units)",
        y_fmt: &energy_label,
        ..PanelSpec::new("energy", title, t, y, th.series[3])
    };
    let (_, yr) = panel(&areas[3], &g, &th, &spec, x.clone(), e0..e1)?;
    let (y0, y1) = px(&yr);
    panels.push(Panel {
        name: spec.name,
        y0,
        y1,
        v0: if has_energy { e0 } else { f64::NAN },
        v1: if has_energy { e1 } else { f64::NAN },
    });
    root.present().map_err(err)?;
    let (x0, x1) = px(&xr_all);
    Ok(Layout { x0, x1, start: 0.0, end: t1, panels, plot: None, legend: None, labels: texts.css(dpr) })
}
