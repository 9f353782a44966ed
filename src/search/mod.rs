//! Exact search for the queen domination number γ(N×M) and the independent domination number
//! i(N×M), each with one optimal layout.
//!
//! The search is a branch and bound over sets of queens. The tree is first cut by the first queen:
//! one part per symmetry class of squares, the part of class j placing a queen on its representative
//! and forbidding every square of the classes before it (any layout can be turned by a symmetry into
//! one that lands in exactly one part). Parts go to rayon workers, and large parts are split again a
//! few levels down so that all cores stay busy to the end. Workers share the best layout's size
//! through one atomic word (see the `shared` module).
//!
//! The files of this folder are layers, each using only files below it (docs/architecture.md
//! draws them): at the bottom `lines` (line counts and bit tricks), `shared` (the bound the
//! workers share), `record` (where counted layouts go), `part`, `start`, `error` and `results`;
//! then `bounds` and `options`; the `kernel`; `heuristic` and `space`; `count` and `estimate`;
//! the parallel `driver`; and this file, the public API over them.

mod bounds;
mod count;
mod deadline;
mod driver;
mod error;
mod estimate;
mod heuristic;
mod kernel;
mod lines;
mod options;
mod part;
mod plain;
mod record;
mod results;
mod shared;
mod space;
mod start;

use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use crate::board::{words_for, Board};
use crate::layout::Layout;
use crate::trace::{TaskIdentity, TaskKind};

pub(crate) use deadline::Deadline;
use heuristic::Effort;
use kernel::{Expansion, Searcher};
use lines::MAX_CANDIDATES;
use space::{indices_of, layout_of, SpaceW};

pub use crate::problem::Problem;
pub use error::SearchError;
pub use options::{PartProgress, PartsDone, Phase, PhaseProgress, SearchOptions};
pub use plain::PlainOutcome;
pub use record::ClassSink;
pub use results::{threads_text, Bounded, CountReportError, Counted, Solution};
pub use start::{StartError, StartLayouts};

pub use part::{
    Found, Goal, Incumbent, LayoutCount, PartOutcome, PartPath, PartPathError, PartResult, Rank,
};

/// Random probes per first-queen part of the estimate a proof reports with [`Phase::Proving`]:
/// tens of milliseconds beside proofs of seconds or more, and only taken when someone listens.
const PROGRESS_PROBES: u32 = 32;

/// A lower bound on γ(board) or i(board), proven without search: see `bounds::lower_bound` for
/// the argument. A start layout of this size is optimal as it stands.
pub fn lower_bound(board: Board, _problem: Problem) -> usize {
    // i(N×M) ≥ γ(N×M): an independent dominating layout is a dominating layout.
    bounds::lower_bound(board)
}

/// A lower bound on γ(board) or i(board) from the theorems the tables with bounds cite: the proven
/// [`lower_bound`], and on square boards γ(Q_n) ≥ ⌈n/2⌉ (n ≠ 3, 11; Finozhenok and Weakley,
/// 2007). The exhaustive search does not rely on the cited part.
pub fn cited_lower_bound(board: Board, _problem: Problem) -> usize {
    bounds::cited_lower_bound(board)
}

/// What a search within a time budget established about one board ([`bracket`]): a lower bound
/// and a layout, the upper bound. The number is the optimum when they meet.
#[derive(Debug, Clone, PartialEq)]
pub struct Bracket {
    /// Proven: by the theorems of [`cited_lower_bound`], or by exhaustive searches that found no
    /// layout of any smaller size.
    pub lower: usize,
    /// The smallest layout found, checked.
    pub layout: Layout,
    /// Nodes of the exhaustive searches that finished (a search cut short by the budget is not
    /// counted).
    pub nodes: u64,
}

impl Bracket {
    pub fn upper(&self) -> usize {
        self.layout.len()
    }

    pub fn is_proven(&self) -> bool {
        self.lower >= self.upper()
    }
}

