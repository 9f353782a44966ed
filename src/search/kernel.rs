//! The sequential branch-and-bound kernel: branch on the uncovered square with the fewest candidate
//! queens, try each candidate, forbid it after its subtree. No allocation, no I/O.
//!
//! Order matters for reproducibility: the square branched on and the order of its candidates depend
//! only on the node's state (covered and forbidden squares), never on the bound, which other workers
//! change at any moment. Bounds only remove subtrees, so the first optimal layout in this fixed order
//! is the same whatever the timing.

use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Bits, Geometry, LINE_FAMILY_OFFSET, LINE_SLOTS, MAX_SIDE};

use super::shared::{Key, Shared};

/// Most queens a layout can hold: every board up to 32×32 is dominated by at most 32 queens (a full
/// column), and any independent set has at most one queen per row.
pub(crate) const MAX_QUEENS: usize = 32;

/// Most candidates a square can have: its row, column and two diagonals on a 32×32 board.
pub(crate) const MAX_CANDIDATES: usize = 128;

/// How often (in nodes) a worker looks at the cancel flag.
const CANCEL_POLL: u64 = 1 << 12;

/// The state of a node: which squares are covered and which may no longer hold a queen.
#[derive(Clone, Copy)]
pub(crate) struct Node<const W: usize> {
    pub covered: Bits<W>,
    pub forbidden: Bits<W>,
}

/// What expanding a node gave.
pub(crate) enum Expansion {
    /// Every square is covered: the queens placed so far are a layout.
    Layout,
    /// No completion within the bound.
    Pruned,
    /// Branch: the candidates (in the fixed order) for covering the chosen square.
    Branch(usize),
}

/// One worker's search over one part of the tree.
pub(crate) struct Searcher<'a, const W: usize> {
    geo: &'a Geometry<W>,
    shared: &'a Shared,
    independent: bool,
    /// Where this part sits in the global search order (see `Shared`).
    path: u64,
    pub nodes: u64,
    pub queens: [u16; MAX_QUEENS],
    pub depth: usize,
    /// Scratch, reused at every node: coverage of each allowed square and a bucket sort by coverage.
    cov: Vec<u8>,
    by_cov: Vec<u16>,
    line_uncovered: [u8; LINE_SLOTS],
    line_allowed: [u8; LINE_SLOTS],
    bucket_start: Vec<u16>,
}

impl<'a, const W: usize> Searcher<'a, W> {
    pub fn new(geo: &'a Geometry<W>, shared: &'a Shared, independent: bool, path: u64) -> Self {
        let n = geo.board.squares();
        Searcher {
            geo,
            shared,
            independent,
            path,
            nodes: 0,
            queens: [0; MAX_QUEENS],
            depth: 0,
            cov: vec![0; n],
            by_cov: vec![0; n],
            line_uncovered: [0; LINE_SLOTS],
            line_allowed: [0; LINE_SLOTS],
            bucket_start: vec![0; MAX_CANDIDATES + 2],
        }
    }

    /// Most queens a layout found here may have to still be worth reporting.
    #[inline(always)]
    pub fn limit(&self) -> usize {
        Key(self.shared.best.load(Relaxed)).limit_for(self.path)
    }

    pub fn record_layout(&mut self) {
        self.shared
            .offer(Key::new(self.depth, self.path), &self.queens[..self.depth]);
    }

    /// Expand `node`; on `Branch(n)`, `cands[..n]` holds the candidates in search order.
    pub fn expand(&mut self, node: &Node<W>, cands: &mut [u16; MAX_CANDIDATES]) -> Expansion {
        self.nodes += 1;
        let geo = self.geo;
        let uncovered = geo.full.minus(&node.covered);
        if uncovered.is_empty() {
            return Expansion::Layout;
        }
        let limit = self.limit();
        if self.depth >= limit {
            return Expansion::Pruned;
        }
        let remaining = limit - self.depth;

        // Uncovered squares per line: the line bound first, as it is the cheapest.
        let need = count_lines(geo, &uncovered, &mut self.line_uncovered);
        if self.line_bound_exceeds(need, remaining) {
            return Expansion::Pruned;
        }

        let allowed = if self.independent {
            uncovered.minus(&node.forbidden)
        } else {
            geo.full.minus(&node.forbidden)
        };
        count_lines(geo, &allowed, &mut self.line_allowed);

        // The uncovered square with the fewest candidates; a square with none ends the branch.
        let mut best_square = usize::MAX;
        let mut best_count = u32::MAX;
        let mut dead = false;
        let la = &self.line_allowed;
        uncovered.for_each(|u| {
            if dead {
                return;
            }
            let [a, b, c, d] = geo.lines[u];
            let mut count = la[a as usize] as u32
                + la[b as usize] as u32
                + la[c as usize] as u32
                + la[d as usize] as u32;
            if allowed.contains(u) {
                count -= 3;
            }
            if count < best_count {
                best_count = count;
                best_square = u;
                dead = count == 0;
            }
        });
        if dead {
            return Expansion::Pruned;
        }

        let branch = geo.cover[best_square].and(&allowed);
        if remaining == 1 {
            // One queen left: it must cover everything that is left, so only candidates of the
            // branching square that do are worth a child.
            let mut n = 0;
            branch.for_each(|v| {
                if uncovered.is_subset(&geo.cover[v]) {
                    cands[n] = v as u16;
                    n += 1;
                }
            });
            return if n == 0 {
                Expansion::Pruned
            } else {
                Expansion::Branch(n)
            };
        }

        if self.coverage_bound_exceeds(&uncovered, need, &allowed, remaining) {
            return Expansion::Pruned;
        }

        let mut n = 0;
        branch.for_each(|v| {
            cands[n] = v as u16;
            n += 1;
        });
        Expansion::Branch(n)
    }

