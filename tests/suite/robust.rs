//! The breakages of issue 11, each as a test: devices, FIFOs and symlinks as output paths, two runs
//! on one file, rows edited to a wrong value, `--force` interrupted, CRLF and byte order marks,
//! `nqueens` signals and resume, closed standard output, `-j` beyond the cores.
//!
//! Nothing here writes to a real device: device nodes are made with `mknod` in a temporary
//! directory (as root; otherwise those cases are skipped), and every command that could block on a
//! FIFO runs under a deadline and is killed past it.

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::{queendom, read, without_seconds};
use predicates::prelude::*;
use queendom::row::TableRow;
use queendom::search::Problem;
use queendom::{Board, Layout};
use tempfile::TempDir;

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("queendom")
}

/// Run queendom with `args` in `dir`; kill it if it has not ended after `secs` seconds (then the
/// test fails: it blocked). Returns (exit code, stderr).
fn run_with_deadline(dir: &Path, args: &[&str], secs: u64) -> (Option<i32>, String) {
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{args:?} was still running after {secs} s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A character device node like /dev/zero (1:5) or /dev/full (1:7) inside `dir`, if we may make one.
fn device(dir: &Path, name: &str, minor: u32) -> Option<PathBuf> {
    if !is_root() {
        eprintln!("not root: device node {name} skipped");
        return None;
    }
    let path = dir.join(name);
    let made = Command::new("mknod")
        .arg(&path)
        .args(["c", "1", &minor.to_string()])
        .status()
        .ok()?;
    made.success().then_some(path)
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Breakages 1, 2 and 3: a device, a FIFO or a directory as the output is refused up front (exit 2),
/// with and without --force, for every format and every command that writes files; nothing is
/// read from it, nothing waits on it, and it is still what it was afterwards.
#[test]
fn devices_fifos_and_directories_are_refused_up_front() {
    let dir = TempDir::new().unwrap();
    let mut targets: Vec<(PathBuf, &str)> = Vec::new();
    if let Some(zero) = device(dir.path(), "zero.csv", 5) {
        targets.push((zero, "it is a character device"));
    }
    if let Some(full) = device(dir.path(), "full.csv", 7) {
        targets.push((full, "it is a character device"));
    }
    let fifo = dir.path().join("f.csv");
    mkfifo(&fifo);
    targets.push((fifo, "it is a FIFO (named pipe)"));
    fs::create_dir(dir.path().join("d.csv")).unwrap();
    targets.push((dir.path().join("d.csv"), "it is a directory"));
    for (path, message) in &targets {
        let p = path.to_str().unwrap();
        for args in [
            vec!["table", "--rows", "2", "--cols", "2", "-o", p],
            vec!["table", "--rows", "2", "--cols", "2", "--force", "-o", p],
            vec![
                "table", "--rows", "2", "--cols", "2", "-f", "grid", "--force", "-o", p,
            ],
            vec![
                "table", "--rows", "2", "--cols", "2", "-f", "xlsx", "--force", "-o", p,
            ],
            vec!["nqueens", "6", "-o", p],
            vec!["nqueens", "6", "--force", "-o", p],
            vec!["nqueens", "6", "--list", "--force", "-o", p],
            vec!["bench", "--quick", "--force", "-o", p],
        ] {
            let (code, err) = run_with_deadline(dir.path(), &args, 20);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(
                err.contains(message) && err.lines().count() == 1,
                "{args:?}: {err}"
            );
        }
        let kind = fs::symlink_metadata(path).unwrap().file_type();
        assert!(
            kind.is_char_device() || kind.is_fifo() || kind.is_dir(),
            "{} was replaced",
            path.display()
        );
    }
    // Nothing else appeared: no lock sidecar or temporary file left behind.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), targets.len());
}

/// Breakages 3 and 5: a symlink stays a link; its target gets the table, through a resume whose
/// ranges grew (rewritten in order) and through --force.
#[test]
fn a_symlink_stays_a_link_and_its_target_is_written() {
    let dir = TempDir::new().unwrap();
    let real_dir = dir.path().join("real");
    fs::create_dir(&real_dir).unwrap();
    let target = real_dir.join("t.csv");
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real/t.csv", &link).unwrap();
    // A dangling link: the run creates its target.
    queendom()
        .args(["table", "--rows", "2-3", "--cols", "1-3", "-j", "1", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // Grown ranges: rows appended, then the whole file rewritten in order, through the link.
    queendom()
        .args(["table", "--rows", "1-3", "--cols", "1-3", "-j", "1", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let fresh = queendom()
        .args(["table", "--rows", "1-3", "--cols", "1-3", "-j", "1"])
        .output()
        .unwrap();
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split(',').take(6).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(
        strip(&read(&target)),
        strip(&String::from_utf8(fresh.stdout).unwrap())
    );
    // --force of a whole-table format through the link.
    let md_link = dir.path().join("t.md");
    std::os::unix::fs::symlink(&target, &md_link).unwrap();
    queendom()
        .args(["table", "--rows", "1", "--cols", "1", "--force", "-o"])
        .arg(&md_link)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&md_link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(read(&target).starts_with("| rows | cols |"));
    let names: Vec<String> = fs::read_dir(&real_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["t.csv"], "nothing left beside the target");
}

fn spawn_table(dir: &Path, args: &[&str]) -> Child {
    Command::new(binary())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "never got there");
        sleep(Duration::from_millis(20));
    }
}

/// Breakage 4: while one run writes (or resumes) a file, a second is refused with exit 2 naming
/// the first; the first completes a valid table.
#[test]
fn a_second_writer_is_refused_and_names_the_first() {
    let dir = TempDir::new().unwrap();
    // i(14x15) takes seconds on one thread: long enough for the second run to meet the first.
    let args = [
        "table", "--rows", "10,14", "--cols", "15", "-i", "-j", "1", "-o", "k.csv",
    ];
    let first = spawn_table(dir.path(), &args);
    wait_for(|| dir.path().join(".k.csv.lock").exists());
    for second in [
        args.to_vec(),
        // A resumer with other ranges, and a --force run, are refused alike.
        vec!["table", "--rows", "10", "--cols", "15", "-i", "-o", "k.csv"],
        vec![
            "table", "--rows", "10", "--cols", "15", "-i", "--force", "-o", "k.csv",
        ],
    ] {
        let (code, err) = run_with_deadline(dir.path(), &second, 30);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "k.csv is being written by another queendom run (pid {} on host ",
                first.id()
            )) && err.contains(" s ago)"),
            "{err}"
        );
    }
    let out = first.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = read(&dir.path().join("k.csv"));
    assert_eq!(table.lines().count(), 3, "{table}");
    // The table is whole: the same command again finds both rows done.
    queendom()
        .current_dir(dir.path())
        .args(args)
        .assert()
        .success()
        .stderr(predicate::str::contains("2 of 2 boards already done"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no lock left");
}

/// A row with its digest recomputed, as somebody editing the file on purpose would write it.
fn forged_row(board: Board, problem: Problem, label: &str, layout: &str) -> String {
    let row = TableRow {
        board,
        problem,
        layout: Layout::parse(board, layout).unwrap(),
        counts: None,
        lower: None,
        nodes: 1,
        seconds: 0.0,
        threads: 1,
    };
    let digest = row.digest();
    format!(
        "{},{},{},{layout},{label},{digest},1,0.000000,1\n",
        board.rows(),
        board.cols(),
        row.queens()
    )
}

const HEADER: &str = "rows,cols,queens,layout,problem,digest,nodes,seconds,threads\n";

/// Breakage 6: a value above the optimum with a valid layout is refused even when its digest was
/// recomputed (the row is re-proved), and a relabelled problem never passes.
#[test]
fn a_wrong_value_never_passes_resume() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    let six = Board::new(6, 6).unwrap();
    // An optimal layout of 6x6 and one queen more: valid, but 3 are enough.
    let four = "r1c1 r2c4 r4c2 r6c6";
    Problem::Domination
        .check(&Layout::parse(six, four).unwrap(), 4)
        .expect("a valid four-queen layout");
    let edited = format!(
        "{HEADER}{}",
        forged_row(six, Problem::Domination, "domination", four)
    );
    fs::write(&path, &edited).unwrap();
    queendom()
        .args(["table", "--rows", "6", "--cols", "6", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 2 (board 6x6) claims 4 queens, but 3 are enough: r",
        ));
    assert_eq!(read(&path), edited);

    // An -i table relabelled `domination`: i(4x4) = 3, γ(4x4) = 2. As written by queendom with the
    // label changed by hand, the digest refuses it; with the digest forged too, the re-proof does.
    let four_by_four = Board::new(4, 4).unwrap();
    let independent = "r1c1 r2c3 r4c2";
    let relabelled = forged_row(
        four_by_four,
        Problem::IndependentDomination,
        "domination",
        independent,
    );
    let forged = forged_row(four_by_four, Problem::Domination, "domination", independent);
    for (row, message) in [
        (relabelled, "line 2 (board 4x4) does not match its digest"),
        (
            forged,
            "line 2 (board 4x4) claims 3 queens, but 2 are enough",
        ),
    ] {
        fs::write(&path, format!("{HEADER}{row}")).unwrap();
        queendom()
            .args(["table", "--rows", "4", "--cols", "4", "-o"])
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

/// --verify re-proves rows of boards too big to be re-proved on every resume (5x30: 150 squares).
#[test]
fn verify_reproves_every_row() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    let board = Board::new(5, 30).unwrap();
    // γ(5x30) = 5; one queen more is still a valid layout.
    let six = "r1c5 r1c30 r2c11 r3c15 r4c3 r5c1";
    let edited = format!(
        "{HEADER}{}",
        forged_row(board, Problem::Domination, "domination", six)
    );
    fs::write(&path, &edited).unwrap();
    // Without --verify the forged row of a large board is trusted (docs/files.md, "What resume trusts", says so).
    queendom()
        .args(["table", "--rows", "5", "--cols", "30", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stderr(
            "queendom: resuming ".to_string()
                + path.to_str().unwrap()
                + ": 1 of 1 boards already done\nqueendom: wrote "
                + path.to_str().unwrap()
                + ": 1 board (1 kept, 0 computed)\n",
        );
    queendom()
        .args(["table", "--rows", "5", "--cols", "30", "--verify", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 2 (board 5x30) claims 6 queens, but 5 are enough",
        ));
    assert_eq!(read(&path), edited);
}

/// Files of older versions (no digest, `1:1` layouts) are adopted with --verify: every row
/// re-proved, the file rewritten with digests and r1c1 layouts, the missing boards appended.
#[test]
fn verify_adopts_a_file_of_an_older_version() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    let old = "rows,cols,queens,layout,problem,nodes,seconds,threads\n\
               4,4,2,2:2 2:3,domination,12,0.001646,2\n";
    fs::write(&path, old).unwrap();
    queendom()
        .args(["table", "--rows", "4", "--cols", "4-5", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--verify re-proves every row"));
    queendom()
        .args([
            "table", "--rows", "4", "--cols", "4-5", "--verify", "-j", "1", "-o",
        ])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("rewritten with digests"));
    let text = read(&path);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER.trim_end());
    assert!(
        lines[1].starts_with("4,4,2,r2c2 r2c3,domination,q")
            && lines[1].ends_with(",12,0.001646,2"),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("4,5,"));
    // Now it resumes without --verify.
    queendom()
        .args(["table", "--rows", "4", "--cols", "4-5", "-o"])
        .arg(&path)
        .assert()
        .success();
}

/// Breakage 7: --force never empties the old file first; an interrupted --force run (simulated by
/// a journal it left) is resumed by the same command.
#[test]
fn force_keeps_the_old_file_until_the_new_one_is_complete() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    queendom()
        .args(["table", "--rows", "1-3", "--cols", "1-4", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    let complete = read(&path);
    // What an interrupted `--force --rows 1-2` run leaves: its first rows in the journal.
    let journal = dir.path().join(".t.csv.partial");
    let first_rows: String = complete.lines().take(4).map(|l| format!("{l}\n")).collect();
    fs::write(&journal, &first_rows).unwrap();
    assert_eq!(read(&path), complete, "the old table is untouched");
    queendom()
        .args([
            "table", "--rows", "1-2", "--cols", "1-4", "-j", "1", "--force", "-o",
        ])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "resuming {}: 3 of 8 boards already done",
            journal.display()
        )));
    let forced = read(&path);
    assert!(
        forced.starts_with(&first_rows),
        "the journal's rows are kept"
    );
    assert_eq!(forced.lines().count(), 9);
    assert!(!journal.exists());
}

/// Breakage 8: CRLF line endings and a UTF-8 byte order mark (as spreadsheets save CSV) are read;
/// rows appended follow the file's line endings.
#[test]
fn crlf_and_byte_order_marks_are_resumed() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    queendom()
        .args(["table", "--rows", "1-2", "--cols", "1-4", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    let saved = format!("\u{feff}{}", read(&path).replace('\n', "\r\n"));
    fs::write(&path, &saved).unwrap();
    queendom()
        .args(["table", "--rows", "1-3", "--cols", "1-4", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("8 of 12 boards already done"));
    let text = read(&path);
    assert!(text.starts_with(&saved), "kept bytes stay as they were");
    assert_eq!(text.matches("\r\n").count(), 13, "{text:?}");
    assert_eq!(text.matches('\n').count(), 13);
}

/// Breakage 9: nqueens stops on SIGINT with one line and exit 130, keeps its finished rows, and
/// the same command resumes them.
#[test]
fn nqueens_stops_on_sigint_and_resumes() {
    let dir = TempDir::new().unwrap();
    // n = 17 takes many seconds on one thread: the signal lands while it is counted.
    let args = ["nqueens", "10,11,12,17", "-j", "1", "-o", "n.csv"];
    let child = spawn_table(dir.path(), &args);
    let path = dir.path().join("n.csv");
    wait_for(|| read_lines(&path) >= 4);
    assert!(Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "queendom: interrupted after 3 of 4 boards; run the same command again to resume\n"
    );
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no lock left");
    queendom()
        .current_dir(dir.path())
        .args(["nqueens", "10-12", "-o", "n.csv"])
        .assert()
        .success()
        .stderr("queendom: resuming n.csv: 3 of 3 boards already done, 3 counted again\n");
}

fn read_lines(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// Breakage 9: bench finds an unusable output path before it runs anything.
#[test]
fn bench_refuses_an_unusable_path_before_running() {
    let dir = TempDir::new().unwrap();
    for (path, message) in [
        ("missing/b.csv", "directory missing does not exist"),
        (
            "/proc/queendom-bench.csv",
            "cannot write /proc/queendom-bench.csv",
        ),
    ] {
        // The standard workload takes half a minute: a refusal within the deadline came first.
        let (code, err) = run_with_deadline(dir.path(), &["bench", "-o", path], 10);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(message), "{err}");
    }
}

/// Breakage 10: a closed standard output is a failure (exit 1), not a silent exit 0; with -o the
/// same run works, since nothing goes to standard output.
#[test]
fn a_closed_stdout_fails() {
    let dir = TempDir::new().unwrap();
    for args in [
        "table --rows 2 --cols 2",
        "solve 4x4",
        "nqueens 6",
        "nqueens 6 --list",
    ] {
        let out = Command::new("sh")
            .args(["-c", &format!("exec \"$0\" {args} >&-")])
            .arg(binary())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cannot write to standard output: it is closed"),
            "{args}: {err}"
        );
    }
    let out = Command::new("sh")
        .args(["-c", "exec \"$0\" table --rows 2 --cols 2 -o t.csv >&-"])
        .arg(binary())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(read_lines(&dir.path().join("t.csv")), 2);
    // A redirection to /dev/null is a choice, not a closed output.
    let out = Command::new("sh")
        .args(["-c", "exec \"$0\" table --rows 2 --cols 2 >/dev/null"])
        .arg(binary())
        .output()
        .unwrap();
    assert!(out.status.success());
}

/// Breakage 10: -j beyond the cores is lowered to the cores, with a one-line note.
#[test]
fn threads_beyond_the_cores_are_clamped() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let out = queendom()
        .args(["table", "--rows", "3", "--cols", "3", "-j", "1024"])
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "queendom: note: -j 1024 is more than the {cores} cores here; using {cores} threads\n"
        )
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().nth(1).unwrap().ends_with(&format!(",{cores}")));
}

