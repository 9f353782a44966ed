//! Plans run as Slurm job arrays on a real cluster: `queendom plan`, `scripts/slurm/submit.sh` (one
//! array task per part running `queendom work`, then the merge job chained with `afterok`), and the
//! merged answer compared with what `solve` and `table` print on one machine.
//!
//! The last test (submit.sh's argument check) runs anywhere. The others need a running Slurm
//! cluster, so they are built as ordinary tests only when
//! `QUEENDOM_SLURM=1` is set at build time (`build.rs`); otherwise they report "ignored" with the
//! reason. With the variable set, a cluster that does not answer `sinfo` is a failure, not a skip. On a machine of your own, as root (Debian's packages, installed on first use):
//!
//! ```sh
//! scripts/slurm/cluster.sh up && QUEENDOM_SLURM=1 cargo test --release --test suite slurm::
//! scripts/slurm/cluster.sh down
//! ```
//!
//! `.ci/run` does the same. The jobs find the binary under test through `QUEENDOM`, so the cluster
//! must see this checkout's `target/` at the same path (true for the one-node cluster).

use std::path::Path;
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

const QUEENDOM: &str = env!("CARGO_BIN_EXE_queendom");
const SUBMIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm/submit.sh");
/// Long enough for both plans on a busy 2-core node, where starting a task takes a second or two.
const TIMEOUT: Duration = Duration::from_secs(300);

/// Whether to run; panics when asked to run without a working cluster.
fn cluster_requested(test: &str) -> bool {
    if std::env::var_os("QUEENDOM_SLURM").as_deref() != Some("1".as_ref()) {
        eprintln!(
            "{test}: skipped, needs a Slurm cluster: \
             scripts/slurm/cluster.sh up && QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
        );
        return false;
    }
    // A node is "completing" for a moment after another test's job ends (the tests share the
    // cluster and run in parallel), so the state is read again until a node takes jobs.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let sinfo = Command::new("sinfo").args(["-h", "-o", "%T"]).output();
        match sinfo {
            Ok(out) if out.status.success() => {
                let states = String::from_utf8_lossy(&out.stdout).into_owned();
                if node_takes_jobs(&states) {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "QUEENDOM_SLURM=1 but no node of the cluster took jobs in 120 s; sinfo says: {states:?}"
                );
                sleep(Duration::from_secs(1));
            }
            Ok(out) => panic!(
                "QUEENDOM_SLURM=1 but sinfo fails ({}): {}; start the cluster with scripts/slurm/cluster.sh up",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            Err(e) => panic!(
                "QUEENDOM_SLURM=1 but sinfo cannot be run ({e}); start the cluster with scripts/slurm/cluster.sh up"
            ),
        }
    }
    true
}

/// Whether some node in `sinfo -o %T`'s lines runs jobs now or can start one; a node that is
/// "completing" can too once its job's epilog ends, which is why the caller asks again.
fn node_takes_jobs(states: &str) -> bool {
    states.lines().any(|s| {
        ["idle", "mixed", "allocated"].contains(
            &s.trim()
                .trim_end_matches(['*', '~', '#', '+', '$', '@', '^', '-', '!', '%']),
        )
    })
}

