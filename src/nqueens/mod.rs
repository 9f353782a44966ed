//! N-queens: count the placements of N non-attacking queens on an N×N board (all of them, and up
//! to rotations and reflections), count min(N, M) non-attacking queens on N×M boards, and list
//! the square placements in lexicographic order.
//!
//! The square count searches only a fraction of the tree, with the 8-fold symmetry split of
//! Takaken (see `Corner` and `Side` in `kernel.rs`); each placement found stands for its
//! whole symmetry class, whose size it also reports, so the unique count comes for free.
//! Rectangular counts and listings use the plain search, halved by the mirror symmetry for counts.
//!
//! Work is split by the placements of the first rows into enough pieces (at least
//! [`MIN_PIECES`]) for rayon to keep every core busy to the end; each piece is searched by one
//! worker and the counts are summed. The domination search's driver is not used: it shares a
//! best bound between workers and splits a set-cover tree, while counting has no bound to share.
//!
//! Counts are exact u64 for every accepted size (n ≤ [`MAX_N`]); the time grows about sixfold
//! per extra row, so sizes past the low twenties take days or more.

mod kernel;

use crate::error::{ErrorKind, Kind};
use rayon::prelude::*;
use thiserror::Error;

use crate::board::{Board, Square, MAX_SIDE};
use crate::layout::Layout;
use crate::nqueens_check::{check_placement, PlacementError};
use crate::trace::{ChildSplit, TaskIdentity, TaskKind, Trace};

use kernel::{columns_mask, Classes, Corner, Partial, Plain, Side};

/// Largest n accepted: the widest board the 32-bit column masks hold.
pub const MAX_N: usize = MAX_SIDE;

/// Largest n [`list_placements`] accepts. Listing streams with bounded memory at any size, but
/// the output grows about sixfold per row: n = 18 is already hundreds of millions of lines.
pub const MAX_LIST_N: usize = 18;

/// Work is split until there are at least this many pieces (or nothing is left to split).
/// Pieces differ in size by orders of magnitude; with a thousand of them the last ones to finish
/// are small next to the whole, so no core waits long at the end.
pub const MIN_PIECES: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NQueensError {
    #[error("n = 0: a board needs at least one row")]
    Zero,
    #[error("n = {n} is too big: this build supports n up to {max}")]
    TooBig { n: usize, max: usize },
    #[error(
        "n = {n} is too big to list: listing is limited to n ≤ {max} (the output grows about \
         sixfold per row); count without listing instead"
    )]
    TooBigToList { n: usize, max: usize },
    /// The independent checker refused a placement the search produced: a bug in the search.
    #[error(
        "internal error: the search produced a placement that fails the independent check: {0}"
    )]
    Check(#[from] PlacementError),
}

/// The N-queens numbers of one n.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// All placements (OEIS A000170).
    pub solutions: u64,
    /// Placements up to rotations and reflections (OEIS A002562).
    pub unique: u64,
}

fn check_n(n: usize) -> Result<(), NQueensError> {
    match n {
        0 => Err(NQueensError::Zero),
        n if n > MAX_N => Err(NQueensError::TooBig { n, max: MAX_N }),
        _ => Ok(()),
    }
}

/// The attack state below the rows placed so far: the next row `y` and the columns attacked there
/// along columns (`down`) and diagonals (`left`, `right`).
#[derive(Debug, Clone, Copy)]
struct Rows {
    y: usize,
    left: u32,
    down: u32,
    right: u32,
}

impl Rows {
    const EMPTY: Rows = Rows {
        y: 0,
        left: 0,
        down: 0,
        right: 0,
    };

    /// The state after placing row `y`'s queen on `bit`.
    fn with(self, bit: u32) -> Rows {
        Rows {
            y: self.y + 1,
            left: (self.left | bit) << 1,
            down: self.down | bit,
            right: (self.right | bit) >> 1,
        }
    }
}

/// Each bit of `bits`, lowest (leftmost column) first.
fn each_bit(mut bits: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let bit = bits & bits.wrapping_neg();
            bits ^= bit;
            bit
        })
    })
}

