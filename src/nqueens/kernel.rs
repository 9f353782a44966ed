//! The bitboard searches behind N-queens counting and listing. A row's state is three masks of
//! attacked columns: `down` (columns taken), `left` and `right` (diagonals, shifted one column per
//! row). Bit `c` stands for column `c`. Nothing here allocates except where a listing stores the
//! placements it was asked for.

/// Placements found by the symmetry-reduced square search, by the size of their symmetry class.
/// Each placement stands for its whole class: a class of size k holds k placements.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Classes {
    pub of2: u64,
    pub of4: u64,
    pub of8: u64,
}

/// A placement of a side part being completed, one bit a row, and the classes found so far.
pub struct Partial {
    pub board: [u32; 32],
    pub found: Classes,
}

impl Classes {
    /// All placements of the classes found.
    pub fn placements(self) -> u64 {
        2 * self.of2 + 4 * self.of4 + 8 * self.of8
    }

    /// Classes found (placements up to rotations and reflections).
    pub fn unique(self) -> u64 {
        self.of2 + self.of4 + self.of8
    }
}

impl std::ops::Add for Classes {
    type Output = Classes;
    fn add(self, o: Classes) -> Classes {
        Classes {
            of2: self.of2 + o.of2,
            of4: self.of4 + o.of4,
            of8: self.of8 + o.of8,
        }
    }
}

/// The lowest set bit of a non-empty mask.
#[inline(always)]
fn lowest(bits: u32) -> u32 {
    bits & bits.wrapping_neg()
}

/// Mask of the first `width` columns (`width` ≤ 32).
pub fn columns_mask(width: usize) -> u32 {
    debug_assert!((1..=32).contains(&width));
    u32::MAX >> (32 - width)
}

/// The part of the square search whose row-0 queen is in column 0 (Takaken's split).
///
/// No placement has two corner queens (any two corners share a row, a column or a diagonal), so
/// the corner queen is fixed by at most the reflection in the main diagonal, which fixes no
/// placement for n > 1; no rotation maps such a placement onto itself either: every class met
/// here has 8 members. Exactly two of them (a placement and its transpose) have their corner queen
/// on column 0 of row 0. Say row 1's queen is in column `bound1` and column 1's queen in row a;
/// the transpose swaps the two numbers, which differ (queens on (1, a) and (a, 1) would share a
/// diagonal). Keeping column 1 free in the rows above `bound1` asks for a > `bound1`, which holds
/// for exactly one of the two.
#[derive(Debug, Clone, Copy)]
pub struct Corner {
    pub mask: u32,
    pub last: usize,
    pub bound1: usize,
}

impl Corner {
    /// The columns row `y` (`2 ≤ y < last`) may take.
    #[inline(always)]
    pub fn choices(&self, y: usize, left: u32, down: u32, right: u32) -> u32 {
        let free = self.mask & !(left | down | right);
        if y < self.bound1 {
            free & !2
        } else {
            free
        }
    }

    /// Placements (each a class of 8) completing rows `y..` (`y < last`).
    pub fn search(&self, y: usize, left: u32, down: u32, right: u32) -> u64 {
        if y + 1 == self.last {
            return self.last_two_rows(y, left, down, right);
        }
        let mut free = self.choices(y, left, down, right);
        let mut found = 0;
        if y + 2 == self.last {
            // Most calls would be for the second-to-last row: do that level here instead.
            while free != 0 {
                let bit = lowest(free);
                free ^= bit;
                let (l, d, r) = after(left, down, right, bit);
                found += self.last_two_rows(y + 1, l, d, r);
            }
            return found;
        }
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            let (l, d, r) = after(left, down, right, bit);
            found += self.search(y + 1, l, d, r);
        }
        found
    }

    /// Placements completing rows `y` = last - 1 and last.
    #[inline(always)]
    fn last_two_rows(&self, y: usize, left: u32, down: u32, right: u32) -> u64 {
        let mut free = self.choices(y, left, down, right);
        let mut found = 0;
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            let (l, d, r) = after(left, down, right, bit);
            found += u64::from(self.mask & !(l | d | r) != 0);
        }
        found
    }
}

