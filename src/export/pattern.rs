//! What the lines of a line format look like, field by field, so that the last line of a file,
//! cut short where a killed run stopped writing, can be told from anything else: only the start
//! of a line this format writes may be dropped and written again; any other text is somebody's,
//! and a file holding it is refused, not cut.

/// What one field of a line may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldSyntax {
    /// Digits.
    Whole,
    /// Digits, a point, digits: seconds as every format writes them.
    Seconds,
    /// Squares such as `r1c12`, separated by single spaces.
    Layout,
    /// `q` and 16 lower-case hex digits (see [`crate::row::digest`]).
    Digest,
    /// One of these texts exactly (a problem's name, a requested size).
    OneOf(Vec<String>),
}

/// One field of a line: its name (JSON Lines writes it), what it holds, and whether it is text
/// (JSON Lines quotes it).
#[derive(Debug, Clone)]
pub struct PatternField<'a> {
    pub name: &'a str,
    pub syntax: FieldSyntax,
    pub text: bool,
}

#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    Field(FieldSyntax),
}

/// The lines one format writes for one kind of row: text and fields in turn, then the line ending.
#[derive(Debug, Clone)]
pub struct LinePattern {
    pieces: Vec<Piece>,
}

impl LinePattern {
    /// Fields separated by `separator` (CSV, TSV: no field of a row needs quotes).
    pub(crate) fn separated(separator: &str, fields: &[PatternField]) -> LinePattern {
        let mut pieces = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                pieces.push(Piece::Text(separator.to_string()));
            }
            pieces.push(Piece::Field(field.syntax.clone()));
        }
        LinePattern { pieces }
    }

    /// A JSON object of the fields in this order, as `JsonExport` writes it (no spaces).
    pub(crate) fn json_object(fields: &[PatternField]) -> LinePattern {
        let mut pieces = vec![Piece::Text("{".to_string())];
        for (i, field) in fields.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let quote = if field.text { "\"" } else { "" };
            pieces.push(Piece::Text(format!("{comma}\"{}\":{quote}", field.name)));
            pieces.push(Piece::Field(field.syntax.clone()));
            if field.text {
                pieces.push(Piece::Text(quote.to_string()));
            }
        }
        pieces.push(Piece::Text("}".to_string()));
        LinePattern { pieces }
    }

    /// Whether `bytes` (a line without its `\n`) could be the start of a line of this pattern:
    /// every piece matches as far as the bytes go, and they end at most in a `\r`.
    pub fn could_start(&self, bytes: &[u8]) -> bool {
        let mut rest = bytes;
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => {
                    let text = text.as_bytes();
                    if rest.len() < text.len() {
                        return text.starts_with(rest);
                    }
                    if !rest.starts_with(text) {
                        return false;
                    }
                    rest = &rest[text.len()..];
                }
                Piece::Field(syntax) => {
                    // No field holds the text that follows it (a separator, a quote, a brace).
                    let len = rest
                        .iter()
                        .position(|&b| !syntax.may_hold(b))
                        .unwrap_or(rest.len());
                    let (field, after) = rest.split_at(len);
                    if after.is_empty() {
                        return syntax.could_start(field);
                    }
                    if !syntax.is_whole(field) {
                        return false;
                    }
                    rest = after;
                }
            }
        }
        rest.is_empty() || rest == b"\r"
    }
}

impl FieldSyntax {
    fn may_hold(&self, b: u8) -> bool {
        match self {
            FieldSyntax::Whole => b.is_ascii_digit(),
            FieldSyntax::Seconds => b.is_ascii_digit() || b == b'.',
            FieldSyntax::Layout => b.is_ascii_digit() || matches!(b, b'r' | b'c' | b' '),
            FieldSyntax::Digest => b.is_ascii_digit() || matches!(b, b'a'..=b'f' | b'q'),
            FieldSyntax::OneOf(texts) => texts.iter().any(|t| t.as_bytes().contains(&b)),
        }
    }

