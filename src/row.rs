//! The table row: the one record every table format is made from ([`TableRow`]), its columns
//! ([`Column`], chosen by the [`RowKind`]), the typed cells the formats print, the fields read back
//! from a file ([`RowFields`]), and the row digest that makes hand edits visible.
//!
//! Adding a column is a small change: a [`Column`] variant with its name and kind, its cell in
//! [`TableRow::cell`], its field in [`RowFields`], and its place in [`RowKind::columns`]. Every
//! format (CSV, TSV, JSON Lines, Markdown, XLSX) walks the column list, so none of them changes.

use std::collections::HashMap;

use sha2::{Digest as _, Sha256};
use thiserror::Error;

use crate::board::{Board, BoardError, Layout, LayoutParseError};
use crate::check::CheckError;
use crate::export::Format;
use crate::search::Problem;

/// A column of a table file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    Rows,
    Cols,
    Queens,
    Layout,
    Problem,
    /// The number of minimum layouts (count tables).
    Layouts,
    /// The number of their classes under the board's symmetries (count tables).
    Classes,
    /// A short hash of the value columns: see [`digest`].
    Digest,
    Nodes,
    Seconds,
    Threads,
}

/// How a column's values are written and read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    /// A whole number, digits only.
    Whole,
    /// Seconds with six decimals.
    Seconds,
    /// Text that must stay text (a spreadsheet must not turn it into a number or a date).
    Text,
}

impl Column {
    pub fn name(self) -> &'static str {
        match self {
            Column::Rows => "rows",
            Column::Cols => "cols",
            Column::Queens => "queens",
            Column::Layout => "layout",
            Column::Problem => "problem",
            Column::Layouts => "layouts",
            Column::Classes => "classes",
            Column::Digest => "digest",
            Column::Nodes => "nodes",
            Column::Seconds => "seconds",
            Column::Threads => "threads",
        }
    }

    pub fn kind(self) -> CellKind {
        match self {
            Column::Layout | Column::Problem | Column::Digest => CellKind::Text,
            Column::Seconds => CellKind::Seconds,
            _ => CellKind::Whole,
        }
    }

    /// The columns that say how a row was obtained (and so differ between runs); the digest
    /// leaves them out.
    pub fn is_measurement(self) -> bool {
        matches!(self, Column::Nodes | Column::Seconds | Column::Threads)
    }
}

/// What a table's rows hold; it decides the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RowKind {
    /// The optimum of each board with one optimal layout.
    #[default]
    Optimum,
    /// The optimum, one optimal layout, and how many minimum layouts and classes there are.
    Count,
}

impl RowKind {
    /// Every kind, for readers that must recognise any table.
    pub const ALL: [RowKind; 2] = [RowKind::Optimum, RowKind::Count];

    /// The columns, in order: the values first (the first four are the contract), then the
    /// digest, then the measurements.
    pub fn columns(self) -> &'static [Column] {
        match self {
            RowKind::Optimum => &[
                Column::Rows,
                Column::Cols,
                Column::Queens,
                Column::Layout,
                Column::Problem,
                Column::Digest,
                Column::Nodes,
                Column::Seconds,
                Column::Threads,
            ],
            RowKind::Count => &[
                Column::Rows,
                Column::Cols,
                Column::Queens,
                Column::Layout,
                Column::Problem,
                Column::Layouts,
                Column::Classes,
                Column::Digest,
                Column::Nodes,
                Column::Seconds,
                Column::Threads,
            ],
        }
    }

    /// The columns of files written before rows carried a digest (still read, see resume).
    pub fn columns_without_digest(self) -> Vec<Column> {
        self.columns()
            .iter()
            .copied()
            .filter(|&c| c != Column::Digest)
            .collect()
    }

    pub fn names(self) -> Vec<&'static str> {
        self.columns().iter().map(|c| c.name()).collect()
    }
}

/// One value as a format writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Whole(u64),
    Seconds(f64),
    Text(String),
}

impl Cell {
    /// The text every text format writes (seconds with six decimals: 0.000012, not 1.2e-5).
    pub fn text(&self) -> String {
        match self {
            Cell::Whole(n) => n.to_string(),
            Cell::Seconds(s) => format!("{s:.6}"),
            Cell::Text(t) => t.clone(),
        }
    }
}

