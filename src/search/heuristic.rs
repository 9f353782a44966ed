//! A quick layout to start from: its size is the first upper bound, so that the exhaustive search
//! only has to look for strictly smaller layouts, and proves the optimum once.
//!
//! Everything here is deterministic (a fixed seed, budgets counted in steps, not seconds), so the
//! layout reported when the search finds nothing smaller is the same on every run. On the largest
//! boards the local search runs for many seconds: it looks at the search's cancel flag every
//! [`CANCEL_CHECK_STEPS`] steps, so that Ctrl-C stops it at once.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use crate::board::{Bits, Board, Geometry};

use super::kernel::MAX_CANDIDATES;

/// Greedy: repeatedly place the queen covering the most uncovered squares (lowest index on ties).
/// For independent domination the queen must stand on an uncovered square: exactly the squares no
/// queen attacks, so the result is independent.
pub(crate) fn greedy<const W: usize>(geo: &Geometry<W>, independent: bool) -> Vec<u16> {
    let mut covered = Bits::<W>::EMPTY;
    let mut queens = Vec::new();
    while covered != geo.full {
        let uncovered = geo.full.minus(&covered);
        let pool = if independent { uncovered } else { geo.full };
        let mut best = (0, usize::MAX);
        pool.for_each(|v| {
            let gain = geo.cover[v].count_and(&uncovered);
            if gain > best.0 {
                best = (gain, v);
            }
        });
        queens.push(best.1 as u16);
        covered = covered.or(&geo.cover[best.1]);
    }
    queens
}

/// Steps of a local search between two looks at the cancel flag: a step of the weighted search
/// on 20×20 takes about 20 µs, so this is about a millisecond.
const CANCEL_CHECK_STEPS: u32 = 64;

fn is_set(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|c| c.load(Relaxed))
}

/// Local search for each smaller size: independent restarts, each with its own seed and step
/// budget. Restarts run side by side on the pool when the search is parallel; the first restart
/// in seed order that succeeds wins, so the outcome does not depend on the number of threads.
const RESTARTS: u64 = 4;
const STEPS_PER_RESTART: u32 = 3_000;

/// Steps per restart while the layout is still two or more queens above the lower bound. Such
/// boards are the ones whose exhaustive search is long when it has to find the optimum itself:
/// with a start of 9 queens, γ(12×17) = 8 took 25.6 M nodes, with the optimal start 134 000; 12×26
/// 9.2 M nodes against 16 000. The longer budget costs only where it fails (a successful restart
/// stops early), about half a second on the largest thin boards; one queen above the bound, as
/// on most boards up to 14×14, the short budget stays.
const STEPS_FAR_FROM_BOUND: u32 = 30_000;

/// Weighted local search on boards whose shorter side is at least `LARGE_BOARD_MIN_SIDE` while
/// the layout is two or more queens above the lower bound (300 000 steps per restart), and on
/// boards whose shorter side is at least `LARGE_BOARD_ANY_DISTANCE` one queen above it (150 000).
/// There an exhaustive search that has to find the optimum itself runs for minutes to hours,
/// while a layout at the lower bound needs no search at all:
/// - γ(18×18) = 9: 116 M nodes (281 CPU s) from a start of 10 queens; from this start of 9, none.
/// - γ(17×18) = 9: 121 M nodes (728 CPU s) from 10; none from 9.
/// - γ(16×18) = 9: 178 M nodes (about 30 CPU min) from 10; 6.9 M from 9.
/// - γ(Q_19) = 10 and γ(Q_20) = 11 are found (the unweighted search stopped at 11 and 12).
///
/// Where the budget fails one queen above the bound it costs about 12 s of CPU: on 17×17 (whose
/// search takes 12 s), Q_19 and Q_20 (whose searches take hours). 16×16 and 16×17, one queen above
/// the bound with optimal starts, keep the short budget.
const LARGE_BOARD_MIN_SIDE: usize = 16;
const LARGE_BOARD_ANY_DISTANCE: usize = 17;
const STEPS_LARGE_FAR: u32 = 300_000;
const STEPS_LARGE_NEAR: u32 = 150_000;

