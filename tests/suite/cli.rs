//! The command line: `solve`, `table`, output to stdout and files, and usage errors.

use assert_cmd::Command;
use predicates::prelude::*;
use queendom::check::check_dominating;
use queendom::{Board, Layout};

fn queendom() -> Command {
    Command::cargo_bin("queendom").unwrap()
}

/// The first four columns of a CSV table (the part that must not depend on threads or timing).
fn values(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|l| {
            let mut r = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(l.as_bytes());
            let rec = r.records().next().unwrap().unwrap();
            (0..4)
                .map(|i| rec[i].to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn solve_prints_the_number_and_a_diagram() {
    let out = queendom().args(["solve", "8x8"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("γ(8x8) = 5\n"), "{text}");
    let diagram: Vec<&str> = text.lines().skip(1).take(8).collect();
    assert!(diagram.iter().all(|l| l.split(' ').count() == 8));
    assert_eq!(
        diagram
            .iter()
            .map(|l| l.matches('Q').count())
            .sum::<usize>(),
        5
    );
}

#[test]
fn the_thread_count_is_printed_in_the_singular_for_one() {
    for (threads, text) in [("1", ", 1 thread)\n"), ("2", ", 2 threads)\n")] {
        queendom()
            .args(["solve", "6x6", "-j", threads])
            .assert()
            .success()
            .stdout(predicate::str::contains(text));
    }
}

#[test]
fn solve_independent_on_a_rectangle() {
    queendom()
        .args(["solve", "3x5", "--independent"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("i(3x5) = "));
    queendom()
        .args(["solve", "4x4", "-i"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("i(4x4) = 3\n"));
}

#[test]
fn table_to_stdout_has_the_contract_header_and_one_row_per_board() {
    let out = queendom()
        .args(["table", "--rows", "1-3", "--cols", "2,4"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("rows,cols,queens,layout"));
    assert_eq!(lines.len(), 1 + 6);
    let expected = [
        (1, 2, 1),
        (1, 4, 1),
        (2, 2, 1),
        (2, 4, 2),
        (3, 2, 1),
        (3, 4, 2),
    ];
    for (line, (r, c, q)) in values(&text)[1..].iter().zip(expected) {
        let fields: Vec<&str> = line.splitn(4, ',').collect();
        assert_eq!(fields[..3], [r.to_string(), c.to_string(), q.to_string()]);
        let board = Board::new(r, c).unwrap();
        let layout = Layout::parse(board, fields[3]).unwrap();
        check_dominating(&layout, q).unwrap();
    }
}

#[test]
fn table_dash_means_stdout_and_file_output_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gamma.csv");
    let to_stdout = queendom()
        .args(["table", "--rows", "4-6", "--cols", "4-6", "-o", "-"])
        .assert()
        .success();
    let stdout = String::from_utf8(to_stdout.get_output().stdout.clone()).unwrap();
    queendom()
        .args(["table", "--rows", "4-6", "--cols", "4-6", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let file = std::fs::read_to_string(&path).unwrap();
    assert_eq!(values(&file), values(&stdout));
}

#[test]
fn table_is_the_same_on_one_and_two_threads() {
    let run = |threads: &str, independent: bool| {
        let mut cmd = queendom();
        cmd.args(["table", "--rows", "1-10", "--cols", "1-10", "-j", threads]);
        if independent {
            cmd.arg("--independent");
        }
        let out = cmd.assert().success();
        values(&String::from_utf8(out.get_output().stdout.clone()).unwrap())
    };
    for independent in [false, true] {
        assert_eq!(run("1", independent), run("2", independent));
    }
}

#[test]
fn usage_errors_are_one_line_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "0x3"], "at least one row"),
        (&["solve", "33x33"], "too big"),
        (&["solve", "8by8"], "not a board size"),
        (&["table", "--rows", "9-4", "--cols", "3"], "runs backwards"),
        (
            &["table", "--rows", "-3", "--cols", "3"],
            "'-3' is not a size",
        ),
        (&["table", "--rows", "x", "--cols", "3"], "not a size"),
        (&["table", "--rows", "0", "--cols", "3"], "size 0"),
        (&["table", "--rows", "3", "--cols", "40"], "too big"),
        (&["table", "--rows", "3"], "--cols"),
        (
            &["table", "--rows", "3", "--cols", "3", "--frobnicate"],
            "frobnicate",
        ),
        (
            &["table", "--rows", "3", "--cols", "3", "-j", "0"],
            "--threads",
        ),
        (&["bogus"], "bogus"),
    ];
    for (args, needle) in cases {
        let out = queendom().args(*args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn bench_quick_writes_a_row_per_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.csv");
    queendom()
        .args([
            "bench",
            "--quick",
            "--runs",
            "1",
            "--max-threads",
            "3",
            "-o",
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("speedup"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    assert!(reader.headers().unwrap().iter().eq([
        "threads",
        "seconds",
        "speedup",
        "efficiency",
        "nodes",
        "nodes_per_second",
        "placements",
        "placements_per_second",
        "cores",
        "workload",
        "cpu_model"
    ]));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let threads: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(threads, ["1", "2", "3"]);
    // The work is fixed: the same nodes and placements at every thread count; 13-queens has 73712.
    assert!(rows
        .iter()
        .all(|r| r[4] == rows[0][4] && r[6] == rows[0][6]));
    assert_eq!(&rows[0][6], "73712");
    // speedup = seconds on one thread / seconds here, efficiency = speedup / threads, each as
    // printed (4 decimals): checked against the seconds column, so a wrong formula fails.
    let number = |r: &csv::StringRecord, i: usize| -> f64 { r[i].parse().unwrap() };
    let base = number(&rows[0], 1);
    for r in &rows {
        let threads = number(r, 0);
        let speedup = base / number(r, 1);
        assert!((number(r, 2) - speedup).abs() < 1e-3, "speedup in {r:?}");
        assert!(
            (number(r, 3) - speedup / threads).abs() < 1e-3,
            "efficiency in {r:?}"
        );
        let nodes_per_second = number(r, 5);
        assert!(nodes_per_second > 0.0 && nodes_per_second.is_finite());
    }
}

#[test]
fn version_names_the_git_revision() {
    let out = queendom().arg("--version").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // "queendom 0.1.0 (REV)": REV is 12 hex digits when built from a git checkout.
    let inside = text
        .trim()
        .strip_prefix(concat!("queendom ", env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{text}"));
    let rev = inside.split(',').next().unwrap();
    assert!(
        rev == "git revision unknown"
            || (rev.len() == 12 && rev.chars().all(|c| c.is_ascii_hexdigit())),
        "{text}"
    );
}

#[test]
fn help_lists_table_first_and_shows_examples() {
    let out = queendom().arg("--help").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let commands: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(commands.first(), Some(&"table"), "{text}");
    assert!(commands.contains(&"completions") && commands.contains(&"manpage"));
    assert!(text.contains("Examples:"), "{text}");
    // The plan help recommends the one-process loop, not a shell loop of processes.
    let out = queendom().args(["help", "plan"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("--next --until-done"), "{text}");
    assert!(!text.contains("while queendom"), "{text}");
}

#[test]
fn completions_and_manpage_cover_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = queendom().args(["completions", shell]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        for command in ["table", "solve", "nqueens", "merge", "audit"] {
            assert!(text.contains(command), "{shell}: no {command}");
        }
    }
    let out = queendom().arg("manpage").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with(".ie") || text.contains(".TH queendom 1"),
        "{text}"
    );
    for command in ["table", "solve", "count", "plan", "work", "merge"] {
        assert!(
            text.contains(&format!(".TH queendom-{command} 1")),
            "no page for {command}"
        );
    }
    queendom()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tcsh"));
}

#[test]
fn a_misspelt_argument_or_command_gets_clap_s_suggestion_on_the_one_line() {
    queendom()
        .args(["table", "--row", "1", "--cols", "1"])
        .assert()
        .code(2)
        .stderr(
            "queendom: unexpected argument '--row' found; a similar argument exists: '--rows'\n",
        );
    queendom()
        .args(["solv", "8x8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a similar subcommand exists: 'solve'",
        ));
}
