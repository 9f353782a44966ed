//! The parallel driver: one search of one part, its structural cuts taken on the rayon pool (or in
//! order), split again a few levels down so that all workers stay busy, the tasks traced, the
//! result of the goal (the best layout, or the counts) collected from the shared state.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use crate::trace::{ChildSplit, Span, TaskIdentity, TaskKind, Trace};

use super::bounds;
use super::count::Counter;
use super::error::SearchError;
use super::kernel::{self, Expansion, Searcher};
use super::lines::MAX_CANDIDATES;
use super::options::{PartProgress, PartsDone, SearchOptions};
use super::part::{Found, Goal, LayoutCount, PartOutcome, PartPath, PartResult, Rank};
use super::record::Recorder;
use super::shared::{self, Key, Shared, MAX_SPLIT_LEVELS};
use super::space::{indices_of, layout_of, Located, SpaceW};

/// Search `part` of `space` for `goal` (see [`super::SearchSpace::run`]).
pub(super) fn run_part<const W: usize>(
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
        if incumbent.queens < floor || (incumbent.queens == floor && incumbent.rank == Rank::START)
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
    let counter =
        target.map(|t| Counter::new(space, t, representatives, options.class_sink.as_deref()));
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
                    layout: layout_of(space.board(), &queens),
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
                    .map(|(q, n)| (layout_of(space.board(), q), *n as usize))
                    .collect(),
                smaller: tally
                    .smaller
                    .as_deref()
                    .map(|q| layout_of(space.board(), q)),
            })
        }
        (Goal::Count { .. }, None) => unreachable!("counting has a counter"),
    };
    Ok(PartOutcome { result, nodes })
}

/// The shared state a goal starts from: the incumbent's key, or, when counting, a key one above the
/// size counted that no layout ever replaces (nothing is offered), so every part searches to it.
pub(super) fn shared_for<const W: usize>(space: &SpaceW<W>, goal: &Goal) -> Shared {
    let board = space.board();
    match goal {
        Goal::Improve(incumbent) => {
            let queens = incumbent.layout.as_ref().map(|l| indices_of(board, l));
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