fn run(program: &str, args: &[&str]) -> Output {
    let out = Command::new(program)
        .args(args)
        .env("QUEENDOM", QUEENDOM)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "`{program} {}` failed ({}): {}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: Output) -> String {
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every file under RUN/slurm-logs, for the message of a failed run.
fn job_logs(run_dir: &Path) -> String {
    let mut text = String::new();
    let Ok(entries) = std::fs::read_dir(run_dir.join("slurm-logs")) else {
        return "(no RUN/slurm-logs)".into();
    };
    let mut paths: Vec<_> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for path in paths {
        let content = std::fs::read_to_string(&path).unwrap_or_default();
        if !content.trim().is_empty() {
            text += &format!("--- {}\n{}\n", path.display(), content.trim_end());
        }
    }
    text
}

/// The job ids on the line of `submit.sh`'s output that starts with `kind` ("work ", "merge ",
/// "watch ").
fn job_ids(ids: &str, kind: &str) -> Vec<String> {
    ids.lines()
        .find_map(|line| line.strip_prefix(kind))
        .unwrap_or_else(|| panic!("submit.sh printed no `{kind}` line: {ids:?}"))
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Submit the plan in `run_dir` and wait for the merge job's output, RUN/merged.txt.
fn submit_and_merge(run_dir: &Path) -> String {
    submit_with(run_dir, &[])
}

/// `submit.sh RUN ARGS...`, then wait for RUN/merged.txt.
fn submit_with(run_dir: &Path, args: &[&str]) -> String {
    let run_arg = run_dir.to_str().expect("UTF-8 path");
    let ids = stdout(run(SUBMIT, &[&[run_arg], args].concat()));
    let work = job_ids(&ids, "work ");
    let merge = job_ids(&ids, "merge ");
    assert!(!work.is_empty() && merge.len() == 1, "job ids: {ids:?}");

    let merged = run_dir.join("merged.txt");
    let start = Instant::now();
    loop {
        // merged.txt appears by rename before the merge job ends, so once the job has left the
        // queue the file is there or will never be.
        let queued = Command::new("squeue")
            .args(["-h", "-j", &merge[0]])
            .output()
            .map(|out| out.status.success() && !out.stdout.is_empty())
            .unwrap_or(false);
        if merged.exists() {
            break;
        }
        if !queued {
            panic!(
                "merge job {} ended without writing {} (a part failed, or merge refused the \
                 results)\n{}",
                merge[0],
                merged.display(),
                job_logs(run_dir)
            );
        }
        if start.elapsed() > TIMEOUT {
            let _ = Command::new("scancel").args(&work).args(&merge).status();
            panic!(
                "no merged answer after {TIMEOUT:?}; jobs cancelled\n{}",
                job_logs(run_dir)
            );
        }
        sleep(Duration::from_millis(500));
    }
    // The watch job runs once the merge job has ended: its log completes the run directory.
    wait_for_jobs(&job_ids(&ids, "watch "));
    std::fs::read_to_string(merged).unwrap()
}

/// After the merge, the plan says every part is done.
fn assert_all_parts_done(run_dir: &Path) {
    let status = stdout(run(
        QUEENDOM,
        &["status", run_dir.to_str().unwrap(), "--json"],
    ));
    let status: serde_json::Value = serde_json::from_str(&status)
        .unwrap_or_else(|e| panic!("status --json is not one JSON object ({e}): {status:?}"));
    let count = |key: &str| {
        status[key]
            .as_u64()
            .unwrap_or_else(|| panic!("status has no count `{key}`: {status}"))
    };
    assert!(
        count("parts") > 1,
        "a plan of one part tests nothing: {status}"
    );
    assert_eq!(count("done"), count("parts"), "{status}");
    assert_eq!((count("running"), count("left")), (0, 0), "{status}");
}

/// `solve`'s answer without its last line, the measurements in parentheses (nodes, seconds,
/// threads): the value line, the diagram and the layout line.
fn answer_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|line| !line.starts_with('(')).collect()
}

