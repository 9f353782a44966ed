//! The structural rules of `bounds` as the kernel applies them: the lines and colours of the
//! queens placed (`Held`), and for one board the collision budget, the border it leaves, the
//! colour rule and the colour grids (`Rules`); a node or a child that breaks one has no completion within the limit,
//! and `barred_squares` names the squares a further queen may not take.
//!
//! A new structural rule goes here: its theorem in `bounds` (with its test against exhaustive
//! search), what it needs of the queens placed in `Held`, its test in `Rules::broken` and, if it
//! bars squares, in `barred_squares`.

use crate::board::{Bits, Board, Geometry, LINE_FAMILY_OFFSET};

use super::super::bounds::{self, GridCounts, HalfColours, RefutedCache};
use super::super::lines::{ones32, ones64};
use super::{Searcher, FINISH_REMAINING};

/// Most collision slack at which the border test (`bounds::border_waste_exceeds`) runs: with more,
/// the waste it allows is rarely exceeded. `count 13x13 -j 1` (budget 4): 0.47 CPU s with 2, 0.63
/// with every slack, 0.34 without the test; `solve 16x16 -j 1` 3.04 M nodes with 2, 4.00 M with 1.
/// It does not run where at most `FINISH_REMAINING` queens are left: see `Rules::broken`.
const BORDER_MAX_SLACK: i64 = 2;

/// Largest collision budget (`bounds::collision_budget`) at which the colour grids rule
/// (`bounds::grids`) runs. At budget 2 (n/2 queens on even squares) it cuts more than it costs:
/// `solve 14x14 -j 1` 645,947 → 491,833 nodes in 0.96 times the instructions, `solve 16x16`
/// 3.98 M → 3.55 M nodes in 0.96 times; the γ(Q_24) estimate 6.02e10 → 4.90e10 nodes. At budget 4
/// it cuts a few per cent of the nodes for more instructions (`count 13x13 -j 1` 1.395 M → 1.331 M
/// nodes, 1.05 times the instructions).
const GRIDS_MAX_BUDGET: i64 = 2;

/// The lines holding a queen (rows, columns, diagonals, anti-diagonals), the collisions (for each
/// family, queens less the distinct lines they stand on, summed) and the queens on odd squares
/// (row + column odd) of a partial layout.
#[derive(Clone, Copy, Default)]
pub(super) struct Held {
    rows: u32,
    cols: u32,
    diags: u64,
    antis: u64,
    collisions: u32,
    odd: u32,
}

/// The structural rules of `bounds` for one board: the collision budget
/// (`bounds::collision_budget`), the colour rule (`bounds::half_colours`), which holds at
/// `limit == colour_limit` only, and the colour grids rule (`bounds::grids`), run at limits below
/// `grids_below`.
pub(super) struct Rules {
    board: Board,
    colours: Option<HalfColours>,
    colour_limit: usize,
    /// The first limit whose collision budget is past `GRIDS_MAX_BUDGET` (or does not apply).
    grids_below: usize,
    /// The rows and the columns with an even index, as bits of `Held::rows` and `Held::cols`.
    even_rows: u32,
    even_cols: u32,
    grids: RefutedCache,
}

impl Rules {
    pub(super) fn new(board: Board) -> Rules {
        let colour_limit = board.rows() / 2;
        let evens = |len: usize| 0x5555_5555u32 & (u32::MAX >> (32 - len));
        Rules {
            board,
            colours: bounds::half_colours(board, colour_limit),
            colour_limit,
            grids_below: (1..)
                .find(|&k| bounds::collision_budget(board, k).is_none_or(|b| b > GRIDS_MAX_BUDGET))
                .expect("the budget stops applying once the limit passes the shorter side"),
            even_rows: evens(board.rows()),
            even_cols: evens(board.cols()),
            grids: RefutedCache::default(),
        }
    }

    /// How many more collisions a layout within `limit` may have beside `held`'s (negative: it is
    /// over already); `None` when the budget does not apply.
    #[inline(always)]
    pub(super) fn collision_slack(&self, held: &Held, limit: usize) -> Option<i64> {
        bounds::collision_budget(self.board, limit).map(|budget| budget - held.collisions as i64)
    }

    #[inline(always)]
    fn colours(&self, limit: usize) -> Option<HalfColours> {
        self.colours.filter(|_| limit == self.colour_limit)
    }

    /// Whether the queens of `held` (`depth` of them) already break a rule for layouts of at
    /// most `limit` queens: the collision budget, the border its slack leaves
    /// (`bounds::border_waste_exceeds`), the colours, the colour grids.
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
            || limit < self.grids_below
                && self.grids.refuted(
                    self.grid_counts(held, depth),
                    limit.saturating_sub(depth) as u32,
                )
    }

    /// The empty lines by parity and the queens by colour of `held` (`depth` queens), as the
    /// colour grids rule reads them.
    #[inline(always)]
    fn grid_counts(&self, held: &Held, depth: usize) -> GridCounts {
        let (rows, cols) = (self.board.rows() as u32, self.board.cols() as u32);
        let even_rows = (self.even_rows & !held.rows).count_ones();
        let even_cols = (self.even_cols & !held.cols).count_ones();
        GridCounts {
            empty_rows: [even_rows, rows - held.rows.count_ones() - even_rows],
            empty_cols: [even_cols, cols - held.cols.count_ones() - even_cols],
            queens: [depth as u32 - held.odd, held.odd],
        }
    }
}

impl Held {
    /// `self` with a queen added on square `v`.
    #[inline(always)]
    pub(super) fn with<const W: usize>(self, geo: &Geometry<W>, v: usize) -> Held {
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

impl<const W: usize> Searcher<'_, W> {
    /// Whether the queens placed break a structural rule (`Rules`) for the current limit.
    #[inline(always)]
    pub(super) fn rules_broken(&self, limit: usize) -> bool {
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
    pub(super) fn barred_squares(
        &self,
        held: &Held,
        depth: usize,
        limit: usize,
    ) -> Option<Bits<W>> {
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
        // A queen on row parity a and column parity b empties at most one row of parity a and
        // one column of parity b: if even that leaves no completion, no square of the class may
        // take it.
        if limit < self.rules.grids_below {
            let counts = self.rules.grid_counts(held, depth);
            let remaining = limit.saturating_sub(depth + 1) as u32;
            for a in 0..2 {
                for b in 0..2 {
                    let mut after = counts;
                    after.empty_rows[a] = after.empty_rows[a].saturating_sub(1);
                    after.empty_cols[b] = after.empty_cols[b].saturating_sub(1);
                    after.queens[(a + b) % 2] += 1;
                    if self.rules.grids.refuted(after, remaining) {
                        bar(geo.parity_classes[2 * a + b]);
                    }
                }
            }
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
}
