//! The table rows: the records every table format is made from (any [`Row`]: a board's optimum
//! [`TableRow`], with counts or without, or an N-queens count [`NQueensRow`]), their columns
//! ([`Column`], chosen by the [`RowKind`]), the typed cells the formats print, the fields read back
//! from a file ([`RowFields`]), and the row digest that makes hand edits visible.
//!
//! Adding a column is a small change: a [`Column`] variant with its name and kind, its cell in
//! [`TableRow::cell`], its field in [`RowFields`], and its place in [`RowKind::columns`]. Every
//! format (CSV, TSV, JSON Lines, Markdown, XLSX) walks the column list, so none of them changes.

use crate::error::{ErrorKind, Kind};
use sha2::{Digest as _, Sha256};
use thiserror::Error;

use crate::board::{Board, BoardError};
use crate::layout::Layout;
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
    /// The side of a square board (N-queens tables of square boards).
    N,
    /// The number of placements of non-attacking queens (N-queens tables).
    Solutions,
    /// Their number up to the square's rotations and reflections (N-queens, square boards).
    Unique,
    /// The proven lower bound on the number of queens (tables with bounds).
    Lower,
    /// The upper bound: the queens of the row's layout (tables with bounds).
    Upper,
    /// `proven` when the bounds meet (the value is exact), else `bounds` (tables with bounds).
    Status,
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
            Column::N => "n",
            Column::Solutions => "solutions",
            Column::Unique => "unique",
            Column::Lower => "lower",
            Column::Upper => "upper",
            Column::Status => "status",
            Column::Digest => "digest",
            Column::Nodes => "nodes",
            Column::Seconds => "seconds",
            Column::Threads => "threads",
        }
    }

    pub fn kind(self) -> CellKind {
        match self {
            Column::Layout | Column::Problem | Column::Status | Column::Digest => CellKind::Text,
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
    /// Within a time budget per board (`table --budget`): the best layout found, a proven lower
    /// bound, and whether they meet (the value is then exact, as in [`RowKind::Optimum`]).
    Bounds,
    /// N-queens placements of square boards n×n: all, and up to symmetry ([`NQueensRow`]).
    NQueens,
    /// N-queens placements of min(N, M) queens on N×M boards ([`NQueensRow`]).
    NQueensRect,
}

impl RowKind {
    /// Every kind of γ and i table, for readers that must recognise any of them.
    pub const ALL: [RowKind; 3] = [RowKind::Optimum, RowKind::Count, RowKind::Bounds];

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
            RowKind::Bounds => &[
                Column::Rows,
                Column::Cols,
                Column::Queens,
                Column::Layout,
                Column::Problem,
                Column::Lower,
                Column::Upper,
                Column::Status,
                Column::Digest,
                Column::Nodes,
                Column::Seconds,
                Column::Threads,
            ],
            RowKind::NQueens => &[
                Column::N,
                Column::Solutions,
                Column::Unique,
                Column::Digest,
                Column::Seconds,
                Column::Threads,
            ],
            RowKind::NQueensRect => &[
                Column::Rows,
                Column::Cols,
                Column::Solutions,
                Column::Digest,
                Column::Seconds,
                Column::Threads,
            ],
        }
    }

    /// Whether the rows are N-queens counts ([`NQueensRow`]).
    pub fn is_nqueens(self) -> bool {
        matches!(self, RowKind::NQueens | RowKind::NQueensRect)
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

/// A finished board as a table holds it: what every format, and the table writer, need of a row.
pub trait Row {
    fn board(&self) -> Board;
    /// The kind of table the row belongs to; it decides the columns.
    fn kind(&self) -> RowKind;
    /// The row's value in `column`, one of its kind's columns.
    fn cell(&self, column: Column) -> Cell;
    /// The number a grid cell or a b-file line shows (queens, or N-queens solutions); in a row
    /// of bounds, the upper bound (see [`Row::lower`]).
    fn value(&self) -> u64;
    /// The proven lower bound on the row's number: the number itself, except in a row of bounds
    /// that do not meet (which is not [`Row::is_final`]).
    fn lower(&self) -> u64 {
        self.value()
    }
    /// The digest of the row's value columns.
    fn digest(&self) -> String {
        let values: Vec<(Column, String)> = self
            .kind()
            .columns()
            .iter()
            .filter(|c| !c.is_measurement() && **c != Column::Digest)
            .map(|&c| (c, self.cell(c).text()))
            .collect();
        digest(&values)
    }
    /// The values a board's row and its transpose's row must share (the side columns aside).
    fn transpose_values(&self) -> Vec<u64>;
    /// Whether the row is the board's last word: false only for a row of bounds that do not meet
    /// yet, which a later run with a larger budget replaces by a tighter one.
    fn is_final(&self) -> bool {
        true
    }
    /// Whether the row says at least as much as `earlier`, a row of the same board: a row that
    /// is not final may only be followed by one that tightens it.
    fn tightens(&self, _earlier: &Self) -> bool
    where
        Self: Sized,
    {
        true
    }
}

impl Row for TableRow {
    fn board(&self) -> Board {
        self.board
    }

    fn kind(&self) -> RowKind {
        TableRow::kind(self)
    }

    fn cell(&self, column: Column) -> Cell {
        TableRow::cell(self, column)
    }

    fn value(&self) -> u64 {
        self.queens() as u64
    }

    fn lower(&self) -> u64 {
        self.lower_bound() as u64
    }

    fn transpose_values(&self) -> Vec<u64> {
        let mut values = vec![self.queens() as u64];
        if let Some(t) = self.counts {
            values.extend([t.layouts, t.classes]);
        }
        if let Some(lower) = self.lower {
            values.push(lower as u64);
        }
        values
    }

    fn is_final(&self) -> bool {
        self.is_proven()
    }

    fn tightens(&self, earlier: &TableRow) -> bool {
        self.lower_bound() >= earlier.lower_bound() && self.queens() <= earlier.queens()
    }
}

/// The N-queens placements of one board: `min(rows, cols)` non-attacking queens.
#[derive(Debug, Clone, PartialEq)]
pub struct NQueensRow {
    pub board: Board,
    pub solutions: u64,
    /// Up to the square's rotations and reflections: rows of square-board tables only
    /// ([`RowKind::NQueens`]); `None` in tables of rectangles ([`RowKind::NQueensRect`]).
    pub unique: Option<u64>,
    pub seconds: f64,
    pub threads: usize,
}

impl NQueensRow {
    /// Why the row's counts cannot be true, if they cannot: each class of placements holds at
    /// least one placement and at most one per symmetry of the square (8).
    pub fn contradiction(&self) -> Option<String> {
        let unique = self.unique?;
        if unique > self.solutions {
            return Some(format!(
                "{unique} unique placements of only {} placements",
                self.solutions
            ));
        }
        if self.solutions > unique.saturating_mul(8) {
            return Some(format!(
                "{} placements in {unique} classes of at most 8 placements each",
                self.solutions
            ));
        }
        None
    }

    /// The row from its texts, one per column of `columns` (the columns of its kind, the digest
    /// left out in files written before N-queens rows carried one), and the digest it carries.
    pub fn from_texts(
        columns: &[Column],
        texts: &[&str],
    ) -> Result<(NQueensRow, Option<String>), RowReadError> {
        if texts.len() != columns.len() {
            return Err(RowReadError::FieldCount {
                expected: columns.len(),
                found: texts.len(),
            });
        }
        let text = |c: Column| columns.iter().position(|&k| k == c).map(|i| texts[i]);
        let whole = |c: Column| -> Result<Option<u64>, RowReadError> {
            text(c).map(|t| whole_number(c, t)).transpose()
        };
        let side = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let board = match (
            whole(Column::N)?,
            whole(Column::Rows)?,
            whole(Column::Cols)?,
        ) {
            (Some(n), _, _) => Board::new(side(n), side(n)),
            (None, Some(r), Some(c)) => Board::new(side(r), side(c)),
            _ => {
                return Err(RowReadError::FieldCount {
                    expected: columns.len() + 1,
                    found: columns.len(),
                })
            }
        }
        .map_err(RowReadError::Board)?;
        let missing = || RowReadError::FieldCount {
            expected: columns.len() + 1,
            found: columns.len(),
        };
        let seconds = seconds(text(Column::Seconds).ok_or_else(missing)?)?;
        let row = NQueensRow {
            board,
            solutions: whole(Column::Solutions)?.ok_or_else(missing)?,
            unique: whole(Column::Unique)?,
            seconds,
            threads: side(whole(Column::Threads)?.ok_or_else(missing)?),
        };
        Ok((row, text(Column::Digest).map(str::to_string)))
    }
}

impl Row for NQueensRow {
    fn board(&self) -> Board {
        self.board
    }

    fn kind(&self) -> RowKind {
        match self.unique {
            Some(_) => RowKind::NQueens,
            None => RowKind::NQueensRect,
        }
    }

    fn cell(&self, column: Column) -> Cell {
        match column {
            Column::N | Column::Rows => Cell::Whole(self.board.rows() as u64),
            Column::Cols => Cell::Whole(self.board.cols() as u64),
            Column::Solutions => Cell::Whole(self.solutions),
            Column::Unique => Cell::Whole(self.unique.unwrap_or(0)),
            Column::Digest => Cell::Text(Row::digest(self)),
            Column::Seconds => Cell::Seconds(self.seconds),
            Column::Threads => Cell::Whole(self.threads as u64),
            other => unreachable!("N-queens rows have no column {}", other.name()),
        }
    }

    fn value(&self) -> u64 {
        self.solutions
    }

    fn transpose_values(&self) -> Vec<u64> {
        vec![self.solutions]
    }
}

/// A whole number as the tables write it: plain digits (no sign, space or exponent).
fn whole_number<T: std::str::FromStr>(column: Column, value: &str) -> Result<T, RowReadError> {
    let bad = || RowReadError::NotANumber {
        field: column.name(),
        value: value.to_string(),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    value.parse().map_err(|_| bad())
}

/// Seconds as the tables write them: any finite non-negative number.
fn seconds(text: &str) -> Result<f64, RowReadError> {
    text.parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| RowReadError::NotSeconds(text.to_string()))
}

/// The status of a row whose bounds meet: its number is the optimum.
pub const STATUS_PROVEN: &str = "proven";
/// The status of a row whose bounds do not meet yet.
pub const STATUS_BOUNDS: &str = "bounds";

/// One finished board: the record every export format is made from.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub board: Board,
    pub problem: Problem,
    pub layout: Layout,
    /// In count tables ([`RowKind::Count`]): the counts of minimum layouts.
    pub counts: Option<LayoutTotals>,
    /// In tables with bounds ([`RowKind::Bounds`]): the proven lower bound. The layout is the
    /// upper bound; the row is exact when they meet.
    pub lower: Option<usize>,
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
        match (self.counts, self.lower) {
            (Some(_), _) => RowKind::Count,
            (None, Some(_)) => RowKind::Bounds,
            (None, None) => RowKind::Optimum,
        }
    }

    /// Whether the row's number is the board's optimum: always in exact tables, where the
    /// bounds meet in tables with bounds.
    pub fn is_proven(&self) -> bool {
        self.lower.is_none_or(|lower| lower >= self.queens())
    }

    /// The proven lower bound: the row's number itself in exact tables.
    pub fn lower_bound(&self) -> usize {
        self.lower.unwrap_or(self.queens())
    }

    /// What the status column says: `proven` or `bounds`.
    pub fn status(&self) -> &'static str {
        if self.is_proven() {
            STATUS_PROVEN
        } else {
            STATUS_BOUNDS
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
            Column::Lower => Cell::Whole(self.lower_bound() as u64),
            Column::Upper => Cell::Whole(self.queens() as u64),
            Column::Status => Cell::Text(self.status().to_string()),
            Column::Digest => Cell::Text(self.digest()),
            Column::Nodes => Cell::Whole(self.nodes),
            Column::Seconds => Cell::Seconds(self.seconds),
            Column::Threads => Cell::Whole(self.threads as u64),
            other => unreachable!("γ and i rows have no column {}", other.name()),
        }
    }

    fn totals(&self) -> LayoutTotals {
        self.counts
            .expect("only count rows have the layouts and classes columns")
    }

    /// The digest of this row's value columns.
    pub fn digest(&self) -> String {
        Row::digest(self)
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
    /// In tables with bounds: the lower bound (the upper and the status are checked against the
    /// queens and it when read).
    pub lower: Option<usize>,
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
    #[error("{0}")]
    Board(BoardError),
    /// The bounds columns contradict each other or the layout.
    #[error("{0}")]
    Bounds(String),
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
        let number = |c: Column| -> Result<String, RowReadError> {
            text(c).ok_or(RowReadError::FieldCount {
                expected: columns.len() + 1,
                found: columns.len(),
            })
        };
        let seconds = seconds(&number(Column::Seconds)?)?;
        let queens: usize = whole_number(Column::Queens, &number(Column::Queens)?)?;
        let lower = match text(Column::Lower) {
            None => None,
            Some(lower) => Some(bounds_fields(
                queens,
                whole_number(Column::Lower, &lower)?,
                whole_number(Column::Upper, &number(Column::Upper)?)?,
                &number(Column::Status)?,
            )?),
        };
        Ok(RowFields {
            rows: whole_number(Column::Rows, &number(Column::Rows)?)?,
            cols: whole_number(Column::Cols, &number(Column::Cols)?)?,
            queens,
            lower,
            layout: number(Column::Layout)?,
            problem: number(Column::Problem)?,
            counts: match (text(Column::Layouts), text(Column::Classes)) {
                (Some(layouts), Some(classes)) => Some(LayoutTotals {
                    layouts: whole_number(Column::Layouts, &layouts)?,
                    classes: whole_number(Column::Classes, &classes)?,
                }),
                _ => None,
            },
            digest: text(Column::Digest),
            nodes: whole_number(Column::Nodes, &number(Column::Nodes)?)?,
            seconds,
            threads: whole_number(Column::Threads, &number(Column::Threads)?)?,
        })
    }
}

