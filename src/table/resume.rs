//! Reading back a table file written by an earlier run, so that a run can keep its rows and
//! compute only the boards still missing, without being fooled into keeping a wrong value.
//!
//! What is accepted: a file in one of the line formats whose first line is exactly this format's
//! header (JSON Lines has none), followed by whole rows of the same problem, each of a requested
//! board, each board at most once, in any order. Each row must pass three checks:
//! - its layout passes the independent checker with the number of queens the row claims;
//! - its digest matches its values ([`crate::row::digest`]): a row edited by hand or relabelled
//!   with another problem is refused;
//! - where re-proving is cheap (boards of at most [`REPROVE_SQUARES`] squares), or for every row
//!   when asked ([`reprove`] with `all`), no layout with one queen fewer exists, and in count
//!   tables the counts of minimum layouts and classes are counted again and must agree.
//!
//! Files are read as spreadsheets save them too: a UTF-8 byte order mark and CRLF line endings are
//! accepted. A last line without its newline is what a run killed in the middle of a write leaves:
//! if it is the start of a row this table writes (a requested board, this problem, the format's
//! own layout of fields), it is dropped and the board computed again; any other text there is
//! somebody's, and the file is refused. An empty file, or one holding only the start of the header,
//! is a table with no rows yet. Files written before rows carried a digest are read only when every
//! row is re-proved. Anything else is refused, naming the line.
//!
//! No row is longer than [`MAX_LINE_BYTES`]: a longer line is refused, and a caller need read no
//! more of a file than that many bytes per line, for as many lines as a table can have.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::export::{FieldSyntax, Format, LineError, LinePattern, PatternField, RowReader};
use crate::plan::count_contradiction;
use crate::row::{CellKind, Column, NQueensRow, Row, RowKind, TableRow};
use crate::search::{self, search_at_most, Problem, SearchError, SearchOptions};

/// Boards of at most this many squares have every kept row re-proved on every resume: proving
/// that one queen fewer cannot do takes milliseconds on most of them; the slowest, 7×20, 8×18 and
/// 7×19, took 0.4 to 0.5 s on one thread of the project's machine under heavy load (γ and i).
pub const REPROVE_SQUARES: usize = 144;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest line (its line ending included) a table file may have. The longest rows are a few
/// hundred bytes (a count row in JSON of a 32×32 board); a longer line is not a row.
pub const MAX_LINE_BYTES: usize = 4096;

/// How many lines a table file of `boards` boards can have: the header, one row per board, and a
/// half-written last line. A file with more is refused from these (a board would be repeated or
/// not requested), so a caller need read no more.
pub fn max_lines(boards: usize) -> usize {
    2 * boards + 2
}

/// Of a line shown in a message, at most this many bytes are looked at.
const SHOWN_BYTES: usize = 480;
/// and at most this many characters shown.
const SHOWN_CHARS: usize = 120;

/// A row kept from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptRow<R = TableRow> {
    /// 1-based line number in the file.
    pub line: usize,
    /// The row as read (nodes, seconds and threads as the file has them).
    pub row: R,
    /// The line as it stands in the file, line ending included.
    pub bytes: Vec<u8>,
    /// Whether the row carries a digest (files of older versions do not).
    pub has_digest: bool,
}

impl<R: Row> KeptRow<R> {
    pub fn board(&self) -> Board {
        self.row.board()
    }
}

/// The line ending a file uses, so that appended rows match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineEnding {
    #[default]
    Lf,
    CrLf,
}

impl LineEnding {
    /// `bytes` (ending in `\n`) with this line ending.
    pub fn apply(self, mut bytes: Vec<u8>) -> Vec<u8> {
        if self == LineEnding::CrLf && bytes.last() == Some(&b'\n') {
            bytes.pop();
            bytes.extend(b"\r\n");
        }
        bytes
    }
}

/// What an existing table file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ExistingTable<R = TableRow> {
    /// Whole rows, in file order.
    pub rows: Vec<KeptRow<R>>,
    /// How many bytes of the file to keep: the header and the whole rows. A half-written last line
    /// (or half-written header) lies beyond this.
    pub keep_len: u64,
    /// Whether the kept bytes include the whole header (always true for a format without one).
    pub has_header: bool,
    /// Whether the file was written before rows carried a digest (no digest column).
    pub legacy: bool,
    /// Whether the rows are of an older kind this table adopts (an exact table resumed as a
    /// table with bounds): rewritten in this table's columns before anything is appended.
    pub adopted: bool,
    /// The bytes of rows a later row of the same board replaced (bounds tightened by a run that
    /// was interrupted before it rewrote the file): not among `rows`, but within `keep_len`.
    pub superseded_bytes: u64,
    pub line_ending: LineEnding,
}

