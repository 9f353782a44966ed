//! The `nqueens` command as a user runs it: listings, CSV tables, thread counts, bad input.

use assert_cmd::Command;
use queendom::nqueens_check::check_placement;

fn queendom() -> Command {
    Command::cargo_bin("queendom").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = queendom()
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap()
}

/// The first `k` columns of each CSV line (dropping timing and thread columns).
fn leading_columns(csv: &str, k: usize) -> Vec<String> {
    csv.lines()
        .map(|l| l.split(',').take(k).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn list_8_prints_92_valid_distinct_lines_in_order_then_the_count() {
    let text = stdout_of(&["nqueens", "8", "--list"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 93);
    assert_eq!(lines[0], "1 5 8 6 3 7 2 4");
    assert_eq!(lines[92], "92 placements on 8x8");
    let placements: Vec<Vec<u8>> = lines[..92]
        .iter()
        .map(|l| l.split(' ').map(|c| c.parse::<u8>().unwrap() - 1).collect())
        .collect();
    assert!(placements.windows(2).all(|w| w[0] < w[1]));
    for p in &placements {
        assert_eq!(p.len(), 8);
        assert_eq!(check_placement(8, p), Ok(()), "{p:?}");
    }
}

#[test]
fn board_prints_diagrams() {
    let text = stdout_of(&["nqueens", "4", "--board"]);
    assert_eq!(
        text,
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n\n2 placements on 4x4\n"
    );
}

#[test]
fn csv_for_1_to_10_matches_the_published_counts() {
    let text = stdout_of(&["nqueens", "1-10"]);
    assert!(text.starts_with("n,solutions,unique"));
    let published = include_str!("../../data/nqueens.csv");
    let expected: Vec<&str> = published.lines().take(11).collect();
    assert_eq!(leading_columns(&text, 3), expected);
}

#[test]
fn rectangular_csv() {
    let text = stdout_of(&["nqueens", "--rows", "4-5", "--cols", "4,8"]);
    let lines = leading_columns(&text, 3);
    assert_eq!(lines[0], "rows,cols,solutions");
    assert_eq!(&lines[1..3], &["4,4,2", "4,8,344"]);
    assert_eq!(lines.len(), 5);
    // A board and its transpose agree.
    let wide = stdout_of(&["nqueens", "--rows", "4", "--cols", "5"]);
    let tall = stdout_of(&["nqueens", "--rows", "5", "--cols", "4"]);
    assert_eq!(
        leading_columns(&wide, 3)[1].split(',').nth(2),
        leading_columns(&tall, 3)[1].split(',').nth(2)
    );
}

#[test]
fn one_and_two_threads_give_the_same_output() {
    let one = stdout_of(&["nqueens", "1-12", "-j", "1"]);
    let two = stdout_of(&["nqueens", "1-12", "-j", "2"]);
    assert_eq!(leading_columns(&one, 3), leading_columns(&two, 3));
    let one = stdout_of(&["nqueens", "--rows", "3-8", "--cols", "6-9", "-j", "1"]);
    let two = stdout_of(&["nqueens", "--rows", "3-8", "--cols", "6-9", "-j", "2"]);
    assert_eq!(leading_columns(&one, 3), leading_columns(&two, 3));
    assert_eq!(
        stdout_of(&["nqueens", "10", "--list", "-j", "1"]),
        stdout_of(&["nqueens", "10", "--list", "-j", "2"])
    );
}

#[test]
fn an_output_file_is_resumed_and_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nqueens.csv");
    let p = path.to_str().unwrap();
    queendom()
        .args(["nqueens", "8", "-o", p])
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(leading_columns(&text, 3), ["n,solutions,unique", "8,92,12"]);
    // Run again over more sizes: the row of 8 is kept (counted again: it is small), 6 and 9 added
    // and the file put in order.
    queendom()
        .args(["nqueens", "6,8,9", "-o", p])
        .assert()
        .success()
        .stderr(format!(
            "queendom: resuming {p}: 1 of 3 boards already done, 1 counted again\n"
        ));
    let resumed = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        leading_columns(&resumed, 3),
        ["n,solutions,unique", "6,4,1", "8,92,12", "9,352,46"]
    );
    assert!(
        resumed.contains(text.lines().nth(1).unwrap()),
        "the kept row stays as it was"
    );
    // A row edited by hand is found by its digest and refused, the file left as it is (a
    // wrong count with a matching digest: tests/suite/readback.rs).
    let wrong = resumed.replace("8,92,12,", "8,93,12,");
    std::fs::write(&path, &wrong).unwrap();
    queendom()
        .args(["nqueens", "6,8,9", "-o", p])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "line 3 (board 8x8) does not match its digest",
        ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), wrong);
    queendom()
        .args(["nqueens", "8", "-o", p, "--force"])
        .assert()
        .success();
    let forced = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        leading_columns(&forced, 3),
        ["n,solutions,unique", "8,92,12"]
    );
    // Nothing left beside it: no journal, no lock.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn formats_come_from_the_extension_and_unknown_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, first) in [
        ("n.tsv", "n\tsolutions\tunique\tdigest\tseconds\tthreads"),
        ("n.jsonl", "{\"n\":5,\"solutions\":10,\"unique\":2,"),
        ("n", "n,solutions,unique,digest,seconds,threads"),
    ] {
        let path = dir.path().join(name);
        queendom()
            .args(["nqueens", "5", "-o"])
            .arg(&path)
            .assert()
            .success();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(first), "{name}: {text}");
        // Each is read back: the same command again finds the row done.
        queendom()
            .args(["nqueens", "5", "-o"])
            .arg(&path)
            .assert()
            .success()
            .stderr(predicates::str::contains("1 of 1 boards already done"));
    }
    // Every format of `table` is written (tests/suite/readback.rs); an unknown extension is not.
    let path = dir.path().join("n.txt");
    queendom()
        .args(["nqueens", "5", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot tell the format of"));
    assert!(!path.exists());
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_2() {
    for args in [
        vec!["nqueens", "0"],
        vec!["nqueens", "-3"],
        vec!["nqueens", "eight"],
        vec!["nqueens", "9-4"],
        vec!["nqueens", "33"],
        vec!["nqueens", "19", "--list"],
        vec!["nqueens"],
        vec!["nqueens", "--rows", "4"],
        vec!["nqueens", "8", "--rows", "4", "--cols", "4"],
        vec!["nqueens", "--rows", "4", "--cols", "0"],
        vec!["nqueens", "--rows", "4", "--cols", "4", "--list"],
        vec!["nqueens", "8", "-j", "0"],
    ] {
        let out = queendom().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("queendom: "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
