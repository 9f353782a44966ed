//! Plans across processes: `plan`, `work`, `status`, `merge`, and `--checkpoint`. Whatever order
//! or processes run the parts, the merged answer is `solve`'s (or `table`'s, or `count`'s); a
//! killed part leaves nothing, foreign, truncated or forged results are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::{claim_order, queendom, read_json, without_measurements, write_json};
use tempfile::TempDir;

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

/// The answer lines of `solve`/`merge`/`count`: everything but the measurement line.
fn answer(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with('('))
        .collect::<Vec<_>>()
        .join("\n")
}

fn parts(dir: &Path) -> usize {
    let status = ok(&["status", dir.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&status).unwrap();
    v["parts"].as_u64().unwrap() as usize
}

fn work(dir: &Path, k: usize) {
    ok(&[
        "work",
        dir.to_str().unwrap(),
        "--part",
        &k.to_string(),
        "-j",
        "1",
    ]);
}

fn plan(dir: &Path, args: &[&str]) -> usize {
    let mut all = vec!["plan"];
    all.extend(args);
    all.extend(["-o", dir.to_str().unwrap()]);
    ok(&all);
    parts(dir)
}

/// A fixed shuffle of 0..n, different for each `seed`.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    order
}

#[test]
fn merged_answers_do_not_depend_on_the_order_of_the_parts() {
    // 14x14: the start layout is optimal, the parts prove it. The independent ones find better
    // layouts in many parts, so the tie-breaking between parts is tested too.
    for board in [vec!["14x14"], vec!["14x14", "-i"], vec!["11x14", "-i"]] {
        let expected = answer(&ok(&[&["solve"], &board[..]].concat()));
        for seed in 1..=3 {
            let dir = TempDir::new().unwrap();
            let run_dir = dir.path().join("run");
            let mut args = board.clone();
            args.extend(["--parts", "40"]);
            let n = plan(&run_dir, &args);
            assert!(n > 1, "{board:?}: {n} parts");
            for k in shuffled(n, seed) {
                work(&run_dir, k);
            }
            let merged = ok(&["merge", run_dir.to_str().unwrap()]);
            assert_eq!(answer(&merged), expected, "{board:?}, order {seed}");
        }
    }
}

#[test]
fn next_claims_the_largest_estimate_first() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["14x14", "-i", "--parts", "60"]);
    let expected = claim_order(&run_dir);
    // Not simply plan order, or this test would show nothing.
    assert_ne!(expected, (0..n).collect::<Vec<_>>());
    for &k in &expected[..5] {
        let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--next", "-j", "1"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!("part {k} done")),
            "expected part {k}: {err}"
        );
    }
}

#[test]
fn a_rank_names_the_part_in_claim_order_and_so_does_a_slurm_task() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let d = run_dir.to_str().unwrap();
    let n = plan(&run_dir, &["13x13", "-i", "--parts", "60"]);
    let order = claim_order(&run_dir);
    assert_ne!(
        order[0], 0,
        "the largest part is not the first: else this shows nothing"
    );
    let (code, _, err) = run(&["work", d, "--rank", "3", "-j", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("part {} done", order[3])), "{err}");
    let out = queendom()
        .args(["work", d, "-j", "1"])
        .env("SLURM_ARRAY_TASK_ID", "0")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("part {} done", order[0])), "{err}");
    // Every rank once is every part once: an array 0..N-1 over the ranks proves the board.
    for r in 0..n {
        let (code, _, err) = run(&["work", d, "--rank", &r.to_string(), "-j", "1"]);
        assert_eq!(code, 0, "rank {r}: {err}");
    }
    assert_eq!(
        answer(&ok(&["merge", d])),
        answer(&ok(&["solve", "13x13", "-i"]))
    );
    let (code, _, err) = run(&["work", d, "--rank", &n.to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("rank {n} does not exist")), "{err}");
    let (code, _, err) = run(&["work", d, "--rank", "0", "--part", "0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn two_processes_share_a_plan_with_next() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    plan(&run_dir, &["14x14", "-i", "--parts", "60"]);
    let worker = || {
        let path = run_dir.clone();
        std::thread::spawn(move || {
            let mut runs = 0;
            loop {
                let out = queendom()
                    .args(["work", path.to_str().unwrap(), "--next", "-j", "1"])
                    .output()
                    .unwrap();
                match out.status.code() {
                    Some(0) => runs += 1,
                    Some(3) => return runs,
                    other => panic!(
                        "work --next: {other:?} {}",
                        String::from_utf8_lossy(&out.stderr)
                    ),
                }
            }
        })
    };
    let (a, b) = (worker(), worker());
    let total = a.join().unwrap() + b.join().unwrap();
    assert_eq!(total, parts(&run_dir), "every part run exactly once");
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(answer(&merged), answer(&ok(&["solve", "14x14", "-i"])));
    // Nothing left: --next says so with its own exit code.
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--next"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no part left"), "{err}");
}

