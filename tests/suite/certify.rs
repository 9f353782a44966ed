//! Certified merges (issue 25): `merge` prints an answer only if every part's claim reaches it
//! and the parts cover the search tree. Each forged run below used to merge to a wrong answer
//! with exit 0.

use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::{queendom, read_json, write_json};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = queendom().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "queendom {args:?}: {err}");
    out
}

/// A finished run of `args` in `dir`.
fn finished_run(dir: &Path, args: &[&str]) {
    let mut all = vec!["plan"];
    all.extend(args);
    all.extend(["-o", dir.to_str().unwrap()]);
    ok(&all);
    ok(&[
        "work",
        dir.to_str().unwrap(),
        "--next",
        "--until-done",
        "-j",
        "1",
    ]);
}

fn results(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join("results")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// A copy of run `from` as `to`, every result passed through `edit`.
fn forged(from: &Path, to: &Path, edit: impl Fn(&mut Value)) {
    std::fs::create_dir_all(to.join("results")).unwrap();
    std::fs::copy(from.join("plan.json"), to.join("plan.json")).unwrap();
    for f in results(from) {
        let mut v = read_json(&f);
        edit(&mut v);
        write_json(&to.join("results").join(f.file_name().unwrap()), &v);
    }
}

/// Rewrite a run's plan with `edit` (which may drop or add parts), then give the plan and every
/// result the new plan's id and part numbers, as a forger would.
fn replan(dir: &Path, edit: impl Fn(&mut Value)) {
    let file = dir.join("plan.json");
    let old = read_json(&file);
    let mut plan = old.clone();
    edit(&mut plan);
    // The id leaves a measured cost out; without one it is the SHA-256 of the file.
    plan.as_object_mut().unwrap().remove("cost");
    let mut bytes = serde_json::to_vec_pretty(&plan).unwrap();
    bytes.push(b'\n');
    std::fs::write(&file, &bytes).unwrap();
    let id = queendom::plan::plan_id(&bytes);
    let paths: Vec<String> = plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_string())
        .collect();
    for f in results(dir) {
        let mut v = read_json(&f);
        std::fs::remove_file(&f).unwrap();
        let Some(k) = paths.iter().position(|p| p == v["path"].as_str().unwrap()) else {
            continue;
        };
        v["plan"] = Value::from(id.clone());
        v["part"] = Value::from(k);
        write_json(&dir.join("results").join(format!("part-{k:06}.json")), &v);
    }
}

fn refused(dir: &Path, expected: &[&str]) {
    let (code, out, err) = run(&["merge", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "merge of a forged run must be refused: {out}{err}");
    assert!(out.is_empty(), "{out}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in: {err}");
    }
}

#[test]
fn hiding_the_layouts_a_part_found_is_refused() {
    let dir = TempDir::new().unwrap();
    let good = dir.path().join("good");
    finished_run(&good, &["13x13", "-i", "--parts", "16"]);
    assert!(ok(&["merge", good.to_str().unwrap()]).starts_with("i(13x13) = 7\n"));
    // The parts that found 7-queen layouts now claim to have found nothing below 7: the merge
    // used to print i(13x13) = 8 (the truth is 7).
    let bad = dir.path().join("bad");
    forged(&good, &bad, |v| {
        if v["found"]["queens"] == 7 {
            v["found"] = Value::Null;
            v["bound_queens"] = Value::from(7);
            v["bound_rank"] = Value::from(0);
        }
    });
    refused(&bad, &["proves only", "fewer than 7 queens"]);
}

#[test]
fn a_bound_below_the_answer_is_refused() {
    let dir = TempDir::new().unwrap();
    let good = dir.path().join("good");
    finished_run(&good, &["14x14", "--parts", "16"]);
    let bad = dir.path().join("bad");
    forged(&good, &bad, |v| v["bound_queens"] = Value::from(1));
    refused(&bad, &["part 0 proves only", "fewer than 1 queen,"]);
    // One part is enough.
    let one = dir.path().join("one");
    forged(&good, &one, |v| {
        if v["part"] == 3 {
            v["bound_queens"] = Value::from(7)
        }
    });
    refused(&one, &["part 3 proves only", "fewer than 7 queens"]);
}

#[test]
fn a_worse_start_layout_is_refused() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    finished_run(&run_dir, &["14x14", "--parts", "16"]);
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    assert!(merged.starts_with("γ(14x14) = 8\n"), "{merged}");
    // A valid 9-queen start (the 8-queen one and r14c14), plan id rewritten: the merge used to
    // print γ(14x14) = 9.
    replan(&run_dir, |plan| {
        let start = plan["boards"][0]["start"].as_str().unwrap().to_string();
        assert!(!start.contains("r14c14"));
        plan["boards"][0]["start"] = Value::from(format!("{start} r14c14"));
    });
    refused(
        &run_dir,
        &["fewer than 8 queens", "9 queens, the start layout"],
    );
}

