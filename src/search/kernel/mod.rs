//! The sequential branch-and-bound kernel: branch on the uncovered square with the fewest candidate
//! queens, try each candidate, forbid it after its subtree. No allocation, no I/O.
//!
//! Order matters for reproducibility: the square branched on and the order of its candidates depend
//! only on the node's state (covered and forbidden squares), never on the bound, which other workers
//! change at any moment. Bounds only remove subtrees, so the first optimal layout in this fixed order
//! is the same whatever the timing. The fast path for the last two queens keeps that order too.
//!
//! The rest of the kernel is in its children, each an `impl` on [`Searcher`] or the helpers of
//! one concern: `rules` (the structural rules on the queens placed), `coverage` (the bounds on
//! covering the uncovered squares, and the screening of children by them), `finish` (the last two
//! queens placed exactly), `scratch` (the buffers kept per thread).

/// Calls `$check::<W>(rows, cols, seed)` with the bitboard width W that the search of a
/// `rows` × `cols` board uses (`words_for`): the kernel's tests run each check on a table of boards.
#[cfg(test)]
macro_rules! at_board_width {
    ($check:ident, $rows:expr, $cols:expr, $seed:expr) => {{
        let (rows, cols, seed) = ($rows, $cols, $seed);
        match crate::board::words_for(crate::board::Board::new(rows, cols).unwrap()) {
            1 => $check::<1>(rows, cols, seed),
            2 => $check::<2>(rows, cols, seed),
            4 => $check::<4>(rows, cols, seed),
            8 => $check::<8>(rows, cols, seed),
            _ => $check::<16>(rows, cols, seed),
        }
    }};
}

mod coverage;
mod finish;
mod rules;
mod scratch;

use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Bits, Geometry, LINE_FAMILY_OFFSET, LINE_SLOTS};
use crate::problem::Problem;

use super::lines::{byte_mask, count_lines, MAX_CANDIDATES, ROW};
use super::record::{Recorder, Tally};
use super::shared::{Key, Shared};

use coverage::{child_lacks_coverage, TOP_COVERAGES};
use rules::{Held, Rules};
use scratch::Scratch;

/// Most queens a layout can hold: every board up to 32×32 is dominated by at most 32 queens (a full
/// column), and any independent set has at most one queen per row.
pub(crate) const MAX_QUEENS: usize = 32;

/// Most queens still to place at which the exact line-forcing test runs: deeper in the tree it
/// prunes most, higher up its exact-cover search costs more than it saves (measured on 8x20, 9x18
/// and 9x22: nodes and instructions flat from 6 on).
const EXACT_FORCING_MAX_REMAINING: usize = 6;

/// Most queens left at which a node places them exactly (`Searcher::finish`) rather than branch.
const FINISH_REMAINING: usize = 2;

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
    /// Counting: every layout within the limit goes here (into `tally`), and none is kept as the
    /// best. Without it the search keeps the best layout in `shared`.
    recorder: Option<&'a dyn Recorder>,
    tally: Tally,
    /// `problem.forbids_attacks()`, read once here: the kernel's only question to the problem,
    /// asked at every node, stays a field load (as it was before `Problem` reached the kernel).
    independent: bool,
    /// Where this part sits in the global search order (see `Shared`).
    path: u64,
    pub nodes: u64,
    pub queens: [u16; MAX_QUEENS],
    pub depth: usize,
    /// Uncovered squares per line, one array per depth: a child's counts are its parent's less the
    /// squares its queen covers, so a child can be screened before it is entered.
    line_uncovered: Vec<[u8; LINE_SLOTS]>,
    /// Forbidden squares per line, kept up to date as squares are forbidden and released, so that
    /// candidate counts cost four lookups per square.
    line_forbidden: [u8; LINE_SLOTS],
    /// Scratch, reused at every node: forbidden uncovered squares per line (independent domination),
    /// coverage of each allowed square, and a bucket sort by coverage.
    line_scratch: [u8; LINE_SLOTS],
    cov: Vec<u8>,
    by_cov: Vec<u16>,
    bucket_start: Vec<u16>,
    /// The family (0: rows, 1: columns) of the board's longer lines; `None` on a square board,
    /// where the exact line-forcing bound costs more than it saves (13x13, no 6 queens: 2% fewer
    /// nodes, 40% more instructions).
    long_family: Option<usize>,
    /// Whether the exact line-forcing bound runs: on boards whose shorter side is at most 7/10 of
    /// the longer. Nearer the square it costs more than it cuts, as on the square itself; on thin
    /// boards it is what keeps them fast (γ(12x21), `-j 1`: 30 s with it, 103 s without). The
    /// crossover, measured on 32 boards, is in docs/performance.md. The candidates on the long
    /// line still go first.
    exact_forcing: bool,
    /// The node's forced long lines at each depth (see `bounds::FamilyMasks`), for screening its
    /// children.
    forced: [u32; MAX_QUEENS + 2],
    /// The largest coverages (uncovered squares one queen would cover) among the allowed squares
    /// of the node just expanded, largest first, with multiplicity; `None` when its coverage bound
    /// did not run (then `cov` is stale too).
    top_cov: Option<[u8; TOP_COVERAGES]>,
    /// Bumped whenever `cov` is computed anew, so that `strong` knows its sets are stale; starts
    /// at 1, so that generation 0 names no coverages.
    cov_generation: u64,
    /// `strong[t]`: the squares whose coverage in `cov` is at least t, as of `strong_generation[t]`.
    strong: [Bits<W>; MAX_CANDIDATES + 1],
    strong_generation: [u64; MAX_CANDIDATES + 1],
    /// The rows, columns and colours of the queens placed, for the structural rules (see
    /// `Rules`).
    held: Held,
    rules: Rules,
    /// The limit at which the parent checked the rules for the node about to be searched
    /// (`usize::MAX`: not checked), so that the node does not run the border test again; read
    /// once, by the node's `search` and `expand`.
    rules_screened: usize,
}

