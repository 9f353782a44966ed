//! Weakley's colour rule for n/2 queens on even square boards.

use crate::board::Board;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bounds::tests::dominating_sets;

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
}
