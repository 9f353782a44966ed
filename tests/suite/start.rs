//! `--start`: a layout from elsewhere is checked, then used as the first incumbent; the answer
//! is the same as without it, and may be smaller than the start.

use crate::common::queendom;

/// The number an answer of `solve` states (`γ(8x8) = 5`).
fn number(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let first = text.lines().next().expect("a line");
    first.split(" = ").nth(1).expect("a number").to_string()
}

fn solve(args: &[&str]) -> String {
    let out = queendom().args(args).assert().success();
    number(&out.get_output().stdout)
}

#[test]
fn a_valid_start_gives_the_same_answer_as_without() {
    let without = solve(&["solve", "8x8", "-j", "1"]);
    let with = solve(&[
        "solve",
        "8x8",
        "-j",
        "1",
        "--start",
        "r1c2 r2c7 r4c4 r5c3 r6c5",
    ]);
    assert_eq!((without.as_str(), with.as_str()), ("5", "5"));
    let without = solve(&["solve", "6x7", "-i", "-j", "2"]);
    let with = solve(&[
        "solve",
        "6x7",
        "-i",
        "-j",
        "2",
        "--start",
        "r1c1 r2c4 r3c7 r5c2 r6c5",
    ]);
    assert_eq!(without, with);
}

#[test]
fn a_start_with_more_queens_than_the_optimum_still_yields_the_optimum() {
    // Eight queens down one column dominate 8x8; γ(8x8) = 5.
    let column = (1..=8)
        .map(|r| format!("r{r}c1"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(solve(&["solve", "8x8", "-j", "1", "--start", &column]), "5");
    assert_eq!(solve(&["solve", "8x8", "-j", "2", "--start", &column]), "5");
    // An independent start of 5 on 6x6, where i(6x6) = 4.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("start.txt");
    std::fs::write(&file, "r1c1 r2c3 r3c5 r4c2 r5c4\n").unwrap();
    let at = format!("@{}", file.display());
    let out = queendom()
        .args(["solve", "6x6", "-i", "--start", &at])
        .assert()
        .success();
    assert_eq!(number(&out.get_output().stdout), "4");
}

#[test]
fn an_invalid_start_is_refused_with_exit_2_on_one_line() {
    let cases: &[&[&str]] = &[
        // Does not dominate.
        &["solve", "8x8", "--start", "r1c1 r2c2"],
        // Dominates, but two queens attack each other: not a start for i.
        &["solve", "4x4", "-i", "--start", "r2c2 r2c3"],
        // Off the board, or not a square at all.
        &["solve", "4x4", "--start", "r9c9"],
        &["solve", "4x4", "--start", "e4"],
        // One layout for two boards.
        &["solve", "4", "5", "--start", "r2c2 r2c3"],
        &["plan", "4x4", "-o", "never", "--start", "r1c1"],
        &[
            "table",
            "--rows",
            "4-5",
            "--cols",
            "4",
            "--start",
            "r2c2 r2c3",
        ],
        &["solve", "4x4", "--start", "@no-such-file"],
    ];
    for args in cases {
        let out = queendom().args(*args).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(out.get_output().stdout.is_empty(), "{args:?}");
    }
    assert!(!std::path::Path::new("never").exists());
}

#[test]
fn a_table_takes_its_starts_from_a_csv_with_rows_cols_and_layout() {
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts.csv");
    // 6x4 is the table's 4x6 turned; 9x9 is not in the table and is ignored.
    std::fs::write(
        &starts,
        "rows,cols,layout\n6,4,r3c1 r3c2 r3c3 r3c4\n5,5,r2c3 r3c2 r3c3\n9,9,r1c1\n",
    )
    .unwrap();
    let at = format!("@{}", starts.display());
    let table = |extra: &[&str]| {
        let mut args = vec!["table", "--rows", "4-5", "--cols", "5-6", "-j", "1"];
        args.extend_from_slice(extra);
        let out = queendom().args(&args).assert().success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        // rows,cols,queens of every row.
        text.lines()
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&[]), table(&["--start", &at]));
    // A start that fails the checker is refused before anything is searched.
    std::fs::write(&starts, "rows,cols,layout\n5,5,r1c1\n").unwrap();
    queendom()
        .args(["table", "--rows", "5", "--cols", "5", "--start", &at])
        .assert()
        .code(2);
}

#[test]
fn a_plan_starts_from_the_layout_given() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    queendom()
        .args(["plan", "7x7", "--parts", "3", "-j", "1", "-o"])
        .arg(&run)
        .args(["--start", "r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7"])
        .assert()
        .success();
    let plan = std::fs::read_to_string(run.join("plan.json")).unwrap();
    assert!(
        plan.contains("r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7"),
        "{plan}"
    );
    queendom()
        .args(["work"])
        .arg(&run)
        .args(["--next", "--until-done", "-j", "1"])
        .assert()
        .success();
    let out = queendom().arg("merge").arg(&run).assert().success();
    assert_eq!(number(&out.get_output().stdout), "4");
}

#[test]
fn a_start_file_that_never_ends_is_refused_with_bounded_memory() {
    // /dev/zero says its length is 0 and never ends; reading it whole would exhaust memory. It is
    // no regular file, and refused as such before a byte is read.
    queendom()
        .args(["solve", "8x8", "--start", "@/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "it is a device, not a regular file",
        ));
    // A regular file past the limit (sparse: no disk needed) is read only to the limit.
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.csv");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(5 << 20)
        .unwrap();
    queendom()
        .current_dir(dir.path())
        .args(["solve", "8x8", "--start", "@big.csv"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("larger than 4 MiB"));
}
