//! The colour grids rule: Spencer's bound for each colour and each parity of the empty lines apart.
//!
//! Call a row or column *empty* if it holds no queen. A square in an empty row and an empty column
//! is covered along a diagonal only, and a diagonal holds squares of one colour (the parity of
//! row + column), so such a square is covered only by a queen of its own colour. Split the empty
//! rows by the parity of their index into X_0, X_1 and the empty columns into Y_0, Y_1: every
//! square of the grid X_i × Y_j has colour p = (i + j) mod 2, so the k_p queens of colour p cover
//! the whole grid with their 2·k_p diagonals.
//!
//! **Theorem.** If k diagonals and anti-diagonals, at most k of each (the two diagonals of k
//! queens), cover every point of a grid X × Y with X, Y nonempty, then
//! |X| + |Y| ≤ 2k + ε(|X|) + ε(|Y|), with ε(x) = 1 for even x and 0 for odd x.
//!
//! Proof (Alon's Combinatorial Nullstellensatz, Theorem 1.2 of "Combinatorial Nullstellensatz",
//! Combin. Probab. Comput. 8 (1999) 7-29). Let the queens' diagonals be x − y = d_q and
//! x + y = s_q and f(x, y) = Π_q (x − y − d_q)(x + y − s_q), of degree 2k, which vanishes on
//! X × Y. Its top-degree part is (x² − y²)^k, whose monomial x^{2a} y^{2(k−a)} has the nonzero
//! coefficient (−1)^{k−a}·C(k, a) for every 0 ≤ a ≤ k. The theorem says that f cannot vanish on
//! X × Y if |X| > 2a and |Y| > 2(k − a) for such an a. Take a = ⌊(|X| − 1)/2⌋, the largest a with
//! 2a < |X| (if a > k, take a = k: then |X| > 2k and |Y| ≥ 1 > 0 contradict already). Then
//! |Y| ≤ 2(k − a), which is |X| + |Y| ≤ 2k + 1 for odd |X| and |X| + |Y| ≤ 2k + 2 for even |X|;
//! the same with X and Y exchanged gives the bound. (Fewer than k lines of a family: add lines.)
//!
//! Writing g(x) = x − ε(x) (so g(1) = g(2) = 1, g(3) = g(4) = 3, ...), a dominating layout
//! satisfies g(|X_i|) + g(|Y_j|) ≤ 2·k_{(i+j) mod 2} for each of the four grids with X_i and Y_j
//! nonempty. Summed over the two grids of a colour this is the colour-blind Spencer bound that the
//! collision budget counts; apart, it ties each colour's queens to the parities of the empty lines.
//! It holds for every dominating layout, of every size, on every board, so it holds for every
//! layout a search or a count within a limit may find.
//!
//! **At a node.** A partial layout with `remaining` queens still to come has E_i empty rows of
//! parity i, F_j empty columns of parity j and K_p queens of colour p. Let r_ab of the queens to
//! come stand on rows of parity a and columns of parity b (colour a + b). The final empty rows of
//! parity i are at least E_i − (r_i0 + r_i1) (a queen empties no line and fills at most one row),
//! the final empty columns of parity j at least F_j − (r_0j + r_1j), and k_p = K_p + Σ_{a+b≡p} r_ab.
//! Since g never decreases, a smaller grid only eases its inequality (and an empty one drops it),
//! and more queens of a colour only ease that colour's, so a completion exists only if some
//! (r_00, r_01, r_10, r_11) summing to `remaining` passes every grid with the least sizes
//! E_i − R_i, F_j − C_j. [`refuted`] tries them all; none passing prunes the node.

/// The lines and colours of a partial layout the rule reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridCounts {
    /// Empty rows with an even and with an odd index.
    pub empty_rows: [u32; 2],
    /// Empty columns with an even and with an odd index.
    pub empty_cols: [u32; 2],
    /// Queens on even squares (row + column even) and on odd ones.
    pub queens: [u32; 2],
}

/// x − ε(x): the part of a grid side its colour's queens must pay for, two per queen.
#[inline(always)]
fn paid(x: u32) -> u32 {
    x - x.is_multiple_of(2) as u32
}

/// Whether a layout whose empty lines and colours are `rows`, `cols` and `queens` leaves some grid
/// X_i × Y_j uncovered by the theorem (a complete layout that breaks this dominates nothing).
#[inline(always)]
fn some_grid_uncovered(rows: [u32; 2], cols: [u32; 2], queens: [u32; 2]) -> bool {
    (0..2).any(|i| {
        (0..2).any(|j| {
            rows[i] > 0 && cols[j] > 0 && paid(rows[i]) + paid(cols[j]) > 2 * queens[(i + j) % 2]
        })
    })
}