#[test]
fn workers_that_run_until_done_share_a_plan_and_run_every_part_once() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["14x14", "-i", "--parts", "60"]);
    let worker = || {
        let path = run_dir.clone();
        std::thread::spawn(move || {
            let out = queendom()
                .args([
                    "work",
                    path.to_str().unwrap(),
                    "--next",
                    "--until-done",
                    "-j",
                    "1",
                ])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(0), "{err}");
            let ran: Vec<usize> = err
                .lines()
                .filter_map(|l| l.strip_prefix("queendom: part "))
                .filter_map(|l| l.split_once(" done"))
                .map(|(k, _)| k.parse().unwrap())
                .collect();
            let ran_text = match ran.len() {
                1 => "ran 1 part;".to_string(),
                n => format!("ran {n} parts;"),
            };
            assert!(err.contains(&ran_text), "{err}");
            ran
        })
    };
    let (a, b) = (worker(), worker());
    let mut ran = a.join().unwrap();
    ran.extend(b.join().unwrap());
    ran.sort();
    assert_eq!(
        ran,
        (0..n).collect::<Vec<_>>(),
        "every part run exactly once"
    );
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(answer(&merged), answer(&ok(&["solve", "14x14", "-i"])));
    // Nothing left: a worker that runs until done has done its share (exit 0, no part run).
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--next", "--until-done"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("ran 0 parts; no part left to claim"), "{err}");
    assert!(err.contains(&format!("({n} of {n} done)")), "{err}");
    // One trace file per part, or none: a fixed name would be overwritten part after part.
    let (code, _, err) = run(&[
        "work",
        run_dir.to_str().unwrap(),
        "--next",
        "--until-done",
        "--trace",
        "t.csv",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("{part}"), "{err}");
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--until-done"]);
    assert_eq!(code, 2, "--until-done without --next: {err}");
}

#[test]
fn a_table_plan_merges_into_the_table() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(
        &run_dir,
        &["--rows", "1-6", "--cols", "1-8", "--parts", "20"],
    );
    for k in (0..n).rev() {
        work(&run_dir, k);
    }
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    let table = ok(&["table", "--rows", "1-6", "--cols", "1-8", "-j", "1"]);
    assert_eq!(without_measurements(&merged), without_measurements(&table));
    // Every format: the grid too.
    let grid = dir.path().join("g.csv");
    ok(&[
        "merge",
        run_dir.to_str().unwrap(),
        "--format",
        "grid",
        "-o",
        grid.to_str().unwrap(),
    ]);
    let table_grid = ok(&[
        "table", "--rows", "1-6", "--cols", "1-8", "--format", "grid",
    ]);
    assert_eq!(std::fs::read_to_string(&grid).unwrap(), table_grid);
}

#[test]
fn a_count_plan_merges_into_the_count() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["8x8", "--count", "--parts", "10"]);
    for k in 0..n {
        work(&run_dir, k);
    }
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(answer(&merged), answer(&ok(&["count", "8x8"])));
    assert!(merged.contains("layouts: 4860\nclasses: 638"), "{merged}");
    // A count plan with a size below the minimum finds nothing: the merge says so.
    let low = dir.path().join("low");
    let n = plan(&low, &["8x8", "--count", "--queens", "4"]);
    for k in 0..n {
        work(&low, k);
    }
    let (code, _, err) = run(&["merge", low.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("no layout of 4 queens"), "{err}");
}

