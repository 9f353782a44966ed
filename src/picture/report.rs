//! The report page: one self-contained HTML file (no scripts, nothing fetched) with the heatmap of
//! the table(s) and, for every board, its diagram(s) behind a `<details>` element that opens on a
//! click. The heatmap's cells link to the diagrams (browsers open a closed `<details>` when a link
//! targets something inside it).

use std::fmt::Write;

use super::board::{board_name, BoardPicture};
use super::board_anchor;
use super::heatmap::{known_lower_bound, Heatmap, Tables};
use super::svg::escape;
use crate::board::Board;

/// The report page of one or two tables.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    tables: &'a Tables,
    title: Option<String>,
    sources: Vec<String>,
}

const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; margin: 1.5em; color: #1a1a1a; }
h1 { font-size: 1.5em; margin: 0 0 0.3em; }
h2 { font-size: 1.2em; margin: 1.5em 0 0.4em; }
p, li { line-height: 1.45; max-width: 60em; }
figure { margin: 0; }
.heatmap { overflow-x: auto; }
.boards { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-start; }
details { border: 1px solid #c9c2b8; border-radius: 6px; background: #faf8f5; }
details[open] { flex-basis: 100%; background: #ffffff; }
summary { cursor: pointer; padding: 4px 10px; white-space: nowrap; }
summary:hover { background: #efe9df; }
.tag { font-size: 0.8em; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
.bound { font-size: 0.8em; }
.tag.odd { background: #e41a1c; color: #ffffff; }
.diagrams { display: flex; flex-wrap: wrap; gap: 24px; padding: 8px 12px 12px; }
.diagrams:target { outline: 3px solid #3b7fb0; outline-offset: -3px; }
figcaption { font-size: 0.85em; color: #444444; max-width: 36em; overflow-wrap: anywhere; }
footer { margin-top: 2em; font-size: 0.8em; color: #777777; }
";

impl<'a> Report<'a> {
    pub fn new(tables: &'a Tables) -> Report<'a> {
        Report {
            tables,
            title: None,
            sources: Vec::new(),
        }
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

        let mut heatmap = Heatmap::new(self.tables).link_cells(true);
        if let Some(t) = &self.title {
            heatmap = heatmap.title(t.clone());
        }
        let _ = writeln!(
            out,
            "<figure class=\"heatmap\">\n{}</figure>",
            heatmap.svg()
        );

        out.push_str("<h2>Boards</h2>\n");
        out.push_str(
            "<p>Click a board (or a cell of the heatmap) to open its diagram: the queens of the \
             layout in the file, with every square they cover shaded; point at a queen to see \
             the squares it covers. Rows are numbered down from the top and columns across from \
             the left, as in the layout column. ● marks a number equal to the lower bound, like \
             the dots in the heatmap.</p>\n",
        );
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
                .iter()
                .filter(|(&b, l)| l.len() == known_lower_bound(b))
                .count();
            let _ = writeln!(
                out,
                "<li>{}: {} boards{source}; on {met} of them {} equals the lower bound \
                 min(N, M, ⌈(N+M−2)/4⌉).</li>",
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
            if let Some(value) = table.value(board) {
                let _ = write!(summary, " · {} = {value}", table.problem.symbol());
                if value == known_lower_bound(board) {
                    summary.push_str(" <span class=\"bound\" title=\"the lower bound\">●</span>");
                }
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
            let Some(layout) = table.layouts.get(&board) else {
                continue;
            };
            let title = format!(
                "{}({}) = {}",
                table.problem.symbol(),
                board_name(layout),
                layout.len()
            );
            let picture = BoardPicture::new(layout).title(title);
            let _ = writeln!(
                out,
                "<figure>\n{}<figcaption>layout: {}</figcaption>\n</figure>",
                picture.svg(),
                escape(&layout.to_squares_string())
            );
        }
        out.push_str("</div>\n</details>\n");
    }
}
