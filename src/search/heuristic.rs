//! A quick layout to start from: its size is the first upper bound, so that the exhaustive search
//! only has to look for strictly smaller layouts, and proves the optimum once.
//!
//! Everything here is deterministic (a fixed seed, budgets counted in steps, not seconds), so the
//! layout reported when the search finds nothing smaller is the same on every run. On the largest
//! boards the local search runs for many seconds: it looks at the search's cancel flag every
//! [`CANCEL_CHECK_STEPS`] steps, so that Ctrl-C stops it at once.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use crate::board::{Bits, Board, Geometry, Symmetry};
use crate::problem::Problem;
use crate::random::XorShift;

use super::bounds::square_lower_bound;
use super::lines::MAX_CANDIDATES;

/// Greedy: repeatedly place the queen covering the most uncovered squares (lowest index on ties).
/// For independent domination the queen must stand on an uncovered square: exactly the squares no
/// queen attacks, so the result is independent.
pub(crate) fn greedy<const W: usize>(geo: &Geometry<W>, problem: Problem) -> Vec<u16> {
    let independent = problem.forbids_attacks();
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
///   would cost. (The greedy start is 1 to 3 queens above the optimum on Q_5, Q_7..Q_11 and Q_13;
///   3 000 steps reach it, but tests use the search of i(13×13) from that start as a fixture.)
/// - 3 000 on boards up to 240 squares and on thin boards (shorter side up to 12). That reaches
///   the published i on every board from 180 squares up to 240 but 13×16 (9 for 8, whose search
///   takes 1.5 s from the greedy start of 9 anyway); on the boards 9..12 × 19..32 it
///   gives the same starts as 30 000 steps except on 12×20 (10 instead of 9), while 100 000 steps
///   cost 9 s on 12×26, whose search from the greedy start takes 3 s.
/// - 30 000 up to 300 squares: 17×17 needs 10 000 (16×17 stops at 10 for 9 with these seeds).
/// - 100 000 from 300 squares, whose searches take minutes to hours: 18×19 = 10 needed 100 000
///   where 30 000 stopped at 11.
/// - 400 000 from 550 squares: i(24×24) = 13 needed it (100 000 stopped at 14); there a search
///   for the optimum itself would take CPU days.
fn independent_steps(board: Board) -> u32 {
    let squares = board.squares();
    let side = board.rows().min(board.cols());
    if squares < 180 {
        0
    } else if squares < 240 || side <= 12 {
        3_000
    } else if squares < 300 {
        30_000
    } else if squares < 550 {
        100_000
    } else {
        400_000
    }
}

/// How long [`shrink`] goes on at a size where a round of restarts fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effort {
    /// One round of restarts per size, with fixed seeds: the same layout on every run, and the
    /// exhaustive search after it proves the rest. Once the cancel flag is raised, nothing, or
    /// with `keep_best` the smallest layout so far.
    Fixed { keep_best: bool },
    /// Round after round at the size that fails, each with new seeds, until the cancel flag is
    /// raised; then the smallest layout so far. The first round's restarts are a quarter as
    /// long as the fixed round's, each round's twice the last, up to [`MAX_ROUND_SCALE`] times
    /// the fixed round's: a budget of seconds sees several seeds, a long one long restarts. For
    /// a search with a time budget, where the layout is all that can still improve when the
    /// exhaustive search cannot finish. `salt` varies the seeds, so that a run starting from an
    /// earlier run's layout does not repeat that run's rounds. Without a cancel flag, one round.
    UntilCancelled { salt: u64 },
}

/// The longest restarts of [`Effort::UntilCancelled`], as a multiple of the fixed round's.
const MAX_ROUND_SCALE: u32 = 16;

/// The steps of a restart in `round` where the fixed round's restarts take `steps`.
fn round_steps(steps: u32, round: u32, until_cancelled: bool) -> u32 {
    if !until_cancelled || steps == 0 {
        return steps;
    }
    let sixteenths = (4u64 << round.min(8)).min(16 * u64::from(MAX_ROUND_SCALE));
    (u64::from(steps) * sixteenths / 16).clamp(1, u64::from(u32::MAX)) as u32
}