#[test]
fn a_plan_that_leaves_out_a_part_is_refused() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    finished_run(&run_dir, &["13x13", "-i", "--parts", "16"]);
    // Drop a part that found nothing, and its result: every other claim still reaches the answer,
    // but a subtree of the search was never searched.
    let dropped = results(&run_dir)
        .iter()
        .map(|f| read_json(f))
        .filter(|v| v["found"].is_null() && v["nodes"].as_u64().unwrap() > 0)
        .max_by_key(|v| v["nodes"].as_u64().unwrap())
        .expect("some part searched and found nothing");
    let path = dropped["path"].as_str().unwrap().to_string();
    replan(&run_dir, |plan| {
        plan["parts"]
            .as_array_mut()
            .unwrap()
            .retain(|p| p["path"] != path.as_str());
    });
    refused(&run_dir, &["leaves out the subtree", &path]);
}

#[test]
fn overlapping_parts_are_refused() {
    let dir = TempDir::new().unwrap();
    let (coarse, fine) = (dir.path().join("coarse"), dir.path().join("fine"));
    ok(&[
        "plan",
        "14x14",
        "--parts",
        "4",
        "-o",
        coarse.to_str().unwrap(),
    ]);
    ok(&[
        "plan",
        "14x14",
        "--parts",
        "60",
        "-o",
        fine.to_str().unwrap(),
    ]);
    let fine_plan = read_json(&fine.join("plan.json"));
    let coarse_plan = read_json(&coarse.join("plan.json"));
    let coarse_paths: Vec<String> = coarse_plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_string())
        .collect();
    // A part of the fine plan inside a part of the coarse one, added to the coarse plan.
    let inside = fine_plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            let path = p["path"].as_str().unwrap();
            coarse_paths
                .iter()
                .any(|c| c != "root" && path.starts_with(&format!("{c}.")))
        })
        .expect("the fine plan cuts a coarse part")
        .clone();
    replan(&coarse, |plan| {
        let parts = plan["parts"].as_array_mut().unwrap();
        parts.push(inside.clone());
        let key = |p: &Value| -> Vec<u32> {
            p["path"]
                .as_str()
                .unwrap()
                .split('.')
                .map(|t| t.parse().unwrap())
                .collect()
        };
        parts.sort_by_key(key);
    });
    ok(&[
        "work",
        coarse.to_str().unwrap(),
        "--next",
        "--until-done",
        "-j",
        "1",
    ]);
    refused(&coarse, &["overlap"]);
}

#[test]
fn impossible_and_overflowing_counts_are_refused() {
    let dir = TempDir::new().unwrap();
    let good = dir.path().join("good");
    finished_run(&good, &["12x12", "--count", "--parts", "10"]);
    let merged = ok(&["merge", good.to_str().unwrap()]);
    assert!(merged.contains("layouts: 8\nclasses: 1"), "{merged}");
    assert!(results(&good).len() >= 2);
    let (a, b) = (0, 1);
    // 2^64 - 1 + 9 used to wrap around to "layouts: 8".
    let wrap = dir.path().join("wrap");
    forged(&good, &wrap, |v| {
        let k = v["part"].as_u64().unwrap() as usize;
        if k == a {
            v["count"]["layouts"] = Value::from(u64::MAX);
            v["count"]["classes"] = Value::from(u64::MAX / 8 + 1);
        } else if k == b {
            v["count"]["layouts"] = Value::from(9);
            v["count"]["classes"] = Value::from(2);
        }
    });
    // The part whose number takes the sum past 2^64 - 1 is named, with the field.
    refused(
        &wrap,
        &["results/part-000001.json", "its count.layouts", "beyond"],
    );
    // More classes than layouts, or more layouts than 8 per class: no part can hold them.
    for (layouts, classes) in [(3, 4), (17, 2)] {
        let bad = dir.path().join(format!("bad-{layouts}"));
        forged(&good, &bad, |v| {
            if v["part"] == a {
                v["count"]["layouts"] = Value::from(layouts);
                v["count"]["classes"] = Value::from(classes);
            }
        });
        refused(&bad, &["counts cannot be"]);
    }
    // Times that add up to infinity are refused, not printed as "inf s".
    let inf = dir.path().join("inf");
    forged(&good, &inf, |v| v["cpu_seconds"] = Value::from(1.0e308));
    refused(&inf, &["results/part-000001.json", "its cpu_seconds"]);
    // Nodes that overflow.
    let nodes = dir.path().join("nodes");
    forged(&good, &nodes, |v| v["nodes"] = Value::from(u64::MAX / 2));
    refused(&nodes, &["results/part-000002.json", "its nodes"]);
}

