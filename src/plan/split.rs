//! Splitting parts of a plan after the fact: a part too long for a cluster's time limit is
//! replaced by its descendants in the search tree, so that the pieces fit.
//!
//! The merge theorem needs the parts to partition each board's tree (see `merge.rs`): a part's
//! subtree is its node's children's subtrees and nothing else (a node with children does not cover
//! the board, so it is no layout itself), so replacing a part by all its children, none left out,
//! keeps the partition exact; the children are in the search's order and take the part's place,
//! so the plan stays sorted. Every other part keeps its path, queens and estimate, and every result
//! of those parts stays true: only its plan id and index change.

use thiserror::Error;

use crate::error::{ErrorKind, Kind};
use crate::search::{Goal, Incumbent, PartPath};

use super::build::seed;
use super::{LoadedPlan, Plan, PlanGoal, PlanPart};

/// Why a part cannot be split.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SplitError {
    #[error("part {part} does not exist: the plan has parts 0..{last}")]
    NoSuchPart { part: usize, last: usize },
    #[error("part {0} cannot be cut further (its node has no children in the search tree)")]
    Leaf(usize),
    #[error("part {part} would be cut into more than {MAX_PIECES} pieces at share {share}: give a larger --share")]
    TooManyPieces { part: usize, share: f64 },
    #[error("--share {share:e} asks for pieces of at most that share of a part, so more than {MAX_PIECES} pieces: give --share at least 1/{MAX_PIECES} ({min:.6})", min = 1.0 / MAX_PIECES as f64)]
    ShareTooSmall { share: f64 },
}

/// The most pieces one part is cut into: a share so small that the part would need more (down to
/// single nodes of the search tree, a number that grows exponentially with depth) is refused
/// rather than left to estimate for ever. Far more than a split needs: a part that took `t` times
/// its limit wants about `2t` pieces.
pub const MAX_PIECES: usize = 4096;

/// A plan with some parts split, and where each old part went.
#[derive(Debug, Clone)]
pub struct Split {
    pub plan: Plan,
    /// `moved[k]`: the new indices of old part `k` (one for a part kept, several for a split).
    pub moved: Vec<Vec<usize>>,
}

/// Replace each of `parts` by its descendants: its children, and again the children of any piece
/// still estimated above `share` of the part (while it can be cut), so that a part that took
/// twice a time limit comes back as pieces of about half of it or less.
pub fn split_parts(
    plan: &LoadedPlan,
    parts: &[usize],
    share: f64,
    probes: u32,
) -> Result<Split, SplitError> {
    // Knuth's estimate is additive (a node's is one plus its children's, in expectation), so pieces
    // of at most `share` of a part number at least 1/share: a smaller share than 1/MAX_PIECES is
    // refused at once rather than after estimating thousands of pieces.
    if share * (MAX_PIECES as f64) < 1.0 {
        return Err(SplitError::ShareTooSmall { share });
    }
    let n = plan.parts();
    for &k in parts {
        if k >= n {
            return Err(SplitError::NoSuchPart {
                part: k,
                last: n.saturating_sub(1),
            });
        }
    }
    let mut new_parts: Vec<PlanPart> = Vec::with_capacity(n);
    let mut moved = Vec::with_capacity(n);
    for (k, part) in plan.plan.parts.iter().enumerate() {
        if !parts.contains(&k) {
            moved.push(vec![new_parts.len()]);
            new_parts.push(part.clone());
            continue;
        }
        let pieces = descendants(plan, k, share, probes)?;
        moved.push((new_parts.len()..new_parts.len() + pieces.len()).collect());
        new_parts.extend(pieces);
    }
    // The rate measured when the plan was made still holds; the nodes it prices are the new
    // estimates.
    let estimated: f64 = new_parts.iter().map(|p| p.estimate).sum();
    Ok(Split {
        plan: Plan {
            parts: new_parts,
            cost: plan.plan.cost.as_ref().map(|c| c.for_nodes(estimated)),
            ..plan.plan.clone()
        },
        moved,
    })
}

fn descendants(
    plan: &LoadedPlan,
    k: usize,
    share: f64,
    probes: u32,
) -> Result<Vec<PlanPart>, SplitError> {
    let (b, _, path) = plan.part(k);
    let space = plan.space(b);
    let goal = match (plan.plan.goal, plan.plan.boards[b].count_queens) {
        (PlanGoal::Count, Some(queens)) => Goal::Count {
            queens,
            representatives: false,
        },
        _ => Goal::Improve(Incumbent::start(plan.starts[b].clone())),
    };
    let estimate = |p: &PartPath| {
        space
            .estimate(p, &goal, probes, seed(b, p))
            .expect("children exist")
    };
    let limit = share * plan.plan.parts[k].estimate;
    let children = |p: &PartPath| space.children(p).expect("planned parts exist");
    let first = children(path);
    if first.is_empty() {
        return Err(SplitError::Leaf(k));
    }
    // (path, estimate), in search order; the largest piece above the limit is cut again.
    let mut pieces: Vec<(PartPath, f64)> = first
        .into_iter()
        .map(|p| {
            let e = estimate(&p);
            (p, e)
        })
        .collect();
    let mut leaves: Vec<PartPath> = Vec::new();
    loop {
        let largest = pieces
            .iter()
            .enumerate()
            .filter(|(_, (p, e))| *e > limit && !leaves.contains(p))
            .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
            .map(|(i, _)| i);
        let Some(i) = largest else { break };
        let below = children(&pieces[i].0);
        if below.is_empty() {
            leaves.push(pieces[i].0.clone());
            continue;
        }
        let cut: Vec<(PartPath, f64)> = below
            .into_iter()
            .map(|p| {
                let e = estimate(&p);
                (p, e)
            })
            .collect();
        pieces.splice(i..=i, cut);
        if pieces.len() > MAX_PIECES {
            return Err(SplitError::TooManyPieces { part: k, share });
        }
    }
    Ok(pieces
        .into_iter()
        .map(|(p, e)| PlanPart {
            board: b,
            queens: space
                .part_queens(&p)
                .expect("children exist")
                .to_squares_string(),
            path: p.to_string(),
            estimate: e.round(),
        })
        .collect())
}

impl Kind for SplitError {
    fn kind(&self) -> ErrorKind {
        match self {
            SplitError::NoSuchPart { .. }
            | SplitError::Leaf(_)
            | SplitError::TooManyPieces { .. }
            | SplitError::ShareTooSmall { .. } => ErrorKind::Refusal,
        }
    }
}
