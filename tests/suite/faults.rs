//! The fault-injection harness (issue 47): each write point of `table`, `work`, `merge`,
//! `plan RUN --split` and `audit` is hit in turn by a kill (as `kill -9`) and by a full disk
//! (`QUEENDOM_FAULT=COMMAND:KIND:K`, src/fault.rs: no root, no mounts). After each fault the run
//! directory reads (`status`), the same command run again finishes with exit 0, and what it
//! answers equals a clean run's: the table's values and layouts, the merged answer. A full disk
//! says so in one line naming the file and how to resume, and leaves no lock file or temporary
//! behind. The number of points is found by raising K until no fault fires, so a point added to
//! the library is covered at once.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::common::{copy_dir, queendom, without_measurements};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Kill,
    Full,
}

impl Fault {
    fn name(self) -> &'static str {
        match self {
            Fault::Kill => "kill",
            Fault::Full => "full",
        }
    }
}

const BOTH: [Fault; 2] = [Fault::Kill, Fault::Full];

/// Write points whose failure the command survives by design: a part's attempt records only
/// inform (docs/cluster.md), so a worker that cannot write one says so and goes on.
const BEST_EFFORT: [&str; 1] = ["attempt record"];

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Outcome {
    /// The name of the write point where a fault fired, if one did.
    fn fired(&self) -> Option<&str> {
        self.stderr.lines().find_map(|l| {
            let rest = l.strip_prefix("queendom: fault injected: ")?;
            rest.rsplit_once(" (")?.1.strip_suffix(')')
        })
    }
}

fn run(dir: &Path, fault: Option<&str>, args: &[&str]) -> Outcome {
    let mut command = queendom();
    command.current_dir(dir).args(args);
    command.env_remove("QUEENDOM_FAULT");
    if let Some(fault) = fault {
        command.env("QUEENDOM_FAULT", fault);
    }
    let out = command.output().unwrap();
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, None, args);
    assert_eq!(out.code, 0, "queendom {args:?}: {}", out.stderr);
    out.stdout
}

/// The checks on a faulted run: a kill exits 137; a full disk exits 1 or 2 with one line that
/// names the file (one of `names`) and says how to resume, or, at a best-effort point, goes on
/// and says what it could not record.
fn check_faulted(fault: Fault, point: &str, out: &Outcome, names: &[&str], what: &str) {
    let said: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| !l.starts_with("queendom: fault injected: "))
        .collect();
    match fault {
        Fault::Kill => assert_eq!(out.code, 137, "{what}: {}", out.stderr),
        Fault::Full if BEST_EFFORT.contains(&point) => {
            assert_eq!(out.code, 0, "{what}: {}", out.stderr);
            let note = said.iter().find(|l| l.contains("cannot record"));
            let note = note.unwrap_or_else(|| panic!("{what}: no note: {}", out.stderr));
            assert!(
                note.contains("No space left on device") && note.contains("attempts/part-"),
                "{what}: {note}"
            );
        }
        Fault::Full => {
            assert!([1, 2].contains(&out.code), "{what}: {}", out.stderr);
            let last = said.last().copied().unwrap_or_default();
            assert!(
                last.contains("No space left on device")
                    && last.contains("run the same command again")
                    && names.iter().any(|n| last.contains(n)),
                "{what}: the last line should name the file and how to resume: {}",
                out.stderr
            );
        }
    }
}

/// Every file under `dir`, as paths relative to it.
fn paths(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p.clone());
            }
            out.push(p.strip_prefix(dir).unwrap().to_path_buf());
        }
    }
    out.sort();
    out
}

/// No lock sidecar (`.NAME.lock`, `.queendom-DEV-INO.lock`) is left under `dir`: a command
/// that fails on a full disk, or finishes, removes its own (a refusal creates nothing; the next
/// run takes over those a kill leaves); and with `temporaries`, no temporary file either (only a
/// kill can leave one, which nothing reads).
fn assert_no_strays(dir: &Path, temporaries: bool, what: &str) {
    for p in paths(dir) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let temporary = name.ends_with(".tmp") || name.starts_with(".write-check.");
        let stray =
            (name.starts_with('.') && name.ends_with(".lock")) || (temporaries && temporary);
        assert!(!stray, "{what}: {} left behind", p.display());
    }
}