/// The seed of one restart: `base` itself in the first round without salt (the seeds of
/// [`Effort::Fixed`]), else `base`, the round and the salt mixed (splitmix64's finaliser).
fn round_seed(base: u64, round: u32, salt: u64) -> u64 {
    if round == 0 && salt == 0 {
        return base;
    }
    let mut z = base ^ salt.rotate_left(29) ^ (u64::from(round) << 40);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Improve a dominating layout by local search: drop one queen, then move one queen at a time to
/// cover a randomly chosen uncovered square, taking the move that leaves the fewest squares
/// uncovered, or on large boards the least weight uncovered (see `cover_with`; a short tabu list
/// stops a queen from moving straight back); on success drop another. With `independent`, `start`
/// must be independent and so is every layout kept: the moves are those of `cover_independent`.
/// Returns the smallest layout found (`start` itself if none); once `cancel` is set, what `effort`
/// says (a layout kept then depends on timing).
pub(crate) fn shrink<const W: usize>(
    geo: &Geometry<W>,
    start: Vec<u16>,
    parallel: bool,
    floor: usize,
    problem: Problem,
    cancel: Option<&AtomicBool>,
    effort: Effort,
) -> Option<Vec<u16>> {
    let (until_cancelled, salt) = match effort {
        Effort::UntilCancelled { salt } if cancel.is_some() => (true, salt),
        _ => (false, 0),
    };
    let keep_best = match effort {
        Effort::Fixed { keep_best } => keep_best,
        Effort::UntilCancelled { .. } => true,
    };
    let independent = problem.forbids_attacks();
    let n = geo.board.squares();
    let independent_steps = match independent_steps(geo.board) {
        // A budgeted search has no exhaustive search it can count on to finish after it.
        0 if until_cancelled => STEPS_PER_RESTART,
        steps => steps,
    };
    if independent && independent_steps == 0 {
        return Some(start);
    }
    let single = Pieces::single(geo);
    let mut best = start;
    // Below a proven lower bound there is nothing to find. (`floor` alone still sets the budgets.)
    // The bound of squares is cited, not proven here: the exhaustive search does not rely on it,
    // and a local search that stopped too early only leaves the search more to find. It spares
    // the failing attempts one queen below the optimum where that is ⌈n/2⌉ (Q_17, Q_19, Q_21,
    // Q_23, Q_25, ...), which cost the most.
    let stop = floor.max(square_lower_bound(geo.board)).max(1);
    while best.len() > stop {
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
        // The moves of a restart depend on neither the restart nor the round.
        let (moves, steps) = if independent {
            (Moves::Independent, independent_steps)
        } else {
            let weighted =
                side >= LARGE_BOARD_ANY_DISTANCE || (far && side >= LARGE_BOARD_MIN_SIDE);
            // Rounds that go on until cancelled are for boards the exhaustive search
            // cannot finish, where the weighted moves do better.
            let weighted = weighted || until_cancelled;
            let steps = match (weighted, far) {
                (true, true) => STEPS_LARGE_FAR,
                (true, false) => STEPS_LARGE_NEAR,
                (false, true) => STEPS_FAR_FROM_BOUND,
                (false, false) => STEPS_PER_RESTART,
            };
            let moves = if weighted {
                Moves::Weighted
            } else {
                Moves::Plain
            };
            (moves, steps)
        };
        let symmetric_moves = if independent {
            Moves::Independent
        } else {
            Moves::Weighted
        };
        let one_round = |round: u32| {
            let steps_of = |steps: u32| round_steps(steps, round, until_cancelled);
            let attempt = |restart: u64| {
                let mut queens = fewer.clone();
                let seed = round_seed(seed_base * RESTARTS + restart, round, salt);
                let mut rng = XorShift::new((0x9E37_79B9_7F4A_7C15 ^ seed) | 1);
                if independent && until_cancelled && restart % 2 == 1 {
                    // Half the restarts of a long independent search first dominate the board
                    // with the covering moves, ignoring attacks, then mend the attacks: the
                    // dominating layouts of a size are far easier to reach, and one is often
                    // a few moves from an independent one.
                    cover(
                        geo,
                        &single,
                        &mut queens,
                        steps_of(STEPS_LARGE_NEAR),
                        Moves::Weighted,
                        &mut rng,
                        cancel,
                    );
                }
                let found = cover(
                    geo,
                    &single,
                    &mut queens,
                    steps_of(steps),
                    moves,
                    &mut rng,
                    cancel,
                );
                found.then_some(queens)
            };
            let mut found = first_success(parallel, attempt);
            // Where the moves of single queens fail, whole orbits of a rotation moved together
            // search a far smaller space, where the optimal layouts of the largest square boards
            // are.
            let symmetric_steps = steps_of(symmetric_steps(geo.board));
            if found.is_none() && symmetric_steps > 0 && !is_set(cancel) {
                found = [Symmetry::Rotate180, Symmetry::Rotate90, Symmetry::Transpose]
                    .into_iter()
                    .enumerate()
                    .filter_map(|(g, rotation)| {
                        let pieces = Pieces::symmetric(geo, rotation, fewer.len(), independent)?;
                        Some((g as u64, pieces))
                    })
                    .find_map(|(g, pieces)| {
                        let count = pieces.pieces_for(fewer.len());
                        let first = pieces.greedy(geo, count, independent);
                        if first.len() < count.0 + count.1 {
                            return None;
                        }
                        let attempt = |restart: u64| {
                            let mut placed = first.clone();
                            let seed =
                                round_seed((seed_base * 4 + g) * RESTARTS + restart, round, salt);
                            let mut rng = XorShift::new((0xD1B5_4A32_D192_ED03 ^ seed) | 1);
                            let done = cover(
                                geo,
                                &pieces,
                                &mut placed,
                                symmetric_steps,
                                symmetric_moves,
                                &mut rng,
                                cancel,
                            );
                            done.then(|| pieces.queens(&placed))
                        };
                        first_success(parallel, attempt)
                    });
            }
            found
        };
        let mut round = 0;
        let found = loop {
            let found = one_round(round);
            if found.is_some() || !until_cancelled || is_set(cancel) {
                break found;
            }
            round += 1;
        };
        // A cancelled restart reports failure: the layout so far is not the deterministic one.
        if is_set(cancel) {
            return keep_best.then_some(best);
        }
        match found {
            Some(layout) => best = layout,
            None => break,
        }
    }
    Some(best)
}

/// The moves of a restart: independent ones (`cover_independent`), or covering ones
/// (`cover_with`), weighted or not.
#[derive(Clone, Copy)]
enum Moves {
    Independent,
    Weighted,
    Plain,
}

/// One restart of `moves` on `pieces` for at most `steps` steps: true if `queens` then covers.
fn cover<const W: usize>(
    geo: &Geometry<W>,
    pieces: &Pieces<W>,
    queens: &mut [u16],
    steps: u32,
    moves: Moves,
    rng: &mut XorShift,
    cancel: Option<&AtomicBool>,
) -> bool {
    match moves {
        Moves::Independent => cover_independent(geo, pieces, queens, steps, rng, cancel),
        Moves::Weighted => cover_with(geo, pieces, queens, steps, true, rng, cancel),
        Moves::Plain => cover_with(geo, pieces, queens, steps, false, rng, cancel),
    }
}

/// The first of the restarts, in seed order, that finds a layout: side by side on the pool when
/// `parallel`, with the same outcome either way.
fn first_success(
    parallel: bool,
    attempt: impl Fn(u64) -> Option<Vec<u16>> + Sync + Send,
) -> Option<Vec<u16>> {
    if parallel {
        (0..RESTARTS)
            .into_par_iter()
            .map(attempt)
            .find_first(Option::is_some)
            .flatten()
    } else {
        (0..RESTARTS).find_map(attempt)
    }
}

/// Steps per restart of the symmetric local search (whole orbits of a half or quarter turn, see
/// `Pieces::symmetric`), tried at a size where the plain one failed; none on boards that are not
/// square or whose side is under `SYMMETRIC_MIN_SIDE`.
fn symmetric_steps(board: Board) -> u32 {
    if board.is_square() && board.rows() >= SYMMETRIC_MIN_SIDE {
        SYMMETRIC_STEPS
    } else {
        0
    }
}

const SYMMETRIC_MIN_SIDE: usize = 19;
const SYMMETRIC_STEPS: u32 = 100_000;

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
    pieces: &Pieces<W>,
    queens: &mut [u16],
    steps: u32,
    weighted: bool,
    rng: &mut XorShift,
    cancel: Option<&AtomicBool>,
) -> bool {
    let mut state = CoverState::new(geo, pieces, queens);
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
        pieces.cover[target].and(&pieces.allowed).for_each(|b| {
            if !state.occupied.contains(b) {
                dests[m] = (b as u16, sum(&state, &pieces.cover[b].and(&uncovered)));
                m += 1;
            }
        });
        let mut best = BestMove::default();
        for (i, &q) in queens.iter().enumerate() {
            if !state.may_move(i, step) {
                continue;
            }
            // Squares only this queen covers: uncovered again unless the new square covers them.
            let lost = pieces.cover[q as usize].and(&single);
            let lost_total = sum(&state, &lost);
            for &(b, gained) in &dests[..m] {
                let b = b as usize;
                if !pieces.same_kind(q as usize, b) {
                    continue;
                }
                // Few of the lost squares are covered again from b: sum those, not the rest.
                let score = gained - lost_total + sum(&state, &lost.and(&pieces.cover[b]));
                best.offer(score, rng, i, b);
            }
        }
        state.make(pieces, queens, best, step, rng);
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
    pieces: &Pieces<W>,
    queens: &mut [u16],
    steps: u32,
    rng: &mut XorShift,
    cancel: Option<&AtomicBool>,
) -> bool {
    let mut state = CoverState::new(geo, pieces, queens);
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
            let reach = pieces.cover[target].and(&pieces.allowed);
            (None, reach.minus(&state.occupied))
        } else {
            let square = nth_member(&attacked, pick - missing);
            // A fixed queen never moves: mend it by moving another.
            match queens
                .iter()
                .position(|&q| pieces.members(q as usize).contains(&(square as u16)))
            {
                Some(i) => (Some(i), pieces.allowed.minus(&state.occupied)),
                None => (None, pieces.allowed.minus(&state.occupied)),
            }
        };
        dests.clear();
        reachable.for_each(|b| {
            let cover = &pieces.cover[b];
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
            let reach = &pieces.cover[q as usize];
            let members = pieces.members(q as usize);
            let lost = reach.and(&single);
            let lost_total = state.weight_of(&lost);
            // The piece's own squares are in `reach` and count among the queens it sees.
            let pairs_here = state.occupied.count_and(reach) as i64 - members.len() as i64;
            for &(b, gained, seen) in &dests {
                let b = b as usize;
                if !pieces.same_kind(q as usize, b) {
                    continue;
                }
                // From b the piece sees those of its own squares that b's piece covers (for a
                // single queen: itself, exactly when b is in its reach).
                let own_seen = members
                    .iter()
                    .filter(|&&m| pieces.cover[b].contains(m as usize))
                    .count();
                let pairs_there = seen - own_seen as i64;
                let score = gained - lost_total + state.weight_of(&lost.and(&pieces.cover[b]))
                    - CLASH * (pairs_there - pairs_here);
                best.offer(score, rng, i, b);
            }
        }
        state.make(pieces, queens, best, step, rng);
    }
    false
}

