//! Lower bounds on the number of queens a layout needs: the static bound of a whole board (used to
//! skip the search when the start layout already meets it), and the line-forcing bound the kernel
//! applies at every node.
//!
//! Every bound here is a proof that no completion with at most the given number of further queens
//! exists; none of them keeps only some of several optimal layouts, so a search that counts every
//! layout up to a size can use them as they are.
//!
//! One theorem a file: the line-forcing bound (`forcing`), the collision budget and the border it
//! leaves (`collisions`), the colour rule of n/2 queens on even boards (`colours`), Spencer's bound
//! for each colour and parity of the empty lines (`grids`); Spencer's
//! bound, on which the others build, here. The kernel applies them (`kernel/coverage.rs`,
//! `kernel/rules.rs`); a new rule's theorem and its test against exhaustive search go beside them.

mod collisions;
mod colours;
mod forcing;
mod grids;

use crate::board::Board;

pub(crate) use collisions::{border_waste_exceeds, collision_budget};
pub(crate) use colours::{half_colours, HalfColours};
pub(crate) use forcing::{forcing_bound_exceeds, too_many_full_lines, FamilyMasks};
pub(crate) use grids::{GridCounts, RefutedCache};

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

/// A lower bound on γ(Q_n), and so on i(Q_n), from the literature: γ(Q_n) ≥ ⌈n/2⌉ for every n
/// but 3 and 11 (Finozhenok and Weakley, "An improved lower bound for domination numbers of the
/// queen's graph", Australas. J. Combin. 37 (2007) 295-300); 0 for other boards. Cited, not
/// proven here, so the exhaustive search does not rely on it: it bounds the local search and the
/// tables with bounds ([`cited_lower_bound`]).
pub(crate) fn square_lower_bound(board: Board) -> usize {
    let n = board.rows();
    if board.is_square() && n != 3 && n != 11 {
        n.div_ceil(2)
    } else {
        0
    }
}

/// The lower bound a table with bounds starts from: [`lower_bound`] (proven in this file) or,
/// on square boards, the larger bound of [`square_lower_bound`] (cited).
pub fn cited_lower_bound(board: Board) -> usize {
    lower_bound(board).max(square_lower_bound(board))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The cover of each square of a small board, as bits of a u128 (row-major), and the mask of
    /// all its squares.
    pub(super) fn covers(board: Board) -> (Vec<u128>, u128) {
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
    pub(in crate::search::bounds) fn dominating_sets(
        board: Board,
        k: usize,
        found: &mut dyn FnMut(&[usize]),
    ) {
        Sets::new(board, k, found).minimal(0, 0, &mut Vec::new());
    }

    /// Every subset of at most `k` squares that dominates the board, by plain enumeration.
    pub(in crate::search::bounds) fn every_dominating_subset(
        board: Board,
        k: usize,
        found: &mut dyn FnMut(&[usize]),
    ) {
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

    #[test]
    fn lower_bound_values() {
        let lb = |r, c| lower_bound(Board::new(r, c).unwrap());
        assert_eq!(lb(1, 1), 1);
        assert_eq!(lb(8, 32), 8);
        assert_eq!(lb(12, 32), 11);
        assert_eq!(lb(8, 8), 4);
        assert_eq!(lb(3, 30), 3);
        let cited = |r, c| cited_lower_bound(Board::new(r, c).unwrap());
        // Spencer's ⌈(n−1)/2⌉ is 12 on Q_25, Finozhenok and Weakley's ⌈n/2⌉ 13 (= γ(Q_25)).
        assert_eq!((lb(25, 25), cited(25, 25)), (12, 13));
        // The two exceptions, where γ = (n − 1)/2.
        assert_eq!((cited(3, 3), cited(11, 11)), (1, 5));
        assert_eq!((cited(24, 24), cited(8, 32)), (12, 8));
    }
}