/// Every file under `dir` with its bytes.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    paths(dir)
        .into_iter()
        .filter(|p| dir.join(p).is_file())
        .map(|p| {
            let bytes = fs::read(dir.join(&p)).unwrap();
            (p, bytes)
        })
        .collect()
}

fn status(run_dir: &Path) -> serde_json::Value {
    let out = ok(
        run_dir.parent().unwrap(),
        &["status", run_dir.to_str().unwrap(), "--json"],
    );
    serde_json::from_str(&out).unwrap()
}

/// Run `args` in a new directory made by `fresh` with a `fault` at each write point K = 1, 2, …
/// until none fires; `check(dir, k, point, outcome)` checks each. Returns how many points the
/// command has.
fn at_every_point(
    base: &Path,
    fault: Fault,
    command: &str,
    args: &[&str],
    fresh: impl Fn(&Path),
    mut check: impl FnMut(&Path, u32, &str, &Outcome),
) -> u32 {
    for k in 1.. {
        let dir = base.join(format!("{command}-{}-{k}", fault.name()));
        fs::create_dir(&dir).unwrap();
        fresh(&dir);
        let spec = format!("{command}:{}:{k}", fault.name());
        let out = run(&dir, Some(&spec), args);
        let Some(point) = out.fired() else {
            assert_eq!(out.code, 0, "{spec} fired no fault: {}", out.stderr);
            fs::remove_dir_all(&dir).unwrap();
            return k - 1;
        };
        let point = point.to_string();
        check(&dir, k, &point, &out);
        // Each directory is looked at once: keep the disk small.
        fs::remove_dir_all(&dir).unwrap();
    }
    unreachable!()
}

const TABLE: [&str; 7] = ["table", "--rows", "1-6", "--cols", "1-6", "-j", "1"];

/// A table written straight into its file (csv, rows appended as they finish and put in the
/// table's order at the end) and one through the journal (markdown: `.t.md.partial`, then the
/// file whole): killed or full at every row, header, rewrite and journal step, then resumed by
/// the same command to the clean table.
#[test]
fn a_table_faulted_at_any_write_resumes_to_the_clean_table() {
    let base = TempDir::new().unwrap();
    for file in ["t.csv", "t.md"] {
        let mut args = TABLE.to_vec();
        args.extend(["-o", file]);
        let clean_dir = base.path().join(format!("clean-{file}"));
        fs::create_dir(&clean_dir).unwrap();
        ok(&clean_dir, &args);
        let clean = without_measurements(&fs::read_to_string(clean_dir.join(file)).unwrap());
        for fault in BOTH {
            let points = at_every_point(
                base.path(),
                fault,
                "table",
                &args,
                |_| {},
                |dir, k, point, out| {
                    let what = format!("{file}, {} at {k} ({point})", fault.name());
                    check_faulted(fault, point, out, &[file], &what);
                    if fault == Fault::Full {
                        assert_no_strays(dir, true, &what);
                    }
                    let again = run(dir, None, &args);
                    assert_eq!(again.code, 0, "{what}: the rerun: {}", again.stderr);
                    let table = fs::read_to_string(dir.join(file)).unwrap();
                    assert_eq!(without_measurements(&table), clean, "{what}");
                    assert_no_strays(dir, fault == Fault::Full, &what);
                    assert!(!dir.join(format!(".{file}.partial")).exists(), "{what}");
                },
            );
            // The lock's note, the header, 36 rows and the file put in order or written whole.
            assert!(points >= 39, "{file}: only {points} write points");
        }
    }
}

/// Make a plan in `dir/run` with `args` (after `plan`) and return its path.
fn plan(dir: &Path, args: &[&str]) -> PathBuf {
    let run_dir = dir.join("run");
    let mut all = vec!["plan"];
    all.extend(args);
    all.extend(["-o", run_dir.to_str().unwrap()]);
    ok(dir, &all);
    run_dir
}

/// A record cut short by a full disk costs at most itself: the record written after it (the
/// attempt's end, or the next attempt) reads, so a part's attempts file has at most one line
/// that does not read, and a last line that is whole (it ends in a newline) reads.
fn assert_attempts_readable(run_dir: &Path, parts: usize, what: &str) {
    for k in 0..parts {
        let path = run_dir.join(format!("attempts/part-{k:06}.jsonl"));
        let text = fs::read_to_string(&path).unwrap();
        let reads = |l: &str| serde_json::from_str::<serde_json::Value>(l).is_ok();
        let unread = text.lines().filter(|l| !reads(l)).count();
        assert!(unread <= 1, "{what}: {}:\n{text}", path.display());
        if text.ends_with('\n') {
            let last = text.lines().last().unwrap_or_default();
            assert!(reads(last), "{what}: {}:\n{text}", path.display());
        }
    }
}

