//! Lower bounds on the number of queens a layout needs: the static bound of a whole board (used to
//! skip the search when the start layout already meets it), and the line-forcing bound the kernel
//! applies at every node.
//!
//! Every bound here is a proof that no completion with at most the given number of further queens
//! exists; none of them keeps only some of several optimal layouts, so a search that counts every
//! layout up to a size can use them as they are.

use crate::board::{Bits, Board, Geometry, LINE_FAMILY_OFFSET, LINE_SLOTS, MAX_SIDE};

use super::lines::{ones32, top_sum, FAMILY_SLOTS};

/// A lower bound on γ(N×M), and so on i(N×M) ≥ γ(N×M): min(N, M, ⌈(N+M−2)/4⌉) (Spencer's argument,
/// as extended to rectangles; see Bozóki, Gál, Marosi and Weakley, "Domination of the rectangular
/// queen's graph", 2016).
///
/// Proof. Let k queens dominate the board with k < min(N, M). Then some row and some column hold no
/// queen. Call a row or column *empty* if it holds no queen; at least N − k rows and M − k columns
/// are empty. A square in an empty row and an empty column is covered along a diagonal only. Let a, b
/// be the first and last empty rows, c, d the first and last empty columns; every empty row lies in
/// [a, b] and every empty column in [c, d].
///
/// - If a < b and c < d, let S be the squares on the border of the rectangle [a, b] × [c, d] that lie
///   in an empty row and an empty column. Rows a and b each meet every empty column inside the
///   rectangle's border, and columns c and d every empty row, so |S| ≥ 2(M − k) + 2(N − k) − 4 (the
///   four corners counted twice). A diagonal meets the rectangle in a run of consecutive squares of
///   which only the two ends can lie on the border (the squares between have a rectangle square on
///   each side along the diagonal, so they are inside), and every queen lies on two diagonals, so k
///   queens cover at most 4k squares of S: 4k ≥ 2(N + M) − 4k − 4, i.e. k ≥ (N + M − 2)/4.
/// - If a = b, exactly one row is empty, so k ≥ N − 1; the M − k or more squares of that row in
///   empty columns are covered along diagonals, at most two per queen, so M − k ≤ 2k. Then
///   4k ≥ (N − 1) + M ≥ N + M − 2. If c = d, the same with rows and columns exchanged.
///
/// So k ≥ ⌈(N + M − 2)/4⌉ whenever k < min(N, M).
pub fn lower_bound(board: Board) -> usize {
    let (n, m) = (board.rows(), board.cols());
    n.min(m).min((n + m - 2).div_ceil(4)).max(1)
}

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

/// Weakley's colour rule for n/2 queens on an even square board ("Queen domination of even square
/// boards", Electron. J. Combin. 29(2) (2022) P2.50): colour a square by the parity of row +
/// column. If a dominating set D of Q_n, n even, has n/2 queens, then either both colours occur
/// and their counts differ by at most 2, or D is *monochromatic*; a monochromatic D needs
/// n ∈ {4, 12} when n ≡ 0 (mod 4), and odd d, e ≤ k = n/2 with d² + (k − 1)e² = k(k² + 2)/3 when
/// n ≡ 2 (mod 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfColours {
    /// The most queens of one colour a layout with both colours may hold: (k + 2)/2.
    pub most_of_one: usize,
    /// Whether the theorem allows a monochromatic layout on this board.
    pub monochromatic: bool,
}

impl HalfColours {
    /// Whether a partial layout with these many queens of each colour has no completion within
    /// the rule: one colour past `most_of_one`, and the layout bichromatic already or bound to be.
    pub fn exceeded(self, odd: usize, even: usize) -> bool {
        odd.max(even) > self.most_of_one && (odd.min(even) > 0 || !self.monochromatic)
    }
}

