//! The charts the page draws with plotters onto a canvas (drawing only, no science: every value
//! comes from the core). [`plot`] is what they share (themes, ticks, stacked panels, HiDPI
//! sizes), [`canvas`] the drawing backend (text measured by the canvas itself, which the page's
//! Content-Security-Policy allows), [`axes`] and [`legend`] the common parts; [`heatmap`] turns
//! values into viridis pixels. One file per lab's charts: [`particles`] (the metrics over time),
//! [`training`] (loss, entropy, `max |Δc|`, snap), [`sweep`] (entropy against `r`), [`depth`]
//! (rank collapse, histograms, same-sentence share, paths, spectrum).

pub mod axes;
pub mod canvas;
pub mod depth;
pub mod heatmap;
pub mod legend;
pub mod particles;
pub mod plot;
pub mod sweep;
pub mod training;