impl<R> ExistingTable<R> {
    /// Whether the file must be cut back to `keep_len` before rows are appended.
    pub fn has_partial_line(&self, file_len: u64) -> bool {
        file_len > self.keep_len
    }
}

/// Why an existing file cannot be resumed.
#[derive(Debug, Error)]
pub enum ResumeError {
    #[error("{format} tables are written whole at the end and cannot be resumed")]
    NotResumable { format: Format },
    #[error("line {line} is not UTF-8 text")]
    NotText { line: usize },
    #[error("line {line} is longer than any row of a table (more than {MAX_LINE_BYTES} bytes)")]
    LongLine { line: usize },
    #[error(
        "its last line, line {line}, has no newline and is not the start of a row this table \
         writes: '{found}'"
    )]
    PartialLine { line: usize, found: String },
    #[error(
        "it is not a queendom {format} table: its first line is '{found}', expected '{expected}'"
    )]
    Header {
        format: Format,
        found: String,
        expected: String,
    },
    #[error(
        "it is a {format} table {}, and this run writes one {} ({})",
        kind_text(*found),
        kind_text(*expected),
        kind_hint(*found, *expected)
    )]
    OtherKind {
        format: Format,
        found: RowKind,
        expected: RowKind,
    },
    #[error(
        "line {line} (board {board}) has looser bounds than line {earlier} before it: a later \
         row of a board may only tighten its bounds"
    )]
    Looser {
        line: usize,
        board: Board,
        earlier: usize,
    },
    #[error("line {line} is a row of {found}, but this run computes {expected}")]
    OtherProblem {
        line: usize,
        found: String,
        expected: Problem,
    },
    #[error("line {line} holds board {board}, which is not in the requested boards")]
    NotRequested { line: usize, board: Board },
    #[error(transparent)]
    Line(#[from] LineError),
    #[error(
        "line {line} (board {board}) does not match its digest '{found}': the row was changed \
         after it was written (by hand, or relabelled from another problem)"
    )]
    Digest {
        line: usize,
        board: Board,
        found: String,
    },
    #[error(
        "line {line} (board {board}) claims {claimed} queens, but {found} are enough: {layout}"
    )]
    NotMinimal {
        line: usize,
        board: Board,
        claimed: usize,
        found: usize,
        layout: String,
    },
    #[error(
        "line {line} (board {board}) claims {claimed_layouts} minimum layouts in \
         {claimed_classes} classes, but there are {layouts} in {classes}"
    )]
    WrongCounts {
        line: usize,
        board: Board,
        claimed_layouts: u64,
        claimed_classes: u64,
        layouts: u64,
        classes: u64,
    },
    #[error(
        "it was written by an older queendom (line {line} has no digest): --verify re-proves \
         every row and adopts the file"
    )]
    NoDigest { line: usize },
    #[error("line {line} (board {board}) cannot be true: {what}")]
    Impossible {
        line: usize,
        board: Board,
        what: String,
    },
    #[error(
        "line {line} (board {board}) disagrees with line {other_line} (board {other}, its \
         transpose): a board and its transpose have the same {what}"
    )]
    Transposes {
        line: usize,
        board: Board,
        other_line: usize,
        other: Board,
        what: &'static str,
    },
    #[error("re-proving line {line} (board {board}): {error}")]
    Search {
        line: usize,
        board: Board,
        error: SearchError,
    },
}

/// What a table of `kind` holds, for messages.
fn kind_text(kind: RowKind) -> &'static str {
    match kind {
        RowKind::Count => "with counts (made with --count)",
        RowKind::Bounds => "with bounds (made with --budget)",
        _ => "of exact values (made without --count or --budget)",
    }
}

/// What to change in a run of `expected` rows to resume a file of `found` rows.
fn kind_hint(found: RowKind, expected: RowKind) -> &'static str {
    match (expected, found) {
        (RowKind::Count, _) => "drop --count",
        (RowKind::Bounds, _) => "drop --budget, or write the table with bounds to another file",
        (_, RowKind::Count) => "add --count",
        _ => "add --budget",
    }
}

/// Text as a message may show it: `\r`, tabs, a byte order mark and other invisible characters
/// are written as escapes, so that a message never hides why two lines differ.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || c == '\u{feff}' || c == '\u{fffd}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// The start of `line` as a message shows it: invisible characters escaped, and only its first
/// characters, however long the line is.
pub fn shown_start(line: &[u8]) -> String {
    let start = &line[..line.len().min(SHOWN_BYTES)];
    visible(&String::from_utf8_lossy(start))
        .chars()
        .take(SHOWN_CHARS)
        .collect()
}

