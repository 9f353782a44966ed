//! PNG pictures: the SVG rendered in pure Rust (`resvg`), with the one font compiled into the
//! program, so that a PNG looks the same on every machine whatever fonts it has (a fresh Debian
//! may have none).

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::PictureError;

/// DejaVu Sans cut down to the characters pictures use (printable ASCII, γ, ×, −, ⌈ ⌉ and a few
/// more); made by `scripts/subset_font.sh`, licence in `assets/fonts/`.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
const FONT_NAME: &str = "DejaVu Sans";

/// Pixels per SVG pixel: twice the picture's size, sharp when pasted into a document or shown
/// on a high-density screen.
pub const PNG_SCALE: f32 = 2.0;

/// No side longer than this: a 32×32 heatmap pair stays a picture, not a poster.
const MAX_SIDE_PIXELS: f32 = 4096.0;

fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            // Whatever family a picture asks for, this is the font there is.
            db.set_sans_serif_family(FONT_NAME);
            db.set_serif_family(FONT_NAME);
            db.set_monospace_family(FONT_NAME);
            Arc::new(db)
        })
        .clone()
}

/// Render an SVG document to PNG bytes at [`PNG_SCALE`] times its size (less for a very large
/// picture, so that no side exceeds 4096 pixels).
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Render(e.to_string()))?;
    let size = tree.size();
    let scale = PNG_SCALE.min(MAX_SIDE_PIXELS / size.width().max(size.height()));
    let width = (size.width() * scale).ceil() as u32;
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or_else(|| {
        PictureError::Render(format!("cannot make a {width}x{height} pixel image"))
    })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PictureError::Render(e.to_string()))
}