/// Replace pieces by their children, a whole level at a time, until there are at least `target`
/// or none can be split. `expand` pushes a piece's children in order and returns true, or returns
/// false to keep the piece whole; the order of the pieces is kept.
fn split<P: Copy>(
    mut pieces: Vec<P>,
    target: usize,
    mut expand: impl FnMut(&P, &mut Vec<P>) -> bool,
) -> Vec<P> {
    while pieces.len() < target {
        let mut next = Vec::with_capacity(pieces.len() * 8);
        let mut grew = false;
        for piece in &pieces {
            if expand(piece, &mut next) {
                grew = true;
            } else {
                next.push(*piece);
            }
        }
        pieces = next;
        if !grew {
            break;
        }
    }
    pieces
}

/// Sum `work` over the pieces, on the current rayon pool (one task per piece) or sequentially.
fn sum_over<P: Sync, T: Send + Default + std::ops::Add<Output = T>>(
    pieces: &[P],
    parallel: bool,
    work: impl Fn(&P) -> T + Sync + Send,
) -> T {
    if parallel {
        pieces
            .par_iter()
            .with_max_len(1)
            .map(work)
            .reduce(T::default, |a, b| a + b)
    } else {
        pieces.iter().map(work).fold(T::default(), |a, b| a + b)
    }
}

/// A piece of the symmetry-reduced square search.
#[derive(Debug, Clone, Copy)]
enum SquarePiece {
    Corner(Corner, Rows),
    /// With the queens (one bit per row) of the rows above, which the symmetry test reads.
    Side(Side, Rows, [u32; 32]),
}

/// The number of placements of n non-attacking queens on an n×n board, all and up to symmetry,
/// on the current rayon pool if `parallel`, else on this thread. Exact for every n ≤ [`MAX_N`].
pub fn count_placements(n: usize, parallel: bool) -> Result<Counts, NQueensError> {
    count_placements_traced(n, parallel, None)
}

/// [`count_placements`], keeping a record of the split and of every piece in `trace`: the
/// piece's path is its index among the pieces, and its nodes are the placements it counted.
pub fn count_placements_traced(
    n: usize,
    parallel: bool,
    trace: Option<&Trace>,
) -> Result<Counts, NQueensError> {
    check_n(n)?;
    if n < 4 {
        return Ok(count_tiny(n));
    }
    let classes = count_classes(n, parallel, trace);
    Ok(Counts {
        solutions: classes.placements(),
        unique: classes.unique(),
    })
}

fn count_classes(n: usize, parallel: bool, trace: Option<&Trace>) -> Classes {
    let split_span = trace.map(Trace::begin);
    let mask = columns_mask(n);
    let last = n - 1;
    let mut roots = Vec::new();
    for bound1 in 2..last {
        let corner = Corner { mask, last, bound1 };
        roots.push(SquarePiece::Corner(
            corner,
            Rows::EMPTY.with(1).with(1 << bound1),
        ));
    }
    let mut bound1 = 1;
    while bound1 < last - bound1 {
        let side = Side::new(n, bound1);
        let mut board = [0u32; 32];
        board[0] = 1 << bound1;
        roots.push(SquarePiece::Side(side, Rows::EMPTY.with(board[0]), board));
        bound1 += 1;
    }
    // Both kernels treat the last row specially, so a piece keeps at least two rows to search.
    let pieces = split(roots, MIN_PIECES, |piece, out| match *piece {
        SquarePiece::Corner(corner, rows) if rows.y + 2 <= last => {
            for bit in each_bit(corner.choices(rows.y, rows.left, rows.down, rows.right)) {
                out.push(SquarePiece::Corner(corner, rows.with(bit)));
            }
            true
        }
        SquarePiece::Side(side, rows, board) if rows.y + 2 <= last => {
            for bit in each_bit(side.choices(rows.y, rows.left, rows.down, rows.right)) {
                let mut board = board;
                board[rows.y] = bit;
                out.push(SquarePiece::Side(side, rows.with(bit), board));
            }
            true
        }
        _ => false,
    });
    let board = Board::new(n, n).expect("n is a valid side");
    let identity = |parent, path| TaskIdentity {
        parent,
        kind: TaskKind::NQueens,
        board,
        path,
    };
    let split_id = match (trace, split_span) {
        (Some(trace), Some(span)) => {
            let id = span.id;
            let children = if parallel {
                ChildSplit::Each
            } else {
                ChildSplit::InOrder
            };
            trace.end(span, identity(None, Vec::new()), Some(children), 0);
            Some(id)
        }
        _ => None,
    };
    let indexed: Vec<(usize, SquarePiece)> = pieces.into_iter().enumerate().collect();
    sum_over(&indexed, parallel, |&(index, piece)| {
        let span = trace.map(Trace::begin);
        let found = match piece {
            SquarePiece::Corner(corner, r) => Classes {
                of8: corner.search(r.y, r.left, r.down, r.right),
                ..Classes::default()
            },
            SquarePiece::Side(side, r, board) => {
                let mut at = Partial {
                    board,
                    found: Classes::default(),
                };
                side.search(r.y, r.left, r.down, r.right, &mut at);
                at.found
            }
        };
        if let (Some(trace), Some(span)) = (trace, span) {
            let path = vec![index as u16];
            trace.end(span, identity(split_id, path), None, found.placements());
        }
        found
    })
}