/// A CSV table without the columns that say how a row was obtained rather than what it is (the
/// fields of these tables never contain commas: layouts separate squares with spaces).
fn without_measurement_columns(csv: &str) -> Vec<Vec<&str>> {
    const MEASUREMENTS: [&str; 4] = ["nodes", "seconds", "threads", "host"];
    let rows: Vec<Vec<&str>> = csv.lines().map(|line| line.split(',').collect()).collect();
    let header = rows.first().expect("a header line");
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !MEASUREMENTS.contains(&header[i]))
        .collect();
    assert!(keep.len() >= 5, "unexpected header {header:?}");
    rows.iter()
        .map(|fields| {
            assert_eq!(
                fields.len(),
                header.len(),
                "row {fields:?} under {header:?}"
            );
            keep.iter().map(|&i| fields[i]).collect()
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn job_array_over_a_14x14_plan_merges_to_the_answer_of_solve() {
    if !cluster_requested("job_array_over_a_14x14_plan_merges_to_the_answer_of_solve") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(QUEENDOM, &["plan", "14x14", "--parts", "10", "-o", run_arg]);

    let merged = submit_and_merge(&run_dir);
    let solved = stdout(run(QUEENDOM, &["solve", "14x14"]));
    assert!(
        solved.starts_with("γ(14x14) = "),
        "solve printed {solved:?}"
    );
    assert_eq!(
        answer_lines(&merged),
        answer_lines(&solved),
        "merged answer differs from solve 14x14\n{}",
        job_logs(&run_dir)
    );
    assert_all_parts_done(&run_dir);
    assert_tasks_ran_by_rank(&run_dir);
}

/// Task R of the array ran the part of rank R (largest estimate first), as its log says.
fn assert_tasks_ran_by_rank(run_dir: &Path) {
    let order = crate::common::claim_order(run_dir);
    let mut tasks = 0;
    for entry in std::fs::read_dir(run_dir.join("slurm-logs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(task) = name
            .strip_prefix("work-")
            .and_then(|n| n.strip_suffix(".log"))
            .and_then(|n| n.rsplit_once('_'))
            .map(|(_, t)| t.parse::<usize>().unwrap())
        else {
            continue;
        };
        let log = std::fs::read_to_string(&path).unwrap();
        assert!(
            log.contains(&format!("part {} done", order[task])),
            "task {task} should run part {} (rank {task}): {log:?}",
            order[task]
        );
        tasks += 1;
    }
    assert_eq!(
        tasks,
        order.len(),
        "one log per task\n{}",
        job_logs(run_dir)
    );
}

#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn job_array_over_a_table_plan_merges_to_the_table() {
    if !cluster_requested("job_array_over_a_table_plan_merges_to_the_table") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(
        QUEENDOM,
        &["plan", "--rows", "1-6", "--cols", "1-8", "-o", run_arg],
    );

    let merged = submit_and_merge(&run_dir);
    let table = stdout(run(QUEENDOM, &["table", "--rows", "1-6", "--cols", "1-8"]));
    assert_eq!(table.lines().count(), 1 + 6 * 8, "table printed {table:?}");
    assert_eq!(
        without_measurement_columns(&merged),
        without_measurement_columns(&table),
        "merged table differs from `table --rows 1-6 --cols 1-8`\n{}",
        job_logs(&run_dir)
    );
    assert_all_parts_done(&run_dir);
}

fn status_json(run_dir: &Path) -> serde_json::Value {
    let text = stdout(run(
        QUEENDOM,
        &["status", run_dir.to_str().unwrap(), "--json"],
    ));
    serde_json::from_str(&text).unwrap()
}

/// Wait until no job of this test's run is in the queue.
fn wait_for_jobs(ids: &[String]) {
    wait_for_jobs_at_most(ids, TIMEOUT)
}

/// Wait until no job of this test's run is in the queue; after `timeout`, cancel them and fail
/// with what the queue says (a pending reason such as a drained node tells more than the ids).
fn wait_for_jobs_at_most(ids: &[String], timeout: Duration) {
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-j", &ids.join(",")])
            .output()
            .unwrap();
        if out.stdout.is_empty() {
            return;
        }
        if start.elapsed() > timeout {
            let queue = Command::new("squeue")
                .args(["-h", "-o", "%i %T %M %R", "-j", &ids.join(",")])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default();
            let _ = Command::new("scancel").args(ids).status();
            panic!("jobs {ids:?} still queued after {timeout:?} (cancelled now):\n{queue}");
        }
        sleep(Duration::from_millis(500));
    }
}

#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn a_cancelled_and_a_killed_task_are_named_by_rank_and_missing_resubmits_only_them() {
    if !cluster_requested(
        "a_cancelled_and_a_killed_task_are_named_by_rank_and_missing_resubmits_only_them",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(QUEENDOM, &["plan", "15x15", "--parts", "6", "-o", run_arg]);
    let n = status_json(&run_dir)["parts"].as_u64().unwrap() as usize;
    assert!(n >= 4);
    // The array held, one task cancelled before it runs; another killed by SIGKILL once it has
    // started (a wrapper kills the worker of rank 1 when its attempt is recorded).
    let wrapper = dir.path().join("queendom-wrapper.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$SLURM_ARRAY_TASK_ID\" != 1 ]; then exec {QUEENDOM} \"$@\"; fi\n\
             {QUEENDOM} \"$@\" & pid=$!\n\
             until grep -qs \"\\\"pid\\\":$pid\" {run_arg}/attempts/*.jsonl; do sleep 0.02; done\n\
             kill -9 $pid; exit 137\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(SUBMIT)
        .args([run_arg, "--", "--hold"])
        .env("QUEENDOM", &wrapper)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ids = String::from_utf8(out.stdout).unwrap();
    let id = |kind: &str| job_ids(&ids, kind).remove(0);
    let (work, merge, watch) = (id("work "), id("merge "), id("watch "));
    assert!(Command::new("scancel")
        .arg(format!("{work}_3"))
        .status()
        .unwrap()
        .success());
    for job in [&work, &merge] {
        assert!(Command::new("scontrol")
            .args(["release", job])
            .status()
            .unwrap()
            .success());
    }
    // The watch job too: it runs after the merge job and writes a log, which must be counted
    // before the resubmission, not among its logs.
    wait_for_jobs(&[work.clone(), merge.clone(), watch]);
    let status = status_json(&run_dir);
    assert_eq!(
        status["missing_ranks"],
        "1,3",
        "{status}\n{}",
        job_logs(&run_dir)
    );
    assert_eq!(status["failed_ranks"], "1", "{status}");
    assert_eq!(status["failed"][0]["event"], "died", "{status}");
    assert!(
        status["merge"]
            .as_str()
            .unwrap()
            .contains("failed (exit 1)"),
        "the merge job says it failed: {status}"
    );
    let text = stdout(run(QUEENDOM, &["status", run_arg]));
    assert!(
        text.contains("missing (no result, no worker): ranks 1,3 "),
        "{text}"
    );
    assert!(text.contains("last merge job: 20"), "{text}");
    // One command: only ranks 1 and 3 run again, then the merge.
    let before: Vec<_> = std::fs::read_dir(run_dir.join("slurm-logs"))
        .unwrap()
        .collect();
    let merged = submit_with(&run_dir, &["--missing"]);
    let after = std::fs::read_dir(run_dir.join("slurm-logs"))
        .unwrap()
        .count();
    assert_eq!(
        after - before.len(),
        4,
        "two work logs, one merge log and one merge-watch log"
    );
    let solved = stdout(run(QUEENDOM, &["solve", "15x15"]));
    assert_eq!(answer_lines(&merged), answer_lines(&solved));
    assert_all_parts_done(&run_dir);
    for entry in std::fs::read_dir(run_dir.join("slurm-logs")).unwrap() {
        let path = entry.unwrap().path();
        assert!(
            std::fs::metadata(&path).unwrap().len() > 0,
            "empty log {}",
            path.display()
        );
    }
}

#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn workers_run_a_plan_of_many_parts_and_merge_options_reach_the_merge_job() {
    if !cluster_requested("workers_run_a_plan_of_many_parts_and_merge_options_reach_the_merge_job")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(
        QUEENDOM,
        &["plan", "--rows", "1-8", "--cols", "1-10", "-o", run_arg],
    );
    let table_file = dir.path().join("gamma.csv");
    let csv_arg = table_file.to_str().unwrap();
    let merged = submit_with(&run_dir, &["--workers", "2", "--", "--", "-o", csv_arg]);
    assert!(
        merged.contains("merged: written where merge's arguments say (-o "),
        "{merged}"
    );
    let merge_log = std::fs::read_to_string(run_dir.join("merge.log")).unwrap();
    assert!(
        merge_log.contains("merged: merged: written where"),
        "{merge_log}"
    );
    let table = stdout(run(QUEENDOM, &["table", "--rows", "1-8", "--cols", "1-10"]));
    assert_eq!(
        without_measurement_columns(&std::fs::read_to_string(&table_file).unwrap()),
        without_measurement_columns(&table)
    );
    assert_all_parts_done(&run_dir);
    let logs: Vec<_> = std::fs::read_dir(run_dir.join("slurm-logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("worker-"))
        .collect();
    assert_eq!(logs.len(), 2, "{logs:?}");
}

#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn a_merge_job_cancelled_while_pending_is_shown_by_status() {
    if !cluster_requested("a_merge_job_cancelled_while_pending_is_shown_by_status") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(QUEENDOM, &["plan", "8x8", "--parts", "3", "-o", run_arg]);
    let ids = stdout(run(SUBMIT, &[run_arg, "--", "--hold"]));
    let id = |kind: &str| job_ids(&ids, kind).remove(0);
    let (work, merge, watch) = (id("work "), id("merge "), id("watch "));
    // The merge job never runs: cancelled while it waits for the work.
    assert!(Command::new("scancel")
        .arg(&merge)
        .status()
        .unwrap()
        .success());
    assert!(Command::new("scontrol")
        .args(["release", &work])
        .status()
        .unwrap()
        .success());
    wait_for_jobs(&[work, merge.clone(), watch]);
    let text = stdout(run(QUEENDOM, &["status", run_arg]));
    assert!(
        text.contains(&format!(
            "merge job {merge}: cancelled before it started (scancel while it was pending)"
        )),
        "{text}\n{}",
        job_logs(&run_dir)
    );
    assert!(!run_dir.join("merged.txt").exists());
    let status = status_json(&run_dir);
    assert!(
        status["merge"]
            .as_str()
            .unwrap()
            .contains("cancelled before it started"),
        "{status}"
    );
}

/// All job ids `submit.sh` printed (work, merge and watch).
fn submitted_jobs(ids: &str) -> Vec<String> {
    ["work ", "merge ", "watch "]
        .iter()
        .flat_map(|kind| job_ids(ids, kind))
        .collect()
}

/// Slurm's time limit stops a part that needs more than it (γ(16×19) as one part: about 130 CPU s
/// on one core here; slurmctld enforces a one-minute limit only at its next check, measured at
/// 72 s, so a part must need well over 90 s to be stopped surely: γ(16×20), 63 CPU s, once
/// finished under it); its attempt is recorded as interrupted; `submit.sh --missing` splits it
/// (`plan --split interrupted`: its 80 children, a few CPU s each) and resubmits with the same
/// `--time`, until every piece fits; the merge then prints the proven value with a layout that
/// passes the checker. The pieces redo the whole search (an interrupted part keeps nothing), so
/// the board is the smallest that is surely stopped: γ(19×20), over 250 CPU s, did not finish
/// its pieces within 300 s on the 2-core CI machine running the rest of the suite beside it.
#[test]
#[cfg_attr(
    not(queendom_slurm),
    ignore = "needs a Slurm cluster: scripts/slurm/cluster.sh up, then QUEENDOM_SLURM=1 cargo test --release --test suite slurm::"
)]
fn a_part_longer_than_the_time_limit_completes_when_resubmitted_with_the_same_limit() {
    if !cluster_requested(
        "a_part_longer_than_the_time_limit_completes_when_resubmitted_with_the_same_limit",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let run_arg = run_dir.to_str().unwrap();
    run(
        QUEENDOM,
        &["plan", "16x19", "--parts", "1", "-j", "1", "-o", run_arg],
    );
    assert_eq!(status_json(&run_dir)["parts"], 1);
    let limit = "--time=1";
    let ids = stdout(run(SUBMIT, &[run_arg, "--", limit]));
    wait_for_jobs(&submitted_jobs(&ids));
    let status = status_json(&run_dir);
    assert_eq!(status["done"], 0, "the part fitted the limit: {status}");
    assert_eq!(
        status["failed"][0]["event"],
        "interrupted",
        "{status}\n{}",
        job_logs(&run_dir)
    );
    let mut recoveries = 0;
    while status_json(&run_dir)["left"].as_u64() != Some(0) {
        recoveries += 1;
        assert!(
            recoveries <= 4,
            "not done after 4 recoveries: {}\n{}",
            status_json(&run_dir),
            job_logs(&run_dir)
        );
        // Its children are each well under a quarter of it: the share only reaches `plan --split`.
        let out = run(
            SUBMIT,
            &[run_arg, "--missing", "--split-share", "0.25", "--", limit],
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("splitting"), "{said}");
        // The pieces together need the part's whole CPU time again, on a busy node.
        wait_for_jobs_at_most(
            &submitted_jobs(&String::from_utf8_lossy(&out.stdout)),
            2 * TIMEOUT,
        );
    }
    let merged = std::fs::read_to_string(run_dir.join("merged.txt")).unwrap_or_else(|e| {
        panic!(
            "no merged.txt ({e}): {}\n{}",
            status_json(&run_dir),
            job_logs(&run_dir)
        )
    });
    // Not `solve 16x19` beside it (another 130 CPU s): the value shipped in results/ (a table
    // proven by `table`, checked by tests/suite/results.rs) and the checker on the merged layout.
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/domination-1-20.csv"
    ))
    .unwrap();
    let queens: usize = shipped
        .lines()
        .find_map(|l| l.strip_prefix("16,19,"))
        .and_then(|rest| rest.split(',').next())
        .and_then(|q| q.parse().ok())
        .expect("results/domination-1-20.csv has the 16x19 row");
    assert!(
        merged.starts_with(&format!("γ(16x19) = {queens}\n")),
        "{merged}"
    );
    let board = queendom::Board::new(16, 19).unwrap();
    let layout = merged
        .lines()
        .find_map(|l| l.strip_prefix("layout: "))
        .map(|text| queendom::Layout::parse(board, text).unwrap())
        .expect("the merge prints the layout");
    queendom::check::check_dominating(&layout, queens).unwrap();
    assert_all_parts_done(&run_dir);
    // The pieces' searches together took longer than one task may run.
    let cpu = status_json(&run_dir)["cpu_seconds"].as_f64().unwrap();
    assert!(
        cpu > 60.0,
        "the part needed {cpu} CPU s, not more than the limit"
    );
}

/// A bad `--split-share` is refused up front (exit 2, naming it), not only when a part was
/// interrupted and `plan --share` gets to read it: no cluster needed, as nothing is submitted.
#[test]
fn submit_refuses_a_bad_split_share_before_submitting_anything() {
    let dir = tempfile::tempdir().unwrap();
    let run_arg = dir.path().to_str().unwrap();
    // (`run` asserts success; these runs must fail.)
    let refused = |args: &[&str]| {
        let out = Command::new(SUBMIT)
            .arg(run_arg)
            .args(args)
            .env("QUEENDOM", QUEENDOM)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for share in ["0", "1.5", "-0.25", "abc", "nan", "", " 0.5", "0.5x"] {
        let (code, said) = refused(&["--missing", "--split-share", share]);
        assert_eq!(code, Some(2), "--split-share {share:?}: {said}");
        assert!(
            said.starts_with("submit: --split-share takes a number above 0 and at most 1")
                && said.contains(&format!("'{share}'"))
                && said.lines().count() == 1,
            "--split-share {share:?}: {said}"
        );
    }
    // A good share passes this check and the next one stops it (no --missing: exit 2 too).
    let (code, said) = refused(&["--split-share=0.25"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("goes with --missing"), "{said}");
}
