//! Table formats. Each format turns the same row records ([`crate::row::TableRow`]) into bytes and
//! does no I/O, so that the caller decides where the bytes go and when they are flushed (rows are
//! written as they finish).
//!
//! The line formats (CSV, TSV, JSON Lines) write one whole line per board and nothing after the
//! last row, so a file cut short after any row is still a valid table: these are the formats a run
//! can resume, and each can read its own rows back ([`Format::read_row`]). Markdown, the grid, the
//! b-file and XLSX are whole-table formats: they are produced once every row is in.
//!
//! The formats walk the columns of the row kind ([`RowKind::columns`]), so a new column needs no
//! change here.

mod bfile;
mod csv;
mod grid;
mod json;
mod markdown;
mod pattern;
mod read;
mod tsv;
mod xlsx;

use std::fmt;

use thiserror::Error;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::row::{Column, Row, RowFields, RowKind, RowReadError};
use crate::search::Problem;

pub use self::bfile::BFileExport;
pub use self::csv::CsvExport;
pub use self::grid::GridExport;
pub use self::json::json_members;
pub use self::json::JsonExport;
pub use self::markdown::MarkdownExport;
pub use self::pattern::{FieldSyntax, LinePattern, PatternField};
pub use self::read::{LineError, RowReader};
pub use self::tsv::TsvExport;
pub use self::xlsx::XlsxExport;

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("cannot format row: {0}")]
    Csv(#[from] ::csv::Error),
    #[error("cannot format row: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot format row: {0}")]
    Io(#[from] std::io::Error),
    #[error("cannot build the workbook: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
}

/// A table format, fed the rows in order as they finish.
pub trait Export: Send {
    /// Bytes that open the table.
    fn header(&mut self) -> Result<Vec<u8>, ExportError>;
    /// Bytes for one finished row (of the kind the exporter was made for).
    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError>;
    /// Bytes that close the table, once every row is in.
    fn footer(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }
}

/// The output formats: the one list that the extensions and the help text come from (the command
/// line maps its `--format` values onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Comma-separated values with a header line (the default).
    Csv,
    /// The same columns separated by tabs.
    Tsv,
    /// JSON Lines, one object per board, keys as the CSV columns.
    Json,
    /// A Markdown table with the same columns.
    Markdown,
    /// A matrix, one line per row count and one column per column count.
    Grid,
    /// OEIS b-file: `n a(n)` lines, square boards only.
    Bfile,
    /// A workbook with a sheet of rows and a grid sheet.
    Xlsx,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Grid => "grid",
            Format::Bfile => "bfile",
            Format::Xlsx => "xlsx",
        }
    }

    /// Every format, in the order of `--help`.
    pub fn all() -> &'static [Format] {
        &[
            Format::Csv,
            Format::Tsv,
            Format::Json,
            Format::Markdown,
            Format::Grid,
            Format::Bfile,
            Format::Xlsx,
        ]
    }

    /// The file name extensions that stand for this format (lower case). The grid and the b-file
    /// have none of their own.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Csv => &["csv"],
            Format::Tsv => &["tsv"],
            Format::Json => &["json", "jsonl", "ndjson"],
            Format::Markdown => &["md", "markdown"],
            Format::Xlsx => &["xlsx"],
            Format::Grid | Format::Bfile => &[],
        }
    }

    /// The format a file name's extension stands for (case-insensitive).
    pub fn from_extension(ext: &str) -> Option<Format> {
        let ext = ext.to_ascii_lowercase();
        Format::all()
            .iter()
            .copied()
            .find(|f| f.extensions().contains(&ext.as_str()))
    }

    /// One whole line per board and nothing after the last one: a file cut after any row is a
    /// valid shorter table, so a run can append to it.
    pub fn is_line_format(self) -> bool {
        matches!(self, Format::Csv | Format::Tsv | Format::Json)
    }

    /// Whether the format is text (XLSX is a zip archive).
    pub fn is_text(self) -> bool {
        self != Format::Xlsx
    }

    /// Whether this format can hold a table of `boards`: a b-file only has square boards.
    pub fn accepts(self, boards: &[Board]) -> Result<(), FormatError> {
        if self == Format::Bfile {
            if let Some(&board) = boards.iter().find(|b| !b.is_square()) {
                return Err(FormatError::NotSquare { board });
            }
        }
        Ok(())
    }

    /// A fresh exporter for a table of `kind` rows about `subject` (a problem, or N-queens) over
    /// these row and column counts (the grid needs them for its axes; the other formats ignore
    /// them).
    pub fn exporter(
        self,
        kind: RowKind,
        subject: impl Into<Subject>,
        rows: &[usize],
        cols: &[usize],
    ) -> Box<dyn Export> {
        let problem = subject.into();
        match self {
            Format::Csv => Box::new(CsvExport::new(kind)),
            Format::Tsv => Box::new(TsvExport::new(kind)),
            Format::Json => Box::new(JsonExport::new(kind)),
            Format::Markdown => Box::new(MarkdownExport::new(kind)),
            Format::Grid => Box::new(GridExport::new(problem, rows, cols)),
            Format::Bfile => Box::new(BFileExport::new(problem)),
            Format::Xlsx => Box::new(XlsxExport::new(kind, problem, rows, cols)),
        }
    }

    /// Read back one line (without its line ending) written by this format's `row`, whose file
    /// names `columns` (from its header; JSON Lines names them in each line, and `columns` is
    /// then only what is expected). Only the line formats can be read.
    pub fn read_row(self, columns: &[Column], line: &str) -> Result<RowFields, RowReadError> {
        let (columns, texts) = self.read_cells(columns, line)?;
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        RowFields::from_texts(&columns, &texts)
    }

    /// The texts of one line (without its line ending) written by this format's `row`, with the
    /// columns they belong to: `columns` as the file's header names them, or for JSON Lines, the
    /// keys of the line, each of which must be one of `columns` (all of them but the digest must
    /// be there). Only the line formats can be read.
    pub fn read_cells(
        self,
        columns: &[Column],
        line: &str,
    ) -> Result<(Vec<Column>, Vec<String>), RowReadError> {
        match self {
            Format::Csv => csv::read_cells(columns, line),
            Format::Tsv => Ok((
                columns.to_vec(),
                line.split('\t').map(str::to_string).collect(),
            )),
            Format::Json => json::read_cells(columns, line),
            _ => Err(RowReadError::NotALineFormat(self.name())),
        }
    }

    /// The lines this format writes for rows of `fields`, to tell the start of one from other
    /// text; `None` for the whole-table formats.
    pub fn line_pattern(self, fields: &[PatternField]) -> Option<LinePattern> {
        match self {
            Format::Csv => Some(LinePattern::separated(",", fields)),
            Format::Tsv => Some(LinePattern::separated("\t", fields)),
            Format::Json => Some(LinePattern::json_object(fields)),
            _ => None,
        }
    }

    /// The header line this format writes for `columns` (empty for JSON Lines), newline included.
    pub fn header_for(self, columns: &[Column]) -> Vec<u8> {
        let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
        match self {
            Format::Csv => csv::record(&names).unwrap_or_default(),
            Format::Tsv => tsv::line(&names),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a format cannot hold a table.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FormatError {
    #[error(
        "a b-file lists square boards only (n a(n)), but the table includes {board}: \
         use --squares, or equal --rows and --cols of one size"
    )]
    NotSquare { board: Board },
}