#[test]
fn an_audit_catches_a_part_that_hid_the_optimum() {
    let dir = TempDir::new().unwrap();
    let good = dir.path().join("good");
    finished_run(&good, &["13x13", "-i", "--parts", "16"]);
    let audit = ok(&["audit", good.to_str().unwrap(), "--sample", "100%"]);
    assert!(audit.contains("every audited claim holds"), "{audit}");
    // Every part claims nothing below the start's 10 queens, consistently: the merge cannot tell
    // and prints i(13x13) = 10.
    let start = read_json(&good.join("plan.json"))["boards"][0]["start"]
        .as_str()
        .unwrap()
        .split(' ')
        .count();
    let holders: Vec<u64> = results(&good)
        .iter()
        .map(|f| read_json(f))
        .filter(|v| v["found"]["queens"] == 7)
        .map(|v| v["part"].as_u64().unwrap())
        .collect();
    assert!(!holders.is_empty());
    let bad = dir.path().join("bad");
    forged(&good, &bad, |v| {
        v["found"] = Value::Null;
        v["bound_queens"] = Value::from(start);
        v["bound_rank"] = Value::from(0);
    });
    let merged = ok(&["merge", bad.to_str().unwrap()]);
    assert!(
        merged.starts_with(&format!("i(13x13) = {start}\n")),
        "{merged}"
    );
    // The audit of a part that held a 7-queen layout finds it.
    let k = holders[0].to_string();
    let (code, out, err) = run(&["audit", bad.to_str().unwrap(), "--parts", &k, "-j", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(&format!("part {k} (")), "{out}");
    assert!(
        out.contains("FAILS: its subtree holds a layout of 7 queens"),
        "{out}"
    );
    assert!(err.contains(&format!(": {k} (their results")), "{err}");
    // So does the plain search, which shares none of the kernel's pruning, and it holds on the
    // good run; a budget too small to finish a part fails the audit rather than pass it.
    let (code, out, _) = run(&["audit", bad.to_str().unwrap(), "--parts", &k, "--plain"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILS: the plain search finds a layout of 7 queens"),
        "{out}"
    );
    let plain = ok(&[
        "audit",
        good.to_str().unwrap(),
        "--sample",
        "25%",
        "--plain",
    ]);
    assert!(plain.contains("every audited claim holds"), "{plain}");
    let (code, out, _) = run(&[
        "audit",
        good.to_str().unwrap(),
        "--parts",
        &k,
        "--plain",
        "10",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("did not finish it within 10 nodes"), "{out}");
    // So does a 100% audit, naming every part that hid one.
    let (code, out, _) = run(&["audit", bad.to_str().unwrap(), "--sample", "100%"]);
    assert_eq!(code, 1);
    for k in &holders {
        assert!(out.contains(&format!("part {k} (")), "{out}");
    }
    // A sample is reproducible from its seed; --list gives it in Slurm array syntax.
    let list = |seed: &str| {
        ok(&[
            "audit",
            good.to_str().unwrap(),
            "--sample",
            "20%",
            "--seed",
            seed,
            "--list",
        ])
    };
    assert_eq!(list("5"), list("5"));
    assert!(list("5")
        .trim()
        .split(',')
        .all(|t| t.split('-').all(|n| n.parse::<usize>().is_ok())));
}

#[test]
fn an_audit_checks_counts_and_refuses_bad_arguments() {
    let dir = TempDir::new().unwrap();
    let good = dir.path().join("good");
    finished_run(&good, &["12x12", "--count", "--parts", "10"]);
    let audit = ok(&["audit", good.to_str().unwrap(), "--sample", "1"]);
    assert!(audit.contains("every audited claim holds"), "{audit}");
    // A part that moved its layouts to another: the sums still add up, the parts do not.
    let holder = results(&good)
        .iter()
        .map(|f| read_json(f))
        .find(|v| v["count"]["layouts"] == 8)
        .unwrap()["part"]
        .as_u64()
        .unwrap();
    let other = if holder == 0 { 1 } else { 0 };
    let bad = dir.path().join("bad");
    forged(&good, &bad, |v| {
        if v["part"] == holder {
            v["count"]["layouts"] = Value::from(0);
            v["count"]["classes"] = Value::from(0);
        } else if v["part"] == other {
            v["count"]["layouts"] = Value::from(8);
            v["count"]["classes"] = Value::from(1);
        }
    });
    ok(&["merge", bad.to_str().unwrap()]);
    let (code, out, _) = run(&["audit", bad.to_str().unwrap(), "--sample", "100%"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAILS: it holds 0 layouts in 0 classes, its result claims 8 in 1"),
        "{out}"
    );
    for bad_args in [
        vec!["--sample", "0%"],
        vec!["--sample", "150%"],
        vec!["--sample", "x"],
        vec!["--parts", "99999"],
        vec!["--parts", "3-1"],
    ] {
        let mut args = vec!["audit", good.to_str().unwrap()];
        args.extend(bad_args.iter());
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{bad_args:?}: {err}");
    }
    // A run with a part missing is not audited.
    std::fs::remove_file(&results(&good)[0]).unwrap();
    let (code, _, err) = run(&["audit", good.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no result yet"), "{err}");
}
