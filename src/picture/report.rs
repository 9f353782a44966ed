//! The report page: one self-contained HTML file (no scripts, nothing fetched) with the heatmap of
//! the table(s) and, for every board, its diagram(s) behind a `<details>` element that opens on a
//! click. The heatmap's cells link to the diagrams (browsers open a closed `<details>` when a link
//! targets something inside it).
//!
//! The diagrams share their drawing: the chessboard is one pattern, a queen on its square, the
//! squares a queen reaches and the coordinates are drawn once in a hidden `<svg>` at the top and
//! placed with `<use>`. A diagram is then a few dozen elements whatever its size, instead of one
//! per square: the page of every board to 32×32 stays a few megabytes and opens in seconds (one
//! `<rect>` per square made it 80 MB and 709,092 elements for 1-32).

use std::collections::BTreeSet;
use std::fmt::Write;

use super::board::{
    board_name, square_states, SquareState, DARK, FRAME, HOVER, LABEL, LIGHT, QUEEN_EDGE,
    QUEEN_FILL, QUEEN_PATH,
};
use super::board_anchor;
use super::heatmap::{known_lower_bound, Heatmap, HeatmapError, Tables};
use super::palette::Scale;
use super::svg::{self, escape, num, text, Anchor};
use super::table_file::Known;
use crate::board::Board;
use crate::layout::Layout;

/// The report page of one or two tables.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    tables: &'a Tables,
    title: Option<String>,
    sources: Vec<String>,
    scale: Option<Scale>,
    difference: bool,
}

