//! The plain search: an audit's second opinion on a part, sharing nothing with the kernel's pruning.
//!
//! It places queens, checks the cover and keeps to the queen budget, and nothing else: no line,
//! coverage or forcing bound, no structural rule, no `finish`. Branch on the lowest uncovered
//! square, try each allowed square that covers it (for i, only squares no queen attacks, which are
//! the uncovered ones), then forbid it for the later siblings. So an unsound rule of the kernel
//! cannot confirm itself through it: where the kernel says a part holds no layout within a size,
//! this search looks at every layout of the part. It is exponentially slower than the kernel, so
//! it takes a node budget and says when it ran out.
//!
//! The part itself (its queens and forbidden squares) comes from the cut of the tree
//! (`space.rs`): a partition of the layouts by the first queens, whose branching uses every
//! allowed square covering the branching square, so it prunes nothing.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::board::{Bits, Geometry};

use super::space::Located;

/// What the plain search of one part found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainOutcome {
    /// The fewest queens of a layout of the part within the limit, if it holds one.
    pub smallest: Option<usize>,
    /// Nodes expanded (each a placement of one queen).
    pub nodes: u64,
    /// Whether the whole part was searched; `false`: the node budget ran out first (or the
    /// search was cancelled), and `smallest` says only what was seen.
    pub complete: bool,
}

struct Plain<'a, const W: usize> {
    geo: &'a Geometry<W>,
    independent: bool,
    /// Layouts above this size are not looked for; lowered below the size of each layout found.
    limit: usize,
    smallest: Option<usize>,
    nodes: u64,
    budget: u64,
    cancel: Option<&'a AtomicBool>,
}

/// How often (in nodes) the plain search looks at its cancel flag.
const CANCEL_POLL: u64 = 1 << 16;

impl<const W: usize> Plain<'_, W> {
    /// Search below a node of `depth` queens; `false` once the budget is spent.
    fn search(&mut self, covered: Bits<W>, mut forbidden: Bits<W>, depth: usize) -> bool {
        let uncovered = self.geo.full.minus(&covered);
        let Some(u) = uncovered.first() else {
            self.smallest = Some(self.smallest.map_or(depth, |s| s.min(depth)));
            // Look only for smaller layouts from now on.
            self.limit = self.limit.min(depth.saturating_sub(1));
            return true;
        };
        if depth >= self.limit {
            return true;
        }
        let mut candidates = self.geo.cover[u].minus(&forbidden);
        if self.independent {
            candidates = candidates.and(&uncovered);
        }
        for v in candidates.ones() {
            if self.nodes >= self.budget
                || self.nodes.is_multiple_of(CANCEL_POLL)
                    && self.cancel.is_some_and(|c| c.load(Relaxed))
            {
                return false;
            }
            self.nodes += 1;
            if !self.search(covered.or(&self.geo.cover[v]), forbidden, depth + 1) {
                return false;
            }
            forbidden.set(v);
            if depth >= self.limit {
                return true;
            }
        }
        true
    }
}

/// The plain search of the part `at` for its smallest layout of at most `limit` queens, at most
/// `budget` nodes; it stops early once `cancel` is set.
pub(super) fn search<const W: usize>(
    geo: &Geometry<W>,
    independent: bool,
    at: &Located<W>,
    limit: usize,
    budget: u64,
    cancel: Option<&AtomicBool>,
) -> PlainOutcome {
    let mut plain = Plain {
        geo,
        independent,
        limit,
        smallest: None,
        nodes: 0,
        budget,
        cancel,
    };
    let complete = plain.search(at.node.covered, at.node.forbidden, at.queens.len());
    PlainOutcome {
        smallest: plain.smallest,
        nodes: plain.nodes,
        complete,
    }
}
