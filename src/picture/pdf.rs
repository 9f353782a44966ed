//! Vector PDF, written here: a page is a content stream of filled and stroked paths (rectangles,
//! lines, Bézier curves, circles as four Bézier arcs) and text in the standard Type 1 fonts every
//! PDF reader has (Helvetica, Helvetica-Bold, Symbol for γ, − and ≥), so nothing is embedded. A
//! picture's SVG is read by `usvg` (shapes resolved to paths, transforms to matrices) and drawn
//! onto one page, so a PDF shows what the SVG and PNG show. The file is PDF 1.4, its streams
//! deflated, with a cross-reference table whose offsets the tests parse.

use std::fmt::Write as _;
use std::io::Write as _;

use resvg::usvg;
use usvg::tiny_skia_path::PathSegment;

use super::png::parse;
use super::PictureError;

/// Points per SVG pixel: a pixel is 1/96 inch, a point 1/72.
pub const POINTS_PER_PIXEL: f64 = 0.75;

/// The fonts a page may use, by resource name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Font {
    Helvetica,
    HelveticaBold,
    Symbol,
}

impl Font {
    fn resource(self) -> &'static str {
        match self {
            Font::Helvetica => "F1",
            Font::HelveticaBold => "F2",
            Font::Symbol => "F3",
        }
    }
}

/// Widths of Helvetica's printable ASCII (32..=126), in thousandths of an em (its AFM file).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// Widths of Helvetica-Bold's printable ASCII.
const HELVETICA_BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// A character as a standard font can show it: the font, its code, its width in thousandths.
fn glyph(c: char, bold: bool) -> (Font, u8, u16) {
    let text_font = if bold {
        Font::HelveticaBold
    } else {
        Font::Helvetica
    };
    let widths = if bold { &HELVETICA_BOLD } else { &HELVETICA };
    match c {
        ' '..='~' => (text_font, c as u8, widths[c as usize - 32]),
        // WinAnsiEncoding.
        '×' => (text_font, 0xD7, 584),
        '·' => (text_font, 0xB7, 278),
        '…' => (text_font, 0x85, 1000),
        '–' => (text_font, 0x96, 556),
        '—' => (text_font, 0x97, 1000),
        '\u{a0}' => (text_font, 0xA0, 278),
        // The Symbol font's own encoding.
        'γ' => (Font::Symbol, b'g', 411),
        '−' => (Font::Symbol, 0x2D, 549),
        '≤' => (Font::Symbol, 0xA3, 549),
        '≥' => (Font::Symbol, 0xB3, 549),
        // Symbol has only the pieces of tall brackets (readers without the real font draw
        // nothing for them): square brackets read as well.
        '⌈' | '⌊' => (text_font, b'[', widths[b'[' as usize - 32]),
        '⌉' | '⌋' => (text_font, b']', widths[b']' as usize - 32]),
        _ => (text_font, b'?', widths[b'?' as usize - 32]),
    }
}

/// How wide `text` is in a standard font at `size`.
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    text.chars().map(|c| glyph(c, bold).2 as f64).sum::<f64>() * size / 1000.0
}

/// A number as PDF writes it: at most three decimals, no exponent.
fn n(value: f64) -> String {
    let text = format!("{:.3}", value);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// One page being drawn: a content stream in PDF's own units (points, y up), though the
/// methods take the picture's pixels with y down, as SVG has them.
#[derive(Debug, Clone)]
pub struct Page {
    width: f64,
    height: f64,
    content: String,
}

/// Where a text's x is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Start,
    Middle,
    End,
}

/// An sRGB colour, each channel 0..=255.
pub type Colour = (u8, u8, u8);

fn colour(c: Colour) -> String {
    format!(
        "{} {} {}",
        n(c.0 as f64 / 255.0),
        n(c.1 as f64 / 255.0),
        n(c.2 as f64 / 255.0)
    )
}

/// A circle's control points lie this far (times the radius) along the tangents: the usual
/// four-arc approximation, within 0.03 % of the radius.
const KAPPA: f64 = 0.552_284_75;

impl Page {
    /// A page `width` × `height` pixels, white.
    pub fn new(width: f64, height: f64) -> Page {
        let mut content = String::new();
        // Pixels to points, and y downwards from the top-left corner as in SVG.
        let _ = writeln!(
            content,
            "{} 0 0 {} 0 {} cm",
            n(POINTS_PER_PIXEL),
            n(-POINTS_PER_PIXEL),
            n(height * POINTS_PER_PIXEL)
        );
        Page {
            width,
            height,
            content,
        }
    }

