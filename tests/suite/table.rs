//! `queendom table`: every format against a stored snapshot, resuming files left by earlier or
//! killed runs, and refusing bad command lines and foreign files without touching anything.

use std::fs;
use std::path::Path;

use crate::common::{assert_snapshot, queendom, read, without_measurements, without_seconds};
use predicates::prelude::*;
use tempfile::TempDir;

/// The small table of the snapshots: 12 boards, all solved in microseconds.
const SMALL: [&str; 6] = ["--rows", "1-3", "--cols", "1-4", "-j", "1"];

fn small_table(extra: &[&str]) -> String {
    let out = queendom()
        .arg("table")
        .args(SMALL)
        .args(extra)
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Formats: one snapshot each, checked by hand (γ(2x4) = γ(3x4) = 2, every other board here 1;
// i agrees on these boards). Seconds and nodes are normalised: they measure the search.

#[test]
fn csv_snapshot() {
    assert_snapshot(
        "domination-1-3x1-4.csv",
        &without_measurements(&small_table(&[])),
    );
}

#[test]
fn transposed_boards_show_no_search() {
    // 2x1, 3x1 and 3x2 come after 1x2, 1x3 and 2x3: their rows are taken from those searches.
    for line in small_table(&[]).lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (rows, cols): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        if rows > cols {
            assert_eq!((f[6], f[7]), ("0", "0.000000"), "{line}");
        }
    }
}

#[test]
fn tsv_snapshot() {
    assert_snapshot(
        "domination-1-3x1-4.tsv",
        &without_measurements(&small_table(&["--format", "tsv"])),
    );
}

#[test]
fn json_lines_snapshot() {
    let text = small_table(&["--format", "json"]);
    for line in text.lines() {
        let _: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
    }
    assert_snapshot("domination-1-3x1-4.jsonl", &without_measurements(&text));
}

#[test]
fn markdown_snapshot() {
    assert_snapshot(
        "domination-1-3x1-4.md",
        &without_measurements(&small_table(&["--format", "md"])),
    );
}

#[test]
fn grid_snapshots() {
    assert_snapshot(
        "domination-1-3x1-4.grid.csv",
        &small_table(&["--format", "grid"]),
    );
    assert_snapshot(
        "independent-1-3x1-4.grid.csv",
        &small_table(&["--format", "grid", "-i"]),
    );
}

#[test]
fn the_grid_follows_the_order_of_the_lists() {
    let out = queendom()
        .args([
            "table", "--format", "grid", "--rows", "3,1", "--cols", "4,2",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "domination rows\\cols,4,2\n3,2,1\n1,1,1\n");
}

#[test]
fn files_get_the_format_of_their_extension() {
    let dir = TempDir::new().unwrap();
    for (name, snapshot) in [
        ("t.csv", "domination-1-3x1-4.csv"),
        ("t.TSV", "domination-1-3x1-4.tsv"),
        ("t.jsonl", "domination-1-3x1-4.jsonl"),
        ("t.json", "domination-1-3x1-4.jsonl"),
        ("t.md", "domination-1-3x1-4.md"),
        ("no-extension", "domination-1-3x1-4.csv"),
    ] {
        let path = dir.path().join(name);
        queendom()
            .arg("table")
            .args(SMALL)
            .arg("-o")
            .arg(&path)
            .assert()
            .success();
        assert_snapshot(snapshot, &without_measurements(&read(&path)));
    }
    let grid = dir.path().join("g.txt");
    queendom()
        .arg("table")
        .args(SMALL)
        .args(["--format", "grid", "-o"])
        .arg(&grid)
        .assert()
        .success();
    assert_snapshot("domination-1-3x1-4.grid.csv", &read(&grid));
    // The whole-table formats go through a temporary file: none may be left behind.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 7);
}

// ---------------------------------------------------------------------------------------------
// Side by side: the boards of a table run as jobs of one pool, largest first, and finish in any
// order; the rows are those of each board computed alone, standard output keeps the table's
// order, and a file ends in it.

/// Boards with transposes both ways, squares, boards settled by the lower bound and searched ones.
const MIXED: [&str; 4] = ["--rows", "2,4-6", "--cols", "3,5-7"];

fn table_output(args: &[&str]) -> String {
    let out = queendom().arg("table").args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// A csv table without the columns that say how a row was obtained (nodes, seconds, threads): a
/// transposed row shows no search where its transpose came first in the table, and the threads
/// differ. Layouts and digests stay.
fn values(csv: &str) -> String {
    csv.lines()
        .map(|l| format!("{}\n", l.rsplitn(4, ',').last().unwrap()))
        .collect()
}

#[test]
fn side_by_side_rows_are_those_of_each_board_alone_in_the_tables_order() {
    let dir = TempDir::new().unwrap();
    let sizes = |list: &str| -> Vec<String> {
        queendom::table::SizeList::parse(list)
            .unwrap()
            .sizes()
            .iter()
            .map(usize::to_string)
            .collect()
    };
    for kind in [&[][..], &["-i"], &["--count"]] {
        // Each board in a table of its own, one after the other, in the table's order.
        let mut alone = String::new();
        for r in sizes(MIXED[1]) {
            for c in sizes(MIXED[3]) {
                let mut args = vec!["--rows", &r, "--cols", &c, "-j", "1"];
                args.extend(kind);
                let text = values(&table_output(&args));
                let mut lines = text.lines();
                let header = lines.next().unwrap();
                if alone.is_empty() {
                    alone = format!("{header}\n");
                }
                alone.extend(lines.map(|l| format!("{l}\n")));
            }
        }
        for threads in ["1", "2"] {
            let mut args = MIXED.to_vec();
            args.extend(["-j", threads]);
            args.extend(kind);
            let stdout = table_output(&args);
            assert_eq!(values(&stdout), alone, "{kind:?} -j {threads} on stdout");
            let path = dir.path().join(format!("t{threads}.csv"));
            args.extend(["-o", path.to_str().unwrap()]);
            table_output(&args);
            assert_eq!(
                values(&read(&path)),
                alone,
                "{kind:?} -j {threads} in a file"
            );
            fs::remove_file(&path).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Resume.

fn write_table(path: &Path, extra: &[&str]) {
    queendom()
        .arg("table")
        .args(SMALL)
        .args(extra)
        .arg("-o")
        .arg(path)
        .assert()
        .success();
}

#[test]
fn a_killed_write_is_completed_to_what_an_uninterrupted_run_writes() {
    let dir = TempDir::new().unwrap();
    for name in ["t.csv", "t.tsv", "t.jsonl"] {
        let full = dir.path().join(format!("full-{name}"));
        write_table(&full, &[]);
        let expected = read(&full);
        // Cut in the middle of the last line, as a kill during that write would.
        let last_line = expected.trim_end().rfind('\n').unwrap() + 1;
        let cut_at = last_line + (expected.len() - last_line) / 2;
        let path = dir.path().join(name);
        fs::write(&path, &expected.as_bytes()[..cut_at]).unwrap();
        queendom()
            .arg("table")
            .args(SMALL)
            .arg("-o")
            .arg(&path)
            .assert()
            .success()
            .stderr(predicate::str::contains("dropped a half-written last line"))
            .stderr(predicate::str::contains("11 of 12 boards already done"));
        assert_eq!(without_seconds(&read(&path)), without_seconds(&expected));
        // The kept rows are kept as they were, seconds included.
        assert!(read(&path).starts_with(&expected[..last_line]));
    }
}

#[test]
fn empty_files_and_cut_headers_are_tables_without_rows() {
    let dir = TempDir::new().unwrap();
    let expected = without_seconds(&small_table(&[]));
    for start in [
        "",
        "rows,co",
        "rows,cols,queens,layout,problem,digest,nodes,seconds,threads",
        // A header of an older version, and no rows: nothing to keep.
        "rows,cols,queens,layout,problem,nodes,seconds,threads\n",
    ] {
        let path = dir.path().join("t.csv");
        fs::write(&path, start).unwrap();
        write_table(&path, &[]);
        assert_eq!(without_seconds(&read(&path)), expected, "from {start:?}");
    }
}

#[test]
fn a_finished_table_is_left_as_it_is() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    write_table(&path, &[]);
    let before = fs::read(&path).unwrap();
    queendom()
        .arg("table")
        .args(SMALL)
        .arg("-o")
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("12 of 12 boards already done"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn a_grown_range_ends_in_the_order_of_a_fresh_run() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.json");
    queendom()
        .args(["table", "--rows", "2-3", "--cols", "3,1", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    write_table(&path, &[]);
    // A row kept from the first run may show nodes 0 where a fresh run searched the board (its
    // transpose came first there), so compare all but the timing columns.
    let strip = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                let o = v.as_object_mut().unwrap();
                o.remove("seconds");
                o.remove("nodes");
                v
            })
            .collect()
    };
    assert_eq!(
        strip(&read(&path)),
        strip(&small_table(&["--format", "json"]))
    );
}

#[test]
fn force_replaces_a_whole_table_file() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.md");
    fs::write(&path, "old\n").unwrap();
    write_table(&path, &["--force"]);
    assert_snapshot("domination-1-3x1-4.md", &without_measurements(&read(&path)));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn force_starts_afresh() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    fs::write(&path, "some,other\ntable,here\n").unwrap();
    queendom()
        .arg("table")
        .args(SMALL)
        .arg("--force")
        .arg("-o")
        .arg(&path)
        .assert()
        .success();
    assert_eq!(
        without_seconds(&read(&path)),
        without_seconds(&small_table(&[]))
    );
}

// ---------------------------------------------------------------------------------------------
// Refusals: exit 2, one line naming the problem, nothing created or changed.

/// Run `table` with `args` in a fresh directory (as the current directory) holding `files`;
/// expect exit 2 and a one-line message containing `message`, and the directory as it was.
fn refused(args: &[&str], files: &[(&str, &str)], message: &str) {
    let dir = TempDir::new().unwrap();
    for (name, contents) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    let output = queendom()
        .current_dir(dir.path())
        .arg("table")
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("queendom: ") && stderr.ends_with('\n') && stderr.lines().count() == 1,
        "{args:?}: not one line: {stderr:?}"
    );
    assert!(
        stderr.contains(message),
        "{args:?}: expected {message:?} in {stderr:?}"
    );
    let mut names: Vec<String> = walk(dir.path());
    names.sort();
    let mut expected: Vec<String> = files
        .iter()
        .map(|(n, _)| {
            Path::new(n)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string()
        })
        .collect();
    expected.sort();
    assert_eq!(names, expected, "{args:?}: files created or removed");
    for (name, contents) in files {
        assert_eq!(
            fs::read(dir.path().join(name)).unwrap(),
            contents.as_bytes(),
            "{args:?}: {name} changed"
        );
    }
}

/// The names of all files under `dir`.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    out
}

const T: &[&str] = &["--rows", "1-3", "--cols", "1-4", "-o", "t.csv"];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = T.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn malformed_command_lines() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--rows", "0", "--cols", "3", "-o", "t.csv"],
            "size 0 in '0'",
        ),
        (
            &["--rows", "-3", "--cols", "3", "-o", "t.csv"],
            "'-3' is not a size",
        ),
        (
            &["--rows", "abc", "--cols", "3", "-o", "t.csv"],
            "'abc' is not a size",
        ),
        (
            &["--rows", "4", "--cols", "-2-5", "-o", "t.csv"],
            "unexpected argument '-2'",
        ),
        (
            &["--rows", "--cols", "3", "-o", "t.csv"],
            "a value is required for '--rows <SIZES>'",
        ),
        (
            &["--rows", "9-4", "--cols", "3", "-o", "t.csv"],
            "range '9-4' runs backwards",
        ),
        (
            &["--rows", "4", "--cols", "1-40", "-o", "t.csv"],
            "size 40 in '1-40' is too big",
        ),
        (
            &["--rows", "4", "--cols", "3,", "-o", "t.csv"],
            "is not a size",
        ),
        (&["--rows", "1-3", "-o", "t.csv"], "--cols <SIZES>"),
        (
            &["--rows", "1-3", "--cols", "3", "--fast", "-o", "t.csv"],
            "unexpected argument '--fast'",
        ),
        (
            &["--rows", "1-3", "--cols", "3", "-j", "0", "-o", "t.csv"],
            "invalid value '0'",
        ),
        (
            &[
                "--rows", "1-3", "--cols", "3", "--format", "xls", "-o", "t.csv",
            ],
            "invalid value 'xls' for '--format <FORMAT>' [possible values: csv, tsv, json",
        ),
        (
            &["--rows", "1-3", "--cols", "3", "-o", "t.xls"],
            "from its extension '.xls'",
        ),
        (
            &["--rows", "1-3", "--cols", "3", "-o", "t.c\rsv"],
            "from its extension '.c\\rsv'",
        ),
        (
            &[
                "--rows", "1-3", "--cols", "1-3", "-f", "bfile", "-o", "t.txt",
            ],
            "a b-file lists square boards only (n a(n)), but the table includes 1x2",
        ),
        (
            &["--rows", "1-3", "--cols", "3", "-o", "missing/t.csv"],
            "directory missing does not exist",
        ),
        (
            &[
                "--rows",
                "1-3",
                "--cols",
                "3",
                "-o",
                "/proc/queendom-test.csv",
            ],
            "cannot write /proc/queendom-test.csv",
        ),
        (
            &[
                "--rows",
                "1-3",
                "--cols",
                "3",
                "-f",
                "grid",
                "-o",
                "/proc/queendom-test.csv",
            ],
            "cannot write /proc/queendom-test.csv",
        ),
    ];
    for (args, message) in cases {
        refused(args, &[], message);
    }
    // A path whose "directory" is a file, and a directory where the file should be.
    refused(
        &["--rows", "1", "--cols", "1", "-o", "f/t.csv"],
        &[("f", "x")],
        "f is not a directory",
    );
    refused(
        &["--rows", "1", "--cols", "1", "-o", "d"],
        &[("d/keep", "x")],
        "cannot write d: it is a directory",
    );
}