/// A closed pipe on stdout ends quietly with exit 0. The reader is closed before queendom starts,
/// so its very first write meets the closed pipe: the test cannot pass without a broken pipe.
#[test]
fn a_broken_pipe_is_a_quiet_exit_0() {
    for args in [
        vec!["table", "--rows", "1-3", "--cols", "1-3"],
        vec!["table", "--rows", "1-3", "--cols", "1-3", "-f", "grid"],
        vec!["nqueens", "1-8"],
        vec!["nqueens", "8", "--list"],
        vec!["solve", "4x4"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(binary())
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// `-o -` and no -o are the same: stdout, never a file named `-`.
#[test]
fn dash_is_stdout() {
    let dir = TempDir::new().unwrap();
    let out = queendom()
        .current_dir(dir.path())
        .args(["table", "--rows", "2", "--cols", "2", "-j", "1", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(without_seconds(&String::from_utf8_lossy(&out.stdout)).starts_with("rows,cols"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A table to a pipe starts with its first boards, so its first rows arrive while the large boards
/// are still ahead (`table --rows 1-20 --cols 1-20 | head -n 3` used to print nothing for hours:
/// the 1×1 row waited behind 19×20). The deadline is not a speed target: the rows come in well
/// under a second; waiting for them in the largest-first order would take hours.
#[test]
fn a_large_table_to_a_pipe_streams_its_first_rows() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(binary())
        .args(["table", "--rows", "1-20", "--cols", "1-20", "-j", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok).take(4) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut lines = Vec::new();
    while lines.len() < 4 {
        let left = deadline.saturating_duration_since(Instant::now());
        match receive.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        lines.len(),
        4,
        "header and three rows within the deadline: {lines:?}"
    );
    assert!(lines[0].starts_with("rows,cols,queens,layout"), "{lines:?}");
    for (line, board) in lines[1..].iter().zip(["1,1,1,", "1,2,1,", "1,3,1,"]) {
        assert!(line.starts_with(board), "{lines:?}");
    }
}