/// The colour rule for a search of layouts of at most `limit` queens: `Some` when the board is
/// square and even and `limit` is n/2 (fewer queens than n/2 never dominate it, by Spencer's
/// bound, so every layout within the limit has exactly n/2).
pub fn half_colours(board: Board, limit: usize) -> Option<HalfColours> {
    let n = board.rows();
    if !board.is_square() || !n.is_multiple_of(2) || limit != n / 2 {
        return None;
    }
    let k = limit;
    let monochromatic = if n.is_multiple_of(4) {
        n == 4 || n == 12
    } else {
        let target = k * (k * k + 2) / 3;
        (1..=k).step_by(2).any(|e| {
            let rest = target.checked_sub((k - 1) * e * e);
            rest.is_some_and(|r| (1..=k).step_by(2).any(|d| d * d == r))
        })
    };
    Some(HalfColours {
        most_of_one: (k + 2) / 2,
        monochromatic,
    })
}

/// The cheap half of the line-forcing bound, for all four families: a line with more than
/// 3·`remaining` uncovered squares must receive a queen of its own, since a queen off a line covers
/// at most three of its squares (where its three other lines cross it), and each queen lies on one
/// line of each family.
#[inline(always)]
pub(crate) fn too_many_full_lines(counts: &[u8; LINE_SLOTS], remaining: usize) -> bool {
    let most = 3 * remaining;
    if most >= MAX_SIDE {
        return false;
    }
    let most = most as u8;
    LINE_FAMILY_OFFSET.iter().any(|&offset| {
        counts[offset..offset + FAMILY_SLOTS]
            .iter()
            .map(|&c| (c > most) as u8)
            .sum::<u8>() as usize
            > remaining
    })
}

/// The lines of one family (rows, or columns) of a node, as bit masks: bit x of `uncovered[l]` (of
/// `allowed[l]`) is the square at position x along line l, positions counted across the family
/// (along a row, by column).
///
/// The exact half of the line-forcing bound works on these. A line ℓ must receive a queen of its
/// own when no `remaining` allowed queens off it cover its uncovered squares; each queen lies on one
/// line of the family, so more such *forced* lines than queens leave no completion. A queen at
/// distance d from ℓ (on line ℓ ± d) at position x covers the squares of ℓ at x (along its crossing
/// line) and x ± d (along its diagonals), so whether ℓ can be covered is a small exact-cover
/// question along ℓ.
///
/// Lines found forced make the test stronger for the others: a completion gives each forced line
/// a queen, so if ℓ holds none, its squares are covered by `remaining` queens off it of which one
/// stands on each forced line (and may cover nothing of ℓ). When no such queens exist, ℓ is forced
/// too; the test repeats until no line is added. On thin boards this more than halves the tree
/// (11x18, no 7 queens: 3.17 M nodes against 8.40 M; 12x21, no 9: 28.0 M against 82.3 M).
///
/// A line forced at a node stays forced below it while no queen is placed on it: a completion
/// of the child with a queen v off ℓ and the child's queens would be one of the parent's, since
/// allowed squares only shrink going down, and v with the child's queens stands on every line
/// forced before ℓ was (by the same argument, line by line in the order they were found).
pub(crate) struct FamilyMasks {
    pub uncovered: [u32; MAX_SIDE],
    pub allowed: [u32; MAX_SIDE],
    /// Lines in the family and squares on each.
    pub lines: usize,
    pub width: usize,
}

/// Forced lines of a family, as a mask of line indices.
#[derive(Clone, Copy, Default)]
pub(crate) struct Forced {
    pub lines: u32,
    pub count: usize,
}

impl FamilyMasks {
    /// `lines` lines of `width` squares, none uncovered or allowed yet.
    #[inline(always)]
    fn empty(lines: usize, width: usize) -> FamilyMasks {
        FamilyMasks {
            uncovered: [0; MAX_SIDE],
            allowed: [0; MAX_SIDE],
            lines,
            width,
        }
    }

    pub fn rows<const W: usize>(geo: &Geometry<W>, uncovered: &Bits<W>, allowed: &Bits<W>) -> Self {
        let (rows, cols) = (geo.board.rows(), geo.board.cols());
        let mut m = FamilyMasks::empty(rows, cols);
        for r in 0..rows {
            m.uncovered[r] = uncovered.extract(r * cols, cols) as u32;
            m.allowed[r] = allowed.extract(r * cols, cols) as u32;
        }
        m
    }

