//! `--trace FILE`: one row per search task, nodes that add up to the search's, and a replay
//! (`scripts/scaling.py`) that on one simulated worker takes exactly the CPU the tasks took.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command as Process;

use tempfile::TempDir;

use crate::common::{queendom, read_json};

/// The rows of a trace, each as column name -> text.
fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "id",
            "parent",
            "kind",
            "board",
            "path",
            "children",
            "cpu_seconds",
            "nodes",
            "thread",
            "start_seconds",
            "end_seconds"
        ]
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Every task once, every parent a task that says it has children, and the nodes in all.
/// A board job's children are the board's start and searches, each from the root.
fn check_tree(rows: &[HashMap<String, String>]) -> u64 {
    let ids: Vec<u64> = rows.iter().map(|r| r["id"].parse().unwrap()).collect();
    assert_eq!(ids, (0..rows.len() as u64).collect::<Vec<_>>());
    let by_id: HashMap<&str, &HashMap<String, String>> =
        rows.iter().map(|r| (r["id"].as_str(), r)).collect();
    let mut parts = HashSet::new();
    for r in rows {
        if !r["parent"].is_empty() {
            let parent = by_id[r["parent"].as_str()];
            assert!(!parent["children"].is_empty(), "{r:?} under {parent:?}");
            if parent["kind"] == "board" {
                assert_eq!(parent["children"], "in-order");
                assert_eq!(
                    (r["path"].as_str(), &r["board"]),
                    ("root", &parent["board"])
                );
            } else {
                assert!(parent["path"] == "root" || r["path"].starts_with(&parent["path"]));
            }
        }
        assert!(
            parts.insert((r["kind"].clone(), r["board"].clone(), r["path"].clone())),
            "part twice: {r:?}"
        );
        let (start, end): (f64, f64) = (
            r["start_seconds"].parse().unwrap(),
            r["end_seconds"].parse().unwrap(),
        );
        assert!(end >= start && r["cpu_seconds"].parse::<f64>().unwrap() >= 0.0);
    }
    rows.iter()
        .map(|r| r["nodes"].parse::<u64>().unwrap())
        .sum()
}

#[test]
fn a_solve_traces_every_task_once_and_its_nodes_add_up() {
    let dir = TempDir::new().unwrap();
    let trace = dir.path().join("t.csv");
    let out = queendom()
        .args(["solve", "9x9", "-j", "2", "--trace"])
        .arg(&trace)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let nodes: u64 = text
        .split('(')
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let rows = rows(&trace);
    assert!(rows.len() > 10, "{} tasks", rows.len());
    assert_eq!(check_tree(&rows), nodes);
    assert_eq!(rows[0]["kind"], "start");
    assert!(rows.iter().all(|r| r["board"] == "9x9"));
    // A second run does not replace the trace unless told to.
    queendom()
        .args(["solve", "4", "--trace"])
        .arg(&trace)
        .assert()
        .code(2);
}

#[test]
fn an_nqueens_trace_counts_every_placement_once() {
    let dir = TempDir::new().unwrap();
    let trace = dir.path().join("t.csv");
    queendom()
        .args(["nqueens", "10", "-j", "2", "-o"])
        .arg(dir.path().join("counts.csv"))
        .arg("--trace")
        .arg(&trace)
        .assert()
        .success();
    let rows = rows(&trace);
    // The split, then every piece.
    assert_eq!(rows[0]["children"], "each");
    assert_eq!(check_tree(&rows), 724);
}

