//! The training lab's chart: loss, distinct-token entropy and `max |Δc|` against iteration,
//! drawn with plotters in three stacked panels, with dashed references (`ln M`, the
//! uniform-attention entropy, `snap_tol`) and the snap iteration. Drawing only, no science.

use crate::charts::axes::power_of_ten;
use crate::charts::layout::{Layout, Panel};
use crate::charts::plot::{clamp_dpr, panel, readout, root, theme, Geometry, PanelSpec, RefLine};
use plotters::prelude::*;
use std::ops::Range;
use web_sys::HtmlCanvasElement;

/// What the chart shows (every number from the core's record).
pub struct Data<'a> {
    /// Batch loss of iteration `i` (at state `i`), nats.
    pub loss: &'a [f64],
    /// Distinct-token entropy of state `i`, nats.
    pub entropy: &'a [f64],
    /// `max |Δc|` of iteration `i`.
    pub max_dc: &'a [f64],
    /// Right end of the iteration axis.
    pub x_max: usize,
    /// `ln M`: the loss of a zero-initialised model.
    pub ln_m: f64,
    /// Distinct-token entropy of uniform attention (`Z = 0`).
    pub uniform_entropy: f64,
    pub snap_tol: f64,
    /// The snap iteration, if any.
    pub snap: Option<usize>,
    /// Whether `snap` is the final criterion (run finished) or the live one.
    pub snap_final: bool,
}

/// Draws `d` on `canvas` (`width`/`height` in device pixels, `dpr` per CSS px).
pub fn draw(canvas: HtmlCanvasElement, d: &Data, dpr: f64, colours: &[u32]) -> Result<Layout, String> {
    let dpr = clamp_dpr(dpr);
    let (root, texts) = root(canvas)?;
    let th = theme(colours)?;
    root.fill(&th.bg).map_err(crate::charts::plot::err)?;
    let (w, h) = root.dim_in_pixel();
    let empty = Layout::default();
    if w < 40 || h < 40 {
        return Ok(empty);
    }
    let g = Geometry::new(dpr);
    let x1 = d.x_max.max(1) as f64;
    let x: Range<f64> = 0.0..x1;
    let ph = (h.saturating_sub(g.x_label) / 3) as i32;
    let (a0, rest) = root.split_vertically(ph);
    let (a1, a2) = rest.split_vertically(ph);
    let px = |r: &Range<i32>| (r.start as f64 / dpr, r.end as f64 / dpr);
    let layout = |name: &'static str, yr: &Range<i32>| {
        let (y0, y1) = px(yr);
        Panel { name, y0, y1, v0: f64::NAN, v1: f64::NAN }
    };
    let last = |v: &[f64]| v.last().copied().unwrap_or(f64::NAN);
    let iters = |n: usize| (0..n).map(|i| i as f64).collect::<Vec<f64>>();
    let snap_line = |label: bool| -> Vec<RefLine> {
        d.snap
            .map(|s| RefLine {
                at: s as f64,
                colour: th.series[1],
                label: if !label {
                    String::new()
                } else if d.snap_final {
                    format!("snap: iteration {}", s)
                } else {
                    format!("snap (so far): iteration {}", s)
                },
            })
            .into_iter()
            .collect()
    };
    let mut panels = Vec::new();

    // Loss, from 0 to the largest seen (at least ln M).
    let t_loss = iters(d.loss.len());
    let top = d.loss.iter().copied().filter(|v| v.is_finite()).fold(d.ln_m, f64::max) * 1.3;
    let hl = [RefLine { at: d.ln_m, colour: th.muted, label: format!("ln M = {}", readout(d.ln_m)) }];
    let vl = snap_line(true);
    let title = format!("loss (nats): {}", readout(last(d.loss)));
    let spec = PanelSpec { hlines: &hl, vlines: &vl, ..PanelSpec::new("loss", title, &t_loss, d.loss, th.series[0]) };
    let (xr, yr) = panel(&a0, &g, &th, &spec, x.clone(), 0.0..top)?;
    panels.push(layout(spec.name, &yr));

    // Distinct-token entropy, with the uniform-attention reference.
    let t_h = iters(d.entropy.len());
    let (lo, hi) = d
        .entropy
        .iter()
        .copied()
        .chain(std::iter::once(d.uniform_entropy))
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.12).max(0.02);
    let pad_top = ((hi - lo) * 0.25).max(0.04);
    let hl = [RefLine {
        at: d.uniform_entropy,
        colour: th.muted,
        label: format!("uniform attention (Z = 0): {}", readout(d.uniform_entropy)),
    }];
    let vl = snap_line(false);
    let title = format!("distinct-token entropy (nats): {}", readout(last(d.entropy)));
    let spec =
        PanelSpec { hlines: &hl, vlines: &vl, ..PanelSpec::new("entropy", title, &t_h, d.entropy, th.series[2]) };
    let (_, yr) = panel(&a1, &g, &th, &spec, x.clone(), (lo - pad).max(0.0)..hi + pad_top)?;
    panels.push(layout(spec.name, &yr));

    // max |Δc| on a log scale, with the snap threshold; zeros drawn at the floor.
    let t_dc = iters(d.max_dc.len());
    let min_pos = d.max_dc.iter().copied().filter(|v| v.is_finite() && *v > 0.0).fold(d.snap_tol, f64::min);
    let floor = 10f64.powf((min_pos / 2.0).log10().floor()).max(1e-16);
    let hl = [RefLine { at: d.snap_tol, colour: th.muted, label: format!("snap_tol = {}", readout(d.snap_tol)) }];
    let title = format!("max |Δc| per iteration: {}", readout(last(d.max_dc)));
    let spec = PanelSpec {
        show_x: true,
        x_desc: "iteration",
        y_fmt: &power_of_ten,
        clamp: &|v| v.max(floor),
        hlines: &hl,
        vlines: &vl,
        ..PanelSpec::new("max_dc", title, &t_dc, d.max_dc, th.series[3])
    };
    let (_, yr) = panel(&a2, &g, &th, &spec, x.clone(), (floor..1.0).log_scale())?;
    panels.push(layout(spec.name, &yr));

    root.present().map_err(crate::charts::plot::err)?;
    let (x0, x1p) = px(&xr);
    Ok(Layout { x0, x1: x1p, start: 0.0, end: x1, panels, plot: None, legend: None, labels: texts.css(dpr) })
}
