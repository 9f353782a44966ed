//! Board geometry: sizes, squares, the board's symmetries, and the fixed-width bitboards
//! with the closed neighbourhood (every square a queen there covers) of each square.

use std::fmt;

use thiserror::Error;

/// Largest number of rows or columns this build accepts. A 32×32 board has 1024 squares, the widest
/// bitboard the search is compiled for.
pub const MAX_SIDE: usize = 32;

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("a board needs at least one row and one column, got {rows}x{cols}")]
    Empty { rows: usize, cols: usize },
    #[error(
        "board {rows}x{cols} is too big: this build supports at most {max} rows and {max} columns"
    )]
    TooBig {
        rows: usize,
        cols: usize,
        max: usize,
    },
}

/// An N×M chessboard: `rows` rows (row 0 is the top row of a printed diagram) and `cols` columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: usize,
    cols: usize,
}

impl Board {
    pub fn new(rows: usize, cols: usize) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::Empty { rows, cols });
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(BoardError::TooBig {
                rows,
                cols,
                max: MAX_SIDE,
            });
        }
        Ok(Board { rows, cols })
    }

    pub fn rows(self) -> usize {
        self.rows
    }

    pub fn cols(self) -> usize {
        self.cols
    }

    pub fn squares(self) -> usize {
        self.rows * self.cols
    }

    pub fn is_square(self) -> bool {
        self.rows == self.cols
    }

    /// The board's symmetries in words, as counts of classes name them: "the 8 rotations and
    /// reflections of the square" or "the 4 symmetries of the rectangle".
    pub fn symmetry_group(self) -> &'static str {
        if self.is_square() {
            "the 8 rotations and reflections of the square"
        } else {
            "the 4 symmetries of the rectangle"
        }
    }

    /// The same board turned on its side (rows become columns).
    pub fn transposed(self) -> Board {
        Board {
            rows: self.cols,
            cols: self.rows,
        }
    }

    pub fn index(self, sq: Square) -> usize {
        sq.row * self.cols + sq.col
    }

    pub fn square(self, index: usize) -> Square {
        Square {
            row: index / self.cols,
            col: index % self.cols,
        }
    }

    /// Whether a queen on `a` covers `b` (a queen covers its own square).
    pub fn covers(self, a: Square, b: Square) -> bool {
        a.row == b.row
            || a.col == b.col
            || a.row + b.col == b.row + a.col
            || a.row + a.col == b.row + b.col
    }

    /// The symmetries of the board that map it onto itself: 8 for a square board, 4 otherwise.
    pub fn symmetries(self) -> Vec<Symmetry> {
        let mut all = vec![
            Symmetry::Identity,
            Symmetry::FlipRows,
            Symmetry::FlipCols,
            Symmetry::Rotate180,
        ];
        if self.is_square() {
            all.extend([
                Symmetry::Transpose,
                Symmetry::AntiTranspose,
                Symmetry::Rotate90,
                Symmetry::Rotate270,
            ]);
        }
        all
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// Why a board written as text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardParseError {
    #[error("'{0}' is not a board size: expected NxM such as 8x8 or 3x5")]
    Malformed(String),
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// A board written `NxM` (also `N×M` or `NXM`), or `N` for the square board N×N.
impl std::str::FromStr for Board {
    type Err = BoardParseError;

    fn from_str(text: &str) -> Result<Board, BoardParseError> {
        let t = text.trim();
        let (r, c) = t.split_once(['x', 'X', '×']).unwrap_or((t, t));
        let side = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BoardParseError::Malformed(text.to_string()));
            }
            // All digits: only an overflow can fail, and that is certainly too big.
            Ok(s.parse::<usize>().unwrap_or(usize::MAX))
        };
        Ok(Board::new(side(r)?, side(c)?)?)
    }
}

/// A square, 0-based; row 0 is the top row of a printed diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub row: usize,
    pub col: usize,
}

impl Square {
    pub fn new(row: usize, col: usize) -> Square {
        Square { row, col }
    }
}