/// Workers on a table plan of four boards, killed or full at each claim, check of
/// `results/`, attempt record and result: the run reads, the same worker finishes it, and it
/// merges to the clean run's answer.
#[test]
fn a_worker_faulted_at_any_write_leaves_a_run_that_finishes_with_the_same_answer() {
    let base = TempDir::new().unwrap();
    let template = plan(
        base.path(),
        &["--rows", "3-4", "--cols", "4-5", "--parts", "4"],
    );
    let parts = status(&template)["parts"].as_u64().unwrap() as usize;
    assert!(parts >= 3, "{parts} parts");
    let d = "run";
    let work = ["work", d, "--next", "--until-done", "-j", "1"];
    let clean = base.path().join("clean");
    fs::create_dir(&clean).unwrap();
    copy_dir(&template, &clean.join(d));
    ok(&clean, &work);
    let expected = without_measurements(&ok(&clean, &["merge", d]));
    for fault in BOTH {
        let points = at_every_point(
            base.path(),
            fault,
            "work",
            &work,
            |dir| copy_dir(&template, &dir.join(d)),
            |dir, k, point, out| {
                let what = format!("work, {} at {k} ({point})", fault.name());
                let run_dir = dir.join(d);
                check_faulted(
                    fault,
                    point,
                    out,
                    &[run_dir.to_str().unwrap(), "run/"],
                    &what,
                );
                if fault == Fault::Full {
                    assert_no_strays(dir, true, &what);
                }
                let before = status(&run_dir);
                assert_eq!(before["parts"], parts, "{what}");
                let again = run(dir, None, &work);
                assert_eq!(again.code, 0, "{what}: the rerun: {}", again.stderr);
                assert_eq!(status(&run_dir)["done"], parts, "{what}");
                // No finished part was searched again: the rerun ran exactly those left.
                let left = parts as u64 - before["done"].as_u64().unwrap();
                assert!(
                    again.stderr.contains(&format!("ran {left} part")),
                    "{what}: {} parts left: {}",
                    left,
                    again.stderr
                );
                let merged = ok(dir, &["merge", d]);
                assert_eq!(without_measurements(&merged), expected, "{what}");
                assert_attempts_readable(&run_dir, parts, &what);
                assert_no_strays(dir, fault == Fault::Full, &what);
            },
        );
        // Per part: its claim, the check of results/, two attempt records and the result.
        assert_eq!(points as usize, 5 * parts, "{fault:?}");
    }
}

