//! Reading rows back from a table file: the checks every reader of table files makes (`table`
//! resuming a file, `plot` and `report` drawing one), on top of each format's own
//! [`super::Format::read_row`].

use std::collections::HashMap;

use thiserror::Error;

use super::Format;
use crate::board::{Board, BoardError};
use crate::check::CheckError;
use crate::error::{ErrorKind, Kind};
use crate::layout::{Layout, LayoutParseError};
use crate::row::{Column, RowFields, RowReadError};
use crate::search::Problem;

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

impl Kind for LineError {
    fn kind(&self) -> ErrorKind {
        match self {
            LineError::BadRow { .. }
            | LineError::BadBoard { .. }
            | LineError::Repeated { .. }
            | LineError::BadLayout { .. }
            | LineError::Check { .. } => ErrorKind::Refusal,
        }
    }
}