#[test]
fn a_count_plan_with_classes_lists_what_count_lists() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    // Many parts, so that the classes come from many results; i as well as γ.
    for (board, problem) in [("12x12", None), ("12x12", Some("-i"))] {
        let _ = std::fs::remove_dir_all(&run_dir);
        let mut args = vec![board, "--count", "--classes", "--parts", "40"];
        args.extend(problem);
        let n = plan(&run_dir, &args);
        assert!(n > 5, "{board}: {n} parts");
        for k in 0..n {
            work(&run_dir, k);
        }
        let merged = ok(&["merge", run_dir.to_str().unwrap()]);
        let mut count = vec!["count", board, "--classes"];
        count.extend(problem);
        assert_eq!(answer(&merged), answer(&ok(&count)), "{board}");
        assert!(merged.contains("(class of "), "{merged}");
    }
    // A result whose class list was edited is refused: by its reader (a class moved, one that
    // is not canonical, sizes that do not add up), or by the merge (a class another part has).
    let results: Vec<PathBuf> = std::fs::read_dir(run_dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let with_classes: Vec<(PathBuf, serde_json::Value)> = results
        .iter()
        .map(|p| (p.clone(), read_json(p)))
        .filter(|(_, v): &(PathBuf, serde_json::Value)| v["count"]["classes"].as_u64().unwrap() > 0)
        .collect();
    assert!(with_classes.len() >= 2);
    let (first, original) = &with_classes[0];
    // Exit 2, as for any foreign or forged result.
    let forge = |edit: &dyn Fn(&mut serde_json::Value), code_wanted: i32, want: &str| {
        let mut v = original.clone();
        edit(&mut v);
        write_json(first, &v);
        let (code, _, err) = run(&["merge", run_dir.to_str().unwrap()]);
        assert_eq!(code, code_wanted, "{err}");
        assert!(err.contains(want), "{want}: {err}");
    };
    forge(
        &|v| v["count"]["representatives"][0]["size"] = 3.into(),
        2,
        "is not a canonical layout with a class of 3",
    );
    forge(
        &|v| v["count"]["representatives"] = serde_json::json!([]),
        2,
        "but lists 0",
    );
    let other = with_classes[1].1["count"]["representatives"][0].clone();
    forge(
        &|v| {
            let n = v["count"]["representatives"].as_array().unwrap().len();
            let size = other["size"].as_u64().unwrap();
            v["count"]["representatives"][0] = other.clone();
            v["count"]["layouts"] = (v["count"]["layouts"].as_u64().unwrap()
                - original["count"]["representatives"][0]["size"]
                    .as_u64()
                    .unwrap()
                + size)
                .into();
            if n > 1 {
                // Keep the list in order: the class moved from another part sorts anywhere.
                let mut list = v["count"]["representatives"].as_array().unwrap().clone();
                list.sort_by(|a, b| {
                    let key = |x: &serde_json::Value| {
                        queendom::Layout::parse(
                            queendom::Board::new(12, 12).unwrap(),
                            x["layout"].as_str().unwrap(),
                        )
                        .unwrap()
                        .queens()
                        .to_vec()
                    };
                    key(a).cmp(&key(b))
                });
                v["count"]["representatives"] = list.into();
            }
        },
        2,
        "is counted by two parts",
    );
    write_json(first, original);
    ok(&["merge", run_dir.to_str().unwrap()]);
}

/// A board with many classes (5x16: 263,168), counted in parts by one worker: the merged list is
/// `count --classes`'s, line for line, whichever parts the classes came from.
#[test]
fn a_count_plan_of_many_classes_merges_to_what_count_lists() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(
        &run_dir,
        &["5x16", "--count", "--classes", "--parts", "8", "--no-cost"],
    );
    assert!(n > 2, "{n} parts");
    ok(&[
        "work",
        run_dir.to_str().unwrap(),
        "--next",
        "--until-done",
        "-j",
        "1",
    ]);
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    let counted = ok(&["count", "5x16", "--classes"]);
    assert!(
        counted.contains("classes: 263168 "),
        "{}",
        answer(&counted).lines().last().unwrap()
    );
    assert_eq!(answer(&merged), answer(&counted));
}

