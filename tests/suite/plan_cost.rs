//! What a plan says it will cost: `plan` prints the CPU time of its estimated nodes at a node rate
//! measured on sample subtrees of its own parts and writes it into plan.json, `status` prints it
//! again, `--no-cost` skips it, and plans without it (made with `--no-cost`, or by a build from
//! before it) run, report and merge as before. No assertion rests on a time: the rate is only
//! required to be a positive number, and the hours to be the estimate at that rate.

use std::path::Path;

use crate::common::{queendom, read_json, write_json};
use tempfile::TempDir;

fn ok(args: &[&str]) -> String {
    let out = queendom().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "queendom {args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The answer lines of `solve`/`merge`: everything but the measurement line.
fn answer(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with('('))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The figure and unit of "estimated cost: about 1.9 CPU seconds: …".
fn printed_cost(out: &str) -> (f64, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("estimated cost: about "))
        .unwrap_or_else(|| panic!("no cost line: {out}"));
    let mut words = line["estimated cost: about ".len()..].split_whitespace();
    let figure: f64 = words.next().unwrap().parse().unwrap();
    assert_eq!(words.next(), Some("CPU"), "{line}");
    (
        figure,
        words.next().unwrap().trim_end_matches(':').to_string(),
    )
}

fn estimated_nodes(plan: &serde_json::Value) -> f64 {
    plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["estimate"].as_f64().unwrap())
        .sum()
}

/// The cost's hours are the plan's estimated nodes at its rate (within the rounding of the rate).
fn assert_hours_price_the_estimate(plan: &serde_json::Value) {
    let cost = &plan["cost"];
    let rate = cost["nodes_per_cpu_second"].as_f64().unwrap();
    let hours = cost["cpu_hours"].as_f64().unwrap();
    let expected = estimated_nodes(plan) / rate / 3600.0;
    assert!(
        (hours - expected).abs() <= 1e-6 * expected,
        "{hours} CPU hours, the estimate at {rate} nodes per CPU second is {expected}"
    );
}

fn plan(run: &Path, args: &[&str]) -> String {
    let mut all = vec!["plan"];
    all.extend(args);
    all.extend(["-o", run.to_str().unwrap()]);
    ok(&all)
}

#[test]
fn a_plan_prints_its_cost_and_writes_the_rate_and_samples_into_plan_json() {
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("run");
    let out = plan(&run, &["14x14", "--parts", "40"]);
    let (figure, unit) = printed_cost(&out);
    assert!(figure > 0.0, "{out}");
    assert!(
        ["hours", "minutes", "seconds"].contains(&unit.as_str()),
        "{out}"
    );
    assert!(out.contains("M nodes per CPU second"), "{out}");
    let plan = read_json(&run.join("plan.json"));
    let cost = &plan["cost"];
    assert!(
        cost["nodes_per_cpu_second"].as_f64().unwrap() > 0.0,
        "{cost}"
    );
    assert!(cost["cpu_hours"].as_f64().unwrap() > 0.0, "{cost}");
    assert_hours_price_the_estimate(&plan);
    // Every sample is a subtree of one of the plan's parts: the part's path or below it.
    let parts: Vec<&str> = plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    let samples = cost["samples"].as_array().unwrap();
    assert!(!samples.is_empty());
    for s in samples {
        let path = s["path"].as_str().unwrap();
        assert!(
            parts
                .iter()
                .any(|p| path == *p || path.starts_with(&format!("{p}."))),
            "sample {path} lies in no part"
        );
    }
    let nodes: u64 = samples.iter().map(|s| s["nodes"].as_u64().unwrap()).sum();
    assert!(nodes > 0);
    // `status` says it again, in words and in its JSON.
    let d = run.to_str().unwrap();
    let status = ok(&["status", d]);
    assert!(
        status.contains("CPU") && status.contains("M nodes per CPU second"),
        "{status}"
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&["status", d, "--json"])).unwrap();
    assert_eq!(json["estimated_cpu_hours"], cost["cpu_hours"]);
    assert_eq!(json["nodes_per_cpu_second"], cost["nodes_per_cpu_second"]);
    assert_eq!(
        json["estimated_nodes"].as_f64(),
        Some(estimated_nodes(&plan))
    );
}

#[test]
fn no_cost_skips_the_measurement_and_the_plan_is_the_same_on_every_run() {
    let dir = TempDir::new().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let out = plan(&a, &["14x14", "--parts", "40", "--no-cost"]);
    plan(&b, &["14x14", "--parts", "40", "--no-cost"]);
    assert!(!out.contains("estimated cost"), "{out}");
    assert!(out.contains("estimated "), "{out}");
    let plan_a = std::fs::read(a.join("plan.json")).unwrap();
    assert_eq!(plan_a, std::fs::read(b.join("plan.json")).unwrap());
    let parsed: serde_json::Value = serde_json::from_slice(&plan_a).unwrap();
    assert!(parsed.get("cost").is_none(), "{parsed}");
    let d = a.to_str().unwrap();
    assert!(!ok(&["status", d]).contains("per CPU second"));
    let json: serde_json::Value = serde_json::from_str(&ok(&["status", d, "--json"])).unwrap();
    assert!(json["estimated_cpu_hours"].is_null(), "{json}");
    // The same request with its cost measured is the same plan: its identity leaves the cost out.
    let c = dir.path().join("c");
    plan(&c, &["14x14", "--parts", "40"]);
    let with_cost = std::fs::read(c.join("plan.json")).unwrap();
    assert_ne!(with_cost, plan_a, "no cost was measured");
    let id = |run: &Path| {
        let out = ok(&["status", run.to_str().unwrap()]);
        let first = out.lines().next().unwrap_or_default().to_string();
        let word = first.split_whitespace().nth(1).unwrap_or_default();
        word.trim_end_matches(':').to_string()
    };
    assert_eq!(
        id(&a).len(),
        64,
        "status's first line: plan ID: ...: {}",
        id(&a)
    );
    assert_eq!(id(&c), id(&a));
}

#[test]
fn a_plan_without_a_cost_as_older_builds_wrote_it_runs_reports_and_merges() {
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("run");
    let d = run.to_str().unwrap();
    plan(&run, &["13x13", "-i", "--parts", "8"]);
    // The plan.json of a build from before the field: the same, without it.
    let mut older = read_json(&run.join("plan.json"));
    assert!(older["cost"].is_object(), "{older}");
    older.as_object_mut().unwrap().remove("cost");
    write_json(&run.join("plan.json"), &older);
    let status = ok(&["status", d]);
    assert!(
        status.contains("estimated ") && !status.contains("per CPU second"),
        "{status}"
    );
    ok(&["work", d, "--next", "--until-done", "-j", "1"]);
    assert_eq!(
        answer(&ok(&["merge", d])),
        answer(&ok(&["solve", "13x13", "-i"]))
    );
}

#[test]
fn a_split_keeps_the_measured_rate_and_prices_the_new_estimates() {
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("run");
    let d = run.to_str().unwrap();
    plan(&run, &["13x13", "-i", "--parts", "8"]);
    let before = read_json(&run.join("plan.json"));
    ok(&["plan", d, "--split", "0", "--share", "0.2"]);
    let after = read_json(&run.join("plan.json"));
    assert!(after["parts"].as_array().unwrap().len() > before["parts"].as_array().unwrap().len());
    for field in ["nodes_per_cpu_second", "host", "samples"] {
        assert_eq!(after["cost"][field], before["cost"][field], "{field}");
    }
    assert_hours_price_the_estimate(&after);
}