    /// The columns, with positions along them counted by row.
    pub fn cols<const W: usize>(geo: &Geometry<W>, uncovered: &Bits<W>, allowed: &Bits<W>) -> Self {
        let (rows, cols) = (geo.board.rows(), geo.board.cols());
        let mut m = FamilyMasks::empty(cols, rows);
        let col_slot = LINE_FAMILY_OFFSET[1];
        uncovered.for_each(|s| {
            let [r, c, _, _] = geo.lines[s];
            m.uncovered[c as usize - col_slot] |= 1 << r;
        });
        allowed.for_each(|s| {
            let [r, c, _, _] = geo.lines[s];
            m.allowed[c as usize - col_slot] |= 1 << r;
        });
        m
    }

    /// The lines that must each receive one of `remaining` queens; `counts` are the uncovered
    /// squares per line. Stops early once more lines than queens are forced, or once too few
    /// lines are left untested to force more than that.
    pub fn forced(&self, counts: &[u8], remaining: usize) -> Forced {
        let mut out = Forced::default();
        // A line with no more uncovered squares than queens is rarely forced but by a square no
        // queen covers at all (testing them too saved 4 nodes of 3.6 M on 11x18), so only fuller
        // lines get the exact test. It is worth its cost only while more lines than queens could
        // still turn out forced, so the fullest lines go first.
        let mut open = [(0u8, 0u8); MAX_SIDE];
        let mut n = 0;
        for (l, &count) in counts[..self.lines].iter().enumerate() {
            let need = count as usize;
            if need == 0 {
                continue;
            }
            if need > 3 * remaining || self.uncovered[l] as u64 & !self.reachable(l) != 0 {
                out.lines |= 1 << l;
                out.count += 1;
            } else if need > remaining {
                open[n] = (count, l as u8);
                n += 1;
            }
        }
        let open = &mut open[..n];
        open.sort_unstable_by(|a, b| b.cmp(a));
        loop {
            let before = out.count;
            let mut untested = n;
            for &(_, l) in open.iter() {
                let l = l as usize;
                if out.lines >> l & 1 != 0 {
                    untested -= 1;
                    continue;
                }
                if out.count + untested <= remaining || out.count > remaining {
                    break;
                }
                untested -= 1;
                if !self.coverable_given(l, self.uncovered[l] as u64, remaining, out.lines) {
                    out.lines |= 1 << l;
                    out.count += 1;
                }
            }
            if out.count == before || out.count > remaining {
                break;
            }
        }
        out
    }

    /// Whether `remaining` allowed queens off line `l`, among them one on each of the lines
    /// `required` (lines already known to need a queen of their own), cover `target`: a
    /// completion in which `l` holds no queen has such queens, so when none exist, `l` needs a
    /// queen too.
    pub fn coverable_given(&self, l: usize, target: u64, remaining: usize, required: u32) -> bool {
        for s in ones32(required) {
            if self.allowed[s] == 0 {
                // No queen can stand on a line that needs one: no completion at all.
                return false;
            }
        }
        let free = remaining.saturating_sub(required.count_ones() as usize);
        self.cover_with_required(&self.view(l), l, target, free, required)
    }