#[test]
fn a_killed_part_leaves_no_result_and_a_rerun_completes_the_merge() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    // One part, the whole 15x15 proof: seconds on one thread (14x14 now takes a fifth of a
    // second, and finished before the kill).
    let n = plan(&run_dir, &["15x15", "--parts", "1"]);
    assert_eq!(n, 1);
    let results = run_dir.join("results");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(["work", run_dir.to_str().unwrap(), "--part", "0", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Once it runs (its claim is taken), kill it without warning.
    let start = Instant::now();
    while !run_dir.join("claims").join("part-000000.lock").exists() {
        assert!(start.elapsed() < Duration::from_secs(60));
        sleep(Duration::from_millis(10));
    }
    sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!results.join("part-000000.json").exists());
    let (code, _, err) = run(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 of 1 parts have no result yet: 0"), "{err}");
    // The killed worker's claim died with it: the part can be run again, and twice is harmless.
    work(&run_dir, 0);
    let first = std::fs::read_to_string(results.join("part-000000.json")).unwrap();
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--part", "0"]);
    assert_eq!(code, 0);
    assert!(err.contains("already done"), "{err}");
    assert_eq!(
        std::fs::read_to_string(results.join("part-000000.json")).unwrap(),
        first
    );
    let status = ok(&["status", run_dir.to_str().unwrap()]);
    assert!(
        status.contains(&format!(
            "left: nothing: `queendom merge {}` gives the answer\n",
            run_dir.display()
        )),
        "{status}"
    );
    let merged = ok(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(answer(&merged), answer(&ok(&["solve", "15x15"])));
}

#[test]
fn foreign_truncated_and_forged_results_are_refused() {
    let dir = TempDir::new().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let n = plan(&a, &["11x11", "-i"]);
    plan(&b, &["11x12", "-i"]);
    for k in 0..n {
        work(&a, k);
    }
    let result = |dir: &Path, k: usize| dir.join("results").join(format!("part-{k:06}.json"));
    let merge_fails = |why: &str| {
        let (code, out, err) = run(&["merge", a.to_str().unwrap()]);
        assert_eq!(code, 2, "{why}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("part-000000.json"), "{why}: {err}");
    };
    let good = std::fs::read(result(&a, 0)).unwrap();
    // Another plan's result under this plan's name.
    work(&b, 0);
    std::fs::copy(result(&b, 0), result(&a, 0)).unwrap();
    merge_fails("another plan");
    // Truncated, as a full disk might leave it.
    std::fs::write(result(&a, 0), &good[..good.len() / 2]).unwrap();
    merge_fails("truncated");
    // A forged layout: fewer queens than found, not dominating.
    let text = String::from_utf8(good.clone()).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["found"] = serde_json::json!({"queens": 3, "rank": 0, "layout": "1:1 2:3 3:5"});
    std::fs::write(result(&a, 0), serde_json::to_vec(&v).unwrap()).unwrap();
    merge_fails("forged");
    // A stray file.
    std::fs::write(result(&a, 0), &good).unwrap();
    std::fs::write(a.join("results").join("notes.txt"), "hello").unwrap();
    let (code, _, err) = run(&["merge", a.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("notes.txt"), "{err}");
    std::fs::remove_file(a.join("results").join("notes.txt")).unwrap();
    assert_eq!(
        answer(&ok(&["merge", a.to_str().unwrap()])),
        answer(&ok(&["solve", "11x11", "-i"]))
    );
}

#[test]
fn bad_run_directories_and_parts_are_usage_errors() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["9x9", "--parts", "4"]);
    let d = run_dir.to_str().unwrap();
    // A plan never goes over anything.
    let (code, _, err) = run(&["plan", "9x9", "-o", d]);
    assert_eq!(code, 2);
    assert!(err.contains("not empty"), "{err}");
    let (code, _, err) = run(&["work", dir.path().to_str().unwrap(), "--part", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no plan"), "{err}");
    let (code, _, err) = run(&["work", d, "--part", &n.to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("does not exist"), "{err}");
    let (code, _, err) = run(&["work", d]);
    assert_eq!(code, 2, "no part and no SLURM_ARRAY_TASK_ID: {err}");
    // SLURM_ARRAY_TASK_ID names the part by its rank (see
    // `a_rank_names_the_part_in_claim_order_and_so_does_a_slurm_task`).
    let out = queendom()
        .args(["work", d])
        .env("SLURM_ARRAY_TASK_ID", "0")
        .output()
        .unwrap();
    assert!(out.status.success());
    let largest = claim_order(&run_dir)[0];
    assert!(run_dir
        .join(format!("results/part-{largest:06}.json"))
        .exists());
    let out = queendom()
        .args(["work", d])
        .env("SLURM_ARRAY_TASK_ID", "x1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // An edited plan is another plan: its id changes, and a damaged one is refused.
    let plan_file = run_dir.join("plan.json");
    let text = std::fs::read_to_string(&plan_file).unwrap();
    std::fs::write(
        &plan_file,
        text.replace("\"board\": \"9x9\"", "\"board\": \"9x0\""),
    )
    .unwrap();
    let (code, _, err) = run(&["status", d]);
    assert_eq!(code, 2);
    assert!(err.contains("plan.json"), "{err}");
}

#[test]
fn checkpointed_solve_resumes_after_sigint() {
    let dir = TempDir::new().unwrap();
    let ck = dir.path().join("ck");
    // i(15x16): a few seconds on one thread, in parts of about a million nodes (i(15x15) is now
    // too quick: it could end before the signal).
    let args = [
        "solve",
        "15x16",
        "-i",
        "-j",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    let child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let results = ck.join("15x16-independent-domination").join("results");
    let start = Instant::now();
    while std::fs::read_dir(&results).map_or(0, |d| d.count()) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no part finished"
        );
        sleep(Duration::from_millis(20));
    }
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("parts kept in") && err.contains("resume") && !err.contains("--checkpoint"),
        "{err}"
    );
    let kept = std::fs::read_dir(&results).unwrap().count();
    assert!(kept >= 1);
    let resumed = ok(&args);
    assert_eq!(answer(&resumed), answer(&ok(&["solve", "15x16", "-i"])));
}

#[test]
fn a_plan_from_a_search_that_cuts_differently_is_refused() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["11x14", "-i", "--parts", "20"]);
    assert!(n > 2);
    // As if another build had placed other queens at part 1's path.
    let file = run_dir.join("plan.json");
    let mut v = read_json(&file);
    let queens = v["parts"][1]["queens"].as_str().unwrap().to_string();
    v["parts"][1]["queens"] = serde_json::json!(format!("{queens} 10:13"));
    write_json(&file, &v);
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--part", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cuts its tree differently"), "{err}");
}