/// The cost of one pair of attacking queens in `cover_independent`, against weights of squares
/// that start at 1 and grow by 1 each step they stay uncovered. Measured on the boards 13..20 ×
/// 13..20 with 30 000 steps: 5 and 20 each missed more published values than 10.
const CLASH: i64 = 10;

/// Steps per restart of the independent local search (see `cover_independent`) on `board`,
/// scaled to what the exhaustive search after it costs:
/// - Under 180 squares: none. From the greedy start every i search there takes well under a
///   second (the whole triangle up to 13×13 about half a CPU second), less than the local search
///   would cost.
/// - 3 000 on boards up to 240 squares and on thin boards (shorter side up to 12). That reaches
///   the published i on every board from 180 squares up to 240 but 13×16 (9 for 8, whose search
///   takes 1.5 s from the greedy start of 9 anyway); on the boards 9..12 × 19..32 it
///   gives the same starts as 30 000 steps except on 12×20 (10 instead of 9), while 100 000 steps
///   cost 9 s on 12×26, whose search from the greedy start takes 3 s.
/// - 30 000 up to 300 squares: 17×17 needs 10 000 (16×17 stops at 10 for 9 with these seeds).
/// - 100 000 from 300 squares, whose searches take minutes to hours: 18×19 = 10 needed 100 000
///   where 30 000 stopped at 11.
fn independent_steps(board: Board) -> u32 {
    let squares = board.squares();
    let side = board.rows().min(board.cols());
    if squares < 180 {
        0
    } else if squares < 240 || side <= 12 {
        3_000
    } else if squares < 300 {
        30_000
    } else {
        100_000
    }
}

/// Improve a dominating layout by local search: drop one queen, then move one queen at a time to
/// cover a randomly chosen uncovered square, taking the move that leaves the fewest squares
/// uncovered, or on large boards the least weight uncovered (see `cover_with`; a short tabu list
/// stops a queen from moving straight back); on success drop another. With `independent`, `start`
/// must be independent and so is every layout kept: the moves are those of `cover_independent`.
/// Returns the smallest layout found (`start` itself if none), or `None` once `cancel` is set.
pub(crate) fn shrink<const W: usize>(
    geo: &Geometry<W>,
    start: Vec<u16>,
    parallel: bool,
    floor: usize,
    independent: bool,
    cancel: Option<&AtomicBool>,
) -> Option<Vec<u16>> {
    let n = geo.board.squares();
    let independent_steps = independent_steps(geo.board);
    if independent && independent_steps == 0 {
        return Some(start);
    }
    let mut best = start;
    // Below the proven lower bound there is nothing to find.
    while best.len() > floor.max(1) {
        // Drop the queen whose loss uncovers least (dropping a queen keeps a layout independent).
        let mut count = vec![0u8; n];
        for &q in &best {
            geo.cover[q as usize].for_each(|s| count[s] += 1);
        }
        let drop = (0..best.len())
            .min_by_key(|&i| {
                let mut lost = 0;
                geo.cover[best[i] as usize].for_each(|s| lost += (count[s] == 1) as u32);
                (lost, i)
            })
            .expect("at least two queens");
        let mut fewer = best.clone();
        fewer.remove(drop);
        let seed_base =
            (geo.board.rows() * 64 + geo.board.cols()) as u64 * 1000 + fewer.len() as u64;
        let far = best.len() >= floor + 2;
        let side = geo.board.rows().min(geo.board.cols());
        let attempt = |restart: u64| {
            let mut queens = fewer.clone();
            let mut rng = XorShift((0x9E37_79B9_7F4A_7C15 ^ (seed_base * RESTARTS + restart)) | 1);
            let found = if independent {
                cover_independent(geo, &mut queens, independent_steps, &mut rng, cancel)
            } else {
                let weighted =
                    side >= LARGE_BOARD_ANY_DISTANCE || (far && side >= LARGE_BOARD_MIN_SIDE);
                let steps = match (weighted, far) {
                    (true, true) => STEPS_LARGE_FAR,
                    (true, false) => STEPS_LARGE_NEAR,
                    (false, true) => STEPS_FAR_FROM_BOUND,
                    (false, false) => STEPS_PER_RESTART,
                };
                cover_with(geo, &mut queens, steps, weighted, &mut rng, cancel)
            };
            found.then_some(queens)
        };
        let found = if parallel {
            (0..RESTARTS)
                .into_par_iter()
                .map(attempt)
                .find_first(Option::is_some)
                .flatten()
        } else {
            (0..RESTARTS).find_map(attempt)
        };
        // A cancelled restart reports failure: the layout so far is not the deterministic one.
        if is_set(cancel) {
            return None;
        }
        match found {
            Some(layout) => best = layout,
            None => break,
        }
    }
    Some(best)
}

