//! The heatmap of a table, as the papers print it: rows N down, columns M across, the number in
//! each cell on a colour that grows with it. Marked cells: where the number meets the known lower
//! bound min(N, M, ⌈(N+M−2)/4⌉), and, when both tables are drawn, where i > γ.

use std::fmt::Write;

use thiserror::Error;

use super::palette::{oklch, Scale};
use super::png::svg_to_png;
use super::svg::{self, num, text, Anchor, Rgb};
use super::table_file::{Known, PlotTable};
use super::{board_anchor, PictureError};
use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::search::Problem;

/// The lower bound on γ(N×M), and so on i(N×M) ≥ γ(N×M), that issue 12 asks the pictures to mark:
/// min(N, M, ⌈(N+M−2)/4⌉), and at least 1 (the formula gives 0 on 1×1, where one queen is needed
/// and γ = 1 meets the bound), as the search's bound has it. On square boards it is the classical
/// ⌈(N−1)/2⌉. The tests check it against the published γ(Q_n) and every computed table up to 12×12.
pub fn known_lower_bound(board: Board) -> usize {
    let (n, m) = (board.rows(), board.cols());
    n.min(m).min((n + m - 2).div_ceil(4)).max(1)
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
    #[error("board {board} has i ≤ {independent} below γ ≥ {gamma}, which cannot be: the γ table claims too much (its layout is not minimal, or its lower bound is wrong)")]
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
            for &board in g.layouts.keys() {
                // i ≥ γ: an independent layout (which dominates) below γ's proven lower bound
                // refutes that bound.
                if let (Some(gamma), Some(independent)) = (g.known(board), i.known(board)) {
                    if independent.upper < gamma.lower {
                        return Err(TablesError::IndependentBelowGamma {
                            board,
                            gamma: gamma.lower,
                            independent: independent.upper,
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

    /// Whether `board` is in both tables with i > γ proven: i's lower bound above γ's layout.
    pub fn independent_above_gamma(&self, board: Board) -> bool {
        match (&self.gamma, &self.independent) {
            (Some(g), Some(i)) => matches!(
                (g.known(board), i.known(board)),
                (Some(g), Some(i)) if i.lower > g.upper
            ),
            _ => false,
        }
    }

    /// Whether a board of either table has only bounds.
    pub fn has_bounds(&self) -> bool {
        self.iter().any(|t| t.bounded() > 0)
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

    /// The row counts of either table, smallest first: both panels are drawn on this extent.
    pub fn row_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.iter().flat_map(PlotTable::row_sizes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    /// The column counts of either table, smallest first.
    pub fn col_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.iter().flat_map(PlotTable::col_sizes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    /// i − γ on `board`, if it is in both tables: exact when both are, else its bounds.
    pub fn difference(&self, board: Board) -> Option<Known> {
        let g = self.gamma.as_ref()?.known(board)?;
        let i = self.independent.as_ref()?.known(board)?;
        Some(Known {
            lower: i.lower.saturating_sub(g.upper),
            upper: i.upper.saturating_sub(g.lower),
        })
    }

    /// The largest number (or upper bound) in either table.
    fn max_value(&self) -> usize {
        self.iter()
            .flat_map(|t| t.layouts.values().map(Layout::len))
            .max()
            .unwrap_or(0)
    }
}

/// A board that is not in a table: light grey with a diagonal stroke, so that it reads as "no
/// number here" without relying on the grey alone.
const MISSING: Rgb = Rgb(222, 222, 222);
const MISSING_STROKE: &str = "#9a9a9a";
const GRID_LINE: &str = "#ffffff";
/// The i > γ mark is drawn in both of these, a dark line outside a white one, so that one of them
/// stands out on any cell: the palette runs from nearly white to nearly black, and no single
/// colour keeps 3:1 against both ends (the old red frame had 1.2-1.7:1 on the mid-blue cells).
const MARK_DARK: Rgb = Rgb(17, 17, 17);
const MARK_LIGHT: Rgb = Rgb(255, 255, 255);

/// The colour of i − γ in the difference panel: near-white for 0 (nothing to see), then oranges
/// darkening with the difference, a hue the value scale never takes.
pub fn difference_colour(difference: usize) -> Rgb {
    if difference == 0 {
        return Rgb(247, 247, 247);
    }
    let step = (difference - 1).min(3) as f64;
    oklch(0.85 - 0.15 * step, 0.15, 60.0)
}

/// Why a heatmap cannot be drawn as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeatmapError {
    #[error("{symbol}({board}) = {value} lies outside the range {scale}: give a range that holds every value")]
    OutsideScale {
        symbol: &'static str,
        board: Board,
        value: usize,
        scale: Scale,
    },
    #[error("the i − γ map needs a γ table and an i table (TABLE -i TABLE)")]
    DifferenceNeedsBoth,
}

/// The heatmap picture of one or two tables, and optionally of i − γ.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    tables: &'a Tables,
    title: Option<String>,
    link_cells: bool,
    scale: Scale,
    difference: bool,
}

const PAD: f64 = 14.0;
const TITLE: f64 = 18.0;
const SUBTITLE: f64 = 12.0;
const PANEL_TITLE: f64 = 15.0;
const PANEL_GAP: f64 = 32.0;
const LEGEND_TEXT: f64 = 12.0;
const LEGEND_BOX: f64 = 22.0;
const LEGEND_LINE: f64 = 26.0;

/// What a panel shows: one table's numbers, or i − γ.
#[derive(Clone, Copy)]
enum PanelKind<'a> {
    Table(&'a PlotTable),
    Difference,
}

/// Where one grid goes.
struct Panel<'a> {
    kind: PanelKind<'a>,
    /// Its name and how many boards it holds, when there are several panels.
    name: String,
    /// Top of the panel's name (or of its column labels, when it has no name).
    top: f64,
    /// Left edge of the row labels.
    x: f64,
    /// Top-left corner of the cells.
    grid_x: f64,
    grid_y: f64,
}

/// Sizes shared by every cell.
struct CellSizes {
    cell: f64,
    value: f64,
    /// The text of a bounded cell: two two-digit numbers and a dash fill most of the cell.
    bounds: f64,
    axis: f64,
}

/// How wide `13–14` is in DejaVu Sans, in em: four digits of 0.636 and an en dash of 0.5.
const BOUNDS_EM: f64 = 4.0 * 0.636 + 0.5;

fn plural(count: usize, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

impl<'a> Heatmap<'a> {
    /// The heatmap on the default scale (stretched only if a value is above its top).
    pub fn new(tables: &'a Tables) -> Heatmap<'a> {
        Heatmap {
            tables,
            title: None,
            link_cells: false,
            scale: Scale::covering(tables.max_value()),
            difference: false,
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

    /// Colour the values on `scale` instead of the default one: plots drawn on one scale can be
    /// compared cell by cell. Every value must lie on it.
    pub fn scale(mut self, scale: Scale) -> Result<Heatmap<'a>, HeatmapError> {
        for table in self.tables.iter() {
            for &board in table.layouts.keys() {
                let known = table.known(board).expect("a board of the table");
                // A bounded cell takes the lower bound's colour; both bounds must be on the
                // scale for its key to explain them.
                if let Some(value) = [known.lower, known.upper]
                    .into_iter()
                    .find(|&v| !scale.contains(v))
                {
                    return Err(HeatmapError::OutsideScale {
                        symbol: table.problem.symbol(),
                        board,
                        value,
                        scale,
                    });
                }
            }
        }
        self.scale = scale;
        Ok(self)
    }

    /// Add a panel of i − γ on every board of both tables.
    pub fn difference(mut self, difference: bool) -> Result<Heatmap<'a>, HeatmapError> {
        if difference && (self.tables.gamma.is_none() || self.tables.independent.is_none()) {
            return Err(HeatmapError::DifferenceNeedsBoth);
        }
        self.difference = difference;
        Ok(self)
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

    /// Whether any cell drawn has only bounds (a table's, or i − γ's when one of them has).
    fn has_bounds(&self) -> bool {
        self.tables.has_bounds()
    }

    fn kinds(&self) -> Vec<PanelKind<'a>> {
        let mut kinds: Vec<PanelKind> = self.tables.iter().map(PanelKind::Table).collect();
        if self.difference {
            kinds.push(PanelKind::Difference);
        }
        kinds
    }

    /// How many boards a panel has a number for.
    fn count(&self, kind: PanelKind) -> usize {
        match kind {
            PanelKind::Table(t) => t.layouts.len(),
            PanelKind::Difference => self
                .tables
                .boards()
                .into_iter()
                .filter(|&b| self.tables.difference(b).is_some())
                .count(),
        }
    }

    /// How many cells of a panel have only bounds.
    fn bounded(&self, kind: PanelKind) -> usize {
        match kind {
            PanelKind::Table(t) => t.bounded(),
            PanelKind::Difference => self
                .tables
                .boards()
                .into_iter()
                .filter(|&b| self.tables.difference(b).is_some_and(|d| !d.is_proven()))
                .count(),
        }
    }

    fn subtitle(&self, panels: usize) -> String {
        if panels == 1 {
            let boards = self.tables.boards().len();
            let bounded = self.tables.iter().map(PlotTable::bounded).sum::<usize>();
            let bounds = if bounded > 0 {
                format!(", {bounded} of them with bounds only")
            } else {
                String::new()
            };
            format!(
                "rows N down, columns M across; {}{bounds}",
                plural(boards, "board")
            )
        } else {
            "rows N down, columns M across".to_string()
        }
    }

    /// The picture as a standalone SVG document. It has a viewBox, so that a page can scale it
    /// (the report does, to fit the screen and the paper).
    pub fn svg(&self) -> String {
        let kinds = self.kinds();
        let rows = self.tables.row_sizes();
        let cols = self.tables.col_sizes();
        let longest = rows.len().max(cols.len()).max(1) as f64;
        // A bounded cell reads `13–14`, five characters: its cells are a little larger, so that
        // they stay readable on a 32×32 table.
        let least = if self.has_bounds() { 30.0 } else { 24.0 };
        let cell = (520.0 / longest).round().clamp(least, 44.0);
        let sizes = CellSizes {
            cell,
            value: (cell * 0.42).round(),
            bounds: (cell * 0.88 / BOUNDS_EM).min((cell * 0.42).round()),
            axis: (cell * 0.36).clamp(10.0, 14.0),
        };
        let row_label_width = svg::text_width("32", sizes.axis) + 10.0;
        let grid_width = cols.len() as f64 * cell;
        let grid_height = rows.len() as f64 * cell;

        let top = PAD + TITLE * 1.5 + SUBTITLE * 1.8;
        // One panel needs no name above its grid: the title says what it is.
        let named = kinds.len() > 1;
        let panel_title = if named { PANEL_TITLE * 1.8 } else { 0.0 };
        // Grids wider than tall (few rows, many columns) go one above the other, the others side
        // by side, so that the picture stays closer to a page than to a strip.
        let stacked = cols.len() > rows.len();
        let mut panels = Vec::new();
        let (mut x, mut y) = (PAD, top);
        for kind in kinds.iter().copied() {
            let count = match self.bounded(kind) {
                0 => plural(self.count(kind), "board"),
                bounded => format!("{} ({bounded} bounded)", plural(self.count(kind), "board")),
            };
            let name = match kind {
                PanelKind::Table(t) => format!("{}(N×M) · {count}", t.problem.symbol()),
                PanelKind::Difference => format!("i − γ · {count}"),
            };
            let name_width = if named {
                svg::text_width(&name, PANEL_TITLE)
            } else {
                0.0
            };
            let grid_x = x + row_label_width;
            let grid_y = y + panel_title + sizes.axis * 1.8;
            if stacked {
                y = grid_y + grid_height + PANEL_GAP;
            } else {
                x = (grid_x + grid_width).max(x + name_width) + PANEL_GAP;
            }
            panels.push(Panel {
                kind,
                name,
                top: grid_y - panel_title - sizes.axis * 1.8,
                x: grid_x - row_label_width,
                grid_x,
                grid_y,
            });
        }
        let panels_right = panels
            .iter()
            .map(|p| {
                let name = if named {
                    p.x + svg::text_width(&p.name, PANEL_TITLE)
                } else {
                    0.0
                };
                (p.grid_x + grid_width).max(name)
            })
            .fold(0.0, f64::max);
        let grid_bottom = panels
            .iter()
            .map(|p| p.grid_y + grid_height)
            .fold(0.0, f64::max);

        let title = self.title.clone().unwrap_or_else(|| self.default_title());
        let subtitle = self.subtitle(panels.len());
        let legend = self.legend_items();
        let scales = self.legend_scales();
        let legend_y = grid_bottom + 20.0;
        let scales_width = scales
            .iter()
            .map(|(label, values)| {
                svg::text_width(label, LEGEND_TEXT) + 8.0 + LEGEND_BOX * values.len() as f64
            })
            .fold(0.0, f64::max)
            + 8.0;
        let legend_width = legend
            .iter()
            .map(|(_, label)| LEGEND_BOX + 8.0 + svg::text_width(label, LEGEND_TEXT))
            .fold(scales_width, f64::max);
        let content_right = panels_right
            .max(PAD + svg::text_width(&title, TITLE))
            .max(PAD + svg::text_width(&subtitle, SUBTITLE))
            .max(PAD + legend_width);
        let width = (content_right + PAD).ceil();
        let lines = scales.len() + legend.len();
        let height = (legend_y + LEGEND_LINE * lines as f64 + PAD).ceil();

        let description = self
            .tables
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
            self.write_panel(&mut out, panel, named, &rows, &cols, &sizes);
        }
        self.write_legend(&mut out, &scales, &legend, legend_y);
        svg::close(&mut out);
        out
    }

    fn write_panel(
        &self,
        out: &mut String,
        panel: &Panel,
        named: bool,
        rows: &[usize],
        cols: &[usize],
        sizes: &CellSizes,
    ) {
        let class = match panel.kind {
            PanelKind::Table(t) => t.problem.name(),
            PanelKind::Difference => "difference",
        };
        let _ = writeln!(out, "<g class=\"panel {class}\">");
        if named {
            text(
                out,
                panel.x,
                panel.top + PANEL_TITLE * 0.6,
                PANEL_TITLE,
                Anchor::Start,
                "#111111",
                &panel.name,
            );
        }
        let cell = sizes.cell;
        let label_y = panel.grid_y - sizes.axis * 0.9;
        text(
            out,
            panel.grid_x - 6.0,
            label_y,
            sizes.axis,
            Anchor::End,
            "#777777",
            "N\\M",
        );
        out.push_str("<g class=\"column-labels\">\n");
        for (j, m) in cols.iter().enumerate() {
            let x = panel.grid_x + (j as f64 + 0.5) * cell;
            text(
                out,
                x,
                label_y,
                sizes.axis,
                Anchor::Middle,
                "#444444",
                &m.to_string(),
            );
        }
        out.push_str("</g>\n<g class=\"row-labels\">\n");
        for (i, n) in rows.iter().enumerate() {
            let y = panel.grid_y + (i as f64 + 0.5) * cell;
            text(
                out,
                panel.grid_x - 6.0,
                y,
                sizes.axis,
                Anchor::End,
                "#444444",
                &n.to_string(),
            );
        }
        out.push_str("</g>\n<g class=\"cells\">\n");
        for (i, &n) in rows.iter().enumerate() {
            for (j, &m) in cols.iter().enumerate() {
                let board = Board::new(n, m).expect("sizes come from boards");
                let x = panel.grid_x + j as f64 * cell;
                let y = panel.grid_y + i as f64 * cell;
                self.write_cell(out, panel.kind, board, x, y, sizes);
            }
        }
        out.push_str("</g>\n</g>\n");
    }

    fn write_cell(
        &self,
        out: &mut String,
        kind: PanelKind,
        board: Board,
        x: f64,
        y: f64,
        sizes: &CellSizes,
    ) {
        let cell = sizes.cell;
        // A bounded cell takes its lower bound's colour: the number is at least that.
        let (known, colour, name) = match kind {
            PanelKind::Table(t) => {
                let known = t.known(board);
                let name = t.problem.symbol();
                (known, known.map(|k| self.scale.colour(k.lower)), name)
            }
            PanelKind::Difference => {
                let known = self.tables.difference(board);
                (known, known.map(|k| difference_colour(k.lower)), "i − γ")
            }
        };
        let board_name = format!("{}×{}", board.rows(), board.cols());
        let (Some(known), Some(colour)) = (known, colour) else {
            let _ = writeln!(
                out,
                r#"<rect class="cell missing" data-board="{board}" x="{}" y="{}" width="{c}" height="{c}" fill="{}" stroke="{GRID_LINE}"><title>{name}({board_name}): not computed</title></rect>"#,
                num(x),
                num(y),
                MISSING.hex(),
                c = num(cell),
            );
            let _ = writeln!(
                out,
                r#"<path d="M{} {}l{d} -{d}" stroke="{MISSING_STROKE}" stroke-width="1"/>"#,
                num(x + cell * 0.3),
                num(y + cell * 0.7),
                d = num(cell * 0.4),
            );
            return;
        };
        // The board has a value here, so the report has its diagrams.
        let link = self.link_cells;
        if link {
            let _ = writeln!(out, r##"<a href="#{}">"##, board_anchor(board));
        }
        let shown = known.text();
        let value = match kind {
            PanelKind::Table(_) => format!("{name}({board_name})"),
            PanelKind::Difference => format!("i({board_name}) − γ({board_name})"),
        };
        let (class, data, title) = if known.is_proven() {
            (
                "cell",
                format!(r#"data-value="{shown}""#),
                format!("{value} = {shown}"),
            )
        } else {
            (
                "cell bounds",
                format!(
                    r#"data-lower="{}" data-upper="{}""#,
                    known.lower, known.upper
                ),
                format!("{value}: bounds {shown}, not proven"),
            )
        };
        let _ = writeln!(
            out,
            r#"<rect class="{class}" data-board="{board}" {data} x="{}" y="{}" width="{c}" height="{c}" fill="{}" stroke="{GRID_LINE}"><title>{title}</title></rect>"#,
            num(x),
            num(y),
            colour.hex(),
            c = num(cell),
        );
        let ink = if colour.is_light() {
            "#111111"
        } else {
            "#ffffff"
        };
        if known.is_proven() {
            text(
                out,
                x + cell / 2.0,
                y + cell / 2.0,
                sizes.value,
                Anchor::Middle,
                ink,
                &shown,
            );
        } else {
            hatch(out, x, y, cell, colour);
            // The text sits on a clear band of the cell's colour: the hatch shows above and
            // below it, and no diagonal runs through the digits.
            let band = (sizes.bounds * 1.35).round();
            let _ = writeln!(
                out,
                r#"<rect class="bounds-band" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                num(x + 1.0),
                num(y + (cell - band) / 2.0),
                num(cell - 2.0),
                num(band),
                colour.hex(),
            );
            text(
                out,
                x + cell / 2.0,
                y + cell / 2.0,
                sizes.bounds,
                Anchor::Middle,
                ink,
                &shown,
            );
        }
        if let PanelKind::Table(_) = kind {
            // Only a proven number can equal the bound: bounds say nothing of the kind.
            if known.is_proven() && known.upper == known_lower_bound(board) {
                bound_dot(
                    out,
                    x + cell * 0.17,
                    y + cell * 0.17,
                    (cell * 0.09).max(2.5),
                );
            }
            if self.tables.independent_above_gamma(board) {
                odd_mark(out, x, y, cell);
            }
        }
        if link {
            out.push_str("</a>\n");
        }
    }

    /// The colour keys: the value scale, and i − γ's when it is drawn.
    fn legend_scales(&self) -> Vec<(String, Vec<(usize, Rgb)>)> {
        let values = (self.scale.lo()..=self.scale.hi())
            .map(|v| (v, self.scale.colour(v)))
            .collect();
        let mut scales = vec![("queens".to_string(), values)];
        if self.difference {
            let largest = self
                .tables
                .boards()
                .into_iter()
                .filter_map(|b| self.tables.difference(b))
                .map(|d| d.upper)
                .max()
                .unwrap_or(0)
                .max(2);
            let values = (0..=largest).map(|d| (d, difference_colour(d))).collect();
            scales.push(("i − γ".to_string(), values));
        }
        scales
    }

    fn legend_items(&self) -> Vec<(LegendMark, String)> {
        let mut items = vec![(
            LegendMark::BoundDot,
            "equals the known lower bound min(N, M, ⌈(N+M−2)/4⌉)".to_string(),
        )];
        if self.tables.gamma.is_some() && self.tables.independent.is_some() {
            items.push((LegendMark::OddFrame, "i > γ on this board".to_string()));
        }
        if self.has_bounds() {
            items.push((
                LegendMark::Bounds,
                "bounds: lower–upper, not proven (coloured as the lower)".to_string(),
            ));
        }
        let cells = self.tables.row_sizes().len() * self.tables.col_sizes().len();
        let missing = self
            .kinds()
            .into_iter()
            .any(|kind| self.count(kind) < cells);
        if missing {
            items.push((LegendMark::Missing, "not computed".to_string()));
        }
        items
    }

    fn write_legend(
        &self,
        out: &mut String,
        scales: &[(String, Vec<(usize, Rgb)>)],
        items: &[(LegendMark, String)],
        y: f64,
    ) {
        out.push_str("<g class=\"legend\">\n");
        let label_width = scales
            .iter()
            .map(|(label, _)| svg::text_width(label, LEGEND_TEXT))
            .fold(0.0, f64::max)
            + 8.0;
        for (k, (label, values)) in scales.iter().enumerate() {
            let y = y + LEGEND_LINE * k as f64;
            text(
                out,
                PAD,
                y + LEGEND_BOX / 2.0,
                LEGEND_TEXT,
                Anchor::Start,
                "#222222",
                label,
            );
            let mut x = PAD + label_width;
            for &(value, colour) in values {
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
                // Two-digit values in a 22-pixel box: a smaller size keeps them inside, and
                // every value of the key is set at the same size.
                let widest = values.last().map_or(0, |&(v, _)| v);
                let size = if widest >= 10 {
                    LEGEND_TEXT * 0.8
                } else {
                    LEGEND_TEXT
                };
                text(
                    out,
                    x + LEGEND_BOX / 2.0,
                    y + LEGEND_BOX / 2.0,
                    size,
                    Anchor::Middle,
                    ink,
                    &value.to_string(),
                );
                x += LEGEND_BOX;
            }
        }
        let sample = self
            .scale
            .colour(self.scale.lo() + (self.scale.hi() - self.scale.lo()) / 3);
        for (k, (mark, label)) in items.iter().enumerate() {
            let y = y + LEGEND_LINE * (scales.len() + k) as f64;
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
                LegendMark::OddFrame => odd_mark(out, PAD, y, LEGEND_BOX),
                LegendMark::Bounds => hatch(out, PAD, y, LEGEND_BOX, fill),
                LegendMark::Missing => {
                    let _ = writeln!(
                        out,
                        r#"<path d="M{} {}l{d} -{d}" stroke="{MISSING_STROKE}" stroke-width="1"/>"#,
                        num(PAD + LEGEND_BOX * 0.3),
                        num(y + LEGEND_BOX * 0.7),
                        d = num(LEGEND_BOX * 0.4),
                    );
                }
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
    Bounds,
    Missing,
}

/// The distance between the hatch's diagonals and their width, in pixels.
const HATCH_STEP: f64 = 6.0;
const HATCH_LINE: f64 = 1.5;

/// The hatch over a bounded cell of `colour` (its top-left corner at `x`, `y`): diagonals a
/// little darker than a light cell or lighter than a dark one. Drawn as lines of one opaque
/// colour, not as a pattern with transparency, so that the PDF (plain colours only) shows it as
/// the SVG and the PNG do.
fn hatch(out: &mut String, x: f64, y: f64, cell: f64, colour: Rgb) {
    let ink = if colour.is_light() {
        colour.mix(MARK_DARK, 0.4)
    } else {
        colour.mix(MARK_LIGHT, 0.4)
    };
    // Inside the cell's white outline, which stays whole.
    let (x, y, cell) = (x + 1.0, y + 1.0, cell - 2.0);
    let mut d = String::new();
    let mut k = HATCH_STEP / 2.0;
    while k < 2.0 * cell {
        // The diagonal u + v = k of the cell, from its lower-left end to its upper-right one.
        let (u0, u1) = ((k - cell).max(0.0), k.min(cell));
        let _ = write!(
            d,
            "M{} {}L{} {}",
            num(x + u0),
            num(y + k - u0),
            num(x + u1),
            num(y + k - u1)
        );
        k += HATCH_STEP;
    }
    let _ = writeln!(
        out,
        r#"<path class="hatch" d="{d}" stroke="{}" stroke-width="{HATCH_LINE}" fill="none"/>"#,
        ink.hex(),
    );
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

/// The i > γ mark: a frame of a dark line outside a white one (one of the two stands out on any
/// cell colour), and a dark corner triangle in the top-right corner, a second cue that needs no
/// colour at all (the bound's dot sits in the top-left one).
fn odd_mark(out: &mut String, x: f64, y: f64, cell: f64) {
    let corner = (cell * 0.3).round();
    let _ = writeln!(
        out,
        r#"<g class="i-above-gamma"><rect x="{}" y="{}" width="{w}" height="{w}" fill="none" stroke="{dark}" stroke-width="3"/><rect x="{}" y="{}" width="{v}" height="{v}" fill="none" stroke="{light}" stroke-width="1.5"/><path d="M{} {}h-{corner}l{corner} {corner}z" fill="{dark}" stroke="{light}" stroke-width="1"/></g>"#,
        num(x + 1.5),
        num(y + 1.5),
        num(x + 3.75),
        num(y + 3.75),
        num(x + cell - 3.0),
        num(y + 3.0),
        w = num(cell - 3.0),
        v = num(cell - 7.5),
        dark = MARK_DARK.hex(),
        light = MARK_LIGHT.hex(),
    );
}

impl Kind for TablesError {
    fn kind(&self) -> ErrorKind {
        match self {
            TablesError::SameProblem(_) | TablesError::IndependentBelowGamma { .. } => {
                ErrorKind::Refusal
            }
        }
    }
}

impl Kind for HeatmapError {
    fn kind(&self) -> ErrorKind {
        match self {
            HeatmapError::OutsideScale { .. } | HeatmapError::DifferenceNeedsBoth => {
                ErrorKind::Refusal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::palette::{contrast, deuteranopia, ramp};

    #[test]
    fn lower_bound_of_small_boards() {
        let b = |n, m| known_lower_bound(Board::new(n, m).unwrap());
        assert_eq!(b(1, 1), 1); // the formula says 0; one queen is needed
        assert_eq!(b(1, 32), 1);
        assert_eq!(b(8, 8), 4); // γ(8×8) = 5 does not meet it
        assert_eq!(b(11, 11), 5); // γ(11×11) = 5 does
        assert_eq!(b(3, 5), 2);
    }

    /// WCAG contrast of the i > γ mark against every colour a cell can have, as seen with
    /// normal vision and with deuteranopia: at least 3:1 (the mark's dark or its white line).
    #[test]
    fn the_i_above_gamma_mark_stands_out_on_every_cell() {
        let mut cells: Vec<Rgb> = (0..=100).map(|k| ramp(k as f64 / 100.0)).collect();
        cells.extend((0..=8).map(difference_colour));
        cells.push(MISSING);
        for seen in [(|c| c) as fn(Rgb) -> Rgb, deuteranopia] {
            for &cell in &cells {
                let cell = seen(cell);
                let best = contrast(seen(MARK_DARK), cell).max(contrast(seen(MARK_LIGHT), cell));
                assert!(best >= 3.0, "{cell:?}: {best:.2}");
            }
        }
        // The old red frame, for the record: below 3:1 on mid-scale cells.
        assert!(contrast(Rgb(0xe4, 0x1a, 0x1c), ramp(0.6)) < 3.0);
    }

    #[test]
    fn differences_are_told_apart_from_values() {
        let values: Vec<Rgb> = (1..=18).map(|v| Scale::DEFAULT.colour(v)).collect();
        for d in 1..=4 {
            assert!(!values.contains(&difference_colour(d)));
        }
        assert!(difference_colour(1).is_light() || difference_colour(2).is_light());
    }
}
