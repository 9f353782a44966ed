//! The collision budget of a layout near Spencer's bound, and the border its slack leaves (both
//! proven below); the kernel applies them as structural rules (`kernel/rules.rs`).

use crate::board::Board;

/// The lines that `k` queens dominating an N×M board may share, when k + 2 ≤ min(N, M): the
/// *collisions* (for each of the four families, rows, columns, difference and sum diagonals, k
/// less the number of distinct lines of that family the queens stand on, summed) are at most
/// 4k + 2 − N − M. `None` when the argument does not apply.
///
/// Proof. Spencer's argument (see [`lower_bound`]) with the collisions kept. Let ρ and κ be the
/// numbers of rows and columns holding a queen, c_r = k − ρ, c_c = k − κ, and c_d the diagonal
/// collisions, so that 2k − c_d diagonals hold a queen. At least N − ρ ≥ 2 rows and M − κ ≥ 2
/// columns are empty (ρ, κ ≤ k ≤ min(N, M) − 2), so a < b and c < d in that proof, and its
/// border set S has at least 2(N − ρ) + 2(M − κ) − 4 squares, each covered along a diagonal
/// only, at most two per diagonal holding a queen (queens on one diagonal share its two):
/// 2(2k − c_d) ≥ 2(N + M − 2k + c_r + c_c) − 4, i.e. c_r + c_c + c_d ≤ 4k + 2 − N − M.
///
/// The budget grows with k, so the budget of the search's limit holds for every layout within it;
/// and a queen added never lowers the collisions, so a partial layout over the budget has no
/// completion. On the square boards whose optimum is one above the bound it is tight: refuting 11
/// queens on Q_23 or 12 on Q_25 the budget is 0 (the queens attack each other along no line),
/// 2 for n/2 queens on even boards. [`border_waste_exceeds`] goes further with what the budget
/// leaves.
pub fn collision_budget(board: Board, limit: usize) -> Option<i64> {
    let (n, m) = (board.rows(), board.cols());
    (limit + 2 <= n.min(m)).then(|| 4 * limit as i64 + 2 - n as i64 - m as i64)
}

