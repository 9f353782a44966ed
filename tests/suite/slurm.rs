//! Plans run as Slurm job arrays on a real cluster: `queendom plan`, `scripts/slurm/submit.sh` (one
//! array task per part running `queendom work`, then the merge job chained with `afterok`), and the
//! merged answer compared with what `solve` and `table` print on one machine.
//!
//! It needs a running Slurm cluster, so it runs only when `QUEENDOM_SLURM=1` is set; otherwise each
//! test prints a note and passes. With the variable set, a cluster that does not answer `sinfo` is a
//! failure, not a skip. On a machine of your own, as root (Debian's packages, installed on first use):
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
    let sinfo = Command::new("sinfo").args(["-h", "-o", "%T"]).output();
    match sinfo {
        Ok(out) if out.status.success() => {
            let states = String::from_utf8_lossy(&out.stdout);
            assert!(
                states
                    .lines()
                    .any(|s| ["idle", "mixed", "allocated"].contains(&s.trim_end_matches('*'))),
                "QUEENDOM_SLURM=1 but no node of the cluster takes jobs; sinfo says: {states:?}"
            );
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
    true
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

/// Submit the plan in `run_dir` and wait for the merge job's output, RUN/merged.txt.
fn submit_and_merge(run_dir: &Path) -> String {
    let run_arg = run_dir.to_str().expect("UTF-8 path");
    let ids = stdout(run(SUBMIT, &[run_arg]));
    let job_ids = |kind: &str| -> Vec<String> {
        ids.lines()
            .find_map(|line| line.strip_prefix(kind))
            .unwrap_or_else(|| panic!("submit.sh printed no `{kind}` line: {ids:?}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let work = job_ids("work ");
    let merge = job_ids("merge ");
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
            .and_then(|n| n.strip_suffix(".err"))
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