/// How many minimum layouts a board has, all and up to its symmetries. A board and its transpose
/// have the same counts (transposing maps the layouts, and the classes, one to one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayoutTotals {
    pub layouts: u64,
    pub classes: u64,
}

/// One finished board: the record every export format is made from.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub board: Board,
    pub problem: Problem,
    pub layout: Layout,
    /// In count tables ([`RowKind::Count`]): the counts of minimum layouts.
    pub counts: Option<LayoutTotals>,
    /// Search nodes; 0 when the row was taken from the transposed board's search.
    pub nodes: u64,
    /// Wall seconds of the search; 0 when taken from the transposed board.
    pub seconds: f64,
    pub threads: usize,
}

impl TableRow {
    pub fn queens(&self) -> usize {
        self.layout.len()
    }

    pub fn kind(&self) -> RowKind {
        match self.counts {
            None => RowKind::Optimum,
            Some(_) => RowKind::Count,
        }
    }

    /// The row's value in `column`.
    pub fn cell(&self, column: Column) -> Cell {
        match column {
            Column::Rows => Cell::Whole(self.board.rows() as u64),
            Column::Cols => Cell::Whole(self.board.cols() as u64),
            Column::Queens => Cell::Whole(self.queens() as u64),
            Column::Layout => Cell::Text(self.layout.to_squares_string()),
            Column::Problem => Cell::Text(self.problem.name().to_string()),
            Column::Layouts => Cell::Whole(self.totals().layouts),
            Column::Classes => Cell::Whole(self.totals().classes),
            Column::Digest => Cell::Text(self.digest()),
            Column::Nodes => Cell::Whole(self.nodes),
            Column::Seconds => Cell::Seconds(self.seconds),
            Column::Threads => Cell::Whole(self.threads as u64),
        }
    }

    fn totals(&self) -> LayoutTotals {
        self.counts
            .expect("only count rows have the layouts and classes columns")
    }

    /// The digest of this row's value columns.
    pub fn digest(&self) -> String {
        let values: Vec<(Column, String)> = self
            .kind()
            .columns()
            .iter()
            .filter(|c| !c.is_measurement() && **c != Column::Digest)
            .map(|&c| (c, self.cell(c).text()))
            .collect();
        digest(&values)
    }
}