/// Boards below 4×4 are too small for the corner/side split (on 1×1 the lone queen is fixed by
/// every symmetry, a class of one), so list them and count the placements that are the smallest
/// of their images.
fn count_tiny(n: usize) -> Counts {
    let plain = Plain {
        mask: columns_mask(n),
        rows: n,
    };
    let mut all = Vec::new();
    plain.list(0, 0, 0, 0, &mut [0; 32], &mut all);
    let placements: Vec<&[u8]> = all.chunks_exact(n).collect();
    let unique = placements
        .iter()
        .filter(|p| images(p).iter().all(|image| image.as_slice() >= **p))
        .count();
    Counts {
        solutions: placements.len() as u64,
        unique: unique as u64,
    }
}

/// The eight images of a square placement (columns by row) under the board's symmetries.
fn images(placement: &[u8]) -> Vec<Vec<u8>> {
    let n = placement.len();
    let last = (n - 1) as u8;
    // The transpose of a placement is its inverse permutation.
    let mut transposed = vec![0u8; n];
    for (row, &col) in placement.iter().enumerate() {
        transposed[usize::from(col)] = row as u8;
    }
    let mut out = Vec::with_capacity(8);
    for p in [placement.to_vec(), transposed] {
        let mirrored: Vec<u8> = p.iter().map(|&c| last - c).collect();
        let flipped: Vec<u8> = p.iter().rev().copied().collect();
        let turned: Vec<u8> = flipped.iter().map(|&c| last - c).collect();
        out.extend([p, mirrored, flipped, turned]);
    }
    out
}

/// A piece of the plain search, with the number of placements each of its placements stands for.
#[derive(Debug, Clone, Copy)]
struct PlainPiece {
    rows: Rows,
    weight: u64,
}

/// The number of placements of min(rows, cols) non-attacking queens on `board`, on the current
/// rayon pool if `parallel`, else on this thread.
pub fn count_rectangular(board: Board, parallel: bool) -> u64 {
    // A board and its transpose have the same count; search with one queen per row of the
    // shorter side.
    let (rows, cols) = if board.rows() <= board.cols() {
        (board.rows(), board.cols())
    } else {
        (board.cols(), board.rows())
    };
    let plain = Plain {
        mask: columns_mask(cols),
        rows,
    };
    // The mirror image in the vertical axis pairs placements with row 0's queen in column c with
    // those with it in column cols-1-c, so only the left half (and the middle) is searched.
    let roots: Vec<PlainPiece> = (0..cols.div_ceil(2))
        .map(|col| PlainPiece {
            rows: Rows::EMPTY.with(1 << col),
            weight: if 2 * col + 1 == cols { 1 } else { 2 },
        })
        .collect();
    let pieces = split(roots, MIN_PIECES, |piece, out| {
        if piece.rows.y + 2 > rows {
            return false;
        }
        let r = piece.rows;
        for bit in each_bit(plain.choices(r.left, r.down, r.right)) {
            out.push(PlainPiece {
                rows: r.with(bit),
                weight: piece.weight,
            });
        }
        true
    });
    sum_over(&pieces, parallel, |piece| {
        let r = piece.rows;
        let found = if r.y == rows {
            1
        } else {
            plain.count(r.y, r.left, r.down, r.right)
        };
        piece.weight * found
    })
}

/// A piece of the listing: the rows placed so far, as columns.
#[derive(Debug, Clone, Copy)]
struct ListPiece {
    rows: Rows,
    cols: [u8; 32],
}

