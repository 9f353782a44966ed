//! The fixed workloads of `queendom bench`: searches whose tree, and so whose amount of work, is
//! the same on any number of threads and at any timing, so that wall time measures the machine.
//!
//! A domination workload is a proof that no layout below the optimum exists: with nothing to find,
//! the bound never moves and every worker explores exactly the same tree as the sequential search.
//! An N-queens workload counts every placement, a fixed tree too.

use std::fmt;
use std::sync::Arc;

use crate::board::Board;
use crate::nqueens::{count_placements_traced, NQueensError};
use crate::search::{search_at_most, Problem, SearchError, SearchOptions};
use crate::trace::Trace;

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
                write!(f, "no {queens} queens {} {rows}x{cols}", problem.verb())
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
        self.run_traced(None)
    }

    /// Run on the current rayon pool, keeping a record of every task in `trace`.
    pub fn run_traced(&self, trace: Option<&Arc<Trace>>) -> Result<Work, WorkloadError> {
        match *self {
            Workload::NoLayout {
                rows,
                cols,
                problem,
                queens,
            } => {
                let board = Board::new(rows, cols).expect("workload boards are valid");
                // Split at every thread count, one thread included: the work is the same tree.
                let options = SearchOptions {
                    trace: trace.cloned(),
                    ..SearchOptions::parallel()
                };
                let out = search_at_most(board, problem, queens, &options)?;
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
                placements: count_placements_traced(n, true, trace.map(|t| &**t))?.solutions,
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

/// Work for machines with many threads: about 20 times the standard work (on the reference
/// machine, about 3 minutes of one core: 3 s on 64 threads), made of the proofs that no 8 queens
/// dominate 15×15 or 18×18 and the 18-queens count, searches whose splits keep 256 threads busy
/// (docs/scaling.md, "Benchmark size").
pub fn large() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 15,
            cols: 15,
            problem: Problem::Domination,
            queens: 8,
        },
        Workload::NoLayout {
            rows: 18,
            cols: 18,
            problem: Problem::Domination,
            queens: 8,
        },
        Workload::CountPlacements { n: 18 },
    ]
}

/// The work sizes of `queendom bench`, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkSize {
    Quick,
    Standard,
    Large,
}

// CPU seconds on one core of the reference machine: quick and standard from `queendom bench`
// with one thread, large from the sum of the CPU seconds of its traced tasks (docs/scaling.md,
// "Benchmark size").
const REFERENCE_QUICK: f64 = 0.5;
const REFERENCE_STANDARD: f64 = 8.4;
const REFERENCE_LARGE: f64 = 190.0;

/// The run at the highest thread count should last at least this long (wall seconds, every
/// thread fully used) for its time to be measured well.
pub const MIN_WALL_SECONDS: f64 = 3.0;

impl WorkSize {
    pub fn name(self) -> &'static str {
        match self {
            WorkSize::Quick => "quick",
            WorkSize::Standard => "standard",
            WorkSize::Large => "large",
        }
    }

    pub fn workloads(self) -> Vec<Workload> {
        match self {
            WorkSize::Quick => quick(),
            WorkSize::Standard => standard(),
            WorkSize::Large => large(),
        }
    }

    /// CPU seconds of the work on one core of the reference machine (a 2-core Intel Xeon, the
    /// project's own), measured with `queendom bench --work SIZE --max-threads 1`.
    pub fn reference_cpu_seconds(self) -> f64 {
        match self {
            WorkSize::Quick => REFERENCE_QUICK,
            WorkSize::Standard => REFERENCE_STANDARD,
            WorkSize::Large => REFERENCE_LARGE,
        }
    }

    /// The work for a machine whose highest thread count is `threads`: the standard work if it
    /// lasts at least [`MIN_WALL_SECONDS`] on that many threads, else the large work.
    pub fn for_threads(threads: usize) -> WorkSize {
        if REFERENCE_STANDARD / threads.max(1) as f64 >= MIN_WALL_SECONDS {
            WorkSize::Standard
        } else {
            WorkSize::Large
        }
    }
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
