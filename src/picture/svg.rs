//! The small pieces every picture is written with: colours, escaped text, and an estimate of how
//! wide a line of text is (SVG has no layout engine, so margins are reserved by estimate).

use std::fmt::Write;

/// Every text names the bundled font first, so that the PNG renderer (which knows only that font)
/// and a browser (which may have it installed) agree on the shapes as far as they can.
pub const FONT_FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Average advance of DejaVu Sans, in em: digits are 0.636 em wide, lower-case letters about 0.6.
/// Overestimating slightly keeps long labels inside the picture.
const EM_PER_CHAR: f64 = 0.64;

/// How wide `text` is when set at `size` pixels, roughly.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * EM_PER_CHAR * size
}

/// `text` with the five XML special characters escaped, for element text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour `t` of the way from `self` to `other` (0 is `self`, 1 is `other`).
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let channel = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        Rgb(
            channel(self.0, other.0),
            channel(self.1, other.1),
            channel(self.2, other.2),
        )
    }

    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Whether dark text reads better on this colour than white text (relative luminance above
    /// the point where both contrasts are equal, about 0.18).
    pub fn is_light(self) -> bool {
        let linear = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let luminance = 0.2126 * linear(self.0) + 0.7152 * linear(self.1) + 0.0722 * linear(self.2);
        luminance > 0.18
    }
}

/// Where a text's `x` is: its start, middle or end.
#[derive(Debug, Clone, Copy)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// Append a `<text>` element whose baseline is placed so that the text's middle sits at `y`.
pub fn text(
    out: &mut String,
    x: f64,
    y: f64,
    size: f64,
    anchor: Anchor,
    fill: &str,
    content: &str,
) {
    let anchor = match anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    // Digits and capitals of DejaVu Sans are 0.73 em tall: the baseline lies 0.36 em below the
    // middle. (dominant-baseline is not honoured everywhere, so the offset is explicit.)
    let baseline = y + 0.36 * size;
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" fill="{fill}">{}</text>"#,
        num(x),
        num(baseline),
        num(size),
        escape(content)
    );
}

/// A coordinate as short as it can be written: at most two decimals, no trailing zeros.
pub fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// The opening tag of a standalone picture `width` × `height` pixels, with a white background,
/// the font for all of its text, and its title and description for screen readers.
pub fn open(width: f64, height: f64, title: &str, description: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">"#,
        w = num(width),
        h = num(height),
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    if !description.is_empty() {
        let _ = writeln!(out, "<desc>{}</desc>", escape(description));
    }
    let _ = writeln!(
        out,
        r##"<rect class="background" width="100%" height="100%" fill="#ffffff"/>"##
    );
    out
}

pub fn close(out: &mut String) {
    out.push_str("</svg>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.005), "1");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.346), "12.35");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape(r#"a<b & "c">'"#),
            "a&lt;b &amp; &quot;c&quot;&gt;&apos;"
        );
    }

    #[test]
    fn contrast() {
        assert!(Rgb(255, 255, 255).is_light());
        assert!(!Rgb(0, 0, 0).is_light());
        assert!(!Rgb(45, 42, 110).is_light());
        assert_eq!(
            Rgb(0, 0, 0).mix(Rgb(255, 255, 255), 0.5),
            Rgb(128, 128, 128)
        );
    }
}