/// Write `placement` (the 0-based column of the queen in each row of the square `board`) to
/// `line` as the listings print it: the 1-based columns separated by spaces, or (`diagram`) the
/// board's diagram; a newline ends it.
pub fn placement_text(board: Board, placement: &[u8], diagram: bool, line: &mut String) {
    if diagram {
        let queens = placement
            .iter()
            .enumerate()
            .map(|(row, &col)| Square::new(row, usize::from(col)))
            .collect();
        line.push_str(&Layout::new(board, queens).diagram());
    } else {
        for (i, &col) in placement.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(decimal(usize::from(col) + 1));
        }
    }
    line.push('\n');
}

/// The decimal form of a column number (at most 32), without formatting machinery per queen.
fn decimal(k: usize) -> &'static str {
    const NUMBERS: [&str; 33] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
        "32",
    ];
    NUMBERS[k]
}

/// Call `emit` with every placement of n non-attacking queens on an n×n board, in lexicographic
/// order, each as the 0-based column of the queen of each row, after checking it with the
/// independent checker. Returns how many there were. Pieces are searched a window at a time on
/// the current rayon pool if `parallel` and emitted in order, so memory stays bounded at any n.
pub fn list_placements<E: From<NQueensError>>(
    n: usize,
    parallel: bool,
    mut emit: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<u64, E> {
    check_n(n)?;
    if n > MAX_LIST_N {
        return Err(NQueensError::TooBigToList { n, max: MAX_LIST_N }.into());
    }
    let plain = Plain {
        mask: columns_mask(n),
        rows: n,
    };
    // The listing grows about sixfold per row: four times the pieces per row past 14 keeps each
    // piece's share to some thousands of placements.
    let target = MIN_PIECES << (2 * n.saturating_sub(14));
    let root = ListPiece {
        rows: Rows::EMPTY,
        cols: [0; 32],
    };
    let pieces = split(vec![root], target, |piece, out| {
        if piece.rows.y + 2 > n {
            return false;
        }
        let r = piece.rows;
        for bit in each_bit(plain.choices(r.left, r.down, r.right)) {
            let mut cols = piece.cols;
            cols[r.y] = bit.trailing_zeros() as u8;
            out.push(ListPiece {
                rows: r.with(bit),
                cols,
            });
        }
        true
    });
    let list_piece = |piece: &ListPiece| {
        let r = piece.rows;
        let mut cols = piece.cols;
        let mut out = Vec::new();
        plain.list(r.y, r.left, r.down, r.right, &mut cols, &mut out);
        out
    };
    let window = 16
        * if parallel {
            rayon::current_num_threads()
        } else {
            1
        };
    let mut listed = 0;
    for chunk in pieces.chunks(window) {
        let lists: Vec<Vec<u8>> = if parallel {
            chunk.par_iter().with_max_len(1).map(list_piece).collect()
        } else {
            chunk.iter().map(list_piece).collect()
        };
        for placement in lists.iter().flat_map(|list| list.chunks_exact(n)) {
            check_placement(n, placement).map_err(NQueensError::from)?;
            emit(placement)?;
            listed += 1;
        }
    }
    Ok(listed)
}

impl Kind for NQueensError {
    fn kind(&self) -> ErrorKind {
        match self {
            NQueensError::Zero
            | NQueensError::TooBig { .. }
            | NQueensError::TooBigToList { .. } => ErrorKind::Refusal,
            NQueensError::Check(_) => ErrorKind::Failure,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitting_keeps_every_piece() {
        // The sequential twin over the same pieces, the parallel run and the plain search agree.
        for n in 1..=11 {
            let seq = count_placements(n, false).unwrap();
            let par = count_placements(n, true).unwrap();
            assert_eq!(seq, par, "n = {n}");
            let plain = count_rectangular(Board::new(n, n).unwrap(), false);
            assert_eq!(seq.solutions, plain, "n = {n}");
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(count_placements(0, false), Err(NQueensError::Zero));
        assert_eq!(
            count_placements(MAX_N + 1, false),
            Err(NQueensError::TooBig {
                n: MAX_N + 1,
                max: MAX_N
            })
        );
        let refused = list_placements::<NQueensError>(MAX_LIST_N + 1, false, |_| Ok(()));
        assert!(matches!(refused, Err(NQueensError::TooBigToList { .. })));
    }

    #[test]
    fn images_of_a_placement() {
        // 2 4 1 3 on 4×4 is symmetric under 90° turns: all eight images are it or its mirror.
        let mut distinct = images(&[1, 3, 0, 2]);
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }
}
