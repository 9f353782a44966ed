//! Tables with bounds (`table --budget TIME`, issue 48): within time every board is proven and
//! equals the exact search; out of time a row holds a proven lower bound and a checked layout that
//! bracket the published value; a second run only tightens the bounds, and a file holding a row
//! and a later, tighter row of one board (a run interrupted before it rewrote the file) resumes.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::time::Duration;

use queendom::board::Square;
use queendom::export::Format;
use queendom::row::{Row, RowKind, TableRow};
use queendom::search::{bracket, cited_lower_bound, solve, Bracket, Problem, SearchOptions};
use queendom::table::resume::{read_existing, ResumeError};
use queendom::{Board, Layout};
use tempfile::TempDir;

use crate::common::{queendom, read};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PROBLEMS: [Problem; 2] = [Problem::Domination, Problem::IndependentDomination];

/// The published values of square boards in `data/` (board side → value).
fn published_squares(problem: Problem) -> HashMap<usize, usize> {
    let file = match problem {
        Problem::Domination => "domination_squares.csv",
        _ => "independent_domination_squares.csv",
    };
    let text = fs::read_to_string(Path::new(ROOT).join("data").join(file)).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<usize> = l.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(f[0], f[1], "{file}: not a square: {l}");
            (f[0], f[2])
        })
        .collect()
}

/// The rows of a csv table with bounds, by board: (queens, lower, upper, status).
fn bounds_rows(text: &str) -> HashMap<(usize, usize), (usize, usize, usize, String)> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "rows,cols,queens,layout,problem,lower,upper,status,digest,nodes,seconds,threads"
    );
    let mut rows = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let n = |i: usize| f[i].parse::<usize>().unwrap();
        let fresh = rows.insert((n(0), n(1)), (n(2), n(5), n(6), f[7].to_string()));
        assert!(fresh.is_none(), "board {}x{} twice: {text}", n(0), n(1));
    }
    rows
}

#[test]
fn with_time_enough_the_bounds_meet_at_the_optimum() {
    for problem in PROBLEMS {
        for r in 1..=7 {
            for c in r..=8 {
                let board = Board::new(r, c).unwrap();
                let options = SearchOptions::sequential();
                let b = bracket(board, problem, None, Duration::from_secs(600), &options).unwrap();
                let s = solve(board, problem, &options).unwrap();
                assert!(b.is_proven(), "{problem} {board}: {b:?}");
                assert_eq!(b.upper(), s.queens(), "{problem} {board}");
                problem.check(&b.layout, b.upper()).unwrap();
            }
        }
    }
}

#[test]
fn out_of_time_the_bounds_hold_the_optimum_and_only_tighten() {
    for problem in PROBLEMS {
        let published = published_squares(problem);
        for n in [14, 16, 18] {
            let board = Board::new(n, n).unwrap();
            let value = published[&n];
            let options = SearchOptions::parallel();
            let first = bracket(board, problem, None, Duration::from_millis(5), &options).unwrap();
            problem.check(&first.layout, first.upper()).unwrap();
            assert!(first.lower >= cited_lower_bound(board, problem));
            assert!(
                first.lower <= value && value <= first.upper(),
                "{problem} {board}: {value} outside {}..{}",
                first.lower,
                first.upper()
            );
            let second = bracket(
                board,
                problem,
                Some(&first),
                Duration::from_millis(300),
                &options,
            )
            .unwrap();
            assert!(second.lower >= first.lower && second.upper() <= first.upper());
            assert!(second.lower <= value && value <= second.upper());
            problem.check(&second.layout, second.upper()).unwrap();
        }
    }
    // A known layout smaller than the search would find in time is kept, and a known lower bound
    // is not searched again: Q_12 from its optimum and a lower bound that meets it is at once
    // proven with no node.
    let board = Board::new(12, 12).unwrap();
    let optimum = solve(board, Problem::Domination, &SearchOptions::sequential()).unwrap();
    let known = Bracket {
        lower: 6,
        layout: optimum.layout.clone(),
        nodes: 0,
    };
    let again = bracket(
        board,
        Problem::Domination,
        Some(&known),
        Duration::from_millis(1),
        &SearchOptions::sequential(),
    )
    .unwrap();
    assert_eq!(
        (again.lower, again.layout, again.nodes),
        (6, optimum.layout, 0)
    );
}

