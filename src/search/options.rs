//! How to run a search: the options, and the progress a search reports through them.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::trace::Trace;

use super::record::ClassSink;
use super::start::StartLayouts;

/// How far a search of parts has come, as its top-level parts (the first-queen parts of a board)
/// finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartsDone {
    pub done: usize,
    pub total: usize,
    /// Nodes expanded so far by the finished tasks of this search (tasks still running are not
    /// counted yet).
    pub nodes: u64,
}

/// Called as the top-level parts of a search finish.
pub type PartProgress = Arc<dyn Fn(PartsDone) + Send + Sync>;

/// What a search is doing, for whoever shows progress: the phases of `solve` and `count`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// The local search for a start layout (seconds on the largest boards, with no parts).
    LocalSearch,
    /// The proof: searching for a layout smaller than the start's `start_queens` (the bound drops
    /// with every smaller one found), about `estimated_nodes` nodes by Knuth's estimator with the
    /// start's bound (see [`SearchSpace::estimate_by_parts`](super::SearchSpace::estimate_by_parts)).
    Proving {
        start_queens: usize,
        estimated_nodes: f64,
    },
    /// Counting every layout of `queens` queens, the proven minimum.
    Counting { queens: usize },
}

/// Called as a search enters each phase.
pub type PhaseProgress = Arc<dyn Fn(Phase) + Send + Sync>;

/// How to run a search.
#[derive(Clone, Default)]
pub struct SearchOptions {
    /// Spread the work over the current rayon pool; otherwise run the sequential twin.
    pub parallel: bool,
    /// Set from outside (e.g. on Ctrl-C) to stop the search; it then returns `Cancelled`.
    pub cancel: Option<Arc<AtomicBool>>,
    pub progress: Option<PartProgress>,
    /// Told as the search enters each phase (see [`Phase`]).
    pub phase: Option<PhaseProgress>,
    /// Collect one record per task here (see the `trace` module).
    pub trace: Option<Arc<Trace>>,
    /// The traced task this search runs in (a table's board job), the parent of its first tasks;
    /// `None`: the search is a root of the trace.
    pub trace_parent: Option<u64>,
    /// Start layouts from elsewhere (`--start`): a board with one starts from it instead of the
    /// local search's layout.
    pub start: Option<Arc<StartLayouts>>,
    /// Counting with representatives: hand each class to this sink as it is found instead of
    /// returning them all (the count's `representatives` are then empty).
    pub class_sink: Option<Arc<dyn ClassSink>>,
}

impl SearchOptions {
    /// These options with `cancel` as the cancel flag (e.g. a deadline's, which the caller's
    /// own flag raises too).
    pub fn cancelled_by(&self, cancel: Arc<AtomicBool>) -> SearchOptions {
        SearchOptions {
            cancel: Some(cancel),
            ..self.clone()
        }
    }

    pub fn parallel() -> SearchOptions {
        SearchOptions {
            parallel: true,
            ..SearchOptions::default()
        }
    }

    pub fn sequential() -> SearchOptions {
        SearchOptions::default()
    }

    /// For a pool of `threads` threads: parallel when there are several. On one thread, splitting
    /// a part into tasks only costs: each task's root is searched without what its parent knew
    /// (its screening of the children, the largest coverage). γ(Q_14) cut into 223 parts took
    /// 532 640 nodes split and 449 316 not. (`bench` splits on one thread too: its work must be
    /// the same tree at every thread count.)
    pub fn for_threads(threads: usize) -> SearchOptions {
        SearchOptions {
            parallel: threads > 1,
            ..SearchOptions::default()
        }
    }
}
