//! The one layout every chart returns: where it drew, in CSS pixels from the canvas's top-left
//! corner, so the page can map the pointer to a value, place a cursor, and test what it sees
//! (the texts' boxes become the canvas's `data-labels`).
//!
//! The chart protocol: a chart is a function `(canvas, data, dpr, colours) -> Result<Layout,
//! String>` that draws on the whole canvas (`width`/`height` in device pixels, `dpr` of them per
//! CSS pixel) and returns this layout; an error is a drawing failure, never bad input.

use crate::charts::canvas::TextBox;
use crate::charts::plot::Rect;
use serde::Serialize;

/// Where a chart drew (CSS px).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Layout {
    /// Left edge of the plot areas.
    pub x0: f64,
    /// Right edge of the plot areas.
    pub x1: f64,
    /// The x axis's value at `x0` (time, iteration or layer; 0 for a chart without such an axis).
    pub start: f64,
    /// The x axis's value at `x1`: a value `v` is at `x0 + (v - start) / (end - start) * (x1 - x0)`.
    pub end: f64,
    /// The stacked panels, top to bottom (one for a single plot).
    pub panels: Vec<Panel>,
    /// The plot area (of a single-plot chart), if drawn.
    pub plot: Option<Rect>,
    /// The legend band, if drawn.
    pub legend: Option<Rect>,
    /// Every text drawn (tick labels, titles, notes) with its ink box.
    pub labels: Vec<TextBox>,
}

/// One panel's plot area and the values it shows.
#[derive(Clone, Debug, Serialize)]
pub struct Panel {
    /// What the panel shows (`clusters`, `loss`, `residual`, ...).
    pub name: &'static str,
    /// Top edge of the plot area.
    pub y0: f64,
    /// Bottom edge of the plot area.
    pub y1: f64,
    /// Value at the bottom edge (NaN when the panel has no value axis or no data).
    pub v0: f64,
    /// Value at the top edge.
    pub v1: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dts::{fields_of, json_keys};

    /// A chart's layout has the fields `www/wasm_page.d.ts` declares (ChartLayout, ChartPanel,
    /// ChartRect, ChartText): a field renamed on one side only fails here.
    #[test]
    fn the_layout_is_what_wasm_page_d_ts_declares() {
        let rect = Rect { x: 1.0, y: 2.0, w: 3.0, h: 4.0 };
        let layout = Layout {
            panels: vec![Panel { name: "clusters", y0: 0.0, y1: 10.0, v0: f64::NAN, v1: 1.0 }],
            plot: Some(rect),
            legend: Some(rect),
            labels: vec![TextBox { text: "t".into(), x: 0.0, y: 0.0, w: 1.0, h: 1.0 }],
            ..Layout::default()
        };
        let v = serde_json::to_value(&layout).unwrap();
        assert_eq!(json_keys(&v), fields_of("ChartLayout"));
        assert_eq!(json_keys(&v["panels"][0]), fields_of("ChartPanel"));
        assert_eq!(json_keys(&v["plot"]), fields_of("ChartRect"));
        assert_eq!(json_keys(&v["labels"][0]), fields_of("ChartText"));
    }
}
