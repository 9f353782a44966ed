//! The sequential branch-and-bound kernel: branch on the uncovered square with the fewest candidate
//! queens, try each candidate, forbid it after its subtree. No allocation, no I/O.
//!
//! Order matters for reproducibility: the square branched on and the order of its candidates depend
//! only on the node's state (covered and forbidden squares), never on the bound, which other workers
//! change at any moment. Bounds only remove subtrees, so the first optimal layout in this fixed order
//! is the same whatever the timing. The fast path for the last two queens keeps that order too.

use std::cell::RefCell;
use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Bits, Board, Geometry, LINE_FAMILY_OFFSET, LINE_SLOTS, MAX_SIDE};
use crate::problem::Problem;

use super::bounds::{self, FamilyMasks, HalfColours};
use super::count::{Recorder, Tally};
use super::shared::{Key, Shared};

/// Most queens a layout can hold: every board up to 32×32 is dominated by at most 32 queens (a full
/// column), and any independent set has at most one queen per row.
pub(crate) const MAX_QUEENS: usize = 32;

/// Most candidates a square can have: its row, column and two diagonals on a 32×32 board.
pub(crate) const MAX_CANDIDATES: usize = 128;

/// Most queens still to place at which the exact line-forcing test runs: deeper in the tree it
/// prunes most, higher up its exact-cover search costs more than it saves (measured on 8x20, 9x18
/// and 9x22: nodes and instructions flat from 6 on).
const EXACT_FORCING_MAX_REMAINING: usize = 6;

/// Fewest queens still to place at which Bird's bound runs. Deeper, the children's screening (the
/// max-coverage and line bounds from the parent's counts) and the last two queens' exact placement
/// cut almost every subtree it would, at less cost: without it at 3 and 4 queens left γ(Q_15)
/// searches a few more nodes in 9% less CPU (docs/performance.md has the other boards).
const BIRD_MIN_REMAINING: usize = 5;

/// Most collision slack at which the border test (`bounds::border_waste_exceeds`) runs: with more,
/// the waste it allows is rarely exceeded. `count 13x13 -j 1` (budget 4): 0.47 CPU s with 2, 0.63
/// with every slack, 0.34 without the test; `solve 16x16 -j 1` 3.04 M nodes with 2, 4.00 M with 1.
/// It does not run where at most `FINISH_REMAINING` queens are left: see `Rules::broken`.
const BORDER_MAX_SLACK: i64 = 2;

/// Most queens left at which a node places them exactly (`Searcher::finish`) rather than branch.
const FINISH_REMAINING: usize = 2;

/// How often (in nodes) a worker looks at the cancel flag.
const CANCEL_POLL: u64 = 1 << 12;

/// Lines of one family, padded: the slots past a family's last line always count 0.
pub(super) const FAMILY_SLOTS: usize = 64;

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

/// The lines holding a queen (rows, columns, diagonals, anti-diagonals), the collisions (for each
/// family, queens less the distinct lines they stand on, summed) and the queens on odd squares
/// (row + column odd) of a partial layout.
#[derive(Clone, Copy, Default)]
pub(crate) struct Held {
    rows: u32,
    cols: u32,
    diags: u64,
    antis: u64,
    collisions: u32,
    odd: u32,
}

/// The structural rules of `bounds` for one board: the collision budget
/// (`bounds::collision_budget`) and the colour rule (`bounds::half_colours`), which holds at
/// `limit == colour_limit` only.
struct Rules {
    board: Board,
    colours: Option<HalfColours>,
    colour_limit: usize,
}

impl Rules {
    fn new(board: Board) -> Rules {
        let colour_limit = board.rows() / 2;
        Rules {
            board,
            colours: bounds::half_colours(board, colour_limit),
            colour_limit,
        }
    }

    /// How many more collisions a layout within `limit` may have beside `held`'s (negative: it is
    /// over already); `None` when the budget does not apply.
    #[inline(always)]
    fn collision_slack(&self, held: &Held, limit: usize) -> Option<i64> {
        bounds::collision_budget(self.board, limit).map(|budget| budget - held.collisions as i64)
    }