/// What a local search moves: single queens, or whole orbits of queens under a rotation of the
/// board (see `Pieces::symmetric`), a piece named by one square of its orbit.
struct Pieces<const W: usize> {
    /// The squares a piece named by a square covers, by square. Covering is symmetric and the
    /// rotation maps it onto itself, so the pieces covering a square are those named in its row.
    cover: Vec<Bits<W>>,
    /// The squares a piece named by a square occupies (its orbit, the square first), by square.
    orbit: Vec<Vec<u16>>,
    /// The squares that may name a piece: one per orbit.
    allowed: Bits<W>,
    /// Queens that never move (the centre, the one square a rotation keeps).
    fixed: Vec<u16>,
}

impl<const W: usize> Pieces<W> {
    /// Every queen on its own: the plain local search.
    fn single(geo: &Geometry<W>) -> Pieces<W> {
        let n = geo.board.squares();
        Pieces {
            cover: geo.cover.clone(),
            orbit: (0..n).map(|s| vec![s as u16]).collect(),
            allowed: geo.full,
            fixed: Vec::new(),
        }
    }

    /// Layouts of `queens` queens that `rotation` (a quarter or half turn of a square board, or
    /// its reflection in the main diagonal) maps onto themselves: whole orbits, plus the centre
    /// when the orbits of a turn leave one queen over, or one queen on the diagonal when the pairs
    /// of the reflection do (a queen of the diagonal only moves along it, so the size stays).
    /// `None` when no such layout has that many queens. With `independent`, orbits whose queens
    /// attack each other, or the centre, are left out.
    fn symmetric(
        geo: &Geometry<W>,
        rotation: Symmetry,
        queens: usize,
        independent: bool,
    ) -> Option<Pieces<W>> {
        let board = geo.board;
        let n = board.squares();
        let turn = |s: usize| board.index(rotation.apply(board, board.square(s)));
        let orbit: Vec<Vec<u16>> = (0..n)
            .map(|s| {
                let mut o = vec![s as u16];
                let mut t = turn(s);
                while t != s {
                    o.push(t as u16);
                    t = turn(t);
                }
                o
            })
            .collect();
        // Only the centre of an odd board is its own orbit under a turn; every other orbit has
        // `size` squares. The reflection keeps every square of the diagonal.
        let size = if rotation == Symmetry::Rotate90 { 4 } else { 2 };
        let reflection = rotation == Symmetry::Transpose;
        // A square and its mirror image in the diagonal share an anti-diagonal: no independent
        // layout but a single queen is kept by the reflection.
        if reflection && independent {
            return None;
        }
        let centre = (0..n).find(|&s| orbit[s].len() == 1);
        let fixed: Vec<u16> = match (queens % size, centre) {
            (0, _) => Vec::new(),
            (1, Some(c)) if !reflection => vec![c as u16],
            (1, _) if reflection => Vec::new(),
            _ => return None,
        };
        if queens < size + fixed.len() {
            return None;
        }
        let fixed_cover = fixed
            .iter()
            .fold(Bits::EMPTY, |m, &c| m.or(&geo.cover[c as usize]));
        let mut allowed = Bits::EMPTY;
        let mut cover = Vec::with_capacity(n);
        for (s, o) in orbit.iter().enumerate() {
            let mut m = Bits::<W>::EMPTY;
            for &t in o {
                m = m.or(&geo.cover[t as usize]);
            }
            let first = o.iter().all(|&t| s <= t as usize);
            // A queen's own orbit attacks it when some other square of the orbit is in its cover.
            let clash = o[1..].iter().any(|&t| geo.cover[s].contains(t as usize))
                || o.iter().any(|&t| fixed_cover.contains(t as usize));
            // On the diagonal only when the pairs leave one queen over for it.
            let kind = o.len() == size || (reflection && queens % 2 == 1);
            if kind && first && !(independent && clash) {
                allowed.set(s);
            }
            cover.push(m);
        }
        Some(Pieces {
            cover,
            orbit,
            allowed,
            fixed,
        })
    }

