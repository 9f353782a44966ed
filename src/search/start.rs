//! Start layouts a user holds from elsewhere (`--start`): each is checked by the independent
//! checker for its board and problem, then used as the first incumbent instead of the local search's
//! layout. The search still proves the minimum, and finds a smaller layout if there is one.

use thiserror::Error;

use crate::board::Board;
use crate::check::CheckError;
use crate::layout::{Layout, LayoutParseError};

use crate::problem::Problem;

/// Checked start layouts, at most one per board (a board and its transpose are one board).
#[derive(Debug, Clone)]
pub struct StartLayouts {
    problem: Problem,
    layouts: Vec<Layout>,
}

#[derive(Debug, Error)]
pub enum StartError {
    #[error("start layout for {board}: {source}")]
    Parse {
        board: Board,
        source: LayoutParseError,
    },
    #[error("start layout for {board} is refused by the checker: {source}")]
    Check { board: Board, source: CheckError },
    #[error("two start layouts for {0}")]
    Repeated(Board),
}

impl StartLayouts {
    /// Parse `text` (squares as a table's `layout` column writes them, `r1c1 r3c5 …`) as a layout
    /// of `board` and check it, as [`StartLayouts::new`] does.
    pub fn parse(board: Board, text: &str) -> Result<Layout, StartError> {
        Layout::parse(board, text.trim()).map_err(|source| StartError::Parse { board, source })
    }

    /// The layouts, each checked: it dominates its board and, for i, no two queens attack each
    /// other. Repeated squares are refused by the checker too.
    pub fn new(problem: Problem, layouts: Vec<Layout>) -> Result<StartLayouts, StartError> {
        let mut kept: Vec<Layout> = Vec::with_capacity(layouts.len());
        for layout in layouts {
            let board = layout.board();
            problem
                .check(&layout, layout.len())
                .map_err(|source| StartError::Check { board, source })?;
            if kept.iter().any(|k| same_board(k.board(), board)) {
                return Err(StartError::Repeated(board));
            }
            kept.push(layout);
        }
        Ok(StartLayouts {
            problem,
            layouts: kept,
        })
    }

    /// The start layout for `board` and `problem`, turned to the board's orientation.
    pub fn for_board(&self, board: Board, problem: Problem) -> Option<Layout> {
        if problem != self.problem {
            return None;
        }
        self.layouts.iter().find_map(|l| {
            if l.board() == board {
                Some(l.clone())
            } else if l.board() == board.transposed() {
                Some(l.transposed())
            } else {
                None
            }
        })
    }

    pub fn is_empty(&self) -> bool {
        self.layouts.is_empty()
    }
}

fn same_board(a: Board, b: Board) -> bool {
    a == b || a == b.transposed()
}
