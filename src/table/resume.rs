//! Reading back a table file written by an earlier run, so that a run can keep its rows and
//! compute only the boards still missing.
//!
//! What is accepted: a file in one of the line formats whose first line is exactly this format's
//! header (JSON Lines has none), followed by whole rows of the same problem, each of a requested
//! board, each board at most once, in any order, each layout passing the independent checker. A
//! last line without its newline is what a run killed in the middle of a write leaves: it is
//! dropped (the board is computed again). An empty file, or one holding only the start of the
//! header, is a table with no rows yet. Anything else is refused, naming the line.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use crate::board::{Board, BoardError, Layout, LayoutParseError};
use crate::check::CheckError;
use crate::export::{Format, RowReadError};
use crate::search::Problem;

/// A row kept from the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptRow {
    /// 1-based line number in the file.
    pub line: usize,
    pub board: Board,
    pub layout: Layout,
    /// The line as it stands in the file, newline included.
    pub bytes: Vec<u8>,
}

/// What an existing table file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExistingTable {
    /// Whole rows, in file order.
    pub rows: Vec<KeptRow>,
    /// How many bytes of the file to keep: the header and the whole rows. A half-written last line
    /// (or half-written header) lies beyond this.
    pub keep_len: u64,
    /// Whether the kept bytes include the whole header (always true for a format without one).
    pub has_header: bool,
}

impl ExistingTable {
    /// Whether the file must be cut back to `keep_len` before rows are appended.
    pub fn has_partial_line(&self, file_len: u64) -> bool {
        file_len > self.keep_len
    }
}

/// Why an existing file cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResumeError {
    #[error("{format} tables are written whole at the end and cannot be resumed")]
    NotResumable { format: Format },
    #[error("line {line} is not UTF-8 text")]
    NotText { line: usize },
    #[error(
        "it is not a queendom {format} table: its first line is '{found}', expected '{expected}'"
    )]
    Header {
        format: Format,
        found: String,
        expected: String,
    },
    #[error("line {line} is not a {format} table row: {error}")]
    BadRow {
        line: usize,
        format: Format,
        error: RowReadError,
    },
    #[error("line {line} is a row of {found}, but this run computes {expected}")]
    OtherProblem {
        line: usize,
        found: String,
        expected: Problem,
    },
    #[error("line {line} has an impossible board: {error}")]
    BadBoard { line: usize, error: BoardError },
    #[error("line {line} holds board {board}, which is not in the requested --rows/--cols")]
    NotRequested { line: usize, board: Board },
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