/// `merge RUN -o FILE` of a table plan, killed or full at its lock and at its answer: the run is
/// untouched and reads, and the same merge writes the clean answer byte for byte.
#[test]
fn a_merge_faulted_at_any_write_writes_the_same_answer_when_run_again() {
    let base = TempDir::new().unwrap();
    let run_dir = plan(
        base.path(),
        &["--rows", "2-5", "--cols", "3-6", "--parts", "6"],
    );
    ok(
        base.path(),
        &["work", "run", "--next", "--until-done", "-j", "1"],
    );
    let ledger = contents(&run_dir);
    let merge = |out: &Path| {
        let run = run_dir.to_str().unwrap().to_string();
        let out = out.join("answer.csv").to_str().unwrap().to_string();
        vec!["merge".to_string(), run, "-o".into(), out]
    };
    let clean_dir = base.path().join("clean");
    fs::create_dir(&clean_dir).unwrap();
    let args = merge(&clean_dir);
    ok(
        base.path(),
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let clean = fs::read(clean_dir.join("answer.csv")).unwrap();
    for fault in BOTH {
        let mut checked = 0;
        for k in 1.. {
            let dir = base.path().join(format!("merge-{}-{k}", fault.name()));
            fs::create_dir(&dir).unwrap();
            let args = merge(&dir);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let spec = format!("merge:{}:{k}", fault.name());
            let out = run(base.path(), Some(&spec), &args);
            let Some(point) = out.fired() else {
                assert_eq!(out.code, 0, "{spec}: {}", out.stderr);
                break;
            };
            let what = format!("merge, {} at {k} ({point})", fault.name());
            check_faulted(fault, point, &out, &["answer.csv"], &what);
            if fault == Fault::Full {
                assert_no_strays(&dir, true, &what);
                assert!(!dir.join("answer.csv").exists(), "{what}");
            }
            assert_eq!(contents(&run_dir), ledger, "{what}: the run changed");
            status(&run_dir);
            ok(base.path(), &args);
            assert_eq!(fs::read(dir.join("answer.csv")).unwrap(), clean, "{what}");
            assert_no_strays(&dir, fault == Fault::Full, &what);
            checked += 1;
        }
        // The lock's note and the answer written whole.
        assert_eq!(checked, 2, "{fault:?}");
    }
}

/// `plan RUN --split` killed or full at each of its steps: the run reads as the old plan (before
/// the commit, step 4) or the new one, never a mixture; the same split run again ends as the
/// clean one, every result and attempt kept.
#[test]
fn a_split_faulted_at_any_step_ends_as_the_clean_split_when_run_again() {
    let base = TempDir::new().unwrap();
    let template = plan(base.path(), &["10x10", "-i", "--parts", "2"]);
    let t = template.to_str().unwrap();
    for rank in ["1", "2"] {
        ok(base.path(), &["work", t, "--rank", rank, "-j", "1"]);
    }
    let before = status(&template);
    let part = super::common::claim_order(&template)[0].to_string();
    let split = ["plan", "run", "--split", &part];
    let clean = base.path().join("clean");
    fs::create_dir(&clean).unwrap();
    copy_dir(&template, &clean.join("run"));
    ok(&clean, &split);
    let after = status(&clean.join("run"));
    assert_ne!(after["plan"], before["plan"]);
    let expected = contents(&clean.join("run"));
    for fault in BOTH {
        let points = at_every_point(
            base.path(),
            fault,
            "split",
            &split,
            |dir| copy_dir(&template, &dir.join("run")),
            |dir, k, point, out| {
                let what = format!("split, {} at {k} ({point})", fault.name());
                let run_dir = dir.join("run");
                check_faulted(
                    fault,
                    point,
                    out,
                    &[run_dir.to_str().unwrap(), "run/"],
                    &what,
                );
                let committed = run_dir.join("split.commit").exists();
                assert_eq!(committed, k >= 4, "{what}");
                if fault == Fault::Full {
                    assert_no_strays(dir, true, &what);
                    if !committed {
                        assert!(!run_dir.join("staging").exists(), "{what}");
                    }
                }
                // `status` (on a copy: it completes a committed split) reads the old run or the
                // new one, with both results.
                let read = dir.join("read");
                copy_dir(&run_dir, &read);
                let now = status(&read);
                let plan = if committed { &after } else { &before };
                assert_eq!(now["plan"], plan["plan"], "{what}");
                assert_eq!(now["done"], 2, "{what}");
                assert!(!read.join("staging").exists(), "{what}");
                let again = run(dir, None, &split);
                assert_eq!(again.code, 0, "{what}: the rerun: {}", again.stderr);
                assert_eq!(contents(&run_dir), expected, "{what}");
            },
        );
        assert_eq!(points, queendom::plan::run_dir::SPLIT_STEPS, "{fault:?}");
    }
}

/// `audit` only reads: it has no write point, so no fault fires in it, and the run it audits is
/// left byte for byte as it was.
#[test]
fn an_audit_writes_nothing_a_fault_could_cut() {
    let base = TempDir::new().unwrap();
    let run_dir = plan(base.path(), &["10x10", "--parts", "4"]);
    ok(
        base.path(),
        &["work", "run", "--next", "--until-done", "-j", "1"],
    );
    let ledger = contents(&run_dir);
    let audit = ["audit", "run", "--sample", "100%", "--seed", "1", "-j", "1"];
    for fault in BOTH {
        let spec = format!("audit:{}:1", fault.name());
        let out = run(base.path(), Some(&spec), &audit);
        assert_eq!(out.fired(), None, "{spec}: {}", out.stderr);
        assert_eq!(out.code, 0, "{spec}: {}", out.stderr);
        assert!(
            out.stdout.contains("every audited claim holds"),
            "{}",
            out.stdout
        );
        assert_eq!(contents(&run_dir), ledger, "{spec}: the run changed");
    }
}
