//! A panel with nothing to say: its title and one sentence saying why, wrapped to the canvas,
//! instead of axes around a flat line (a same-sentence share that is 1 by construction, one
//! singular value). Drawing only.

use crate::charts::canvas::{Canvas, Texts};
use crate::charts::layout::Layout;
use crate::charts::plot::{err, fit_text, Geometry, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Draws `title` at the top left and `sentence` word-wrapped in the middle of `area` (already
/// filled with the theme's background), then presents it. The layout has no plot, only the texts
/// drawn (CSS px).
pub fn say(
    area: &DrawingArea<Canvas, Shift>,
    texts: &Texts,
    g: &Geometry,
    th: &Theme,
    title: &str,
    sentence: &str,
) -> Result<Layout, String> {
    let (w, h) = area.dim_in_pixel();
    let x0 = 2 * g.margin_r as i32;
    let head = ("sans-serif", g.font * 1.05).into_font().color(&th.fg);
    let title = fit_text(area, &head, title, w as i32 - x0 - g.margin_r as i32);
    area.draw_text(&title, &head, (x0, (g.font * 0.35) as i32)).map_err(err)?;
    let body = ("sans-serif", g.font * 1.1).into_font().color(&th.muted).pos(Pos::new(HPos::Center, VPos::Top));
    let room = (w as i32 - 2 * x0).max(1);
    let lines = wrap(sentence, |t| area.estimate_text_size(t, &body).map_or(0, |s| s.0 as i32) <= room);
    let line_h = (g.font * 1.5) as i32;
    let top = (h as i32 - line_h * lines.len() as i32) / 2;
    for (k, line) in lines.iter().enumerate() {
        area.draw_text(line, &body, (w as i32 / 2, top + k as i32 * line_h)).map_err(err)?;
    }
    area.present().map_err(err)?;
    Ok(Layout { labels: texts.css(g.dpr), ..Layout::default() })
}

/// `text` split at spaces into lines that `fits` accepts (a word too long for a line gets a line
/// of its own).
fn wrap(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = if line.is_empty() { word.to_string() } else { format!("{} {}", line, word) };
        if line.is_empty() || fits(&longer) {
            line = longer;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_at_spaces_within_the_room() {
        let lines = wrap("one two three four five", |t| t.len() <= 9);
        assert_eq!(lines, vec!["one two", "three", "four five"]);
        assert_eq!(wrap("", |_| true), Vec::<String>::new());
        assert_eq!(wrap("averyveryverylongword x", |t| t.len() <= 5), vec!["averyveryverylongword", "x"]);
    }
}