/// Spencer's border with the ends of the queens' diagonals kept: whether the queens placed, on the
/// rows `rows`, columns `cols`, difference diagonals `diags` (bit c − r + N − 1) and sum diagonals
/// `antis` (bit r + c), waste more of the border than a layout within the budget may, whatever the
/// `remaining` queens still to come do. `slack` is the budget less the collisions already made
/// (counted over all four line families, see [`collision_budget`]).
///
/// Proof. In the proof of [`collision_budget`], the border set S of the final layout's rectangle
/// [a, b] × [c, d] (a, b the first and last empty rows, c, d the first and last empty columns) has
/// at least 2(N − ρ) + 2(M − κ) − 4 squares, and every square of S lies on a diagonal holding a
/// queen. A diagonal holds at most two squares of S, the ends of its run in the rectangle. So
/// |S| ≤ 2L − w, where L = 2k − c_d is the number of distinct diagonals holding a queen (c_d the
/// diagonal collisions) and w the *waste*: the sum over those diagonals of 2 less the squares of S
/// they hold. With c = c_r + c_c + c_d the collisions of all four families this gives
/// w + 2c ≤ 2(4k + 2 − N − M) = 2·budget. An end of a run lies on the rectangle's border, so in
/// an empty row if it is on row a or b and in an empty column if on column c or d: it is outside S
/// when its column (top or bottom side) or its row (left or right side) holds a queen. Queens
/// added later only add collisions and occupied lines, so the waste counted from the queens placed
/// and the lines they occupy, with the collisions made so far, must already fit. The rectangle is
/// not known yet, but the empty rows skipped before a and after b will each hold one of the
/// `remaining` queens still to come, so together they are at most `remaining`, and so are the
/// columns skipped before c and after d; the bound takes the least waste over all such
/// rectangles. Each run end depends on two sides only (the
/// upper end of a difference diagonal on a and c, its lower end on b and d; of a sum diagonal on
/// a and d, and on b and c), and an end is counted wasted only by what the two sides say, so a
/// diagonal that misses the rectangle (truly wasting 2) counts at most 2: the sum is a lower bound
/// on w for every rectangle.
pub fn border_waste_exceeds(board: Board, held: [u64; 4], slack: i64, remaining: usize) -> bool {
    if slack < 0 {
        return true;
    }
    let [rows, cols, diags, antis] = held;
    if diags == 0 || remaining + 1 > BORDER_SIDES {
        return false;
    }
    let allowed = 2 * slack as u32;
    let (n, m) = (board.rows() as i32, board.cols() as i32);
    // Lines past the board count as holding a queen: an end there is no square of S.
    let rows_ext = rows | !0u64 << n;
    let cols_ext = cols | !0u64 << m;
    let rows_rev = rows_ext.reverse_bits();
    let take = remaining + 1;
    let (tops, n_tops) = first_free(rows, n, take, true);
    let (bottoms, n_bottoms) = first_free(rows, n, take, false);
    let (lefts, n_lefts) = first_free(cols, m, take, true);
    let (rights, n_rights) = first_free(cols, m, take, false);
    if n_lefts == 0 {
        // No column is free: no rectangle, left to the other bounds.
        return false;
    }
    // Bit t of each mask says whether that diagonal's end on the given side is wasted (on a
    // column holding a queen for the top and bottom sides, on such a row for the left and right
    // ones); which side an end lies on is a threshold on t.
    //
    // Difference diagonal t (column = row + t − (N − 1)): its upper end is on row a, at column
    // a + t − N + 1, when that column is at least c, else on column c, at row c + N − 1 − t; its
    // lower end on row b, at column b + t − N + 1, when that is at most d, else on column d, at
    // row d + N − 1 − t. Sum diagonal s: its upper end is on row a, at column s − a, when that
    // is at most d, else on column d, at row s − d; its lower end on row b, at column s − b,
    // when that is at least c, else on column c, at row s − c.
    let left_rows = |c: i32| (shifted(rows_rev, 64 - c - n), shifted(rows_ext, -c));
    let right_rows = |d: i32| (shifted(rows_ext, -d), shifted(rows_rev, 64 - d - n));
    let mut lefts_rows = [(0u64, 0u64); BORDER_SIDES];
    for (l, &c) in lefts[..n_lefts].iter().enumerate() {
        lefts_rows[l] = left_rows(c);
    }
    let mut rights_rows = [(0u64, 0u64); BORDER_SIDES];
    for (r, &d) in rights[..n_rights].iter().enumerate() {
        rights_rows[r] = right_rows(d);
    }
    // The bottom sides' wastes, computed when first needed.
    let mut bottom_left = [[0u8; BORDER_SIDES]; BORDER_SIDES];
    let mut bottom_right = [[0u8; BORDER_SIDES]; BORDER_SIDES];
    let mut bottom_known = 0u32;
    // (No rectangle at all is left to the other bounds: the budget's layouts have one.)
    let mut rectangles = false;
    for (i, &a) in tops[..n_tops].iter().enumerate() {
        let top_diag = shifted(cols_ext, a - n + 1);
        let top_anti = shifted(cols_ext, -a);
        let mut top_left = [0u8; BORDER_SIDES];
        for (l, &c) in lefts[..n_lefts].iter().enumerate() {
            let on_top = at_least(c - a + n - 1);
            let wasted = (top_diag & on_top) | (lefts_rows[l].0 & !on_top);
            top_left[l] = (diags & wasted).count_ones() as u8;
        }
        let mut top_right = [0u8; BORDER_SIDES];
        for (r, &d) in rights[..n_rights].iter().enumerate() {
            let on_top = !at_least(a + d + 1);
            let wasted = (top_anti & on_top) | (rights_rows[r].0 & !on_top);
            top_right[r] = (antis & wasted).count_ones() as u8;
        }
        let least = |row: &[u8; BORDER_SIDES], len: usize| {
            row[..len].iter().copied().min().unwrap_or(0) as u32
        };
        let (top_left_least, top_right_least) =
            (least(&top_left, n_lefts), least(&top_right, n_rights));
        // The lines skipped before a and after b need a queen each, as do the columns skipped.
        for (j, &b) in bottoms[..n_bottoms.min(take - i)].iter().enumerate() {
            if b <= a {
                break;
            }
            rectangles = true;
            if top_left_least + top_right_least > allowed {
                break;
            }
            if bottom_known >> j & 1 == 0 {
                bottom_known |= 1 << j;
                let bottom_anti = shifted(cols_ext, -b);
                let bottom_diag = shifted(cols_ext, b - n + 1);
                for (l, &c) in lefts[..n_lefts].iter().enumerate() {
                    let on_bottom = at_least(b + c);
                    let wasted = (bottom_anti & on_bottom) | (lefts_rows[l].1 & !on_bottom);
                    bottom_left[j][l] = (antis & wasted).count_ones() as u8;
                }
                for (r, &d) in rights[..n_rights].iter().enumerate() {
                    let on_bottom = !at_least(d - b + n);
                    let wasted = (bottom_diag & on_bottom) | (rights_rows[r].1 & !on_bottom);
                    bottom_right[j][r] = (diags & wasted).count_ones() as u8;
                }
            }
            let mut left_least = [u8::MAX; BORDER_SIDES];
            let mut least_so_far = u8::MAX;
            for l in 0..n_lefts {
                least_so_far = least_so_far.min(top_left[l] + bottom_left[j][l]);
                left_least[l] = least_so_far;
            }
            if least_so_far as u32 + top_right_least > allowed {
                continue;
            }
            // Left side l and right side r together skip l + r columns.
            let right = (0..n_rights)
                .map(|r| {
                    let l = (take - 1 - r).min(n_lefts - 1);
                    top_right[r] as u32 + bottom_right[j][r] as u32 + left_least[l] as u32
                })
                .min()
                .expect("a right side");
            if right <= allowed {
                return false;
            }
        }
    }
    rectangles
}