/// `r1c1`: 1-based row from the top, then 1-based column from the left.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// One of the rigid motions of the board onto itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    Identity,
    FlipRows,
    FlipCols,
    Rotate180,
    /// Only on square boards, as are the three below.
    Transpose,
    AntiTranspose,
    Rotate90,
    Rotate270,
}

impl Symmetry {
    pub fn apply(self, board: Board, sq: Square) -> Square {
        let (r, c) = (sq.row, sq.col);
        let (last_r, last_c) = (board.rows - 1, board.cols - 1);
        let (row, col) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::FlipRows => (last_r - r, c),
            Symmetry::FlipCols => (r, last_c - c),
            Symmetry::Rotate180 => (last_r - r, last_c - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last_c - c, last_r - r),
            Symmetry::Rotate90 => (c, last_r - r),
            Symmetry::Rotate270 => (last_c - c, r),
        };
        Square { row, col }
    }
}

/// A set of squares of one board, `W` 64-bit words wide (square `i` is bit `i % 64` of word `i / 64`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Bits<W> {
    pub const EMPTY: Bits<W> = Bits([0; W]);

    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline(always)]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn and(&self, o: &Bits<W>) -> Bits<W> {
        let mut r = [0; W];
        for (i, x) in r.iter_mut().enumerate() {
            *x = self.0[i] & o.0[i];
        }
        Bits(r)
    }

    #[inline(always)]
    pub fn or(&self, o: &Bits<W>) -> Bits<W> {
        let mut r = [0; W];
        for (i, x) in r.iter_mut().enumerate() {
            *x = self.0[i] | o.0[i];
        }
        Bits(r)
    }

    /// `self \ o`
    #[inline(always)]
    pub fn minus(&self, o: &Bits<W>) -> Bits<W> {
        let mut r = [0; W];
        for (i, x) in r.iter_mut().enumerate() {
            *x = self.0[i] & !o.0[i];
        }
        Bits(r)
    }

    /// `|self ∩ o|` without building the intersection.
    #[inline(always)]
    pub fn count_and(&self, o: &Bits<W>) -> u32 {
        let mut n = 0;
        for i in 0..W {
            n += (self.0[i] & o.0[i]).count_ones();
        }
        n
    }

    #[inline(always)]
    pub fn intersects(&self, o: &Bits<W>) -> bool {
        (0..W).any(|i| self.0[i] & o.0[i] != 0)
    }

    /// `self ⊆ o`
    #[inline(always)]
    pub fn is_subset(&self, o: &Bits<W>) -> bool {
        (0..W).all(|i| self.0[i] & !o.0[i] == 0)
    }

    /// The members up to and including square `i`.
    #[inline(always)]
    pub fn through(&self, i: usize) -> Bits<W> {
        let mut r = self.0;
        let (w, bit) = (i >> 6, i & 63);
        // Bits 0..=bit of word w, without shifting by 64.
        r[w] &= u64::MAX >> (63 - bit);
        for x in r.iter_mut().skip(w + 1) {
            *x = 0;
        }
        Bits(r)
    }

    /// Add the low `len` ≤ 32 bits of `bits` as squares `start..start + len` (the inverse of
    /// [`Bits::extract`]).
    #[inline(always)]
    pub fn insert(&mut self, start: usize, bits: u64) {
        let (w, off) = (start >> 6, start & 63);
        self.0[w] |= bits << off;
        if off != 0 && w + 1 < W {
            self.0[w + 1] |= bits >> (64 - off);
        }
    }

    /// The members in increasing order.
    #[inline(always)]
    pub fn ones(&self) -> Ones<W> {
        Ones {
            words: self.0,
            word: 0,
        }
    }

    /// Visit the members in increasing order.
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for w in 0..W {
            let mut x = self.0[w];
            while x != 0 {
                f(w * 64 + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
    }

    /// The `len` ≤ 32 members from `start` on, as the low bits of a word (bit 0: square `start`).
    #[inline(always)]
    pub fn extract(&self, start: usize, len: usize) -> u64 {
        let (w, off) = (start >> 6, start & 63);
        let mut x = self.0[w] >> off;
        if off + len > 64 {
            x |= self.0[w + 1] << (64 - off);
        }
        x & ((1 << len) - 1)
    }

    pub fn first(&self) -> Option<usize> {
        (0..W)
            .find(|&w| self.0[w] != 0)
            .map(|w| w * 64 + self.0[w].trailing_zeros() as usize)
    }

    pub fn last(&self) -> Option<usize> {
        (0..W)
            .rev()
            .find(|&w| self.0[w] != 0)
            .map(|w| w * 64 + 63 - self.0[w].leading_zeros() as usize)
    }
}

/// The members of a [`Bits`], lowest first: each word is looked at once, where taking
/// `first()` again and again starts from word 0 every time.
pub struct Ones<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let x = self.words[self.word];
            if x != 0 {
                self.words[self.word] = x & (x - 1);
                return Some(self.word * 64 + x.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// Number of 64-bit words the search uses for a board: the smallest compiled width that holds it.
pub fn words_for(board: Board) -> usize {
    match board.squares() {
        0..=64 => 1,
        65..=128 => 2,
        129..=256 => 4,
        257..=512 => 8,
        _ => 16,
    }
}

/// Slots of a per-line counter array: rows, columns, diagonals (r − c constant) and anti-diagonals
/// (r + c constant), each family starting at a fixed offset (see [`Geometry::lines`]).
pub const LINE_SLOTS: usize = 4 * 64;
/// Offset of each family's lines in a counter array, in the order row, column, diagonal, anti.
pub const LINE_FAMILY_OFFSET: [usize; 4] = [0, 64, 128, 192];

/// Everything about a board the search needs, computed once per board.
pub struct Geometry<const W: usize> {
    pub board: Board,
    /// All squares of the board.
    pub full: Bits<W>,
    /// `cover[s]`: the squares a queen on `s` covers, `s` included.
    pub cover: Vec<Bits<W>>,
    /// `lines[s]`: the slots of the four lines through `s` (row, column, diagonal, anti-diagonal).
    /// Two different lines through `s` meet only at `s`, so `|cover[s] ∩ X|` is the sum of the
    /// four lines' counts in X, less 3 if `s` is in X.
    pub lines: Vec<[u8; 4]>,
    /// Squares on each line, by slot.
    pub line_len: [u8; LINE_SLOTS],
    /// The squares of each line, by slot.
    pub line_squares: Vec<Bits<W>>,
    /// The squares whose row + column is odd (one colour of the chessboard).
    pub odd_squares: Bits<W>,
    /// The squares by the parities of their row a and column b, at `2 * a + b`.
    pub parity_classes: [Bits<W>; 4],
}

impl<const W: usize> Geometry<W> {
    pub fn new(board: Board) -> Geometry<W> {
        assert!(
            board.squares() <= W * 64,
            "board {board} needs a wider bitboard"
        );
        let n = board.squares();
        let mut full = Bits::EMPTY;
        for i in 0..n {
            full.set(i);
        }
        let cover = (0..n)
            .map(|a| {
                let mut m = Bits::EMPTY;
                for b in 0..n {
                    if board.covers(board.square(a), board.square(b)) {
                        m.set(b);
                    }
                }
                m
            })
            .collect();
        let lines = (0..n)
            .map(|i| {
                let sq = board.square(i);
                // Both diagonal families are numbered so that along a row their slots ascend with
                // the column, as the columns' do: a row's coverages then add four runs of
                // consecutive counters (`Searcher::row_coverages`).
                let slot = [
                    sq.row,
                    sq.col,
                    board.rows - 1 - sq.row + sq.col,
                    sq.row + sq.col,
                ];
                let mut out = [0u8; 4];
                for f in 0..4 {
                    out[f] = (LINE_FAMILY_OFFSET[f] + slot[f]) as u8;
                }
                out
            })
            .collect::<Vec<[u8; 4]>>();
        let mut odd_squares = Bits::EMPTY;
        let mut parity_classes = [Bits::EMPTY; 4];
        for i in 0..n {
            let sq = board.square(i);
            if (sq.row + sq.col) % 2 == 1 {
                odd_squares.set(i);
            }
            parity_classes[2 * (sq.row % 2) + sq.col % 2].set(i);
        }
        let mut line_len = [0u8; LINE_SLOTS];
        let mut line_squares = vec![Bits::EMPTY; LINE_SLOTS];
        for (s, slots) in lines.iter().enumerate() {
            for &l in slots {
                line_len[l as usize] += 1;
                line_squares[l as usize].set(s);
            }
        }
        Geometry {
            board,
            full,
            cover,
            lines,
            line_len,
            line_squares,
            odd_squares,
            parity_classes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_visits_the_members_in_order() {
        let mut b = Bits::<4>::EMPTY;
        assert_eq!(b.ones().next(), None);
        for i in [0, 1, 63, 64, 127, 128, 200, 255] {
            b.set(i);
        }
        let mut seen = Vec::new();
        b.for_each(|i| seen.push(i));
        assert_eq!(b.ones().collect::<Vec<_>>(), seen);
        assert_eq!(seen, [0, 1, 63, 64, 127, 128, 200, 255]);
        assert_eq!((b.first(), b.last()), (Some(0), Some(255)));
        assert_eq!(Bits::<4>::EMPTY.last(), None);
        for (i, &s) in seen.iter().enumerate() {
            let low = b.through(s);
            assert_eq!(low.last(), Some(s));
            assert_eq!(b.minus(&low).first(), seen.get(i + 1).copied());
        }
        for start in [0, 5, 40, 63, 64, 100, 224] {
            let bits = 0xdead_beef_u64 >> (start % 7);
            let mut c = Bits::<4>::EMPTY;
            c.insert(start, bits);
            assert_eq!(
                c.extract(start, 32),
                bits & 0xffff_ffff,
                "insert at {start}"
            );
            assert_eq!(c.count(), bits.count_ones(), "insert at {start}");
        }
        for i in 0..256 {
            let through: Vec<usize> = b.through(i).ones().collect();
            let want: Vec<usize> = seen.iter().copied().filter(|&s| s <= i).collect();
            assert_eq!(through, want, "through({i})");
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(0, 3).is_err());
        assert!(Board::new(3, 0).is_err());
        assert!(Board::new(MAX_SIDE + 1, 1).is_err());
        assert!(Board::new(MAX_SIDE, MAX_SIDE).is_ok());
    }

    #[test]
    fn symmetries_map_the_board_onto_itself() {
        for (r, c) in [(5, 5), (4, 7), (1, 6), (6, 1)] {
            let b = Board::new(r, c).unwrap();
            let syms = b.symmetries();
            assert_eq!(syms.len(), if r == c { 8 } else { 4 });
            for s in syms {
                let mut seen = std::collections::HashSet::new();
                for i in 0..b.squares() {
                    let t = s.apply(b, b.square(i));
                    assert!(t.row < r && t.col < c);
                    seen.insert(t);
                }
                assert_eq!(seen.len(), b.squares());
            }
        }
    }

    #[test]
    fn symmetries_preserve_attacks() {
        let b = Board::new(6, 6).unwrap();
        for s in b.symmetries() {
            for i in 0..36 {
                for j in 0..36 {
                    let (a, c) = (b.square(i), b.square(j));
                    assert_eq!(b.covers(a, c), b.covers(s.apply(b, a), s.apply(b, c)));
                }
            }
        }
    }

    #[test]
    fn boards_from_text() {
        assert_eq!("3x5".parse(), Ok(Board::new(3, 5).unwrap()));
        assert_eq!(" 3×5 ".parse(), Ok(Board::new(3, 5).unwrap()));
        assert_eq!("8".parse(), Ok(Board::new(8, 8).unwrap()));
        for bad in ["0x5", "33x1", "3x", "-3x4", "8by8", "", "x"] {
            assert!(bad.parse::<Board>().is_err(), "{bad}");
        }
    }

    #[test]
    fn neighbourhoods_match_the_attack_rule() {
        let b = Board::new(3, 5).unwrap();
        let g = Geometry::<1>::new(b);
        // The centre of a 3x5 board covers all but the four squares a knight's move away.
        assert_eq!(g.cover[b.index(Square::new(1, 2))].count(), 15 - 4);
        assert_eq!(g.cover[0].count(), 5 + 2 + 2);
    }
}
