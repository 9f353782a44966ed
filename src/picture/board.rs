//! A board as a picture: chessboard squares, coordinates as in the layout notation (columns 1..M
//! across the top, rows 1..N down the left side, row 1 at the top), the queens drawn as shapes (no
//! font needs a queen glyph), and every square a queen covers shaded. Each square also names the
//! queens that cover it (classes `by-q0`, `by-q1`, …), so that a browser can show one queen's
//! squares when it is pointed at, and tests can check every square against the rules.

use std::fmt::Write;

use super::png::svg_to_png;
use super::svg::{self, num, text, Anchor, Rgb};
use super::PictureError;
use crate::board::{Layout, Square};

const LIGHT: Rgb = Rgb(240, 217, 181);
const DARK: Rgb = Rgb(181, 136, 99);
/// A covered square is its chessboard colour washed this far towards red, the colour chess
/// programs use for attacked squares; light and dark stay apart.
const COVER_TINT: Rgb = Rgb(214, 64, 48);
const COVER_WASH: f64 = 0.38;
/// In a browser, pointing at a queen paints the squares it covers in this colour.
pub(super) const HOVER: &str = "#c0392b";
const QUEEN_LIGHT: Rgb = Rgb(156, 196, 110);
const QUEEN_DARK: Rgb = Rgb(122, 166, 82);
pub(super) const LABEL: &str = "#444444";
pub(super) const FRAME: &str = "#5a4632";

/// The queen in a 100 × 100 box: a band at the foot, a body rising to five points and a ball on
/// each point, all wound the same way so that the fill is one shape and the outline shows the
/// parts.
pub(super) const QUEEN_PATH: &str =
    "M22 80L12 36L28 60L30 26L42 56L50 20L58 56L70 26L72 60L88 36L78 80Z\
M20 78H80L84 90H16Z\
M5.5 36a6.5 6.5 0 1 1 13 0a6.5 6.5 0 1 1-13 0Z\
M23.5 26a6.5 6.5 0 1 1 13 0a6.5 6.5 0 1 1-13 0Z\
M43.5 20a6.5 6.5 0 1 1 13 0a6.5 6.5 0 1 1-13 0Z\
M63.5 26a6.5 6.5 0 1 1 13 0a6.5 6.5 0 1 1-13 0Z\
M81.5 36a6.5 6.5 0 1 1 13 0a6.5 6.5 0 1 1-13 0Z";

/// What stands on a square, as the picture shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquareState {
    Queen,
    Covered,
    Uncovered,
}

impl SquareState {
    fn class(self) -> &'static str {
        match self {
            SquareState::Queen => "queen-square",
            SquareState::Covered => "covered",
            SquareState::Uncovered => "uncovered",
        }
    }

    pub(super) fn fill(self, light: bool) -> Rgb {
        let base = if light { LIGHT } else { DARK };
        match self {
            SquareState::Queen if light => QUEEN_LIGHT,
            SquareState::Queen => QUEEN_DARK,
            SquareState::Covered => base.mix(COVER_TINT, COVER_WASH),
            SquareState::Uncovered => base,
        }
    }
}

/// For every square of the layout's board, row by row: what stands there, and which queens (by
/// their index in `layout.queens()`) cover it.
pub fn square_states(layout: &Layout) -> Vec<(SquareState, Vec<usize>)> {
    let board = layout.board();
    (0..board.squares())
        .map(|i| {
            let square = board.square(i);
            let covering: Vec<usize> = layout
                .queens()
                .iter()
                .enumerate()
                .filter(|&(_, &q)| q != square && board.covers(q, square))
                .map(|(k, _)| k)
                .collect();
            let state = if layout.queens().contains(&square) {
                SquareState::Queen
            } else if covering.is_empty() {
                SquareState::Uncovered
            } else {
                SquareState::Covered
            };
            (state, covering)
        })
        .collect()
}

fn is_light(square: Square) -> bool {
    // As on a real board, the top-left square (row 1, column 1) is light.
    (square.row + square.col).is_multiple_of(2)
}

/// The picture of one layout. `svg` gives the SVG text, `png` the same rendered.
#[derive(Debug, Clone)]
pub struct BoardPicture<'a> {
    layout: &'a Layout,
    title: Option<String>,
}

/// Where everything goes, in pixels.
struct Geometry {
    cell: f64,
    label_size: f64,
    title_size: f64,
    width: f64,
    board_x: f64,
    board_y: f64,
    legend_y: f64,
    height: f64,
}

