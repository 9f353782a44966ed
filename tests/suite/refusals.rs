//! Every refusal the command line can give exits 2 with one line on standard error, and every
//! refusal the library can give (a variant its `Kind` impl calls a refusal) has a case here or a
//! stated reason why it has none: a new refusal variant without a case fails
//! `every_refusal_variant_has_a_case`.

use std::fs;
use std::path::{Path, PathBuf};

use super::common::queendom;

/// One refusal: what it stands for (a library variant `Type::Variant`, or `cli: …` for the
/// command line's own checks), the command line that provokes it (after `setup` prepared the
/// directory), and a piece of the line it prints.
struct Case {
    refusal: &'static str,
    setup: fn(&Path),
    args: &'static [&'static str],
    says: &'static str,
}

fn nothing(_: &Path) {}

/// A plan of one part for 6x6 in `run/`.
fn plan(dir: &Path) {
    queendom()
        .current_dir(dir)
        .args(["plan", "6x6", "--parts", "4", "-o", "run"])
        .assert()
        .success();
}

/// A count plan of one part for 6x6 in `run/`.
fn count_plan(dir: &Path) {
    queendom()
        .current_dir(dir)
        .args(["plan", "6x6", "--count", "--parts", "4", "-o", "run"])
        .assert()
        .success();
}

/// `run/` with its one part done.
fn done(dir: &Path) {
    plan(dir);
    queendom()
        .current_dir(dir)
        .args(["work", "run", "--next", "-j", "1"])
        .assert()
        .success();
}

/// `run/` whose one result file is not a report.
fn junk_result(dir: &Path) {
    plan(dir);
    fs::create_dir_all(dir.join("run/results")).unwrap();
    fs::write(dir.join("run/results/part-000000.json"), "junk\n").unwrap();
}

/// `run/` whose one result belongs to another plan of the same board.
fn foreign_result(dir: &Path) {
    done(dir);
    let other = dir.join("other");
    fs::create_dir(&other).unwrap();
    queendom()
        .current_dir(&other)
        .args(["plan", "6x6", "--parts", "4", "-i", "-o", "run"])
        .assert()
        .success();
    fs::create_dir_all(other.join("run/results")).unwrap();
    fs::copy(
        dir.join("run/results/part-000000.json"),
        other.join("run/results/part-000000.json"),
    )
    .unwrap();
    fs::remove_dir_all(dir.join("run")).unwrap();
    fs::rename(other.join("run"), dir.join("run")).unwrap();
}

/// A table plan of 2..3 x 3..4 in `run/` whose axes are edited to `axes`.
fn table_plan_with_axes(dir: &Path, axes: &str) {
    queendom()
        .current_dir(dir)
        .args([
            "plan", "--rows", "2-3", "--cols", "3-4", "--parts", "4", "-o", "run",
        ])
        .assert()
        .success();
    let path = dir.join("run/plan.json");
    let text = fs::read_to_string(&path).unwrap();
    let mut plan: serde_json::Value = serde_json::from_str(&text).unwrap();
    plan["table"] = serde_json::from_str(axes).unwrap();
    fs::write(&path, serde_json::to_vec_pretty(&plan).unwrap()).unwrap();
}