/// One line of a table file, split into the texts of its columns.
#[derive(Clone, Copy)]
pub struct LineTexts<'a> {
    /// The line's number in the file, from 1.
    pub line: usize,
    pub format: Format,
    pub columns: &'a [Column],
    pub texts: &'a [&'a str],
}

/// What [`Schema::row`] calls with a row's board as soon as it is known: it refuses a board
/// repeated or not requested.
pub type Admit<'a> = dyn FnMut(Board) -> Result<(), ResumeError> + 'a;

/// What the rows of a table are, and how one line of them is read back and checked: each kind
/// of table ([`Queens`] for γ and i, with counts or not; [`NQueens`]) is one implementation, and
/// [`read_table`] does the rest (header, byte order mark, line endings, repeated and unrequested
/// boards, digests, a board against its transpose, a half-written last line) once for all.
pub trait Schema {
    type Row: Row + Clone;
    /// The kind of the rows; its columns make the header.
    fn kind(&self) -> RowKind;
    /// The other kinds whose header a file of this table may have by mistake (named in the
    /// refusal).
    fn other_kinds(&self) -> Vec<RowKind>;
    /// The row on line `at.line`, from the `texts` of its `columns`, checked on its own, and the
    /// digest it carries (`None` in files of older versions). `admit` is called with the row's
    /// board as soon as it is known (it refuses a board repeated or not requested).
    fn row(
        &self,
        at: &LineTexts,
        admit: &mut Admit,
    ) -> Result<(Self::Row, Option<String>), ResumeError>;
    /// What the text of `column` looks like in a row of this table (for a half-written line).
    fn syntax(&self, column: Column) -> FieldSyntax;
    /// What a board and its transpose share, as [`Row::transpose_values`] lists it, for messages.
    fn shared(&self) -> &'static str;
    /// The kind of older table whose rows this table takes over (rewritten in its own columns),
    /// if any.
    fn adopts(&self) -> Option<RowKind> {
        None
    }
    /// A row of the [`adopts`](Self::adopts) kind, checked as written, as a row of this table.
    fn adopt(&self, row: Self::Row) -> Self::Row {
        row
    }
}

/// The rows of γ and i tables ([`RowKind::Optimum`] or [`RowKind::Count`]) of one problem.
pub struct Queens {
    pub kind: RowKind,
    pub problem: Problem,
}

impl Schema for Queens {
    type Row = TableRow;

    fn kind(&self) -> RowKind {
        self.kind
    }

    fn other_kinds(&self) -> Vec<RowKind> {
        RowKind::ALL
            .into_iter()
            .filter(|&k| k != self.kind)
            .collect()
    }

    fn row(
        &self,
        at: &LineTexts,
        admit: &mut Admit,
    ) -> Result<(TableRow, Option<String>), ResumeError> {
        let line = at.line;
        let problem = self.problem;
        let fields = crate::row::RowFields::from_texts(at.columns, at.texts).map_err(|error| {
            LineError::BadRow {
                line,
                format: at.format,
                error,
            }
        })?;
        if fields.problem != problem.name() {
            return Err(ResumeError::OtherProblem {
                line,
                found: visible(&fields.problem),
                expected: problem,
            });
        }
        let board = Board::new(fields.rows, fields.cols)
            .map_err(|error| LineError::BadBoard { line, error })?;
        admit(board)?;
        let layout = RowReader::layout(line, board, &fields, problem)?;
        if let Some(counts) = fields.counts {
            if let Some(what) = count_contradiction(board, counts.layouts, counts.classes) {
                return Err(ResumeError::Impossible { line, board, what });
            }
        }
        let row = TableRow {
            board,
            problem,
            layout,
            counts: fields.counts,
            lower: fields.lower,
            nodes: fields.nodes,
            seconds: fields.seconds,
            threads: fields.threads,
        };
        Ok((row, fields.digest))
    }

    fn syntax(&self, column: Column) -> FieldSyntax {
        match column {
            Column::Layout => FieldSyntax::Layout,
            Column::Problem => FieldSyntax::OneOf(vec![self.problem.name().to_string()]),
            _ => FieldSyntax::Whole,
        }
    }

    fn shared(&self) -> &'static str {
        match self.kind {
            RowKind::Count => "queens, layouts and classes",
            RowKind::Bounds => "bounds",
            _ => "number of queens",
        }
    }

    /// A table with bounds takes over an exact table's rows: each is proven, so its lower bound
    /// is its number.
    fn adopts(&self) -> Option<RowKind> {
        (self.kind == RowKind::Bounds).then_some(RowKind::Optimum)
    }

    fn adopt(&self, row: TableRow) -> TableRow {
        TableRow {
            lower: Some(row.queens()),
            ..row
        }
    }
}