/// Whether a complete layout with these counts breaks the rule (it cannot dominate its board).
#[cfg(test)]
fn broken(counts: GridCounts) -> bool {
    some_grid_uncovered(counts.empty_rows, counts.empty_cols, counts.queens)
}

/// Whether no completion of a partial layout with `counts` by at most `remaining` more queens
/// keeps the rule (see the module's documentation): then no completion dominates the board.
pub fn refuted(counts: GridCounts, remaining: u32) -> bool {
    let GridCounts {
        empty_rows: [e0, e1],
        empty_cols: [f0, f1],
        queens: [k0, k1],
    } = counts;
    let r = remaining;
    for r00 in 0..=r {
        for r01 in 0..=r - r00 {
            for r10 in 0..=r - r00 - r01 {
                let r11 = r - r00 - r01 - r10;
                let rows = [e0.saturating_sub(r00 + r01), e1.saturating_sub(r10 + r11)];
                let cols = [f0.saturating_sub(r00 + r10), f1.saturating_sub(r01 + r11)];
                let queens = [k0 + r00 + r11, k1 + r01 + r10];
                if !some_grid_uncovered(rows, cols, queens) {
                    return false;
                }
            }
        }
    }
    true
}

/// Entries of [`RefutedCache`]: a search meets few distinct counts, and each is tried often.
const CACHE_ENTRIES: usize = 1 << 10;

/// [`refuted`] remembered: a direct-mapped table of the answers a searcher has computed, so that the
/// rule costs a few instructions a node.
pub struct RefutedCache {
    /// Per entry the key (bits 2..), whether it is filled (bit 1) and the answer (bit 0).
    entries: Box<[std::cell::Cell<u64>]>,
}

impl Default for RefutedCache {
    fn default() -> Self {
        RefutedCache {
            entries: (0..CACHE_ENTRIES)
                .map(|_| std::cell::Cell::new(0))
                .collect(),
        }
    }
}