/// Local search for a layout with `queens.len()` queens within `steps` moves; on success `queens`
/// holds it. Gives up (false) once `cancel` is set.
///
/// With `weighted`, every square has a weight, raised by one for each step it stays uncovered, and
/// a move is scored by the weight it covers less the weight it uncovers (without, every weight
/// stays 1: the count of squares). Squares that keep resisting become the
/// ones the search cares most about, which lets it leave the local minima a plain count of
/// uncovered squares gets stuck in (the weighting of set-cover local searches).
fn cover_with<const W: usize>(
    geo: &Geometry<W>,
    queens: &mut [u16],
    steps: u32,
    weighted: bool,
    rng: &mut XorShift,
    cancel: Option<&AtomicBool>,
) -> bool {
    let mut state = CoverState::new(geo, queens);
    // Unweighted, every weight is 1 and a popcount gives the sum without visiting the squares:
    // the small boards of every table spend most of their time here.
    let sum = |state: &CoverState<W>, set: &Bits<W>| {
        if weighted {
            state.weight_of(set)
        } else {
            set.count() as i64
        }
    };
    for step in 1..=steps {
        if step % CANCEL_CHECK_STEPS == 0 && is_set(cancel) {
            return false;
        }
        let (uncovered, single) = state.uncovered_and_single();
        let missing = uncovered.count();
        if missing == 0 {
            return true;
        }
        if weighted {
            state.age(&uncovered);
        }
        // A random uncovered square must be covered: one queen moves onto a square covering it.
        let target = nth_member(&uncovered, rng.below(missing));
        // What each destination gains does not depend on which queen moves there.
        let mut dests = [(0u16, 0i64); MAX_CANDIDATES];
        let mut m = 0;
        geo.cover[target].for_each(|b| {
            if !state.occupied.contains(b) {
                dests[m] = (b as u16, sum(&state, &geo.cover[b].and(&uncovered)));
                m += 1;
            }
        });
        let mut best = BestMove::default();
        for (i, &q) in queens.iter().enumerate() {
            if !state.may_move(i, step) {
                continue;
            }
            // Squares only this queen covers: uncovered again unless the new square covers them.
            let lost = geo.cover[q as usize].and(&single);
            let lost_total = sum(&state, &lost);
            for &(b, gained) in &dests[..m] {
                let b = b as usize;
                // Few of the lost squares are covered again from b: sum those, not the rest.
                let score = gained - lost_total + sum(&state, &lost.and(&geo.cover[b]));
                best.offer(score, rng, i, b);
            }
        }
        state.make(geo, queens, best, step, rng);
    }
    false
}