const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; margin: 1.5em; color: #1a1a1a; }
h1 { font-size: 1.5em; margin: 0 0 0.3em; }
h2 { font-size: 1.2em; margin: 1.5em 0 0.4em; }
p, li { line-height: 1.45; max-width: 60em; }
figure { margin: 0; }
svg { max-width: 100%; height: auto; }
.shared { position: absolute; width: 0; height: 0; overflow: hidden; }
.boards { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-start; }
details { border: 1px solid #c9c2b8; border-radius: 6px; background: #faf8f5; }
details[open] { flex-basis: 100%; background: #ffffff; }
summary { cursor: pointer; padding: 4px 10px; white-space: nowrap; }
summary:hover { background: #efe9df; }
.tag { font-size: 0.8em; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
.bound { font-size: 0.8em; }
.tag.odd { background: #111111; color: #ffffff; }
.diagrams { display: flex; flex-wrap: wrap; gap: 24px; padding: 8px 12px 12px; }
.diagrams:target { outline: 3px solid #3b7fb0; outline-offset: -3px; }
figcaption { font-size: 0.85em; color: #444444; max-width: 36em; overflow-wrap: anywhere; }
.key span { display: inline-block; width: 1.6em; height: 1em; vertical-align: -0.1em; border: 1px solid #5a4632; }
.reach { visibility: hidden; pointer-events: none; opacity: 0.8; }
.reach:has(+ .q:hover) { visibility: visible; }
.q { cursor: crosshair; }
footer { margin-top: 2em; font-size: 0.8em; color: #777777; }
/* On paper: every picture fits the page's width (they all have a viewBox), every board prints
   open (::details-content; a browser without it prints the list of boards), and no link or
   board is cut across two pages. */
@media print {
  body { margin: 0; }
  .boards { display: block; }
  details { border: none; background: none; break-inside: avoid; }
  details::details-content { content-visibility: visible; display: block; }
  summary { list-style: none; font-weight: bold; padding: 4px 0; }
  summary::-webkit-details-marker { display: none; }
  .diagrams { padding: 0 0 8px; }
  figure { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
";

impl<'a> Report<'a> {
    pub fn new(tables: &'a Tables) -> Report<'a> {
        Report {
            tables,
            title: None,
            sources: Vec::new(),
            scale: None,
            difference: false,
        }
    }

    /// The heatmap's colour scale, as [`Heatmap::scale`].
    pub fn scale(mut self, scale: Scale) -> Result<Report<'a>, HeatmapError> {
        Heatmap::new(self.tables).scale(scale)?;
        self.scale = Some(scale);
        Ok(self)
    }

    /// Add the heatmap of i − γ, as [`Heatmap::difference`].
    pub fn difference(mut self, difference: bool) -> Result<Report<'a>, HeatmapError> {
        Heatmap::new(self.tables).difference(difference)?;
        self.difference = difference;
        Ok(self)
    }

    fn heatmap(&self) -> Heatmap<'a> {
        let mut heatmap = Heatmap::new(self.tables)
            .link_cells(true)
            .difference(self.difference)
            .expect("checked by Report::difference");
        if let Some(scale) = self.scale {
            heatmap = heatmap.scale(scale).expect("checked by Report::scale");
        }
        if let Some(t) = &self.title {
            heatmap = heatmap.title(t.clone());
        }
        heatmap
    }

    /// Replace the default title (used for the page and its heatmap).
    pub fn title(mut self, title: impl Into<String>) -> Report<'a> {
        self.title = Some(title.into());
        self
    }

    /// Where each table came from (file names), in the order γ, i, for the page to say.
    pub fn sources(mut self, sources: Vec<String>) -> Report<'a> {
        self.sources = sources;
        self
    }

    fn default_title(&self) -> String {
        let symbols: Vec<&str> = self.tables.iter().map(|t| t.problem.symbol()).collect();
        format!("Queen domination: {} of N×M boards", symbols.join(" and "))
    }

    /// The page as one HTML document, also well-formed XML (every element closed, only the XML
    /// entities), so that any parser can read it.
    pub fn html(&self) -> String {
        let title = self.title.clone().unwrap_or_else(|| self.default_title());
        let boards = self.tables.boards();
        let mut out = String::new();
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
        let _ = writeln!(out, "<title>{}</title>", escape(&title));
        let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
        let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
        self.write_facts(&mut out, &boards);
        let _ = writeln!(
            out,
            "<figure class=\"heatmap\">\n{}</figure>",
            self.heatmap().svg()
        );

        out.push_str("<h2>Boards</h2>\n");
        out.push_str(
            "<p>Click a board (or a cell of the heatmap) to open its diagram: the queens of the \
             layout in the file on a plain board; point at a queen to see the squares it \
             covers. Rows are numbered down from the top and columns across from \
             the left, as in the layout column. ● marks a number equal to the lower bound, like \
             the dots in the heatmap.</p>\n",
        );
        if self.tables.has_bounds() {
            out.push_str(
                "<p>A board shown with bounds, such as <q>bounds 12–13 (layout of 13)</q>, is not \
                 proven: its number is at least the lower bound (proven) and at most the queens \
                 of its layout (drawn); its heatmap cell is hatched and coloured as the lower \
                 bound.</p>\n",
            );
        }
        let diagrams: Vec<Diagram> = boards
            .iter()
            .flat_map(|&b| self.tables.iter().filter_map(move |t| t.layouts.get(&b)))
            .map(Diagram::new)
            .collect();
        write_shared(&mut out, &diagrams);
        write_key(&mut out);
        out.push_str("<div class=\"boards\">\n");
        for &board in &boards {
            self.write_board(&mut out, board);
        }
        out.push_str("</div>\n");
        let _ = writeln!(
            out,
            "<footer>Made by queendom {} from the layouts in the table files, each re-checked \
             before drawing.</footer>",
            env!("CARGO_PKG_VERSION")
        );
        out.push_str("</body>\n</html>\n");
        out
    }

    fn write_facts(&self, out: &mut String, boards: &[Board]) {
        out.push_str("<ul class=\"facts\">\n");
        for (k, table) in self.tables.iter().enumerate() {
            let source = self.sources.get(k).map_or(String::new(), |s| {
                format!(" from <code>{}</code>", escape(s))
            });
            let met = table
                .layouts
                .keys()
                .filter(|&&b| table.value(b) == Some(known_lower_bound(b)))
                .count();
            let proven = match table.bounded() {
                0 => "all proven".to_string(),
                bounded => format!(
                    "{} proven and {bounded} with bounds only",
                    table.layouts.len() - bounded
                ),
            };
            let _ = writeln!(
                out,
                "<li>{}: {} boards{source}, {proven}; on {met} of them {} is proven equal to \
                 the lower bound min(N, M, ⌈(N+M−2)/4⌉).</li>",
                escape(table.problem.name()),
                table.layouts.len(),
                table.problem.symbol(),
            );
        }
        if self.tables.gamma.is_some() && self.tables.independent.is_some() {
            let odd: Vec<String> = boards
                .iter()
                .filter(|&&b| self.tables.independent_above_gamma(b))
                .map(|&b| {
                    format!(
                        "<a href=\"#{}\">{}×{}</a>",
                        board_anchor(b),
                        b.rows(),
                        b.cols()
                    )
                })
                .collect();
            let list = if odd.is_empty() {
                String::new()
            } else {
                format!(": {}", odd.join(", "))
            };
            let _ = writeln!(
                out,
                "<li>i &gt; γ on {} of the boards in both tables{list}.</li>",
                odd.len()
            );
        }
        out.push_str("</ul>\n");
    }

    fn write_board(&self, out: &mut String, board: Board) {
        let mut summary = format!("{}×{}", board.rows(), board.cols());
        for table in self.tables.iter() {
            let Some(known) = table.known(board) else {
                continue;
            };
            let _ = write!(
                summary,
                " · {} {}",
                table.problem.symbol(),
                known_text(known)
            );
            if known.is_proven() && known.upper == known_lower_bound(board) {
                summary.push_str(" <span class=\"bound\" title=\"the lower bound\">●</span>");
            }
        }
        if self.tables.independent_above_gamma(board) {
            summary.push_str(" <span class=\"tag odd\">i &gt; γ</span>");
        }
        let _ = writeln!(
            out,
            "<details class=\"board\">\n<summary>{summary}</summary>"
        );
        let _ = writeln!(
            out,
            "<div class=\"diagrams\" id=\"{}\">",
            board_anchor(board)
        );
        for table in self.tables.iter() {
            let (Some(layout), Some(known)) = (table.layouts.get(&board), table.known(board))
            else {
                continue;
            };
            let title = format!(
                "{}({}) {}",
                table.problem.symbol(),
                board_name(layout),
                known_text(known)
            );
            let _ = writeln!(
                out,
                "<figure>\n{}<figcaption>layout: {}</figcaption>\n</figure>",
                Diagram::new(layout).svg(&title),
                escape(&layout.to_squares_string())
            );
        }
        out.push_str("</div>\n</details>\n");
    }
}

/// What a board's summary and diagram say of its number: `= 13`, or `bounds 12–13 (layout of
/// 13)` when only bounds are proven.
fn known_text(known: Known) -> String {
    if known.is_proven() {
        format!("= {}", known.upper)
    } else {
        format!("bounds {} (layout of {})", known.text(), known.upper)
    }
}

const PAD: f64 = 12.0;
const TITLE_SIZE: f64 = 16.0;

/// The side of a board picture's squares on a board whose longer side is `side`: the sizes of
/// `solve --svg`, about 480 pixels for the board, squares from 18 to 56 pixels.
fn cell_of(side: usize) -> usize {
    (480.0 / side as f64).round().clamp(18.0, 56.0) as usize
}

fn label_size(cell: usize) -> f64 {
    (cell as f64 * 0.4).clamp(10.0, 15.0)
}

fn row_label_width(rows: usize, cell: usize) -> f64 {
    svg::text_width(&rows.to_string(), label_size(cell)) + 8.0
}

/// Where one layout's diagram goes.
struct Diagram<'l> {
    layout: &'l Layout,
    cell: usize,
}

impl<'l> Diagram<'l> {
    fn new(layout: &'l Layout) -> Diagram<'l> {
        let board = layout.board();
        Diagram {
            layout,
            cell: cell_of(board.rows().max(board.cols())),
        }
    }

    /// The diagram as an inline SVG painted with the patterns written by [`write_shared`].
    /// Patterns, not `<use>`: a browser builds a copy of what a `<use>` shows for every one of
    /// them, which made the page of every board to 32×32 take three times as long to open.
    fn svg(&self, title: &str) -> String {
        let layout = self.layout;
        let board = layout.board();
        let c = self.cell;
        let cell = c as f64;
        let label_band = label_size(c) * 1.6;
        let row_labels = row_label_width(board.rows(), c);
        let board_width = board.cols() as f64 * cell;
        let board_height = board.rows() as f64 * cell;
        let block = row_labels + board_width;
        let width = (block.max(svg::text_width(title, TITLE_SIZE)) + 2.0 * PAD).ceil();
        let board_x = ((width - block) / 2.0).round() + row_labels;
        let board_y = PAD + TITLE_SIZE * 1.8 + label_band;
        let height = (board_y + board_height + PAD).ceil();

        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{}"><title>{}</title>"#,
            svg::FONT_FAMILY,
            escape(title),
            w = num(width),
            h = num(height),
        );
        text(
            &mut out,
            width / 2.0,
            PAD + TITLE_SIZE * 0.7,
            TITLE_SIZE,
            Anchor::Middle,
            "#111111",
            title,
        );
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#cols{}-{c})"/><rect x="{}" y="{}" width="{}" height="{}" fill="url(#rows{}-{c})"/>"##,
            num(board_x),
            num(board_y - label_band),
            num(board_width),
            num(label_band),
            board.cols(),
            num(board_x - row_labels),
            num(board_y),
            num(row_labels),
            num(board_height),
            board.rows(),
        );
        // A nested <svg> clips the queens' reach to the board.
        let _ = writeln!(
            out,
            r##"<svg x="{}" y="{}" width="{bw}" height="{bh}"><rect class="board" width="{bw}" height="{bh}" fill="url(#board-{c})"/>"##,
            num(board_x),
            num(board_y),
            bw = num(board_width),
            bh = num(board_height),
        );
        // Every square of a table's layout is covered (the checker passed it); a layout drawn
        // from elsewhere may leave some uncovered, and those are marked.
        for (i, (state, _)) in square_states(layout).iter().enumerate() {
            if *state == SquareState::Uncovered {
                let square = board.square(i);
                let _ = writeln!(
                    out,
                    r#"<rect class="uncovered" x="{}" y="{}" width="{c}" height="{c}" fill="{UNCOVERED}"/>"#,
                    square.col * c,
                    square.row * c,
                );
            }
        }
        let span = reach_span(c);
        for q in layout.queens() {
            let parity = if (q.row + q.col).is_multiple_of(2) {
                "l"
            } else {
                "d"
            };
            let (qx, qy) = (q.col * c, q.row * c);
            let (rx, ry) = (qx as i64 - (span * c) as i64, qy as i64 - (span * c) as i64);
            let reach = (2 * span + 1) * c;
            let _ = writeln!(
                out,
                r##"<rect class="reach" x="{rx}" y="{ry}" width="{reach}" height="{reach}" fill="url(#reach-{c})"/><rect class="q" x="{qx}" y="{qy}" width="{c}" height="{c}" fill="url(#queen-{parity}-{c})"/>"##
            );
        }
        let _ = writeln!(
            out,
            r#"<rect class="frame" x="0.5" y="0.5" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="1"/></svg>"#,
            num(board_width - 1.0),
            num(board_height - 1.0),
        );
        svg::close(&mut out);
        out
    }
}

/// How many squares a queen's drawn reach spans each way: one less than the longest side drawn
/// with squares of side `cell`, enough for every board that uses them.
fn reach_span(cell: usize) -> usize {
    (1..=crate::MAX_SIDE)
        .filter(|&side| cell_of(side) == cell)
        .max()
        .unwrap_or(1)
        - 1
}

/// A pattern whose one tile is the box of the shape it fills, its content in pixels from the
/// box's corner.
fn tile(out: &mut String, id: &str, content: &str) {
    let _ = writeln!(
        out,
        r#"<pattern id="{id}" patternUnits="objectBoundingBox" width="1" height="1">{content}</pattern>"#
    );
}

/// The pieces the diagrams share, drawn once: per square size the chessboard (every square
/// covered), a queen on a light and on a dark square, and the squares a queen reaches; per
/// board side and square size the coordinates.
fn write_shared(out: &mut String, diagrams: &[Diagram]) {
    let mut cells = BTreeSet::new();
    let mut labels = BTreeSet::new();
    for d in diagrams {
        let board = d.layout.board();
        cells.insert(d.cell);
        labels.insert((true, board.cols(), d.cell));
        labels.insert((false, board.rows(), d.cell));
    }
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="shared" width="0" height="0" aria-hidden="true" font-family="{}">"#,
        svg::FONT_FAMILY
    );
    out.push_str("<defs>\n");
    let (light, dark) = (LIGHT.hex(), DARK.hex());
    for &c in &cells {
        let two = 2 * c;
        // As on a real board, the top-left square (row 1, column 1) is light.
        let _ = writeln!(
            out,
            r#"<pattern id="board-{c}" width="{two}" height="{two}" patternUnits="userSpaceOnUse"><rect width="{two}" height="{two}" fill="{light}"/><rect x="{c}" width="{c}" height="{c}" fill="{dark}"/><rect y="{c}" width="{c}" height="{c}" fill="{dark}"/></pattern>"#
        );
        let scale = (c as f64 * 0.8 / 100.0 * 1000.0).round() / 1000.0;
        for (parity, on_light) in [("l", true), ("d", false)] {
            tile(
                out,
                &format!("queen-{parity}-{c}"),
                &format!(
                    r##"<rect width="{c}" height="{c}" fill="{}"/><path transform="translate({} {}) scale({scale})" d="{QUEEN_PATH}" fill="{QUEEN_FILL}" stroke="{QUEEN_EDGE}" stroke-width="5" stroke-linejoin="round"/>"##,
                    if on_light { LIGHT } else { DARK }.hex(),
                    num(c as f64 * 0.1),
                    num(c as f64 * 0.08),
                ),
            );
        }
        // The row, the column and the two diagonals through the middle square of a tile of
        // 2 × span + 1 squares; the board's <svg> cuts them to the board. The diagonals are
        // staircases of whole squares, as the rules reach them.
        let n = 2 * reach_span(c) + 1;
        let (mid, size) = (reach_span(c) * c, n * c);
        let down_right = format!(
            "M0 0{}{}z",
            format!("h{c}v{c}").repeat(n),
            format!("h-{c}v-{c}").repeat(n)
        );
        let down_left = format!(
            "M{size} 0{}{}z",
            format!("v{c}h-{c}").repeat(n),
            format!("v-{c}h{c}").repeat(n)
        );
        tile(
            out,
            &format!("reach-{c}"),
            &format!(
                r#"<g fill="{HOVER}"><rect y="{mid}" width="{size}" height="{c}"/><rect x="{mid}" width="{c}" height="{size}"/><path d="{down_right}"/><path d="{down_left}"/></g>"#
            ),
        );
    }
    for (columns, count, c) in labels {
        let size = label_size(c);
        let cell = c as f64;
        let mut content = String::new();
        if columns {
            let band = size * 1.6;
            for col in 0..count {
                let x = (col as f64 + 0.5) * cell;
                let label = (col + 1).to_string();
                text(
                    &mut content,
                    x,
                    band - size * 0.8,
                    size,
                    Anchor::Middle,
                    LABEL,
                    &label,
                );
            }
            tile(out, &format!("cols{count}-{c}"), &content);
        } else {
            let right = row_label_width(count, c) - 6.0;
            for row in 0..count {
                let y = (row as f64 + 0.5) * cell;
                let label = (row + 1).to_string();
                text(&mut content, right, y, size, Anchor::End, LABEL, &label);
            }
            tile(out, &format!("rows{count}-{c}"), &content);
        }
    }
    out.push_str("</defs>\n</svg>\n");
}

/// What the diagrams' colours mean, said once for the page.
fn write_key(out: &mut String) {
    let _ = writeln!(
        out,
        "<p class=\"key\"><span style=\"background: {QUEEN_FILL}\"></span> queen (point at one: \
         <span style=\"background: {HOVER}\"></span> the squares it covers) · \
         <span style=\"background: {UNCOVERED}\"></span> not covered (never, in a checked table)</p>",
    );
}

/// A square no queen covers, in a layout drawn from elsewhere: a colour neither board colour is
/// near, nor the hover green.
const UNCOVERED: &str = "#e0307a";