impl<'a, const W: usize> Searcher<'a, W> {
    pub fn new(
        geo: &'a Geometry<W>,
        shared: &'a Shared,
        recorder: Option<&'a dyn Recorder>,
        problem: Problem,
        path: u64,
    ) -> Self {
        let n = geo.board.squares();
        let Scratch {
            line_uncovered,
            mut cov,
            mut by_cov,
        } = Scratch::take();
        // A row of coverages is written whole, past the board's last square too.
        cov.resize(n + ROW, 0);
        by_cov.resize(n, 0);
        Searcher {
            geo,
            shared,
            recorder,
            tally: Tally::default(),
            independent: problem.forbids_attacks(),
            path,
            nodes: 0,
            queens: [0; MAX_QUEENS],
            depth: 0,
            line_uncovered,
            line_forbidden: [0; LINE_SLOTS],
            line_scratch: [0; LINE_SLOTS],
            cov,
            by_cov,
            bucket_start: vec![0; MAX_CANDIDATES + 2],
            long_family: match geo.board.rows().cmp(&geo.board.cols()) {
                std::cmp::Ordering::Less => Some(0),
                std::cmp::Ordering::Greater => Some(1),
                std::cmp::Ordering::Equal => None,
            },
            exact_forcing: {
                let (rows, cols) = (geo.board.rows(), geo.board.cols());
                10 * rows.min(cols) <= 7 * rows.max(cols)
            },
            forced: [0; MAX_QUEENS + 2],
            top_cov: None,
            cov_generation: 1,
            strong: [Bits::EMPTY; MAX_CANDIDATES + 1],
            strong_generation: [0; MAX_CANDIDATES + 1],
            held: Held::default(),
            rules: Rules::new(geo.board),
            rules_screened: usize::MAX,
        }
    }

    /// Place the searcher at the root of a part: its queens and its forbidden squares.
    pub fn enter(&mut self, queens: &[u16], node: &Node<W>) {
        self.queens[..queens.len()].copy_from_slice(queens);
        self.depth = queens.len();
        self.held = queens
            .iter()
            .fold(Held::default(), |h, &q| h.with(self.geo, q as usize));
        count_lines(self.geo, &node.forbidden, &mut self.line_forbidden);
    }

    /// Most queens a layout found here may have to still be worth reporting.
    #[inline(always)]
    pub fn limit(&self) -> usize {
        Key(self.shared.best.load(Relaxed)).limit_for(self.path)
    }

    pub fn record_layout(&mut self) {
        match self.recorder {
            // A part that starts below the limit (a second-queen part when counting layouts of
            // one queen) may still cover the board: that is no layout within the limit.
            Some(_) if self.depth > self.limit() => {}
            Some(recorder) => recorder.record(&self.queens[..self.depth], &mut self.tally),
            None => self
                .shared
                .offer(Key::new(self.depth, self.path), &self.queens[..self.depth]),
        }
    }

    #[inline(always)]
    fn forbid(&mut self, forbidden: &mut Bits<W>, v: usize) {
        forbidden.set(v);
        for l in self.geo.lines[v] {
            self.line_forbidden[l as usize] += 1;
        }
    }

    #[inline(always)]
    fn release(&mut self, v: usize) {
        for l in self.geo.lines[v] {
            self.line_forbidden[l as usize] -= 1;
        }
    }