/// γ(board) or i(board) as far as `budget` of wall time takes it: bounds that meet (a proof), or
/// a lower bound and a layout that do not meet yet. Never hangs on a hard board.
///
/// It starts from what is `known` (an earlier run's bounds, checked by the caller) and the cited
/// lower bound. The first time, it runs the local search for at most half the budget (its best
/// layout so far is kept when the time is up), then proves the sizes from the lower bound up, one
/// exhaustive search each: a size with no layout raises the lower bound by one; a layout found is
/// optimal, since every smaller size failed. From known bounds it proves first (for the whole
/// budget one queen apart, else for half) and then searches locally from the known layout. So the bounds only tighten, run after run. With the budget the
/// layout can depend on timing; the bounds are proven either way. A raised cancel flag (Ctrl-C)
/// gives `Cancelled`; the time running out does not.
pub fn bracket(
    board: Board,
    problem: Problem,
    known: Option<&Bracket>,
    budget: Duration,
    options: &SearchOptions,
) -> Result<Bracket, SearchError> {
    bracket_with(board, problem, known, budget, options, &mut InMemory)
}

/// How a [`bracket`] proves: raise `lower` or shrink `layout` (with a checked layout) until they
/// meet or `options.cancel` is raised, and return the nodes of the searches that finished. A
/// prover that stops at the cancel flag leaves what it established in `lower` and `layout`.
pub trait Prover {
    type Error: From<SearchError>;
    fn prove(
        &mut self,
        space: &SearchSpace,
        lower: &mut usize,
        layout: &mut Layout,
        options: &SearchOptions,
    ) -> Result<u64, Self::Error>;
}

/// The prover of [`bracket`]: exhaustive searches in memory, one per size from `lower` up, so a
/// budget cut short loses the size in progress.
pub struct InMemory;

impl Prover for InMemory {
    type Error = SearchError;
    fn prove(
        &mut self,
        space: &SearchSpace,
        lower: &mut usize,
        layout: &mut Layout,
        options: &SearchOptions,
    ) -> Result<u64, SearchError> {
        prove_upward(space, lower, layout, options, 0).map(|(nodes, _)| nodes)
    }
}

/// [`bracket`] with the proofs made by `prover` (e.g. one that keeps its finished parts on disk,
/// so that the next run goes on where this one stopped).
pub fn bracket_with<P: Prover>(
    board: Board,
    problem: Problem,
    known: Option<&Bracket>,
    budget: Duration,
    options: &SearchOptions,
    prover: &mut P,
) -> Result<Bracket, P::Error> {
    let deadline = Deadline::start(budget, options.cancel.clone());
    let cancelled = |d: &Deadline| d.cancelled_from_outside() && !d.passed();
    let space = SearchSpace::new(board, problem);
    let mut lower = bounds::cited_lower_bound(board);
    if let Some(known) = known {
        problem
            .check(&known.layout, known.layout.len())
            .map_err(SearchError::from)?;
        lower = lower.max(known.lower);
    }
    let mut nodes = 0;
    let layout = match known {
        // A board seen for the first time: the fixed rounds of the local search, which end in
        // well under a second on most boards, for at most half the budget; the rest proves.
        None => {
            let local = Deadline::start(budget / 2, Some(deadline.flag()));
            let effort = Effort::Fixed { keep_best: true };
            let mut layout =
                space.local_search(&options.cancelled_by(local.flag()), effort, None, lower)?;
            if cancelled(&deadline) {
                return Err(SearchError::Cancelled.into());
            }
            let within = options.cancelled_by(deadline.flag());
            nodes += prover.prove(&space, &mut lower, &mut layout, &within)?;
            layout
        }
        // A board seen before (a row of bounds from an earlier run), whose proof did not finish
        // then. The proof goes first: one queen apart it settles the board either way (a layout
        // of `lower` queens, or none), so it gets the whole budget; further apart, half. Then the
        // layout is what can still improve, and the local search goes on from it until the
        // time is up, with seeds of its own for each layout it starts from, so that it goes on
        // where the last run stopped instead of repeating it.
        Some(known) => {
            let mut layout = known.layout.clone();
            let half = Deadline::start(budget / 2, Some(deadline.flag()));
            let first = if layout.len() <= lower + 1 {
                deadline.flag()
            } else {
                half.flag()
            };
            nodes += prover.prove(
                &space,
                &mut lower,
                &mut layout,
                &options.cancelled_by(first),
            )?;
            if cancelled(&deadline) {
                return Err(SearchError::Cancelled.into());
            }
            if layout.len() > lower && !deadline.passed() {
                let mut salt = DefaultHasher::new();
                layout.queens().hash(&mut salt);
                let effort = Effort::UntilCancelled {
                    salt: salt.finish(),
                };
                let within = options.cancelled_by(deadline.flag());
                let found = space.local_search(&within, effort, Some(&layout), lower)?;
                if found.len() < layout.len() {
                    layout = found;
                }
            }
            layout
        }
    };
    if cancelled(&deadline) {
        return Err(SearchError::Cancelled.into());
    }
    problem
        .check(&layout, layout.len())
        .map_err(SearchError::from)?;
    Ok(Bracket {
        lower,
        layout,
        nodes,
    })
}

