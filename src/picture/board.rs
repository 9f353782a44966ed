//! A board as a picture: chessboard squares, coordinates as in the layout notation (columns 1..M
//! across the top, rows 1..N down the left side, row 1 at the top) and the queens drawn as shapes
//! (no font needs a queen glyph). By default the board is plain: in a minimum layout every square
//! is covered, so shading the covered squares would only shade the whole board. With
//! [`BoardPicture::coverage`] each square shows by how many queens it is covered, on a small
//! sequential scale and as a number, with a legend of the counts that occur.
//!
//! Each square also names the queens that cover it (classes `by-q0`, `by-q1`, …), so that a
//! browser can show one queen's squares when it is pointed at, and tests can check every square
//! against the rules. [`ContactSheet`] draws many layouts of one board on one page.

use std::fmt::Write;

use super::pdf::svg_to_pdf;
use super::png::svg_to_png_scaled;
use super::svg::{self, num, text, Anchor, Rgb};
use super::{PictureError, PNG_SCALE};
use crate::board::Square;
use crate::layout::Layout;

pub(super) const LIGHT: Rgb = Rgb(240, 217, 181);
pub(super) const DARK: Rgb = Rgb(181, 136, 99);
/// By how many queens a square is covered, with `--coverage`: a sequential blue scale (ColorBrewer
/// "Blues"), one step per queen; from 7 on the last step, the number in the square tells.
const COVER_SCALE: [Rgb; 7] = [
    Rgb(222, 235, 247),
    Rgb(158, 202, 225),
    Rgb(107, 174, 214),
    Rgb(66, 146, 198),
    Rgb(33, 113, 181),
    Rgb(8, 81, 156),
    Rgb(8, 48, 107),
];
/// In a browser, pointing at a queen paints the squares it covers in this colour: a green that is
/// neither board colour nor on the coverage scale.
pub(super) const HOVER: &str = "#4caf50";
pub(super) const QUEEN_FILL: &str = "#1e1e1e";
pub(super) const QUEEN_EDGE: &str = "#ffffff";
pub(super) const LABEL: &str = "#444444";
pub(super) const FRAME: &str = "#5a4632";
const INK: &str = "#111111";

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
}

/// A square's colour: its board colour, or with coverage the scale's step for `by` queens (a
/// queen's own square, and a square no queen covers, keep the board colour).
fn fill(light: bool, state: SquareState, by: usize, coverage: bool) -> Rgb {
    if coverage && state == SquareState::Covered {
        COVER_SCALE[by.min(COVER_SCALE.len()) - 1]
    } else if light {
        LIGHT
    } else {
        DARK
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

/// The picture of one layout. `svg` gives the SVG text, `png` and `pdf` the same rendered.
#[derive(Debug, Clone)]
pub struct BoardPicture<'a> {
    layout: &'a Layout,
    title: Option<String>,
    coverage: bool,
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
const LEGEND_GAP: f64 = 14.0;

/// One legend entry: its swatch colours (light and dark square) and its text.
struct Entry {
    fills: [Rgb; 2],
    label: String,
}

impl Entry {
    fn width(&self) -> f64 {
        2.0 * SWATCH + 6.0 + svg::text_width(&self.label, LEGEND_TEXT)
    }
}

fn legend_width(entries: &[Entry]) -> f64 {
    entries.iter().map(Entry::width).sum::<f64>()
        + LEGEND_GAP * entries.len().saturating_sub(1) as f64
}

impl<'a> BoardPicture<'a> {
    /// A picture of `layout`: a plain board with its queens, no title.
    pub fn new(layout: &'a Layout) -> BoardPicture<'a> {
        BoardPicture {
            layout,
            title: None,
            coverage: false,
        }
    }

    /// A line of text above the board, such as `γ(8×8) = 5` (an empty one is no title).
    pub fn title(mut self, title: impl Into<String>) -> BoardPicture<'a> {
        let title = title.into();
        self.title = (!title.is_empty()).then_some(title);
        self
    }

    /// Shade each square by how many queens cover it and write the number in it, with a legend
    /// of the numbers that occur.
    pub fn coverage(mut self, coverage: bool) -> BoardPicture<'a> {
        self.coverage = coverage;
        self
    }

    /// The legend: with coverage, one entry per number of covering queens that occurs (and "not
    /// covered" if a square is); a plain board needs none.
    fn legend(&self, states: &[(SquareState, Vec<usize>)]) -> Vec<Entry> {
        if !self.coverage {
            return Vec::new();
        }
        let mut counts: Vec<usize> = states
            .iter()
            .filter(|(s, _)| *s == SquareState::Covered)
            .map(|(_, by)| by.len().min(COVER_SCALE.len()))
            .collect();
        counts.sort_unstable();
        counts.dedup();
        let mut entries: Vec<Entry> = counts
            .into_iter()
            .map(|n| {
                let colour = fill(true, SquareState::Covered, n, true);
                let label = match n {
                    1 => "covered once".to_string(),
                    n if n == COVER_SCALE.len() => format!("by {n} or more"),
                    n => format!("by {n} queens"),
                };
                Entry {
                    fills: [colour, colour],
                    label,
                }
            })
            .collect();
        if states.iter().any(|(s, _)| *s == SquareState::Uncovered) {
            entries.push(Entry {
                fills: [LIGHT, DARK],
                label: "not covered".to_string(),
            });
        }
        entries
    }

    fn geometry(&self, legend: &[Entry]) -> Geometry {
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
        let content = board_block.max(title_width).max(legend_width(legend));
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
        let height = if legend.is_empty() {
            board_bottom + PAD
        } else {
            legend_y + SWATCH + PAD
        };
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
        let legend = self.legend(&states);
        let g = self.geometry(&legend);
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
                INK,
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
        draw_board(
            &mut out,
            layout,
            &states,
            g.board_x,
            g.board_y,
            g.cell,
            self.coverage,
        );
        write_legend(&mut out, &legend, g.width, g.legend_y);
        svg::close(&mut out);
        out
    }

    /// The picture rendered as PNG bytes, twice the SVG's size ([`PNG_SCALE`]).
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        self.png_scaled(PNG_SCALE)
    }

    /// The picture rendered as PNG bytes, `scale` pixels per SVG pixel (its DPI is 96 × `scale`,
    /// so that it prints at the SVG's size).
    pub fn png_scaled(&self, scale: f32) -> Result<Vec<u8>, PictureError> {
        svg_to_png_scaled(&self.svg(), scale)
    }

    /// The picture as a one-page vector PDF (the SVG's size, 1 pixel = 0.75 point).
    pub fn pdf(&self) -> Result<Vec<u8>, PictureError> {
        svg_to_pdf(&self.svg())
    }
}

