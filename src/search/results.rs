//! What the public searches return (`Solution`, `Bounded`, `Counted`) and what the commands print
//! of them.

use thiserror::Error;

use crate::board::Board;
use crate::check::CheckError;
use crate::layout::Layout;
use crate::problem::Problem;

/// A proven optimum with a witness layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub problem: Problem,
    /// The optimal layout (its length is the number sought).
    pub layout: Layout,
    /// Search nodes expanded (depends on timing when run in parallel).
    pub nodes: u64,
}

impl Solution {
    pub fn queens(&self) -> usize {
        self.layout.len()
    }

    /// What `solve` prints for `board`: the number, the layout as a diagram and as squares, and
    /// how the search went (`seconds` of wall time on `threads` threads).
    pub fn report(&self, board: Board, seconds: f64, threads: usize) -> String {
        format!(
            "{}({board}) = {}\n{}layout: {}\n({} nodes, {seconds:.3} s, {})\n\n",
            self.problem.symbol(),
            self.queens(),
            self.layout.diagram(),
            self.layout.to_squares_string(),
            self.nodes,
            threads_text(threads),
        )
    }

    /// The title of the picture of the solution for `board`: `γ(8×8) = 5`.
    pub fn title(&self, board: Board) -> String {
        format!(
            "{}({}×{}) = {}",
            self.problem.symbol(),
            board.rows(),
            board.cols(),
            self.queens()
        )
    }
}

/// "1 thread", "2 threads": how reports of a search name its threads.
pub fn threads_text(threads: usize) -> String {
    if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    }
}

/// The outcome of a bounded search.
#[derive(Debug, Clone)]
pub struct Bounded {
    /// The smallest layout with at most the given number of queens, if there is one.
    pub layout: Option<Layout>,
    pub nodes: u64,
}

/// Every minimum layout of a board, counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub problem: Problem,
    /// γ or i, proven (by `solve`, and again by the count: it finds no smaller layout).
    pub queens: usize,
    /// The first optimal layout in the search's fixed order, as `solve` gives it.
    pub layout: Layout,
    /// The minimum layouts.
    pub layouts: u64,
    /// Their classes under the board's symmetries.
    pub classes: u64,
    /// The number of symmetries of the board (8 for a square board, 4 otherwise).
    pub symmetries: usize,
    /// With `representatives`: the canonical member and the size of every class, in increasing
    /// order of the canonical members (row-major squares).
    pub representatives: Vec<(Layout, usize)>,
    /// Nodes of the proof and of the count.
    pub nodes: u64,
}

/// Why a count's report cannot be printed: a layout fails the independent checker, or the classes
/// do not hold the counted layouts (neither happens unless the search is wrong).
#[derive(Debug, Error)]
pub enum CountReportError {
    #[error(transparent)]
    Check(#[from] CheckError),
    #[error(
        "internal error: the classes of {board} hold {held} layouts, the count says {counted}"
    )]
    Classes {
        board: Board,
        held: usize,
        counted: u64,
    },
}

impl Counted {
    /// What `count` prints for `board`: with `classes`, each class's canonical layout and its
    /// size; with `list`, every minimum layout (row-major order); then the minimum and the counts.
    /// Every layout printed passes the independent checker again.
    pub fn report(
        &self,
        board: Board,
        list: bool,
        classes: bool,
        seconds: f64,
        threads: usize,
    ) -> Result<String, CountReportError> {
        let (problem, queens) = (self.problem, self.queens);
        let mut out = String::new();
        if classes {
            for (layout, size) in &self.representatives {
                problem.check(layout, queens)?;
                out.push_str(&format!(
                    "{}  (class of {size})\n",
                    layout.to_squares_string()
                ));
            }
        }
        if list {
            let mut all: Vec<Layout> = self
                .representatives
                .iter()
                .flat_map(|(layout, _)| layout.class())
                .collect();
            all.sort_by(|a, b| a.queens().cmp(b.queens()));
            if all.len() as u64 != self.layouts {
                return Err(CountReportError::Classes {
                    board,
                    held: all.len(),
                    counted: self.layouts,
                });
            }
            for layout in &all {
                problem.check(layout, queens)?;
                out.push_str(&layout.to_squares_string());
                out.push('\n');
            }
        }
        out.push_str(&self.summary(board, seconds, threads));
        Ok(out)
    }

    /// The end of what `count` prints for `board`, after any layouts or classes: the minimum and
    /// the counts, and how the search went.
    pub fn summary(&self, board: Board, seconds: f64, threads: usize) -> String {
        format!(
            "{}({board}) = {}\nlayouts: {}\nclasses: {} (under {})\n({} nodes, {seconds:.3} s, {})\n\n",
            self.problem.symbol(),
            self.queens,
            self.layouts,
            self.classes,
            board.symmetry_group(),
            self.nodes,
            threads_text(threads),
        )
    }
}