/// Exhaustive searches of the sizes from `lower` up, until the bounds are at most `apart` queens
/// apart or `options.cancel` is raised: a size with no layout raises `lower`, a layout found
/// replaces `layout`. The nodes of the searches that finished, and whether the bounds got there.
pub fn prove_upward(
    space: &SearchSpace,
    lower: &mut usize,
    layout: &mut Layout,
    options: &SearchOptions,
    apart: usize,
) -> Result<(u64, bool), SearchError> {
    let mut nodes = 0;
    while *lower + apart < layout.len() {
        match prove_next_size(space, lower, layout, options)? {
            Some(n) => nodes += n,
            None => return Ok((nodes, false)),
        }
    }
    Ok((nodes, true))
}

/// One exhaustive search for a layout of at most `lower` queens, `lower` being below `layout`'s
/// size: none raises `lower` by one, one found (checked) replaces `layout`. Its nodes, or `None`
/// if `options.cancel` stopped it (the bounds are then as they were).
fn prove_next_size(
    space: &SearchSpace,
    lower: &mut usize,
    layout: &mut Layout,
    options: &SearchOptions,
) -> Result<Option<u64>, SearchError> {
    let (board, problem) = (space.board(), space.problem());
    debug_assert!(*lower < layout.len());
    let goal = Goal::Improve(Incumbent::at_most((*lower).min(kernel::MAX_QUEENS)));
    let outcome = match space.run(&PartPath::whole(), &goal, options) {
        Ok(outcome) => outcome,
        Err(SearchError::Cancelled) => return Ok(None),
        Err(e) => return Err(e),
    };
    match outcome.result {
        PartResult::Improve(Some(found)) => {
            let found = found.layout;
            problem.check(&found, found.len())?;
            if found.len() < *lower {
                return Err(SearchError::Inconsistent(format!(
                    "a layout of {} queens ({}) on {board} below the lower bound {lower}",
                    found.len(),
                    found.to_squares_string()
                )));
            }
            *layout = found;
        }
        PartResult::Improve(None) => *lower += 1,
        PartResult::Count(_) => unreachable!("an improving search gives no counts"),
    }
    Ok(Some(outcome.nodes))
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
        self.local_search(options, Effort::Fixed { keep_best: false }, None, 0)
    }

    /// The start layout: with fixed rounds the one `options.start` holds for the board, or
    /// greedy then local search; with [`Effort::UntilCancelled`], local search from the smallest of
    /// that start, `from` and greedy, until the cancel flag is raised (then the best so far), never
    /// looking below `floor`.
    fn local_search(
        &self,
        options: &SearchOptions,
        effort: Effort,
        from: Option<&Layout>,
        floor: usize,
    ) -> Result<Layout, SearchError> {
        let given = options.start.as_ref();
        let given = given.and_then(|s| s.for_board(self.board(), self.problem));
        if let Some(layout) = &given {
            // Checked when it was given; checked again, as every layout the search relies on.
            self.problem.check(layout, layout.len())?;
            if matches!(effort, Effort::Fixed { .. }) {
                return Ok(given.expect("just matched"));
            }
        }
        let from = [given.as_ref(), from]
            .into_iter()
            .flatten()
            .min_by_key(|l| l.len());
        let cancel = options.cancel.as_deref();
        let queens = with_space!(self, s => {
            let greedy = heuristic::greedy(&s.geo, s.problem);
            let start = match from {
                Some(layout) if layout.len() <= greedy.len() => indices_of(s.board(), layout),
                _ => greedy,
            };
            let floor = floor.max(bounds::lower_bound(s.board()));
            heuristic::shrink(
                &s.geo,
                start,
                options.parallel,
                floor,
                s.problem,
                cancel,
                effort,
            )
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
            let shared = driver::shared_for(s, goal);
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
            let shared = driver::shared_for(s, goal);
            Some(estimate::estimate(s, &shared, &at, probes, seed))
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
        with_space!(self, s => driver::run_part(s, part, goal, options))
    }

    /// The plain search of `part` (see [`PlainOutcome`]): placements, the cover check and the
    /// queen budget only, none of the kernel's bounds and rules, for an audit that a wrong rule
    /// cannot pass: the fewest queens of a layout of the part within `max_queens`, in at most
    /// `budget` nodes; `options.cancel` stops it (the outcome is then incomplete). Sequential.
    /// `None` for a path of no part.
    pub fn run_plain(
        &self,
        part: &PartPath,
        max_queens: usize,
        budget: u64,
        options: &SearchOptions,
    ) -> Option<PlainOutcome> {
        let cancel = options.cancel.as_deref();
        let independent = self.problem.forbids_attacks();
        with_space!(self, s => {
            let at = s.locate(part.indices())?;
            Some(plain::search(&s.geo, independent, &at, max_queens, budget, cancel))
        })
    }

    fn layout(&self, queens: &[u16]) -> Layout {
        layout_of(self.board(), queens)
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

    /// Every part two levels down of small boards, searched by the kernel and by the plain
    /// search: the same smallest layout within the minimum less one (none) and within the
    /// minimum, part by part (a rule that cut a part's only minimum layouts would show here).
    #[test]
    fn the_plain_search_agrees_with_the_kernel_part_by_part() {
        for (rows, cols, problem) in [
            (6, 6, Problem::Domination),
            (7, 7, Problem::Domination),
            (8, 8, Problem::Domination),
            (6, 9, Problem::Domination),
            (10, 10, Problem::Domination),
            (11, 11, Problem::Domination),
            (12, 12, Problem::Domination),
            (9, 12, Problem::Domination),
            (7, 7, Problem::IndependentDomination),
            (10, 10, Problem::IndependentDomination),
            (8, 8, Problem::IndependentDomination),
            (6, 9, Problem::IndependentDomination),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let space = SearchSpace::new(board, problem);
            let options = SearchOptions::sequential();
            let least = solve(board, problem, &options).unwrap().queens();
            let mut parts = Vec::new();
            for root in space.children(&PartPath::whole()).unwrap() {
                match space.children(&root).unwrap() {
                    children if children.is_empty() => parts.push(root),
                    children => parts.extend(children),
                }
            }
            let mut holding = 0;
            for part in &parts {
                let kernel = |max: usize| match space
                    .run(part, &Goal::Improve(Incumbent::at_most(max)), &options)
                    .unwrap()
                    .result
                {
                    PartResult::Improve(found) => found.map(|f| f.layout.len()),
                    PartResult::Count(_) => unreachable!(),
                };
                let below = space
                    .run_plain(part, least - 1, u64::MAX, &options)
                    .unwrap();
                assert!(below.complete);
                assert_eq!(below.smallest, None, "{problem} of {board}, part {part}");
                assert_eq!(kernel(least - 1), None, "{problem} of {board}, part {part}");
                let at = space.run_plain(part, least, u64::MAX, &options).unwrap();
                assert_eq!(
                    at.smallest,
                    kernel(least),
                    "{problem} of {board}, part {part}"
                );
                holding += at.smallest.is_some() as usize;
            }
            assert!(holding > 0, "{problem} of {board}: no part holds a layout");
        }
    }

    #[test]
    fn the_plain_search_says_when_its_budget_ran_out() {
        let board = Board::new(8, 8).unwrap();
        let space = SearchSpace::new(board, Problem::Domination);
        let options = SearchOptions::sequential();
        let part = &space.children(&PartPath::whole()).unwrap()[0];
        let short = space.run_plain(part, 4, 100, &options).unwrap();
        assert!(!short.complete);
        assert_eq!(short.nodes, 100);
        let whole = space.run_plain(part, 4, u64::MAX, &options).unwrap();
        assert!(whole.complete && whole.nodes > 100 && whole.smallest.is_none());
    }

    #[test]
    fn small_known_values() {
        assert_eq!(gamma(1, 1), 1);
        assert_eq!(gamma(4, 4), 2);
        assert_eq!(gamma(3, 5), 2);
        assert_eq!(gamma(8, 8), 5);
    }
}