/// Local search for an independent dominating layout with `queens.len()` queens within `steps`
/// moves; on success `queens` holds it. `queens` must not attack each other at the start. Gives
/// up (false) once `cancel` is set.
///
/// Moves that keep the queens independent at every step (a queen may only move onto a square no
/// other queen attacks) get stuck: measured on the boards 13..20 × 13..20, 75 000 such steps per
/// restart missed two of the published values in each of three seeds. So here queens may
/// attack each other for a while: every attacking pair costs `CLASH` on top of the weight left
/// uncovered (weighted as in `cover_with`), and the search ends only with nothing uncovered and
/// no pair attacking. A step picks one violation at random, an uncovered square or an attacked
/// queen, and makes the best move that mends it: some queen onto a square covering the square,
/// or the attacked queen onto any unoccupied square. 30 000 such steps (about as much CPU as the
/// 75 000) missed one, none and two published values with the same three seeds.
fn cover_independent<const W: usize>(
    geo: &Geometry<W>,
    queens: &mut [u16],
    steps: u32,
    rng: &mut XorShift,
    cancel: Option<&AtomicBool>,
) -> bool {
    let mut state = CoverState::new(geo, queens);
    // Each destination of a step: (square, weight it would newly cover, queens it sees).
    let mut dests: Vec<(u16, i64, i64)> = Vec::with_capacity(geo.board.squares());
    for step in 1..=steps {
        if step % CANCEL_CHECK_STEPS == 0 && is_set(cancel) {
            return false;
        }
        let (uncovered, single) = state.uncovered_and_single();
        // A queen's own square counts it once, and is covered: a queen on a square covered more
        // than once is attacked.
        let attacked = state.occupied.minus(&single);
        let missing = uncovered.count();
        let clashing = attacked.count();
        if missing == 0 && clashing == 0 {
            return true;
        }
        state.age(&uncovered);
        let pick = rng.below(missing + clashing);
        let (mover, reachable) = if pick < missing {
            let target = nth_member(&uncovered, pick);
            (None, geo.cover[target].minus(&state.occupied))
        } else {
            let square = nth_member(&attacked, pick - missing);
            let i = queens
                .iter()
                .position(|&q| q as usize == square)
                .expect("an attacked square holds a queen");
            (Some(i), geo.full.minus(&state.occupied))
        };
        dests.clear();
        reachable.for_each(|b| {
            let cover = &geo.cover[b];
            dests.push((
                b as u16,
                state.weight_of(&cover.and(&uncovered)),
                state.occupied.count_and(cover) as i64,
            ));
        });
        let mut best = BestMove::default();
        for (i, &q) in queens.iter().enumerate() {
            let may_move = match mover {
                Some(m) => m == i,
                None => state.may_move(i, step),
            };
            if !may_move {
                continue;
            }
            let reach = &geo.cover[q as usize];
            let lost = reach.and(&single);
            let lost_total = state.weight_of(&lost);
            // The queen's own square is in `reach` and counts as one of the queens it sees.
            let pairs_here = state.occupied.count_and(reach) as i64 - 1;
            for &(b, gained, seen) in &dests {
                let b = b as usize;
                // The queen sees itself from b exactly when b is in its reach.
                let pairs_there = seen - reach.contains(b) as i64;
                let score = gained - lost_total + state.weight_of(&lost.and(&geo.cover[b]))
                    - CLASH * (pairs_there - pairs_here);
                best.offer(score, rng, i, b);
            }
        }
        state.make(geo, queens, best, step, rng);
    }
    false
}

/// What both local searches keep between steps: how many queens cover each square, the squares'
/// weights, the occupied squares, and for each queen the step before which it may not move again.
struct CoverState<const W: usize> {
    count: Vec<u8>,
    weight: Vec<i64>,
    occupied: Bits<W>,
    tabu: Vec<u32>,
}

impl<const W: usize> CoverState<W> {
    fn new(geo: &Geometry<W>, queens: &[u16]) -> Self {
        let n = geo.board.squares();
        let mut state = CoverState {
            count: vec![0; n],
            weight: vec![1; n],
            occupied: Bits::EMPTY,
            tabu: vec![0; queens.len()],
        };
        for &q in queens {
            geo.cover[q as usize].for_each(|s| state.count[s] += 1);
            state.occupied.set(q as usize);
        }
        state
    }

    /// The squares no queen covers, and the squares exactly one queen covers.
    fn uncovered_and_single(&self) -> (Bits<W>, Bits<W>) {
        let mut uncovered = Bits::<W>::EMPTY;
        let mut single = Bits::<W>::EMPTY;
        for (s, &c) in self.count.iter().enumerate() {
            if c == 0 {
                uncovered.set(s);
            } else if c == 1 {
                single.set(s);
            }
        }
        (uncovered, single)
    }