/// The squares, the frame and the queens of `layout`, its top-left corner at (x, y), squares of
/// `cell` pixels; with `coverage`, each square other than a queen's holds its number of covering
/// queens.
fn draw_board(
    out: &mut String,
    layout: &Layout,
    states: &[(SquareState, Vec<usize>)],
    x: f64,
    y: f64,
    cell: f64,
    coverage: bool,
) {
    let board = layout.board();
    // Edges between squares are left to the renderer's anti-aliasing; crispEdges keeps
    // hairline seams out of the PNG.
    out.push_str("<g class=\"squares\" shape-rendering=\"crispEdges\">\n");
    for (i, (state, covering)) in states.iter().enumerate() {
        let square = board.square(i);
        let light = is_light(square);
        let by: String = covering.iter().map(|k| format!(" by-q{k}")).collect();
        let data = if coverage {
            format!(r#" data-cover="{}""#, covering.len())
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"<rect class="square {} {}{by}"{data} x="{}" y="{}" width="{c}" height="{c}" fill="{}"/>"#,
            if light { "light" } else { "dark" },
            state.class(),
            num(x + square.col as f64 * cell),
            num(y + square.row as f64 * cell),
            fill(light, *state, covering.len(), coverage).hex(),
            c = num(cell),
        );
    }
    out.push_str("</g>\n");
    if coverage {
        let size = (cell * 0.38).max(7.0);
        out.push_str("<g class=\"cover-counts\">\n");
        for (i, (state, covering)) in states.iter().enumerate() {
            if *state == SquareState::Queen {
                continue;
            }
            let square = board.square(i);
            let colour = fill(is_light(square), *state, covering.len(), true);
            let ink = if colour.is_light() { INK } else { "#ffffff" };
            text(
                out,
                x + (square.col as f64 + 0.5) * cell,
                y + (square.row as f64 + 0.5) * cell,
                size,
                Anchor::Middle,
                ink,
                &covering.len().to_string(),
            );
        }
        out.push_str("</g>\n");
    }
    let _ = writeln!(
        out,
        r#"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="1"/>"#,
        num(x - 0.5),
        num(y - 0.5),
        num(board.cols() as f64 * cell + 1.0),
        num(board.rows() as f64 * cell + 1.0),
    );

    out.push_str("<g class=\"queens\">\n");
    for (k, q) in layout.queens().iter().enumerate() {
        let qx = x + q.col as f64 * cell;
        let qy = y + q.row as f64 * cell;
        let class = format!("queen q{k}");
        queen(out, &class, qx + cell * 0.1, qy + cell * 0.08, cell * 0.8);
    }
    out.push_str("</g>\n");
}

/// The legend as one centred line at `y` (nothing if there are no entries).
fn write_legend(out: &mut String, entries: &[Entry], width: f64, y: f64) {
    if entries.is_empty() {
        return;
    }
    out.push_str("<g class=\"legend\">\n");
    let mut x = ((width - legend_width(entries)) / 2.0).round();
    for entry in entries {
        // One swatch two squares wide, or a light and a dark square when they differ.
        let split = entry.fills[0] != entry.fills[1];
        let swatches = if split { 2 } else { 1 };
        for (k, colour) in entry.fills.iter().take(swatches).enumerate() {
            let _ = writeln!(
                out,
                r#"<rect class="swatch" x="{}" y="{}" width="{}" height="{SWATCH}" fill="{}" stroke="{FRAME}" stroke-width="0.5"/>"#,
                num(x + k as f64 * SWATCH),
                num(y),
                num(2.0 * SWATCH / swatches as f64),
                colour.hex(),
            );
        }
        text(
            out,
            x + 2.0 * SWATCH + 6.0,
            y + SWATCH / 2.0,
            LEGEND_TEXT,
            Anchor::Start,
            "#222222",
            &entry.label,
        );
        x += entry.width() + LEGEND_GAP;
    }
    out.push_str("</g>\n");
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

/// A queen (with these classes) whose 100-unit box is drawn `size` pixels wide with its top-left
/// corner at (x, y): dark, with a white edge, so that it stands out on either square colour and
/// on every step of the coverage scale, in colour and in grey.
fn queen(out: &mut String, class: &str, x: f64, y: f64, size: f64) {
    let _ = writeln!(
        out,
        r#"<path class="{class}" transform="translate({} {}) scale({})" d="{QUEEN_PATH}" fill="{QUEEN_FILL}" stroke="{QUEEN_EDGE}" stroke-width="5" stroke-linejoin="round"/>"#,
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

/// Many layouts of one board on one page, in a grid, each with a caption (e.g. every class of
/// minimum layouts, each captioned with its number and size).
#[derive(Debug, Clone)]
pub struct ContactSheet<'a> {
    title: String,
    boards: Vec<(&'a Layout, String)>,
}

/// About this many pixels across for the whole sheet, and for each board.
const SHEET_WIDTH: f64 = 1200.0;
const THUMB: f64 = 120.0;
const CAPTION: f64 = 11.0;
const GAP: f64 = 16.0;

impl<'a> ContactSheet<'a> {
    /// A sheet titled `title` with these layouts and their captions, in this order.
    pub fn new(title: impl Into<String>, boards: Vec<(&'a Layout, String)>) -> ContactSheet<'a> {
        ContactSheet {
            title: title.into(),
            boards,
        }
    }

    /// The sheet as a standalone SVG document.
    pub fn svg(&self) -> String {
        let side = self
            .boards
            .iter()
            .map(|(l, _)| l.board().rows().max(l.board().cols()))
            .max()
            .unwrap_or(1) as f64;
        let cell = (THUMB / side).round().clamp(4.0, 20.0);
        let (rows, cols) = self
            .boards
            .first()
            .map_or((1, 1), |(l, _)| (l.board().rows(), l.board().cols()));
        let caption_width = self
            .boards
            .iter()
            .map(|(_, c)| svg::text_width(c, CAPTION))
            .fold(0.0, f64::max);
        let tile_w = (cols as f64 * cell).max(caption_width) + GAP;
        let tile_h = rows as f64 * cell + CAPTION * 2.2 + GAP;
        let n = self.boards.len().max(1);
        // Roughly square, but no wider than the sheet.
        let fit = ((SHEET_WIDTH / tile_w).floor() as usize).max(1);
        let across = (n as f64).sqrt().ceil().max(1.0) as usize;
        let across = across.min(fit).min(n);
        let down = n.div_ceil(across);
        let title_size = 18.0;
        let title_band = title_size * 2.0;
        let content = (across as f64 * tile_w).max(svg::text_width(&self.title, title_size));
        let width = (content + 2.0 * PAD).ceil();
        let height = (PAD + title_band + down as f64 * tile_h + PAD).ceil();
        let description = format!("{} layouts", self.boards.len());
        let mut out = svg::open(width, height, &self.title, &description);
        out.push_str("<g class=\"title\">\n");
        text(
            &mut out,
            width / 2.0,
            PAD + title_size * 0.7,
            title_size,
            Anchor::Middle,
            INK,
            &self.title,
        );
        out.push_str("</g>\n");
        let left = ((width - across as f64 * tile_w) / 2.0).round();
        for (i, (layout, caption)) in self.boards.iter().enumerate() {
            let tile_x = left + (i % across) as f64 * tile_w;
            let tile_y = PAD + title_band + (i / across) as f64 * tile_h;
            let board = layout.board();
            let board_w = board.cols() as f64 * cell;
            let x = (tile_x + (tile_w - board_w) / 2.0).round();
            let _ = writeln!(out, "<g class=\"sheet-board\" data-index=\"{}\">", i + 1);
            draw_board(
                &mut out,
                layout,
                &square_states(layout),
                x,
                tile_y,
                cell,
                false,
            );
            out.push_str("<g class=\"caption\">\n");
            text(
                &mut out,
                tile_x + tile_w / 2.0,
                tile_y + board.rows() as f64 * cell + CAPTION * 1.1,
                CAPTION,
                Anchor::Middle,
                LABEL,
                caption,
            );
            out.push_str("</g>\n</g>\n");
        }
        svg::close(&mut out);
        out
    }

    /// The sheet as a one-page vector PDF.
    pub fn pdf(&self) -> Result<Vec<u8>, PictureError> {
        svg_to_pdf(&self.svg())
    }
}