/// The attacks on the next row once a queen is on `bit`.
#[inline(always)]
fn after(left: u32, down: u32, right: u32, bit: u32) -> (u32, u32, u32) {
    ((left | bit) << 1, down | bit, (right | bit) >> 1)
}

/// A part of the square search whose row-0 queen is in column `bound1`, 0 < `bound1` <
/// `bound2` = n-1-`bound1` (Takaken's split). With no corner queen, some symmetric image puts a
/// queen of the top row nearest to a corner among the queens of all four edges; these parts search
/// only such images:
/// - rows above `bound1` have no queen in the first or last column (it would be nearer a corner);
/// - the last row's queen is no nearer a corner than row 0's: in columns `bound1`..=`bound2`;
/// - at row `bound2` the edge columns must be filled as the image rule requires.
///
/// Those rules still let a class appear more than once when the placement is symmetric or ties
/// with an image, so [`Side::classify`] keeps a placement only if no rotation gives a smaller one
/// (comparing rows from row 1 on, as queen columns), and names the size of its class.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    pub mask: u32,
    pub last: usize,
    pub bound1: usize,
    pub bound2: usize,
    /// First and last columns.
    pub sidemask: u32,
    /// Columns the last row's queen may not take: the `bound1` nearest each corner.
    pub lastmask: u32,
    /// Column `last`.
    pub topbit: u32,
    /// Column `bound2`: where a 180°-symmetric placement has its last-row queen.
    pub endbit: u32,
}

/// How a placement of a side part counts: not at all (a rotation of it is the class's
/// representative) or as the representative of a class of 2, 4 or 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Skip,
    Of2,
    Of4,
    Of8,
}

/// Compare rows 1.. of `board` (one bit per row) with the rotated placement whose row `r` is
/// `rotated(r)`. `Less` means `board` is smaller, or equal when every row matches.
#[inline(always)]
fn compare_rows(board: &[u32], rotated: impl Fn(usize) -> u32) -> std::cmp::Ordering {
    for (r, &own) in board.iter().enumerate().skip(1) {
        match own.cmp(&rotated(r)) {
            std::cmp::Ordering::Equal => continue,
            other => return other,
        }
    }
    std::cmp::Ordering::Equal
}

impl Side {
    pub fn new(n: usize, bound1: usize) -> Side {
        let last = n - 1;
        let topbit = 1u32 << last;
        let mut lastmask = topbit | 1;
        let mut endbit = topbit >> 1;
        for _ in 1..bound1 {
            lastmask |= lastmask >> 1 | lastmask << 1;
            endbit >>= 1;
        }
        Side {
            mask: columns_mask(n),
            last,
            bound1,
            bound2: last - bound1,
            sidemask: topbit | 1,
            lastmask,
            topbit,
            endbit,
        }
    }

    /// The columns row `y` (`1 ≤ y < last`) may take; empty when the branch is dead.
    #[inline(always)]
    pub fn choices(&self, y: usize, left: u32, down: u32, right: u32) -> u32 {
        let free = self.mask & !(left | down | right);
        if y < self.bound1 {
            free & !self.sidemask
        } else if y == self.bound2 {
            // Past this row no edge queen can be placed nearer a corner than row 0's, so both
            // edge columns must be taken by now or here.
            let taken = down & self.sidemask;
            if taken == 0 {
                0
            } else if taken != self.sidemask {
                free & self.sidemask
            } else {
                free
            }
        } else {
            free
        }
    }

