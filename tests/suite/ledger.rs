//! The run directory as a ledger that no fault corrupts: a split killed at any of its steps leaves
//! a directory that `status` reads and the same command completes, keeping every result; a run's
//! own output is never written into its ledger; a hand-edited plan is refused alike by every
//! command that reads it.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::common::{claim_order, copy_dir, queendom};

/// The number of steps of a split at which `QUEENDOM_FAULT=split:kill:K` kills it
/// (`queendom::plan::run_dir::SPLIT_STEPS`).
const SPLIT_STEPS: u32 = queendom::plan::run_dir::SPLIT_STEPS;

fn run_env(env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let out = queendom()
        .envs(env.iter().copied())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_env(&[], args)
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "queendom {args:?}: {err}");
    out
}

fn status_json(run_dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(&["status", run_dir.to_str().unwrap(), "--json"])).unwrap()
}

/// Every file under `dir` with its bytes, by path relative to `dir`.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if dir.is_file() {
        return vec![(PathBuf::new(), fs::read(dir).unwrap())];
    }
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// A run of 11x11 in 8 parts, three of them done (with their attempts), and the part of rank 0
/// (the largest, not done) to split.
fn template(dir: &Path) -> (PathBuf, String) {
    let run_dir = dir.join("template");
    let d = run_dir.to_str().unwrap();
    ok(&["plan", "11x11", "-i", "--parts", "8", "-o", d]);
    for r in 1..=3 {
        ok(&["work", d, "--rank", &r.to_string(), "-j", "1"]);
    }
    let status = status_json(&run_dir);
    assert_eq!(status["done"], 3);
    // Rank 0, the first part in claim order: the largest estimate.
    let largest = claim_order(&run_dir)[0];
    (run_dir, largest.to_string())
}

#[test]
fn a_split_killed_at_any_step_is_completed_or_undone_and_keeps_every_result() {
    let dir = TempDir::new().unwrap();
    let (template, part) = template(dir.path());
    let before = status_json(&template);
    // The split that nothing stops: what every interrupted one must end as.
    let clean = dir.path().join("clean");
    copy_dir(&template, &clean);
    ok(&["plan", clean.to_str().unwrap(), "--split", &part]);
    let after = status_json(&clean);
    assert_ne!(after["plan"], before["plan"]);
    assert_eq!(after["done"], 3);
    let history = format!("split-{}", &before["plan"].as_str().unwrap()[..12]);
    let ledger = |run_dir: &Path| {
        ["plan.json", "results", "attempts", &history]
            .map(|entry| files(&run_dir.join(entry)))
            .to_vec()
    };
    let expected = ledger(&clean);
    assert!(!clean.join("staging").exists());

    for k in 1..=SPLIT_STEPS {
        let killed = dir.path().join(format!("killed-{k}"));
        copy_dir(&template, &killed);
        let fault = format!("split:kill:{k}");
        let (code, _, err) = run_env(
            &[("QUEENDOM_FAULT", &fault)],
            &["plan", killed.to_str().unwrap(), "--split", &part],
        );
        assert_eq!(code, 137, "step {k} is no step of the split: {err}");
        // `status` reads what the kill left: the old run (the split undone: steps 1-3) or the
        // new one (the split completed: from step 4, the commit), never a mixture, and every
        // result is kept.
        let read = dir.path().join(format!("read-{k}"));
        copy_dir(&killed, &read);
        let status = status_json(&read);
        let text = ok(&["status", read.to_str().unwrap()]);
        assert!(!read.join("staging").exists(), "step {k}: {text}");
        assert!(!read.join("split.commit").exists(), "step {k}: {text}");
        assert_eq!(status["done"], 3, "step {k}: {text}");
        if k < 4 {
            assert_eq!(status["plan"], before["plan"], "step {k}: {text}");
            assert_eq!(ledger(&read), ledger(&template), "step {k}");
        } else {
            assert_eq!(status["plan"], after["plan"], "step {k}: {text}");
            assert_eq!(ledger(&read), expected, "step {k}");
        }
        // The same command again ends as the split that nothing stopped.
        let d = killed.to_str().unwrap();
        let out = ok(&["plan", d, "--split", &part]);
        assert_eq!(ledger(&killed), expected, "step {k}: {out}");
        assert!(!killed.join("staging").exists(), "step {k}");
        assert!(!killed.join("split.commit").exists(), "step {k}");
        if k == SPLIT_STEPS {
            // No finished part is searched again, and the run merges as the clean one.
            ok(&["work", d, "--next", "--until-done", "-j", "1"]);
            let clean_dir = clean.to_str().unwrap();
            ok(&["work", clean_dir, "--next", "--until-done", "-j", "1"]);
            assert_eq!(
                answer(&ok(&["merge", d])),
                answer(&ok(&["merge", clean_dir]))
            );
            assert_eq!(
                answer(&ok(&["merge", d])),
                answer(&ok(&["solve", "11x11", "-i", "-j", "1"]))
            );
        }
    }
}

