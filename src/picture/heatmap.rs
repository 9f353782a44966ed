//! The heatmap of a table, as the papers print it: rows N down, columns M across, the number in
//! each cell on a colour that grows with it. Marked cells: where the number meets the known lower
//! bound min(N, M, ⌈(N+M−2)/4⌉), and, when both tables are drawn, where i > γ.

use std::fmt::Write;

use thiserror::Error;

use super::png::svg_to_png;
use super::svg::{self, num, text, Anchor, Rgb};
use super::table_file::PlotTable;
use super::{board_anchor, PictureError};
use crate::board::Board;
use crate::search::Problem;

/// The lower bound on γ(N×M), and so on i(N×M) ≥ γ(N×M), that issue 12 asks the pictures to mark:
/// min(N, M, ⌈(N+M−2)/4⌉). On square boards it is the classical ⌈(N−1)/2⌉. It is not used by the
/// search; the tests check it against the published γ(Q_n) and every computed table up to 12×12.
pub fn known_lower_bound(board: Board) -> usize {
    let (n, m) = (board.rows(), board.cols());
    n.min(m).min((n + m - 2).div_ceil(4))
}

/// A γ table, an i table, or both, ready to be drawn side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    pub gamma: Option<PlotTable>,
    pub independent: Option<PlotTable>,
}

/// Why two tables cannot be drawn together.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TablesError {
    #[error("both tables are of {0}: give one domination and one independent-domination table")]
    SameProblem(Problem),
    #[error("board {board} has i = {independent} below γ = {gamma}, which cannot be: the γ table's layout is not minimal")]
    IndependentBelowGamma {
        board: Board,
        gamma: usize,
        independent: usize,
    },
}

impl Tables {
    /// One table of either problem, or one of each (in either order).
    pub fn new(first: PlotTable, second: Option<PlotTable>) -> Result<Tables, TablesError> {
        let mut tables = Tables {
            gamma: None,
            independent: None,
        };
        for table in std::iter::once(first).chain(second) {
            let slot = match table.problem {
                Problem::Domination => &mut tables.gamma,
                Problem::IndependentDomination => &mut tables.independent,
            };
            if slot.is_some() {
                return Err(TablesError::SameProblem(table.problem));
            }
            *slot = Some(table);
        }
        if let (Some(g), Some(i)) = (&tables.gamma, &tables.independent) {
            for (&board, layout) in &g.layouts {
                if let Some(independent) = i.value(board) {
                    if independent < layout.len() {
                        return Err(TablesError::IndependentBelowGamma {
                            board,
                            gamma: layout.len(),
                            independent,
                        });
                    }
                }
            }
        }
        Ok(tables)
    }

    /// The tables present, γ first.
    pub fn iter(&self) -> impl Iterator<Item = &PlotTable> {
        self.gamma.iter().chain(self.independent.iter())
    }

    /// Whether `board` is in both tables with i > γ.
    pub fn independent_above_gamma(&self, board: Board) -> bool {
        match (&self.gamma, &self.independent) {
            (Some(g), Some(i)) => matches!(
                (g.value(board), i.value(board)),
                (Some(g), Some(i)) if i > g
            ),
            _ => false,
        }
    }

    /// Every board of either table, by rows then columns.
    pub fn boards(&self) -> Vec<Board> {
        let mut boards: Vec<Board> = self
            .iter()
            .flat_map(|t| t.layouts.keys().copied())
            .collect();
        boards.sort_unstable();
        boards.dedup();
        boards
    }

    fn value_range(&self) -> (usize, usize) {
        let values: Vec<usize> = self
            .iter()
            .flat_map(|t| t.layouts.values().map(|l| l.len()))
            .collect();
        let min = values.iter().copied().min().unwrap_or(0);
        let max = values.iter().copied().max().unwrap_or(0);
        (min, max)
    }
}

