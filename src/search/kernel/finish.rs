//! The last one or two queens of a node, placed exactly rather than branched on (see
//! `Searcher::finish`), with the test that two queens of a pool may still cover a node.

use crate::board::{Bits, Geometry};

use super::{Node, Searcher};

impl<const W: usize> Searcher<'_, W> {
    /// The last one or two queens, without a node per candidate: for each candidate `v` of the
    /// lowest uncovered square (in order), either `v` covers the rest, or the second queen must lie
    /// in the cover of every square `v` leaves uncovered, and the lowest such square is taken.
    ///
    /// Any uncovered square will do, since every completion covers it. The general search's
    /// choice, the square with the fewest candidates, costs more here than the candidates it
    /// saves (i(Q_15): 1.28 times the CPU with it, for the same nodes).
    pub(super) fn finish(&mut self, node: &Node<W>, cover_cap: usize, cov_generation: u64) {
        self.nodes += 1;
        let geo = self.geo;
        let uncovered = geo.full.minus(&node.covered);
        let Some(square) = uncovered.first() else {
            self.record_layout();
            return;
        };
        let allowed = self.allowed(node, &uncovered);
        // Read again only after a layout of this search's own: one found elsewhere meanwhile
        // only means some candidates here are tried in vain.
        let mut limit = self.limit();
        if self.depth + 1 > limit {
            return;
        }
        let cands = geo.cover[square].and(&allowed);
        // While `cov` holds the parent's coverages, they bound this node's (its uncovered and
        // allowed squares are subsets of the parent's): a first queen covering fewer than
        // |uncovered| - `cover_cap` leaves the second more than it can cover. Most candidates
        // are such (γ(Q_15): 86%), and one set operation drops them all.
        let total = uncovered.count() as usize;
        // Both queens of a pair that covers the rest are such squares, not only the first.
        // The threshold is rounded down to a multiple of 4, so that siblings share one set
        // (`strong_squares` was computed for half the calls): the squares that the weaker pool
        // lets in cover too little to pass the count of `rest` below or in `pair_may_cover`,
        // at the cost of that count. `count 13x13 -j 1`: 8% fewer instructions (cachegrind).
        let pool = if cov_generation == self.cov_generation && cover_cap < total {
            allowed.and(&self.strong_squares((total - cover_cap) & !3))
        } else {
            allowed
        };
        if self.depth + 2 <= limit && !pair_may_cover(geo, &uncovered, &pool, cover_cap) {
            return;
        }
        let mut firsts = cands.and(&pool);
        // The structural rules bar some squares; the candidates they bar are still "tried" (a
        // second queen never repeats one), as they hold no layout.
        if let Some(barred) = self.barred_squares(&self.held, self.depth, limit) {
            firsts = firsts.minus(&barred);
        }
        for v in firsts.ones() {
            let rest = uncovered.minus(&geo.cover[v]);
            if rest.is_empty() {
                self.queens[self.depth] = v as u16;
                self.depth += 1;
                self.record_layout();
                self.depth -= 1;
                limit = self.limit();
                if self.depth + 1 > limit {
                    return;
                }
                continue;
            }
            // The second queen covers at most `cover_cap` of them.
            if self.depth + 2 > limit || rest.count() as usize > cover_cap {
                continue;
            }
            // The second queen is none of the candidates up to `v`: a pair with an earlier one
            // was met when that one was first.
            let later = allowed.minus(&cands.through(v));
            let mut second = covering_all(
                geo,
                if self.independent {
                    rest.and(&later)
                } else {
                    later
                },
                &rest,
            );
            if second.is_empty() {
                continue;
            }
            let held = self.held.with(geo, v);
            if let Some(barred) = self.barred_squares(&held, self.depth + 1, limit) {
                second = second.minus(&barred);
                if second.is_empty() {
                    continue;
                }
            }
            self.queens[self.depth] = v as u16;
            if self.recorder.is_some() {
                // Counting wants every second queen, not the first.
                for w in second.ones() {
                    self.queens[self.depth + 1] = w as u16;
                    self.depth += 2;
                    self.record_layout();
                    self.depth -= 2;
                }
            } else if let Some(w) = second.first() {
                self.queens[self.depth + 1] = w as u16;
                self.depth += 2;
                self.record_layout();
                self.depth -= 2;
            }
            limit = self.limit();
            if self.depth + 1 > limit {
                return;
            }
        }
    }
}