/// The rows of N-queens tables ([`RowKind::NQueens`] or [`RowKind::NQueensRect`]).
pub struct NQueens {
    pub kind: RowKind,
}

impl Schema for NQueens {
    type Row = NQueensRow;

    fn kind(&self) -> RowKind {
        self.kind
    }

    fn other_kinds(&self) -> Vec<RowKind> {
        Vec::new()
    }

    fn row(
        &self,
        at: &LineTexts,
        admit: &mut Admit,
    ) -> Result<(NQueensRow, Option<String>), ResumeError> {
        let line = at.line;
        let (row, digest) =
            NQueensRow::from_texts(at.columns, at.texts).map_err(|error| match error {
                crate::row::RowReadError::Board(error) => LineError::BadBoard { line, error },
                error => LineError::BadRow {
                    line,
                    format: at.format,
                    error,
                },
            })?;
        admit(row.board)?;
        if let Some(what) = row.contradiction() {
            return Err(ResumeError::Impossible {
                line,
                board: row.board,
                what,
            });
        }
        Ok((row, digest))
    }

    fn syntax(&self, _column: Column) -> FieldSyntax {
        FieldSyntax::Whole
    }

    fn shared(&self) -> &'static str {
        "number of solutions"
    }
}

/// Read `contents`, an existing file meant to hold a `format` table of `kind` rows of `problem`
/// over `boards`. `verify` says that every row will be re-proved, which lets files without digests
/// (written by older versions) in.
pub fn read_existing(
    contents: &[u8],
    format: Format,
    kind: RowKind,
    problem: Problem,
    boards: &[Board],
    verify: bool,
) -> Result<ExistingTable, ResumeError> {
    read_table(contents, format, &Queens { kind, problem }, boards, verify)
}

