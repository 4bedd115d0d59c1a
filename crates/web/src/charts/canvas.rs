//! The charts' drawing backend: plotters-canvas's `CanvasBackend` with text measured by the
//! canvas itself (`measureText`), and every text it draws recorded with its ink box ([`Texts`]),
//! so each chart can hand the page the rectangles of its labels (the page sets them as the
//! canvas's `data-labels` attribute; tests check that none intersect).
//!
//! plotters measures text on the web by inserting a `<span style="...">` into the page and
//! reading its size; a Content-Security-Policy without `'unsafe-inline'` styles (the page's, see
//! `crates/xtask/src/server.rs`) blocks that `style` attribute, so legends and axis titles were
//! laid out with wrong sizes and every measurement was reported as a CSP violation. Everything
//! else is drawn by `CanvasBackend` unchanged.

use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type Error = <CanvasBackend as DrawingBackend>::ErrorType;

/// A failed `measureText` (the canvas has no 2d context, or the call threw).
#[derive(Debug)]
struct MeasureError(String);

impl std::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "measureText: {}", self.0)
    }
}

impl std::error::Error for MeasureError {}

/// A text a chart drew: the axis-aligned box of its ink (`measureText`'s actual bounding box,
/// turned with the text when it is drawn rotated), `x, y` its top-left corner, `w, h` its size.
/// Device pixels as recorded; CSS px in what the charts return ([`Texts::css`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextBox {
    pub text: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The texts drawn on one [`Canvas`], in drawing order (a handle shared with the chart that
/// draws on it: the backend itself is owned by plotters' drawing area).
#[derive(Clone, Debug, Default)]
pub struct Texts(Rc<RefCell<Vec<TextBox>>>);

impl Texts {
    /// The texts drawn so far, in CSS pixels (`dpr` device pixels per CSS pixel).
    pub fn css(&self, dpr: f64) -> Vec<TextBox> {
        let k = if dpr > 0.0 { 1.0 / dpr } else { 1.0 };
        self.0
            .borrow()
            .iter()
            .map(|b| TextBox { text: b.text.clone(), x: b.x * k, y: b.y * k, w: b.w * k, h: b.h * k })
            .collect()
    }

    fn push(&self, b: TextBox) {
        self.0.borrow_mut().push(b);
    }
}

/// A canvas drawing backend (sizes in device pixels, as `CanvasBackend`).
pub struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    texts: Texts,
}

impl Canvas {
    /// The backend of `canvas`, or `None` when it has no 2d context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Canvas> {
        let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas { inner, context, texts: Texts::default() })
    }

    /// The record of the texts this backend draws.
    pub fn texts(&self) -> Texts {
        self.texts.clone()
    }

    /// The ink box of `text` drawn at `pos` in `style` (as `CanvasBackend::draw_text` draws it:
    /// the anchor's align and baseline, turned about `pos` by the style's rotation).
    fn ink_box<S: BackendTextStyle>(&self, text: &str, style: &S, pos: BackendCoord) -> Option<TextBox> {
        let ctx = &self.context;
        ctx.save();
        ctx.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        ctx.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        ctx.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        let m = ctx.measure_text(text);
        ctx.restore();
        let m = m.ok()?;
        let (l, r) = (-m.actual_bounding_box_left(), m.actual_bounding_box_right());
        let (t, b) = (-m.actual_bounding_box_ascent(), m.actual_bounding_box_descent());
        if ![l, r, t, b].iter().all(|v| v.is_finite()) {
            return None;
        }
        let (sin, cos) = match style.transform() {
            FontTransform::None => (0.0, 1.0),
            FontTransform::Rotate90 => (1.0, 0.0),
            FontTransform::Rotate180 => (0.0, -1.0),
            FontTransform::Rotate270 => (-1.0, 0.0),
        };
        let (x0, y0) = (pos.0 as f64, pos.1 as f64);
        let corners = [(l, t), (r, t), (l, b), (r, b)].map(|(u, v)| (x0 + u * cos - v * sin, y0 + u * sin + v * cos));
        let min_x = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let max_x = corners.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = corners.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        let max_y = corners.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
        Some(TextBox { text: text.to_string(), x: min_x, y: min_y, w: max_x - min_x, h: max_y - min_y })
    }
}

impl DrawingBackend for Canvas {
    type ErrorType = Error;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_path(path, style)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_text(text, style, pos)?;
        if !text.trim().is_empty() && style.color().alpha > 0.0 {
            if let Some(b) = self.ink_box(text, style, pos) {
                self.texts.push(b);
            }
        }
        Ok(())
    }

    /// Width and height (device pixels) of `text` in `style`'s font, unrotated: the advance
    /// width and the font's ascent plus descent, from the canvas's `measureText` with the font
    /// string `CanvasBackend::draw_text` sets.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Error>> {
        let font = format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str());
        self.context.save();
        self.context.set_font(&font);
        let metrics = self.context.measure_text(text);
        self.context.restore();
        let m = metrics.map_err(|e| DrawingErrorKind::FontError(Box::new(MeasureError(format!("{:?}", e)))))?;
        let height = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
        let height = if height.is_finite() && height > 0.0 { height } else { style.size() * 1.2 };
        Ok((m.width().max(0.0).ceil() as u32, height.ceil() as u32))
    }
}