/// What a table is about, as the grid's corner cell and the b-file's comment name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// γ or i: the cells are numbers of queens.
    Queens(Problem),
    /// N-queens: the cells are numbers of placements.
    NQueens,
}

impl From<Problem> for Subject {
    fn from(problem: Problem) -> Subject {
        Subject::Queens(problem)
    }
}

impl Subject {
    /// The name of the grid's values (its corner cell reads `NAME rows\cols`).
    pub fn name(self) -> &'static str {
        match self {
            Subject::Queens(problem) => problem.name(),
            Subject::NQueens => "solutions",
        }
    }

    /// The sequence a b-file of square boards lists, as its comment line names it.
    pub fn sequence(self) -> &'static str {
        match self {
            Subject::Queens(Problem::Domination) => "queen domination number gamma(Q_n)",
            Subject::Queens(Problem::IndependentDomination) => {
                "independent queen domination number i(Q_n)"
            }
            Subject::NQueens => "number of ways to place n nonattacking queens on an n X n board",
        }
    }
}

/// The texts of a row's cells, in the kind's column order (shared by CSV, TSV and Markdown).
fn row_texts(row: &dyn Row) -> Vec<String> {
    row.kind()
        .columns()
        .iter()
        .map(|&c| row.cell(c).text())
        .collect()
}

impl Kind for ExportError {
    fn kind(&self) -> ErrorKind {
        match self {
            ExportError::Csv(_)
            | ExportError::Json(_)
            | ExportError::Io(_)
            | ExportError::Xlsx(_) => ErrorKind::Failure,
        }
    }
}