    #[inline(always)]
    fn colours(&self, limit: usize) -> Option<HalfColours> {
        self.colours.filter(|_| limit == self.colour_limit)
    }

    /// Whether the queens of `held` (`depth` of them) already break a rule for layouts of at
    /// most `limit` queens: the collision budget, the border its slack leaves
    /// (`bounds::border_waste_exceeds`), the colours.
    ///
    /// Not the border test where the last queens are placed by `finish`: it refutes them at
    /// about the test's cost, and nearly every layout the test would cut `finish` cuts too (a
    /// γ(Q_24) part: 5,360,564 nodes against 5,358,047, the same CPU), while counts paid the
    /// test on every such child (`count 13x13 -j 1` 0.24 CPU s against 0.29).
    #[inline(always)]
    fn broken(&self, held: &Held, depth: usize, limit: usize) -> bool {
        self.collision_slack(held, limit).is_some_and(|s| {
            s < 0
                || s <= BORDER_MAX_SLACK
                    && limit - depth > FINISH_REMAINING
                    && bounds::border_waste_exceeds(
                        self.board,
                        [held.rows.into(), held.cols.into(), held.diags, held.antis],
                        s,
                        limit - depth,
                    )
        }) || self
            .colours(limit)
            .is_some_and(|c| c.exceeded(held.odd as usize, depth - held.odd as usize))
    }
}

impl Held {
    /// `self` with a queen added on square `v`.
    #[inline(always)]
    fn with<const W: usize>(self, geo: &Geometry<W>, v: usize) -> Held {
        let [r, c, d, a] = geo.lines[v];
        let r = r as u32;
        let c = c as u32 - LINE_FAMILY_OFFSET[1] as u32;
        let d = d as u32 - LINE_FAMILY_OFFSET[2] as u32;
        let a = a as u32 - LINE_FAMILY_OFFSET[3] as u32;
        Held {
            rows: self.rows | 1 << r,
            cols: self.cols | 1 << c,
            diags: self.diags | 1 << d,
            antis: self.antis | 1 << a,
            collisions: self.collisions
                + (self.rows >> r & 1)
                + (self.cols >> c & 1)
                + (self.diags >> d & 1) as u32
                + (self.antis >> a & 1) as u32,
            odd: self.odd + (r + c) % 2,
        }
    }
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
        let scratch = SCRATCH
            .with(|pool| pool.borrow_mut().pop())
            .unwrap_or_else(Scratch::new);
        let Scratch {
            line_uncovered,
            mut cov,
            mut by_cov,
        } = scratch;
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

    /// Whether the queens placed break a structural rule (`Rules`) for the current limit.
    #[inline(always)]
    fn rules_broken(&self, limit: usize) -> bool {
        self.rules.broken(&self.held, self.depth, limit)
    }

    /// Whether the child placing `v` breaks a structural rule for layouts within `limit`.
    #[inline(always)]
    pub fn child_breaks_rules(&self, v: usize, limit: usize) -> bool {
        self.rules
            .broken(&self.held.with(self.geo, v), self.depth + 1, limit)
    }

