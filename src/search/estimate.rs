//! Knuth's estimator of the size of a search tree: random probes from a part down to a leaf,
//! branching as the search does.

use crate::random::XorShift;

use super::kernel::{Expansion, Searcher};
use super::lines::MAX_CANDIDATES;
use super::shared::Shared;
use super::space::{Located, SpaceW};

/// Knuth's estimator of the size of the tree below `at`.
pub(super) fn estimate<const W: usize>(
    space: &SpaceW<W>,
    shared: &Shared,
    at: &Located<W>,
    probes: u32,
    seed: u64,
) -> f64 {
    let mut rng = XorShift::from_seed(seed);
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
            let pick = (rng.next() % children.len() as u64) as usize;
            here = children.into_iter().nth(pick).expect("picked a child");
        }
    }
    total / probes.max(1) as f64
}