/// From few queens (pale yellow) to many (deep indigo), evenly spaced stops of rising darkness so
/// that the order reads without the legend.
const SCALE: [Rgb; 5] = [
    Rgb(255, 243, 176),
    Rgb(184, 225, 134),
    Rgb(92, 184, 154),
    Rgb(59, 127, 176),
    Rgb(58, 52, 128),
];
const MISSING: Rgb = Rgb(230, 230, 230);
const ODD_FRAME: &str = "#e41a1c";
const GRID_LINE: &str = "#ffffff";

fn scale_colour(value: usize, (min, max): (usize, usize)) -> Rgb {
    let t = if max > min {
        (value - min) as f64 / (max - min) as f64
    } else {
        0.5
    };
    let pos = t * (SCALE.len() - 1) as f64;
    let i = (pos.floor() as usize).min(SCALE.len() - 2);
    SCALE[i].mix(SCALE[i + 1], pos - i as f64)
}

/// The heatmap picture of one or two tables.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    tables: &'a Tables,
    title: Option<String>,
    link_cells: bool,
}

const PAD: f64 = 14.0;
const TITLE: f64 = 18.0;
const SUBTITLE: f64 = 12.0;
const PANEL_TITLE: f64 = 15.0;
const PANEL_GAP: f64 = 32.0;
const LEGEND_TEXT: f64 = 12.0;
const LEGEND_BOX: f64 = 22.0;
const LEGEND_LINE: f64 = 26.0;

/// Where one table's grid goes.
struct Panel<'a> {
    table: &'a PlotTable,
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// Top of the panel's name (or of its column labels, when it has no name).
    top: f64,
    /// Left edge of the row labels.
    x: f64,
    /// Top-left corner of the cells.
    grid_x: f64,
    grid_y: f64,
}

impl<'a> Heatmap<'a> {
    pub fn new(tables: &'a Tables) -> Heatmap<'a> {
        Heatmap {
            tables,
            title: None,
            link_cells: false,
        }
    }

    /// Replace the default title.
    pub fn title(mut self, title: impl Into<String>) -> Heatmap<'a> {
        self.title = Some(title.into());
        self
    }