#[test]
fn checkpointed_solves_started_together_share_one_plan() {
    // Started at the same moment on a new directory, every run used to race to create the plan,
    // and the losers refused the directory the winner was writing ("already holds a plan").
    let dir = TempDir::new().unwrap();
    let ck = dir.path().join("ck");
    let args = [
        "solve",
        "13x13",
        "-j",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(assert_cmd::cargo::cargo_bin("queendom"))
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let want = answer(&ok(&["solve", "13x13"]));
    for child in children {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(answer(&String::from_utf8_lossy(&out.stdout)), want);
    }
    let run_dir = ck.join("13x13-domination");
    let results = std::fs::read_dir(run_dir.join("results")).unwrap().count();
    assert_eq!(results, parts(&run_dir));
}

#[test]
fn status_and_merge_name_the_missing_parts_by_rank_for_a_resubmission() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let n = plan(&run_dir, &["13x13", "-i", "--parts", "16"]);
    assert!(n > 10);
    // Every part but the first and the fifth in plan order, which are not the first ranks.
    for k in (0..n).filter(|&k| k != 0 && k != 5) {
        work(&run_dir, k);
    }
    let status: serde_json::Value =
        serde_json::from_str(&ok(&["status", run_dir.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(status["missing_parts"], "0,5");
    let ranks = status["missing_ranks"].as_str().unwrap().to_string();
    let text = ok(&["status", run_dir.to_str().unwrap()]);
    assert!(
        text.contains(&format!(
            "missing (no result, no worker): ranks {ranks} (for `sbatch --array=`; `submit.sh {} --missing` submits them), parts 0,5\n",
            run_dir.display()
        )),
        "{text}"
    );
    let (code, _, err) = run(&["merge", run_dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("--array={ranks}")), "{err}");
    // Running exactly those ranks, as a resubmitted array would, completes the run.
    let expand: Vec<String> = ranks
        .split(',')
        .flat_map(|t| match t.split_once('-') {
            Some((a, b)) => (a.parse::<usize>().unwrap()..=b.parse().unwrap()).collect::<Vec<_>>(),
            None => vec![t.parse().unwrap()],
        })
        .map(|r| r.to_string())
        .collect();
    assert_eq!(expand.len(), 2);
    for r in &expand {
        ok(&["work", run_dir.to_str().unwrap(), "--rank", r, "-j", "1"]);
    }
    assert_eq!(
        answer(&ok(&["merge", run_dir.to_str().unwrap()])),
        answer(&ok(&["solve", "13x13", "-i"]))
    );
}

/// Start `work RUN --part 0 -j 1` on a one-part 15x15 plan (seconds of search) and return once it
/// holds its claim and has recorded its attempt.
fn spawn_long_part(run_dir: &Path) -> std::process::Child {
    let attempts = run_dir.join("attempts").join("part-000000.jsonl");
    let starts = || {
        std::fs::read_to_string(&attempts)
            .unwrap_or_default()
            .matches("started")
            .count()
    };
    let before = starts();
    let child = Command::new(assert_cmd::cargo::cargo_bin("queendom"))
        .args(["work", run_dir.to_str().unwrap(), "--part", "0", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while starts() == before {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the worker never started"
        );
        sleep(Duration::from_millis(10));
    }
    child
}

fn status_json(run_dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(&["status", run_dir.to_str().unwrap(), "--json"])).unwrap()
}

#[test]
fn attempts_are_recorded_and_status_names_the_failed_parts_with_host_time_and_exit() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    assert_eq!(plan(&run_dir, &["15x15", "--parts", "1"]), 1);
    // SIGTERM, as Slurm sends at a time limit: recorded as interrupted, exit 143.
    let child = spawn_long_part(&run_dir);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    let status = status_json(&run_dir);
    assert_eq!(status["failed_parts"], "0");
    assert_eq!(status["failed_ranks"], "0");
    assert_eq!(status["missing_ranks"], "0");
    let failed = &status["failed"][0];
    assert_eq!(failed["event"], "interrupted");
    assert_eq!(failed["exit"], 143);
    let time = failed["time"].as_str().unwrap();
    assert!(
        time.len() == 20 && time.starts_with("20") && time.ends_with('Z'),
        "UTC ISO 8601: {time}"
    );
    let text = ok(&["status", run_dir.to_str().unwrap()]);
    assert!(
        text.contains("failed (of the missing; started, no result): ranks 0, parts 0\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  part 0 (rank 0): interrupted on {} at {time} (",
            failed["host"].as_str().unwrap()
        )) && text.contains(" s ago), exit 143: SIGTERM"),
        "{text}"
    );
    // kill -9 leaves a start and nothing else: status says the worker died.
    let mut child = spawn_long_part(&run_dir);
    child.kill().unwrap();
    child.wait().unwrap();
    let text = ok(&["status", run_dir.to_str().unwrap()]);
    assert!(
        text.contains("  part 0 (rank 0) (2 attempts): started on ")
            && text.contains("ended without a word (killed by SIGKILL"),
        "{text}"
    );
    assert_eq!(status_json(&run_dir)["failed"][0]["event"], "died");
    // A finished part is not failed any more.
    work(&run_dir, 0);
    let status = status_json(&run_dir);
    assert_eq!(status["failed_parts"], "");
    assert_eq!(status["done"], 1);
    let attempts =
        std::fs::read_to_string(run_dir.join("attempts").join("part-000000.jsonl")).unwrap();
    let events: Vec<String> = attempts
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["event"].to_string())
        .collect();
    assert_eq!(
        events,
        ["started", "interrupted", "started", "started", "finished"].map(|e| format!("\"{e}\""))
    );
}