    /// The search behind `coverable_given`: `free` queens anywhere off `l`, and one queen on each
    /// line of `required` (which may cover nothing of `target`), each square of `target` covered
    /// by some allowed queen off `l`. The lowest square p of `target` is covered either by the
    /// queen of a required line, or by a free queen at some distance d; try each, then cover the
    /// rest.
    ///
    /// A queen at distance d covering p stands at x = p + d (covering p, p + d, p + 2d), at x = p
    /// (covering p − d, p, p + d) or at x = p − d (covering p − 2d, p − d, p). No square of
    /// `target` lies below p, so the first covers all the second does, and the third covers p
    /// alone: per line (required) or per distance (free), only the best one allowed is tried,
    /// and a free queen covering p alone only if no free queen covers more. The first queen must
    /// leave at most three squares per later queen.
    fn cover_with_required(
        &self,
        view: &LineView,
        l: usize,
        target: u64,
        free: usize,
        required: u32,
    ) -> bool {
        let t = target.count_ones() as usize;
        if t == 0 {
            return true;
        }
        let queens = free + required.count_ones() as usize;
        if t > 3 * queens {
            return false;
        }
        if t <= free {
            // A free queen for every square.
            return true;
        }
        if required == 0 {
            if free == 1 {
                return view.one_queen_covers(target);
            }
        } else {
            // Squares no queen of a required line can reach are left to the free queens.
            let mut reach = 0u64;
            for s in ones32(required) {
                reach |= self.covered_from(s, l);
            }
            if (target & !reach).count_ones() as usize > 3 * free {
                return false;
            }
        }
        let p = target.trailing_zeros() as usize;
        let need_first = t.saturating_sub(3 * (queens - 1));
        for s in ones32(required) {
            let hit = best_hit(self.allowed[s] as u64, p, s.abs_diff(l)) & target;
            if hit != 0
                && hit.count_ones() as usize >= need_first
                && self.cover_with_required(view, l, target & !hit, free, required & !(1 << s))
            {
                return true;
            }
        }
        if free == 0 {
            return false;
        }
        let mut alone = false;
        for d in 1..=view.farthest {
            let hit = best_hit(view.by_distance[d], p, d) & target;
            if hit == 0 {
                continue;
            }
            if hit.count_ones() == 1 {
                alone = true;
            } else if hit.count_ones() as usize >= need_first
                && self.cover_with_required(view, l, target & !hit, free - 1, required)
            {
                return true;
            }
        }
        alone
            && need_first <= 1
            && self.cover_with_required(view, l, target & (target - 1), free - 1, required)
    }

    /// Whether line `l` must receive a queen of its own when `remaining` queens are left: the
    /// test `forced` applies to each line, in one piece (for tests).
    #[cfg(test)]
    fn needs_own_queen(&self, l: usize, remaining: usize, required: u32) -> bool {
        let target = self.uncovered[l] as u64;
        target != 0
            && (target.count_ones() as usize > 3 * remaining
                || target & !self.reachable(l) != 0
                || !self.coverable_given(l, target, remaining, required))
    }

    /// The allowed squares off line `l`, by distance from it.
    fn view(&self, l: usize) -> LineView {
        let mut view = LineView {
            by_distance: [0; MAX_SIDE],
            farthest: l.max(self.lines - 1 - l),
        };
        for s in 0..self.lines {
            if s != l {
                view.by_distance[s.abs_diff(l)] |= self.allowed[s] as u64;
            }
        }
        view
    }

    /// The positions of line `l` that some allowed queen off it covers.
    fn reachable(&self, l: usize) -> u64 {
        let mut out = 0u64;
        for s in 0..self.lines {
            if s != l {
                out |= self.covered_from(s, l);
            }
        }
        out & ((1 << self.width) - 1)
    }

    /// The positions of line `l` that some allowed queen of line `s` (not `l`) covers, at
    /// distance d = |s − l|: x and x ± d for each allowed position x of `s` (some may lie past
    /// the line's end).
    fn covered_from(&self, s: usize, l: usize) -> u64 {
        let d = s.abs_diff(l);
        let a = self.allowed[s] as u64;
        a | a >> d | a << d
    }
}

/// The allowed squares off one line of a family, by distance from the line: bit x of
/// `by_distance[d]` is set when some line at distance d (on either side) has an allowed square at
/// position x. A queen there covers the line's squares x and x ± d, whichever side it is on, so
/// this is all the exact test needs, built once per line instead of looked up per square.
struct LineView {
    by_distance: [u64; MAX_SIDE],
    farthest: usize,
}

impl LineView {
    fn at(&self, d: usize, x: usize) -> bool {
        self.by_distance[d] >> x & 1 != 0
    }

