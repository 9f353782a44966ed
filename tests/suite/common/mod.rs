//! Helpers shared by the command-line tests.

#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;

pub fn queendom() -> Command {
    Command::cargo_bin("queendom").expect("the binary is built")
}

/// Replace every seconds value (digits, a point, six digits, as all formats write them) by
/// `SECONDS`: the one column that differs between two runs of the same table on one thread.
pub fn without_seconds(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut number = String::new();
    let flush = |number: &mut String, out: &mut String| {
        let is_seconds = match number.split_once('.') {
            Some((whole, frac)) => {
                !whole.is_empty() && frac.len() == 6 && frac.bytes().all(|b| b.is_ascii_digit())
            }
            None => false,
        };
        out.push_str(if is_seconds { "SECONDS" } else { number });
        number.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
        } else {
            flush(&mut number, &mut out);
            out.push(c);
        }
    }
    flush(&mut number, &mut out);
    out
}

/// Replace the nodes count of every row by `NODES`: it measures the search, and changes whenever
/// the engine gets better (it follows the problem name and the digest in every row format).
pub fn without_nodes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let Some(at) = line.find("domination") else {
            out.push_str(line);
            continue;
        };
        let mut after = at + "domination".len();
        // Past the digest (q and 16 hex digits), whose digits are not the nodes.
        if let Some(q) = line[after..].find('q') {
            let hex = &line[after + q + 1..];
            if hex.len() >= 16 && hex.bytes().take(16).all(|b| b.is_ascii_hexdigit()) {
                after += q + 17;
            }
        }
        let start = after
            + line[after..]
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(0);
        let end = start
            + line[start..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(line.len() - start);
        out.push_str(&line[..start]);
        out.push_str("NODES");
        out.push_str(&line[end..]);
    }
    out
}

/// Seconds and nodes both replaced: what is left must not change from run to run or build to
/// build (the layouts are the first optimal ones in the search's fixed order).
pub fn without_measurements(text: &str) -> String {
    without_nodes(&without_seconds(text))
}

pub fn read(path: &Path) -> String {
    String::from_utf8(std::fs::read(path).expect("file exists")).expect("UTF-8")
}

/// A JSON file (a plan, a part's result), parsed.
pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).expect("JSON")
}

/// Write `v` to `path` as pretty JSON, as a forger editing a plan or a part's result would.
pub fn write_json(path: &Path, v: &serde_json::Value) {
    std::fs::write(path, serde_json::to_vec_pretty(v).expect("JSON")).expect("writable");
}

/// Compare `actual` with the stored snapshot `tests/suite/snapshots/NAME`; with UPDATE_SNAPSHOTS=1 in
/// the environment, store `actual` instead (then read the file before committing it).
pub fn assert_snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("snapshot {}: {e}", path.display()));
    assert_eq!(actual, expected, "output differs from snapshot {name}");
}

/// The parts of the plan in `dir` in the order `--next` claims them: largest estimate first,
/// ties in plan order.
pub fn claim_order(dir: &Path) -> Vec<usize> {
    let text = std::fs::read(dir.join("plan.json")).unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let estimates: Vec<f64> = plan["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["estimate"].as_f64().unwrap())
        .collect();
    let mut order: Vec<usize> = (0..estimates.len()).collect();
    order.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    order
}

/// A copy of the directory tree `from` at `to` (new), files and subdirectories.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}