    /// The squares that may still take a queen.
    #[inline(always)]
    fn allowed(&self, node: &Node<W>, uncovered: &Bits<W>) -> Bits<W> {
        if self.independent {
            uncovered.minus(&node.forbidden)
        } else {
            self.geo.full.minus(&node.forbidden)
        }
    }

    /// The uncovered square with the fewest candidate queens (lowest index on ties), or `None` if
    /// some uncovered square has no candidate left.
    ///
    /// A square's candidates are the allowed squares on its four lines, less itself three times
    /// if it is allowed. Like the coverages (`row_coverages`), a row's counts are four runs of
    /// per-line counters added lane by lane; squares that need no queen count as 0xFF, and the
    /// first row whose least count beats the best so far gives the square.
    fn branch_square(
        &mut self,
        node: &Node<W>,
        uncovered: &Bits<W>,
        allowed: &Bits<W>,
    ) -> Option<usize> {
        let geo = self.geo;
        // Allowed squares per line: all squares less forbidden ones (domination), or uncovered
        // squares less forbidden ones (independent domination).
        let (base, minus) = if self.independent {
            count_lines(geo, &uncovered.and(&node.forbidden), &mut self.line_scratch);
            (&self.line_uncovered[self.depth], &self.line_scratch)
        } else {
            (&geo.line_len, &self.line_forbidden)
        };
        let mut free = [0u8; LINE_SLOTS];
        for i in 0..LINE_SLOTS {
            free[i] = base[i] - minus[i];
        }
        let (rows, cols) = (geo.board.rows(), geo.board.cols());
        let [_, col_slot, diag_slot, anti_slot] = LINE_FAMILY_OFFSET;
        let columns: &[u8; ROW] = free[col_slot..col_slot + ROW].try_into().expect("32 slots");
        let mut best = (u8::MAX, usize::MAX);
        for r in 0..rows {
            let unc_bits = uncovered.extract(r * cols, cols) as u32;
            if unc_bits == 0 {
                continue;
            }
            let unc = byte_mask(unc_bits);
            let alw = byte_mask(allowed.extract(r * cols, cols) as u32);
            let d = diag_slot + rows - 1 - r;
            let a = anti_slot + r;
            let diag: &[u8; ROW] = free[d..d + ROW].try_into().expect("32 slots");
            let anti: &[u8; ROW] = free[a..a + ROW].try_into().expect("32 slots");
            let mut count = [0u8; ROW];
            for i in 0..ROW {
                count[i] = free[r]
                    .wrapping_add(columns[i])
                    .wrapping_add(diag[i])
                    .wrapping_add(anti[i])
                    .wrapping_sub(alw[i] & 3)
                    | !unc[i];
            }
            let least = count.iter().copied().fold(u8::MAX, u8::min);
            if least < best.0 {
                let mut at = 0u32;
                for (i, &c) in count.iter().enumerate() {
                    at |= ((c == least) as u32) << i;
                }
                best = (least, r * cols + at.trailing_zeros() as usize);
                if least == 0 {
                    return None;
                }
            }
        }
        Some(best.1)
    }

    /// Expand `node`; on `Branch(n)`, `cands[..n]` holds the candidates in search order.
    /// `screened` is the number of remaining queens the parent already checked the line bound for,
    /// with this node's line counts already in place (0: nothing known).
    pub fn expand(
        &mut self,
        node: &Node<W>,
        cands: &mut [u16; MAX_CANDIDATES],
        screened: usize,
    ) -> Expansion {
        self.nodes += 1;
        self.top_cov = None;
        let geo = self.geo;
        let uncovered = geo.full.minus(&node.covered);
        if uncovered.is_empty() {
            return Expansion::Layout;
        }
        let limit = self.limit();
        let screened_rules = std::mem::replace(&mut self.rules_screened, usize::MAX) == limit;
        if self.depth >= limit || !screened_rules && self.rules_broken(limit) {
            return Expansion::Pruned;
        }
        let remaining = limit - self.depth;

        // Uncovered squares per line: the line bound first, as it is the cheapest.
        let need = if screened == 0 {
            count_lines(geo, &uncovered, &mut self.line_uncovered[self.depth])
        } else {
            uncovered.count() as usize
        };
        if screened != remaining && self.line_bound_exceeds(self.depth, need, remaining) {
            return Expansion::Pruned;
        }

        let allowed = self.allowed(node, &uncovered);
        self.forced[self.depth] = 0;
        if self.exact_forcing
            && remaining <= EXACT_FORCING_MAX_REMAINING
            && self.forcing_bound_exceeds(&uncovered, &allowed, need, remaining)
        {
            return Expansion::Pruned;
        }
        let Some(best_square) = self.branch_square(node, &uncovered, &allowed) else {
            return Expansion::Pruned;
        };
        let mut branch = geo.cover[best_square].and(&allowed);
        if remaining >= 2 && self.coverage_bound_exceeds(&uncovered, need, &allowed, remaining) {
            return Expansion::Pruned;
        }
        let mut n = 0;
        if let Some(family) = self.long_family {
            // The candidates on the branching square's long line first: once they are tried and
            // forbidden, the line can only be covered from outside, and the line-forcing bound
            // cuts the later siblings early (9x22, no 8 queens: 1.06M nodes against 1.40M).
            let line = geo.line_squares[geo.lines[best_square][family] as usize];
            line.and(&branch).for_each(|v| {
                cands[n] = v as u16;
                n += 1;
            });
            branch = branch.minus(&line);
        }
        branch.for_each(|v| {
            cands[n] = v as u16;
            n += 1;
        });
        Expansion::Branch(n)
    }