    /// Save the graphics state and multiply the matrix by (a b c d e f), as SVG's `matrix()`.
    pub fn push(&mut self, m: [f64; 6]) {
        let _ = writeln!(
            self.content,
            "q {} {} {} {} {} {} cm",
            n(m[0]),
            n(m[1]),
            n(m[2]),
            n(m[3]),
            n(m[4]),
            n(m[5])
        );
    }

    /// Restore the state saved by the matching [`Page::push`].
    pub fn pop(&mut self) {
        self.content.push_str("Q\n");
    }

    pub fn move_to(&mut self, x: f64, y: f64) {
        let _ = writeln!(self.content, "{} {} m", n(x), n(y));
    }

    pub fn line_to(&mut self, x: f64, y: f64) {
        let _ = writeln!(self.content, "{} {} l", n(x), n(y));
    }

    pub fn curve_to(&mut self, c1: (f64, f64), c2: (f64, f64), to: (f64, f64)) {
        let _ = writeln!(
            self.content,
            "{} {} {} {} {} {} c",
            n(c1.0),
            n(c1.1),
            n(c2.0),
            n(c2.1),
            n(to.0),
            n(to.1)
        );
    }

    pub fn close(&mut self) {
        self.content.push_str("h\n");
    }

    /// A rectangle as a closed subpath.
    pub fn rect(&mut self, x: f64, y: f64, width: f64, height: f64) {
        let _ = writeln!(
            self.content,
            "{} {} {} {} re",
            n(x),
            n(y),
            n(width),
            n(height)
        );
    }

    /// A circle as four Bézier arcs.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64) {
        let k = KAPPA * r;
        self.move_to(cx + r, cy);
        self.curve_to((cx + r, cy + k), (cx + k, cy + r), (cx, cy + r));
        self.curve_to((cx - k, cy + r), (cx - r, cy + k), (cx - r, cy));
        self.curve_to((cx - r, cy - k), (cx - k, cy - r), (cx, cy - r));
        self.curve_to((cx + k, cy - r), (cx + r, cy - k), (cx + r, cy));
        self.close();
    }

    /// Paint the path drawn since the last paint: filled (even-odd or non-zero), stroked, or
    /// both, in these colours; a stroke `width` pixels wide with round or mitred joins.
    pub fn paint(&mut self, fill: Option<(Colour, bool)>, stroke: Option<(Colour, f64, bool)>) {
        if let Some((c, _)) = fill {
            let _ = writeln!(self.content, "{} rg", colour(c));
        }
        if let Some((c, width, round)) = stroke {
            let _ = writeln!(
                self.content,
                "{} RG {} w {} j",
                colour(c),
                n(width),
                if round { 1 } else { 0 }
            );
        }
        let op = match (fill, stroke) {
            (Some((_, true)), Some(_)) => "B*",
            (Some((_, false)), Some(_)) => "B",
            (Some((_, true)), None) => "f*",
            (Some((_, false)), None) => "f",
            (None, Some(_)) => "S",
            (None, None) => "n",
        };
        self.content.push_str(op);
        self.content.push('\n');
    }

    /// A line of text whose baseline is at `y`, aligned on `x`, in Helvetica (or bold), with
    /// the characters Helvetica lacks (γ, −, ⌈ ⌉, …) from Symbol.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        align: Align,
        fill: Colour,
        bold: bool,
        text: &str,
    ) {
        let width = text_width(text, size, bold);
        let x = match align {
            Align::Start => x,
            Align::Middle => x - width / 2.0,
            Align::End => x - width,
        };
        // The page's y axis points down: the text matrix turns the glyphs upright again.
        let _ = write!(
            self.content,
            "BT {} rg 1 0 0 -1 {} {} Tm",
            colour(fill),
            n(x),
            n(y)
        );
        let mut run: Option<Font> = None;
        for c in text.chars() {
            let (font, code, _) = glyph(c, bold);
            if run != Some(font) {
                if run.is_some() {
                    self.content.push_str(") Tj");
                }
                let _ = write!(self.content, " /{} {} Tf (", font.resource(), n(size));
                run = Some(font);
            }
            match code {
                b'(' | b')' | b'\\' => {
                    self.content.push('\\');
                    self.content.push(code as char);
                }
                32..=126 => self.content.push(code as char),
                _ => {
                    let _ = write!(self.content, "\\{code:03o}");
                }
            }
        }
        if run.is_some() {
            self.content.push_str(") Tj");
        }
        self.content.push_str(" ET\n");
    }
}

