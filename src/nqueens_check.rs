//! The independent checker for N-queens placements. It shares no code with the search: no bit
//! masks, only plain loops over pairs of queens. Every listed placement passes through here before
//! anybody sees it.

use crate::error::{ErrorKind, Kind};
use thiserror::Error;

/// What is wrong with a placement (1-based rows and columns). Any of these coming from the search
/// is a bug in the search.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("row {row}: column {col} is off a board of {cols} columns")]
    OffBoard { row: usize, col: usize, cols: usize },
    #[error("the queens of rows {0} and {1} share a column")]
    SameColumn(usize, usize),
    #[error("the queens of rows {0} and {1} share a diagonal")]
    SameDiagonal(usize, usize),
}

/// Check a placement given as the 0-based column of the queen of each row (so one queen per row
/// holds by construction) on a board `cols` columns wide: every queen on the board, no two in one
/// column, no two on one diagonal.
pub fn check_placement(cols: usize, placement: &[u8]) -> Result<(), PlacementError> {
    for (row, &col) in placement.iter().enumerate() {
        if usize::from(col) >= cols {
            return Err(PlacementError::OffBoard {
                row: row + 1,
                col: usize::from(col) + 1,
                cols,
            });
        }
    }
    for (a, &col_a) in placement.iter().enumerate() {
        for (b, &col_b) in placement.iter().enumerate().skip(a + 1) {
            if col_a == col_b {
                return Err(PlacementError::SameColumn(a + 1, b + 1));
            }
            // Rows differ (b > a), so a shared diagonal means equal row and column distances.
            if b - a == usize::from(col_a.abs_diff(col_b)) {
                return Err(PlacementError::SameDiagonal(a + 1, b + 1));
            }
        }
    }
    Ok(())
}

/// A placement that fails the check was given (the search wraps its own as a failure).
impl Kind for PlacementError {
    fn kind(&self) -> ErrorKind {
        match self {
            PlacementError::OffBoard { .. }
            | PlacementError::SameColumn(..)
            | PlacementError::SameDiagonal(..) => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_known_placement() {
        // 1 5 8 6 3 7 2 4, the first 8×8 placement in lexicographic order (1-based).
        assert_eq!(check_placement(8, &[0, 4, 7, 5, 2, 6, 1, 3]), Ok(()));
        assert_eq!(check_placement(1, &[0]), Ok(()));
        assert_eq!(check_placement(5, &[0, 2]), Ok(()));
    }

    #[test]
    fn rejects_shared_columns_diagonals_and_off_board_queens() {
        assert_eq!(
            check_placement(4, &[1, 3, 1, 2]),
            Err(PlacementError::SameColumn(1, 3))
        );
        assert_eq!(
            check_placement(4, &[1, 3, 2, 0]),
            Err(PlacementError::SameDiagonal(2, 3))
        );
        assert_eq!(
            check_placement(4, &[3, 2]),
            Err(PlacementError::SameDiagonal(1, 2))
        );
        assert_eq!(
            check_placement(3, &[0, 3]),
            Err(PlacementError::OffBoard {
                row: 2,
                col: 4,
                cols: 3
            })
        );
    }
}