/// The lower bound of a row with bounds, once its columns are found to agree: the upper bound is
/// the layout's queens, the lower bound at least 1 and at most the upper, the status `proven`
/// exactly when they meet.
fn bounds_fields(
    queens: usize,
    lower: usize,
    upper: usize,
    status: &str,
) -> Result<usize, RowReadError> {
    let bad = |what: String| Err(RowReadError::Bounds(what));
    if upper != queens {
        return bad(format!(
            "field 'upper' is {upper}, but the layout has {queens} queens"
        ));
    }
    if lower == 0 || lower > upper {
        return bad(format!(
            "field 'lower' is {lower}: it must be from 1 to the upper bound {upper}"
        ));
    }
    let expected = if lower == upper {
        STATUS_PROVEN
    } else {
        STATUS_BOUNDS
    };
    if status != expected {
        return bad(format!(
            "field 'status' is '{}' where the bounds {lower} and {upper} say '{expected}'",
            status.escape_debug()
        ));
    }
    Ok(lower)
}

impl Kind for RowReadError {
    fn kind(&self) -> ErrorKind {
        match self {
            RowReadError::FieldCount { .. }
            | RowReadError::NotANumber { .. }
            | RowReadError::NotSeconds(_)
            | RowReadError::Json(_)
            | RowReadError::RepeatedKey(_)
            | RowReadError::NotALineFormat(_)
            | RowReadError::Board(_)
            | RowReadError::Bounds(_) => ErrorKind::Refusal,
        }
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
            lower: None,
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
