//! Exact search for the queen domination number γ(N×M) and the independent domination number
//! i(N×M), each with one optimal layout.
//!
//! The search is a branch and bound over sets of queens. The tree is first cut by the first queen:
//! one part per symmetry class of squares, the part of class j placing a queen on its representative
//! and forbidding every square of the classes before it (any layout can be turned by a symmetry into
//! one that lands in exactly one part). Parts go to rayon workers, and large parts are split again a
//! few levels down so that all cores stay busy to the end. Workers share the best layout's size
//! through one atomic word (see the `shared` module).

mod bounds;
mod count;
mod heuristic;
mod kernel;
mod part;
mod shared;
mod space;
mod start;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use rayon::prelude::*;
use thiserror::Error;

use crate::board::{words_for, Board};
use crate::check::CheckError;
use crate::layout::Layout;
use crate::trace::{ChildSplit, Span, TaskIdentity, TaskKind, Trace};

use count::{Counter, Recorder};
use kernel::{Expansion, Searcher, MAX_CANDIDATES};
use shared::{Key, Shared, MAX_SPLIT_LEVELS};
use space::{Located, SpaceW};

pub use crate::problem::Problem;
pub use start::{StartError, StartLayouts};

pub use part::{
    Found, Goal, Incumbent, LayoutCount, PartOutcome, PartPath, PartPathError, PartResult, Rank,
};

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
    /// start's bound (see [`SearchSpace::estimate_by_parts`]).
    Proving {
        start_queens: usize,
        estimated_nodes: f64,
    },
    /// Counting every layout of `queens` queens, the proven minimum.
    Counting { queens: usize },
}

/// Called as a search enters each phase.
pub type PhaseProgress = Arc<dyn Fn(Phase) + Send + Sync>;

/// Random probes per first-queen part of the estimate a proof reports with [`Phase::Proving`]:
/// tens of milliseconds beside proofs of seconds or more, and only taken when someone listens.
const PROGRESS_PROBES: u32 = 32;

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
}