    fn members(&self, square: usize) -> &[u16] {
        &self.orbit[square]
    }

    /// Whether a piece at `from` may move to `to`: only to an orbit of its own size, so that
    /// the number of queens stays (a queen of a reflection's diagonal stays on it).
    fn same_kind(&self, from: usize, to: usize) -> bool {
        self.orbit[from].len() == self.orbit[to].len()
    }

    /// How many pieces of each size make a layout of `queens` queens: (large, single).
    fn pieces_for(&self, queens: usize) -> (usize, usize) {
        let size = self.orbit.iter().map(Vec::len).max().unwrap_or(1);
        let left = queens - self.fixed.len();
        (left / size, left % size)
    }

    /// Greedy, as `greedy` but over pieces: the first layout of a symmetric local search.
    fn greedy(&self, geo: &Geometry<W>, pieces: (usize, usize), independent: bool) -> Vec<u16> {
        let size = pieces.0 + pieces.1;
        let mut left = pieces;
        let mut covered = self
            .fixed
            .iter()
            .fold(Bits::EMPTY, |m, &c| m.or(&geo.cover[c as usize]));
        let mut placed = Vec::with_capacity(size);
        let mut taken = Bits::<W>::EMPTY;
        while placed.len() < size {
            let uncovered = geo.full.minus(&covered);
            let mut best = (0, usize::MAX, false);
            self.allowed.minus(&taken).for_each(|b| {
                let single = self.orbit[b].len() == 1;
                if (single && left.1 == 0) || (!single && left.0 == 0) {
                    return;
                }
                let free = !independent
                    || self.orbit[b]
                        .iter()
                        .all(|&t| uncovered.contains(t as usize));
                let gain = self.cover[b].count_and(&uncovered);
                if best.1 == usize::MAX || (free, gain) > (best.2, best.0) {
                    best = (gain, b, free);
                }
            });
            if best.1 == usize::MAX {
                break;
            }
            if self.orbit[best.1].len() == 1 {
                left.1 -= 1;
            } else {
                left.0 -= 1;
            }
            placed.push(best.1 as u16);
            taken.set(best.1);
            covered = covered.or(&self.cover[best.1]);
        }
        placed
    }