#[test]
fn a_part_held_by_another_worker_is_a_clean_skip_with_a_readable_time() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    assert_eq!(plan(&run_dir, &["15x15", "--parts", "1"]), 1);
    let mut child = spawn_long_part(&run_dir);
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--rank", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("part 0 is being run by another worker (host ")
            && err.contains(" since 20")
            && err.contains("Z (")
            && err.contains(" s ago)); skipped, not run twice"),
        "{err}"
    );
    let status = status_json(&run_dir);
    assert_eq!(
        (
            status["running_ranks"].as_str(),
            status["failed_parts"].as_str()
        ),
        (Some("0"), Some(""))
    );
    let text = ok(&["status", run_dir.to_str().unwrap()]);
    assert!(
        text.contains("running: ranks 0, parts 0\n  part 0 (rank 0): started on "),
        "{text}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_result_that_cannot_be_stored_fails_before_the_search() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    // 16x16 in one part takes minutes: the failure must come before the search, not after it.
    assert_eq!(plan(&run_dir, &["16x16", "--parts", "1"]), 1);
    std::fs::write(run_dir.join("results"), "not a directory").unwrap();
    let (code, _, err) = run(&["work", run_dir.to_str().unwrap(), "--part", "0"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("cannot store results in") && err.contains("part 0 was not searched"),
        "{err}"
    );
    let status = status_json(&run_dir);
    assert_eq!(status["failed"][0]["event"], "failed");
    assert_eq!(status["failed"][0]["exit"], 1);
}

#[test]
fn a_split_part_comes_back_in_pieces_and_the_run_still_merges_to_solve() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let d = run_dir.to_str().unwrap();
    let n = plan(&run_dir, &["13x13", "-i", "--parts", "8"]);
    // Every part but the one of rank 0 (the largest) is done before the split.
    for r in 1..n {
        ok(&["work", d, "--rank", &r.to_string(), "-j", "1"]);
    }
    let before = status_json(&run_dir);
    let largest = before["missing_parts"].as_str().unwrap().to_string();
    let k: usize = largest.parse().unwrap();
    // A part with a result is not split, nor is anything while a worker runs.
    let done = if k == 0 { "1" } else { "0" };
    let (code, _, err) = run(&["plan", d, "--split", done]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has a result"), "{err}");
    let out = ok(&["plan", d, "--split", &largest]);
    assert!(out.contains(&format!("part {k} (estimate ")), "{out}");
    let after = status_json(&run_dir);
    let m = after["parts"].as_u64().unwrap() as usize;
    assert!(m > n, "{out}");
    assert_ne!(after["plan"], before["plan"]);
    // The results kept are the new plan's, under their new numbers; the pieces are missing.
    assert_eq!(after["done"].as_u64().unwrap() as usize, n - 1);
    assert_eq!(
        after["missing_parts"].as_str().unwrap(),
        format!("{k}-{}", k + m - n)
    );
    assert!(run_dir
        .join(format!("split-{}", &before["plan"].as_str().unwrap()[..12]))
        .join("plan.json")
        .is_file());
    ok(&["work", d, "--next", "--until-done", "-j", "1"]);
    assert_eq!(
        answer(&ok(&["merge", d])),
        answer(&ok(&["solve", "13x13", "-i"]))
    );
}

#[test]
fn split_waits_for_no_worker_and_interrupted_names_the_parts_a_time_limit_stopped() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let d = run_dir.to_str().unwrap();
    assert_eq!(plan(&run_dir, &["15x15", "--parts", "1"]), 1);
    let child = spawn_long_part(&run_dir);
    let (code, _, err) = run(&["plan", d, "--split", "interrupted"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("workers are running on"), "{err}");
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(143));
    let out = ok(&["plan", d, "--split", "interrupted"]);
    assert!(out.contains("part 0 (estimate "), "{out}");
    let status = status_json(&run_dir);
    assert!(status["parts"].as_u64().unwrap() > 1);
    // Nothing is interrupted any more: the pieces have no attempts yet.
    assert_eq!(status["failed_parts"], "");
    ok(&["work", d, "--next", "--until-done"]);
    assert_eq!(answer(&ok(&["merge", d])), answer(&ok(&["solve", "15x15"])));
}