/// Whether two queens on `pool` (or one) might cover `uncovered`: `false` only when none can.
///
/// A necessary condition, far cheaper than trying every first queen (`Searcher::finish`): take
/// a = the lowest uncovered square, b = the highest one a's lines miss, c = the lowest one both
/// miss. A pair that covers a, b and c has a queen that covers two of them, so one of the pair
/// lies on two of their covers, and the other covers all that queen leaves, at most `cover_cap`
/// squares. Counting 14x14 (8 queens), where nearly every call holds no pair, it tries 170M first
/// queens against 257M, 0.92 times the CPU. (Two squares far apart share fewer coverers on the
/// board than two near each other: b the highest rather than the lowest, 0.98 times again.)
fn pair_may_cover<const W: usize>(
    geo: &Geometry<W>,
    uncovered: &Bits<W>,
    pool: &Bits<W>,
    cover_cap: usize,
) -> bool {
    let Some(a) = uncovered.first() else {
        return true;
    };
    let beyond_a = uncovered.minus(&geo.cover[a]);
    let Some(b) = beyond_a.last() else {
        return true;
    };
    let Some(c) = beyond_a.minus(&geo.cover[b]).first() else {
        return true;
    };
    let (ca, cb, cc) = (&geo.cover[a], &geo.cover[b], &geo.cover[c]);
    let hubs = ca.and(cb).or(&ca.and(cc)).or(&cb.and(cc)).and(pool);
    for h in hubs.ones() {
        let rest = uncovered.minus(&geo.cover[h]);
        if rest.is_empty() {
            return true;
        }
        if rest.count() as usize > cover_cap {
            continue;
        }
        if !covering_all(geo, *pool, &rest).is_empty() {
            return true;
        }
    }
    false
}

/// The squares of `from` that cover every square of `rest` (one on a line through each): where
/// the last queen may stand. Stops as soon as none is left, which is almost always within two or
/// three squares.
#[inline(always)]
fn covering_all<const W: usize>(geo: &Geometry<W>, mut from: Bits<W>, rest: &Bits<W>) -> Bits<W> {
    for x in rest.ones() {
        from = from.and(&geo.cover[x]);
        if from.is_empty() {
            break;
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShift;

    /// `pair_may_cover` never refuses a node that one or two queens of its pool do cover (nodes
    /// made so: the uncovered squares are those a random pair or single misses, then more), and
    /// does refuse some that no pair covers.
    #[test]
    fn pair_may_cover_keeps_every_covered_node() {
        use crate::board::Board;
        let (mut refused, mut coverable) = (0, 0);
        for (rows, cols) in [(5, 5), (6, 9), (8, 8), (7, 11), (12, 12)] {
            let board = Board::new(rows, cols).unwrap();
            let geo = Geometry::<4>::new(board);
            let n = board.squares();
            let mut rng = XorShift::new((rows * 1000 + cols) as u64 | 1);
            let mut next = move || rng.next();
            for case in 0..400 {
                let mut pool = Bits::<4>::EMPTY;
                let mut uncovered = Bits::<4>::EMPTY;
                for s in 0..n {
                    if next() % 4 != 0 {
                        pool.set(s);
                    }
                    if next() % (2 + case % 5) as u64 == 0 {
                        uncovered.set(s);
                    }
                }
                if case % 2 == 0 {
                    // Leave only what a pair (or one queen) of the pool misses.
                    let (p, q) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
                    pool.set(p);
                    pool.set(q);
                    uncovered = uncovered.minus(&geo.cover[p]).minus(&geo.cover[q]);
                }
                let covered_by_pair = pool.ones().any(|p| {
                    pool.ones().any(|q| {
                        uncovered
                            .minus(&geo.cover[p])
                            .minus(&geo.cover[q])
                            .is_empty()
                    })
                });
                let cap = pool
                    .ones()
                    .map(|q| geo.cover[q].count_and(&uncovered) as usize)
                    .max()
                    .unwrap_or(0);
                let may = pair_may_cover(&geo, &uncovered, &pool, cap);
                if covered_by_pair {
                    coverable += 1;
                    assert!(may, "{rows}x{cols} case {case}: a pair covers, refused");
                } else if !may {
                    refused += 1;
                }
            }
        }
        assert!(
            coverable > 500 && refused > 200,
            "{coverable} coverable, {refused} refused"
        );
    }
}
