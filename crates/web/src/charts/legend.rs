//! The charts' legend box (a short line and a text per entry), drawn by hand: every entry on its
//! own row, and text measured through the drawing backend (plotters' own series legend measures
//! text with a styled `<span>`, which the page's Content-Security-Policy blocks; see `canvas.rs`).

use crate::charts::canvas::Canvas;
use crate::charts::plot::{err, Geometry, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Height in pixels of a legend of `entries` rows drawn by [`legend`].
pub fn legend_height(g: &Geometry, entries: usize) -> i32 {
    let row = (g.font * 1.45) as i32;
    let pad = (6.0 * g.dpr) as i32;
    pad * 2 + row * entries as i32
}

/// A legend box (a short line and a text per entry) with its top-left corner at `(x, y)` of
/// `area` (pixels), or its top-right corner when `right`; drawn by hand so every line sits on its
/// own row.
pub fn legend(
    area: &DrawingArea<Canvas, Shift>,
    g: &Geometry,
    th: &Theme,
    entries: &[(RGBColor, String)],
    (x, y): (i32, i32),
    right: bool,
) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    let font = ("sans-serif", g.font).into_font().color(&th.fg);
    let row = (g.font * 1.45) as i32;
    let pad = (6.0 * g.dpr) as i32;
    let line = (18.0 * g.dpr) as i32;
    let text_w = entries
        .iter()
        .map(|(_, t)| area.estimate_text_size(t, &font).map(|s| s.0 as i32).unwrap_or(0))
        .max()
        .unwrap_or(0);
    let w = pad * 3 + line + text_w;
    let h = legend_height(g, entries.len());
    let x = if right { x - w } else { x };
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], th.bg.mix(0.88).filled())).map_err(err)?;
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], th.grid.stroke_width(g.line(1.0)))).map_err(err)?;
    let style = font.pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (c, t)) in entries.iter().enumerate() {
        let cy = y + pad + row * i as i32 + row / 2;
        area.draw(&PathElement::new(vec![(x + pad, cy), (x + pad + line, cy)], c.stroke_width(g.line(2.5))))
            .map_err(err)?;
        area.draw_text(t, &style, (x + pad * 2 + line, cy)).map_err(err)?;
    }
    Ok(())
}