/// Read `contents`, an existing file meant to hold a `format` table of `schema`'s rows over
/// `boards`. `verify` says that every row will be checked again (re-proved, counted), which lets
/// files without digests (written by older versions) in.
pub fn read_table<S: Schema>(
    contents: &[u8],
    format: Format,
    schema: &S,
    boards: &[Board],
    verify: bool,
) -> Result<ExistingTable<S::Row>, ResumeError> {
    let kind = schema.kind();
    if !format.is_line_format() {
        return Err(ResumeError::NotResumable { format });
    }
    // Only bytes up to the last newline were written whole.
    let whole_len = contents
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let whole = &contents[..whole_len];
    let bom = if contents.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    let header = format.header_for(kind.columns());
    let legacy_columns = kind.columns_without_digest();
    let legacy_header = format.header_for(&legacy_columns);

    let mut columns: Vec<Column> = kind.columns().to_vec();
    let mut legacy = false;
    // Rows of the kind the schema adopts: checked as written, then taken as its own rows.
    let mut adopted = false;
    let mut line_ending = LineEnding::Lf;
    let mut body_start = bom;
    if !header.is_empty() {
        if whole.len() <= bom {
            // No complete line: an empty file, or a header cut short, is a table with no rows yet.
            if header.starts_with(&contents[bom.min(contents.len())..]) {
                return Ok(ExistingTable {
                    rows: Vec::new(),
                    keep_len: 0,
                    has_header: false,
                    legacy: false,
                    superseded_bytes: 0,
                    adopted: false,
                    line_ending,
                });
            }
        }
        let first_end = whole
            .get(bom..)
            .unwrap_or(&[])
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| bom + i + 1);
        let first = whole.get(bom..first_end.unwrap_or(bom)).unwrap_or(&[]);
        let (first, ending) = match first.strip_suffix(b"\r\n") {
            Some(f) => (f, LineEnding::CrLf),
            None => (first.strip_suffix(b"\n").unwrap_or(first), LineEnding::Lf),
        };
        let matches = |h: &[u8]| h.strip_suffix(b"\n") == Some(first);
        if first_end.is_some() && matches(&header) {
            body_start = first_end.unwrap_or(bom);
        } else if first_end.is_some() && matches(&legacy_header) {
            body_start = first_end.unwrap_or(bom);
            columns = legacy_columns.clone();
            legacy = true;
        } else if let Some(older) = schema
            .adopts()
            .filter(|older| first_end.is_some() && matches(&format.header_for(older.columns())))
        {
            body_start = first_end.unwrap_or(bom);
            columns = older.columns().to_vec();
            adopted = true;
        } else {
            let line = contents.split(|&b| b == b'\n').next().unwrap_or(&[]);
            for other in schema.other_kinds() {
                if matches(&format.header_for(other.columns())) {
                    return Err(ResumeError::OtherKind {
                        format,
                        found: other,
                        expected: kind,
                    });
                }
            }
            // The byte order mark stays in: it is shown as an escape.
            let found = shown_start(line);
            let expected = visible(String::from_utf8_lossy(&header).trim_end());
            return Err(ResumeError::Header {
                format,
                found,
                expected,
            });
        }
        line_ending = ending;
    }

    let wanted: HashSet<Board> = boards.iter().copied().collect();
    // The row of each board so far, by index in `rows`: a board may come again only after rows
    // that were not final (bounds a later run tightened).
    let mut latest: HashMap<Board, usize> = HashMap::new();
    let mut rows: Vec<KeptRow<S::Row>> = Vec::new();
    let first_line = if header.is_empty() { 1 } else { 2 };
    let body = whole.get(body_start..).unwrap_or(&[]);
    let mut lines = 0;
    for (i, raw) in body.split_inclusive(|&b| b == b'\n').enumerate() {
        let line = first_line + i;
        lines = i + 1;
        if raw.len() > MAX_LINE_BYTES {
            return Err(ResumeError::LongLine { line });
        }
        let text = std::str::from_utf8(raw).map_err(|_| ResumeError::NotText { line })?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = match text.strip_suffix('\r') {
            Some(t) => {
                if line == 1 {
                    line_ending = LineEnding::CrLf;
                }
                t
            }
            None => text,
        };
        let (cells, texts) =
            format
                .read_cells(&columns, text)
                .map_err(|error| LineError::BadRow {
                    line,
                    format,
                    error,
                })?;
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut admit = |board: Board| {
            if let Some(earlier) = latest.get(&board).map(|&i| &rows[i]) {
                if earlier.row.is_final() {
                    let first = earlier.line;
                    return Err(LineError::Repeated { line, first, board }.into());
                }
            }
            if !wanted.contains(&board) {
                return Err(ResumeError::NotRequested { line, board });
            }
            Ok(())
        };
        let (row, digest) = schema.row(
            &LineTexts {
                line,
                format,
                columns: &cells,
                texts: &texts,
            },
            &mut admit,
        )?;
        let board = row.board();
        match &digest {
            Some(found) if *found != row.digest() => {
                return Err(ResumeError::Digest {
                    line,
                    board,
                    found: visible(found),
                })
            }
            Some(_) => {}
            None if verify => legacy = true,
            None => return Err(ResumeError::NoDigest { line }),
        }
        let row = if adopted { schema.adopt(row) } else { row };
        if let Some(earlier) = latest.get(&board).map(|&i| &rows[i]) {
            if !row.tightens(&earlier.row) {
                let earlier = earlier.line;
                return Err(ResumeError::Looser {
                    line,
                    board,
                    earlier,
                });
            }
        }
        latest.insert(board, rows.len());
        rows.push(KeptRow {
            line,
            row,
            bytes: raw.to_vec(),
            has_digest: digest.is_some(),
        });
    }
    // Of a board given more than once, only its last row counts (each tightens the one before).
    let last: HashSet<usize> = latest.values().copied().collect();
    let superseded_bytes = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| !last.contains(i))
        .map(|(_, r)| r.bytes.len() as u64)
        .sum();
    let mut index = 0;
    rows.retain(|_| {
        index += 1;
        last.contains(&(index - 1))
    });
    // A board and its transpose have the same answer: two rows that say otherwise cannot both
    // be true, whichever of them was edited.
    let row_of: HashMap<Board, &KeptRow<S::Row>> = rows.iter().map(|k| (k.board(), k)).collect();
    for kept in &rows {
        let board = kept.board();
        let Some(other) = row_of.get(&board.transposed()) else {
            continue;
        };
        if other.line < kept.line && other.row.transpose_values() != kept.row.transpose_values() {
            return Err(ResumeError::Transposes {
                line: kept.line,
                board,
                other_line: other.line,
                other: other.board(),
                what: schema.shared(),
            });
        }
    }
    // What follows the last newline: dropped only if it is the start of a row. After whole
    // lines, NUL bytes at the end are what a power loss leaves (the file's length written, its
    // last blocks not): they are dropped with the start of a row they may follow.
    let partial = match &contents[whole_len..] {
        rest if whole_len == 0 => rest.strip_prefix(BOM).unwrap_or(rest),
        rest => &rest[..rest.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)],
    };
    if !partial.is_empty() {
        let line = first_line + lines;
        if partial.len() >= MAX_LINE_BYTES {
            return Err(ResumeError::LongLine { line });
        }
        let mut patterns = vec![row_pattern(format, &columns, schema, boards)];
        if format == Format::Json {
            // JSON Lines has no header to say which columns: rows of older versions too.
            patterns.push(row_pattern(format, &legacy_columns, schema, boards));
        }
        if !patterns.iter().flatten().any(|p| p.could_start(partial)) {
            return Err(ResumeError::PartialLine {
                line,
                found: shown_start(partial),
            });
        }
    }
    if legacy && rows.is_empty() {
        // An older header and no rows: nothing to trust, and new rows could not follow that
        // header. The file starts afresh.
        return Ok(ExistingTable {
            rows,
            keep_len: 0,
            has_header: false,
            legacy: false,
            superseded_bytes: 0,
            adopted: false,
            line_ending,
        });
    }
    if legacy && !verify {
        return Err(ResumeError::NoDigest { line: 1 });
    }
    Ok(ExistingTable {
        rows,
        keep_len: whole_len as u64,
        has_header: true,
        legacy,
        superseded_bytes,
        adopted,
        line_ending,
    })
}