#[test]
fn a_table_with_bounds_equals_the_exact_table_when_time_is_enough() {
    let dir = TempDir::new().unwrap();
    for problem in [&[][..], &["-i"][..]] {
        let mut bounded = vec![
            "table", "--rows", "1-7", "--cols", "1-9", "--budget", "10m", "-o", "b.csv",
        ];
        bounded.extend(problem);
        let mut exact = vec!["table", "--rows", "1-7", "--cols", "1-9", "-o", "e.csv"];
        exact.extend(problem);
        for args in [bounded, exact] {
            queendom()
                .current_dir(dir.path())
                .args(args)
                .assert()
                .success();
        }
        let b = bounds_rows(&read(&dir.path().join("b.csv")));
        let e = read(&dir.path().join("e.csv"));
        assert_eq!(b.len(), 63);
        for line in e.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let key = (f[0].parse().unwrap(), f[1].parse().unwrap());
            let value: usize = f[2].parse().unwrap();
            assert_eq!(
                b[&key],
                (value, value, value, "proven".to_string()),
                "{problem:?} {key:?}"
            );
        }
        fs::remove_file(dir.path().join("b.csv")).unwrap();
        fs::remove_file(dir.path().join("e.csv")).unwrap();
    }
}

#[test]
fn a_second_run_with_a_larger_budget_only_tightens() {
    let dir = TempDir::new().unwrap();
    let published = published_squares(Problem::Domination);
    let run = |budget: &str| {
        queendom()
            .current_dir(dir.path())
            .args([
                "table",
                "--squares",
                "13-16",
                "--budget",
                budget,
                "-o",
                "b.csv",
                "-j",
                "2",
            ])
            .assert()
            .success();
        bounds_rows(&read(&dir.path().join("b.csv")))
    };
    let first = run("2ms");
    assert_eq!(first.len(), 4);
    assert!(
        first.values().any(|(_, _, _, status)| status == "bounds"),
        "2 ms proved Q_13..Q_16: {first:?}"
    );
    let second = run("2s");
    assert_eq!(second.len(), 4);
    for (&(n, _), &(queens, lower, upper, ref status)) in &second {
        let (_, lower1, upper1, _) = first[&(n, n)];
        assert!(lower >= lower1 && upper <= upper1, "Q_{n} loosened");
        assert!(lower <= published[&n] && published[&n] <= upper, "Q_{n}");
        assert_eq!(queens, upper);
        assert_eq!(status == "proven", lower == upper);
    }
    // Q_13 and Q_14 take well under a second of search.
    assert_eq!(second[&(13, 13)].3, "proven");
    assert_eq!(second[&(14, 14)].3, "proven");
    // The rows are in the table's order, one per board.
    let text = read(&dir.path().join("b.csv"));
    let order: Vec<&str> = text.lines().skip(1).map(|l| &l[..5]).collect();
    assert_eq!(order, ["13,13", "14,14", "15,15", "16,16"]);
}

/// A row of bounds of `board` with this lower bound and layout, its digest matching.
fn bounds_line(board: Board, layout: &Layout, lower: usize) -> (TableRow, String) {
    let row = TableRow {
        board,
        problem: Problem::Domination,
        layout: layout.clone(),
        counts: None,
        lower: Some(lower),
        nodes: 0,
        seconds: 0.0,
        threads: 1,
    };
    let text = format!(
        "{},{},{},{},domination,{lower},{},{},{},0,0.000000,1\n",
        board.rows(),
        board.cols(),
        row.queens(),
        layout.to_squares_string(),
        row.queens(),
        row.status(),
        row.digest()
    );
    (row, text)
}