const PAD: f64 = 12.0;
const SWATCH: f64 = 14.0;
const LEGEND_TEXT: f64 = 12.0;
const LEGEND_GAP: f64 = 18.0;
const LEGEND: [(SquareState, &str); 3] = [
    (SquareState::Queen, "queen"),
    (SquareState::Covered, "covered"),
    (SquareState::Uncovered, "not covered"),
];

impl<'a> BoardPicture<'a> {
    /// A picture of `layout`, with a legend and no title.
    pub fn new(layout: &'a Layout) -> BoardPicture<'a> {
        BoardPicture {
            layout,
            title: None,
        }
    }

    /// A line of text above the board, such as `γ(8×8) = 5`.
    pub fn title(mut self, title: impl Into<String>) -> BoardPicture<'a> {
        self.title = Some(title.into());
        self
    }

    fn entry_width(label: &str) -> f64 {
        2.0 * SWATCH + 6.0 + svg::text_width(label, LEGEND_TEXT)
    }

    /// The legend is one line, about 320 pixels wide: every picture has room for it.
    fn legend_width() -> f64 {
        LEGEND
            .iter()
            .map(|(_, l)| Self::entry_width(l))
            .sum::<f64>()
            + LEGEND_GAP * (LEGEND.len() - 1) as f64
    }

    fn geometry(&self) -> Geometry {
        let board = self.layout.board();
        let side = board.rows().max(board.cols()) as f64;
        // About 480 pixels for the board, but never squares too small for a two-digit label or
        // so big that a 1×1 board is a poster.
        let cell = (480.0 / side).round().clamp(18.0, 56.0);
        let label_size = (cell * 0.4).clamp(10.0, 15.0);
        let title_size = 18.0;
        let row_label_width = svg::text_width(&board.rows().to_string(), label_size) + 8.0;
        let board_block = row_label_width + board.cols() as f64 * cell;
        let title_width = self
            .title
            .as_deref()
            .map_or(0.0, |t| svg::text_width(t, title_size));
        let legend_width = Self::legend_width();
        let content = board_block.max(title_width).max(legend_width);
        let width = (content + 2.0 * PAD).ceil();
        let title_band = if self.title.is_some() {
            title_size * 1.8
        } else {
            0.0
        };
        let board_x = ((width - board_block) / 2.0).round() + row_label_width;
        let board_y = PAD + title_band + label_size * 1.6;
        let board_bottom = board_y + board.rows() as f64 * cell;
        let legend_y = board_bottom + 16.0;
        let height = legend_y + SWATCH + PAD;
        Geometry {
            cell,
            label_size,
            title_size,
            width,
            board_x,
            board_y,
            legend_y,
            height: height.ceil(),
        }
    }