    /// Search rows `y..` (`y < last`), with `at.board[..y]` holding the queens (one bit each) of
    /// the rows above.
    pub fn search(&self, y: usize, left: u32, down: u32, right: u32, at: &mut Partial) {
        if y + 1 == self.last {
            return self.last_two_rows(y, left, down, right, at);
        }
        let mut free = self.choices(y, left, down, right);
        if y + 2 == self.last {
            // Most calls would be for the second-to-last row: do that level here instead.
            while free != 0 {
                let bit = lowest(free);
                free ^= bit;
                at.board[y] = bit;
                let (l, d, r) = after(left, down, right, bit);
                self.last_two_rows(y + 1, l, d, r, at);
            }
            return;
        }
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            at.board[y] = bit;
            let (l, d, r) = after(left, down, right, bit);
            self.search(y + 1, l, d, r, at);
        }
    }

    /// Complete rows `y` = last - 1 and last, and count what is found.
    #[inline(always)]
    fn last_two_rows(&self, y: usize, left: u32, down: u32, right: u32, at: &mut Partial) {
        let mut free = self.choices(y, left, down, right);
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            let (l, d, r) = after(left, down, right, bit);
            let last_row = self.mask & !(l | d | r);
            if last_row != 0 && last_row & self.lastmask == 0 {
                at.board[y] = bit;
                at.board[self.last] = last_row;
                match self.classify(&at.board[..=self.last]) {
                    Class::Skip => {}
                    Class::Of2 => at.found.of2 += 1,
                    Class::Of4 => at.found.of4 += 1,
                    Class::Of8 => at.found.of8 += 1,
                }
            }
        }
    }

    /// Decide how a complete placement counts. A rotation can only tie with or beat the placement
    /// if it keeps row 0's queen where it is; each test below is that condition for one rotation.
    /// A placement equal to its 90° rotation is also equal to its 180° and 270° ones (class of 2);
    /// one equal only to its 180° rotation has a class of 4; all others, of 8.
    fn classify(&self, board: &[u32]) -> Class {
        use std::cmp::Ordering::*;
        let col = |r: usize| board[r].trailing_zeros() as usize;
        let mut row_of_col = [0usize; 32];
        for (r, &bit) in board.iter().enumerate() {
            row_of_col[bit.trailing_zeros() as usize] = r;
        }
        let last = self.last;
        // The 90° image has in row r the queen at column `last - (row of column r)`.
        if board[self.bound2] == 1 {
            match compare_rows(board, |r| 1 << (last - row_of_col[r])) {
                Greater => return Class::Skip,
                Equal => return Class::Of2,
                Less => {}
            }
        }
        // The 180° image has in row r the queen at column `last - (column of row last - r)`.
        if board[last] == self.endbit {
            match compare_rows(board, |r| 1 << (last - col(last - r))) {
                Greater => return Class::Skip,
                Equal => return Class::Of4,
                Less => {}
            }
        }
        // The 270° image has in row r the queen at column `row of column last - r`.
        if board[self.bound1] == self.topbit
            && compare_rows(board, |r| 1 << row_of_col[last - r]) == Greater
        {
            return Class::Skip;
        }
        Class::Of8
    }
}

/// The plain search with no symmetry: `rows` rows, one queen each, on `mask`'s columns.
#[derive(Debug, Clone, Copy)]
pub struct Plain {
    pub mask: u32,
    pub rows: usize,
}

impl Plain {
    #[inline(always)]
    pub fn choices(&self, left: u32, down: u32, right: u32) -> u32 {
        self.mask & !(left | down | right)
    }

    /// Placements completing rows `y..`.
    pub fn count(&self, y: usize, left: u32, down: u32, right: u32) -> u64 {
        let free = self.choices(left, down, right);
        if y + 1 == self.rows {
            return u64::from(free.count_ones());
        }
        let mut free = free;
        let mut found = 0;
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            found += self.count(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
        }
        found
    }

    /// Append every placement completing rows `y..` to `out`, in lexicographic order, each as
    /// `rows` bytes of 0-based columns; `cols[..y]` holds the rows above.
    pub fn list(
        &self,
        y: usize,
        left: u32,
        down: u32,
        right: u32,
        cols: &mut [u8; 32],
        out: &mut Vec<u8>,
    ) {
        if y == self.rows {
            out.extend_from_slice(&cols[..y]);
            return;
        }
        // Lowest bit first is lowest column first: the order of the listing.
        let mut free = self.choices(left, down, right);
        while free != 0 {
            let bit = lowest(free);
            free ^= bit;
            cols[y] = bit.trailing_zeros() as u8;
            self.list(
                y + 1,
                (left | bit) << 1,
                down | bit,
                (right | bit) >> 1,
                cols,
                out,
            );
        }
    }
}