impl RefutedCache {
    /// [`refuted`], from the table when it was computed before. Every count is below 64 (boards
    /// have at most 32 rows and columns, and a layout at most 64 queens).
    #[inline(always)]
    pub fn refuted(&self, counts: GridCounts, remaining: u32) -> bool {
        let GridCounts {
            empty_rows: [e0, e1],
            empty_cols: [f0, f1],
            queens: [k0, k1],
        } = counts;
        let key = (e0 as u64)
            | (e1 as u64) << 6
            | (f0 as u64) << 12
            | (f1 as u64) << 18
            | (k0 as u64) << 24
            | (k1 as u64) << 30
            | (remaining as u64) << 36;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize;
        let entry = &self.entries[slot % CACHE_ENTRIES];
        let stored = entry.get();
        if stored >> 2 == key && stored & 2 != 0 {
            return stored & 1 != 0;
        }
        let answer = refuted(counts, remaining);
        entry.set(key << 2 | 2 | answer as u64);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::every_dominating_subset;
    use super::*;
    use crate::board::Board;
    use crate::random::XorShift;

    /// The theorem on small grids by brute force: for every X, Y of up to 4 points among 0..6, the
    /// fewest k such that k diagonals and k anti-diagonals cover X × Y keeps the bound (and many
    /// grids meet it, so a bound one too strong would fail).
    #[test]
    fn the_bound_holds_for_every_cover_of_a_small_grid() {
        // Points (x, y) with 0 <= x, y < 6; diagonal x - y = d, anti-diagonal x + y = s.
        let subsets = |max: usize| -> Vec<Vec<i32>> {
            (1u32..64)
                .filter(|m| m.count_ones() as usize <= max)
                .map(|m| (0..6).filter(|&i| m >> i & 1 == 1).collect())
                .collect()
        };
        let sets = subsets(4);
        let mut tight = 0;
        for xs in &sets {
            for ys in sets.iter().filter(|ys| ys[0] >= xs[0]) {
                // The fewest lines of each family covering X × Y: an exact minimum over line
                // sets, small enough here (the points' diagonals and anti-diagonals).
                let points: Vec<(i32, i32)> = xs
                    .iter()
                    .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
                    .collect();
                let mut diffs: Vec<i32> = points.iter().map(|&(x, y)| x - y).collect();
                let mut sums: Vec<i32> = points.iter().map(|&(x, y)| x + y).collect();
                diffs.sort_unstable();
                diffs.dedup();
                sums.sort_unstable();
                sums.dedup();
                // Least k such that k diagonals and k anti-diagonals cover all points.
                let mut least = usize::MAX;
                for dm in 0u32..1 << diffs.len() {
                    let k = dm.count_ones() as usize;
                    if k >= least {
                        continue;
                    }
                    let rest: Vec<i32> = points
                        .iter()
                        .filter(|&&(x, y)| {
                            !diffs
                                .iter()
                                .enumerate()
                                .any(|(i, &d)| dm >> i & 1 == 1 && x - y == d)
                        })
                        .map(|&(x, y)| x + y)
                        .collect::<std::collections::BTreeSet<_>>()
                        .into_iter()
                        .collect();
                    least = least.min(k.max(rest.len()));
                }
                let (x, y) = (xs.len() as u32, ys.len() as u32);
                let k = least as u32;
                assert!(
                    paid(x) + paid(y) <= 2 * k,
                    "X = {xs:?}, Y = {ys:?} covered by {k} of each"
                );
                tight += (paid(x) + paid(y) + 1 >= 2 * k) as u32;
            }
        }
        assert!(tight > 100, "only {tight} grids at the bound");
    }

    /// The counts of queens `queens` (squares row-major) on a `rows` × `cols` board.
    fn counts_of(rows: usize, cols: usize, queens: &[usize]) -> GridCounts {
        let mut counts = GridCounts::default();
        for parity in 0..2 {
            counts.empty_rows[parity] = (0..rows)
                .filter(|&r| r % 2 == parity && queens.iter().all(|&q| q / cols != r))
                .count() as u32;
            counts.empty_cols[parity] = (0..cols)
                .filter(|&c| c % 2 == parity && queens.iter().all(|&q| q % cols != c))
                .count() as u32;
            counts.queens[parity] = queens
                .iter()
                .filter(|&&q| (q / cols + q % cols) % 2 == parity)
                .count() as u32;
        }
        counts
    }

    /// No part of a dominating set is refuted with the rest of the set still to come: the rule
    /// keeps every layout (so every count), on every board up to 7×8 with every set of up to
    /// min(rows, cols) − 1 queens (beyond γ on most), and 8×8 at γ = 5. Parts at the edge
    /// (refuted with one queen fewer to come) are many, so a rule one step too strong would fail.
    #[test]
    fn no_part_of_a_dominating_set_is_refuted() {
        let mut boards: Vec<(usize, usize, usize)> = Vec::new();
        for rows in 2..=7 {
            for cols in rows..=8 {
                boards.push((rows, cols, (rows - 1).min(5)));
            }
        }
        boards.push((8, 8, 5));
        let mut sets = 0u64;
        let mut tight = 0u64;
        for (rows, cols, k) in boards {
            let board = Board::new(rows, cols).unwrap();
            every_dominating_subset(board, k, &mut |queens| {
                sets += 1;
                let whole = counts_of(rows, cols, queens);
                assert!(!broken(whole), "{rows}x{cols}: {queens:?}");
                // Each part, with the rest of the layout still to come.
                for part in 0u32..1 << queens.len() {
                    let placed: Vec<usize> = (0..queens.len())
                        .filter(|&i| part >> i & 1 == 1)
                        .map(|i| queens[i])
                        .collect();
                    let remaining = (queens.len() - placed.len()) as u32;
                    let counts = counts_of(rows, cols, &placed);
                    assert!(
                        !refuted(counts, remaining),
                        "{rows}x{cols}: {placed:?} of {queens:?}, {remaining} to come"
                    );
                    tight += (remaining > 0 && refuted(counts, remaining - 1)) as u64;
                }
            });
        }
        assert!(sets > 100_000, "only {sets} dominating sets");
        assert!(
            tight > 1_000,
            "only {tight} parts at the edge of refutation"
        );
    }

    #[test]
    fn refuted_is_broken_with_nothing_left() {
        let mut random = XorShift::new(0x0123_4567_89ab_cdefu64);
        let mut next = |m: u32| random.below(m);
        let mut some_broken = 0;
        for _ in 0..10_000 {
            let counts = GridCounts {
                empty_rows: [next(9), next(9)],
                empty_cols: [next(9), next(9)],
                queens: [next(9), next(9)],
            };
            assert_eq!(refuted(counts, 0), broken(counts), "{counts:?}");
            some_broken += broken(counts) as u32;
            // More queens to come never make a refutation out of a completion.
            let r = next(6);
            if refuted(counts, r + 1) {
                assert!(refuted(counts, r), "{counts:?} with {r} left");
            }
        }
        assert!(some_broken > 1000);
    }

    #[test]
    fn the_cache_answers_as_the_rule() {
        let cache = RefutedCache::default();
        let mut random = XorShift::new(0x2545_f491_4f6c_dd1du64);
        let mut next = |m: u32| random.below(m);
        for _ in 0..50_000 {
            let counts = GridCounts {
                empty_rows: [next(7), next(7)],
                empty_cols: [next(7), next(7)],
                queens: [next(7), next(7)],
            };
            let r = next(5);
            assert_eq!(cache.refuted(counts, r), refuted(counts, r), "{counts:?}");
        }
    }
}
