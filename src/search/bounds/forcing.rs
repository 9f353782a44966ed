//! The line-forcing bound: its cheap half on all four families (`too_many_full_lines`), and its
//! exact half on the long lines (`FamilyMasks`, `forcing_bound_exceeds`).

use crate::board::{Bits, Geometry, LINE_FAMILY_OFFSET, LINE_SLOTS, MAX_SIDE};

use super::super::lines::{ones32, top_sum, FAMILY_SLOTS};

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
}