    /// Whether one queen of the view covers all of `target` (two or three squares): at distance d
    /// it covers x and x ± d, so two squares y < z are x and x + d, x − d and x, or x − d and
    /// x + d; three must be evenly spaced around x.
    fn one_queen_covers(&self, target: u64) -> bool {
        let y = target.trailing_zeros() as usize;
        let rest = target & (target - 1);
        let z = rest.trailing_zeros() as usize;
        let d = z - y;
        if rest & (rest - 1) != 0 {
            let last = 63 - target.leading_zeros() as usize;
            return last - z == d && self.at(d, z);
        }
        self.at(d, y) || self.at(d, z) || (d.is_multiple_of(2) && self.at(d / 2, y + d / 2))
    }
}

/// The squares of a line a queen at distance `d` from it covers, for the best of the positions
/// `allowed` (bit x: a queen may stand at position x) from which it covers square `p`, when no
/// square to cover lies below p: x = p + d (covering p, p + d, p + 2d) before x = p (p, p + d)
/// before x = p − d (only p of the squares at p or above); 0 when none is allowed.
fn best_hit(allowed: u64, p: usize, d: usize) -> u64 {
    if allowed >> (p + d) & 1 != 0 {
        1u64 << p | 1 << (p + d) | 1 << (p + 2 * d)
    } else if allowed >> p & 1 != 0 {
        1u64 << p | 1 << (p + d)
    } else if p >= d && allowed >> (p - d) & 1 != 0 {
        1u64 << p
    } else {
        0
    }
}

