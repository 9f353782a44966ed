//! The N-queens search against published values (data/nqueens.csv) and against slow,
//! plain oracles written here with no bit masks and no symmetry reasoning.

use std::collections::HashSet;

use queendom::nqueens::{count_placements, count_rectangular, list_placements, NQueensError};
use queendom::nqueens_check::check_placement;
use queendom::Board;

/// (n, solutions, unique) from OEIS A000170 and A002562.
fn published() -> Vec<(usize, u64, u64)> {
    let text = include_str!("../../data/nqueens.csv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn counts_match_a000170_and_a002562() {
    for (n, solutions, unique) in published().into_iter().filter(|r| r.0 <= 14) {
        let counts = count_placements(n, true).unwrap();
        assert_eq!(counts.solutions, solutions, "A000170 at n = {n}");
        assert_eq!(counts.unique, unique, "A002562 at n = {n}");
        if n <= 12 {
            assert_eq!(
                count_placements(n, false).unwrap(),
                counts,
                "sequential, n = {n}"
            );
        }
    }
}

#[test]
fn counts_match_published_values_for_15_and_16() {
    for (n, solutions, unique) in published().into_iter().filter(|r| (15..=16).contains(&r.0)) {
        let counts = count_placements(n, true).unwrap();
        assert_eq!(
            (counts.solutions, counts.unique),
            (solutions, unique),
            "n = {n}"
        );
    }
}

/// Every placement of n queens, by plain backtracking over rows with a loop over earlier rows.
fn all_placements(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cols.len() == n {
            out.push(cols.clone());
            return;
        }
        let row = cols.len();
        for col in 0..n {
            let safe = cols
                .iter()
                .enumerate()
                .all(|(r, &c)| c != col && row - r != col.abs_diff(c));
            if safe {
                cols.push(col);
                extend(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

/// A symmetry of the n×n board as a map of squares: (n, row, col) to (row, col).
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

/// The smallest of the eight images of a placement, each built square by square.
fn canonical(n: usize, cols: &[usize]) -> Vec<usize> {
    let maps: [SquareMap; 8] = [
        |_, r, c| (r, c),
        |n, r, c| (r, n - 1 - c),
        |n, r, c| (n - 1 - r, c),
        |n, r, c| (n - 1 - r, n - 1 - c),
        |_, r, c| (c, r),
        |n, r, c| (n - 1 - c, n - 1 - r),
        |n, r, c| (c, n - 1 - r),
        |n, r, c| (n - 1 - c, r),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0; n];
            for (r, &c) in cols.iter().enumerate() {
                let (r2, c2) = map(n, r, c);
                image[r2] = c2;
            }
            image
        })
        .min()
        .unwrap()
}

#[test]
fn unique_counts_match_brute_force_classes() {
    for n in 1..=10 {
        let all = all_placements(n);
        let classes: HashSet<Vec<usize>> = all.iter().map(|p| canonical(n, p)).collect();
        let counts = count_placements(n, false).unwrap();
        assert_eq!(counts.solutions, all.len() as u64, "n = {n}");
        assert_eq!(counts.unique, classes.len() as u64, "n = {n}");
    }
}

/// Sets of k non-attacking queens on a rows×cols board, chosen square by square in order.
fn oracle_rectangular(rows: usize, cols: usize) -> u64 {
    fn extend(
        rows: usize,
        cols: usize,
        k: usize,
        from: usize,
        chosen: &mut Vec<(usize, usize)>,
    ) -> u64 {
        if chosen.len() == k {
            return 1;
        }
        let mut found = 0;
        for s in from..rows * cols {
            let (r, c) = (s / cols, s % cols);
            let safe = chosen
                .iter()
                .all(|&(qr, qc)| qr != r && qc != c && qr.abs_diff(r) != qc.abs_diff(c));
            if safe {
                chosen.push((r, c));
                found += extend(rows, cols, k, s + 1, chosen);
                chosen.pop();
            }
        }
        found
    }
    extend(rows, cols, rows.min(cols), 0, &mut Vec::new())
}

#[test]
fn rectangular_counts_match_plain_backtracking() {
    for rows in 1..=7 {
        for cols in 1..=7 {
            let board = Board::new(rows, cols).unwrap();
            let expected = oracle_rectangular(rows, cols);
            assert_eq!(count_rectangular(board, false), expected, "{board}");
            assert_eq!(count_rectangular(board, true), expected, "{board}");
        }
    }
}

#[test]
fn square_rectangular_counts_are_the_n_queens_counts() {
    for n in 1..=11 {
        let square = count_rectangular(Board::new(n, n).unwrap(), true);
        assert_eq!(
            square,
            count_placements(n, true).unwrap().solutions,
            "n = {n}"
        );
    }
}

fn listing(n: usize, parallel: bool) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    let count = list_placements::<NQueensError>(n, parallel, |p| {
        all.push(p.to_vec());
        Ok(())
    })
    .unwrap();
    assert_eq!(count, all.len() as u64);
    all
}

#[test]
fn the_8x8_listing_has_92_distinct_valid_placements_in_order() {
    let all = listing(8, true);
    assert_eq!(all.len(), 92);
    assert_eq!(all[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
    assert!(all.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
    for p in &all {
        assert_eq!(check_placement(8, p), Ok(()), "{p:?}");
    }
}

#[test]
fn listings_are_complete_and_the_same_on_any_number_of_threads() {
    for n in 1..=10 {
        let oracle: Vec<Vec<u8>> = all_placements(n)
            .into_iter()
            .map(|p| p.into_iter().map(|c| c as u8).collect())
            .collect();
        assert_eq!(listing(n, false), oracle, "n = {n}");
        assert_eq!(listing(n, true), oracle, "n = {n}");
    }
    assert_eq!(
        listing(12, true).len() as u64,
        count_placements(12, true).unwrap().solutions
    );
}
