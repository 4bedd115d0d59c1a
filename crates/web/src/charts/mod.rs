//! The charts the page draws with plotters onto a canvas (drawing only, no science: every value
//! comes from the core). [`plot`] is what they share (themes, ticks, stacked panels, HiDPI
//! sizes), [`canvas`] the drawing backend (text measured by the canvas itself, which the page's
//! Content-Security-Policy allows), [`axes`], [`legend`] and [`plot_marks`] the common parts,
//! [`quiet`] a panel with nothing to say (one sentence instead of a flat line), [`clear_spot`]
//! where a label goes clear of the curves; [`heatmap`] turns
//! values into viridis pixels, [`pooled`] a matrix pooled once and coloured on any scale. One file
//! per lab's charts: [`particles`] (the metrics over time),
//! [`training`] (loss, entropy, `max |Δc|`, snap), [`sweep`] (entropy against `r`), [`depth`]
//! (histograms, same-sentence share, paths, spectrum) and [`depth_residual`] (rank collapse).
//! Every chart follows one protocol and returns one [`layout::Layout`] (where its axes, panels,
//! plot and legend are, and the boxes of the texts it drew, which the page sets as the canvas's
//! `data-labels` attribute).

pub mod axes;
pub mod canvas;
pub mod clear_spot;
pub mod depth;
pub mod depth_residual;
pub mod heatmap;
pub mod layout;
pub mod legend;
pub mod particles;
pub mod plot;
pub mod plot_marks;
pub mod pooled;
pub mod quiet;
pub mod sweep;
pub mod training;