impl SearchOptions {
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

#[derive(Debug, Error)]
pub enum SearchError {
    #[error("search cancelled")]
    Cancelled,
    /// The independent checker refused a layout the search produced: a bug in the search.
    #[error("internal error: the search produced a layout that fails the independent check: {0}")]
    Check(#[from] CheckError),
    /// Two searches disagree: a bug in the search.
    #[error("internal error: {0}")]
    Inconsistent(String),
    #[error("part {0} is not a part of this search")]
    NoSuchPart(String),
}

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

/// A lower bound on γ(board) or i(board), proven without search: see `bounds::lower_bound` for
/// the argument. A start layout of this size is optimal as it stands.
pub fn lower_bound(board: Board, _problem: Problem) -> usize {
    // i(N×M) ≥ γ(N×M): an independent dominating layout is a dominating layout.
    bounds::lower_bound(board)
}

/// γ(board) or i(board), proven by exhaustive search, with the first optimal layout in the search's
/// fixed order (the same on any number of threads).
pub fn solve(
    board: Board,
    problem: Problem,
    options: &SearchOptions,
) -> Result<Solution, SearchError> {
    let space = SearchSpace::new(board, problem);
    // Alone, the start's restarts spread over the pool and the process's CPU is theirs; in a
    // board job other boards run beside it, so only its own thread's CPU is its.
    let beside_others = options.trace_parent.is_some();
    let span = options.trace.as_ref().map(|t| {
        if beside_others {
            t.begin()
        } else {
            t.begin_process()
        }
    });
    if let Some(phase) = &options.phase {
        phase(Phase::LocalSearch);
    }
    let start = space.start_layout(options)?;
    if let (Some(trace), Some(span)) = (&options.trace, span) {
        let identity = TaskIdentity {
            parent: options.trace_parent,
            kind: TaskKind::Start,
            board,
            path: Vec::new(),
        };
        if beside_others {
            trace.end(span, identity, None, 0);
        } else {
            trace.end_process(span, identity, 0);
        }
    }
    let goal = Goal::Improve(Incumbent::start(start.clone()));
    if let Some(phase) = &options.phase {
        // A start at the lower bound needs no search, and so no estimate.
        if start.len() > bounds::lower_bound(board) {
            let estimated_nodes = space.estimate_by_parts(&goal, PROGRESS_PROBES);
            phase(Phase::Proving {
                start_queens: start.len(),
                estimated_nodes,
            });
        }
    }
    let outcome = space.run(&PartPath::whole(), &goal, options)?;
    let layout = match outcome.result {
        PartResult::Improve(Some(found)) => found.layout,
        PartResult::Improve(None) => start,
        PartResult::Count(_) => unreachable!("an improving search gives no counts"),
    };
    problem.check(&layout, layout.len())?;
    Ok(Solution {
        problem,
        layout,
        nodes: outcome.nodes,
    })
}

/// The outcome of a bounded search.
#[derive(Debug, Clone)]
pub struct Bounded {
    /// The smallest layout with at most the given number of queens, if there is one.
    pub layout: Option<Layout>,
    pub nodes: u64,
}

/// Search for a layout of at most `max_queens` queens (the smallest such, or prove there is none).
/// With no layout to find, the tree searched and so the node count do not depend on timing.
pub fn search_at_most(
    board: Board,
    problem: Problem,
    max_queens: usize,
    options: &SearchOptions,
) -> Result<Bounded, SearchError> {
    let space = SearchSpace::new(board, problem);
    let goal = Goal::Improve(Incumbent::at_most(max_queens.min(kernel::MAX_QUEENS)));
    let outcome = space.run(&PartPath::whole(), &goal, options)?;
    let layout = match outcome.result {
        PartResult::Improve(found) => found.map(|f| f.layout),
        PartResult::Count(_) => unreachable!("an improving search gives no counts"),
    };
    if let Some(layout) = &layout {
        problem.check(layout, layout.len())?;
    }
    Ok(Bounded {
        layout,
        nodes: outcome.nodes,
    })
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
        out.push_str(&format!(
            "{}({board}) = {queens}\nlayouts: {}\nclasses: {} (under {})\n({} nodes, {seconds:.3} s, {})\n\n",
            problem.symbol(),
            self.layouts,
            self.classes,
            board.symmetry_group(),
            self.nodes,
            threads_text(threads),
        ));
        Ok(out)
    }
}

/// Count every minimum layout of `board` and their classes under the board's symmetries. The
/// counts are exact and do not depend on the threads; every representative is checked.
pub fn count(
    board: Board,
    problem: Problem,
    representatives: bool,
    options: &SearchOptions,
) -> Result<Counted, SearchError> {
    let solution = solve(board, problem, options)?;
    let queens = solution.queens();
    let space = SearchSpace::new(board, problem);
    let goal = Goal::Count {
        queens,
        representatives,
    };
    if let Some(phase) = &options.phase {
        phase(Phase::Counting { queens });
    }
    let outcome = space.run(&PartPath::whole(), &goal, options)?;
    let PartResult::Count(counted) = outcome.result else {
        unreachable!("a count gives counts")
    };
    if let Some(smaller) = counted.smaller {
        // The proof said otherwise: one of the two searches is wrong.
        return Err(SearchError::Inconsistent(format!(
            "the count found a layout of {} queens ({}) below the proven minimum {queens}",
            smaller.len(),
            smaller.to_squares_string()
        )));
    }
    if counted.layouts == 0 {
        return Err(SearchError::Inconsistent(format!(
            "the count found no layout of the proven minimum {queens}"
        )));
    }
    for (layout, _) in &counted.representatives {
        problem.check(layout, queens)?;
    }
    Ok(Counted {
        problem,
        queens,
        layout: solution.layout,
        layouts: counted.layouts,
        classes: counted.classes,
        symmetries: board.symmetries().len(),
        representatives: counted.representatives,
        nodes: solution.nodes + outcome.nodes,
    })
}

/// The search space of one board and problem: its parts, and the one way to search a part.
pub struct SearchSpace {
    problem: Problem,
    inner: Widths,
}

/// The space at the bitboard width the board needs.
enum Widths {
    W1(Box<SpaceW<1>>),
    W2(Box<SpaceW<2>>),
    W4(Box<SpaceW<4>>),
    W8(Box<SpaceW<8>>),
    W16(Box<SpaceW<16>>),
}

/// Run `$body` with `$s` bound to the space at its width (a `SpaceW<W>` with `W` in scope).
macro_rules! with_space {
    ($self:expr, $s:ident => $body:expr) => {
        match &$self.inner {
            Widths::W1($s) => $body,
            Widths::W2($s) => $body,
            Widths::W4($s) => $body,
            Widths::W8($s) => $body,
            Widths::W16($s) => $body,
        }
    };
}

impl fmt::Debug for SearchSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SearchSpace({} of {})", self.problem, self.board())
    }
}

