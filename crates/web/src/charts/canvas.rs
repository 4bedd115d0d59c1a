//! The charts' drawing backend: plotters-canvas's `CanvasBackend` with text measured by the
//! canvas itself (`measureText`).
//!
//! plotters measures text on the web by inserting a `<span style="...">` into the page and
//! reading its size; a Content-Security-Policy without `'unsafe-inline'` styles (the page's, see
//! `crates/xtask/src/server.rs`) blocks that `style` attribute, so legends and axis titles were
//! laid out with wrong sizes and every measurement was reported as a CSP violation. Everything
//! else is drawn by `CanvasBackend` unchanged.

use plotters::prelude::DrawingBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
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

/// A canvas drawing backend (sizes in device pixels, as `CanvasBackend`).
pub struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl Canvas {
    /// The backend of `canvas`, or `None` when it has no 2d context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Canvas> {
        let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas { inner, context })
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
        self.inner.draw_text(text, style, pos)
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