/// A kill before the commit at step 4 may leave a staging area that a worker finds first: the
/// worker removes it (it takes the plan lock) and runs the old plan; one killed after the commit
/// leaves a split that the worker completes before it claims a part.
#[test]
fn a_worker_completes_or_undoes_a_killed_split_before_it_claims() {
    let dir = TempDir::new().unwrap();
    let (template, part) = template(dir.path());
    let before = status_json(&template);
    for (k, split) in [(3, false), (9, true)] {
        let run_dir = dir.path().join(format!("killed-{k}"));
        copy_dir(&template, &run_dir);
        let d = run_dir.to_str().unwrap();
        let fault = format!("split:kill:{k}");
        let (code, _, err) = run_env(
            &[("QUEENDOM_FAULT", &fault)],
            &["plan", d, "--split", &part],
        );
        assert_eq!(code, 137, "{err}");
        assert!(run_dir.join("staging").is_dir());
        ok(&["work", d, "--next", "-j", "1"]);
        assert!(!run_dir.join("staging").exists());
        let status = status_json(&run_dir);
        assert_eq!(status["plan"] != before["plan"], split, "step {k}");
        assert_eq!(status["done"], 4, "step {k}");
    }
}

/// The answer lines of `solve`/`merge`: everything but the measurement line.
fn answer(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with('('))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn merge_never_writes_into_its_own_ledger() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let d = run_dir.to_str().unwrap();
    ok(&["plan", "6x6", "--parts", "4", "-o", d]);
    ok(&["work", d, "--next", "--until-done", "-j", "1"]);
    std::os::unix::fs::symlink(run_dir.join("results"), dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink(
        run_dir.join("results/answer.txt"),
        dir.path().join("dangling.txt"),
    )
    .unwrap();
    fs::create_dir(dir.path().join("elsewhere")).unwrap();
    let ledger_before = files(&run_dir);
    let inside = [
        "run/results/answer.txt",
        "run/plan.json",
        "run/claims/answer.txt",
        "run/attempts/answer.txt",
        "run/staging/answer.txt",
        "run/split.commit",
        "run/results/../plan.json",
        "elsewhere/../run/results/x.txt",
        "./run//results/x.txt",
        "link/answer.txt",
        "dangling.txt",
        "run/results",
    ];
    for output in inside {
        for force in [false, true] {
            let mut args = vec!["merge", "run", "-o", output];
            if force {
                args.push("--force");
            }
            let out = queendom()
                .current_dir(dir.path())
                .args(&args)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{output}: {err}");
            assert_eq!(err.lines().count(), 1, "{output}: {err}");
            assert!(err.contains("inside the ledger of the run"), "{err}");
            assert_eq!(files(&run_dir), ledger_before, "{output} changed the run");
        }
    }
    // Beside the ledger is fine, and the run still merges and reads.
    let out = queendom()
        .current_dir(dir.path())
        .args(["merge", "run", "-o", "run/answer.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    ok(&["merge", d]);
    ok(&["status", d]);
}

#[test]
fn a_table_plan_with_an_invalid_axis_is_refused_by_every_reader() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let d = run_dir.to_str().unwrap();
    ok(&[
        "plan", "--rows", "2-3", "--cols", "3-4", "--parts", "4", "-o", d,
    ]);
    let path = run_dir.join("plan.json");
    let text = fs::read_to_string(&path).unwrap();
    let mut plan: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (axes, says) in [
        (serde_json::json!({"rows": [0], "cols": [3]}), "rows hold 0"),
        (
            serde_json::json!({"rows": [2], "cols": [3, 100000]}),
            "cols hold 100000",
        ),
        (
            serde_json::json!({"rows": [2, 5], "cols": [3]}),
            "its table holds 5x3",
        ),
    ] {
        plan["table"] = axes;
        fs::write(&path, serde_json::to_vec_pretty(&plan).unwrap()).unwrap();
        for args in [
            vec!["status", d],
            vec!["status", d, "--json"],
            vec!["work", d, "--next"],
            vec!["merge", d],
            vec!["audit", d],
            vec!["plan", d, "--split", "0"],
        ] {
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains("plan.json") && err.contains(says),
                "{args:?}: {err}"
            );
        }
    }
}