#[test]
fn a_later_row_of_a_board_must_tighten_the_bounds_before_it() {
    let board = Board::new(8, 8).unwrap();
    let optimum = solve(board, Problem::Domination, &SearchOptions::sequential())
        .unwrap()
        .layout;
    // Six queens: the optimum and one more on a free square.
    let mut six = optimum.queens().to_vec();
    let free = (1..=8)
        .flat_map(|r| (1..=8).map(move |c| queendom::board::Square::new(r, c)))
        .find(|s| !six.contains(s))
        .unwrap();
    six.push(free);
    let six = Layout::new(board, six);
    let header =
        "rows,cols,queens,layout,problem,lower,upper,status,digest,nodes,seconds,threads\n";
    let (_, loose) = bounds_line(board, &six, 4);
    let (_, tighter) = bounds_line(board, &six, 5);
    let (proven, exact) = bounds_line(board, &optimum, 5);
    assert!(proven.is_proven() && exact.contains(",proven,"));
    let read = |lines: &[&str]| {
        let text = format!("{header}{}", lines.concat());
        read_existing(
            text.as_bytes(),
            Format::Csv,
            RowKind::Bounds,
            Problem::Domination,
            &[board],
            false,
        )
        .map(|t| (t.rows.len(), t.rows[0].row.clone(), t.superseded_bytes))
    };
    // Each later row tightens: only the last counts, the others are superseded.
    let (rows, row, superseded) = read(&[&loose, &tighter, &exact]).unwrap();
    assert_eq!((rows, row), (1, proven));
    assert_eq!(superseded, (loose.len() + tighter.len()) as u64);
    // A looser row after a tighter one is refused, naming both lines.
    match read(&[&tighter, &loose]) {
        Err(ResumeError::Looser { line, earlier, .. }) => assert_eq!((line, earlier), (3, 2)),
        other => panic!("{other:?}"),
    }
    // A proven row is final: nothing may follow it.
    assert!(matches!(read(&[&exact, &exact]), Err(ResumeError::Line(_))));

    // The command resumes such a file: the board is done (its last row is proven), and the file
    // is rewritten with that row alone.
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("b.csv");
    let resume = |contents: String, budget: &str| {
        fs::write(&path, contents).unwrap();
        queendom()
            .current_dir(dir.path())
            .args(["table", "--squares", "8", "--budget", budget, "-o", "b.csv"])
            .assert()
            .success();
        crate::common::read(&path)
    };
    let text = resume(format!("{header}{loose}{exact}"), "1s");
    assert_eq!(text, format!("{header}{exact}"));
    // A row of bounds kept is computed again from its bounds, and replaced.
    let rows = bounds_rows(&resume(format!("{header}{tighter}"), "1m"));
    assert_eq!(rows[&(8, 8)], (5, 5, 5, "proven".to_string()));
}