    /// Make each cell a link to `#board-NxM` (for the report page, where each board has a
    /// diagram).
    pub fn link_cells(mut self, link: bool) -> Heatmap<'a> {
        self.link_cells = link;
        self
    }

    fn default_title(&self) -> String {
        match (&self.tables.gamma, &self.tables.independent) {
            (Some(_), Some(_)) => {
                "γ(N×M) and i(N×M): queen domination and independent domination".into()
            }
            (None, Some(t)) | (Some(t), None) => {
                format!("{}(N×M): {} numbers", t.problem.symbol(), t.problem.title())
            }
            (None, None) => "γ(N×M): queen domination numbers".into(),
        }
    }

    fn subtitle(&self) -> String {
        let boards = self.tables.boards().len();
        let plural = if boards == 1 { "" } else { "s" };
        format!("rows N down, columns M across; {boards} board{plural}")
    }

    /// The picture as a standalone SVG document.
    pub fn svg(&self) -> String {
        let tables: Vec<&PlotTable> = self.tables.iter().collect();
        let range = self.tables.value_range();
        let longest = tables
            .iter()
            .map(|t| t.row_sizes().len().max(t.col_sizes().len()))
            .max()
            .unwrap_or(1) as f64;
        let cell = (520.0 / longest).round().clamp(24.0, 44.0);
        let value_size = (cell * 0.42).round();
        let axis_size = (cell * 0.36).clamp(10.0, 14.0);
        let row_label_width = svg::text_width("32", axis_size) + 10.0;

        let top = PAD + TITLE * 1.5 + SUBTITLE * 1.8;
        // One table needs no name above its grid: the title says what it is.
        let panel_title = if tables.len() > 1 {
            PANEL_TITLE * 1.8
        } else {
            0.0
        };
        // Grids wider than tall (few rows, many columns) go one above the other, the others side
        // by side, so that the picture stays closer to a page than to a strip.
        let stacked = tables
            .iter()
            .any(|t| t.col_sizes().len() > t.row_sizes().len());
        let mut panels = Vec::new();
        let (mut x, mut y) = (PAD, top);
        for &table in &tables {
            let rows = table.row_sizes();
            let cols = table.col_sizes();
            let grid_x = x + row_label_width;
            let grid_y = y + panel_title + axis_size * 1.8;
            if stacked {
                y = grid_y + rows.len() as f64 * cell + PANEL_GAP;
            } else {
                x = grid_x + cols.len() as f64 * cell + PANEL_GAP;
            }
            panels.push(Panel {
                table,
                rows,
                cols,
                top: grid_y - panel_title - axis_size * 1.8,
                x: grid_x - row_label_width,
                grid_x,
                grid_y,
            });
        }
        let panels_right = panels
            .iter()
            .map(|p| p.grid_x + p.cols.len() as f64 * cell)
            .fold(0.0, f64::max);
        let grid_bottom = panels
            .iter()
            .map(|p| p.grid_y + p.rows.len() as f64 * cell)
            .fold(0.0, f64::max);

        let title = self.title.clone().unwrap_or_else(|| self.default_title());
        let subtitle = self.subtitle();
        let legend = self.legend_items();
        let legend_y = grid_bottom + 20.0;
        let values_width = LEGEND_BOX * (range.1 - range.0 + 1) as f64
            + svg::text_width("queens ", LEGEND_TEXT)
            + 8.0;
        let legend_width = legend
            .iter()
            .map(|(_, label)| LEGEND_BOX + 8.0 + svg::text_width(label, LEGEND_TEXT))
            .fold(values_width, f64::max);
        let content_right = panels_right
            .max(PAD + svg::text_width(&title, TITLE))
            .max(PAD + svg::text_width(&subtitle, SUBTITLE))
            .max(PAD + legend_width);
        let width = (content_right + PAD).ceil();
        let height = (legend_y + LEGEND_LINE * (1 + legend.len()) as f64 + PAD).ceil();

        let description = tables
            .iter()
            .map(|t| format!("{} table of {} boards", t.problem, t.layouts.len()))
            .collect::<Vec<_>>()
            .join("; ");
        let mut out = svg::open(width, height, &title, &description);
        out.push_str("<g class=\"title\">\n");
        text(
            &mut out,
            PAD,
            PAD + TITLE * 0.6,
            TITLE,
            Anchor::Start,
            "#111111",
            &title,
        );
        text(
            &mut out,
            PAD,
            PAD + TITLE * 1.5 + SUBTITLE * 0.6,
            SUBTITLE,
            Anchor::Start,
            "#555555",
            &subtitle,
        );
        out.push_str("</g>\n");

        for panel in &panels {
            self.write_panel(&mut out, panel, cell, value_size, axis_size, range);
        }
        self.write_legend(&mut out, &legend, legend_y, range);
        svg::close(&mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn write_panel(
        &self,
        out: &mut String,
        panel: &Panel,
        cell: f64,
        value_size: f64,
        axis_size: f64,
        range: (usize, usize),
    ) {
        let problem = panel.table.problem;
        let _ = writeln!(out, "<g class=\"panel {}\">", problem.name());
        if self.tables.gamma.is_some() && self.tables.independent.is_some() {
            text(
                out,
                panel.x,
                panel.top + PANEL_TITLE * 0.6,
                PANEL_TITLE,
                Anchor::Start,
                "#111111",
                &format!("{}(N×M)", problem.symbol()),
            );
        }
        let label_y = panel.grid_y - axis_size * 0.9;
        text(
            out,
            panel.grid_x - 6.0,
            label_y,
            axis_size,
            Anchor::End,
            "#777777",
            "N\\M",
        );
        out.push_str("<g class=\"column-labels\">\n");
        for (j, m) in panel.cols.iter().enumerate() {
            let x = panel.grid_x + (j as f64 + 0.5) * cell;
            text(
                out,
                x,
                label_y,
                axis_size,
                Anchor::Middle,
                "#444444",
                &m.to_string(),
            );
        }
        out.push_str("</g>\n<g class=\"row-labels\">\n");
        for (i, n) in panel.rows.iter().enumerate() {
            let y = panel.grid_y + (i as f64 + 0.5) * cell;
            text(
                out,
                panel.grid_x - 6.0,
                y,
                axis_size,
                Anchor::End,
                "#444444",
                &n.to_string(),
            );
        }
        out.push_str("</g>\n<g class=\"cells\">\n");
        for (i, &n) in panel.rows.iter().enumerate() {
            for (j, &m) in panel.cols.iter().enumerate() {
                let board = Board::new(n, m).expect("sizes come from boards");
                let x = panel.grid_x + j as f64 * cell;
                let y = panel.grid_y + i as f64 * cell;
                self.write_cell(out, panel.table, board, x, y, cell, value_size, range);
            }
        }
        out.push_str("</g>\n</g>\n");
    }

    #[allow(clippy::too_many_arguments)]
    fn write_cell(
        &self,
        out: &mut String,
        table: &PlotTable,
        board: Board,
        x: f64,
        y: f64,
        cell: f64,
        value_size: f64,
        range: (usize, usize),
    ) {
        let Some(value) = table.value(board) else {
            let _ = writeln!(
                out,
                r#"<rect class="cell missing" x="{}" y="{}" width="{c}" height="{c}" fill="{}" stroke="{GRID_LINE}"/>"#,
                num(x),
                num(y),
                MISSING.hex(),
                c = num(cell),
            );
            return;
        };
        // The board has a value here, so the report has its diagrams.
        let link = self.link_cells;
        if link {
            let _ = writeln!(out, r##"<a href="#{}">"##, board_anchor(board));
        }
        let colour = scale_colour(value, range);
        let _ = writeln!(
            out,
            r#"<rect class="cell" data-board="{board}" data-value="{value}" x="{}" y="{}" width="{c}" height="{c}" fill="{}" stroke="{GRID_LINE}"><title>{}({}×{}) = {value}</title></rect>"#,
            num(x),
            num(y),
            colour.hex(),
            table.problem.symbol(),
            board.rows(),
            board.cols(),
            c = num(cell),
        );
        let ink = if colour.is_light() {
            "#111111"
        } else {
            "#ffffff"
        };
        text(
            out,
            x + cell / 2.0,
            y + cell / 2.0,
            value_size,
            Anchor::Middle,
            ink,
            &value.to_string(),
        );
        if value == known_lower_bound(board) {
            bound_dot(
                out,
                x + cell * 0.17,
                y + cell * 0.17,
                (cell * 0.09).max(2.5),
            );
        }
        if self.tables.independent_above_gamma(board) {
            odd_frame(out, x, y, cell);
        }
        if link {
            out.push_str("</a>\n");
        }
    }

    fn legend_items(&self) -> Vec<(LegendMark, String)> {
        let mut items = vec![(
            LegendMark::BoundDot,
            "equals the known lower bound min(N, M, ⌈(N+M−2)/4⌉)".to_string(),
        )];
        if self.tables.gamma.is_some() && self.tables.independent.is_some() {
            items.push((LegendMark::OddFrame, "i > γ on this board".to_string()));
        }
        let missing = self
            .tables
            .iter()
            .any(|t| t.row_sizes().len() * t.col_sizes().len() > t.layouts.len());
        if missing {
            items.push((LegendMark::Missing, "board not in the table".to_string()));
        }
        items
    }

    fn write_legend(
        &self,
        out: &mut String,
        items: &[(LegendMark, String)],
        y: f64,
        range: (usize, usize),
    ) {
        out.push_str("<g class=\"legend\">\n");
        let label = "queens";
        text(
            out,
            PAD,
            y + LEGEND_BOX / 2.0,
            LEGEND_TEXT,
            Anchor::Start,
            "#222222",
            label,
        );
        let mut x = PAD + svg::text_width("queens ", LEGEND_TEXT) + 8.0;
        for value in range.0..=range.1 {
            let colour = scale_colour(value, range);
            let _ = writeln!(
                out,
                r#"<rect class="scale" x="{}" y="{}" width="{LEGEND_BOX}" height="{LEGEND_BOX}" fill="{}"/>"#,
                num(x),
                num(y),
                colour.hex()
            );
            let ink = if colour.is_light() {
                "#111111"
            } else {
                "#ffffff"
            };
            text(
                out,
                x + LEGEND_BOX / 2.0,
                y + LEGEND_BOX / 2.0,
                LEGEND_TEXT,
                Anchor::Middle,
                ink,
                &value.to_string(),
            );
            x += LEGEND_BOX;
        }
        for (k, (mark, label)) in items.iter().enumerate() {
            let y = y + LEGEND_LINE * (k + 1) as f64;
            let sample = Rgb(184, 225, 134);
            let fill = if *mark == LegendMark::Missing {
                MISSING
            } else {
                sample
            };
            let _ = writeln!(
                out,
                r#"<rect class="key" x="{}" y="{}" width="{LEGEND_BOX}" height="{LEGEND_BOX}" fill="{}"/>"#,
                num(PAD),
                num(y),
                fill.hex()
            );
            match mark {
                LegendMark::BoundDot => bound_dot(
                    out,
                    PAD + LEGEND_BOX * 0.2,
                    y + LEGEND_BOX * 0.2,
                    LEGEND_BOX * 0.1,
                ),
                LegendMark::OddFrame => odd_frame(out, PAD, y, LEGEND_BOX),
                LegendMark::Missing => {}
            }
            text(
                out,
                PAD + LEGEND_BOX + 8.0,
                y + LEGEND_BOX / 2.0,
                LEGEND_TEXT,
                Anchor::Start,
                "#222222",
                label,
            );
        }
        out.push_str("</g>\n");
    }

    /// The picture rendered as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        svg_to_png(&self.svg())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LegendMark {
    BoundDot,
    OddFrame,
    Missing,
}

fn bound_dot(out: &mut String, cx: f64, cy: f64, r: f64) {
    let _ = writeln!(
        out,
        r##"<circle class="bound-met" cx="{}" cy="{}" r="{}" fill="#111111" stroke="#ffffff" stroke-width="1"/>"##,
        num(cx),
        num(cy),
        num(r)
    );
}

fn odd_frame(out: &mut String, x: f64, y: f64, cell: f64) {
    let _ = writeln!(
        out,
        r#"<rect class="i-above-gamma" x="{}" y="{}" width="{w}" height="{w}" fill="none" stroke="{ODD_FRAME}" stroke-width="3"/>"#,
        num(x + 2.5),
        num(y + 2.5),
        w = num(cell - 5.0),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_bound_of_small_boards() {
        let b = |n, m| known_lower_bound(Board::new(n, m).unwrap());
        assert_eq!(b(1, 1), 0); // the formula says nothing on 1×1
        assert_eq!(b(1, 32), 1);
        assert_eq!(b(8, 8), 4); // γ(8×8) = 5 does not meet it
        assert_eq!(b(11, 11), 5); // γ(11×11) = 5 does
        assert_eq!(b(3, 5), 2);
    }

    #[test]
    fn colours_rise_with_the_value() {
        assert_eq!(scale_colour(1, (1, 9)), SCALE[0]);
        assert_eq!(scale_colour(9, (1, 9)), SCALE[4]);
        assert_eq!(scale_colour(5, (1, 9)), SCALE[2]);
    }
}