/// Read `contents`, an existing file meant to hold a `format` table of `problem` over `boards`.
/// `header` is the format's header bytes (empty for JSON Lines).
pub fn read_existing(
    contents: &[u8],
    format: Format,
    header: &[u8],
    problem: Problem,
    boards: &[Board],
) -> Result<ExistingTable, ResumeError> {
    if !format.is_line_format() {
        return Err(ResumeError::NotResumable { format });
    }
    // Only bytes up to the last newline were written whole.
    let whole_len = contents
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let whole = &contents[..whole_len];

    let mut body_start = 0;
    if !header.is_empty() {
        if whole.is_empty() {
            // No complete line: an empty file, or a header cut short, is a table with no rows yet.
            if header.starts_with(contents) {
                return Ok(ExistingTable {
                    rows: Vec::new(),
                    keep_len: 0,
                    has_header: false,
                });
            }
        } else if whole.starts_with(header) {
            body_start = header.len();
        }
        if body_start == 0 {
            let first = contents.split(|&b| b == b'\n').next().unwrap_or(&[]);
            let found = String::from_utf8_lossy(first);
            let found: String = found.chars().take(80).collect();
            let expected = String::from_utf8_lossy(header).trim_end().to_string();
            return Err(ResumeError::Header {
                format,
                found,
                expected,
            });
        }
    }

    let wanted: HashSet<Board> = boards.iter().copied().collect();
    let mut seen: HashMap<Board, usize> = HashMap::new();
    let mut rows = Vec::new();
    let first_line = if header.is_empty() { 1 } else { 2 };
    let body = &whole[body_start..];
    for (i, raw) in body.split_inclusive(|&b| b == b'\n').enumerate() {
        let line = first_line + i;
        let text = std::str::from_utf8(raw).map_err(|_| ResumeError::NotText { line })?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let fields = format.read_row(text).map_err(|error| ResumeError::BadRow {
            line,
            format,
            error,
        })?;
        if fields.problem != problem.name() {
            return Err(ResumeError::OtherProblem {
                line,
                found: fields.problem,
                expected: problem,
            });
        }
        let board = Board::new(fields.rows, fields.cols)
            .map_err(|error| ResumeError::BadBoard { line, error })?;
        if !wanted.contains(&board) {
            return Err(ResumeError::NotRequested { line, board });
        }
        if let Some(&first) = seen.get(&board) {
            return Err(ResumeError::Repeated { line, first, board });
        }
        seen.insert(board, line);
        let layout = Layout::parse(board, &fields.layout)
            .map_err(|error| ResumeError::BadLayout { line, board, error })?;
        problem
            .check(&layout, fields.queens)
            .map_err(|error| ResumeError::Check { line, board, error })?;
        rows.push(KeptRow {
            line,
            board,
            layout,
            bytes: raw.to_vec(),
        });
    }
    Ok(ExistingTable {
        rows,
        keep_len: whole_len as u64,
        has_header: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;
    use crate::table::{boards, SizeList, TableRunner};

    fn table(format: Format, problem: Problem) -> (Vec<Board>, Vec<u8>, Vec<u8>) {
        let bs = boards(
            &SizeList::parse("1-3").unwrap(),
            &SizeList::parse("2-3").unwrap(),
        );
        let mut export = format.exporter(problem, &[1, 2, 3], &[2, 3]);
        let header = export.header().unwrap();
        let mut file = header.clone();
        let mut runner = TableRunner::new(problem, SearchOptions::sequential(), 1);
        for &b in &bs {
            file.extend(export.row(&runner.compute(b).unwrap()).unwrap());
        }
        (bs, header, file)
    }

    #[test]
    fn whole_tables_are_kept() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let (bs, header, file) = table(format, Problem::Domination);
            let t = read_existing(&file, format, &header, Problem::Domination, &bs).unwrap();
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
            let (bs, header, file) = table(format, Problem::Domination);
            let cut = file.len() - 5;
            let t = read_existing(&file[..cut], format, &header, Problem::Domination, &bs).unwrap();
            assert_eq!(t.rows.len(), bs.len() - 1);
            assert!(t.has_partial_line(cut as u64));
        }
    }

    #[test]
    fn empty_and_cut_headers_have_no_rows() {
        let (bs, header, _) = table(Format::Csv, Problem::Domination);
        for cut in [0, 3, header.len() - 1] {
            let t = read_existing(
                &header[..cut],
                Format::Csv,
                &header,
                Problem::Domination,
                &bs,
            )
            .unwrap();
            assert!(t.rows.is_empty() && !t.has_header && t.keep_len == 0);
        }
    }

    #[test]
    fn foreign_files_are_refused() {
        let (bs, header, file) = table(Format::Csv, Problem::Domination);
        let p = Problem::Domination;
        let refuse = |bytes: &[u8]| read_existing(bytes, Format::Csv, &header, p, &bs).unwrap_err();
        assert!(matches!(refuse(b"a,b\n1,2\n"), ResumeError::Header { .. }));
        let other = read_existing(
            &file,
            Format::Csv,
            &header,
            Problem::IndependentDomination,
            &bs,
        );
        assert!(matches!(
            other,
            Err(ResumeError::OtherProblem { line: 2, .. })
        ));
        let text = String::from_utf8(file.clone()).unwrap();
        // One queen in the corner leaves 2:3 of the 3x3 board uncovered.
        let bad = text.replace("3,3,1,2:2,", "3,3,1,1:1,");
        assert!(matches!(
            refuse(bad.as_bytes()),
            ResumeError::Check { line: 7, .. }
        ));
        let twice = format!("{text}{}", text.lines().nth(1).unwrap()) + "\n";
        assert!(matches!(
            refuse(twice.as_bytes()),
            ResumeError::Repeated { first: 2, .. }
        ));
        let narrow = boards(
            &SizeList::parse("1").unwrap(),
            &SizeList::parse("2").unwrap(),
        );
        assert!(matches!(
            read_existing(&file, Format::Csv, &header, p, &narrow),
            Err(ResumeError::NotRequested { line: 3, .. })
        ));
        assert!(matches!(
            read_existing(&file, Format::Markdown, &header, p, &bs),
            Err(ResumeError::NotResumable { .. })
        ));
    }
}