/// A PDF text string: ASCII as a literal, anything else as UTF-16 with its byte order mark.
fn text_string(text: &str) -> String {
    if text.chars().all(|c| (' '..='~').contains(&c)) {
        let escaped: String = text
            .chars()
            .flat_map(|c| match c {
                '(' | ')' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        format!("({escaped})")
    } else {
        let mut hex = String::from("<FEFF");
        for unit in text.encode_utf16() {
            let _ = write!(hex, "{unit:04X}");
        }
        hex.push('>');
        hex
    }
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// The pages as one PDF file, titled `title` in its document information.
pub fn document(pages: &[Page], title: &str) -> Vec<u8> {
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets: Vec<usize> = Vec::new();
    let mut object = |out: &mut Vec<u8>, body: &[u8]| {
        offsets.push(out.len());
        let _ = writeln!(out, "{} 0 obj", offsets.len());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    };
    // 1 catalog, 2 page tree, 3-5 fonts, 6 information, then a page and its content for each.
    let first_page = 7;
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", first_page + 2 * i))
        .collect();
    object(&mut out, b"<< /Type /Catalog /Pages 2 0 R >>");
    object(
        &mut out,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            pages.len()
        )
        .as_bytes(),
    );
    // Symbol's widths of the codes pictures use, so that a reader that draws Symbol with another
    // font still advances by Symbol's widths (poppler without the font set γ onto the next word).
    let symbol_widths = {
        let mut widths = vec![500u16; 256 - 32];
        widths[0] = 250;
        for c in ['γ', '−', '≤', '≥'] {
            let (_, code, width) = glyph(c, false);
            widths[code as usize - 32] = width;
        }
        let widths: Vec<String> = widths.iter().map(u16::to_string).collect();
        format!(
            " /FirstChar 32 /LastChar 255 /Widths [{}]",
            widths.join(" ")
        )
    };
    for (name, encoding) in [
        ("Helvetica", " /Encoding /WinAnsiEncoding"),
        ("Helvetica-Bold", " /Encoding /WinAnsiEncoding"),
        ("Symbol", symbol_widths.as_str()),
    ] {
        object(
            &mut out,
            format!("<< /Type /Font /Subtype /Type1 /BaseFont /{name}{encoding} >>").as_bytes(),
        );
    }
    object(
        &mut out,
        format!(
            "<< /Title {} /Producer (queendom {}) >>",
            text_string(title),
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    for (i, page) in pages.iter().enumerate() {
        let content = first_page + 2 * i + 1;
        object(
            &mut out,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents {content} 0 R >>",
                n(page.width * POINTS_PER_PIXEL),
                n(page.height * POINTS_PER_PIXEL)
            )
            .as_bytes(),
        );
        let stream = deflate(page.content.as_bytes());
        let mut body = format!(
            "<< /Length {} /Filter /FlateDecode >>\nstream\n",
            stream.len()
        )
        .into_bytes();
        body.extend_from_slice(&stream);
        body.extend_from_slice(b"\nendstream");
        object(&mut out, &body);
    }
    let xref = out.len();
    let _ = write!(out, "xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
    for offset in &offsets {
        let _ = writeln!(out, "{offset:010} 00000 n ");
    }
    let _ = write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        offsets.len() + 1
    );
    out
}

/// An SVG document as a one-page PDF of the same size, titled with the SVG's `<title>`.
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, PictureError> {
    let page = svg_page(svg)?;
    Ok(document(&[page], &svg_title(svg)))
}

/// The text of an SVG's first `<title>`, unescaped (the five XML entities), or nothing.
fn svg_title(svg: &str) -> String {
    let Some(start) = svg.find("<title>") else {
        return String::new();
    };
    let rest = &svg[start + "<title>".len()..];
    let end = rest.find("</title>").unwrap_or(rest.len());
    rest[..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// An SVG document drawn onto a page of its size.
pub fn svg_page(svg: &str) -> Result<Page, PictureError> {
    let tree = parse(svg)?;
    let size = tree.size();
    let mut page = Page::new(size.width() as f64, size.height() as f64);
    draw_group(&mut page, tree.root());
    Ok(page)
}

fn paint_colour(paint: &usvg::Paint) -> Option<Colour> {
    match paint {
        usvg::Paint::Color(c) => Some((c.red, c.green, c.blue)),
        // Pictures use plain colours only; a gradient or pattern is drawn in its place in grey.
        _ => Some((128, 128, 128)),
    }
}

fn draw_group(page: &mut Page, group: &usvg::Group) {
    let t = group.transform();
    let identity = t.is_identity();
    if !identity {
        page.push([
            t.sx as f64,
            t.ky as f64,
            t.kx as f64,
            t.sy as f64,
            t.tx as f64,
            t.ty as f64,
        ]);
    }
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => draw_group(page, g),
            usvg::Node::Path(p) => draw_path(page, p),
            usvg::Node::Text(t) => draw_text(page, t),
            usvg::Node::Image(_) => {}
        }
    }
    if !identity {
        page.pop();
    }
}

fn draw_path(page: &mut Page, path: &usvg::Path) {
    if !path.is_visible() {
        return;
    }
    let fill = path
        .fill()
        .and_then(|f| paint_colour(f.paint()).map(|c| (c, f.rule() == usvg::FillRule::EvenOdd)));
    let stroke = path.stroke().and_then(|s| {
        paint_colour(s.paint()).map(|c| {
            (
                c,
                s.width().get() as f64,
                s.linejoin() == usvg::LineJoin::Round,
            )
        })
    });
    if fill.is_none() && stroke.is_none() {
        return;
    }
    let mut last = (0.0, 0.0);
    for segment in path.data().segments() {
        match segment {
            PathSegment::MoveTo(p) => {
                page.move_to(p.x as f64, p.y as f64);
                last = (p.x as f64, p.y as f64);
            }
            PathSegment::LineTo(p) => {
                page.line_to(p.x as f64, p.y as f64);
                last = (p.x as f64, p.y as f64);
            }
            PathSegment::QuadTo(c, p) => {
                // A quadratic curve is the cubic with its control points 2/3 of the way to c.
                let (c, p) = ((c.x as f64, c.y as f64), (p.x as f64, p.y as f64));
                let c1 = (
                    last.0 + 2.0 / 3.0 * (c.0 - last.0),
                    last.1 + 2.0 / 3.0 * (c.1 - last.1),
                );
                let c2 = (p.0 + 2.0 / 3.0 * (c.0 - p.0), p.1 + 2.0 / 3.0 * (c.1 - p.1));
                page.curve_to(c1, c2, p);
                last = p;
            }
            PathSegment::CubicTo(c1, c2, p) => {
                page.curve_to(
                    (c1.x as f64, c1.y as f64),
                    (c2.x as f64, c2.y as f64),
                    (p.x as f64, p.y as f64),
                );
                last = (p.x as f64, p.y as f64);
            }
            PathSegment::Close => page.close(),
        }
    }
    page.paint(fill, stroke);
}

fn draw_text(page: &mut Page, text: &usvg::Text) {
    for chunk in text.chunks() {
        let Some(span) = chunk.spans().first() else {
            continue;
        };
        if !span.is_visible() {
            continue;
        }
        let fill = span
            .fill()
            .and_then(|f| paint_colour(f.paint()))
            .unwrap_or((0, 0, 0));
        let align = match chunk.anchor() {
            usvg::TextAnchor::Start => Align::Start,
            usvg::TextAnchor::Middle => Align::Middle,
            usvg::TextAnchor::End => Align::End,
        };
        page.text(
            chunk.x().unwrap_or(0.0) as f64,
            chunk.y().unwrap_or(0.0) as f64,
            span.font_size().get() as f64,
            align,
            fill,
            span.font().weight() >= 600,
            chunk.text(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_strings() {
        assert_eq!(n(1.0), "1");
        assert_eq!(n(0.1234), "0.123");
        assert_eq!(n(-0.0001), "0");
        assert_eq!(text_string("a(b)"), "(a\\(b\\))");
        assert_eq!(text_string("γ"), "<FEFF03B3>");
    }

    #[test]
    fn text_is_escaped_and_switches_fonts() {
        let mut page = Page::new(10.0, 10.0);
        page.text(
            0.0,
            5.0,
            10.0,
            Align::Start,
            (0, 0, 0),
            false,
            "γ(8×8) = 5 \\",
        );
        assert!(
            page.content
                .contains("/F3 10 Tf (g) Tj /F1 10 Tf (\\(8\\3278\\) = 5 \\\\) Tj ET"),
            "{}",
            page.content
        );
    }
}