    /// Whether `field` (bytes it may hold) is a whole value.
    fn is_whole(&self, field: &[u8]) -> bool {
        match self {
            FieldSyntax::Whole => !field.is_empty(),
            FieldSyntax::Seconds => match field.iter().position(|&b| b == b'.') {
                Some(point) => {
                    point > 0 && point + 1 < field.len() && !field[point + 1..].contains(&b'.')
                }
                None => false,
            },
            FieldSyntax::Layout => layout_state(field) == Some(LayoutState::ColumnDigits),
            FieldSyntax::Digest => field.len() == 17 && digest_start(field),
            FieldSyntax::OneOf(texts) => texts.iter().any(|t| t.as_bytes() == field),
        }
    }

    /// Whether `field` (bytes it may hold) is the start of a value.
    fn could_start(&self, field: &[u8]) -> bool {
        match self {
            FieldSyntax::Whole => true,
            FieldSyntax::Seconds => match field.iter().position(|&b| b == b'.') {
                Some(point) => point > 0 && !field[point + 1..].contains(&b'.'),
                None => true,
            },
            FieldSyntax::Layout => layout_state(field).is_some(),
            FieldSyntax::Digest => field.len() <= 17 && digest_start(field),
            FieldSyntax::OneOf(texts) => texts.iter().any(|t| t.as_bytes().starts_with(field)),
        }
    }
}

fn digest_start(field: &[u8]) -> bool {
    match field.split_first() {
        None => true,
        Some((&q, hex)) => q == b'q' && !hex.contains(&b'q'),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LayoutState {
    /// Before a square: `r` next.
    Square,
    /// After `r`: a digit next.
    Row,
    /// In the row's digits: more, or `c`.
    RowDigits,
    /// After `c`: a digit next.
    Column,
    /// In the column's digits: more, or a space before the next square (or the end).
    ColumnDigits,
}

/// Where `field` leaves the grammar `r1c1( r1c1)*`, or `None` if it breaks it.
fn layout_state(field: &[u8]) -> Option<LayoutState> {
    use LayoutState::*;
    let mut state = Square;
    for &b in field {
        state = match (state, b) {
            (Square, b'r') => Row,
            (Row | RowDigits, b'0'..=b'9') => RowDigits,
            (RowDigits, b'c') => Column,
            (Column | ColumnDigits, b'0'..=b'9') => ColumnDigits,
            (ColumnDigits, b' ') => Square,
            _ => return None,
        };
    }
    Some(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> Vec<PatternField<'static>> {
        vec![
            PatternField {
                name: "rows",
                syntax: FieldSyntax::OneOf(vec!["3".into(), "12".into()]),
                text: false,
            },
            PatternField {
                name: "layout",
                syntax: FieldSyntax::Layout,
                text: true,
            },
            PatternField {
                name: "digest",
                syntax: FieldSyntax::Digest,
                text: true,
            },
            PatternField {
                name: "seconds",
                syntax: FieldSyntax::Seconds,
                text: false,
            },
        ]
    }

    #[test]
    fn every_start_of_a_line_is_a_start_and_nothing_else_is() {
        let csv = LinePattern::separated(",", &fields());
        let json = LinePattern::json_object(&fields());
        let line = "12,r1c2 r10c11,q0123456789abcdef,0.000012";
        let object =
            r#"{"rows":12,"layout":"r1c2 r10c11","digest":"q0123456789abcdef","seconds":0.000012}"#;
        for (pattern, line) in [(&csv, line), (&json, object)] {
            for cut in 0..=line.len() {
                assert!(
                    pattern.could_start(&line.as_bytes()[..cut]),
                    "{line:?} cut at {cut}"
                );
            }
            assert!(pattern.could_start(format!("{line}\r").as_bytes()));
            assert!(!pattern.could_start(format!("{line},").as_bytes()));
        }
        for foreign in [
            "4,",
            "12,r1c2  r3",
            "12,r1cc",
            "12,r1c2,x",
            "12,r1c2,q0q",
            "12,r1c2,q0123456789abcdef0",
            "12,r1c2,q0123456789abcdef,.5",
            "12,r1c2,q0123456789abcdef,1.2.",
            "rows,layout",
        ] {
            assert!(!csv.could_start(foreign.as_bytes()), "{foreign}");
        }
        for foreign in [
            r#"{"my": "precious json"}"#,
            r#"{"rows":3,"rows""#,
            "[",
            " {",
        ] {
            assert!(!json.could_start(foreign.as_bytes()), "{foreign}");
        }
    }
}