/// Whether `forced` (the forced lines of the family `masks`, with `family` its index among the
/// four families) leaves no completion with `remaining` queens:
/// - more forced lines than queens, or a forced line with no allowed square;
/// - the line bound with the forced lines among the lines holding queens: the lines of the family
///   that hold the `remaining` queens are the forced ones and at most `remaining − forced` others.
pub(crate) fn forcing_bound_exceeds(
    masks: &FamilyMasks,
    family: usize,
    forced: Forced,
    counts: &[u8; LINE_SLOTS],
    need: usize,
    remaining: usize,
) -> bool {
    if forced.count > remaining {
        return true;
    }
    if forced.count == 0 {
        return false;
    }
    for l in ones32(forced.lines) {
        if masks.allowed[l] == 0 {
            return true;
        }
    }
    let mut reach = 0usize;
    for (g, offset) in LINE_FAMILY_OFFSET.into_iter().enumerate() {
        let mut lines: [u8; FAMILY_SLOTS] = counts[offset..offset + FAMILY_SLOTS]
            .try_into()
            .expect("families are 64 slots wide");
        if g != family {
            reach += top_sum(&lines, remaining);
            continue;
        }
        for l in ones32(forced.lines) {
            reach += lines[l] as usize;
            lines[l] = 0;
        }
        reach += top_sum(&lines, remaining - forced.count);
    }
    reach < need
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShift;

    /// A line can be covered by `remaining` queens off it, by brute force over every set of allowed
    /// squares off the line.
    /// ... with at least one of them on each line of `required`.
    fn brute_coverable(m: &FamilyMasks, l: usize, remaining: usize, required: u32) -> bool {
        let mut hits = Vec::new();
        for s in 0..m.lines {
            if s == l {
                continue;
            }
            let d = s.abs_diff(l);
            for x in 0..m.width {
                if m.allowed[s] >> x & 1 == 1 {
                    let mut h = 1u64 << x | 1 << (x + d);
                    if x >= d {
                        h |= 1 << (x - d);
                    }
                    hits.push((h, 1u32 << s));
                }
            }
        }
        let target = m.uncovered[l] as u64;
        fn search(hits: &[(u64, u32)], target: u64, missing: u32, left: usize) -> bool {
            if target == 0 && missing == 0 {
                return true;
            }
            if left == 0 {
                return false;
            }
            (0..hits.len()).any(|i| {
                let (h, line) = hits[i];
                search(&hits[i + 1..], target & !h, missing & !line, left - 1)
            })
        }
        search(&hits, target, required, remaining)
    }

    #[test]
    fn exact_line_cover_agrees_with_brute_force() {
        // Random lines of random families; a fixed-seed generator, so the cases are the same on
        // every run.
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = || rng.next();
        let (mut forced, mut constrained) = (0, 0);
        for case in 0..3000 {
            let lines = 2 + (next() % 6) as usize;
            let width = 1 + (next() % 12) as usize;
            let full = (1u64 << width) - 1;
            let mut m = FamilyMasks {
                uncovered: [0; MAX_SIDE],
                allowed: [0; MAX_SIDE],
                lines,
                width,
            };
            for l in 0..lines {
                // Dense targets and sparse allowed squares make the hard cases.
                m.uncovered[l] = (next() | next()) as u32 & full as u32;
                m.allowed[l] = (next() & next() & next()) as u32 & full as u32;
            }
            for l in 0..lines {
                for remaining in 1..=4 {
                    // Lines already known to need a queen: none, or up to `remaining` others.
                    let mut required = 0u32;
                    if next() % 3 != 0 {
                        for _ in 0..1 + next() % remaining as u64 {
                            let s = (next() % lines as u64) as usize;
                            if s != l {
                                required |= 1 << s;
                            }
                        }
                    }
                    // A line with nothing to cover never needs a queen.
                    let brute = m.uncovered[l] != 0 && !brute_coverable(&m, l, remaining, required);
                    assert_eq!(
                        m.needs_own_queen(l, remaining, required),
                        brute,
                        "case {case}, line {l} of {lines}x{width}, {remaining} queens, \
                         lines {required:b} need one"
                    );
                    forced += brute as usize;
                    constrained += (brute && required != 0) as usize;
                }
            }
        }
        // The cases must include lines on both sides of the answer, with and without lines
        // that need a queen.
        assert!(forced > 1000, "only {forced} forced lines");
        assert!(
            constrained > 500,
            "only {constrained} forced given other lines"
        );
    }

    /// The cover of each square of a small board, as bits of a u128 (row-major), and the mask of
    /// all its squares.
    fn covers(board: Board) -> (Vec<u128>, u128) {
        let (n, m) = (board.rows() as i64, board.cols() as i64);
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..m {
                let mut bits = 0u128;
                for r2 in 0..n {
                    for c2 in 0..m {
                        if r == r2 || c == c2 || r - c == r2 - c2 || r + c == r2 + c2 {
                            bits |= 1 << (r2 * m + c2);
                        }
                    }
                }
                out.push(bits);
            }
        }
        let full = u128::MAX >> (128 - board.squares());
        (out, full)
    }

    /// The dominating sets of at most `k` queens reached by branching on the first uncovered
    /// square, each candidate forbidden once tried: among them every dominating set of exactly
    /// γ queens (no subset of one dominates). Plain recursion over u128 masks, independent of
    /// the search.
    fn dominating_sets(board: Board, k: usize, found: &mut dyn FnMut(&[usize])) {
        Sets::new(board, k, found).minimal(0, 0, &mut Vec::new());
    }

    /// Every subset of at most `k` squares that dominates the board, by plain enumeration.
    fn every_dominating_subset(board: Board, k: usize, found: &mut dyn FnMut(&[usize])) {
        Sets::new(board, k, found).subsets(0, 0, &mut Vec::new());
    }

    /// The two enumerations of dominating sets above: the board's covers (as u128 masks), at
    /// most `k` queens, and where each set found goes.
    struct Sets<'a> {
        cover: Vec<u128>,
        full: u128,
        k: usize,
        found: &'a mut dyn FnMut(&[usize]),
    }

    impl<'a> Sets<'a> {
        fn new(board: Board, k: usize, found: &'a mut dyn FnMut(&[usize])) -> Sets<'a> {
            let (cover, full) = covers(board);
            Sets {
                cover,
                full,
                k,
                found,
            }
        }

        fn minimal(&mut self, covered: u128, forbidden: u128, queens: &mut Vec<usize>) {
            if covered == self.full {
                (self.found)(queens);
                return;
            }
            if queens.len() == self.k {
                return;
            }
            let u = (!covered & self.full).trailing_zeros() as usize;
            let mut forbidden = forbidden;
            for q in 0..self.cover.len() {
                if self.cover[u] >> q & 1 == 0 || forbidden >> q & 1 == 1 {
                    continue;
                }
                queens.push(q);
                self.minimal(covered | self.cover[q], forbidden, queens);
                queens.pop();
                forbidden |= 1 << q;
            }
        }

        fn subsets(&mut self, from: usize, covered: u128, queens: &mut Vec<usize>) {
            if covered == self.full {
                (self.found)(queens);
            }
            if queens.len() == self.k {
                return;
            }
            for q in from..self.cover.len() {
                queens.push(q);
                self.subsets(q + 1, covered | self.cover[q], queens);
                queens.pop();
            }
        }
    }

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
            every_dominating_subset(board, most, &mut |queens| {
                let k = queens.len();
                let budget = collision_budget(board, k).expect("k + 2 <= min side");
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

    #[test]
    fn every_small_layout_keeps_its_collision_budget() {
        let (mut layouts, mut sharp) = (0, 0);
        for (rows, cols) in BUDGET_BOARDS {
            let board = Board::new(rows, cols).unwrap();
            let most = rows.min(cols) - 2;
            every_dominating_subset(board, most, &mut |queens| {
                let k = queens.len();
                let budget = collision_budget(board, k).expect("k + 2 <= min side");
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

    #[test]
    fn half_colour_rules_of_the_even_boards() {
        let rule = |n, k| half_colours(Board::new(n, n).unwrap(), k);
        let monochromatic: Vec<usize> = (2..=32)
            .step_by(2)
            .filter(|&n| rule(n, n / 2).unwrap().monochromatic)
            .collect();
        // n ≡ 0 (mod 4): 4 and 12 only; n ≡ 2: where the equation has a solution (6: d = 3,
        // e = 1; 10: 3, 3; 18: 7, 5; 30: 27, 1 for k = 15).
        assert_eq!(monochromatic, [2, 4, 6, 10, 12, 18, 30]);
        assert_eq!(rule(26, 13).unwrap().most_of_one, 7);
        assert_eq!(rule(20, 10).unwrap().most_of_one, 6);
        assert_eq!(rule(26, 14), None);
        assert_eq!(rule(25, 12), None);
        assert_eq!(half_colours(Board::new(10, 12).unwrap(), 5), None);
        let rule = rule(26, 13).unwrap();
        assert!(!rule.exceeded(7, 6));
        assert!(rule.exceeded(8, 0));
        assert!(rule.exceeded(1, 8));
    }

    #[test]
    fn every_half_layout_keeps_the_colour_rule() {
        let mut kinds = [0usize; 2];
        for n in [4, 6, 10] {
            let board = Board::new(n, n).unwrap();
            let rule = half_colours(board, n / 2).unwrap();
            dominating_sets(board, n / 2, &mut |queens| {
                let odd = queens.iter().filter(|&&q| (q / n + q % n) % 2 == 1).count();
                let even = queens.len() - odd;
                assert!(!rule.exceeded(odd, even), "{board}: {queens:?}");
                // Every completion of a part of the layout keeps it too.
                for i in 0..queens.len() {
                    let odd = queens[..i]
                        .iter()
                        .filter(|&&q| (q / n + q % n) % 2 == 1)
                        .count();
                    assert!(!rule.exceeded(odd, i - odd), "{board}: {queens:?} to {i}");
                }
                kinds[(odd.min(even) == 0) as usize] += 1;
            });
        }
        // Both kinds occur (Q_4 and Q_6 have monochromatic layouts, Q_4 bichromatic ones).
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
    }

    #[test]
    fn lower_bound_values() {
        let lb = |r, c| lower_bound(Board::new(r, c).unwrap());
        assert_eq!(lb(1, 1), 1);
        assert_eq!(lb(8, 32), 8);
        assert_eq!(lb(12, 32), 11);
        assert_eq!(lb(8, 8), 4);
        assert_eq!(lb(3, 30), 3);
    }
}