    /// The line bound: each queen lies on one row, one column, one diagonal and one anti-diagonal,
    /// so `remaining` queens cover at most the `remaining` fullest lines of each family.
    fn line_bound_exceeds(&self, need: usize, remaining: usize) -> bool {
        let board = self.geo.board;
        let lens = [
            board.rows(),
            board.cols(),
            board.rows() + board.cols() - 1,
            board.rows() + board.cols() - 1,
        ];
        let mut reach = 0usize;
        for (f, &len) in lens.iter().enumerate() {
            let counts = &self.line_uncovered[LINE_FAMILY_OFFSET[f]..LINE_FAMILY_OFFSET[f] + len];
            let mut hist = [0u8; MAX_SIDE + 1];
            let mut top = 0;
            for &c in counts {
                hist[c as usize] += 1;
                top = top.max(c as usize);
            }
            let mut left = remaining;
            let mut c = top;
            while c > 0 && left > 0 {
                let take = left.min(hist[c] as usize);
                reach += take * c;
                left -= take;
                c -= 1;
            }
        }
        reach < need
    }

    /// Whether `uncovered` provably needs more than `remaining` queens from `allowed`:
    /// - max coverage: the `remaining` largest coverages must add up to `|uncovered|`;
    /// - Bird's bound: every uncovered square u needs a queen covering at most maxcov(u) uncovered
    ///   squares, so Σ_u 1/maxcov(u) ≤ remaining (each queen contributes at most 1 to the sum).
    fn coverage_bound_exceeds(
        &mut self,
        uncovered: &Bits<W>,
        need: usize,
        allowed: &Bits<W>,
        remaining: usize,
    ) -> bool {
        let geo = self.geo;
        let mut hist = [0u16; MAX_CANDIDATES + 1];
        let mut max_cov = 0usize;
        let lu = &self.line_uncovered;
        allowed.for_each(|v| {
            let [a, b, c, d] = geo.lines[v];
            let mut cov = lu[a as usize] as usize
                + lu[b as usize] as usize
                + lu[c as usize] as usize
                + lu[d as usize] as usize;
            if uncovered.contains(v) {
                cov -= 3;
            }
            self.cov[v] = cov as u8;
            hist[cov] += 1;
            max_cov = max_cov.max(cov);
        });
        // Max-coverage bound.
        let mut sum = 0usize;
        let mut left = remaining;
        let mut c = max_cov;
        while c > 0 && left > 0 {
            let take = left.min(hist[c] as usize);
            sum += take * c;
            left -= take;
            c -= 1;
        }
        if sum < need {
            return true;
        }

        // Bird's bound: bucket the allowed squares by coverage, largest first.
        let mut start = 0u16;
        for c in (1..=max_cov).rev() {
            self.bucket_start[c] = start;
            start += hist[c];
        }
        let mut fill = [0u16; MAX_CANDIDATES + 1];
        fill[..=max_cov].copy_from_slice(&self.bucket_start[..=max_cov]);
        allowed.for_each(|v| {
            let c = self.cov[v] as usize;
            if c > 0 {
                self.by_cov[fill[c] as usize] = v as u16;
                fill[c] += 1;
            }
        });
        let mut rest = *uncovered;
        let mut weight = 0.0f64;
        for &v in &self.by_cov[..start as usize] {
            let v = v as usize;
            let newly = geo.cover[v].count_and(&rest);
            if newly > 0 {
                weight += newly as f64 / self.cov[v] as f64;
                rest = rest.minus(&geo.cover[v]);
                if rest.is_empty() {
                    break;
                }
            }
        }
        // Fractions with denominators ≤ 128: 1e-9 is far above rounding and far below any real gap.
        weight > remaining as f64 + 1e-9
    }

    /// Search the subtree of `node` (whose queens are `queens[..depth]`) to the end.
    pub fn search(&mut self, node: Node<W>) {
        if self.nodes.is_multiple_of(CANCEL_POLL) && self.shared.should_stop() {
            return;
        }
        let mut cands = [0u16; MAX_CANDIDATES];
        let n = match self.expand(&node, &mut cands) {
            Expansion::Layout => {
                self.record_layout();
                return;
            }
            Expansion::Pruned => return,
            Expansion::Branch(n) => n,
        };
        let mut forbidden = node.forbidden;
        for &v in &cands[..n] {
            let v = v as usize;
            if self.depth + 1 > self.limit() {
                return;
            }
            self.queens[self.depth] = v as u16;
            self.depth += 1;
            self.search(Node {
                covered: node.covered.or(&self.geo.cover[v]),
                forbidden,
            });
            self.depth -= 1;
            forbidden.set(v);
        }
    }

    /// The child nodes of `node` in search order (for splitting work across workers).
    pub fn child(&self, node: &Node<W>, cands: &[u16], i: usize) -> Node<W> {
        let mut forbidden = node.forbidden;
        for &v in &cands[..i] {
            forbidden.set(v as usize);
        }
        Node {
            covered: node.covered.or(&self.geo.cover[cands[i] as usize]),
            forbidden,
        }
    }
}

/// Count the members of `set` on each line into `counts`; returns `|set|`.
#[inline(always)]
fn count_lines<const W: usize>(
    geo: &Geometry<W>,
    set: &Bits<W>,
    counts: &mut [u8; LINE_SLOTS],
) -> usize {
    counts.fill(0);
    let mut n = 0;
    set.for_each(|s| {
        for l in geo.lines[s] {
            counts[l as usize] += 1;
        }
        n += 1;
    });
    n
}