impl SearchSpace {
    pub fn new(board: Board, problem: Problem) -> SearchSpace {
        let inner = match words_for(board) {
            1 => Widths::W1(Box::new(SpaceW::new(board, problem))),
            2 => Widths::W2(Box::new(SpaceW::new(board, problem))),
            4 => Widths::W4(Box::new(SpaceW::new(board, problem))),
            8 => Widths::W8(Box::new(SpaceW::new(board, problem))),
            _ => Widths::W16(Box::new(SpaceW::new(board, problem))),
        };
        SearchSpace { problem, inner }
    }

    pub fn board(&self) -> Board {
        with_space!(self, s => s.board())
    }

    pub fn problem(&self) -> Problem {
        self.problem
    }

    /// The layout a search starts from: the one `options.start` holds for the board, or greedy,
    /// then a local search for smaller ones.
    /// Deterministic; with `options.parallel`, restarts run side by side with the same outcome.
    /// The local search watches `options.cancel` (it runs for seconds on the largest boards).
    pub fn start_layout(&self, options: &SearchOptions) -> Result<Layout, SearchError> {
        let given = options.start.as_ref();
        if let Some(layout) = given.and_then(|s| s.for_board(self.board(), self.problem)) {
            // Checked when it was given; checked again, as every layout the search relies on.
            self.problem.check(&layout, layout.len())?;
            return Ok(layout);
        }
        let cancel = options.cancel.as_deref();
        let queens = with_space!(self, s => {
            let start = heuristic::greedy(&s.geo, s.problem);
            let floor = bounds::lower_bound(s.board());
            heuristic::shrink(&s.geo, start, options.parallel, floor, s.problem, cancel)
        });
        queens
            .map(|q| self.layout(&q))
            .ok_or(SearchError::Cancelled)
    }

    /// The parts one level below `part`, in search order, or `None` if `part` names no part of
    /// this tree. A part that cannot be cut further (its first uncovered square has no candidate,
    /// every square is covered, or the search order has no room for another level) has none.
    pub fn children(&self, part: &PartPath) -> Option<Vec<PartPath>> {
        with_space!(self, s => {
            let at = s.locate(part.indices())?;
            if part.depth() >= space::MAX_PATH_LEN {
                return Some(Vec::new());
            }
            Some(s.children(&at).into_iter().map(|(i, _)| part.child(i)).collect())
        })
    }

    /// The queens a part places before its search starts, or `None` for a path of no part.
    pub fn part_queens(&self, part: &PartPath) -> Option<Layout> {
        let queens = with_space!(self, s => s.locate(part.indices())?.queens);
        Some(self.layout(&queens))
    }

    /// Whether a layout of `rank` can come from the search of `part` (its rank lies in the part's
    /// subtree). False for a path of no part.
    pub fn part_holds_rank(&self, part: &PartPath, rank: Rank) -> bool {
        with_space!(self, s => match s.locate(part.indices()) {
            Some(at) => shared::holds(at.order_path, at.depth, rank.value()),
            None => false,
        })
    }

    /// Whether the bounds at the top of `part` already show it holds nothing for `goal` (so a
    /// plan may leave it out). `None` for a path of no part.
    pub fn is_hopeless(&self, part: &PartPath, goal: &Goal) -> Option<bool> {
        with_space!(self, s => {
            let at = s.locate(part.indices())?;
            let shared = shared_for(s, goal);
            let mut searcher = Searcher::new(&s.geo, &shared, None, s.problem, at.order_path);
            searcher.enter(&at.queens, &at.node);
            let mut cands = [0u16; MAX_CANDIDATES];
            Some(matches!(searcher.expand(&at.node, &mut cands, 0), Expansion::Pruned))
        })
    }