#[test]
fn rows_whose_bounds_disagree_are_refused() {
    let board = Board::new(4, 4).unwrap();
    let layout = Layout::parse(board, "r2c2 r3c3 r1c4").unwrap();
    let header =
        "rows,cols,queens,layout,problem,lower,upper,status,digest,nodes,seconds,threads\n";
    let (_, good) = bounds_line(board, &layout, 2);
    for (from, to, says) in [
        (",2,3,bounds,", ",2,4,bounds,", "field 'upper' is 4"),
        (",2,3,bounds,", ",0,3,bounds,", "field 'lower' is 0"),
        (",2,3,bounds,", ",4,3,bounds,", "field 'lower' is 4"),
        (",2,3,bounds,", ",2,3,proven,", "field 'status' is 'proven'"),
    ] {
        assert!(good.contains(from), "{good}");
        let dir = TempDir::new().unwrap();
        fs::write(
            dir.path().join("b.csv"),
            format!("{header}{}", good.replace(from, to)),
        )
        .unwrap();
        let out = queendom()
            .current_dir(dir.path())
            .args(["table", "--squares", "4", "--budget", "1s", "-o", "b.csv"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn every_row_is_a_row_of_its_kind() {
    // A row with bounds says lower, upper and status; its kind has those columns.
    let board = Board::new(4, 4).unwrap();
    let layout = Layout::parse(board, "r2c2 r3c3 r1c4").unwrap();
    let (row, _) = bounds_line(board, &layout, 2);
    assert_eq!(row.kind(), RowKind::Bounds);
    assert_eq!(row.transpose_values(), vec![3, 2]);
    assert!(!row.is_final());
}

#[test]
fn an_exact_table_is_taken_over_by_a_table_with_bounds() {
    // Written by `table` or merged from a plan of a table.
    let dir = TempDir::new().unwrap();
    let run = |args: &[&str]| {
        let out = queendom()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&["table", "--rows", "1-6", "--cols", "4-6", "-o", "t.csv"]);
    let exact = read(&dir.path().join("t.csv"));
    let said = run(&[
        "table", "--rows", "1-7", "--cols", "4-7", "--budget", "1m", "-o", "t.csv",
    ]);
    assert!(said.contains("kept as proven rows"), "{said}");
    let rows = bounds_rows(&read(&dir.path().join("t.csv")));
    assert_eq!(rows.len(), 28);
    for line in exact.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let value: usize = f[2].parse().unwrap();
        let key = (f[0].parse().unwrap(), f[1].parse().unwrap());
        assert_eq!(rows[&key], (value, value, value, "proven".to_string()));
    }
    // So is the table a plan of a table merges (`plan --rows --cols`): a table with bounds goes
    // on from it as from a table of `table`.
    run(&[
        "plan", "--rows", "1-4", "--cols", "3-5", "--parts", "4", "-o", "run",
    ]);
    run(&["work", "run", "--next", "--until-done", "-j", "1"]);
    run(&["merge", "run", "-o", "merged.csv"]);
    let merged = read(&dir.path().join("merged.csv"));
    let said = run(&[
        "table",
        "--rows",
        "1-5",
        "--cols",
        "3-5",
        "--budget",
        "1m",
        "-o",
        "merged.csv",
    ]);
    assert!(said.contains("kept as proven rows"), "{said}");
    let rows = bounds_rows(&read(&dir.path().join("merged.csv")));
    assert_eq!(rows.len(), 15);
    assert_eq!(merged.lines().count(), 1 + 12);
    for line in merged.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let value: usize = f[2].parse().unwrap();
        let key = (f[0].parse().unwrap(), f[1].parse().unwrap());
        assert_eq!(rows[&key], (value, value, value, "proven".to_string()));
    }
    // A count table is not: its counts would be lost.
    run(&[
        "table", "--rows", "1-2", "--cols", "2", "--count", "-o", "c.csv",
    ]);
    let out = queendom()
        .current_dir(dir.path())
        .args([
            "table", "--rows", "1-2", "--cols", "2", "--budget", "1s", "-o", "c.csv",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("drop --budget"));
}

#[test]
fn an_exact_table_names_a_board_whose_proof_is_estimated_past_an_hour() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    // 24×24 from a start of 13 queens (γ(Q_24) = 13, the layout of results/): the proof that 12
    // fail is tens of CPU hours. The table says so as the proof starts, and is then stopped.
    let shipped = read(&Path::new(ROOT).join("results/domination-1-32.csv"));
    let layout = shipped
        .lines()
        .find_map(|l| l.strip_prefix("24,24,13,"))
        .and_then(|rest| rest.split(',').next())
        .expect("results/domination-1-32.csv has a layout of 13 queens for 24x24")
        .to_string();
    let dir = TempDir::new().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(["table", "--rows", "24", "--cols", "24", "-j", "1"])
        .args(["--start", &layout, "-o", "t.csv"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let warning = loop {
        match received.recv_timeout(Duration::from_secs(300)) {
            Ok(line) if line.contains("24x24: its proof is estimated at") => break line,
            Ok(_) => continue,
            Err(e) => {
                child.kill().unwrap();
                panic!("no estimate named 24x24: {e}");
            }
        }
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(warning.starts_with("queendom: 24x24: "), "{warning}");
    assert!(
        warning.contains("--budget TIME") && warning.contains("queendom plan"),
        "{warning}"
    );
    let hours: f64 = warning
        .split("about ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|h| h.parse().ok())
        .unwrap_or_else(|| panic!("no hours in {warning}"));
    assert!(hours > 1.0, "{warning}");
}

/// `table --budget TIME --checkpoint DIR`: a proof cut short keeps its finished parts, and the
/// next run goes on from them. Here the deadline is the end of each part (the flag raised as a
/// part is reported), so every run finishes exactly one part, and the last one meets the bounds
/// at the exact optimum.
#[test]
fn a_checkpointed_proof_goes_on_from_the_parts_a_budget_left() {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use queendom::plan::checkpoint::CheckpointProver;
    use queendom::search::{Prover, SearchSpace};

    let dir = TempDir::new().unwrap();
    let board: Board = "16x16".parse().unwrap();
    let problem = Problem::Domination;
    let exact = solve(board, problem, &SearchOptions::for_threads(1)).unwrap();
    let space = SearchSpace::new(board, problem);
    // One queen above the optimum, so that the proof has a layout to find, not only a
    // refutation; and one queen apart, where the proof is kept in parts.
    let mut layout = layout_with_one_more(&exact.layout);
    let mut lower = exact.queens();
    let (done, total) = (Cell::new(0), Cell::new(0));
    let mut runs = 0;
    while lower < layout.len() {
        runs += 1;
        assert!(runs <= 200, "no end after 200 runs");
        let deadline = Arc::new(AtomicBool::new(false));
        let on_part = |d: usize, t: usize| {
            assert!(
                d > done.get(),
                "run {runs}: {d} parts done after {}",
                done.get()
            );
            done.set(d);
            total.set(t);
            deadline.store(true, Ordering::Relaxed);
        };
        let mut prover = CheckpointProver {
            dir: dir.path(),
            threads: 1,
            on_part: &on_part,
            interrupt: None,
        };
        let options = SearchOptions {
            cancel: Some(deadline.clone()),
            ..SearchOptions::for_threads(1)
        };
        let (lower_before, upper_before) = (lower, layout.len());
        prover
            .prove(&space, &mut lower, &mut layout, &options)
            .unwrap();
        problem.check(&layout, layout.len()).unwrap();
        assert!(lower >= lower_before && layout.len() <= upper_before);
        if lower < layout.len() {
            // Cut short: exactly the one part reported, and nothing proven yet.
            assert_eq!((lower, layout.len()), (lower_before, upper_before));
            assert_eq!(
                done.get(),
                runs,
                "run {runs} did not go on from the parts before"
            );
        }
    }
    assert!(total.get() >= 2, "a plan of one part tests no resumption");
    assert_eq!(runs, total.get(), "every run finished one part");
    assert_eq!(lower, exact.queens());
    assert_eq!(layout.len(), exact.queens());

    // Two queens apart, the lower bound is proven in memory first, then the rest in parts.
    let fresh = TempDir::new().unwrap();
    let mut layout = layout_with_one_more(&exact.layout);
    let mut lower = exact.queens() - 1;
    let mut prover = CheckpointProver {
        dir: fresh.path(),
        threads: 1,
        on_part: &|_, _| {},
        interrupt: None,
    };
    prover
        .prove(
            &space,
            &mut lower,
            &mut layout,
            &SearchOptions::for_threads(1),
        )
        .unwrap();
    assert_eq!((lower, layout.len()), (exact.queens(), exact.queens()));
    problem.check(&layout, layout.len()).unwrap();
}

/// A dominating layout with one queen more than `optimal`: its squares and another.
fn layout_with_one_more(optimal: &Layout) -> Layout {
    let board = optimal.board();
    let mut squares = optimal.queens().to_vec();
    let extra = (0..board.rows())
        .flat_map(|row| (0..board.cols()).map(move |col| Square { row, col }))
        .find(|s| !squares.contains(s))
        .unwrap();
    squares.push(extra);
    Layout::new(board, squares)
}

/// The command line of the test above: a first run out of time leaves each board's plan in the
/// checkpoint directory (making it is not cut by the budget), and a second run with time enough
/// proves every board from there, as the exact table does.
#[test]
fn a_table_with_a_budget_keeps_its_proofs_in_the_checkpoint_directory() {
    let dir = TempDir::new().unwrap();
    let run = |budget: &str| {
        queendom()
            .current_dir(dir.path())
            .args([
                "table",
                "--squares",
                "14,16",
                "--budget",
                budget,
                "--checkpoint",
                "ck",
                "-o",
                "b.csv",
                "-j",
                "2",
            ])
            .assert()
            .success();
        bounds_rows(&read(&dir.path().join("b.csv")))
    };
    let first = run("1ms");
    assert_eq!(first.len(), 2);
    for (&(n, _), (_, lower, upper, status)) in &first {
        if status == "bounds" {
            let plan = dir.path().join(format!("ck/{n}x{n}-domination/plan.json"));
            assert!(
                plan.is_file(),
                "Q_{n}: bounds {lower}..{upper} and no plan kept"
            );
        }
    }
    let second = run("10m");
    let published = published_squares(Problem::Domination);
    for n in [14, 16] {
        let (queens, lower, upper, ref status) = second[&(n, n)];
        assert_eq!(status, "proven", "Q_{n}");
        assert_eq!(
            (queens, lower, upper),
            (published[&n], published[&n], published[&n])
        );
    }
}