/// The digest of a row: `q` and 16 hex digits, the first 64 bits of SHA-256 over the names and
/// texts of the value columns (board, number, layout in `r1c1` form, problem). It starts with a
/// letter so that no spreadsheet reads it as a number.
///
/// It is a checksum, not a signature: it catches a row edited by hand or relabelled with another
/// problem (whoever edits a row would have to recompute it on purpose), but anybody can compute it.
pub fn digest(values: &[(Column, String)]) -> String {
    let mut hash = Sha256::new();
    hash.update(b"queendom table row v1");
    for (column, text) in values {
        hash.update(b"\n");
        hash.update(column.name().as_bytes());
        hash.update(b"=");
        hash.update(text.as_bytes());
    }
    let bytes = hash.finalize();
    let mut out = String::with_capacity(17);
    out.push('q');
    for b in &bytes[..8] {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The fields of a row as written, read back from a file (not yet checked against anything).
#[derive(Debug, Clone, PartialEq)]
pub struct RowFields {
    pub rows: usize,
    pub cols: usize,
    pub queens: usize,
    pub layout: String,
    pub problem: String,
    /// In count tables: the numbers of layouts and of classes.
    pub counts: Option<LayoutTotals>,
    /// None in files written before rows carried a digest.
    pub digest: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
}

/// Why a line is not a row of its format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RowReadError {
    #[error("expected {expected} fields, found {found}")]
    FieldCount { expected: usize, found: usize },
    #[error("field '{field}' is not a whole number: '{value}'")]
    NotANumber { field: &'static str, value: String },
    #[error("field 'seconds' is not a number of seconds: '{0}'")]
    NotSeconds(String),
    #[error("not a JSON row object: {0}")]
    Json(String),
    #[error("the key `{0}` is given more than once")]
    RepeatedKey(String),
    #[error("{0} rows cannot be read back")]
    NotALineFormat(&'static str),
}

/// What is wrong with one line of a table file read back: the checks every reader of table files
/// makes (`table` resuming a file, `plot` and `report` drawing one). Line numbers are 1-based, as
/// an editor shows them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    #[error("line {line} is not a {format} table row: {error}")]
    BadRow {
        line: usize,
        format: Format,
        error: RowReadError,
    },
    #[error("line {line} has an impossible board: {error}")]
    BadBoard { line: usize, error: BoardError },
    #[error("line {line} repeats board {board} of line {first}")]
    Repeated {
        line: usize,
        first: usize,
        board: Board,
    },
    #[error("line {line} (board {board}) has a malformed layout: {error}")]
    BadLayout {
        line: usize,
        board: Board,
        error: LayoutParseError,
    },
    #[error("line {line} (board {board}) fails the independent check: {error}")]
    Check {
        line: usize,
        board: Board,
        error: CheckError,
    },
}

/// Reads the rows of one table file, line by line: a row's fields, its board (each board at most
/// once in the file) and its layout, re-checked by the independent checker.
pub struct RowReader<'a> {
    format: Format,
    columns: &'a [Column],
    first_line_of: HashMap<Board, usize>,
}

impl<'a> RowReader<'a> {
    /// A reader of rows of `format` with the `columns` the file's header names.
    pub fn new(format: Format, columns: &'a [Column]) -> RowReader<'a> {
        RowReader {
            format,
            columns,
            first_line_of: HashMap::new(),
        }
    }

    /// The fields of `text`, line `line` of the file (without its line ending).
    pub fn fields(&self, line: usize, text: &str) -> Result<RowFields, LineError> {
        self.format
            .read_row(self.columns, text)
            .map_err(|error| LineError::BadRow {
                line,
                format: self.format,
                error,
            })
    }

    /// The board of line `line`'s `fields`: a possible board, not on an earlier line.
    pub fn board(&mut self, line: usize, fields: &RowFields) -> Result<Board, LineError> {
        let board = Board::new(fields.rows, fields.cols)
            .map_err(|error| LineError::BadBoard { line, error })?;
        if let Some(&first) = self.first_line_of.get(&board) {
            return Err(LineError::Repeated { line, first, board });
        }
        self.first_line_of.insert(board, line);
        Ok(board)
    }

    /// The layout of line `line`'s `fields` on `board`, which must pass the independent checker
    /// for `problem` with the number of queens the row claims.
    pub fn layout(
        line: usize,
        board: Board,
        fields: &RowFields,
        problem: Problem,
    ) -> Result<Layout, LineError> {
        let layout = Layout::parse(board, &fields.layout)
            .map_err(|error| LineError::BadLayout { line, board, error })?;
        problem
            .check(&layout, fields.queens)
            .map_err(|error| LineError::Check { line, board, error })?;
        Ok(layout)
    }
}

impl RowFields {
    /// The fields from their texts, one per column of `columns` (the columns a file's header
    /// names). Whole numbers must be plain digits (no sign, space or exponent); seconds any
    /// finite non-negative number.
    pub fn from_texts(columns: &[Column], texts: &[&str]) -> Result<RowFields, RowReadError> {
        if texts.len() != columns.len() {
            return Err(RowReadError::FieldCount {
                expected: columns.len(),
                found: texts.len(),
            });
        }
        let text = |c: Column| {
            columns
                .iter()
                .position(|&k| k == c)
                .map(|i| texts[i].to_string())
        };
        fn whole<T: std::str::FromStr>(column: Column, value: &str) -> Result<T, RowReadError> {
            let bad = || RowReadError::NotANumber {
                field: column.name(),
                value: value.to_string(),
            };
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            value.parse().map_err(|_| bad())
        }
        let number = |c: Column| -> Result<String, RowReadError> {
            text(c).ok_or(RowReadError::FieldCount {
                expected: columns.len() + 1,
                found: columns.len(),
            })
        };
        let seconds_text = number(Column::Seconds)?;
        let seconds: f64 = seconds_text
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or(RowReadError::NotSeconds(seconds_text))?;
        Ok(RowFields {
            rows: whole(Column::Rows, &number(Column::Rows)?)?,
            cols: whole(Column::Cols, &number(Column::Cols)?)?,
            queens: whole(Column::Queens, &number(Column::Queens)?)?,
            layout: number(Column::Layout)?,
            problem: number(Column::Problem)?,
            counts: match (text(Column::Layouts), text(Column::Classes)) {
                (Some(layouts), Some(classes)) => Some(LayoutTotals {
                    layouts: whole(Column::Layouts, &layouts)?,
                    classes: whole(Column::Classes, &classes)?,
                }),
                _ => None,
            },
            digest: text(Column::Digest),
            nodes: whole(Column::Nodes, &number(Column::Nodes)?)?,
            seconds,
            threads: whole(Column::Threads, &number(Column::Threads)?)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn row(problem: Problem) -> TableRow {
        let board = Board::new(4, 4).unwrap();
        TableRow {
            board,
            problem,
            layout: Layout::new(board, vec![Square::new(1, 1), Square::new(1, 2)]),
            counts: None,
            nodes: 12,
            seconds: 0.5,
            threads: 2,
        }
    }

    #[test]
    fn the_digest_covers_the_values_and_not_the_measurements() {
        let a = row(Problem::Domination);
        let d = a.digest();
        assert!(d.starts_with('q') && d.len() == 17, "{d}");
        assert!(d[1..].bytes().all(|b| b.is_ascii_hexdigit()));
        let mut b = a.clone();
        b.nodes = 99;
        b.seconds = 7.0;
        b.threads = 1;
        assert_eq!(b.digest(), d);
        assert_ne!(row(Problem::IndependentDomination).digest(), d);
        let mut c = a.clone();
        c.layout = Layout::new(a.board, vec![Square::new(1, 1), Square::new(2, 1)]);
        assert_ne!(c.digest(), d);
        let mut t = a.clone();
        t.board = a.board.transposed();
        t.layout = a.layout.transposed();
        assert_ne!(t.digest(), d);
        // Counts are values: an edited count changes the digest.
        let counted = |layouts, classes| TableRow {
            counts: Some(LayoutTotals { layouts, classes }),
            ..a.clone()
        };
        let n = counted(20, 3).digest();
        assert_ne!(n, d);
        assert_ne!(counted(21, 3).digest(), n);
        assert_ne!(counted(20, 4).digest(), n);
        assert_eq!(counted(20, 3).digest(), n);
    }

    #[test]
    fn count_rows_read_back() {
        let r = TableRow {
            counts: Some(LayoutTotals {
                layouts: 4860,
                classes: 638,
            }),
            ..row(Problem::Domination)
        };
        assert_eq!(r.kind(), RowKind::Count);
        let columns = RowKind::Count.columns();
        let texts: Vec<String> = columns.iter().map(|&c| r.cell(c).text()).collect();
        assert_eq!(texts[5..7], ["4860", "638"]);
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let f = RowFields::from_texts(columns, &refs).unwrap();
        assert_eq!(f.counts, r.counts);
        assert_eq!(f.digest.as_deref(), Some(r.digest().as_str()));
        let mut bad = refs.clone();
        bad[6] = "6.38e2";
        assert!(matches!(
            RowFields::from_texts(columns, &bad),
            Err(RowReadError::NotANumber {
                field: "classes",
                ..
            })
        ));
    }

    #[test]
    fn fields_come_back_from_their_texts() {
        let r = row(Problem::Domination);
        let columns = RowKind::Optimum.columns();
        let texts: Vec<String> = columns.iter().map(|&c| r.cell(c).text()).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let f = RowFields::from_texts(columns, &refs).unwrap();
        assert_eq!(
            (f.rows, f.cols, f.queens, f.nodes, f.threads),
            (4, 4, 2, 12, 2)
        );
        assert_eq!(f.layout, "r2c2 r2c3");
        assert_eq!(f.digest.as_deref(), Some(r.digest().as_str()));
        let mut bad = refs.clone();
        bad[0] = "+4";
        assert!(matches!(
            RowFields::from_texts(columns, &bad),
            Err(RowReadError::NotANumber { field: "rows", .. })
        ));
        assert!(matches!(
            RowFields::from_texts(columns, &refs[..3]),
            Err(RowReadError::FieldCount { .. })
        ));
    }
}