    /// An estimate of the nodes the search of `part` expands for `goal` (Knuth's random probes:
    /// the mean, over `probes` random paths from the part down to a leaf, of the sum of the
    /// products of the branching factors met; unbiased, with a fixed seed). Cheap beside the
    /// search for parts of more than a few thousand nodes. `None` for a path of no part.
    pub fn estimate(&self, part: &PartPath, goal: &Goal, probes: u32, seed: u64) -> Option<f64> {
        with_space!(self, s => {
            let at = s.locate(part.indices())?;
            let shared = shared_for(s, goal);
            Some(estimate::<_>(s, &shared, &at, probes, seed))
        })
    }

    /// An estimate of the nodes the whole search expands for `goal`: the sum of the estimates of
    /// its first-queen parts, `probes` probes each. The parts differ by orders of magnitude and
    /// a probe from the root lands in one of them, so the estimates from the root alone scatter
    /// far more (most of them short) for the same number of probes.
    pub fn estimate_by_parts(&self, goal: &Goal, probes: u32) -> f64 {
        let whole = PartPath::whole();
        let parts = self.children(&whole).unwrap_or_default();
        if parts.is_empty() {
            return self.estimate(&whole, goal, probes, 0).unwrap_or(0.0);
        }
        parts
            .iter()
            .enumerate()
            .filter_map(|(k, part)| self.estimate(part, goal, probes, k as u64))
            .sum()
    }

