//! Tables over ranges of board sizes: parsing size lists, turning them into boards in a stable order,
//! computing each board once (a board and its transpose share one search), and reading back the
//! rows of an earlier run ([`resume`]).

use std::collections::HashMap;
use std::time::Instant;

use thiserror::Error;

use crate::board::{Board, Layout, MAX_SIDE};
use crate::row::{LayoutTotals, RowKind, TableRow};
use crate::search::{count, solve, Problem, SearchError, SearchOptions};

pub mod resume;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeListError {
    #[error("empty size list")]
    Empty,
    #[error("'{0}' is not a size: expected a whole number such as 8")]
    NotANumber(String),
    #[error("size 0 in '{0}': boards have at least one row and one column")]
    Zero(String),
    #[error("range '{0}' runs backwards: write the smaller number first")]
    Reversed(String),
    #[error("size {size} in '{text}' is too big: this build supports sizes up to {max}")]
    TooBig {
        text: String,
        size: usize,
        max: usize,
    },
}

/// A list of sizes written as numbers, ranges `A-B` and comma lists: `4,6,9-11` is 4, 6, 9, 10, 11.
/// Kept in the order written, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeList(Vec<usize>);

impl SizeList {
    pub fn parse(text: &str) -> Result<SizeList, SizeListError> {
        Self::parse_with_max(text, MAX_SIDE)
    }

    pub fn parse_with_max(text: &str, max: usize) -> Result<SizeList, SizeListError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SizeListError::Empty);
        }
        let mut sizes = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let number = |s: &str| -> Result<usize, SizeListError> {
                let s = s.trim();
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(SizeListError::NotANumber(item.to_string()));
                }
                // All digits: only an overflow can fail, and that is certainly too big.
                let n = s.parse::<usize>().unwrap_or(usize::MAX);
                if n == 0 {
                    return Err(SizeListError::Zero(item.to_string()));
                }
                if n > max {
                    return Err(SizeListError::TooBig {
                        text: item.to_string(),
                        size: n,
                        max,
                    });
                }
                Ok(n)
            };
            let (a, b) = match item.split_once('-') {
                // A leading '-' is a negative number, not a range.
                Some((lo, _)) if lo.trim().is_empty() => {
                    return Err(SizeListError::NotANumber(item.to_string()))
                }
                Some((lo, hi)) => (number(lo)?, number(hi)?),
                None => {
                    let n = number(item)?;
                    (n, n)
                }
            };
            if a > b {
                return Err(SizeListError::Reversed(item.to_string()));
            }
            for n in a..=b {
                if !sizes.contains(&n) {
                    sizes.push(n);
                }
            }
        }
        Ok(SizeList(sizes))
    }

    pub fn sizes(&self) -> &[usize] {
        &self.0
    }

    /// A list of sizes known to be valid (e.g. read back from a plan), kept in order without
    /// repeats.
    pub fn from_sizes(sizes: &[usize]) -> SizeList {
        let mut out: Vec<usize> = Vec::with_capacity(sizes.len());
        for &n in sizes {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        SizeList(out)
    }
}

impl std::str::FromStr for SizeList {
    type Err = SizeListError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SizeList::parse(s)
    }
}

/// Every board of a table, in the order its rows are written: by rows, then by columns, each in
/// the order the lists give.
pub fn boards(rows: &SizeList, cols: &SizeList) -> Vec<Board> {
    let mut out = Vec::with_capacity(rows.0.len() * cols.0.len());
    for &r in &rows.0 {
        for &c in &cols.0 {
            out.push(Board::new(r, c).expect("size lists hold valid sizes"));
        }
    }
    out
}

/// The square boards n×n for every n in `sizes`, in the order given.
pub fn square_boards(sizes: &SizeList) -> Vec<Board> {
    sizes
        .0
        .iter()
        .map(|&n| Board::new(n, n).expect("size lists hold valid sizes"))
        .collect()
}

/// What the search of one board gives a table: the optimal layout, the counts when the table
/// counts, and the nodes it took.
#[derive(Debug, Clone)]
pub struct Searched {
    pub layout: Layout,
    pub counts: Option<LayoutTotals>,
    pub nodes: u64,
}

/// Computes the boards of a table one after the other (each on all threads of the current pool),
/// searching each board or its transpose only once.
pub struct TableRunner {
    problem: Problem,
    kind: RowKind,
    options: SearchOptions,
    threads: usize,
    /// Results already found, by board as searched (rows ≤ cols).
    done: HashMap<Board, (Layout, Option<LayoutTotals>)>,
}

impl TableRunner {
    pub fn new(problem: Problem, options: SearchOptions, threads: usize) -> TableRunner {
        TableRunner::of_kind(RowKind::Optimum, problem, options, threads)
    }

    /// A runner for rows of `kind`: with [`RowKind::Count`], every board's minimum layouts are
    /// counted too (see [`crate::search::count`]).
    pub fn of_kind(
        kind: RowKind,
        problem: Problem,
        options: SearchOptions,
        threads: usize,
    ) -> TableRunner {
        TableRunner {
            problem,
            kind,
            options,
            threads,
            done: HashMap::new(),
        }
    }

    /// Remember a layout known from elsewhere (e.g. a row kept from an earlier run), so that its
    /// transpose is not searched again. The caller has checked it.
    pub fn remember(&mut self, row: &TableRow) {
        let l = canonical(&row.layout);
        self.done.entry(l.board()).or_insert((l, row.counts));
    }

