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
mod heuristic;
mod kernel;
mod shared;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use rayon::prelude::*;
use thiserror::Error;

use crate::board::{words_for, Bits, Board, Geometry, Layout, Symmetry};
use crate::check::{check_dominating, check_independent_dominating, CheckError};

use kernel::{Expansion, Node, Searcher, MAX_CANDIDATES};
use shared::{child_path, root_path, Key, Shared, MAX_ROOT_PARTS, MAX_SPLIT_LEVELS};

/// Which number to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// γ: fewest queens covering every square.
    Domination,
    /// i: fewest queens covering every square, no two attacking each other.
    IndependentDomination,
}

impl Problem {
    /// Short name used in files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Problem::Domination => "domination",
            Problem::IndependentDomination => "independent-domination",
        }
    }

    /// Run the independent checker for this problem on `layout`, claimed to have `size` queens.
    pub fn check(self, layout: &Layout, size: usize) -> Result<(), CheckError> {
        match self {
            Problem::Domination => check_dominating(layout, size),
            Problem::IndependentDomination => check_independent_dominating(layout, size),
        }
    }

    fn independent(self) -> bool {
        self == Problem::IndependentDomination
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Called with (parts finished, parts in all) as the first-queen parts of a board finish.
pub type PartProgress = Arc<dyn Fn(usize, usize) + Send + Sync>;

/// How to run a search.
#[derive(Clone, Default)]
pub struct SearchOptions {
    /// Spread the work over the current rayon pool; otherwise run the sequential twin.
    pub parallel: bool,
    /// Set from outside (e.g. on Ctrl-C) to stop the search; it then returns `Cancelled`.
    pub cancel: Option<Arc<AtomicBool>>,
    pub progress: Option<PartProgress>,
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
}

#[derive(Debug, Error)]
pub enum SearchError {
    #[error("search cancelled")]
    Cancelled,
    /// The independent checker refused a layout the search produced: a bug in the search.
    #[error("internal error: the search produced a layout that fails the independent check: {0}")]
    Check(#[from] CheckError),
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
}

/// γ(board) or i(board), proven by exhaustive search, with the first optimal layout in the search's
/// fixed order (the same on any number of threads).
pub fn solve(
    board: Board,
    problem: Problem,
    options: &SearchOptions,
) -> Result<Solution, SearchError> {
    let found = dispatch(board, problem, None, options)?;
    let (layout, nodes) = (
        found.layout.expect("the heuristic always gives a layout"),
        found.nodes,
    );
    problem.check(&layout, layout.len())?;
    Ok(Solution {
        problem,
        layout,
        nodes,
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
    let found = dispatch(board, problem, Some(max_queens), options)?;
    if let Some(layout) = &found.layout {
        problem.check(layout, layout.len())?;
    }
    Ok(found)
}

/// A lower bound on γ(board) or i(board), proven without search: see `bounds::lower_bound` for
/// the argument. A start layout of this size is optimal as it stands.
pub fn lower_bound(board: Board, _problem: Problem) -> usize {
    // i(N×M) ≥ γ(N×M): an independent dominating layout is a dominating layout.
    bounds::lower_bound(board)
}

fn dispatch(
    board: Board,
    problem: Problem,
    max_queens: Option<usize>,
    options: &SearchOptions,
) -> Result<Bounded, SearchError> {
    match words_for(board) {
        1 => run::<1>(board, problem, max_queens, options),
        2 => run::<2>(board, problem, max_queens, options),
        4 => run::<4>(board, problem, max_queens, options),
        8 => run::<8>(board, problem, max_queens, options),
        _ => run::<16>(board, problem, max_queens, options),
    }
}

/// The classes of `squares` under `symmetries` (which must map the set onto itself), each as
/// (representative: its lowest square, the whole class), in search order.
fn square_classes<const W: usize>(
    geo: &Geometry<W>,
    symmetries: &[Symmetry],
    squares: &Bits<W>,
    order: PartOrder,
) -> Vec<(usize, Vec<usize>)> {
    let board = geo.board;
    let mut classes: Vec<(usize, Vec<usize>)> = Vec::new();
    squares.for_each(|s| {
        let mut class: Vec<usize> = symmetries
            .iter()
            .map(|g| board.index(g.apply(board, board.square(s))))
            .collect();
        class.sort_unstable();
        class.dedup();
        if class[0] == s {
            classes.push((s, class));
        }
    });
    if order == PartOrder::StrongestFirst {
        classes.sort_by_key(|(s, _)| (std::cmp::Reverse(geo.cover[*s].count()), *s));
    }
    classes
}

/// The order of the parts of a cut.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PartOrder {
    /// Row-major. Measured best for proofs (14x14, no 7 queens: 662k nodes against 942k
    /// strongest-first; 16x16, no 8: 6.0M against 10.7M), so domination uses it once the local
    /// search has found a good layout to prove.
    BoardOrder,
    /// Squares covering most first: these parts find layouts early, which is what independent
    /// domination, starting from a greedy layout only, needs.
    StrongestFirst,
}

impl PartOrder {
    fn for_problem(independent: bool) -> PartOrder {
        if independent {
            PartOrder::StrongestFirst
        } else {
            PartOrder::BoardOrder
        }
    }
}

/// One part per symmetry class of squares (see [`square_classes`]).
fn first_queen_parts<const W: usize>(
    geo: &Geometry<W>,
    order: PartOrder,
) -> Vec<(usize, Vec<usize>)> {
    let parts = square_classes(geo, &geo.board.symmetries(), &geo.full, order);
    assert!(parts.len() <= MAX_ROOT_PARTS);
    parts
}

/// Symmetry breaking inside a part whose first queen `first` is fixed by some symmetries (a square
/// on a diagonal or a middle line, or the centre): the part's subproblem is invariant under those
/// symmetries, so it is cut again by the second queen, one subpart per class of squares under them,
/// exactly as the root is cut by the first queen. Each subpart is (second queen, the squares of the
/// classes before it). `None` when only the identity fixes `first`, when `first` alone covers the
/// board, or when there would be too many subparts to number.
fn second_queen_parts<const W: usize>(
    geo: &Geometry<W>,
    first: usize,
    node: &Node<W>,
    independent: bool,
) -> Option<Vec<(usize, Bits<W>)>> {
    let board = geo.board;
    let fixing: Vec<Symmetry> = board
        .symmetries()
        .into_iter()
        .filter(|g| g.apply(board, board.square(first)) == board.square(first))
        .collect();
    if fixing.len() < 2 || node.covered == geo.full {
        return None;
    }
    // Where a second queen may stand; both the covered and the forbidden squares are unions of
    // classes, so this set is mapped onto itself by every symmetry fixing `first`.
    let mut allowed = if independent {
        geo.full.minus(&node.covered)
    } else {
        geo.full
    }
    .minus(&node.forbidden);
    allowed.clear(first);
    let classes = square_classes(geo, &fixing, &allowed, PartOrder::for_problem(independent));
    if classes.is_empty() || classes.len() > 255 {
        return None;
    }
    let mut before = Bits::<W>::EMPTY;
    let mut out = Vec::with_capacity(classes.len());
    for (t, class) in classes {
        out.push((t, before));
        for s in class {
            before.set(s);
        }
    }
    Some(out)
}

struct Run<'a, const W: usize> {
    geo: &'a Geometry<W>,
    shared: &'a Shared,
    independent: bool,
    parallel: bool,
    nodes: AtomicU64,
}

fn run<const W: usize>(
    board: Board,
    problem: Problem,
    max_queens: Option<usize>,
    options: &SearchOptions,
) -> Result<Bounded, SearchError> {
    let geo = Geometry::<W>::new(board);
    let independent = problem.independent();
    let floor = lower_bound(board, problem);
    let (key, layout) = match max_queens {
        // Path 0 ranks before every part, so all parts look for strictly fewer queens.
        None => {
            let mut start = heuristic::greedy(&geo, independent);
            if !independent {
                start = heuristic::shrink(&geo, start, options.parallel, floor);
            }
            if start.len() <= floor {
                // Optimal by the lower bound: nothing to search.
                return Ok(Bounded {
                    layout: Some(to_layout(board, &start)),
                    nodes: 0,
                });
            }
            (Key::new(start.len(), 0), Some(start))
        }
        Some(k) => (Key::new(k.min(kernel::MAX_QUEENS) + 1, 0), None),
    };
    let shared = Shared::new(key, layout, options.cancel.clone());
    let parts = first_queen_parts(&geo, PartOrder::for_problem(independent));
    let mut before = vec![Bits::<W>::EMPTY; parts.len()];
    for j in 1..parts.len() {
        before[j] = before[j - 1];
        for &s in &parts[j - 1].1 {
            before[j].set(s);
        }
    }
    let run = Run {
        geo: &geo,
        shared: &shared,
        independent,
        parallel: options.parallel,
        nodes: AtomicU64::new(0),
    };
    let done = AtomicUsize::new(0);
    let part = |j: usize| {
        let first = parts[j].0;
        let node = Node {
            covered: geo.cover[first],
            forbidden: before[j],
        };
        match second_queen_parts(&geo, first, &node, independent) {
            Some(subparts) => {
                let sub = |k: usize| {
                    let (second, ref before_second) = subparts[k];
                    let node = Node {
                        covered: node.covered.or(&geo.cover[second]),
                        forbidden: node.forbidden.or(before_second),
                    };
                    let path = child_path(root_path(j), 1, k);
                    run.task(node, &[first as u16, second as u16], path, 1);
                };
                if options.parallel {
                    (0..subparts.len()).into_par_iter().for_each(sub);
                } else {
                    (0..subparts.len()).for_each(sub);
                }
            }
            None => run.task(node, &[first as u16], root_path(j), 0),
        }
        let finished = done.fetch_add(1, Relaxed) + 1;
        if let Some(progress) = &options.progress {
            progress(finished, parts.len());
        }
    };
    if options.parallel {
        (0..parts.len()).into_par_iter().for_each(part);
    } else {
        (0..parts.len()).for_each(part);
    }
    if shared.stopped() {
        return Err(SearchError::Cancelled);
    }
    let (_, best) = shared.best();
    let layout = best.map(|queens| to_layout(board, &queens));
    Ok(Bounded {
        layout,
        nodes: run.nodes.load(Relaxed),
    })
}

fn to_layout(board: Board, queens: &[u16]) -> Layout {
    Layout::new(
        board,
        queens.iter().map(|&q| board.square(q as usize)).collect(),
    )
}

/// Below this many queens still to place, a part is searched by one worker without splitting.
const SPLIT_MIN_REMAINING: usize = 3;
/// Parts are split at most this many levels below the first queen.
const SPLIT_LEVELS: usize = 3;

impl<const W: usize> Run<'_, W> {
    fn task(&self, node: Node<W>, queens: &[u16], path: u64, level: usize) {
        let mut s = Searcher::new(self.geo, self.shared, self.independent, path);
        s.enter(queens, &node);
        let split = self.parallel
            && level < SPLIT_LEVELS.min(MAX_SPLIT_LEVELS)
            && s.limit().saturating_sub(s.depth) >= SPLIT_MIN_REMAINING;
        if !split {
            s.search(node, 0);
            self.nodes.fetch_add(s.nodes, Relaxed);
            return;
        }
        let mut cands = [0u16; MAX_CANDIDATES];
        let expansion = s.expand(&node, &mut cands, 0);
        self.nodes.fetch_add(s.nodes, Relaxed);
        match expansion {
            Expansion::Layout => s.record_layout(),
            Expansion::Pruned => {}
            Expansion::Branch(n) => {
                // Screened with the line bound as the sequential search screens them; a hopeless
                // child is still forbidden for its later siblings (`child` does that).
                let uncovered = self.geo.full.minus(&node.covered);
                let need = uncovered.count() as usize;
                let child_remaining = s.limit().saturating_sub(s.depth + 1);
                let mut children: Vec<(usize, Node<W>)> = Vec::with_capacity(n);
                for i in 0..n {
                    if !s.child_is_hopeless(&uncovered, need, cands[i] as usize, child_remaining) {
                        children.push((i, s.child(&node, &cands, i)));
                    }
                }
                // Hand the buffers back before the children take their own.
                drop(s);
                children.into_par_iter().for_each(|(i, child)| {
                    if self.shared.should_stop() {
                        return;
                    }
                    let mut q = queens.to_vec();
                    q.push(cands[i]);
                    self.task(child, &q, child_path(path, level + 1, i), level + 1);
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

    #[test]
    fn parts_cover_every_square_once() {
        for (r, c) in [(5, 5), (4, 6), (1, 7), (6, 6)] {
            let geo = Geometry::<1>::new(Board::new(r, c).unwrap());
            for order in [PartOrder::BoardOrder, PartOrder::StrongestFirst] {
                let parts = first_queen_parts(&geo, order);
                let mut all: Vec<usize> = parts.iter().flat_map(|p| p.1.clone()).collect();
                all.sort_unstable();
                assert_eq!(all, (0..r * c).collect::<Vec<_>>());
            }
        }
    }
}