/// The lines `format` writes for rows of `columns` of `schema`'s table on one of `boards`.
fn row_pattern<S: Schema>(
    format: Format,
    columns: &[Column],
    schema: &S,
    boards: &[Board],
) -> Option<LinePattern> {
    let sizes = |side: fn(Board) -> usize| {
        let mut texts: Vec<String> = boards.iter().map(|&b| side(b).to_string()).collect();
        texts.sort();
        texts.dedup();
        FieldSyntax::OneOf(texts)
    };
    let fields: Vec<PatternField> = columns
        .iter()
        .map(|&column| PatternField {
            name: column.name(),
            syntax: match column {
                Column::Rows | Column::N => sizes(Board::rows),
                Column::Cols => sizes(Board::cols),
                Column::Digest => FieldSyntax::Digest,
                Column::Seconds => FieldSyntax::Seconds,
                other => schema.syntax(other),
            },
            text: column.kind() == CellKind::Text,
        })
        .collect();
    format.line_pattern(&fields)
}

/// Whether re-proving a row of `board` is cheap enough to do on every resume.
pub fn cheap_to_reprove(board: Board) -> bool {
    board.squares() <= REPROVE_SQUARES
}

/// Re-prove kept rows: that no layout with one queen fewer exists (the layout itself was checked
/// when the row was read, so the row's number is then the optimum); for a row of bounds, that
/// none has fewer queens than its lower bound. Rows of cheap boards always,
/// every row with `all`. A board and its transpose are proved once. Returns how many rows were
/// re-proved. `on_row` is called before each proof (for progress).
pub fn reprove(
    rows: &[KeptRow],
    problem: Problem,
    all: bool,
    options: &SearchOptions,
    mut on_row: impl FnMut(&KeptRow),
) -> Result<usize, ResumeError> {
    let mut proved: HashSet<(Board, usize)> = HashSet::new();
    let mut count = 0;
    for kept in rows {
        let board = kept.board();
        if !all && !cheap_to_reprove(board) {
            continue;
        }
        // What a row claims is its lower bound: the number itself in exact tables.
        let claimed = kept.row.lower_bound();
        count += 1;
        // The search runs on boards as wide as they are tall or wider, as the table does.
        let searched = if board.rows() > board.cols() {
            board.transposed()
        } else {
            board
        };
        if !proved.insert((searched, claimed)) {
            continue;
        }
        on_row(kept);
        if let Some(claimed_counts) = kept.row.counts {
            // Counting proves the minimum too: it fails on any layout below `claimed`.
            let counted = search::count(searched, problem, false, options).map_err(|error| {
                ResumeError::Search {
                    line: kept.line,
                    board,
                    error,
                }
            })?;
            if counted.queens != claimed {
                return Err(ResumeError::NotMinimal {
                    line: kept.line,
                    board,
                    claimed,
                    found: counted.queens,
                    layout: counted.layout.to_squares_string(),
                });
            }
            if (counted.layouts, counted.classes)
                != (claimed_counts.layouts, claimed_counts.classes)
            {
                return Err(ResumeError::WrongCounts {
                    line: kept.line,
                    board,
                    claimed_layouts: claimed_counts.layouts,
                    claimed_classes: claimed_counts.classes,
                    layouts: counted.layouts,
                    classes: counted.classes,
                });
            }
            continue;
        }
        // Every board needs a queen: for one queen there is nothing fewer to rule out.
        if claimed <= 1 {
            continue;
        }
        let below = search_at_most(searched, problem, claimed - 1, options).map_err(|error| {
            ResumeError::Search {
                line: kept.line,
                board,
                error,
            }
        })?;
        if let Some(layout) = below.layout {
            let layout = if searched == board {
                layout
            } else {
                layout.transposed()
            };
            return Err(ResumeError::NotMinimal {
                line: kept.line,
                board,
                claimed,
                found: layout.len(),
                layout: layout.to_squares_string(),
            });
        }
    }
    Ok(count)
}

