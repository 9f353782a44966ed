//! The independent checker. It shares no code with the search: no bitboards, no precomputed masks,
//! only plain loops that walk each queen's row, column and two diagonals over a grid of booleans.
//! Every layout is passed through here before anybody sees it.

use thiserror::Error;

use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;

/// What is wrong with a layout. Any of these coming from a search result is a bug in the search.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    #[error("layout has {found} queens, but {expected} were claimed")]
    WrongSize { expected: usize, found: usize },
    #[error("queen r{row}c{col} is off the {rows}x{cols} board")]
    OffBoard {
        row: usize,
        col: usize,
        rows: usize,
        cols: usize,
    },
    #[error("two queens stand on r{row}c{col}")]
    Repeated { row: usize, col: usize },
    #[error("square r{row}c{col} is not covered by any queen")]
    Uncovered { row: usize, col: usize },
    #[error("queens on r{0}c{1} and r{2}c{3} attack each other")]
    Attacking(usize, usize, usize, usize),
}

/// Check that `layout` has `expected` queens and covers every square of its board
/// (1-based squares in the messages, as in the CSV).
pub fn check_dominating(layout: &Layout, expected: usize) -> Result<(), CheckError> {
    let board = layout.board();
    let (rows, cols) = (board.rows(), board.cols());
    let queens = layout.queens();
    if queens.len() != expected {
        return Err(CheckError::WrongSize {
            expected,
            found: queens.len(),
        });
    }
    let mut occupied = vec![vec![false; cols]; rows];
    for q in queens {
        if q.row >= rows || q.col >= cols {
            return Err(CheckError::OffBoard {
                row: q.row + 1,
                col: q.col + 1,
                rows,
                cols,
            });
        }
        if occupied[q.row][q.col] {
            return Err(CheckError::Repeated {
                row: q.row + 1,
                col: q.col + 1,
            });
        }
        occupied[q.row][q.col] = true;
    }

    let mut covered = vec![vec![false; cols]; rows];
    for q in queens {
        let (r, c) = (q.row as isize, q.col as isize);
        // Walk outwards in all eight directions; the queen's own square is covered too.
        covered[q.row][q.col] = true;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut i, mut j) = (r + dr, c + dc);
            while i >= 0 && j >= 0 && (i as usize) < rows && (j as usize) < cols {
                covered[i as usize][j as usize] = true;
                i += dr;
                j += dc;
            }
        }
    }
    for (row, line) in covered.iter().enumerate() {
        for (col, &is_covered) in line.iter().enumerate() {
            if !is_covered {
                return Err(CheckError::Uncovered {
                    row: row + 1,
                    col: col + 1,
                });
            }
        }
    }
    Ok(())
}

/// Check that no two queens of `layout` share a row, a column or a diagonal.
pub fn check_non_attacking(layout: &Layout) -> Result<(), CheckError> {
    let queens = layout.queens();
    for (i, a) in queens.iter().enumerate() {
        for b in &queens[i + 1..] {
            let same_row = a.row == b.row;
            let same_col = a.col == b.col;
            let same_diagonal = a.row.abs_diff(b.row) == a.col.abs_diff(b.col);
            if same_row || same_col || same_diagonal {
                return Err(CheckError::Attacking(
                    a.row + 1,
                    a.col + 1,
                    b.row + 1,
                    b.col + 1,
                ));
            }
        }
    }
    Ok(())
}

/// Check a layout claimed to be an independent dominating set of `expected` queens.
pub fn check_independent_dominating(layout: &Layout, expected: usize) -> Result<(), CheckError> {
    check_dominating(layout, expected)?;
    check_non_attacking(layout)
}

/// A layout that fails the check was given (a search that produces one wraps the error as its own failure).
impl Kind for CheckError {
    fn kind(&self) -> ErrorKind {
        match self {
            CheckError::WrongSize { .. }
            | CheckError::OffBoard { .. }
            | CheckError::Repeated { .. }
            | CheckError::Uncovered { .. }
            | CheckError::Attacking(..) => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};

    fn layout(rows: usize, cols: usize, squares: &[(usize, usize)]) -> Layout {
        let b = Board::new(rows, cols).unwrap();
        Layout::new(b, squares.iter().map(|&(r, c)| Square::new(r, c)).collect())
    }

    #[test]
    fn accepts_a_known_dominating_set() {
        // 4x4: queens on 1:1 and 3:3 (1-based) cover everything.
        assert_eq!(
            check_dominating(&layout(4, 4, &[(0, 0), (2, 2)]), 2),
            Ok(())
        );
    }

    #[test]
    fn rejects_a_layout_that_misses_a_square() {
        let err = check_dominating(&layout(4, 4, &[(0, 0), (1, 1)]), 2).unwrap_err();
        assert!(matches!(err, CheckError::Uncovered { .. }), "{err}");
    }

    #[test]
    fn rejects_attacking_queens_for_independent_domination() {
        // 1:1 and 3:3 dominate 4x4 but share a diagonal.
        let l = layout(4, 4, &[(0, 0), (2, 2)]);
        assert!(check_dominating(&l, 2).is_ok());
        let err = check_independent_dominating(&l, 2).unwrap_err();
        assert_eq!(err, CheckError::Attacking(1, 1, 3, 3));
    }

    #[test]
    fn rejects_wrong_size_and_repeats() {
        let l = layout(3, 3, &[(1, 1)]);
        assert!(matches!(
            check_dominating(&l, 2),
            Err(CheckError::WrongSize { .. })
        ));
        let l = layout(3, 3, &[(1, 1), (1, 1)]);
        assert!(matches!(
            check_dominating(&l, 2),
            Err(CheckError::Repeated { .. })
        ));
    }

    #[test]
    fn rejects_queens_off_the_board() {
        let b = Board::new(3, 3).unwrap();
        let l = Layout::new(b, vec![Square::new(1, 1), Square::new(3, 0)]);
        assert!(matches!(
            check_dominating(&l, 2),
            Err(CheckError::OffBoard { .. })
        ));
    }
}
