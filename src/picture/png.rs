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

/// The largest scale `--scale` may ask for: 16 pixels per SVG pixel is already 1536 DPI.
pub const MAX_PNG_SCALE: f32 = 16.0;

/// An explicit scale may make sides up to this long; beyond, the picture is refused.
const MAX_SCALED_SIDE: f32 = 16384.0;

/// Render an SVG document to PNG bytes at [`PNG_SCALE`] times its size (less for a very large
/// picture, so that no side exceeds 4096 pixels).
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let tree = parse(svg)?;
    let size = tree.size();
    let scale = PNG_SCALE.min(MAX_SIDE_PIXELS / size.width().max(size.height()));
    render(&tree, scale)
}

/// Render an SVG document to PNG bytes at exactly `scale` pixels per SVG pixel (0 < `scale` ≤
/// [`MAX_PNG_SCALE`], and no side longer than 16384 pixels).
pub fn svg_to_png_scaled(svg: &str, scale: f32) -> Result<Vec<u8>, PictureError> {
    if !(scale > 0.0 && scale <= MAX_PNG_SCALE) {
        return Err(PictureError::Render(format!(
            "a PNG scale must be above 0 and at most {MAX_PNG_SCALE}, not {scale}"
        )));
    }
    let tree = parse(svg)?;
    let size = tree.size();
    let side = size.width().max(size.height()) * scale;
    if side > MAX_SCALED_SIDE {
        return Err(PictureError::Render(format!(
            "at scale {scale} the picture would be {} pixels across, more than {MAX_SCALED_SIDE}",
            side.ceil()
        )));
    }
    render(&tree, scale)
}

pub(super) fn parse(svg: &str) -> Result<usvg::Tree, PictureError> {
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Render(e.to_string()))
}

fn render(tree: &usvg::Tree, scale: f32) -> Result<Vec<u8>, PictureError> {
    let size = tree.size();
    let width = (size.width() * scale).ceil() as u32;
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or_else(|| {
        PictureError::Render(format!("cannot make a {width}x{height} pixel image"))
    })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap, scale)
}

/// PNG bytes of an opaque pixmap, with a pHYs chunk saying 96 × `scale` pixels per inch: an SVG
/// pixel is 1/96 inch, so the PNG prints at the SVG's size whatever its scale.
fn encode(pixmap: &tiny_skia::Pixmap, scale: f32) -> Result<Vec<u8>, PictureError> {
    let error = |e: png::EncodingError| PictureError::Render(e.to_string());
    let per_metre = (96.0 * scale as f64 / 0.0254).round() as u32;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: per_metre,
        yppu: per_metre,
        unit: png::Unit::Meter,
    }));
    let mut writer = encoder.write_header().map_err(error)?;
    // The background is filled white first, so every pixel is opaque and the pixmap's
    // premultiplied colours are the plain ones.
    writer.write_image_data(pixmap.data()).map_err(error)?;
    writer.finish().map_err(error)?;
    Ok(bytes)
}