    /// The options its searches run with.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The row for `board`: searched, or taken from its transpose if that was done before.
    pub fn compute(&mut self, board: Board) -> Result<TableRow, SearchError> {
        let (problem, options, kind) = (self.problem, self.options.clone(), self.kind);
        self.compute_with(board, |searched| match kind {
            RowKind::Optimum => solve(searched, problem, &options).map(|s| Searched {
                layout: s.layout,
                counts: None,
                nodes: s.nodes,
            }),
            RowKind::Count => count(searched, problem, false, &options).map(|c| Searched {
                layout: c.layout,
                counts: Some(LayoutTotals {
                    layouts: c.layouts,
                    classes: c.classes,
                }),
                nodes: c.nodes,
            }),
        })
    }

    /// As [`TableRunner::compute`], with `search` giving the result for the board it is handed
    /// (the board with at most as many rows as columns), e.g. from a checkpointed search. Its
    /// layout is checked like any other, and it must carry counts exactly when the table counts.
    pub fn compute_with<E: From<SearchError>>(
        &mut self,
        board: Board,
        search: impl FnOnce(Board) -> Result<Searched, E>,
    ) -> Result<TableRow, E> {
        let flip = board.rows() > board.cols();
        let searched = if flip { board.transposed() } else { board };
        let (layout, counts, nodes, seconds) = match self.done.get(&searched) {
            Some((l, counts)) => (l.clone(), *counts, 0, 0.0),
            None => {
                let start = Instant::now();
                let found = search(searched)?;
                let seconds = start.elapsed().as_secs_f64();
                self.problem
                    .check(&found.layout, found.layout.len())
                    .map_err(SearchError::from)?;
                self.done
                    .insert(searched, (found.layout.clone(), found.counts));
                (found.layout, found.counts, found.nodes, seconds)
            }
        };
        if counts.is_some() != (self.kind == RowKind::Count) {
            return Err(SearchError::Inconsistent(format!(
                "the result for {searched} {} counts, the table {}",
                if counts.is_some() { "has" } else { "has no" },
                if self.kind == RowKind::Count {
                    "counts"
                } else {
                    "does not count"
                }
            ))
            .into());
        }
        let layout = if flip { layout.transposed() } else { layout };
        // Checked again on the board as written: a transposition slip must not reach a file.
        self.problem
            .check(&layout, layout.len())
            .map_err(SearchError::from)?;
        Ok(TableRow {
            board,
            problem: self.problem,
            layout,
            counts,
            nodes,
            seconds,
            threads: self.threads,
        })
    }
}

fn canonical(layout: &Layout) -> Layout {
    if layout.board().rows() > layout.board().cols() {
        layout.transposed()
    } else {
        layout.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_lists() {
        assert_eq!(
            SizeList::parse("4,6,9-11").unwrap().sizes(),
            &[4, 6, 9, 10, 11]
        );
        assert_eq!(SizeList::parse("1-3,2").unwrap().sizes(), &[1, 2, 3]);
        assert_eq!(SizeList::parse(" 7 ").unwrap().sizes(), &[7]);
        assert_eq!(
            SizeList::parse("9-4"),
            Err(SizeListError::Reversed("9-4".into()))
        );
        assert_eq!(
            SizeList::parse("0-3"),
            Err(SizeListError::Zero("0-3".into()))
        );
        assert!(matches!(
            SizeList::parse("-3"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("a"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("3,"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("1-2-3"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("33"),
            Err(SizeListError::TooBig { .. })
        ));
        assert!(matches!(
            SizeList::parse("99999999999999999999999"),
            Err(SizeListError::TooBig { .. })
        ));
        assert_eq!(SizeList::parse(""), Err(SizeListError::Empty));
    }

    #[test]
    fn transposes_are_searched_once() {
        let mut t = TableRunner::new(Problem::Domination, SearchOptions::sequential(), 1);
        // γ(8x11) = 6 is above the lower bound 5, so the first board is searched.
        let a = t.compute(Board::new(8, 11).unwrap()).unwrap();
        let b = t.compute(Board::new(11, 8).unwrap()).unwrap();
        assert!(a.nodes > 0);
        assert_eq!(b.nodes, 0);
        assert_eq!(b.layout, a.layout.transposed());
    }

    #[test]
    fn count_tables_count_a_board_and_its_transpose_once() {
        let mut t = TableRunner::of_kind(
            RowKind::Count,
            Problem::Domination,
            SearchOptions::sequential(),
            1,
        );
        let a = t.compute(Board::new(4, 6).unwrap()).unwrap();
        let b = t.compute(Board::new(6, 4).unwrap()).unwrap();
        let c = count(
            Board::new(6, 4).unwrap(),
            Problem::Domination,
            false,
            &SearchOptions::sequential(),
        )
        .unwrap();
        assert_eq!(a.kind(), RowKind::Count);
        assert!(a.nodes > 0);
        assert_eq!(b.nodes, 0);
        assert_eq!(b.layout, a.layout.transposed());
        let totals = LayoutTotals {
            layouts: c.layouts,
            classes: c.classes,
        };
        assert_eq!(a.counts, Some(totals));
        assert_eq!(b.counts, Some(totals));
        assert_eq!(
            a.layout,
            solve(a.board, Problem::Domination, &SearchOptions::sequential())
                .unwrap()
                .layout
        );
    }
}