    /// The squares a further queen may not take by the structural rules, beside the queens of
    /// `held` (`depth` of them); `None` when none is barred.
    fn barred_squares(&self, held: &Held, depth: usize, limit: usize) -> Option<Bits<W>> {
        let geo = self.geo;
        let mut barred = None::<Bits<W>>;
        let mut bar = |set: Bits<W>| {
            barred = Some(barred.map_or(set, |b| b.or(&set)));
        };
        match self.rules.collision_slack(held, limit) {
            Some(slack) if slack < 0 => return Some(geo.full),
            Some(slack) if slack < 2 => {
                // A square in `ones` shares a line with a queen, in `twos` two or more.
                let (mut ones, mut twos) = (Bits::EMPTY, Bits::EMPTY);
                let mut add = |line: usize| {
                    let set = &geo.line_squares[line];
                    twos = twos.or(&ones.and(set));
                    ones = ones.or(set);
                };
                for r in ones32(held.rows) {
                    add(LINE_FAMILY_OFFSET[0] + r);
                }
                for c in ones32(held.cols) {
                    add(LINE_FAMILY_OFFSET[1] + c);
                }
                for d in ones64(held.diags) {
                    add(LINE_FAMILY_OFFSET[2] + d);
                }
                for a in ones64(held.antis) {
                    add(LINE_FAMILY_OFFSET[3] + a);
                }
                // One collision left: a queen may share one line with the queens, not two.
                bar(if slack == 0 { ones } else { twos });
            }
            _ => {}
        }
        if let Some(colours) = self.rules.colours(limit) {
            let (odd, even) = (held.odd as usize, depth - held.odd as usize);
            if colours.exceeded(odd + 1, even) {
                bar(geo.odd_squares);
            }
            if colours.exceeded(odd, even + 1) {
                bar(geo.full.minus(&geo.odd_squares));
            }
        }
        barred
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

    /// The line bound: each queen lies on one row, one column, one diagonal and one anti-diagonal,
    /// so `remaining` queens cover at most the `remaining` fullest lines of each family.
    fn line_bound_exceeds(&self, depth: usize, need: usize, remaining: usize) -> bool {
        let counts = &self.line_uncovered[depth];
        if bounds::too_many_full_lines(counts, remaining) {
            return true;
        }
        let mut reach = 0usize;
        for offset in LINE_FAMILY_OFFSET {
            let family: &[u8; FAMILY_SLOTS] = counts[offset..offset + FAMILY_SLOTS]
                .try_into()
                .expect("families are 64 slots wide");
            reach += top_sum(family, remaining);
            if reach >= need {
                return false;
            }
        }
        true
    }

    /// The exact line-forcing bound on the long lines (see `bounds::FamilyMasks`); records the
    /// node's forced lines for screening its children.
    fn forcing_bound_exceeds(
        &mut self,
        uncovered: &Bits<W>,
        allowed: &Bits<W>,
        need: usize,
        remaining: usize,
    ) -> bool {
        let geo = self.geo;
        let Some(family) = self.long_family else {
            return false;
        };
        let masks = if family == 0 {
            FamilyMasks::rows(geo, uncovered, allowed)
        } else {
            FamilyMasks::cols(geo, uncovered, allowed)
        };
        let counts = &self.line_uncovered[self.depth];
        let forced = masks.forced(&counts[LINE_FAMILY_OFFSET[family]..], remaining);
        self.forced[self.depth] = forced.lines;
        bounds::forcing_bound_exceeds(&masks, family, forced, counts, need, remaining)
    }

    /// Whether `uncovered` provably needs more than `remaining` queens from `allowed`:
    /// - max coverage: the `remaining` largest coverages must add up to `|uncovered|`;
    /// - Bird's bound: every uncovered square u needs a queen covering at most maxcov(u) uncovered
    ///   squares, so Σ_u 1/maxcov(u) ≤ remaining (each queen contributes at most 1 to the sum); only
    ///   with at least [`BIRD_MIN_REMAINING`] queens left.
    fn coverage_bound_exceeds(
        &mut self,
        uncovered: &Bits<W>,
        need: usize,
        allowed: &Bits<W>,
        remaining: usize,
    ) -> bool {
        self.cov_generation += 1;
        if remaining <= ROW_TOP {
            let largest = self.row_coverages(uncovered, allowed);
            let sum: usize = largest[..remaining].iter().map(|&c| c as usize).sum();
            if sum < need {
                return true;
            }
            // The children have fewer than ROW_TOP queens left, so their screening reads only
            // these (see `child_lacks_coverage`).
            let mut top = [0u8; TOP_COVERAGES];
            top[..ROW_TOP].copy_from_slice(&largest);
            self.top_cov = Some(top);
            return false;
        }
        let geo = self.geo;
        let mut hist = [0u16; MAX_CANDIDATES + 1];
        let mut max_cov = 0usize;
        let lu = &self.line_uncovered[self.depth];
        allowed.for_each(|v| {
            let mut cov = 0usize;
            for l in geo.lines[v] {
                cov += lu[l as usize] as usize;
            }
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
        let mut top = [0u8; TOP_COVERAGES];
        let (mut c, mut i) = (max_cov, 0);
        while c > 0 && i < TOP_COVERAGES {
            let take = (hist[c] as usize).min(TOP_COVERAGES - i);
            top[i..i + take].fill(c as u8);
            i += take;
            c -= 1;
        }
        self.top_cov = Some(top);

        if remaining < BIRD_MIN_REMAINING {
            return false;
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

    /// The coverage of every allowed square into `cov` (0 on the other squares; entries past the
    /// board are scratch), and the [`ROW_TOP`] largest coverages, largest first, with
    /// multiplicity. A row of the board at a time: along a row the counters of the columns and of
    /// both diagonal families are consecutive (see `Geometry::lines`), so a row's coverages are
    /// four runs of counters added lane by lane, and a running top four per lane keeps the
    /// largest without a histogram (whose increments of one bin wait on each other).
    fn row_coverages(&mut self, uncovered: &Bits<W>, allowed: &Bits<W>) -> [u8; ROW_TOP] {
        let (rows, cols) = (self.geo.board.rows(), self.geo.board.cols());
        let lu = &self.line_uncovered[self.depth];
        let [_, col_slot, diag_slot, anti_slot] = LINE_FAMILY_OFFSET;
        let columns: &[u8; ROW] = lu[col_slot..col_slot + ROW].try_into().expect("32 slots");
        // top[k][lane]: the k-th largest coverage seen in this lane (column), k = 0 the largest.
        let mut top = [[0u8; ROW]; ROW_TOP];
        for r in 0..rows {
            let unc = byte_mask(uncovered.extract(r * cols, cols) as u32);
            let alw = byte_mask(allowed.extract(r * cols, cols) as u32);
            let row = lu[r];
            let d = diag_slot + rows - 1 - r;
            let a = anti_slot + r;
            let diag: &[u8; ROW] = lu[d..d + ROW].try_into().expect("32 slots");
            let anti: &[u8; ROW] = lu[a..a + ROW].try_into().expect("32 slots");
            let mut cov = [0u8; ROW];
            for i in 0..ROW {
                // An uncovered square is counted on each of its four lines: once is enough.
                // Lanes past the row's end and squares that may not take a queen are masked out
                // (their sums are meaningless and may wrap).
                cov[i] = row
                    .wrapping_add(columns[i])
                    .wrapping_add(diag[i])
                    .wrapping_add(anti[i])
                    .wrapping_sub(unc[i] & 3)
                    & alw[i];
            }
            self.cov[r * cols..r * cols + ROW].copy_from_slice(&cov);
            for i in 0..ROW {
                let x = cov[i];
                for k in (1..ROW_TOP).rev() {
                    top[k][i] = top[k][i].max(top[k - 1][i].min(x));
                }
                top[0][i] = top[0][i].max(x);
            }
        }
        // Merge the lanes in halves: the k-th largest of two sorted lists a, b is the largest of
        // min(a[i - 1], b[j - 1]) over i + j = k + 1 (a[-1] = b[-1] = ∞).
        let mut width = ROW;
        while width > 1 {
            width /= 2;
            for i in 0..width {
                let a: [u8; ROW_TOP] = std::array::from_fn(|k| top[k][i]);
                let b: [u8; ROW_TOP] = std::array::from_fn(|k| top[k][i + width]);
                for k in 0..ROW_TOP {
                    let mut m = a[k].max(b[k]);
                    for j in 0..k {
                        m = m.max(a[k - 1 - j].min(b[j]));
                    }
                    top[k][i] = m;
                }
            }
        }
        std::array::from_fn(|k| top[k][0])
    }

    /// The squares whose coverage in `cov` is at least `t`, from the last coverage bound
    /// (computed once per bound and threshold: the children of one node ask for a few).
    fn strong_squares(&mut self, t: usize) -> Bits<W> {
        let t = t.min(MAX_CANDIDATES);
        if self.strong_generation[t] == self.cov_generation {
            return self.strong[t];
        }
        let (rows, cols) = (self.geo.board.rows(), self.geo.board.cols());
        let within = u32::MAX >> (ROW - cols);
        // Only the chunks that hold the board's columns: on 9..16 columns half of them.
        let chunks = cols.div_ceil(8);
        let mut set = Bits::EMPTY;
        for r in 0..rows {
            let row: &[u8; ROW] = self.cov[r * cols..r * cols + ROW]
                .try_into()
                .expect("32 coverages");
            let mut bits = 0u32;
            for (k, chunk) in row.chunks_exact(8).take(chunks).enumerate() {
                let x = u64::from_le_bytes(chunk.try_into().expect("8 coverages"));
                bits |= (bytes_at_least(x, t as u8) as u32) << (8 * k);
            }
            set.insert(r * cols, (bits & within) as u64);
        }
        self.strong[t] = set;
        self.strong_generation[t] = self.cov_generation;
        set
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

    /// Whether the child that places `v` (with `child_remaining` queens after it) fails the line
    /// bound, computed from this node's line counts (`need` = |uncovered|). Leaves the child's line
    /// counts in place for it.
    pub fn child_is_hopeless(
        &mut self,
        uncovered: &Bits<W>,
        need: usize,
        v: usize,
        child_remaining: usize,
    ) -> bool {
        let geo = self.geo;
        let (here, next) = self.line_uncovered.split_at_mut(self.depth + 1);
        let child = &mut next[0];
        *child = here[self.depth];
        let newly = uncovered.and(&geo.cover[v]);
        newly.for_each(|u| {
            for l in geo.lines[u] {
                child[l as usize] -= 1;
            }
        });
        let child_need = need - newly.count() as usize;
        if child_need == 0 {
            return false;
        }
        self.child_loses_forced_lines(v, child_remaining)
            || child_remaining == 0
            || self.line_bound_exceeds(self.depth + 1, child_need, child_remaining)
    }

    /// Whether the child that places `v` keeps more of this node's forced lines than it has
    /// queens left: a forced line stays forced below this node unless `v` stands on it.
    #[inline(always)]
    fn child_loses_forced_lines(&self, v: usize, child_remaining: usize) -> bool {
        let Some(family) = self.long_family else {
            return false;
        };
        let line = self.geo.lines[v][family] as usize - LINE_FAMILY_OFFSET[family];
        let forced = self.forced[self.depth] & !(1 << line);
        forced.count_ones() as usize > child_remaining
    }

    /// The last one or two queens, without a node per candidate: for each candidate `v` of the
    /// lowest uncovered square (in order), either `v` covers the rest, or the second queen must lie
    /// in the cover of every square `v` leaves uncovered, and the lowest such square is taken.
    ///
    /// Any uncovered square will do, since every completion covers it. The general search's
    /// choice, the square with the fewest candidates, costs more here than the candidates it
    /// saves (i(Q_15): 1.28 times the CPU with it, for the same nodes).
    fn finish(&mut self, node: &Node<W>, cover_cap: usize, cov_generation: u64) {
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

/// How many of a node's largest coverages are kept for screening its children: enough for
/// children with up to `TOP_COVERAGES - 1` queens left.
const TOP_COVERAGES: usize = 5;

/// Lanes of a row of coverages: the longest row.
const ROW: usize = MAX_SIDE;

/// Most queens left at which the coverages are taken a row at a time (`row_coverages`), with
/// only the largest few kept: where most nodes are, and where neither Bird's bound (which needs
/// every coverage sorted) nor children with more queens left need more.
const ROW_TOP: usize = 4;
const _: () = assert!(ROW_TOP < BIRD_MIN_REMAINING && ROW_TOP < TOP_COVERAGES);

/// Bit i: whether byte i of `x` is at least `t`, for bytes below 128 and `t` ≤ 128 (coverages
/// are at most 4·32 − 3). Eight compares in one word: byte i of (x | 0x80..) − t·0x01.. keeps
/// its top bit exactly when x_i + 128 − t ≥ 128, and no byte borrows from the next.
#[inline(always)]
fn bytes_at_least(x: u64, t: u8) -> u8 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ge = ((x | HIGH) - ONES * t as u64) & HIGH;
    // Gather the eight top bits into one byte.
    ((ge >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The positions of the set bits of `mask`, lowest first.
#[inline(always)]
fn ones64(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[inline(always)]
fn ones32(mask: u32) -> impl Iterator<Item = usize> {
    ones64(mask.into())
}

/// Bit i of `bits` as byte i: 0xFF if set, 0 if not.
#[inline(always)]
fn byte_mask(bits: u32) -> [u8; ROW] {
    let mut out = [0u8; ROW];
    for (chunk, byte) in out.chunks_exact_mut(8).zip(bits.to_le_bytes()) {
        chunk.copy_from_slice(&BYTE_MASKS[byte as usize].to_le_bytes());
    }
    out
}

/// `BYTE_MASKS[b]`: byte i is 0xFF where bit i of b is set.
static BYTE_MASKS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Whether the child placing a queen of coverage `v_cov` (of this node's `need` uncovered squares)
/// cannot be completed by `child_remaining` more queens: a square's coverage never grows down the
/// tree, so the later queens cover at most the `child_remaining` largest of this node's coverages
/// (`top_cov`, largest first, over the node's allowed squares, `v` among them) other than `v`'s,
/// and that must reach what `v` leaves uncovered. It is the child's own max-coverage bound with
/// this node's coverages, known before the child is entered; the last two queens get no coverage
/// bound of their own (`finish`), so there it is the only one.
#[inline(always)]
fn child_lacks_coverage(
    top_cov: &[u8; TOP_COVERAGES],
    v_cov: u8,
    need: usize,
    child_remaining: usize,
) -> bool {
    let k = child_remaining;
    if k >= TOP_COVERAGES {
        return false;
    }
    let x = v_cov as usize;
    let top: usize = top_cov[..k].iter().map(|&c| c as usize).sum();
    // When `v`'s coverage is among the k largest, one copy of it is `v` itself: drop it and take
    // the next largest instead.
    let reach = if k > 0 && x >= top_cov[k - 1] as usize {
        top - x + top_cov[k] as usize
    } else {
        top
    };
    reach + x < need
}

/// A searcher's large buffers, kept per thread between parts: parts are many and short, and every
/// entry is written before it is read, so a buffer from an earlier part is as good as a new one.
struct Scratch {
    line_uncovered: Vec<[u8; LINE_SLOTS]>,
    cov: Vec<u8>,
    by_cov: Vec<u16>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            line_uncovered: vec![[0; LINE_SLOTS]; MAX_QUEENS + 2],
            cov: Vec::new(),
            by_cov: Vec::new(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<Scratch>> = const { RefCell::new(Vec::new()) };
}

impl<const W: usize> Drop for Searcher<'_, W> {
    fn drop(&mut self) {
        if let Some(recorder) = self.recorder {
            recorder.flush(&mut self.tally);
        }
        let scratch = Scratch {
            line_uncovered: std::mem::take(&mut self.line_uncovered),
            cov: std::mem::take(&mut self.cov),
            by_cov: std::mem::take(&mut self.by_cov),
        };
        SCRATCH.with(|pool| pool.borrow_mut().push(scratch));
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

/// Sum of the `k` largest of `counts`. The fast paths (k = 1, 2) are where most nodes are: they
/// keep a running top two per byte lane over the fixed width (plain max/min, which vectorise) and
/// merge the lanes at the end.
#[inline(always)]
pub(super) fn top_sum(counts: &[u8; FAMILY_SLOTS], k: usize) -> usize {
    const LANES: usize = 16;
    match k {
        1 => counts.iter().copied().fold(0, u8::max) as usize,
        2 => {
            let mut first = [0u8; LANES];
            let mut second = [0u8; LANES];
            for chunk in counts.chunks_exact(LANES) {
                for i in 0..LANES {
                    let c = chunk[i];
                    second[i] = second[i].max(first[i].min(c));
                    first[i] = first[i].max(c);
                }
            }
            // Merge the lanes in halves, so that each step is again lane by lane: merged one at
            // a time, they compiled to chains of byte extracts and compares, and the line bound
            // took 21.7% of γ(Q_15)'s samples (17.6% so).
            let mut width = LANES;
            while width > 1 {
                width /= 2;
                for i in 0..width {
                    let (a, b) = (first[i], first[i + width]);
                    second[i] = second[i].max(second[i + width]).max(a.min(b));
                    first[i] = a.max(b);
                }
            }
            first[0] as usize + second[0] as usize
        }
        _ => {
            // The k-th largest count t, by binary search on how many lines hold at least t; the
            // sum is then every count above t and enough copies of t. Six passes of compares
            // over the family vectorise; a histogram of the counts would not, and its
            // increments of one bin (the empty lines, mostly) wait on each other (25% of 12x19's
            // time went there).
            const _: () = assert!(MAX_SIDE < 64, "the search steps reach counts up to 63");
            let at_least = |t: u8| counts.iter().map(|&c| (c >= t) as u8).sum::<u8>() as usize;
            let mut t = 0u8;
            for step in [32, 16, 8, 4, 2, 1] {
                if at_least(t + step) >= k {
                    t += step;
                }
            }
            let above: u16 = counts
                .iter()
                .map(|&c| if c > t { c as u16 } else { 0 })
                .sum();
            above as usize + (k - at_least(t + 1)) * t as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_short_of_coverage() {
        let top = [10, 8, 8, 5, 3];
        // k = 2 with the largest coverage: the others reach 8 + 8.
        assert!(child_lacks_coverage(&top, 10, 27, 2));
        assert!(!child_lacks_coverage(&top, 10, 26, 2));
        // One of two equal coverages: the other copy stays.
        assert!(child_lacks_coverage(&top, 8, 27, 2));
        assert!(!child_lacks_coverage(&top, 8, 26, 2));
        // Below the top two: they stay whole.
        assert!(child_lacks_coverage(&top, 5, 24, 2));
        assert!(!child_lacks_coverage(&top, 5, 23, 2));
        // k = 1 and k = 4.
        assert!(child_lacks_coverage(&top, 10, 19, 1));
        assert!(!child_lacks_coverage(&top, 10, 18, 1));
        assert!(!child_lacks_coverage(&top, 3, 13, 1));
        assert!(child_lacks_coverage(&top, 10, 35, 4));
        assert!(!child_lacks_coverage(&top, 10, 34, 4));
        // No queen left: only a queen covering everything completes the layout.
        assert!(child_lacks_coverage(&top, 9, 10, 0));
        assert!(!child_lacks_coverage(&top, 10, 10, 0));
        // More queens left than coverages kept: no claim.
        assert!(!child_lacks_coverage(&top, 1, 1000, TOP_COVERAGES));
    }

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
            let mut x = (rows * 1000 + cols) as u64 | 1;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
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

    /// `row_coverages` against the plain sum over each allowed square's four lines, and its
    /// largest four against a sort, on random nodes of boards from 1x1 to 32x32, thin and wide.
    fn row_coverages_agree_on<const W: usize>(rows: usize, cols: usize, seed: u64) {
        use crate::board::Board;
        let board = Board::new(rows, cols).unwrap();
        let geo = Geometry::<W>::new(board);
        let shared = Shared::new(Key::new(MAX_QUEENS, 0), None, None);
        let mut searcher = Searcher::new(&geo, &shared, None, Problem::Domination, 0);
        let n = board.squares();
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for case in 0..40 {
            let (mut uncovered, mut allowed) = (Bits::<W>::EMPTY, Bits::<W>::EMPTY);
            // Sparse to dense, as nodes are from the root to the leaves.
            let (pu, pa) = (1 + case % 7, 1 + case % 5);
            for s in 0..n {
                if next() % 8 < pu {
                    uncovered.set(s);
                }
                if next() % 6 < pa {
                    allowed.set(s);
                }
            }
            count_lines(&geo, &uncovered, &mut searcher.line_uncovered[0]);
            let largest = searcher.row_coverages(&uncovered, &allowed);
            let mut want = Vec::new();
            for s in 0..n {
                if !allowed.contains(s) {
                    assert_eq!(searcher.cov[s], 0, "{board} square {s}");
                    continue;
                }
                let cov = geo.cover[s].count_and(&uncovered) as u8;
                assert_eq!(searcher.cov[s], cov, "{board} case {case} square {s}");
                want.push(cov);
            }
            want.sort_unstable_by(|a, b| b.cmp(a));
            want.resize(want.len().max(ROW_TOP), 0);
            assert_eq!(largest[..], want[..ROW_TOP], "{board} case {case}");
        }
    }

    #[test]
    fn row_coverages_agree_with_the_squares_lines() {
        row_coverages_agree_on::<1>(1, 1, 1);
        row_coverages_agree_on::<1>(1, 32, 2);
        row_coverages_agree_on::<1>(32, 1, 3);
        row_coverages_agree_on::<1>(8, 8, 4);
        row_coverages_agree_on::<2>(5, 23, 5);
        row_coverages_agree_on::<4>(15, 15, 6);
        row_coverages_agree_on::<4>(12, 21, 7);
        row_coverages_agree_on::<4>(21, 12, 8);
        row_coverages_agree_on::<8>(19, 20, 9);
        row_coverages_agree_on::<16>(32, 32, 10);
        row_coverages_agree_on::<16>(31, 32, 11);
    }

    /// `branch_square` against the plain scan of the uncovered squares, on random nodes of both
    /// problems.
    fn branch_squares_agree_on<const W: usize>(rows: usize, cols: usize, seed: u64) {
        use crate::board::Board;
        let board = Board::new(rows, cols).unwrap();
        let geo = Geometry::<W>::new(board);
        let shared = Shared::new(Key::new(MAX_QUEENS, 0), None, None);
        let n = board.squares();
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
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
        branch_squares_agree_on::<1>(1, 1, 1);
        branch_squares_agree_on::<1>(1, 32, 2);
        branch_squares_agree_on::<1>(32, 1, 3);
        branch_squares_agree_on::<1>(7, 9, 4);
        branch_squares_agree_on::<4>(15, 15, 5);
        branch_squares_agree_on::<4>(12, 21, 6);
        branch_squares_agree_on::<8>(20, 19, 7);
        branch_squares_agree_on::<16>(32, 32, 8);
    }

    #[test]
    fn bytes_at_least_compares_each_byte() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bytes = (x & 0x7f7f_7f7f_7f7f_7f7f).to_le_bytes();
            let word = u64::from_le_bytes(bytes);
            for t in 0..=128u8 {
                let want = (0..8).fold(0u8, |m, i| m | ((bytes[i] >= t) as u8) << i);
                assert_eq!(bytes_at_least(word, t), want, "{bytes:?} >= {t}");
            }
        }
    }

    #[test]
    fn top_sums() {
        let mut c = [0u8; FAMILY_SLOTS];
        c[..5].copy_from_slice(&[3, 7, 7, 1, 5]);
        assert_eq!(top_sum(&c, 1), 7);
        assert_eq!(top_sum(&c, 2), 14);
        assert_eq!(top_sum(&c, 3), 19);
        assert_eq!(top_sum(&c, 9), 23);
        c[2] = 2;
        assert_eq!(top_sum(&c, 2), 12);
        // Both largest in one lane, and in different lanes.
        let mut c = [0u8; FAMILY_SLOTS];
        c[3] = 9;
        c[19] = 8;
        c[35] = 1;
        assert_eq!(top_sum(&c, 2), 17);
        c[4] = 8;
        assert_eq!(top_sum(&c, 2), 17);
        c[63] = 9;
        assert_eq!(top_sum(&c, 2), 18);
    }

    #[test]
    fn top_sums_agree_with_sorting() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..2000 {
            let mut c = [0u8; FAMILY_SLOTS];
            // Few or many lines in use, short or full-length (up to MAX_SIDE squares).
            let used = 1 + (case % FAMILY_SLOTS);
            for v in c[..used].iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = (x % (MAX_SIDE as u64 + 1)) as u8 >> (case % 3);
            }
            let mut sorted = c;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            for k in 0..=FAMILY_SLOTS + 2 {
                let want: usize = sorted.iter().take(k).map(|&v| v as usize).sum();
                assert_eq!(top_sum(&c, k), want, "case {case}, k = {k}, counts {c:?}");
            }
        }
    }
}
