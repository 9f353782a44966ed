//! The bounds the kernel applies at a node on covering its uncovered squares: the line bound, the
//! exact line-forcing bound (`bounds::FamilyMasks`), the max-coverage bound and Bird's bound; the
//! coverages they are computed from (`row_coverages`, `strong_squares`); and the screening of a
//! node's children by the same bounds from the parent's counts, before a child is entered.

use crate::board::{Bits, LINE_FAMILY_OFFSET};

use super::super::bounds::{self, FamilyMasks};
use super::super::lines::{byte_mask, bytes_at_least, top_sum, FAMILY_SLOTS, MAX_CANDIDATES, ROW};
use super::Searcher;

/// Fewest queens still to place at which Bird's bound runs. Deeper, the children's screening (the
/// max-coverage and line bounds from the parent's counts) and the last two queens' exact placement
/// cut almost every subtree it would, at less cost: without it at 3 and 4 queens left γ(Q_15)
/// searches a few more nodes in 9% less CPU (docs/performance.md has the other boards).
const BIRD_MIN_REMAINING: usize = 5;

/// How many of a node's largest coverages are kept for screening its children: enough for
/// children with up to `TOP_COVERAGES - 1` queens left.
pub(super) const TOP_COVERAGES: usize = 5;

/// Most queens left at which the coverages are taken a row at a time (`row_coverages`), with
/// only the largest few kept: where most nodes are, and where neither Bird's bound (which needs
/// every coverage sorted) nor children with more queens left need more.
const ROW_TOP: usize = 4;
const _: () = assert!(ROW_TOP < BIRD_MIN_REMAINING && ROW_TOP < TOP_COVERAGES);

impl<const W: usize> Searcher<'_, W> {
    /// The line bound: each queen lies on one row, one column, one diagonal and one anti-diagonal,
    /// so `remaining` queens cover at most the `remaining` fullest lines of each family.
    pub(super) fn line_bound_exceeds(&self, depth: usize, need: usize, remaining: usize) -> bool {
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
    pub(super) fn forcing_bound_exceeds(
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
    pub(super) fn coverage_bound_exceeds(
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
    pub(super) fn strong_squares(&mut self, t: usize) -> Bits<W> {
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
    pub(super) fn child_loses_forced_lines(&self, v: usize, child_remaining: usize) -> bool {
        let Some(family) = self.long_family else {
            return false;
        };
        let line = self.geo.lines[v][family] as usize - LINE_FAMILY_OFFSET[family];
        let forced = self.forced[self.depth] & !(1 << line);
        forced.count_ones() as usize > child_remaining
    }
}

/// Whether the child placing a queen of coverage `v_cov` (of this node's `need` uncovered squares)
/// cannot be completed by `child_remaining` more queens: a square's coverage never grows down the
/// tree, so the later queens cover at most the `child_remaining` largest of this node's coverages
/// (`top_cov`, largest first, over the node's allowed squares, `v` among them) other than `v`'s,
/// and that must reach what `v` leaves uncovered. It is the child's own max-coverage bound with
/// this node's coverages, known before the child is entered; the last two queens get no coverage
/// bound of their own (`finish`), so there it is the only one.
#[inline(always)]
pub(super) fn child_lacks_coverage(
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

#[cfg(test)]
mod tests {
    use super::super::MAX_QUEENS;
    use super::*;
    use crate::board::Geometry;
    use crate::problem::Problem;
    use crate::random::XorShift;
    use crate::search::lines::count_lines;
    use crate::search::shared::{Key, Shared};

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

    /// `row_coverages` against the plain sum over each allowed square's four lines, and its
    /// largest four against a sort, on random nodes of boards from 1x1 to 32x32, thin and wide.
    fn row_coverages_agree_on<const W: usize>(rows: usize, cols: usize, seed: u64) {
        use crate::board::Board;
        let board = Board::new(rows, cols).unwrap();
        let geo = Geometry::<W>::new(board);
        let shared = Shared::new(Key::new(MAX_QUEENS, 0), None, None);
        let mut searcher = Searcher::new(&geo, &shared, None, Problem::Domination, 0);
        let n = board.squares();
        let mut rng = XorShift::new(seed | 1);
        let mut next = move || rng.next();
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
        let boards = [
            (1, 1),
            (1, 32),
            (32, 1),
            (8, 8),
            (5, 23),
            (15, 15),
            (12, 21),
            (21, 12),
            (19, 20),
            (32, 32),
            (31, 32),
        ];
        for (seed, (rows, cols)) in (1..).zip(boards) {
            at_board_width!(row_coverages_agree_on, rows, cols, seed);
        }
    }
}