    /// The candidates of `node` in search order, as [`Searcher::expand`] gives them, but without
    /// any bound: the children of a node depend on its state only, so that a part of the tree can
    /// be named by the positions of its queens among these candidates (see `space`). `None` when
    /// every square is covered or some uncovered square has no candidate left.
    pub fn candidates(
        &mut self,
        node: &Node<W>,
        cands: &mut [u16; MAX_CANDIDATES],
    ) -> Option<usize> {
        let geo = self.geo;
        let uncovered = geo.full.minus(&node.covered);
        if uncovered.is_empty() {
            return None;
        }
        count_lines(geo, &uncovered, &mut self.line_uncovered[self.depth]);
        let allowed = self.allowed(node, &uncovered);
        let square = self.branch_square(node, &uncovered, &allowed)?;
        let mut n = 0;
        geo.cover[square].and(&allowed).for_each(|v| {
            cands[n] = v as u16;
            n += 1;
        });
        Some(n)
    }

    /// Search the subtree of `node` (whose queens are `queens[..depth]`, whose forbidden squares are
    /// counted in `line_forbidden`) to the end; `screened` as for [`Searcher::expand`];
    /// `cover_cap`: the most uncovered squares one queen of this subtree can cover, if the parent
    /// knows it (`usize::MAX` otherwise); `cov_generation`: the `cov_generation` of the parent's
    /// coverages (0: none), which this node may read while no other node has overwritten them.
    pub fn search(
        &mut self,
        node: Node<W>,
        screened: usize,
        cover_cap: usize,
        cov_generation: u64,
    ) {
        if self.nodes.is_multiple_of(CANCEL_POLL) && self.shared.should_stop() {
            return;
        }
        let limit = self.limit();
        if self.depth < limit && limit - self.depth <= FINISH_REMAINING {
            let screened_rules = std::mem::replace(&mut self.rules_screened, usize::MAX) == limit;
            if !screened_rules && self.rules_broken(limit) {
                // A node like any other pruned at its root (as `expand` counts it).
                self.nodes += 1;
            } else {
                self.finish(&node, cover_cap, cov_generation);
            }
            return;
        }
        let mut cands = [0u16; MAX_CANDIDATES];
        let n = match self.expand(&node, &mut cands, screened) {
            Expansion::Layout => {
                self.record_layout();
                return;
            }
            Expansion::Pruned => return,
            Expansion::Branch(n) => n,
        };
        let geo = self.geo;
        let uncovered = geo.full.minus(&node.covered);
        let need = uncovered.count() as usize;
        let mut forbidden = node.forbidden;
        // The children's coverages, read before the first child overwrites them (see
        // `child_lacks_coverage`). Without them (the bound was lowered under `expand` before its
        // coverage bound ran) nothing is screened.
        let top_cov = self.top_cov;
        let mut cand_cov = [0u8; MAX_CANDIDATES];
        if top_cov.is_some() {
            for (c, &v) in cand_cov.iter_mut().zip(&cands[..n]) {
                *c = self.cov[v as usize];
            }
        }
        let cover_cap = top_cov.map_or(usize::MAX, |top| top[0] as usize);
        // A child that is expanded overwrites `cov` (and bumps the generation): its later
        // siblings, searched once the limit fell, must not read it as this node's.
        let cov_generation = if top_cov.is_some() {
            self.cov_generation
        } else {
            0
        };
        // Children that place their last queens (`finish`) never count candidates, so their
        // siblings are forbidden without the per-line counts (the limit only falls, so this
        // holds for every child once it holds for the first).
        let children_finish = self.limit() <= self.depth + 1 + FINISH_REMAINING;
        let mut tried = 0;
        for (&v, &v_cov) in cands[..n].iter().zip(&cand_cov) {
            let v = v as usize;
            let limit = self.limit();
            if self.depth + 1 > limit {
                break;
            }
            tried += 1;
            let child_remaining = limit - self.depth - 1;
            // A child with two queens left places them exactly (`finish`), at about the cost
            // of its line bound, and needs no line counts: the line bound before it cost more
            // than the children it cut (γ(Q_15): 0.79 times the CPU without it).
            let finishes = child_remaining <= FINISH_REMAINING;
            let hopeless = top_cov
                .is_some_and(|top| child_lacks_coverage(&top, v_cov, need, child_remaining))
                || self.child_breaks_rules(v, limit)
                || if finishes {
                    // (A `v` that covers the rest is a layout, as in `child_is_hopeless`.)
                    self.child_loses_forced_lines(v, child_remaining)
                        && !uncovered.minus(&geo.cover[v]).is_empty()
                } else {
                    self.child_is_hopeless(&uncovered, need, v, child_remaining)
                };
            if !hopeless {
                self.queens[self.depth] = v as u16;
                self.depth += 1;
                let held = self.held;
                self.held = held.with(geo, v);
                self.rules_screened = limit;
                self.search(
                    Node {
                        covered: node.covered.or(&geo.cover[v]),
                        forbidden,
                    },
                    if finishes { 0 } else { child_remaining },
                    cover_cap,
                    cov_generation,
                );
                self.held = held;
                self.depth -= 1;
            }
            if children_finish {
                forbidden.set(v);
            } else {
                self.forbid(&mut forbidden, v);
            }
        }
        if !children_finish {
            for &v in &cands[..tried] {
                self.release(v as usize);
            }
        }
    }
}

