//! A real SIGINT or SIGTERM sent to a running `queendom table`: exit 130 or 143, one line saying
//! how far it got, every finished row on disk, and a rerun that completes the file, in the table's
//! order even though the boards finished out of it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::{queendom, read, without_measurements};
use tempfile::TempDir;

/// The boards start largest first, one after the other on one thread: i(15x15) takes under a
/// second, then i(14x15) about two seconds (γ of boards this size is now too quick to catch in
/// the middle). A signal sent once the first row is in the file lands in the middle
/// of the second search, and the file then holds the second board of the table only.
const ARGS: [&str; 8] = ["table", "--rows", "14,15", "--cols", "15", "-i", "-j", "1"];

/// What an uninterrupted run writes (seconds and nodes aside); the layouts are checked by `table`
/// itself with the independent checker, and i(14x15) = i(15x15) = 9.
const EXPECTED: &str = "\
rows,cols,queens,layout,problem,digest,nodes,seconds,threads
14,15,9,r1c10 r5c9 r6c6 r7c8 r8c5 r9c7 r11c14 r13c15 r14c13,independent-domination,q8280d5c07bf49ee6,NODES,SECONDS,1
15,15,9,r5c9 r6c7 r7c10 r8c8 r9c6 r11c1 r13c15 r14c12 r15c14,independent-domination,qd75aa73023a99591,NODES,SECONDS,1
";

/// The header and the row of 15x15: what an interrupted run leaves.
fn header_and_last_row() -> String {
    let lines: Vec<&str> = EXPECTED.lines().collect();
    format!("{}\n{}\n", lines[0], lines[2])
}

fn spawn(args: &[&str], output: &Path) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(args)
        .arg("-o")
        .arg(output)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queendom starts")
}

/// Wait (without a deadline that a slow machine could miss: a minute is only a safety net)
/// until `ready` holds.
fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the run never got there"
        );
        sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn lines(path: &PathBuf) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn sigint_keeps_finished_rows_and_a_rerun_completes_the_file() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    let child = spawn(&ARGS, &path);
    wait_for(|| lines(&path) >= 2);
    signal(&child, "INT");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "queendom: interrupted after 1 of 2 boards; run the same command again to resume\n"
    );
    // The finished row is there, the one in progress is not, not even in part.
    assert_eq!(without_measurements(&read(&path)), header_and_last_row());

    queendom()
        .args(ARGS)
        .arg("-o")
        .arg(&path)
        .assert()
        .success()
        .stderr(
            // 15x15 has 225 squares: kept on its digest, not re-proved.
            "queendom: resuming t.csv: 1 of 2 boards already done\n\
             queendom: wrote t.csv: 2 boards (1 kept, 1 computed)\n"
                .replace("t.csv", &path.display().to_string()),
        );
    // Rows in the table's order, as an uninterrupted run writes them.
    assert_eq!(without_measurements(&read(&path)), EXPECTED);
}

#[test]
fn sigterm_exits_143_and_force_leaves_the_old_file_and_the_rows_in_the_journal() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.md");
    let journal = dir.path().join(".t.md.partial");
    std::fs::write(&path, "an older table\n").unwrap();
    let mut args = ARGS.to_vec();
    args.push("--force");
    let child = spawn(&args, &path);
    // The rows go to the journal beside t.md until the table is complete.
    wait_for(|| lines(&journal) >= 2);
    signal(&child, "TERM");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143), "{}", stderr(&output));
    let message = stderr(&output);
    assert_eq!(
        message,
        format!(
            "queendom: interrupted after 1 of 2 boards; {} is unchanged, the finished rows are \
             in {}: run the same command again to resume\n",
            path.display(),
            journal.display()
        )
    );
    // --force replaces the file only once the new table is complete; the finished row is kept.
    assert_eq!(read(&path), "an older table\n");
    assert_eq!(without_measurements(&read(&journal)), header_and_last_row());

    // The same command again resumes the journal, then writes t.md whole and removes the journal.
    queendom()
        .args(&args)
        .arg("-o")
        .arg(&path)
        .assert()
        .success()
        .stderr(predicates::str::contains("1 of 2 boards already done"));
    let table = read(&path);
    assert!(
        table.starts_with("| rows | cols | queens | layout |"),
        "{table}"
    );
    let smaller = table.find("| 14 | 15 | 9 | r1c10 r5c9").expect("14x15");
    let square = table.find("| 15 | 15 | 9 | r5c9 r6c7").expect("15x15");
    assert!(smaller < square, "{table}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn kill_9_leaves_a_file_that_resume_accepts() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.jsonl");
    let child = spawn(&ARGS, &path);
    wait_for(|| lines(&path) >= 1);
    signal(&child, "KILL");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), None, "killed by the signal");
    // The board that finished first is the table's second: resumed, the file gets the first and
    // ends in the table's order.
    queendom()
        .args(ARGS)
        .arg("-o")
        .arg(&path)
        .assert()
        .success()
        .stderr(predicates::str::contains("1 of 2 boards already done"));
    let text = read(&path);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(
        "{\"rows\":14,\"cols\":15,\"queens\":9,\"layout\":\"r1c10 r5c9 r6c6 r7c8 r8c5 r9c7"
    ));
    assert!(lines[1].starts_with(
        "{\"rows\":15,\"cols\":15,\"queens\":9,\"layout\":\"r5c9 r6c7 r7c10 r8c8 r9c6 r11c1"
    ));
    // The killed run's lock sidecar does not block the next run, which removes it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn sigint_stops_solve_with_exit_130_and_one_line() {
    // 15x15 takes seconds: the signal lands in the search (or before it starts, which
    // must end the same way).
    let child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(["solve", "15x15", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queendom starts");
    sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("interrupted while searching 15x15"), "{err}");
    // Without --checkpoint the work is lost: the line says how to keep it next time.
    assert!(err.contains("--checkpoint DIR"), "{err}");
}

#[test]
fn sigint_stops_count_without_a_checkpoint_hint() {
    // count has no --checkpoint: its interrupted line must not suggest one.
    let child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(["count", "15x15", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queendom starts");
    sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("interrupted while counting 15x15 (0 of 1 boards done)"),
        "{err}"
    );
    assert!(!err.contains("checkpoint"), "{err}");
}
