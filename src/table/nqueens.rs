//! N-queens tables: the boards of a table of square boards or of rectangles, the count of each
//! (a board and its transpose share one), and the kept rows of a resumed table counted again.

use std::collections::HashMap;
use std::time::Instant;

use thiserror::Error;

use super::resume::{KeptRow, ResumeError};
use super::{boards, square_boards, SizeList};
use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::nqueens::{count_placements_traced, count_rectangular, NQueensError};
use crate::row::{NQueensRow, RowKind};
use crate::trace::Trace;

/// Boards of at most this many squares are counted again when a file is resumed (n = 12 takes a
/// few milliseconds).
pub const RECOUNT_SQUARES: usize = 144;

/// Square tables (`n` and `unique`) or rectangular ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Square,
    Rectangle,
}

impl Shape {
    /// The kind of the table's rows.
    pub fn kind(self) -> RowKind {
        match self {
            Shape::Square => RowKind::NQueens,
            Shape::Rectangle => RowKind::NQueensRect,
        }
    }
}

/// The boards of a table: n×n for `sizes`, or every `rows` × `cols`.
pub fn table_boards(
    sizes: Option<&SizeList>,
    rows: Option<&SizeList>,
    cols: Option<&SizeList>,
) -> Option<(Shape, Vec<Board>)> {
    match (sizes, rows, cols) {
        (Some(sizes), _, _) => Some((Shape::Square, square_boards(sizes))),
        (None, Some(rows), Some(cols)) => Some((Shape::Rectangle, boards(rows, cols))),
        _ => None,
    }
}

/// The row and column counts of `boards`, in order of first appearance (the grid's axes).
pub fn axes(boards: &[Board]) -> (Vec<usize>, Vec<usize>) {
    let mut rows: Vec<usize> = Vec::new();
    let mut cols: Vec<usize> = Vec::new();
    for b in boards {
        if !rows.contains(&b.rows()) {
            rows.push(b.rows());
        }
        if !cols.contains(&b.cols()) {
            cols.push(b.cols());
        }
    }
    (rows, cols)
}

/// A count that failed, on the board n×n.
#[derive(Debug, Error)]
#[error("n = {n}")]
pub struct CountError {
    pub n: usize,
    #[source]
    pub source: NQueensError,
}

/// Why kept rows were not all confirmed.
#[derive(Debug, Error)]
pub enum RecountError {
    #[error(transparent)]
    Count(#[from] CountError),
    /// A kept row whose counts are not the board's.
    #[error(transparent)]
    Differs(ResumeError),
}

/// Counts the boards of one table, each board or its transpose once.
pub struct NQueensCounter<'a> {
    pub shape: Shape,
    /// Whether to use the parallel twin (one thread runs the sequential one).
    pub parallel: bool,
    /// The threads, for the rows.
    pub threads: usize,
    pub trace: Option<&'a Trace>,
    done: HashMap<Board, (u64, Option<u64>)>,
}