    /// Search `part` for `goal`: the one entry point that `solve`, `count` and the distributed
    /// commands share. Pure: no I/O; the result depends only on the part, the goal and (for
    /// `Improve`) nothing else, whatever the threads.
    pub fn run(
        &self,
        part: &PartPath,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<PartOutcome, SearchError> {
        with_space!(self, s => self.run_in(s, part, goal, options))
    }

    fn run_in<const W: usize>(
        &self,
        space: &SpaceW<W>,
        part: &PartPath,
        goal: &Goal,
        options: &SearchOptions,
    ) -> Result<PartOutcome, SearchError> {
        let at = space
            .locate(part.indices())
            .ok_or_else(|| SearchError::NoSuchPart(part.to_string()))?;
        if let Goal::Improve(incumbent) = goal {
            // Nothing can beat a layout at the proven lower bound that ranks first (the start
            // layout): no search needed. This settles most thin boards outright.
            let floor = bounds::lower_bound(space.board());
            if incumbent.queens < floor
                || (incumbent.queens == floor && incumbent.rank == Rank::START)
            {
                return Ok(PartOutcome {
                    result: PartResult::Improve(None),
                    nodes: 0,
                });
            }
        }
        let mut shared = shared_for(space, goal);
        shared.set_cancel(options.cancel.clone());
        let (target, representatives) = match goal {
            Goal::Count {
                queens,
                representatives,
            } => (Some(*queens), *representatives),
            Goal::Improve(_) => (None, false),
        };
        let counter = target.map(|t| Counter::new(space, t, representatives));
        let run = Run {
            space,
            shared: &shared,
            recorder: counter.as_ref().map(|c| c as &dyn Recorder),
            parallel: options.parallel,
            split_below: (at.depth.max(1) - 1 + SPLIT_LEVELS).min(MAX_SPLIT_LEVELS),
            nodes: AtomicU64::new(0),
            progress: options.progress.clone(),
            trace: options.trace.as_deref(),
        };
        run.part(at, true, options.trace_parent);
        if shared.stopped() {
            return Err(SearchError::Cancelled);
        }
        let nodes = run.nodes.load(Relaxed);
        let result = match (goal, counter) {
            (Goal::Improve(incumbent), _) => {
                let (key, best) = shared.best();
                let found = best
                    .filter(|_| incumbent.is_beaten_by(key.size(), Rank(key.path())))
                    .map(|queens| Found {
                        layout: self.layout(&queens),
                        rank: Rank(key.path()),
                    });
                PartResult::Improve(found)
            }
            (Goal::Count { .. }, Some(counter)) => {
                let mut tally = counter.into_total();
                // The threads add their classes in any order: sort them, so that every count
                // (and every part of a plan) lists them in one order.
                tally.representatives.sort_unstable();
                PartResult::Count(LayoutCount {
                    layouts: tally.layouts,
                    classes: tally.classes,
                    representatives: tally
                        .representatives
                        .iter()
                        .map(|(q, n)| (self.layout(q), *n as usize))
                        .collect(),
                    smaller: tally.smaller.as_deref().map(|q| self.layout(q)),
                })
            }
            (Goal::Count { .. }, None) => unreachable!("counting has a counter"),
        };
        Ok(PartOutcome { result, nodes })
    }

    fn layout(&self, queens: &[u16]) -> Layout {
        let board = self.board();
        Layout::new(
            board,
            queens.iter().map(|&q| board.square(q as usize)).collect(),
        )
    }
}

/// The shared state a goal starts from: the incumbent's key, or, when counting, a key one above the
/// size counted that no layout ever replaces (nothing is offered), so every part searches to it.
fn shared_for<const W: usize>(space: &SpaceW<W>, goal: &Goal) -> Shared {
    let board = space.board();
    match goal {
        Goal::Improve(incumbent) => {
            let queens = incumbent.layout.as_ref().map(|l| {
                l.queens()
                    .iter()
                    .map(|&q| board.index(q) as u16)
                    .collect::<Vec<u16>>()
            });
            Shared::new(
                Key::new(
                    incumbent.queens.min(kernel::MAX_QUEENS + 1),
                    incumbent.rank.0,
                ),
                queens,
                None,
            )
        }
        Goal::Count { queens, .. } => Shared::new(
            Key::new((*queens).min(kernel::MAX_QUEENS) + 1, 0),
            None,
            None,
        ),
    }
}

/// Knuth's estimator of the size of the tree below `at`.
fn estimate<const W: usize>(
    space: &SpaceW<W>,
    shared: &Shared,
    at: &Located<W>,
    probes: u32,
    seed: u64,
) -> f64 {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut total = 0.0;
    let mut cands = [0u16; MAX_CANDIDATES];
    for _ in 0..probes.max(1) {
        let mut here = at.clone();
        let mut weight = 1.0;
        loop {
            total += weight;
            // The structural cuts first (root parts, second-queen parts), then the branching.
            let children: Vec<Located<W>> = if space.is_structural(&here) {
                space.children(&here).into_iter().map(|(_, c)| c).collect()
            } else {
                let mut s = Searcher::new(&space.geo, shared, None, space.problem, here.order_path);
                s.enter(&here.queens, &here.node);
                match s.expand(&here.node, &mut cands, 0) {
                    Expansion::Branch(n) => {
                        let uncovered = space.geo.full.minus(&here.node.covered);
                        let need = uncovered.count() as usize;
                        let child_remaining = s.limit().saturating_sub(s.depth + 1);
                        let mut kids = Vec::with_capacity(n);
                        let limit = s.limit();
                        for i in 0..n {
                            // As the search screens its children: the rules, then the bounds.
                            if !s.child_breaks_rules(cands[i] as usize, limit)
                                && !s.child_is_hopeless(
                                    &uncovered,
                                    need,
                                    cands[i] as usize,
                                    child_remaining,
                                )
                            {
                                kids.push(space.branch_child(&here, &cands, i));
                            }
                        }
                        kids
                    }
                    _ => break,
                }
            };
            if children.is_empty() {
                break;
            }
            weight *= children.len() as f64;
            let pick = (next() % children.len() as u64) as usize;
            here = children.into_iter().nth(pick).expect("picked a child");
        }
    }
    total / probes.max(1) as f64
}

/// Below this many queens still to place, a part is searched by one worker without splitting.
const SPLIT_MIN_REMAINING: usize = 3;
/// A part run in parallel is split at most this many levels below its own.
const SPLIT_LEVELS: usize = 3;

/// One search of one part, on the current rayon pool or sequentially.
struct Run<'a, const W: usize> {
    space: &'a SpaceW<W>,
    shared: &'a Shared,
    recorder: Option<&'a dyn Recorder>,
    parallel: bool,
    /// Levels of the search order below which parts are no longer split across workers.
    split_below: usize,
    nodes: AtomicU64,
    progress: Option<PartProgress>,
    trace: Option<&'a Trace>,
}