/// `scripts/keep-run.sh` keeps a run that workers have used and left (its claims/ still holds their
/// lock files, which are not claims), refuses one that a worker is searching, and the kept copy,
/// resumed elsewhere, finishes and merges to the answer of `solve`.
#[test]
fn keep_run_keeps_a_used_run_and_refuses_a_busy_one() {
    let dir = TempDir::new().unwrap();
    let run_dir = dir.path().join("run");
    let kept = dir.path().join("kept");
    let n = plan(&run_dir, &["14x14", "-i", "--parts", "20"]);
    assert!(n >= 3, "{n} parts");
    ok(&["work", run_dir.to_str().unwrap(), "--next", "-j", "1"]);
    let bin = assert_cmd::cargo::cargo_bin("queendom");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/keep-run.sh");
    let keep = |args: &[&Path]| {
        Command::new(&script)
            .args(args)
            .env("QUEENDOM", &bin)
            .env("KEEP_RUN_DIR", &kept)
            .output()
            .unwrap()
    };
    // A worker holding a claim: a part of a board large enough to last while the script looks.
    let busy_dir = dir.path().join("busy");
    plan(
        &busy_dir,
        &["15x15", "--count", "--queens", "9", "--parts", "4"],
    );
    let mut worker = Command::new(&bin)
        .args(["work", busy_dir.to_str().unwrap(), "--next", "-j", "1"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ok(&["status", busy_dir.to_str().unwrap()]).contains("running 1,") {
        assert!(Instant::now() < deadline, "the worker never claimed a part");
        sleep(Duration::from_millis(50));
    }
    let out = keep(&[&busy_dir, Path::new("busy")]);
    worker.kill().unwrap();
    worker.wait().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stop them first"));
    assert!(!kept.join("busy").exists());

    let out = keep(&[&run_dir, Path::new("run14")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("(1 parts done)"));
    let resumed = dir.path().join("resumed");
    let out = keep(&[Path::new("--resume"), Path::new("run14"), &resumed]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ok(&[
        "work",
        resumed.to_str().unwrap(),
        "--next",
        "--until-done",
        "-j",
        "1",
    ]);
    let merged = ok(&["merge", resumed.to_str().unwrap()]);
    let solved = ok(&["solve", "14x14", "-i", "-j", "1"]);
    assert_eq!(
        merged.lines().next(),
        solved.lines().next(),
        "{merged}\n{solved}"
    );
}

/// The estimates of a plan's parts, from its plan.json.
fn part_estimates(run_dir: &Path) -> Vec<f64> {
    read_json(&run_dir.join("plan.json"))["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["estimate"].as_f64().unwrap())
        .collect()
}

#[test]
fn a_smaller_share_cuts_a_part_into_smaller_pieces() {
    let dir = TempDir::new().unwrap();
    let [halves, fine] = ["halves", "fine"].map(|name| dir.path().join(name));
    for run_dir in [&halves, &fine] {
        assert_eq!(plan(run_dir, &["14x14", "--parts", "1"]), 1);
    }
    let whole = part_estimates(&halves)[0];
    let d = fine.to_str().unwrap();
    for bad in ["0", "-0.5", "1.5", "half", "NaN"] {
        let (code, _, err) = run(&["plan", d, "--split", "0", &format!("--share={bad}")]);
        assert_eq!(code, 2, "--share {bad}: {err}");
        assert!(err.contains("is not a share"), "{err}");
    }
    let (code, _, err) = run(&["plan", "14x14", "--share", "0.5", "-o", d]);
    assert_eq!(code, 2, "--share without --split: {err}");
    assert_eq!(
        part_estimates(&fine).len(),
        1,
        "a refused split changed the plan"
    );

    ok(&["plan", halves.to_str().unwrap(), "--split", "0"]);
    ok(&["plan", d, "--split", "0", "--share", "0.02"]);
    let (halves, fine) = (part_estimates(&halves), part_estimates(&fine));
    assert!(halves.iter().all(|&e| e <= 0.5 * whole), "{halves:?}");
    assert!(fine.iter().all(|&e| e <= 0.02 * whole), "{fine:?}");
    assert!(
        fine.len() > halves.len(),
        "{} vs {}",
        fine.len(),
        halves.len()
    );
}