impl<const W: usize> Drop for Searcher<'_, W> {
    fn drop(&mut self) {
        if let Some(recorder) = self.recorder {
            recorder.flush(&mut self.tally);
        }
        Scratch {
            line_uncovered: std::mem::take(&mut self.line_uncovered),
            cov: std::mem::take(&mut self.cov),
            by_cov: std::mem::take(&mut self.by_cov),
        }
        .give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShift;

    /// `branch_square` against the plain scan of the uncovered squares, on random nodes of both
    /// problems.
    fn branch_squares_agree_on<const W: usize>(rows: usize, cols: usize, seed: u64) {
        use crate::board::Board;
        let board = Board::new(rows, cols).unwrap();
        let geo = Geometry::<W>::new(board);
        let shared = Shared::new(Key::new(MAX_QUEENS, 0), None, None);
        let n = board.squares();
        let mut rng = XorShift::new(seed | 1);
        let mut next = move || rng.next();
        for problem in Problem::ALL {
            let mut searcher = Searcher::new(&geo, &shared, None, problem, 0);
            for case in 0..60 {
                let mut node = Node {
                    covered: Bits::<W>::EMPTY,
                    forbidden: Bits::<W>::EMPTY,
                };
                let (pc, pf) = (case % 7, case % 5);
                for s in 0..n {
                    if next() % 8 < pc {
                        node.covered.set(s);
                    }
                    if next() % 7 < pf {
                        node.forbidden.set(s);
                    }
                }
                let uncovered = geo.full.minus(&node.covered);
                if uncovered.is_empty() {
                    // The search asks only while some square is uncovered.
                    continue;
                }
                count_lines(&geo, &node.forbidden, &mut searcher.line_forbidden);
                count_lines(&geo, &uncovered, &mut searcher.line_uncovered[0]);
                let allowed = searcher.allowed(&node, &uncovered);
                // The scan: fewest candidates, lowest square first, none if a square has none.
                let mut want = None;
                let mut fewest = usize::MAX;
                for u in uncovered.ones() {
                    let c = geo.cover[u].count_and(&allowed) as usize;
                    if c < fewest {
                        (fewest, want) = (c, Some(u));
                    }
                }
                if fewest == 0 {
                    want = None;
                }
                let got = searcher.branch_square(&node, &uncovered, &allowed);
                assert_eq!(got, want, "{board} {problem} case {case}");
            }
        }
    }

    #[test]
    fn branch_squares_agree_with_a_scan_of_the_uncovered_squares() {
        let boards = [
            (1, 1),
            (1, 32),
            (32, 1),
            (7, 9),
            (15, 15),
            (12, 21),
            (20, 19),
            (32, 32),
        ];
        for (seed, (rows, cols)) in (1..).zip(boards) {
            at_board_width!(branch_squares_agree_on, rows, cols, seed);
        }
    }
}