impl<const W: usize> Run<'_, W> {
    /// Search the part at `at`. The structural cuts (the root parts, a root part's second-queen
    /// parts) are always taken, on the pool or in order; below them [`Run::task`] splits only to
    /// keep workers busy. With `top`, progress is reported as the part's children finish.
    fn part(&self, at: Located<W>, top: bool, parent: Option<u64>) {
        // The parts are known before any is done: say so at once rather than at the first.
        let report = |done, total| {
            if let (true, Some(progress)) = (top, &self.progress) {
                progress(PartsDone {
                    done,
                    total,
                    nodes: self.nodes.load(Relaxed),
                });
            }
        };
        if !self.space.is_structural(&at) {
            report(0, 1);
            self.task(at, parent);
            report(1, 1);
            return;
        }
        let span = self.trace.map(Trace::begin);
        let children = self.space.children(&at);
        let id = self.end_task(span, &at, parent, 0, true);
        let total = children.len();
        report(0, total);
        let done = AtomicUsize::new(0);
        let each = |(_, child): (usize, Located<W>)| {
            if self.shared.should_stop() {
                return;
            }
            self.part(child, false, id);
            report(done.fetch_add(1, Relaxed) + 1, total);
        };
        if self.parallel {
            children.into_par_iter().for_each(each);
        } else {
            children.into_iter().for_each(each);
        }
    }

    /// Keep the record of a traced task whose own work is done; its id, for its children.
    fn end_task(
        &self,
        span: Option<Span>,
        at: &Located<W>,
        parent: Option<u64>,
        nodes: u64,
        split: bool,
    ) -> Option<u64> {
        let (trace, span) = (self.trace?, span?);
        let id = span.id;
        let identity = TaskIdentity {
            parent,
            kind: TaskKind::Search(self.space.problem),
            board: self.space.board(),
            path: shared::path_indices(at.order_path, at.depth),
        };
        let children = if self.parallel {
            ChildSplit::Adaptive
        } else {
            ChildSplit::InOrder
        };
        trace.end(span, identity, split.then_some(children), nodes);
        Some(id)
    }

    fn task(&self, at: Located<W>, parent: Option<u64>) {
        let span = self.trace.map(Trace::begin);
        let space = self.space;
        let mut s = Searcher::new(
            &space.geo,
            self.shared,
            self.recorder,
            space.problem,
            at.order_path,
        );
        s.enter(&at.queens, &at.node);
        let level = at.depth - 1;
        let split = self.parallel
            && level < self.split_below
            && s.limit().saturating_sub(s.depth) >= SPLIT_MIN_REMAINING;
        if !split {
            s.search(at.node, 0, usize::MAX, 0);
            let nodes = s.nodes;
            self.nodes.fetch_add(nodes, Relaxed);
            self.end_task(span, &at, parent, nodes, false);
            return;
        }
        let mut cands = [0u16; MAX_CANDIDATES];
        let expansion = s.expand(&at.node, &mut cands, 0);
        let nodes = s.nodes;
        self.nodes.fetch_add(nodes, Relaxed);
        match expansion {
            Expansion::Layout => {
                s.record_layout();
                self.end_task(span, &at, parent, nodes, false);
            }
            Expansion::Pruned => {
                self.end_task(span, &at, parent, nodes, false);
            }
            Expansion::Branch(n) => {
                // Screened with the line bound as the sequential search screens them; a hopeless
                // child is still forbidden for its later siblings (`branch_child` does that).
                let uncovered = space.geo.full.minus(&at.node.covered);
                let need = uncovered.count() as usize;
                let child_remaining = s.limit().saturating_sub(s.depth + 1);
                let mut children: Vec<Located<W>> = Vec::with_capacity(n);
                for i in 0..n {
                    if !s.child_is_hopeless(&uncovered, need, cands[i] as usize, child_remaining) {
                        children.push(space.branch_child(&at, &cands, i));
                    }
                }
                // Hand the buffers back before the children take their own.
                drop(s);
                let id = self.end_task(span, &at, parent, nodes, true);
                children.into_par_iter().for_each(|child| {
                    if !self.shared.should_stop() {
                        self.task(child, id);
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gamma(r: usize, c: usize) -> usize {
        solve(
            Board::new(r, c).unwrap(),
            Problem::Domination,
            &SearchOptions::sequential(),
        )
        .unwrap()
        .queens()
    }

    #[test]
    fn small_known_values() {
        assert_eq!(gamma(1, 1), 1);
        assert_eq!(gamma(4, 4), 2);
        assert_eq!(gamma(3, 5), 2);
        assert_eq!(gamma(8, 8), 5);
    }
}