impl Kind for FormatError {
    fn kind(&self) -> ErrorKind {
        match self {
            FormatError::NotSquare { .. } => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::layout::Layout;
    use crate::row::{LayoutTotals, NQueensRow, TableRow};

    /// One row of every kind, with the subject of its table.
    fn rows_of_every_kind() -> Vec<(Box<dyn Row>, Subject)> {
        let board = Board::new(4, 4).unwrap();
        let optimum = TableRow {
            board,
            problem: Problem::Domination,
            layout: Layout::new(board, vec![Square::new(1, 1), Square::new(1, 2)]),
            counts: None,
            lower: None,
            nodes: 3,
            seconds: 0.25,
            threads: 2,
        };
        let counted = TableRow {
            counts: Some(LayoutTotals {
                layouts: 20,
                classes: 3,
            }),
            ..optimum.clone()
        };
        let square = NQueensRow {
            board,
            solutions: 2,
            unique: Some(1),
            seconds: 0.5,
            threads: 1,
        };
        let rectangle = NQueensRow {
            unique: None,
            ..square.clone()
        };
        let bounded = TableRow {
            lower: Some(1),
            ..optimum.clone()
        };
        vec![
            (Box::new(optimum), Problem::Domination.into()),
            (Box::new(counted), Problem::Domination.into()),
            (Box::new(bounded), Problem::Domination.into()),
            (Box::new(square), Subject::NQueens),
            (Box::new(rectangle), Subject::NQueens),
        ]
    }

    #[test]
    fn every_format_writes_every_row_kind_and_the_line_formats_read_it_back() {
        for (row, subject) in rows_of_every_kind() {
            let kind = row.kind();
            for &format in Format::all() {
                let mut export = format.exporter(kind, subject, &[4], &[4]);
                let mut bytes = export.header().unwrap();
                let line = export.row(row.as_ref()).unwrap();
                bytes.extend(&line);
                bytes.extend(export.footer().unwrap());
                assert!(!bytes.is_empty(), "{format} {kind:?}");
                if !format.is_line_format() {
                    continue;
                }
                let text = std::str::from_utf8(&line).unwrap().trim_end();
                let (columns, texts) = format.read_cells(kind.columns(), text).unwrap();
                assert_eq!(columns, kind.columns(), "{format} {kind:?}");
                for (i, &column) in columns.iter().enumerate() {
                    let cell = row.cell(column);
                    match cell {
                        // JSON reads numbers back in its own form (0.25 for 0.250000).
                        crate::row::Cell::Seconds(s) => {
                            assert_eq!(texts[i].parse::<f64>().unwrap(), s, "{format}")
                        }
                        cell => assert_eq!(texts[i], cell.text(), "{format} {kind:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn n_queens_tables_name_their_subject() {
        let (row, _) = rows_of_every_kind().remove(3);
        let mut grid = Format::Grid.exporter(RowKind::NQueens, Subject::NQueens, &[4], &[4]);
        grid.row(row.as_ref()).unwrap();
        let text = String::from_utf8(grid.footer().unwrap()).unwrap();
        assert_eq!(text, "solutions rows\\cols,4\n4,2\n");
        let mut bfile = Format::Bfile.exporter(RowKind::NQueens, Subject::NQueens, &[4], &[4]);
        bfile.row(row.as_ref()).unwrap();
        let text = String::from_utf8(bfile.footer().unwrap()).unwrap();
        assert!(text.starts_with("# n number of ways") && text.ends_with("\n4 2\n"));
    }

    #[test]
    fn every_extension_names_one_format() {
        for &f in Format::all() {
            for ext in f.extensions() {
                assert_eq!(Format::from_extension(ext), Some(f));
                assert_eq!(Format::from_extension(&ext.to_uppercase()), Some(f));
            }
        }
        assert_eq!(Format::from_extension("txt"), None);
        assert_eq!(Format::from_extension("xls"), None);
    }

    #[test]
    fn a_bfile_takes_square_boards_only() {
        let square = [Board::new(3, 3).unwrap(), Board::new(5, 5).unwrap()];
        assert_eq!(Format::Bfile.accepts(&square), Ok(()));
        let mixed = [Board::new(3, 3).unwrap(), Board::new(3, 4).unwrap()];
        assert!(Format::Bfile.accepts(&mixed).is_err());
        assert_eq!(Format::Csv.accepts(&mixed), Ok(()));
    }

    /// Rows of the squares 1×1 to 4×4 on a table with bounds: 1×1 to 3×3 proven, 4×4 bounded
    /// (its layout of 3 queens with the lower bound 2), as a budget too short for it leaves them.
    fn squares_with_bounds() -> Vec<TableRow> {
        let layouts = ["r1c1", "r1c1", "r2c2", "r1c1 r2c3 r4c2"];
        (1..=4)
            .map(|n| {
                let board = Board::new(n, n).unwrap();
                let layout = Layout::parse(board, layouts[n - 1]).unwrap();
                let queens = layout.len();
                TableRow {
                    board,
                    problem: Problem::Domination,
                    layout,
                    counts: None,
                    lower: Some(if n == 4 { 2 } else { queens }),
                    nodes: 1,
                    seconds: 0.5,
                    threads: 1,
                }
            })
            .collect()
    }

    fn whole(format: Format, rows: &[TableRow]) -> Vec<u8> {
        let sizes: Vec<usize> = rows.iter().map(|r| r.board.rows()).collect();
        let mut export = format.exporter(RowKind::Bounds, Problem::Domination, &sizes, &sizes);
        let mut bytes = export.header().unwrap();
        for row in rows {
            bytes.extend(export.row(row).unwrap());
        }
        bytes.extend(export.footer().unwrap());
        bytes
    }

    #[test]
    fn the_grid_shows_bounds_as_lower_dot_dot_upper() {
        let text = String::from_utf8(whole(Format::Grid, &squares_with_bounds())).unwrap();
        let last = text.lines().last().unwrap();
        assert_eq!(last, "4,,,,2..3");
        assert_eq!(text.lines().nth(3).unwrap(), "3,,,1,");
    }

    #[test]
    fn a_bfile_stops_before_the_first_term_that_is_not_proven() {
        let mut rows = squares_with_bounds();
        let text = String::from_utf8(whole(Format::Bfile, &rows)).unwrap();
        assert_eq!(
            text,
            "# n queen domination number gamma(Q_n), by queendom\n\
             # stops before n = 4: only the bounds 2..3 are proven there\n\
             1 1\n2 1\n3 1\n"
        );
        // A proven term after a bounded one is left out too: the terms must follow one another.
        rows.swap(1, 3);
        let text = String::from_utf8(whole(Format::Bfile, &rows)).unwrap();
        assert!(
            text.ends_with("bounds 2..3 are proven there\n1 1\n"),
            "{text}"
        );
        // Every term proven: no comment about bounds.
        rows.remove(1);
        let text = String::from_utf8(whole(Format::Bfile, &rows)).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(!text.contains("stops"), "{text}");
    }

    #[test]
    fn markdown_and_json_carry_the_bounds_and_the_status() {
        let rows = squares_with_bounds();
        let markdown = String::from_utf8(whole(Format::Markdown, &rows)).unwrap();
        let header = markdown.lines().next().unwrap();
        assert!(header.contains("| lower | upper | status |"), "{header}");
        let last = markdown.lines().last().unwrap();
        assert!(last.contains("| domination | 2 | 3 | bounds |"), "{last}");
        let json = String::from_utf8(whole(Format::Json, &rows)).unwrap();
        let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
        assert_eq!(last["lower"], 2);
        assert_eq!(last["upper"], 3);
        assert_eq!(last["status"], "bounds");
        let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
        assert_eq!(first["status"], "proven");
    }

    #[test]
    fn a_workbook_has_the_bounds_as_numbers() {
        use calamine::{Data, Reader, Xlsx};
        let bytes = whole(Format::Xlsx, &squares_with_bounds());
        let mut book = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
        let rows = book.worksheet_range("rows").unwrap();
        let names: Vec<String> = (0..12)
            .map(|c| rows.get((0, c)).unwrap().to_string())
            .collect();
        let at = |name: &str| names.iter().position(|n| n == name).unwrap();
        let bounded = 4;
        assert_eq!(rows.get((bounded, at("lower"))), Some(&Data::Float(2.0)));
        assert_eq!(rows.get((bounded, at("upper"))), Some(&Data::Float(3.0)));
        assert_eq!(
            rows.get((bounded, at("status"))),
            Some(&Data::String("bounds".into()))
        );
        assert_eq!(rows.get((1, at("lower"))), Some(&Data::Float(1.0)));
        let grid = book.worksheet_range("grid").unwrap();
        assert_eq!(grid.get((4, 4)), Some(&Data::String("2..3".into())));
        assert_eq!(grid.get((3, 3)), Some(&Data::Float(1.0)));
    }
}
