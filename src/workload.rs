//! The fixed workloads of `queendom bench`: searches whose tree, and so whose amount of work, is
//! the same on any number of threads and at any timing, so that wall time measures the machine.
//!
//! A domination workload is a proof that no layout below the optimum exists: with nothing to find,
//! the bound never moves and every worker explores exactly the same tree as the sequential search.
//! An N-queens workload counts every placement, a fixed tree too.

use std::fmt;

use crate::board::Board;
use crate::nqueens::{count_placements, NQueensError};
use crate::search::{search_at_most, Problem, SearchError, SearchOptions};

/// One fixed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Prove that no layout of `queens` queens solves `problem` on a `rows`×`cols` board.
    NoLayout {
        rows: usize,
        cols: usize,
        problem: Problem,
        queens: usize,
    },
    /// Count every placement of n non-attacking queens on the n×n board.
    CountPlacements { n: usize },
}

/// What a workload did: search nodes (domination) or placements counted (N-queens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Work {
    pub nodes: u64,
    pub placements: u64,
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Workload::NoLayout {
                rows,
                cols,
                problem,
                queens,
            } => {
                let what = match problem {
                    Problem::Domination => "dominate",
                    Problem::IndependentDomination => "independently dominate",
                };
                write!(f, "no {queens} queens {what} {rows}x{cols}")
            }
            Workload::CountPlacements { n } => write!(f, "count the {n}-queens placements"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    NQueens(#[from] NQueensError),
    /// The proof found a layout: the workload is misdefined, or the search is wrong.
    #[error("workload '{0}' found a layout, so it is not a proof")]
    NotAProof(String),
}

impl Workload {
    /// Run on the current rayon pool.
    pub fn run(&self) -> Result<Work, WorkloadError> {
        match *self {
            Workload::NoLayout {
                rows,
                cols,
                problem,
                queens,
            } => {
                let board = Board::new(rows, cols).expect("workload boards are valid");
                let out = search_at_most(board, problem, queens, &SearchOptions::parallel())?;
                if out.layout.is_some() {
                    return Err(WorkloadError::NotAProof(self.to_string()));
                }
                Ok(Work {
                    nodes: out.nodes,
                    placements: 0,
                })
            }
            Workload::CountPlacements { n } => Ok(Work {
                nodes: 0,
                placements: count_placements(n, true)?.solutions,
            }),
        }
    }
}

/// The standard benchmark: a few seconds of one core each.
pub fn standard() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 14,
            cols: 14,
            problem: Problem::Domination,
            queens: 7,
        },
        Workload::NoLayout {
            rows: 13,
            cols: 15,
            problem: Problem::Domination,
            queens: 7,
        },
        Workload::NoLayout {
            rows: 16,
            cols: 16,
            problem: Problem::IndependentDomination,
            queens: 8,
        },
        Workload::CountPlacements { n: 16 },
    ]
}

/// A quick check of the same kinds of work, well under a second of one core each.
pub fn quick() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 13,
            cols: 13,
            problem: Problem::Domination,
            queens: 6,
        },
        Workload::NoLayout {
            rows: 14,
            cols: 14,
            problem: Problem::IndependentDomination,
            queens: 7,
        },
        Workload::CountPlacements { n: 13 },
    ]
}