fn zero_axis(dir: &Path) {
    table_plan_with_axes(dir, r#"{"rows": [0, 2], "cols": [3, 4]}"#);
}

fn foreign_axis(dir: &Path) {
    table_plan_with_axes(dir, r#"{"rows": [2, 9], "cols": [3, 9]}"#);
}

/// A plan of 12x12 in one part: cut into pieces of 1e-9 of it, it would be cut down to single
/// nodes.
fn plan_12x12(dir: &Path) {
    queendom()
        .current_dir(dir)
        .args(["plan", "12x12", "--parts", "1", "-o", "run"])
        .assert()
        .success();
}

/// `ck/6x6-domination/` that holds a file of somebody else's and no plan.
fn foreign_checkpoint(dir: &Path) {
    fs::create_dir_all(dir.join("ck/6x6-domination")).unwrap();
    fs::write(dir.join("ck/6x6-domination/notes.txt"), "mine\n").unwrap();
}

/// `ck/`, the checkpoint of a solve of 6x6, with a stray file among its results.
fn stray_in_checkpoint(dir: &Path) {
    queendom()
        .current_dir(dir)
        .args(["solve", "6x6", "--checkpoint", "ck"])
        .assert()
        .success();
    fs::write(dir.join("ck/6x6-domination/results/answer.txt"), "5\n").unwrap();
}

/// A plan of 6x6 whose cost was edited to a rate of no nodes per second (and so infinite hours).
fn forged_cost(dir: &Path) {
    plan(dir);
    let path = dir.join("run/plan.json");
    let mut plan: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    plan["cost"] = serde_json::json!({
        "nodes_per_cpu_second": 0.0,
        "cpu_hours": 1.0,
        "host": "forger",
        "samples": [{"board": 0, "path": "0", "nodes": 0, "cpu_seconds": 1.0}],
    });
    fs::write(&path, serde_json::to_vec_pretty(&plan).unwrap()).unwrap();
}

/// `run/plan.json` that is not JSON.
fn junk_plan(dir: &Path) {
    fs::create_dir(dir.join("run")).unwrap();
    fs::write(dir.join("run/plan.json"), "{\n").unwrap();
}

fn hello_csv(dir: &Path) {
    fs::write(dir.join("t.csv"), "hello\n").unwrap();
}

fn empty_csv(dir: &Path) {
    fs::write(dir.join("t.csv"), "").unwrap();
}

fn binary_csv(dir: &Path) {
    fs::write(dir.join("t.csv"), b"\x00\xff\n").unwrap();
}

/// A γ table of 1x2 and 2x2 in `t.csv`.
fn gamma_csv(dir: &Path) {
    queendom()
        .current_dir(dir)
        .args([
            "table", "--rows", "1-2", "--cols", "2", "-o", "t.csv", "-j", "1",
        ])
        .assert()
        .success();
}

/// `run/` done, and an `answer.txt` beside it.
fn done_and_an_answer(dir: &Path) {
    done(dir);
    fs::write(dir.join("answer.txt"), "an earlier answer\n").unwrap();
}

fn existing_json(dir: &Path) {
    fs::write(dir.join("t.json"), "[]\n").unwrap();
}

const CASES: &[Case] = &[
    Case {
        refusal: "BoardError::Empty",
        setup: nothing,
        args: &["solve", "0x3"],
        says: "at least one row and one column",
    },
    Case {
        refusal: "BoardError::TooBig",
        setup: nothing,
        args: &["solve", "99x99"],
        says: "is too big",
    },
    Case {
        refusal: "BoardParseError::Malformed",
        setup: nothing,
        args: &["solve", "8y8"],
        says: "'8y8' is not a board size",
    },
    Case {
        refusal: "LayoutParseError::BadSquare",
        setup: nothing,
        args: &["solve", "8x8", "--start", "a1"],
        says: "'a1' is not a square",
    },
    Case {
        refusal: "LayoutParseError::OffBoard",
        setup: nothing,
        args: &["solve", "8x8", "--start", "r9c1"],
        says: "is off the 8x8 board",
    },
    Case {
        refusal: "StartError::Check",
        setup: nothing,
        args: &["solve", "8x8", "--start", "r1c1"],
        says: "refused by the checker",
    },
    Case {
        refusal: "CheckError::Uncovered",
        setup: nothing,
        args: &["solve", "8x8", "--start", "r1c1"],
        says: "is not covered by any queen",
    },
    Case {
        refusal: "StartError::Parse",
        setup: nothing,
        args: &["solve", "5x5", "--start", "x"],
        says: "start layout for 5x5",
    },
    Case {
        refusal: "SizeListError::Reversed",
        setup: nothing,
        args: &["table", "--rows", "5-3", "--cols", "1"],
        says: "runs backwards",
    },
    Case {
        refusal: "SizeListError::Zero",
        setup: nothing,
        args: &["table", "--rows", "0", "--cols", "1"],
        says: "size 0",
    },
    Case {
        refusal: "SizeListError::NotANumber",
        setup: nothing,
        args: &["table", "--rows", "x", "--cols", "1"],
        says: "'x' is not a size",
    },
    Case {
        refusal: "SizeListError::TooBig",
        setup: nothing,
        args: &["nqueens", "99"],
        says: "is too big",
    },
    Case {
        refusal: "SizeListError::Empty",
        setup: nothing,
        args: &["table", "--rows", "", "--cols", "1"],
        says: "empty size list",
    },
    Case {
        refusal: "FormatError::NotSquare",
        setup: nothing,
        args: &["table", "--rows", "3", "--cols", "4", "-f", "bfile"],
        says: "square boards only",
    },
    Case {
        refusal: "OutputError::Refused",
        setup: nothing,
        args: &["table", "--rows", "1", "--cols", "1", "-o", "."],
        says: "it is a directory",
    },
    Case {
        refusal: "TableError::Refused",
        setup: existing_json,
        args: &["table", "--rows", "2", "--cols", "2", "-o", "t.json"],
        says: "cannot resume t.json",
    },
    Case {
        refusal: "ResumeError::Header",
        setup: hello_csv,
        args: &["table", "--rows", "2", "--cols", "2", "-o", "t.csv"],
        says: "it is not a queendom csv table",
    },
    Case {
        refusal: "ResumeError::OtherProblem",
        setup: gamma_csv,
        args: &["table", "--rows", "1-2", "--cols", "2", "-o", "t.csv", "-i"],
        says: "but this run computes independent-domination",
    },
    Case {
        refusal: "ResumeError::OtherKind",
        setup: gamma_csv,
        args: &[
            "table", "--rows", "1-2", "--cols", "2", "-o", "t.csv", "--count",
        ],
        says: "drop --count",
    },
    Case {
        refusal: "cli: a budget of no time",
        setup: nothing,
        args: &["table", "--squares", "4", "--budget", "0s"],
        says: "the budget must be more than zero",
    },
    Case {
        refusal: "ResumeError::NotRequested",
        setup: gamma_csv,
        args: &["table", "--rows", "2", "--cols", "2", "-o", "t.csv"],
        says: "which is not in the requested boards",
    },
    Case {
        refusal: "TableFileError::Foreign",
        setup: hello_csv,
        args: &["plot", "t.csv", "-o", "p.svg"],
        says: "it is not a table written by queendom table",
    },
    Case {
        refusal: "TableFileError::Empty",
        setup: empty_csv,
        args: &["plot", "t.csv", "-o", "p.svg"],
        says: "the file is empty",
    },
    Case {
        refusal: "TableFileError::NotText",
        setup: binary_csv,
        args: &["plot", "t.csv", "-o", "p.svg"],
        says: "not UTF-8 text",
    },
    Case {
        refusal: "RunDirError",
        setup: nothing,
        args: &["status", "nowhere"],
        says: "holds no plan",
    },
    Case {
        refusal: "cli: work on no run directory",
        setup: nothing,
        args: &["work", "nowhere", "--part", "0"],
        says: "holds no plan",
    },
    Case {
        refusal: "cli: merge of no run directory",
        setup: nothing,
        args: &["merge", "nowhere"],
        says: "holds no plan",
    },
    Case {
        refusal: "cli: audit of no run directory",
        setup: nothing,
        args: &["audit", "nowhere"],
        says: "holds no plan",
    },
    Case {
        refusal: "PlanError::NotAPlan",
        setup: junk_plan,
        args: &["merge", "run"],
        says: "it is not a queendom plan",
    },
    Case {
        refusal: "OutputInLedger",
        setup: done,
        args: &["merge", "run", "-o", "run/results/answer.txt"],
        says: "is inside the ledger of the run",
    },
    Case {
        refusal: "PlanError::BadAxis",
        setup: zero_axis,
        args: &["merge", "run"],
        says: "plan.json: its table's rows hold 0",
    },
    Case {
        refusal: "cli: status of a table plan with an axis of 0",
        setup: zero_axis,
        args: &["status", "run"],
        says: "plan.json: its table's rows hold 0",
    },
    Case {
        refusal: "cli: work on a table plan with an axis of 0",
        setup: zero_axis,
        args: &["work", "run", "--next"],
        says: "plan.json: its table's rows hold 0",
    },
    Case {
        refusal: "cli: merge -o over the run's own plan, with --force",
        setup: done,
        args: &["merge", "run", "-o", "run/plan.json", "--force"],
        says: "is inside the ledger of the run run (plan.json)",
    },
    Case {
        refusal: "cli: merge -o into the run's merge.log",
        setup: done,
        args: &["merge", "run", "-o", "run/merge.log"],
        says: "is inside the ledger of the run run (merge.log)",
    },
    Case {
        refusal: "cli: merge of one board into a workbook",
        setup: done,
        args: &["merge", "run", "-o", "x.xlsx"],
        says: "x.xlsx: run is a plan of one board, whose merged answer is text, not a workbook",
    },
    Case {
        refusal: "cli: merge --format of one board",
        setup: done,
        args: &["merge", "run", "--format", "xlsx", "-o", "x.txt"],
        says: "--format is for table plans",
    },
    Case {
        refusal: "cli: --checkpoint over a directory of somebody else's",
        setup: foreign_checkpoint,
        args: &["solve", "6x6", "--checkpoint", "ck"],
        says: "ck/6x6-domination holds notes.txt but no plan: it is not a checkpoint of",
    },
    Case {
        refusal: "cli: --checkpoint with a stray result",
        setup: stray_in_checkpoint,
        args: &["solve", "6x6", "--checkpoint", "ck"],
        says: "is not a checkpoint of this run",
    },
    Case {
        refusal: "cli: status of a plan whose cost has no positive rate",
        setup: forged_cost,
        args: &["status", "run"],
        says: "plan.json: it is inconsistent: its cost has no positive rate",
    },
    Case {
        refusal: "PlanError::AxisBoard",
        setup: foreign_axis,
        args: &["status", "run"],
        says: "plan.json: its table holds 2x9",
    },
    Case {
        refusal: "SplitError::TooManyPieces",
        setup: plan_12x12,
        args: &["plan", "run", "--split", "0", "--share", "0.00025"],
        says: "would be cut into more than 4096 pieces",
    },
    Case {
        refusal: "SplitError::ShareTooSmall",
        setup: plan,
        args: &["plan", "run", "--split", "0", "--share", "1e-9"],
        says:
            "--share 1e-9 asks for pieces of at most that share of a part, so more than 4096 pieces",
    },
    Case {
        refusal: "SplitError::NoSuchPart",
        setup: plan,
        args: &["plan", "run", "--split", "99"],
        says: "part 99 does not exist",
    },
    Case {
        refusal: "PartListError::EmptyRange",
        setup: plan,
        args: &["audit", "run", "--parts", "5-3"],
        says: "the range 5-3 is empty",
    },
    Case {
        refusal: "PartListError::NotANumber",
        setup: plan,
        args: &["audit", "run", "--parts", "x"],
        says: "'x' is not a part number",
    },
    Case {
        refusal: "PartListError::NoSuchPart",
        setup: plan,
        args: &["audit", "run", "--parts", "99"],
        says: "part 99 does not exist",
    },
    Case {
        refusal: "ReportError::NotAReport",
        setup: junk_result,
        args: &["merge", "run"],
        says: "it is not a queendom part report",
    },
    Case {
        refusal: "AuditError::RefusedResult",
        setup: junk_result,
        args: &["audit", "run"],
        says: "it is not a queendom part report",
    },
    Case {
        refusal: "AuditError::PlainCount",
        setup: count_plan,
        args: &["audit", "run", "--plain"],
        says: "--plain audits the parts of a minimum plan",
    },
    Case {
        refusal: "ReportError::OtherPlan",
        setup: foreign_result,
        args: &["merge", "run"],
        says: "it belongs to another plan",
    },
    Case {
        refusal: "cli: --split with -o",
        setup: plan,
        args: &["plan", "run", "--split", "0", "-o", "x"],
        says: "no -o",
    },
    Case {
        refusal: "PlanAskError::CountOfTable",
        setup: nothing,
        args: &["plan", "--rows", "2", "--cols", "2", "--count", "-o", "x"],
        says: "count plans take one board",
    },
    Case {
        refusal: "PlanAskError::RowsWithoutCols",
        setup: nothing,
        args: &["plan", "--rows", "2", "-o", "x"],
        says: "--rows needs --cols",
    },
    Case {
        refusal: "PlanAskError::ColsWithoutRows",
        setup: nothing,
        args: &["plan", "--cols", "2", "-o", "x"],
        says: "--cols needs --rows",
    },
    Case {
        refusal: "PlanAskError::BoardAndTable",
        setup: nothing,
        args: &["plan", "5x5", "--rows", "2", "--cols", "2", "-o", "x"],
        says: "not both",
    },
    Case {
        refusal: "PlanAskError::NoBoard",
        setup: nothing,
        args: &["plan", "-o", "x"],
        says: "give a board (e.g. 19x19)",
    },
    Case {
        refusal: "PlanAskError::Board",
        setup: nothing,
        args: &["plan", "8y8", "-o", "x"],
        says: "'8y8' is not a board size",
    },
    Case {
        refusal: "cli: merge -o onto an existing file",
        setup: done_and_an_answer,
        args: &["merge", "run", "-o", "answer.txt"],
        says: "use --force",
    },
    Case {
        refusal: "WorkerError::NoPart",
        setup: plan,
        args: &["work", "run"],
        says: "which part?",
    },
    Case {
        refusal: "cli: --sample out of range",
        setup: done,
        args: &["audit", "run", "--sample", "200%"],
        says: "--sample '200%'",
    },
    Case {
        refusal: "cli: nqueens --list too big",
        setup: nothing,
        args: &["nqueens", "20", "--list"],
        says: "cannot list n = 20",
    },
    Case {
        refusal: "cli: an unknown option (clap)",
        setup: nothing,
        args: &["solve", "8x8", "--bogus"],
        says: "--bogus",
    },
];

/// Refusal variants without a case above, and why.
const WITHOUT_A_CASE: &[(&str, &str)] = &[
    (
        "SearchError::NoSuchPart",
        "a part path the plan itself holds: PlanError::OtherSearch refuses such a plan first",
    ),
    (
        "PartPathError",
        "read from a plan, whose check (PlanError) names it",
    ),
    (
        "NQueensError::Zero",
        "the size list refuses 0 first (SizeListError::Zero)",
    ),
    (
        "NQueensError::TooBig",
        "the size list refuses it first (SizeListError::TooBig)",
    ),
    (
        "NQueensError::TooBigToList",
        "the command line refuses --list past 18 first (case `cli: nqueens --list too big`)",
    ),
    (
        "StartError::Repeated",
        "two --start layouts for one board: tests/suite/start.rs",
    ),
    (
        "CheckError::WrongSize",
        "a layout of another size: the checker's unit tests (src/check.rs)",
    ),
    (
        "CheckError::OffBoard",
        "squares are parsed against the board first (LayoutParseError::OffBoard)",
    ),
    (
        "CheckError::Repeated",
        "the checker's unit tests (src/check.rs)",
    ),
    (
        "CheckError::Attacking",
        "an attacking start layout with -i: tests/suite/start.rs",
    ),
    (
        "PlacementError::OffBoard",
        "read back from N-queens tables; src/nqueens_check.rs unit tests",
    ),
    (
        "PlacementError::SameColumn",
        "src/nqueens_check.rs unit tests",
    ),
    (
        "PlacementError::SameDiagonal",
        "src/nqueens_check.rs unit tests",
    ),
    (
        "RowReadError::FieldCount",
        "a short row in a resumed table: tests/suite/readback.rs",
    ),
    ("RowReadError::NotANumber", "tests/suite/readback.rs"),
    ("RowReadError::NotSeconds", "tests/suite/readback.rs"),
    ("RowReadError::Json", "tests/suite/readback.rs"),
    (
        "RowReadError::RepeatedKey",
        "tests/suite/hostile.rs json_rows_with_a_repeated_key_are_refused",
    ),
    (
        "RowReadError::NotALineFormat",
        "only whole-table formats, which ResumeError::NotResumable refuses first",
    ),
    ("RowReadError::Board", "tests/suite/readback.rs"),
    (
        "UnknownProblem",
        "a problem column that names none: tests/suite/cli_pictures.rs",
    ),
    ("MergeError::Plan", "a forged plan: tests/suite/plan.rs"),
    (
        "MergeError::Unproven",
        "a forged result: tests/suite/plan.rs",
    ),
    (
        "MergeError::Uncovered",
        "a forged plan: tests/suite/plan.rs",
    ),
    ("MergeError::Overlap", "a forged plan: tests/suite/plan.rs"),
    (
        "MergeError::BadCount",
        "a forged count result: tests/suite/plan.rs",
    ),
    (
        "MergeError::Overflow",
        "forged sums past 2^64 - 1: tests/suite/certify.rs",
    ),
    (
        "MergeError::Check",
        "a forged layout: ReportError::Check refuses the result file first",
    ),
    (
        "SplitError::Leaf",
        "a part with no children: tests/suite/plan.rs",
    ),
    (
        "PlanError::Version",
        "a plan of another version: tests/suite/plan.rs",
    ),
    (
        "PlanError::QueendomVersion",
        "a plan of another build: tests/suite/plan.rs",
    ),
    (
        "PlanError::Inconsistent",
        "a changed plan: tests/suite/plan.rs",
    ),
    (
        "PlanError::OtherSearch",
        "a plan cut by another search: tests/suite/plan.rs",
    ),
    (
        "ReportError::WrongPart",
        "a result renamed: tests/suite/plan.rs",
    ),
    (
        "ReportError::Mismatch",
        "a forged result: tests/suite/plan.rs",
    ),
    ("ReportError::Check", "a forged layout: tests/suite/plan.rs"),
    ("LineError::BadRow", "tests/suite/readback.rs"),
    ("LineError::BadBoard", "tests/suite/readback.rs"),
    ("LineError::Repeated", "tests/suite/readback.rs"),
    ("LineError::BadLayout", "tests/suite/readback.rs"),
    ("LineError::Check", "tests/suite/readback.rs"),
    ("ResumeError::NotResumable", "tests/suite/table.rs"),
    ("ResumeError::NotText", "tests/suite/robust.rs"),
    (
        "ResumeError::LongLine",
        "tests/suite/hostile.rs a_huge_file_is_refused_at_once",
    ),
    (
        "ResumeError::PartialLine",
        "tests/suite/hostile.rs a_last_line_that_is_not_a_row_is_refused",
    ),
    ("ResumeError::Line", "as LineError"),
    ("ResumeError::Digest", "tests/suite/robust.rs"),
    ("ResumeError::NotMinimal", "tests/suite/robust.rs"),
    ("ResumeError::WrongCounts", "tests/suite/count_table.rs"),
    ("ResumeError::NoDigest", "tests/suite/robust.rs"),
    ("ResumeError::Impossible", "tests/suite/robust.rs"),
    ("ResumeError::Transposes", "tests/suite/robust.rs"),
    ("ResumeError::Looser", "tests/suite/budget.rs"),
    ("RowReadError::Bounds", "tests/suite/budget.rs"),
    ("TableFileError::NoLayouts", "tests/suite/cli_pictures.rs"),
    ("TableFileError::NoRows", "tests/suite/cli_pictures.rs"),
    (
        "TableFileError::UnknownProblem",
        "tests/suite/cli_pictures.rs",
    ),
    (
        "TableFileError::MixedProblems",
        "tests/suite/cli_pictures.rs",
    ),
    ("TableFileError::Line", "as LineError"),
    ("TablesError::SameProblem", "tests/suite/cli_pictures.rs"),
    (
        "TablesError::IndependentBelowGamma",
        "tests/suite/cli_pictures.rs",
    ),
    ("HeatmapError::OutsideScale", "tests/suite/cli_pictures.rs"),
    (
        "HeatmapError::DifferenceNeedsBoth",
        "tests/suite/cli_pictures.rs",
    ),
    ("ScaleError::Syntax", "tests/suite/cli_pictures.rs"),
    ("ScaleError::Empty", "tests/suite/cli_pictures.rs"),
    ("ScaleError::TooHigh", "tests/suite/cli_pictures.rs"),
    (
        "WorkerError::BadSlurmTask",
        "SLURM_ARRAY_TASK_ID that is no rank: tests/suite/plan.rs",
    ),
    (
        "WorkerError::Plan",
        "a part the plan's search cuts differently: tests/suite/plan.rs",
    ),
];

/// Run `case` in a fresh directory: exit 2, nothing but one line on standard error, the line
/// a refusal's (no `error:`), naming what `says`.
fn check(case: &Case) {
    let dir = tempfile::tempdir().unwrap();
    (case.setup)(dir.path());
    let out = queendom()
        .current_dir(dir.path())
        .args(case.args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let what = format!("{} ({:?}): stderr {stderr:?}", case.refusal, case.args);
    assert_eq!(out.status.code(), Some(2), "{what}");
    assert_eq!(stderr.lines().count(), 1, "{what}");
    assert!(stderr.ends_with('\n'), "{what}");
    assert!(stderr.starts_with("queendom: "), "{what}");
    assert!(!stderr.starts_with("queendom: error:"), "{what}");
    assert!(stderr.contains(case.says), "{what}");
}

#[test]
fn every_refusal_exits_2_with_one_line() {
    for case in CASES {
        check(case);
    }
}

/// The refusal variants of the library's `Kind` impls: in each `impl Kind for T` block, the
/// `T::Variant` patterns of the arms that give `ErrorKind::Refusal`, and `T` itself for a type
/// whose one answer is a refusal.
fn refusal_variants() -> Vec<String> {
    let mut found = Vec::new();
    let mut files = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for entry in fs::read_dir(&path).unwrap() {
                files.push(entry.unwrap().path());
            }
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for block in text.split("\nimpl").skip(1) {
            let Some(rest) = block.split_once("Kind for ").map(|(_, r)| r) else {
                continue;
            };
            if !block.starts_with(" Kind for ") && !block.starts_with("<E: Kind> Kind for ") {
                continue;
            }
            let ty: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let body = &rest[..rest.find("\n}\n").unwrap_or(rest.len())];
            if !body.contains("match self") {
                if body.contains("ErrorKind::Refusal") {
                    found.push(ty);
                }
                continue;
            }
            // Each arm: the patterns before `=>`, the kind after it. The text before an arm's
            // `=>` runs back to the end of the previous arm's kind.
            let pieces: Vec<&str> = body.split("=>").collect();
            for i in 1..pieces.len() {
                let kind = pieces[i].trim_start().trim_start_matches('{').trim_start();
                if !kind.starts_with("ErrorKind::Refusal") {
                    continue;
                }
                let before = pieces[i - 1];
                let start = [
                    "ErrorKind::Refusal",
                    "ErrorKind::Failure",
                    "kind()",
                    "match self {",
                ]
                .iter()
                .filter_map(|end| before.rfind(end).map(|at| at + end.len()))
                .max()
                .unwrap_or(0);
                let pattern = &before[start..];
                let prefix = format!("{ty}::");
                for (at, _) in pattern.match_indices(&prefix) {
                    let name: String = pattern[at + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.push(format!("{ty}::{name}"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_refusal_variant_has_a_case() {
    let variants = refusal_variants();
    // The reader works: it finds refusals of several kinds of impl.
    for known in ["BoardError::Empty", "RunDirError", "ResumeError::Digest"] {
        assert!(
            variants.iter().any(|v| v == known),
            "{known} in {variants:?}"
        );
    }
    let named = |v: &str| {
        CASES.iter().any(|c| c.refusal == v) || WITHOUT_A_CASE.iter().any(|(w, _)| *w == v)
    };
    let missing: Vec<&String> = variants.iter().filter(|v| !named(v)).collect();
    assert!(
        missing.is_empty(),
        "refusal variants with no case in tests/suite/refusals.rs: {missing:?}"
    );
    // And no stale names: every library variant named here is still a refusal.
    let stale: Vec<&str> = CASES
        .iter()
        .map(|c| c.refusal)
        .chain(WITHOUT_A_CASE.iter().map(|(w, _)| *w))
        .filter(|v| !v.starts_with("cli: ") && !variants.iter().any(|r| r == v))
        .collect();
    assert!(
        stale.is_empty(),
        "not refusal variants (any more): {stale:?}"
    );
}
