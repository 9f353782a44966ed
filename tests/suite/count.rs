//! Counting every minimum layout: against a brute force that tries every set of the minimum size
//! and canonicalises each one by hand, against the published counts, and against itself on any
//! number of threads.

use std::collections::{BTreeSet, HashMap};

use queendom::search::{count, Problem, SearchOptions};
use queendom::Board;

/// Every minimum layout of a board by brute force: the smallest k for which some k-set of squares
/// covers the board (and, for independent domination, has no two queens attacking), and all such
/// sets, as sorted lists of (row, col). Shares nothing with the engine.
fn brute_force(rows: usize, cols: usize, independent: bool) -> (usize, Vec<Vec<(usize, usize)>>) {
    let n = rows * cols;
    let attack = |a: usize, b: usize| {
        let (r1, c1, r2, c2) = (a / cols, a % cols, b / cols, b % cols);
        r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2)
    };
    let reach: Vec<u64> = (0..n)
        .map(|a| (0..n).fold(0u64, |m, b| m | (attack(a, b) as u64) << b))
        .collect();
    let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
    for k in 1..=n {
        let mut found = Vec::new();
        let mut chosen = Vec::new();
        subsets(n, k, 0, &mut chosen, &mut |set: &[usize]| {
            let covered = set.iter().fold(0u64, |m, &s| m | reach[s]);
            let independent_ok = !independent
                || set
                    .iter()
                    .enumerate()
                    .all(|(i, &a)| set[i + 1..].iter().all(|&b| !attack(a, b)));
            if covered == all && independent_ok {
                found.push(set.iter().map(|&s| (s / cols, s % cols)).collect());
            }
        });
        if !found.is_empty() {
            return (k, found);
        }
    }
    unreachable!("every board is dominated by all its squares")
}

fn subsets(
    n: usize,
    k: usize,
    from: usize,
    chosen: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]),
) {
    if chosen.len() == k {
        visit(chosen);
        return;
    }
    for s in from..n {
        if n - s < k - chosen.len() {
            break;
        }
        chosen.push(s);
        subsets(n, k, s + 1, chosen, visit);
        chosen.pop();
    }
}

/// The number of classes of `layouts` under the rotations and reflections of the board (all 8 on
/// a square board, the 4 that keep a rectangle's shape otherwise), by canonicalising each layout.
fn classes(rows: usize, cols: usize, layouts: &[Vec<(usize, usize)>]) -> usize {
    let (lr, lc) = (rows - 1, cols - 1);
    type Map = Box<dyn Fn(usize, usize) -> (usize, usize)>;
    let mut maps: Vec<Map> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (lr - r, c)),
        Box::new(move |r, c| (r, lc - c)),
        Box::new(move |r, c| (lr - r, lc - c)),
    ];
    if rows == cols {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (lc - c, lr - r)));
        maps.push(Box::new(move |r, c| (c, lr - r)));
        maps.push(Box::new(move |r, c| (lc - c, r)));
    }
    let canonical: BTreeSet<Vec<(usize, usize)>> = layouts
        .iter()
        .map(|l| {
            maps.iter()
                .map(|m| {
                    let mut image: Vec<(usize, usize)> = l.iter().map(|&(r, c)| m(r, c)).collect();
                    image.sort();
                    image
                })
                .min()
                .unwrap()
        })
        .collect();
    canonical.len()
}

fn problem(independent: bool) -> Problem {
    if independent {
        Problem::IndependentDomination
    } else {
        Problem::Domination
    }
}

#[test]
fn counts_match_a_brute_force_on_small_and_thin_boards() {
    let mut boards: Vec<(usize, usize)> = Vec::new();
    for r in 1..=6 {
        for c in 1..=6 {
            boards.push((r, c));
        }
    }
    boards.extend([(1, 12), (2, 9), (9, 2), (3, 10), (2, 14), (4, 9), (3, 13)]);
    for (r, c) in boards {
        for independent in [false, true] {
            let (k, layouts) = brute_force(r, c, independent);
            let board = Board::new(r, c).unwrap();
            let p = problem(independent);
            let counted = count(board, p, true, &SearchOptions::sequential()).unwrap();
            assert_eq!(counted.queens, k, "{p} of {board}");
            assert_eq!(counted.layouts, layouts.len() as u64, "{p} of {board}");
            assert_eq!(
                counted.classes,
                classes(r, c, &layouts) as u64,
                "{p} of {board}"
            );
            // The representatives: one per class, canonical, their class sizes adding up.
            assert_eq!(counted.representatives.len() as u64, counted.classes);
            let sizes: usize = counted.representatives.iter().map(|(_, n)| n).sum();
            assert_eq!(sizes as u64, counted.layouts, "{p} of {board}");
            let all: BTreeSet<Vec<(usize, usize)>> = layouts.into_iter().collect();
            for (rep, _) in &counted.representatives {
                let squares: Vec<(usize, usize)> =
                    rep.queens().iter().map(|q| (q.row, q.col)).collect();
                assert!(all.contains(&squares), "{p} of {board}: {squares:?}");
            }
        }
    }
}