/// Most candidates for each side of the rectangle in [`border_waste_exceeds`]: it applies with
/// at most this many queens less one still to place.
const BORDER_SIDES: usize = 16;

/// The first `take` lines (of `len`) holding no queen in `occupied`, from the low end or the high
/// end.
#[inline(always)]
fn first_free(
    occupied: u64,
    len: i32,
    take: usize,
    from_low: bool,
) -> ([i32; BORDER_SIDES], usize) {
    let mut out = [0i32; BORDER_SIDES];
    let mut free = !occupied & !(!0u64 << len);
    let mut count = 0;
    while free != 0 && count < take {
        let line = if from_low {
            free.trailing_zeros() as i32
        } else {
            63 - free.leading_zeros() as i32
        };
        free &= !(1u64 << line);
        out[count] = line;
        count += 1;
    }
    (out, count)
}

/// Bit t is bit t + `by` of `bits`, or set where t + `by` falls outside 0..64.
#[inline(always)]
fn shifted(bits: u64, by: i32) -> u64 {
    if by >= 64 || by <= -64 {
        !0
    } else if by >= 0 {
        bits >> by | !(!0u64 >> by)
    } else {
        bits << -by | !(!0u64 << -by)
    }
}

/// The bits t ≥ `from`.
#[inline(always)]
fn at_least(from: i32) -> u64 {
    if from <= 0 {
        !0
    } else if from >= 64 {
        0
    } else {
        !0u64 << from
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShift;
    use crate::search::bounds::tests::{dominating_sets, every_dominating_subset};

    /// The rows, columns, difference and sum diagonals held by `queens` on an N×M board, as
    /// `border_waste_exceeds` takes them, and their collisions over all four families.
    fn held_lines(board: Board, queens: &[usize]) -> ([u64; 4], i64) {
        let (n, m) = (board.rows(), board.cols());
        let mut held = [0u64; 4];
        let mut collisions = 0;
        for &q in queens {
            let (r, c) = (q / m, q % m);
            for (family, line) in [r, c, c + n - 1 - r, r + c].into_iter().enumerate() {
                collisions += (held[family] >> line & 1) as i64;
                held[family] |= 1 << line;
            }
        }
        (held, collisions)
    }

    /// `border_waste_exceeds` as first written, one diagonal end at a time: the oracle for its
    /// bit-parallel form.
    fn border_waste_exceeds_slowly(
        board: Board,
        held: [u64; 4],
        slack: i64,
        remaining: usize,
    ) -> bool {
        if slack < 0 {
            return true;
        }
        let [rows, cols, diags, antis] = held;
        if diags == 0 || remaining + 1 > BORDER_SIDES {
            return false;
        }
        let (n, m) = (board.rows() as i32, board.cols() as i32);
        let free = |occupied: u64, len: i32| -> Vec<i32> {
            (0..len).filter(|&l| occupied >> l & 1 == 0).collect()
        };
        // The first and the last `remaining + 1` free lines: where a side of the rectangle may lie.
        let ends = |free: Vec<i32>| -> (Vec<i32>, Vec<i32>) {
            let first = free.iter().take(remaining + 1).copied().collect();
            let last = free.iter().rev().take(remaining + 1).copied().collect();
            (first, last)
        };
        let (tops, bottoms) = ends(free(rows, n));
        let (lefts, rights) = ends(free(cols, m));
        let row_taken = |y: i32| (y < 0 || y >= n || rows >> y & 1 == 1) as u32;
        let col_taken = |x: i32| (x < 0 || x >= m || cols >> x & 1 == 1) as u32;
        let lines = |mask: u64| (0..64).filter(move |&t| mask >> t & 1 == 1);
        let waste = |a: i32, b: i32, c: i32, d: i32| -> u32 {
            let mut w = 0;
            for t in lines(diags) {
                let delta = t - (n - 1);
                w += if a + delta >= c {
                    col_taken(a + delta)
                } else {
                    row_taken(c - delta)
                };
                w += if b + delta <= d {
                    col_taken(b + delta)
                } else {
                    row_taken(d - delta)
                };
            }
            for s in lines(antis) {
                w += if s - a <= d {
                    col_taken(s - a)
                } else {
                    row_taken(s - d)
                };
                w += if s - b >= c {
                    col_taken(s - b)
                } else {
                    row_taken(s - c)
                };
            }
            w
        };
        let mut least = u32::MAX;
        for (i, &a) in tops.iter().enumerate() {
            for (j, &b) in bottoms.iter().enumerate() {
                for (l, &c) in lefts.iter().enumerate() {
                    for (q, &d) in rights.iter().enumerate() {
                        if b > a && i + j <= remaining && l + q <= remaining {
                            least = least.min(waste(a, b, c, d));
                        }
                    }
                }
            }
        }
        least != u32::MAX && least > 2 * slack as u32
    }

    #[test]
    fn border_waste_agrees_with_one_end_at_a_time() {
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = || rng.next();
        let mut pruned = 0;
        for case in 0..20_000 {
            let (rows, cols) = (4 + (next() % 29) as usize, 4 + (next() % 29) as usize);
            let board = Board::new(rows, cols).unwrap();
            let queens: Vec<usize> = (0..1 + next() % 12)
                .map(|_| (next() % (rows * cols) as u64) as usize)
                .collect();
            let (held, _) = held_lines(board, &queens);
            let slack = (next() % 4) as i64;
            let remaining = (next() % 16) as usize;
            let fast = border_waste_exceeds(board, held, slack, remaining);
            assert_eq!(
                fast,
                border_waste_exceeds_slowly(board, held, slack, remaining),
                "case {case}: {board}, {queens:?}, slack {slack}, {remaining} left"
            );
            pruned += fast as usize;
        }
        assert!(pruned > 1000, "only {pruned} pruned");
    }

    #[test]
    fn no_part_of_a_small_layout_wastes_too_much_border() {
        // Every dominating set within a budget, and every part of it with the queens still to
        // come, must pass; partial layouts of no dominating set are pruned often enough to show
        // the test can fail.
        let (mut parts, mut sharp, mut pruned) = (0usize, 0usize, 0usize);
        for (rows, cols) in BUDGET_BOARDS {
            let board = Board::new(rows, cols).unwrap();
            let most = rows.min(cols) - 2;
            every_budgeted_layout(board, &mut |queens, budget| {
                let k = queens.len();
                for subset in 0u32..1 << k {
                    let part: Vec<usize> = (0..k)
                        .filter(|&i| subset >> i & 1 == 1)
                        .map(|i| queens[i])
                        .collect();
                    let (held, collisions) = held_lines(board, &part);
                    assert!(
                        !border_waste_exceeds(board, held, budget - collisions, k - part.len()),
                        "{board}: {part:?} of {queens:?} pruned"
                    );
                    parts += 1;
                }
                let (held, collisions) = held_lines(board, queens);
                // Within two of the bound: the bound has no slack to hide an off-by-one.
                sharp += border_waste_exceeds(board, held, budget - collisions - 1, 0) as usize;
            });
            // Random partial layouts: some are pruned.
            // `x`: the generator's last number (its seed at first).
            let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (rows * 31 + cols) as u64;
            let mut rng = XorShift::new(x);
            for _ in 0..2000 {
                let k = 1 + (x % most as u64) as usize;
                let mut part = Vec::new();
                for _ in 0..k {
                    x = rng.next();
                    part.push((x % (rows * cols) as u64) as usize);
                }
                let (held, collisions) = held_lines(board, &part);
                let budget = collision_budget(board, most).unwrap();
                pruned += border_waste_exceeds(board, held, budget - collisions, most - k) as usize;
            }
        }
        // The tight boards: 5 queens on Q_10 (budget 2) and on Q_11 (budget 0), every minimum
        // layout and every part of it.
        let mut tight = 0;
        for n in [10, 11] {
            let board = Board::new(n, n).unwrap();
            let budget = collision_budget(board, 5).unwrap();
            dominating_sets(board, 5, &mut |queens| {
                for subset in 0u32..1 << queens.len() {
                    let part: Vec<usize> = (0..queens.len())
                        .filter(|&i| subset >> i & 1 == 1)
                        .map(|i| queens[i])
                        .collect();
                    let (held, collisions) = held_lines(board, &part);
                    assert!(
                        !border_waste_exceeds(board, held, budget - collisions, 5 - part.len()),
                        "{board}: {part:?} of {queens:?} pruned"
                    );
                }
                tight += 1;
            });
        }
        assert_eq!(tight, 8 + 2, "the minimum layouts of Q_10 and Q_11");
        assert!(parts > 100_000, "only {parts} parts");
        assert!(sharp > 0, "no layout meets the bound exactly");
        assert!(pruned > 1000, "only {pruned} random parts pruned");
    }

    /// Boards small enough to enumerate every dominating set of at most min(N, M) − 2 queens, some
    /// of which meet the collision budget exactly.
    const BUDGET_BOARDS: [(usize, usize); 9] = [
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
        (4, 7),
        (5, 8),
        (5, 11),
        (6, 9),
        (7, 9),
    ];

    /// Call `check` with every dominating set of at most min side − 2 queens of `board` and its
    /// collision budget.
    fn every_budgeted_layout(board: Board, check: &mut dyn FnMut(&[usize], i64)) {
        let most = board.rows().min(board.cols()) - 2;
        every_dominating_subset(board, most, &mut |queens| {
            let budget = collision_budget(board, queens.len()).expect("k + 2 <= min side");
            check(queens, budget)
        });
    }

    #[test]
    fn every_small_layout_keeps_its_collision_budget() {
        let (mut layouts, mut sharp) = (0, 0);
        for (rows, cols) in BUDGET_BOARDS {
            let board = Board::new(rows, cols).unwrap();
            let most = rows.min(cols) - 2;
            every_budgeted_layout(board, &mut |queens, budget| {
                let k = queens.len();
                let distinct = |f: &dyn Fn(usize) -> usize| {
                    let mut seen: Vec<usize> = queens.iter().map(|&q| f(q)).collect();
                    seen.sort_unstable();
                    seen.dedup();
                    seen.len()
                };
                let collisions = (k - distinct(&|q| q / cols))
                    + (k - distinct(&|q| q % cols))
                    + (k - distinct(&|q| q % cols + rows - q / cols))
                    + (k - distinct(&|q| q / cols + q % cols));
                assert!(
                    collisions as i64 <= budget,
                    "{board}: {queens:?} has {collisions} collisions, budget {budget}"
                );
                layouts += 1;
                sharp += (collisions as i64 == budget) as usize;
            });
            // Beyond min − 2 queens the argument needs two empty rows and columns it may lack.
            assert_eq!(collision_budget(board, most + 1), None);
        }
        // The cases must reach the bound, or an off-by-one in it would pass.
        assert!(layouts > 10_000, "only {layouts} layouts");
        assert!(sharp > 0, "no layout meets its budget");
    }
}
