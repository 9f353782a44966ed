//! The user's layout: a set of queens on a board, its written form (`r1c1 r3c3`, parse and
//! display), its diagram and its class under the board's symmetries. The search's own bitboards
//! are in `board` (`Bits`, `Geometry`); this is what it hands back.

use thiserror::Error;

use crate::board::{Board, Square};

/// A set of queens on a board.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    board: Board,
    queens: Vec<Square>,
}

impl Layout {
    /// Queens are kept sorted (row-major) so that equal sets compare and print equal.
    pub fn new(board: Board, mut queens: Vec<Square>) -> Layout {
        queens.sort();
        Layout { board, queens }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn queens(&self) -> &[Square] {
        &self.queens
    }

    pub fn len(&self) -> usize {
        self.queens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queens.is_empty()
    }

    /// The layout on the transposed board.
    pub fn transposed(&self) -> Layout {
        Layout::new(
            self.board.transposed(),
            self.queens
                .iter()
                .map(|q| Square::new(q.col, q.row))
                .collect(),
        )
    }

    /// Every distinct image of the layout under the board's symmetries, in increasing order of
    /// their (row-major, sorted) squares: the layout's class, whose first member is canonical.
    pub fn class(&self) -> Vec<Layout> {
        let mut images: Vec<Layout> = self
            .board
            .symmetries()
            .into_iter()
            .map(|g| {
                Layout::new(
                    self.board,
                    self.queens
                        .iter()
                        .map(|&q| g.apply(self.board, q))
                        .collect(),
                )
            })
            .collect();
        images.sort_by(|a, b| a.queens.cmp(&b.queens));
        images.dedup();
        images
    }

    /// The written form: 1-based squares `r1c1` (r = row from the top, c = column from the left)
    /// separated by single spaces, e.g. `r1c1 r3c3`. Unlike the older `1:1 3:3`, no spreadsheet
    /// reads it as a time, a date or a number.
    pub fn to_squares_string(&self) -> String {
        let parts: Vec<String> = self.queens.iter().map(|q| q.to_string()).collect();
        parts.join(" ")
    }

    /// Parse the written form back: squares `r1c1` (any case) or, as earlier versions wrote them,
    /// `1:1`, separated by single spaces; squares must lie on `board`.
    pub fn parse(board: Board, text: &str) -> Result<Layout, LayoutParseError> {
        let mut queens = Vec::new();
        for token in text.split(' ') {
            let bad = || LayoutParseError::BadSquare(token.to_string());
            let (r, c) = square_numbers(token).ok_or_else(bad)?;
            if r == 0 || c == 0 || r > board.rows() || c > board.cols() {
                return Err(LayoutParseError::OffBoard(token.to_string(), board));
            }
            queens.push(Square::new(r - 1, c - 1));
        }
        Ok(Layout::new(board, queens))
    }

    /// The board as a diagram, one line per row: `Q` for a queen, `.` for an empty square.
    pub fn diagram(&self) -> String {
        let mut grid = vec![vec!['.'; self.board.cols()]; self.board.rows()];
        for q in &self.queens {
            grid[q.row][q.col] = 'Q';
        }
        let mut out = String::with_capacity(self.board.squares() * 2 + self.board.rows());
        for row in grid {
            let line: Vec<String> = row.iter().map(|c| c.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

/// The 1-based (row, column) of a square written `r3c5` (any case) or `3:5`; plain digits only.
fn square_numbers(token: &str) -> Option<(usize, usize)> {
    let (r, c) = match token.split_once(':') {
        Some(rc) => rc,
        None => {
            let rest = token.strip_prefix(['r', 'R'])?;
            rest.split_once(['c', 'C'])?
        }
    };
    let number = |s: &str| -> Option<usize> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // All digits: only an overflow can fail, and that is certainly off the board.
        Some(s.parse().unwrap_or(usize::MAX))
    };
    Some((number(r)?, number(c)?))
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutParseError {
    #[error("'{0}' is not a square of the form r1c1 (row, column; 1-based)")]
    BadSquare(String),
    #[error("square '{0}' is off the {1} board")]
    OffBoard(String, Board),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_text_round_trips() {
        let b = Board::new(4, 4).unwrap();
        let l = Layout::new(b, vec![Square::new(2, 2), Square::new(0, 0)]);
        assert_eq!(l.to_squares_string(), "r1c1 r3c3");
        assert_eq!(Layout::parse(b, "r1c1 r3c3").unwrap(), l);
        // The older notation, any case, and a mix of both are read too.
        assert_eq!(Layout::parse(b, "1:1 3:3").unwrap(), l);
        assert_eq!(Layout::parse(b, "R3C3 1:1").unwrap(), l);
        assert!(Layout::parse(b, "r1c1 r5c1").is_err());
        assert!(Layout::parse(b, "r1c1  r3c3").is_err());
        for bad in [
            "r1c", "rc1", "r1", "1:", ":1", "r+1c1", "r1c1x", "c1r1", "r1:c1", "1c1",
        ] {
            assert!(
                matches!(Layout::parse(b, bad), Err(LayoutParseError::BadSquare(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            Layout::parse(b, "r99999999999999999999999c1"),
            Err(LayoutParseError::OffBoard(..))
        ));
        assert_eq!(l.diagram(), "Q . . .\n. . . .\n. . Q .\n. . . .\n");
    }
}