impl Kind for ResumeError {
    fn kind(&self) -> ErrorKind {
        match self {
            ResumeError::NotResumable { .. }
            | ResumeError::NotText { .. }
            | ResumeError::LongLine { .. }
            | ResumeError::PartialLine { .. }
            | ResumeError::Header { .. }
            | ResumeError::OtherKind { .. }
            | ResumeError::Looser { .. }
            | ResumeError::OtherProblem { .. }
            | ResumeError::NotRequested { .. }
            | ResumeError::Line(_)
            | ResumeError::Digest { .. }
            | ResumeError::NotMinimal { .. }
            | ResumeError::WrongCounts { .. }
            | ResumeError::NoDigest { .. }
            | ResumeError::Impossible { .. }
            | ResumeError::Transposes { .. } => ErrorKind::Refusal,
            ResumeError::Search { error, .. } => error.kind(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::table::{boards, SizeList, TableRunner};

    const KIND: RowKind = RowKind::Optimum;

    fn table(format: Format, problem: Problem) -> (Vec<Board>, Vec<u8>, Vec<u8>) {
        let bs = boards(
            &SizeList::parse("1-3").unwrap(),
            &SizeList::parse("2-3").unwrap(),
        );
        let mut export = format.exporter(KIND, problem, &[1, 2, 3], &[2, 3]);
        let header = export.header().unwrap();
        let mut file = header.clone();
        let mut runner = TableRunner::new(problem, SearchOptions::sequential(), 1);
        for &b in &bs {
            file.extend(export.row(&runner.compute(b).unwrap()).unwrap());
        }
        (bs, header, file)
    }

    fn read(file: &[u8], format: Format, problem: Problem, bs: &[Board]) -> ExistingTable {
        read_existing(file, format, KIND, problem, bs, false).unwrap()
    }

    #[test]
    fn whole_tables_are_kept() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let (bs, header, file) = table(format, Problem::Domination);
            let t = read(&file, format, Problem::Domination, &bs);
            assert_eq!(t.rows.len(), bs.len(), "{format}");
            assert_eq!(t.keep_len, file.len() as u64);
            let again: Vec<u8> = header
                .iter()
                .copied()
                .chain(t.rows.iter().flat_map(|r| r.bytes.clone()))
                .collect();
            assert_eq!(again, file);
        }
    }

    #[test]
    fn a_cut_last_line_is_dropped() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let (bs, _, file) = table(format, Problem::Domination);
            let cut = file.len() - 5;
            let t = read(&file[..cut], format, Problem::Domination, &bs);
            assert_eq!(t.rows.len(), bs.len() - 1);
            assert!(t.has_partial_line(cut as u64));
        }
    }

    #[test]
    fn a_tail_of_nul_bytes_after_whole_rows_is_dropped() {
        // A power loss: the file's length reached the disk, its last block did not.
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let (bs, _, file) = table(format, Problem::Domination);
            for (cut, nuls) in [
                (file.len(), 100),
                (file.len() - 5, 40),
                (file.len() - 5, 4000),
            ] {
                let mut lost = file[..cut].to_vec();
                lost.resize(cut + nuls, 0);
                let t = read(&lost, format, Problem::Domination, &bs);
                let whole = if cut == file.len() {
                    bs.len()
                } else {
                    bs.len() - 1
                };
                assert_eq!(t.rows.len(), whole, "{format} {cut} {nuls}");
                assert!(t.has_partial_line(lost.len() as u64));
            }
        }
    }

    #[test]
    fn empty_and_cut_headers_have_no_rows() {
        let (bs, header, _) = table(Format::Csv, Problem::Domination);
        for cut in [0, 3, header.len() - 1] {
            let t = read(&header[..cut], Format::Csv, Problem::Domination, &bs);
            assert!(t.rows.is_empty() && !t.has_header && t.keep_len == 0);
        }
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_read() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let (bs, _, file) = table(format, Problem::Domination);
            let text = String::from_utf8(file).unwrap().replace('\n', "\r\n");
            let mut bytes = BOM.to_vec();
            bytes.extend(text.as_bytes());
            let t = read(&bytes, format, Problem::Domination, &bs);
            assert_eq!(t.rows.len(), bs.len(), "{format}");
            assert_eq!(t.line_ending, LineEnding::CrLf, "{format}");
            assert!(t.rows[0].bytes.ends_with(b"\r\n"));
        }
    }

    #[test]
    fn messages_show_invisible_characters() {
        assert_eq!(visible("a\r\tb\u{feff}"), "a\\r\\tb\\u{feff}");
        let (bs, _, _) = table(Format::Csv, Problem::Domination);
        let e = read_existing(
            b"\xEF\xBB\xBFrows;cols\r\n",
            Format::Csv,
            KIND,
            Problem::Domination,
            &bs,
            false,
        )
        .unwrap_err();
        assert!(e.to_string().contains("'\\u{feff}rows;cols\\r'"), "{e}");
    }

    #[test]
    fn foreign_and_edited_files_are_refused() {
        let (bs, _, file) = table(Format::Csv, Problem::Domination);
        let p = Problem::Domination;
        let refuse =
            |bytes: &[u8]| read_existing(bytes, Format::Csv, KIND, p, &bs, false).unwrap_err();
        assert!(matches!(refuse(b"a,b\n1,2\n"), ResumeError::Header { .. }));
        let other = read_existing(
            &file,
            Format::Csv,
            KIND,
            Problem::IndependentDomination,
            &bs,
            false,
        );
        assert!(matches!(
            other,
            Err(ResumeError::OtherProblem { line: 2, .. })
        ));
        let text = String::from_utf8(file.clone()).unwrap();
        // One queen in the corner leaves r2c3 of the 3x3 board uncovered.
        let bad = text.replace("3,3,1,r2c2,", "3,3,1,r1c1,");
        assert!(matches!(
            refuse(bad.as_bytes()),
            ResumeError::Line(LineError::Check { line: 7, .. })
        ));
        // Another valid layout of the same size: the checker passes, the digest does not.
        let more = text.replace("3,3,1,r2c2,", "3,3,2,r1c1 r2c2,");
        assert!(matches!(
            refuse(more.as_bytes()),
            ResumeError::Digest { line: 7, .. }
        ));
        let twice = format!("{text}{}", text.lines().nth(1).unwrap()) + "\n";
        assert!(matches!(
            refuse(twice.as_bytes()),
            ResumeError::Line(LineError::Repeated { first: 2, .. })
        ));
        let narrow = boards(
            &SizeList::parse("1").unwrap(),
            &SizeList::parse("2").unwrap(),
        );
        assert!(matches!(
            read_existing(&file, Format::Csv, KIND, p, &narrow, false),
            Err(ResumeError::NotRequested { line: 3, .. })
        ));
        assert!(matches!(
            read_existing(&file, Format::Markdown, KIND, p, &bs, false),
            Err(ResumeError::NotResumable { .. })
        ));
    }

    #[test]
    fn files_without_digests_need_verify() {
        let (bs, _, file) = table(Format::Csv, Problem::Domination);
        let text = String::from_utf8(file).unwrap();
        // Drop the digest column, as older versions wrote the table.
        let old: String = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(5);
                f.join(",") + "\n"
            })
            .collect();
        let p = Problem::Domination;
        assert!(matches!(
            read_existing(old.as_bytes(), Format::Csv, KIND, p, &bs, false),
            Err(ResumeError::NoDigest { .. })
        ));
        let t = read_existing(old.as_bytes(), Format::Csv, KIND, p, &bs, true).unwrap();
        assert!(t.legacy && t.rows.len() == bs.len());
    }

    #[test]
    fn a_value_above_the_optimum_is_not_minimal() {
        // A valid 3-queen layout of 4x4, where 2 are enough.
        let board = Board::new(4, 4).unwrap();
        let layout = Layout::parse(board, "r1c1 r2c3 r4c2").unwrap();
        Problem::Domination.check(&layout, 3).unwrap();
        let kept = KeptRow {
            line: 9,
            row: TableRow {
                board,
                problem: Problem::Domination,
                layout,
                counts: None,
                lower: None,
                nodes: 0,
                seconds: 0.0,
                threads: 1,
            },
            bytes: Vec::new(),
            has_digest: true,
        };
        let options = SearchOptions::sequential();
        let e = reprove(
            std::slice::from_ref(&kept),
            Problem::Domination,
            false,
            &options,
            |_| {},
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                ResumeError::NotMinimal {
                    line: 9,
                    claimed: 3,
                    found: 2,
                    ..
                }
            ),
            "{e}"
        );
        // i(4x4) = 3: the same row is minimal for independent domination, if its queens do not
        // attack each other (r1c1, r2c3 and r4c2 do not).
        let mut independent = kept;
        independent.row.problem = Problem::IndependentDomination;
        assert_eq!(
            reprove(
                &[independent],
                Problem::IndependentDomination,
                false,
                &options,
                |_| {}
            )
            .unwrap(),
            1
        );
    }
}