/// n → (queens, layouts, classes if published).
fn published(file: &str) -> HashMap<usize, (usize, u64, Option<u64>)> {
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut reader = csv::Reader::from_path(&path).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].parse().unwrap(),
                (
                    r[1].parse().unwrap(),
                    r[2].parse().unwrap(),
                    r[3].parse().ok(),
                ),
            )
        })
        .collect()
}

fn check_published(problem: Problem, file: &str, sizes: std::ops::RangeInclusive<usize>) {
    let table = published(file);
    for n in sizes {
        let Some(&(queens, layouts, classes)) = table.get(&n) else {
            continue;
        };
        let board = Board::new(n, n).unwrap();
        let counted = count(board, problem, false, &SearchOptions::parallel()).unwrap();
        assert_eq!(
            (counted.queens, counted.layouts),
            (queens, layouts),
            "{problem} of {board}"
        );
        if let Some(classes) = classes {
            assert_eq!(counted.classes, classes, "{problem} of {board}");
        }
    }
}

#[test]
fn published_counts_of_square_boards() {
    check_published(Problem::Domination, "domination_counts.csv", 1..=11);
    check_published(
        Problem::IndependentDomination,
        "independent_domination_counts.csv",
        1..=11,
    );
}

#[test]
#[ignore = "minutes of CPU; run with --ignored"]
fn published_counts_of_larger_square_boards() {
    check_published(Problem::Domination, "domination_counts.csv", 12..=14);
    check_published(
        Problem::IndependentDomination,
        "independent_domination_counts.csv",
        12..=15,
    );
}

#[test]
fn counts_do_not_depend_on_the_threads() {
    let pools: Vec<rayon::ThreadPool> = [1, 2, 3]
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        })
        .collect();
    for (r, c) in [(7, 7), (8, 8), (6, 9), (9, 10), (5, 12)] {
        let board = Board::new(r, c).unwrap();
        for independent in [false, true] {
            let p = problem(independent);
            let seq = count(board, p, true, &SearchOptions::sequential()).unwrap();
            for pool in &pools {
                let par = pool
                    .install(|| count(board, p, true, &SearchOptions::parallel()))
                    .unwrap();
                assert_eq!(
                    (par.queens, par.layouts, par.classes),
                    (seq.queens, seq.layouts, seq.classes),
                    "{p} of {board}"
                );
                assert_eq!(par.representatives, seq.representatives, "{p} of {board}");
            }
        }
    }
}

/// `count --list` and `--classes` print the same lines on one thread and two (the classes come
/// from the threads in any order and are sorted on the way out), one line per layout or class.
#[test]
fn count_listings_do_not_depend_on_the_threads() {
    let listing = |args: &[&str], threads: &str| -> String {
        let out = assert_cmd::Command::cargo_bin("queendom")
            .unwrap()
            .args(args)
            .args(["-j", threads])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        // The last line of a board says its nodes and time, which depend on the run.
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.contains(" nodes, "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    for (args, lines) in [
        (&["count", "8x8", "--list"][..], 4860),
        (&["count", "8x8", "--classes"][..], 638),
        (&["count", "6x9", "--list"][..], 25),
        (&["count", "5x12", "--classes"][..], 4),
        (&["count", "4x4", "-i", "--list"][..], 16),
        (&["count", "4x4", "-i", "--classes"][..], 2),
    ] {
        let one = listing(args, "1");
        assert_eq!(one, listing(args, "2"), "{args:?}");
        let listed = one.lines().filter(|l| l.starts_with('r')).count();
        assert_eq!(listed, lines, "{args:?}");
    }
}