    /// The layout's queens: the fixed ones and every square of every piece's orbit.
    fn queens(&self, pieces: &[u16]) -> Vec<u16> {
        let mut all = self.fixed.clone();
        for &p in pieces {
            all.extend_from_slice(&self.orbit[p as usize]);
        }
        all
    }
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
    fn new(geo: &Geometry<W>, pieces: &Pieces<W>, queens: &[u16]) -> Self {
        let n = geo.board.squares();
        let mut state = CoverState {
            count: vec![0; n],
            weight: vec![1; n],
            occupied: Bits::EMPTY,
            tabu: vec![0; queens.len()],
        };
        for &q in &pieces.fixed {
            geo.cover[q as usize].for_each(|s| state.count[s] += 1);
            state.occupied.set(q as usize);
        }
        for &q in queens {
            pieces.cover[q as usize].for_each(|s| state.count[s] += 1);
            for &m in pieces.members(q as usize) {
                state.occupied.set(m as usize);
            }
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
        pieces: &Pieces<W>,
        queens: &mut [u16],
        best: BestMove,
        step: u32,
        rng: &mut XorShift,
    ) {
        let Some((_, _, i, b)) = best.0 else {
            return;
        };
        pieces.cover[queens[i] as usize].for_each(|s| self.count[s] -= 1);
        pieces.cover[b].for_each(|s| self.count[s] += 1);
        for &m in pieces.members(queens[i] as usize) {
            self.occupied.clear(m as usize);
        }
        for &m in pieces.members(b) {
            self.occupied.set(m as usize);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_independent_dominating;
    use crate::layout::Layout;

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
            let greedy = greedy(&geo, Problem::IndependentDomination);
            check_independent_dominating(&layout(board, &greedy), greedy.len()).unwrap();
            let floor = super::super::bounds::lower_bound(board);
            let shrunk = shrink(
                &geo,
                greedy.clone(),
                false,
                floor,
                Problem::IndependentDomination,
                None,
                Effort::Fixed { keep_best: false },
            )
            .unwrap();
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
    fn rounds_until_cancelled_lengthen_from_a_quarter_and_keep_the_fixed_seeds_first() {
        // The fixed round is untouched: its steps and, without salt, its seeds.
        assert_eq!(round_steps(30_000, 0, false), 30_000);
        assert_eq!(round_steps(30_000, 5, false), 30_000);
        assert_eq!(round_seed(1234, 0, 0), 1234);
        // A step count of 0 stays 0: no symmetric search on boards that are not square (whose
        // orbits under a quarter turn do not exist).
        for round in 0..20 {
            assert_eq!(round_steps(0, round, true), 0);
        }
        let steps: Vec<u32> = (0..10).map(|r| round_steps(400_000, r, true)).collect();
        assert_eq!(steps[0], 100_000);
        assert_eq!(steps[2], 400_000);
        assert!(steps.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(*steps.last().unwrap(), 400_000 * MAX_ROUND_SCALE);
        // Every round and every salt has seeds of its own.
        let seeds: std::collections::HashSet<u64> = (0..8)
            .flat_map(|round| (0..4).map(move |salt| round_seed(99, round, salt)))
            .collect();
        assert_eq!(seeds.len(), 32);
    }

    #[test]
    fn a_search_until_cancelled_gives_its_best_layout_when_the_flag_is_raised() {
        // 14×26 for γ and i: boards where a few rounds run in a fraction of a second. The layout
        // comes back checked, no larger than the start, and not below the floor.
        for problem in [Problem::Domination, Problem::IndependentDomination] {
            let board = Board::new(14, 26).unwrap();
            let geo = Geometry::<8>::new(board);
            let start = greedy(&geo, problem);
            let floor = super::super::bounds::lower_bound(board);
            let cancel = std::sync::Arc::new(AtomicBool::new(false));
            let raiser = {
                let cancel = cancel.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    cancel.store(true, Relaxed);
                })
            };
            let best = shrink(
                &geo,
                start.clone(),
                false,
                floor,
                problem,
                Some(&*cancel),
                Effort::UntilCancelled { salt: 7 },
            )
            .expect("a search until cancelled keeps its best layout");
            raiser.join().unwrap();
            problem
                .check(&layout(board, &best), best.len())
                .unwrap_or_else(|e| panic!("{board} {problem:?}: {e}"));
            assert!(best.len() <= start.len() && best.len() >= floor);
            // The fixed round gives nothing once cancelled, unless told to keep its best.
            let fixed = |keep_best| {
                shrink(
                    &geo,
                    start.clone(),
                    false,
                    floor,
                    problem,
                    Some(&*cancel),
                    Effort::Fixed { keep_best },
                )
            };
            // (A size found within the first steps, before the flag is looked at, still counts.)
            if let Some(kept) = fixed(false) {
                assert_eq!(kept.len(), floor, "{board} {problem:?}");
            }
            let kept = fixed(true).expect("the fixed round keeps its best when told to");
            problem.check(&layout(board, &kept), kept.len()).unwrap();
            assert!(kept.len() <= start.len());
        }
    }

    #[test]
    fn symmetric_pieces_give_layouts_of_the_size_sought_that_the_symmetry_keeps() {
        // Q_11 has 5-queen layouts kept by a quarter turn (the centre and one orbit of four);
        // whatever the symmetric moves end on must dominate (for i: independently), have the
        // size sought, and be mapped onto itself.
        let mut successes = 0;
        for (n, queens) in [(11, 5), (11, 6), (10, 5), (12, 7), (13, 7)] {
            let board = Board::new(n, n).unwrap();
            let geo = Geometry::<4>::new(board);
            for rotation in [Symmetry::Rotate180, Symmetry::Rotate90, Symmetry::Transpose] {
                for independent in [false, true] {
                    let Some(pieces) = Pieces::symmetric(&geo, rotation, queens, independent)
                    else {
                        continue;
                    };
                    let count = pieces.pieces_for(queens);
                    let mut placed = pieces.greedy(&geo, count, independent);
                    // As in `shrink`: too few orbits to choose from (for i, where most attack).
                    if placed.len() < count.0 + count.1 {
                        continue;
                    }
                    assert_eq!(pieces.queens(&placed).len(), queens, "{board} {rotation:?}");
                    let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15 ^ (n * 64 + queens) as u64);
                    let found = if independent {
                        cover_independent(&geo, &pieces, &mut placed, 5_000, &mut rng, None)
                    } else {
                        cover_with(&geo, &pieces, &mut placed, 5_000, true, &mut rng, None)
                    };
                    if !found {
                        continue;
                    }
                    successes += 1;
                    let found = layout(board, &pieces.queens(&placed));
                    let check = if independent {
                        check_independent_dominating(&found, queens)
                    } else {
                        crate::check::check_dominating(&found, queens)
                    };
                    check.unwrap_or_else(|e| panic!("{board} {rotation:?}: {e}"));
                    let turned = Layout::new(
                        board,
                        found
                            .queens()
                            .iter()
                            .map(|&q| rotation.apply(board, q))
                            .collect(),
                    );
                    assert_eq!(turned, found, "{board} {rotation:?}");
                }
            }
        }
        assert!(
            successes >= 4,
            "only {successes} symmetric searches succeeded"
        );
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
                let mut queens = greedy(&geo, Problem::IndependentDomination);
                queens.pop();
                let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15 ^ (n * 64 + m) as u64);
                if cover_independent(
                    &geo,
                    &Pieces::single(&geo),
                    &mut queens,
                    2_000,
                    &mut rng,
                    None,
                ) {
                    successes += 1;
                    check_independent_dominating(&layout(board, &queens), queens.len())
                        .unwrap_or_else(|e| panic!("{board}: {e}"));
                }
            }
        }
        assert!(successes > 0, "no board improved on greedy");
    }
}