    fn weight_of(&self, set: &Bits<W>) -> i64 {
        let mut total = 0;
        set.for_each(|s| total += self.weight[s]);
        total
    }

    /// Squares left uncovered for another step weigh one more.
    fn age(&mut self, uncovered: &Bits<W>) {
        uncovered.for_each(|s| self.weight[s] += 1);
    }

    fn may_move(&self, i: usize, step: u32) -> bool {
        self.tabu[i] <= step
    }

    /// Make the best move, if there is one, and keep the queen that moved where it is for one to
    /// three steps, so that it does not move straight back.
    fn make(
        &mut self,
        geo: &Geometry<W>,
        queens: &mut [u16],
        best: BestMove,
        step: u32,
        rng: &mut XorShift,
    ) {
        let Some((_, _, i, b)) = best.0 else {
            return;
        };
        geo.cover[queens[i] as usize].for_each(|s| self.count[s] -= 1);
        geo.cover[b].for_each(|s| self.count[s] += 1);
        self.occupied.clear(queens[i] as usize);
        self.occupied.set(b);
        queens[i] = b as u16;
        self.tabu[i] = step + 1 + rng.below(3);
    }
}

/// The best move of a step so far: (score, random tie-break, queen, destination).
#[derive(Default)]
struct BestMove(Option<(i64, u64, usize, usize)>);

impl BestMove {
    fn offer(&mut self, score: i64, rng: &mut XorShift, i: usize, b: usize) {
        let tie = rng.next();
        if self.0.is_none_or(|(s, t, _, _)| (score, tie) > (s, t)) {
            self.0 = Some((score, tie, i, b));
        }
    }
}

fn nth_member<const W: usize>(set: &Bits<W>, mut n: u32) -> usize {
    let mut found = usize::MAX;
    set.for_each(|s| {
        if n == 0 && found == usize::MAX {
            found = s;
        }
        n = n.wrapping_sub(1);
    });
    found
}

/// A small fixed-seed generator: the local search must be the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Layout;
    use crate::check::check_independent_dominating;

    fn layout(board: Board, queens: &[u16]) -> Layout {
        Layout::new(
            board,
            queens.iter().map(|&q| board.square(q as usize)).collect(),
        )
    }

    #[test]
    fn the_independent_local_search_gives_independent_dominating_layouts() {
        // Boards in each budget tier, square and not, thin and not.
        for (r, c) in [(12, 15), (14, 14), (10, 24), (13, 19)] {
            let board = Board::new(r, c).unwrap();
            let geo = Geometry::<8>::new(board);
            let greedy = greedy(&geo, true);
            check_independent_dominating(&layout(board, &greedy), greedy.len()).unwrap();
            let floor = super::super::bounds::lower_bound(board);
            let shrunk = shrink(&geo, greedy.clone(), false, floor, true, None).unwrap();
            check_independent_dominating(&layout(board, &shrunk), shrunk.len())
                .unwrap_or_else(|e| panic!("{board}: {e}"));
            assert!(shrunk.len() >= floor);
            assert!(
                shrunk.len() < greedy.len(),
                "{board}: no smaller layout found"
            );
        }
    }

    #[test]
    fn every_layout_the_penalised_moves_end_on_is_independent_dominating() {
        // Straight from the moves, on small boards no budget tier reaches, with one queen fewer
        // than greedy: whatever succeeds must have nothing uncovered and no pair attacking.
        let mut successes = 0;
        for n in 5..=11 {
            for m in n..=n + 3 {
                let board = Board::new(n, m).unwrap();
                let geo = Geometry::<4>::new(board);
                let mut queens = greedy(&geo, true);
                queens.pop();
                let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ (n * 64 + m) as u64);
                if cover_independent(&geo, &mut queens, 2_000, &mut rng, None) {
                    successes += 1;
                    check_independent_dominating(&layout(board, &queens), queens.len())
                        .unwrap_or_else(|e| panic!("{board}: {e}"));
                }
            }
        }
        assert!(successes > 0, "no board improved on greedy");
    }
}