    /// The picture as a standalone SVG document.
    pub fn svg(&self) -> String {
        let layout = self.layout;
        let board = layout.board();
        let states = square_states(layout);
        let g = self.geometry();
        let title = self
            .title
            .clone()
            .unwrap_or_else(|| format!("{} queens on {}", layout.len(), board_name(layout)));
        let description = format!(
            "{} board, {} queens: {}",
            board_name(layout),
            layout.len(),
            layout.to_squares_string()
        );
        let mut out = svg::open(g.width, g.height, &title, &description);
        hover_style(&mut out, layout.len());

        if let Some(t) = &self.title {
            out.push_str("<g class=\"title\">\n");
            text(
                &mut out,
                g.width / 2.0,
                PAD + g.title_size * 0.7,
                g.title_size,
                Anchor::Middle,
                "#111111",
                t,
            );
            out.push_str("</g>\n");
        }

        out.push_str("<g class=\"column-labels\">\n");
        for col in 0..board.cols() {
            let x = g.board_x + (col as f64 + 0.5) * g.cell;
            let y = g.board_y - g.label_size * 0.8;
            let label = (col + 1).to_string();
            text(&mut out, x, y, g.label_size, Anchor::Middle, LABEL, &label);
        }
        out.push_str("</g>\n<g class=\"row-labels\">\n");
        for row in 0..board.rows() {
            let x = g.board_x - 6.0;
            let y = g.board_y + (row as f64 + 0.5) * g.cell;
            let label = (row + 1).to_string();
            text(&mut out, x, y, g.label_size, Anchor::End, LABEL, &label);
        }
        out.push_str("</g>\n");

        // Edges between squares are left to the renderer's anti-aliasing; crispEdges keeps
        // hairline seams out of the PNG.
        out.push_str("<g class=\"squares\" shape-rendering=\"crispEdges\">\n");
        for (i, (state, covering)) in states.iter().enumerate() {
            let square = board.square(i);
            let light = is_light(square);
            let by: String = covering.iter().map(|k| format!(" by-q{k}")).collect();
            let _ = writeln!(
                out,
                r#"<rect class="square {} {}{by}" x="{}" y="{}" width="{c}" height="{c}" fill="{}"/>"#,
                if light { "light" } else { "dark" },
                state.class(),
                num(g.board_x + square.col as f64 * g.cell),
                num(g.board_y + square.row as f64 * g.cell),
                state.fill(light).hex(),
                c = num(g.cell),
            );
        }
        out.push_str("</g>\n");
        let _ = writeln!(
            out,
            r#"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="1"/>"#,
            num(g.board_x - 0.5),
            num(g.board_y - 0.5),
            num(board.cols() as f64 * g.cell + 1.0),
            num(board.rows() as f64 * g.cell + 1.0),
        );

        out.push_str("<g class=\"queens\">\n");
        for (k, q) in layout.queens().iter().enumerate() {
            let x = g.board_x + q.col as f64 * g.cell;
            let y = g.board_y + q.row as f64 * g.cell;
            let class = format!("queen q{k}");
            queen(
                &mut out,
                &class,
                x + g.cell * 0.1,
                y + g.cell * 0.08,
                g.cell * 0.8,
            );
        }
        out.push_str("</g>\n");

        Self::write_legend(&mut out, &g);
        svg::close(&mut out);
        out
    }

    fn write_legend(out: &mut String, g: &Geometry) {
        out.push_str("<g class=\"legend\">\n");
        let mut x = ((g.width - Self::legend_width()) / 2.0).round();
        let y = g.legend_y;
        for (state, label) in LEGEND {
            for (k, light) in [true, false].into_iter().enumerate() {
                let _ = writeln!(
                    out,
                    r#"<rect class="swatch" x="{}" y="{}" width="{SWATCH}" height="{SWATCH}" fill="{}" stroke="{FRAME}" stroke-width="0.5"/>"#,
                    num(x + k as f64 * SWATCH),
                    num(y),
                    state.fill(light).hex(),
                );
            }
            if state == SquareState::Queen {
                queen(out, "key-queen", x + SWATCH * 0.5, y + 1.0, SWATCH - 2.0);
            }
            let label_x = x + 2.0 * SWATCH + 6.0;
            text(
                out,
                label_x,
                y + SWATCH / 2.0,
                LEGEND_TEXT,
                Anchor::Start,
                "#222222",
                label,
            );
            x += Self::entry_width(label) + LEGEND_GAP;
        }
        out.push_str("</g>\n");
    }

    /// The picture rendered as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        svg_to_png(&self.svg())
    }
}

/// Pointing at queen k in a browser paints the squares it covers (the `by-qk` squares). CSS
/// `:has` needs no script; renderers without it (the PNG's) simply ignore the rule.
fn hover_style(out: &mut String, queens: usize) {
    if queens == 0 {
        return;
    }
    let selectors: Vec<String> = (0..queens)
        .map(|k| format!("svg:has(.q{k}:hover) .by-q{k}"))
        .collect();
    let _ = writeln!(
        out,
        "<style>{} {{ fill: {HOVER}; }} .queen {{ cursor: crosshair; }}</style>",
        selectors.join(", ")
    );
}

/// A queen (with these classes) whose 100-unit box is drawn `size` pixels wide with its top-left corner at (x, y).
fn queen(out: &mut String, class: &str, x: f64, y: f64, size: f64) {
    let _ = writeln!(
        out,
        r##"<path class="{class}" transform="translate({} {}) scale({})" d="{QUEEN_PATH}" fill="#ffffff" stroke="#1e1e1e" stroke-width="5" stroke-linejoin="round"/>"##,
        num(x),
        num(y),
        (size / 100.0 * 1000.0).round() / 1000.0,
    );
}

/// The board as pictures name it: `8×8`.
pub fn board_name(layout: &Layout) -> String {
    let board = layout.board();
    format!("{}×{}", board.rows(), board.cols())
}
