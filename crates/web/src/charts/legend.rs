//! The charts' legends, drawn by hand with text measured through the drawing backend (plotters'
//! own series legend measures text with a styled `<span>`, which the page's
//! Content-Security-Policy blocks; see `canvas.rs`): a box with an entry per row ([`legend`]),
//! or a band under the plot ([`band`], [`draw_band`]) whose entries flow left to right and wrap,
//! followed by notes in the muted colour, so a legend never covers a curve.

use crate::charts::canvas::Canvas;
use crate::charts::plot::{err, Geometry, Rect, Theme};
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

/// One entry of a [`band`]: a short line in `colour` and a text, with a shorter text for
/// narrow charts.
pub struct Entry {
    pub colour: RGBColor,
    pub text: String,
    pub short: String,
}

/// A band laid out for a width: where each entry goes (`x` offset, row), whether the short
/// texts are used, the notes' lines, and the band's height (device pixels).
pub struct Band {
    places: Vec<(i32, i32)>,
    short: bool,
    lines: Vec<String>,
    rows: i32,
    /// Height of the band in device pixels (0 when it holds nothing).
    pub height: i32,
}

fn row_h(g: &Geometry) -> i32 {
    (g.font * 1.45) as i32
}

fn mark_w(g: &Geometry) -> i32 {
    (18.0 * g.dpr) as i32
}

/// Lays out `entries` (left to right, wrapping; the short texts when the full ones would take
/// more than two rows or not fit) and then `notes` (word-wrapped) in `width` device pixels.
pub fn band(area: &DrawingArea<Canvas, Shift>, g: &Geometry, entries: &[Entry], notes: &[String], width: i32) -> Band {
    let font = ("sans-serif", g.font).into_font().color(&BLACK);
    let text_w = |t: &str| area.estimate_text_size(t, &font).map(|s| s.0 as i32).unwrap_or(0);
    let gap = (6.0 * g.dpr) as i32;
    let flow = |short: bool| {
        let (mut x, mut row, mut places, mut fits) = (0, 0, Vec::new(), true);
        for e in entries {
            let w = mark_w(g) + gap + text_w(if short { &e.short } else { &e.text });
            fits &= w <= width;
            if x > 0 && x + w > width {
                x = 0;
                row += 1;
            }
            places.push((x, row));
            x += w + gap * 3;
        }
        let rows = if entries.is_empty() { 0 } else { row + 1 };
        (places, rows, fits)
    };
    let (mut places, mut rows, fits) = flow(false);
    let short = !fits || rows > 2;
    if short {
        (places, rows) = {
            let (p, r, _) = flow(true);
            (p, r)
        };
    }
    let mut lines = Vec::new();
    for note in notes {
        let mut line = String::new();
        for word in note.split(' ') {
            let next = if line.is_empty() { word.to_string() } else { format!("{} {}", line, word) };
            if !line.is_empty() && text_w(&next) > width {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = next;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    let total = rows + lines.len() as i32;
    let height = if total == 0 { 0 } else { row_h(g) * total + (4.0 * g.dpr) as i32 };
    Band { places, short, lines, rows, height }
}

/// Draws `band` (laid out by [`band`] for `entries`) with its top-left corner at `(x, y)` of
/// `area`; returns the rectangle it covers (device pixels), `None` when it is empty.
pub fn draw_band(
    area: &DrawingArea<Canvas, Shift>,
    g: &Geometry,
    th: &Theme,
    entries: &[Entry],
    band: &Band,
    (x, y): (i32, i32),
) -> Result<Option<Rect>, String> {
    if band.height == 0 {
        return Ok(None);
    }
    let font = ("sans-serif", g.font).into_font().color(&th.fg);
    let gap = (6.0 * g.dpr) as i32;
    let row = row_h(g);
    let style = font.clone().pos(Pos::new(HPos::Left, VPos::Center));
    let mut right = x;
    for (e, &(dx, r)) in entries.iter().zip(&band.places) {
        let cy = y + row * r + row / 2;
        let x0 = x + dx;
        area.draw(&PathElement::new(vec![(x0, cy), (x0 + mark_w(g), cy)], e.colour.stroke_width(g.line(2.5))))
            .map_err(err)?;
        let text = if band.short { &e.short } else { &e.text };
        area.draw_text(text, &style, (x0 + mark_w(g) + gap, cy)).map_err(err)?;
        let w = area.estimate_text_size(text, &font).map(|s| s.0 as i32).unwrap_or(0);
        right = right.max(x0 + mark_w(g) + gap + w);
    }
    let muted = ("sans-serif", g.font).into_font().color(&th.muted).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, line) in band.lines.iter().enumerate() {
        let cy = y + row * (band.rows + i as i32) + row / 2;
        area.draw_text(line, &muted, (x, cy)).map_err(err)?;
        let w = area.estimate_text_size(line, &font).map(|s| s.0 as i32).unwrap_or(0);
        right = right.max(x + w);
    }
    Ok(Some(Rect { x: x as f64, y: y as f64, w: (right - x) as f64, h: band.height as f64 }))
}