/// `scripts/scaling.py TRACE --threads 1,2,64 --json [extra]`: its summary.
fn replay(trace: &Path, extra: &[&str]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/scaling.py");
    let out = Process::new("python3")
        .arg(&script)
        .arg(trace)
        .args(["--threads", "1,2,64", "--json"])
        .args(extra)
        .output()
        .expect("python3 runs scripts/scaling.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The replay on one worker takes the tasks' CPU seconds plus the serial gaps it reports, and more
/// workers never take longer.
fn check_replay(summary: &serde_json::Value, rows: &[HashMap<String, String>]) {
    let cpu: f64 = rows
        .iter()
        .map(|r| r["cpu_seconds"].parse::<f64>().unwrap())
        .sum();
    let gaps = summary["serial_gap_seconds"].as_f64().unwrap();
    let predicted = |k: usize| summary["rows"][k]["predicted_seconds"].as_f64().unwrap();
    assert!(
        (predicted(0) - (cpu + gaps)).abs() < 1e-6 * (1.0 + cpu),
        "{summary}"
    );
    assert!(predicted(1) <= predicted(0) && predicted(2) <= predicted(1));
    assert_eq!(summary["tasks"].as_u64().unwrap(), rows.len() as u64);
}

/// The nodes column of a table csv, added up.
fn table_nodes(path: &Path) -> u64 {
    let mut r = csv::Reader::from_path(path).unwrap();
    let nodes = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "nodes")
        .unwrap();
    r.records()
        .map(|rec| rec.unwrap()[nodes].parse::<u64>().unwrap())
        .sum()
}

#[test]
fn a_side_by_side_table_traces_one_job_per_board_and_replays_its_cpu_seconds() {
    let dir = TempDir::new().unwrap();
    let (trace, table) = (dir.path().join("t.csv"), dir.path().join("table.csv"));
    // 8x5 and 8x6 are the transposes of 5x8 and 6x8: one job each pair.
    queendom()
        .args([
            "table", "--rows", "5-8", "--cols", "5,6,8", "-j", "2", "--trace",
        ])
        .arg(&trace)
        .arg("-o")
        .arg(&table)
        .assert()
        .success();
    let rows = rows(&trace);
    assert_eq!(check_tree(&rows), table_nodes(&table));
    let jobs: Vec<&HashMap<String, String>> =
        rows.iter().filter(|r| r["kind"] == "board").collect();
    let mut searched: Vec<&str> = jobs.iter().map(|r| r["board"].as_str()).collect();
    searched.sort();
    assert_eq!(
        searched,
        ["5x5", "5x6", "5x7", "5x8", "6x6", "6x7", "6x8", "7x8", "8x8"]
    );
    // Started largest first: the path is the place in that order.
    let mut places: Vec<(usize, usize)> = jobs
        .iter()
        .map(|r| {
            let (a, b) = r["board"].split_once('x').unwrap();
            let area = a.parse::<usize>().unwrap() * b.parse::<usize>().unwrap();
            (r["path"].parse::<usize>().unwrap(), area)
        })
        .collect();
    places.sort();
    assert!(places.iter().enumerate().all(|(k, p)| p.0 == k));
    assert!(places.windows(2).all(|w| w[0].1 >= w[1].1), "{places:?}");
    // Every start and every search runs in its board's job.
    for r in &rows {
        let job = rows.iter().find(|j| j["id"] == r["parent"]);
        match r["kind"].as_str() {
            "board" => assert!(r["parent"].is_empty()),
            "start" => assert_eq!(job.unwrap()["kind"], "board"),
            _ if r["path"] == "root" => assert_eq!(job.unwrap()["kind"], "board"),
            _ => {}
        }
    }
    let summary = replay(&trace, &[]);
    assert_eq!(summary["board_jobs"].as_u64(), Some(jobs.len() as u64));
    assert_eq!(summary["serial_gap_seconds"].as_f64(), Some(0.0));
    check_replay(&summary, &rows);
}

#[test]
fn a_checkpointed_table_is_traced_one_board_after_the_other() {
    let dir = TempDir::new().unwrap();
    let trace = dir.path().join("t.csv");
    queendom()
        .args([
            "table", "--rows", "5-8", "--cols", "8", "-j", "2", "-o", "-", "--trace",
        ])
        .arg(&trace)
        .arg("--checkpoint")
        .arg(dir.path().join("ck"))
        .assert()
        .success();
    let rows = rows(&trace);
    check_tree(&rows);
    assert!(rows.iter().all(|r| r["kind"] != "board"));
    let summary = replay(&trace, &[]);
    assert_eq!(summary["board_jobs"].as_u64(), Some(0));
    check_replay(&summary, &rows);
    // The what-if: the same searches run as a side-by-side table runs them; no serial gaps.
    let summary = replay(&trace, &["--side-by-side", "--order", "area"]);
    assert_eq!(summary["board_jobs"].as_u64(), Some(4));
    assert_eq!(summary["serial_gap_seconds"].as_f64(), Some(0.0));
    check_replay(&summary, &rows);
}

/// `plan 13x13 -i --parts 6` into `dir`/run.
fn plan_13x13_i_in_parts(dir: &TempDir) -> std::path::PathBuf {
    let run = dir.path().join("run");
    queendom()
        .args(["plan", "13x13", "-i", "--parts", "6", "-o"])
        .arg(&run)
        .assert()
        .success();
    run
}

#[test]
fn a_plans_parts_trace_their_own_tasks_one_file_each() {
    let dir = TempDir::new().unwrap();
    let run = plan_13x13_i_in_parts(&dir);
    let plan = read_json(&run.join("plan.json"));
    let parts = plan["parts"].as_array().unwrap();
    assert!(parts.len() >= 6, "{} parts", parts.len());
    let pattern = dir.path().join("part-{part}.csv");
    for k in 0..parts.len() {
        queendom()
            .arg("work")
            .arg(&run)
            .args(["--part", &k.to_string(), "-j", "2", "--trace"])
            .arg(&pattern)
            .assert()
            .success();
        let trace = dir.path().join(format!("part-{k}.csv"));
        let rows = rows(&trace);
        let report = read_json(&run.join(format!("results/part-{k:06}.json")));
        // A part is one search, from its own place in the tree: its first task is the part.
        assert_eq!(rows[0]["parent"], "");
        assert_eq!(
            rows[0]["path"],
            report["path"].as_str().unwrap(),
            "part {k}"
        );
        assert!(rows.iter().all(|r| r["board"] == "13x13"));
        assert_eq!(
            check_tree(&rows),
            report["nodes"].as_u64().unwrap(),
            "part {k}"
        );
        if k % 8 == 0 {
            check_replay(&replay(&trace, &[]), &rows);
        }
    }
    // A finished part is not run again, so its trace is left alone; a part run again does not
    // replace a trace unless told to, and keeps its result when the trace cannot be written.
    std::fs::remove_file(run.join("results/part-000000.json")).unwrap();
    queendom()
        .arg("work")
        .arg(&run)
        .args(["--part", "0", "--trace"])
        .arg(&pattern)
        .assert()
        .code(2);
    assert!(!run.join("results/part-000000.json").exists());
    queendom()
        .arg("work")
        .arg(&run)
        .args(["--part", "0", "--force", "--trace"])
        .arg(&pattern)
        .assert()
        .success();
    assert!(run.join("results/part-000000.json").exists());
    queendom()
        .arg("work")
        .arg(&run)
        .args(["--part", "0", "--force"])
        .assert()
        .code(2);
}

#[test]
fn on_one_thread_a_part_is_not_split_into_tasks() {
    // Splitting a part into tasks is for sharing it among threads. On one thread it only costs:
    // each task's root is searched without what its parent knew (γ(14x14) in 223 parts searched
    // 532 640 nodes split, 449 316 not).
    let dir = TempDir::new().unwrap();
    let run = plan_13x13_i_in_parts(&dir);
    let split = |rows: &[HashMap<String, String>]| {
        rows.iter()
            .filter(|r| r["children"] == "adaptive" || r["children"] == "each")
            .count()
    };
    let work = |threads: &str, name: &str| -> usize {
        let pattern = dir.path().join(format!("{name}-{{part}}.csv"));
        let mut splits = 0;
        let _ = std::fs::remove_dir_all(run.join("results"));
        for k in 0..6 {
            queendom()
                .arg("work")
                .arg(&run)
                .args(["--part", &k.to_string(), "-j", threads, "--trace"])
                .arg(&pattern)
                .assert()
                .success();
            let rows = rows(&dir.path().join(format!("{name}-{k}.csv")));
            splits += split(&rows);
        }
        splits
    };
    assert_eq!(work("1", "one"), 0);
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        assert!(
            work("2", "two") > 0,
            "with two threads the parts are shared"
        );
    }
}