impl<'a> NQueensCounter<'a> {
    pub fn new(shape: Shape, threads: usize, trace: Option<&'a Trace>) -> NQueensCounter<'a> {
        NQueensCounter {
            shape,
            parallel: threads > 1,
            threads,
            trace,
            done: HashMap::new(),
        }
    }

    /// The count of `board`: (solutions, unique for square boards).
    pub fn count(&self, board: Board) -> Result<(u64, Option<u64>), CountError> {
        Ok(match self.shape {
            Shape::Square => {
                let c = count_placements_traced(board.rows(), self.parallel, self.trace).map_err(
                    |source| CountError {
                        n: board.rows(),
                        source,
                    },
                )?;
                (c.solutions, Some(c.unique))
            }
            Shape::Rectangle => (count_rectangular(board, self.parallel), None),
        })
    }

    /// The row of `board`. A board and its transpose have the same count: the second is not
    /// counted again and shows 0 seconds.
    pub fn row(&mut self, board: Board) -> Result<NQueensRow, CountError> {
        let start = Instant::now();
        let key = searched(board);
        let ((solutions, unique), seconds) = match self.done.get(&key).copied() {
            Some(c) => (c, 0.0),
            None => {
                let c = self.count(key)?;
                self.done.insert(key, c);
                (c, start.elapsed().as_secs_f64())
            }
        };
        Ok(NQueensRow {
            board,
            solutions,
            unique,
            seconds,
            threads: self.threads,
        })
    }

    /// Count kept rows again: those of boards up to [`RECOUNT_SQUARES`] squares, those without
    /// digests, and all with `all`. Returns how many were counted.
    pub fn recount(&self, kept: &[KeptRow<NQueensRow>], all: bool) -> Result<usize, RecountError> {
        let mut recounted = 0;
        for kept in kept {
            let row = &kept.row;
            if !(all || !kept.has_digest || row.board.squares() <= RECOUNT_SQUARES) {
                continue;
            }
            let (solutions, unique) = self.count(row.board)?;
            if (solutions, unique) != (row.solutions, row.unique) {
                let unique_text =
                    |u: Option<u64>| u.map_or(String::new(), |u| format!(" ({u} unique)"));
                return Err(RecountError::Differs(ResumeError::Impossible {
                    line: kept.line,
                    board: row.board,
                    what: format!(
                        "it says {} solutions{}, but there are {solutions}{}",
                        row.solutions,
                        unique_text(row.unique),
                        unique_text(unique)
                    ),
                }));
            }
            recounted += 1;
        }
        Ok(recounted)
    }
}

/// The board a count is made on: a board and its transpose have the same placements.
fn searched(board: Board) -> Board {
    if board.rows() <= board.cols() {
        board
    } else {
        board.transposed()
    }
}

impl Kind for CountError {
    fn kind(&self) -> ErrorKind {
        self.source.kind()
    }
}

impl Kind for RecountError {
    fn kind(&self) -> ErrorKind {
        match self {
            RecountError::Count(e) => e.kind(),
            RecountError::Differs(e) => e.kind(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::SizeList;

    #[test]
    fn a_board_and_its_transpose_are_counted_once() {
        let mut counter = NQueensCounter::new(Shape::Rectangle, 1, None);
        let wide = counter.row(Board::new(4, 6).unwrap()).unwrap();
        let tall = counter.row(Board::new(6, 4).unwrap()).unwrap();
        assert_eq!(
            (wide.solutions, tall.solutions),
            (wide.solutions, wide.solutions)
        );
        assert_eq!(tall.seconds, 0.0);
        let mut squares = NQueensCounter::new(Shape::Square, 1, None);
        let eight = squares.row(Board::new(8, 8).unwrap()).unwrap();
        assert_eq!((eight.solutions, eight.unique), (92, Some(12)));
    }

    #[test]
    fn a_kept_row_with_wrong_counts_is_refused() {
        let counter = NQueensCounter::new(Shape::Square, 1, None);
        let row = |solutions| KeptRow {
            line: 2,
            row: NQueensRow {
                board: Board::new(6, 6).unwrap(),
                solutions,
                unique: Some(1),
                seconds: 0.0,
                threads: 1,
            },
            bytes: Vec::new(),
            has_digest: true,
        };
        assert_eq!(counter.recount(&[row(4)], false).unwrap(), 1);
        assert!(matches!(
            counter.recount(&[row(5)], false),
            Err(RecountError::Differs(_))
        ));
    }

    #[test]
    fn axes_list_sizes_in_order_of_first_appearance() {
        let rows: SizeList = "3,1".parse().unwrap();
        let cols: SizeList = "2,5".parse().unwrap();
        let (_, boards) = table_boards(None, Some(&rows), Some(&cols)).unwrap();
        assert_eq!(axes(&boards), (vec![3, 1], vec![2, 5]));
    }
}
