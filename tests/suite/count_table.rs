//! `table --count`: the layouts and classes columns agree with `count` on every board, a board and
//! its transpose agree, the table does not depend on the threads, every format carries the
//! columns, and resume keeps its guarantees (digests, recounting, the kind of table).

use std::fs;

use queendom::row::{LayoutTotals, TableRow};
use queendom::search::{count, Problem, SearchOptions};
use queendom::{Board, Layout};
use tempfile::TempDir;

use crate::common::{queendom, read, without_measurements};

const BOARDS: [&str; 4] = ["--rows", "1-5", "--cols", "2-6"];

fn table(dir: &TempDir, extra: &[&str]) -> String {
    let out = queendom()
        .args(["table", "--count"])
        .args(BOARDS)
        .args(extra)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// (board, queens, layouts, classes) of every row of a count csv.
fn counts(csv: &str) -> Vec<(Board, usize, u64, u64)> {
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "rows,cols,queens,layout,problem,layouts,classes,digest,nodes,seconds,threads"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let board = Board::new(f[0].parse().unwrap(), f[1].parse().unwrap()).unwrap();
            (
                board,
                f[2].parse().unwrap(),
                f[5].parse().unwrap(),
                f[6].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn count_columns_agree_with_count_and_do_not_depend_on_the_threads() {
    let dir = TempDir::new().unwrap();
    for problem in [Problem::Domination, Problem::IndependentDomination] {
        let flag: &[&str] = if problem == Problem::IndependentDomination {
            &["-i"]
        } else {
            &[]
        };
        let one = table(&dir, &[flag, &["-j", "1"]].concat());
        let two = table(&dir, &[flag, &["-j", "2"]].concat());
        // Everything but the measurements (nodes, seconds, and the threads column itself).
        let values = |t: &str| {
            without_measurements(t)
                .lines()
                .map(|l| l.rsplit_once(',').unwrap().0.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(values(&one), values(&two));
        let rows = counts(&one);
        assert_eq!(rows.len(), 25);
        for &(board, queens, layouts, classes) in &rows {
            let c = count(board, problem, false, &SearchOptions::sequential()).unwrap();
            assert_eq!(
                (queens, layouts, classes),
                (c.queens, c.layouts, c.classes),
                "{board}"
            );
            if let Some(t) = rows.iter().find(|r| r.0 == board.transposed()) {
                assert_eq!(
                    (t.1, t.2, t.3),
                    (queens, layouts, classes),
                    "{board} transposed"
                );
            }
        }
    }
}

#[test]
fn every_format_carries_the_counts() {
    let dir = TempDir::new().unwrap();
    let tsv = table(&dir, &["-f", "tsv"]);
    assert!(tsv.starts_with("rows\tcols\tqueens\tlayout\tproblem\tlayouts\tclasses\tdigest\t"));
    let json = table(&dir, &["-f", "json"]);
    assert!(json
        .lines()
        .all(|l| l.contains("\"layouts\":") && l.contains("\"classes\":")));
    let md = table(&dir, &["-f", "md"]);
    assert!(md.starts_with("| rows | cols | queens | layout | problem | layouts | classes |"));
    // 4x4: γ = 2 with 4 layouts in 1 class... whatever they are, all formats say the same.
    let csv_row = table(&dir, &[])
        .lines()
        .find(|l| l.starts_with("4,4,"))
        .unwrap()
        .to_string();
    let f: Vec<&str> = csv_row.split(',').collect();
    assert!(md.contains(&format!(
        "| 4 | 4 | {} | {} | domination | {} | {} |",
        f[2], f[3], f[5], f[6]
    )));
    assert!(tsv.contains(&f[..8].join("\t")));
}

#[test]
fn count_tables_resume_and_refuse_what_they_cannot_trust() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("c.csv");
    let whole = table(&dir, &[]);
    // A file cut after a few rows is completed to the same table.
    let cut: String = whole.lines().take(9).map(|l| format!("{l}\n")).collect();
    fs::write(&path, &cut).unwrap();
    table(&dir, &["-o", "c.csv"]);
    assert_eq!(
        without_measurements(&read(&path)),
        without_measurements(&whole)
    );

    let run = |extra: &[&str]| {
        queendom()
            .args(["table"])
            .args(BOARDS)
            .args(extra)
            .args(["-o", "c.csv"])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    // Without --count, the count table is refused, and left alone.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --count"));
    assert_eq!(
        without_measurements(&read(&path)),
        without_measurements(&whole)
    );

    // An edited count breaks the digest.
    let line = whole.lines().find(|l| l.starts_with("4,5,")).unwrap();
    let f: Vec<&str> = line.split(',').collect();
    let layouts: u64 = f[5].parse().unwrap();
    let mut e: Vec<String> = f.iter().map(|s| s.to_string()).collect();
    e[5] = (layouts + 1).to_string();
    fs::write(&path, whole.replace(line, &e.join(","))).unwrap();
    let out = run(&["--count"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("digest"),
        "{out:?}"
    );

    // With the digest made to match, the recount catches it.
    let board = Board::new(4, 5).unwrap();
    let forged = TableRow {
        board,
        problem: Problem::Domination,
        layout: Layout::parse(board, f[3]).unwrap(),
        counts: Some(LayoutTotals {
            layouts: layouts + 1,
            classes: f[6].parse().unwrap(),
        }),
        lower: None,
        nodes: 0,
        seconds: 0.0,
        threads: 1,
    };
    let mut g: Vec<String> = f.iter().map(|s| s.to_string()).collect();
    g[5] = (layouts + 1).to_string();
    g[7] = forged.digest();
    // Its transpose's row is forged the same way, so that the two agree (a row that disagrees
    // with its transpose's is refused before any recount: tests/suite/readback.rs).
    let line_t = whole.lines().find(|l| l.starts_with("5,4,")).unwrap();
    let ft: Vec<&str> = line_t.split(',').collect();
    let board_t = board.transposed();
    let forged_t = TableRow {
        board: board_t,
        layout: Layout::parse(board_t, ft[3]).unwrap(),
        ..forged.clone()
    };
    let mut gt: Vec<String> = ft.iter().map(|s| s.to_string()).collect();
    gt[5] = (layouts + 1).to_string();
    gt[7] = forged_t.digest();
    fs::write(
        &path,
        whole
            .replace(line, &g.join(","))
            .replace(line_t, &gt.join(",")),
    )
    .unwrap();
    let out = run(&["--count"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("claims {} minimum layouts", layouts + 1)),
        "{err}"
    );
    assert!(
        read(&path).contains(&g.join(",")),
        "the file is left unchanged"
    );
}

#[test]
fn count_with_checkpoint_is_a_usage_error() {
    let dir = TempDir::new().unwrap();
    let out = queendom()
        .args(["table", "--count", "--checkpoint", "run"])
        .args(BOARDS)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}