const HEADER: &str = "rows,cols,queens,layout,problem,digest,nodes,seconds,threads\n";
const ROW_1X1: &str = "1,1,1,r1c1,domination,q8221dde8f0ac82b2,1,0.000010,1\n";
const ROW_1X2: &str = "1,2,1,r1c1,domination,qc0052e58f63452d9,1,0.000010,1\n";
/// A digest that matches no row.
const NO_DIGEST: &str = "q0000000000000000";

#[test]
fn foreign_and_corrupt_files() {
    let file = |rows: &[&str]| -> String { format!("{HEADER}{}", rows.concat()) };
    let cases: Vec<(Vec<&str>, String, &str)> = vec![
        (with(&[]), "name,age\nbob,3\n".into(), "is not a queendom csv table: its first line is 'name,age'"),
        (with(&[]), "rows\tcols\tqueens\tlayout\tproblem\tdigest\tnodes\tseconds\tthreads\n".into(), "its first line is 'rows\\tcols\\tqueens"),
        // Invisible differences are shown: a carriage return and a byte order mark.
        (with(&[]), format!("\u{feff}rows;cols\r\n{ROW_1X1}"), "its first line is '\\u{feff}rows;cols\\r'"),
        (with(&["-i"]), file(&[ROW_1X1]), "line 2 is a row of domination, but this run computes independent-domination"),
        (with(&[]), file(&[ROW_1X1, "1,2,1\n", ROW_1X2]), "line 3 is not a csv table row: expected 9 fields, found 3"),
        (with(&[]), file(&[ROW_1X1, &format!("1,x,1,r1c1,domination,{NO_DIGEST},1,0.000010,1\n")]), "field 'cols' is not a whole number: 'x'"),
        // A corrupt last line that was written whole is not a killed write: refused, not dropped.
        (with(&[]), file(&[ROW_1X1, &format!("1,2,1,r1c1,domination,{NO_DIGEST},1,zero,1\n")]), "line 3 is not a csv table row: field 'seconds'"),
        (with(&[]), file(&[ROW_1X1, &format!("3,3,1,r1c1,domination,{NO_DIGEST},1,0.000010,1\n")]), "line 3 (board 3x3) fails the independent check: square r2c3 is not covered"),
        (with(&[]), file(&[ROW_1X1, &format!("3,3,2,r2c2,domination,{NO_DIGEST},1,0.000010,1\n")]), "line 3 (board 3x3) fails the independent check: layout has 1 queens, but 2 were claimed"),
        (with(&[]), file(&[ROW_1X1, &format!("1,2,1,1:3,domination,{NO_DIGEST},1,0.000010,1\n")]), "line 3 (board 1x2) has a malformed layout: square '1:3' is off the 1x2 board"),
        (with(&[]), file(&[ROW_1X1, &format!("5,5,3,r1c1 r2c4 r4c2,domination,{NO_DIGEST},1,0.000010,1\n")]), "line 3 holds board 5x5, which is not in the requested boards"),
        (with(&[]), file(&[ROW_1X1, &format!("0,5,1,r1c1,domination,{NO_DIGEST},1,0.000010,1\n")]), "line 3 has an impossible board"),
        (with(&[]), file(&[ROW_1X1, ROW_1X2, ROW_1X1]), "line 4 repeats board 1x1 of line 2"),
        (with(&[]), file(&[ROW_1X1, "1,2,1,r1c1,vertex-cover,q0,1,0.000010,1\n"]), "line 3 is a row of vertex-cover"),
        (with(&[]), format!("{HEADER}\u{0}\u{ff}\n"), "line 2 is not a csv table row"),
        // A row changed after it was written: its digest no longer matches.
        (with(&[]), file(&[ROW_1X1, &ROW_1X2.replace("qc005", "qc006")]), "line 3 (board 1x2) does not match its digest 'qc0062e58f63452d9'"),
        (with(&[]), file(&[ROW_1X1, "2,2,2,r1c1 r1c2,domination,qc0052e58f63452d9,1,0.000010,1\n"]), "line 3 (board 2x2) does not match its digest"),
        // A file of an older version, without digests.
        (with(&[]), "rows,cols,queens,layout,problem,nodes,seconds,threads\n1,1,1,1:1,domination,1,0.000010,1\n".into(), "written by an older queendom (line 2 has no digest): --verify re-proves every row"),
    ];
    for (args, contents, message) in &cases {
        refused(args, &[("t.csv", contents)], message);
    }
    // Invalid UTF-8 cannot go through the &str helper.
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.csv");
    let mut bytes = HEADER.as_bytes().to_vec();
    bytes.extend(b"1,1,1,r1c1,dom\xffination,q8221dde8f0ac82b2,1,0.000010,1\n");
    fs::write(&path, &bytes).unwrap();
    queendom()
        .arg("table")
        .args(SMALL)
        .arg("-o")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2 is not UTF-8 text"));
    assert_eq!(fs::read(&path).unwrap(), bytes);

    // Other formats read their own rows only.
    let json_row = "{\"rows\":1,\"cols\":1,\"queens\":1,\"layout\":\"r1c1\",\"problem\":\"domination\",\"digest\":\"q8221dde8f0ac82b2\",\"nodes\":1,\"seconds\":0.000010,\"threads\":1}\n";
    let j: &[&str] = &["--rows", "1-3", "--cols", "1-4", "-o", "t.jsonl"];
    refused(
        j,
        &[("t.jsonl", &format!("{json_row}[1,2]\n"))],
        "line 2 is not a json table row",
    );
    refused(
        j,
        &[(
            "t.jsonl",
            &json_row.replace("\"threads\":1", "\"threads\":1,\"extra\":0"),
        )],
        "unknown field `extra`",
    );
    refused(
        &["--rows", "1-3", "--cols", "1-4", "-o", "t.tsv"],
        &[("t.tsv", &file(&[ROW_1X1]))],
        "is not a queendom tsv table",
    );
    // Whole-table formats are never resumed.
    refused(
        &["--rows", "1", "--cols", "1", "-o", "t.md"],
        &[("t.md", "| rows |\n")],
        "t.md already exists, and markdown tables cannot be resumed: use --force",
    );
    refused(
        &["--rows", "1", "--cols", "1", "-f", "grid", "-o", "t.csv"],
        &[("t.csv", "x\n")],
        "grid tables cannot be resumed",
    );
}
