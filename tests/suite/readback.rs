//! Rows read back when a table is resumed must hold together (issue 25): counts that no board can
//! have, a board that disagrees with its transpose, N-queens counts outside unique ≤ solutions ≤
//! 8 × unique are refused with one line naming the row, exit 2, the file untouched, even when the
//! digest was recomputed to match. Files saved by spreadsheets (CRLF, a byte order mark) are
//! still resumed, and N-queens rows carry digests as the other tables do.

use std::fs;
use std::path::Path;

use queendom::row::{LayoutTotals, NQueensRow, Row, TableRow};
use queendom::search::Problem;
use queendom::{Board, Layout};
use tempfile::TempDir;

use crate::common::{queendom, read};

/// Run queendom in `dir`; (exit code, stderr).
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = queendom().args(args).current_dir(dir).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text` with the line starting with `start` replaced by `line`.
fn replace_line(text: &str, start: &str, line: &str) -> String {
    let old = text
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting with {start} in {text}"));
    text.replace(old, line)
}

/// A count row of `board` with the given values, its digest matching them.
fn count_row(board: Board, layout: &str, layouts: u64, classes: u64) -> String {
    let row = TableRow {
        board,
        problem: Problem::Domination,
        layout: Layout::parse(board, layout).unwrap(),
        counts: Some(LayoutTotals { layouts, classes }),
        lower: None,
        nodes: 0,
        seconds: 0.0,
        threads: 1,
    };
    format!(
        "{},{},{},{layout},domination,{layouts},{classes},{},0,0.000000,1",
        board.rows(),
        board.cols(),
        row.queens(),
        row.digest()
    )
}

/// The fields of the row of `start` in a csv.
fn fields<'a>(text: &'a str, start: &str) -> Vec<&'a str> {
    text.lines()
        .find(|l| l.starts_with(start))
        .unwrap()
        .split(',')
        .collect()
}

const COUNT: [&str; 8] = [
    "table", "--count", "--rows", "1-5", "--cols", "1-5", "-o", "c.csv",
];

#[test]
fn a_count_row_with_impossible_classes_is_refused() {
    let dir = TempDir::new().unwrap();
    assert_eq!(run(dir.path(), &COUNT).0, Some(0));
    let text = read(&dir.path().join("c.csv"));
    let f = fields(&text, "4,5,");
    let board = Board::new(4, 5).unwrap();
    let layouts: u64 = f[5].parse().unwrap();
    for (layouts, classes) in [(layouts, layouts + 1), (4 * layouts + 4, layouts)] {
        let forged = replace_line(&text, "4,5,", &count_row(board, f[3], layouts, classes));
        fs::write(dir.path().join("c.csv"), &forged).unwrap();
        let (code, err) = run(dir.path(), &COUNT);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("(board 4x5) cannot be true") && err.lines().count() == 1,
            "{err}"
        );
        assert_eq!(read(&dir.path().join("c.csv")), forged, "file untouched");
    }
}

#[test]
fn a_count_row_that_disagrees_with_its_transpose_is_refused() {
    let dir = TempDir::new().unwrap();
    assert_eq!(run(dir.path(), &COUNT).0, Some(0));
    let text = read(&dir.path().join("c.csv"));
    let f = fields(&text, "5,4,");
    let board = Board::new(5, 4).unwrap();
    // Possible counts (one layout more, classes unchanged), with a matching digest: only the
    // transpose's row says otherwise.
    let layouts: u64 = f[5].parse().unwrap();
    let classes: u64 = f[6].parse().unwrap();
    let forged = replace_line(&text, "5,4,", &count_row(board, f[3], layouts + 1, classes));
    fs::write(dir.path().join("c.csv"), &forged).unwrap();
    let (code, err) = run(dir.path(), &COUNT);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("(board 5x4) disagrees with line")
            && err.contains("(board 4x5, its transpose)")
            && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(read(&dir.path().join("c.csv")), forged, "file untouched");
}

#[test]
fn a_plain_row_that_disagrees_with_its_transpose_is_refused() {
    let dir = TempDir::new().unwrap();
    let args = ["table", "--rows", "1-5", "--cols", "1-5", "-o", "t.csv"];
    assert_eq!(run(dir.path(), &args).0, Some(0));
    let text = read(&dir.path().join("t.csv"));
    // γ(5x3) = 2; three queens also cover it, and the digest is made to match.
    let board = Board::new(5, 3).unwrap();
    let layout = "r1c1 r3c2 r5c3";
    let row = TableRow {
        board,
        problem: Problem::Domination,
        layout: Layout::parse(board, layout).unwrap(),
        counts: None,
        lower: None,
        nodes: 0,
        seconds: 0.0,
        threads: 1,
    };
    Problem::Domination.check(&row.layout, 3).unwrap();
    let line = format!("5,3,3,{layout},domination,{},0,0.000000,1", row.digest());
    let forged = replace_line(&text, "5,3,", &line);
    fs::write(dir.path().join("t.csv"), &forged).unwrap();
    let (code, err) = run(dir.path(), &args);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("its transpose") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(read(&dir.path().join("t.csv")), forged, "file untouched");
}

#[test]
fn a_spreadsheet_saved_count_table_is_still_resumed() {
    let dir = TempDir::new().unwrap();
    assert_eq!(run(dir.path(), &COUNT).0, Some(0));
    let whole = read(&dir.path().join("c.csv"));
    let half: Vec<&str> = whole.lines().take(12).collect();
    let saved = format!("\u{feff}{}\r\n", half.join("\r\n"));
    fs::write(dir.path().join("c.csv"), &saved).unwrap();
    let (code, err) = run(dir.path(), &COUNT);
    assert_eq!(code, Some(0), "{err}");
    let resumed = read(&dir.path().join("c.csv"));
    assert!(resumed.starts_with(&saved), "kept bytes stay");
    assert_eq!(resumed.lines().count(), whole.lines().count());
    assert!(resumed.split_inclusive('\n').all(|l| l.ends_with("\r\n")));
}

/// An N-queens csv row of `board` with its digest.
fn nqueens_row(board: Board, solutions: u64, unique: Option<u64>) -> String {
    let row = NQueensRow {
        board,
        solutions,
        unique,
        seconds: 0.0,
        threads: 1,
    };
    match unique {
        Some(u) => format!(
            "{},{solutions},{u},{},0.000000,1",
            board.rows(),
            row.digest()
        ),
        None => format!(
            "{},{},{solutions},{},0.000000,1",
            board.rows(),
            board.cols(),
            row.digest()
        ),
    }
}

#[test]
fn nqueens_rows_carry_a_digest_and_edits_are_refused() {
    let dir = TempDir::new().unwrap();
    let args = ["nqueens", "4-8", "-o", "n.csv"];
    assert_eq!(run(dir.path(), &args).0, Some(0));
    let text = read(&dir.path().join("n.csv"));
    assert!(text.starts_with("n,solutions,unique,digest,seconds,threads\n"));
    let board = |n| Board::new(n, n).unwrap();
    assert!(text.contains(&nqueens_row(board(8), 92, Some(12))[..20]));
    // By hand: the digest no longer matches.
    let edited = text.replace("8,92,12,", "8,93,12,");
    fs::write(dir.path().join("n.csv"), &edited).unwrap();
    let (code, err) = run(dir.path(), &args);
    assert_eq!((code, err.lines().count()), (Some(2), 1), "{err}");
    assert!(
        err.contains("line 6 (board 8x8) does not match its digest"),
        "{err}"
    );
    assert_eq!(read(&dir.path().join("n.csv")), edited);
    // Digest recomputed: impossible counts are refused from the row alone, possible but wrong
    // ones by counting again.
    for (solutions, unique, says) in [
        (11, 12, "12 unique placements of only 11 placements"),
        (
            97,
            12,
            "97 placements in 12 classes of at most 8 placements each",
        ),
        (
            93,
            12,
            "it says 93 solutions (12 unique), but there are 92 (12 unique)",
        ),
    ] {
        let forged = replace_line(&text, "8,", &nqueens_row(board(8), solutions, Some(unique)));
        fs::write(dir.path().join("n.csv"), &forged).unwrap();
        let (code, err) = run(dir.path(), &args);
        assert_eq!((code, err.lines().count()), (Some(2), 1), "{err}");
        assert!(err.contains("(board 8x8)") && err.contains(says), "{err}");
        assert_eq!(read(&dir.path().join("n.csv")), forged, "file untouched");
    }
}

#[test]
fn nqueens_rectangles_must_agree_with_their_transposes() {
    let dir = TempDir::new().unwrap();
    let args = ["nqueens", "--rows", "4-6", "--cols", "4-6", "-o", "r.csv"];
    assert_eq!(run(dir.path(), &args).0, Some(0));
    let text = read(&dir.path().join("r.csv"));
    let f = fields(&text, "6,4,");
    let solutions: u64 = f[2].parse().unwrap();
    let forged = replace_line(
        &text,
        "6,4,",
        &nqueens_row(Board::new(6, 4).unwrap(), solutions + 2, None),
    );
    fs::write(dir.path().join("r.csv"), &forged).unwrap();
    let (code, err) = run(dir.path(), &args);
    assert_eq!((code, err.lines().count()), (Some(2), 1), "{err}");
    assert!(err.contains("(board 6x4) disagrees with line"), "{err}");
    assert_eq!(read(&dir.path().join("r.csv")), forged);
}

#[test]
fn older_nqueens_files_without_digests_need_verify() {
    let dir = TempDir::new().unwrap();
    // As nqueens wrote them before rows carried a digest.
    let old = "n,solutions,unique,seconds,threads\n5,10,2,0.000100,1\n6,4,1,0.000200,1\n";
    fs::write(dir.path().join("n.csv"), old).unwrap();
    let (code, err) = run(dir.path(), &["nqueens", "5-7", "-o", "n.csv"]);
    assert_eq!((code, err.lines().count()), (Some(2), 1), "{err}");
    assert!(err.contains("--verify"), "{err}");
    assert_eq!(read(&dir.path().join("n.csv")), old);
    let (code, err) = run(dir.path(), &["nqueens", "5-7", "-o", "n.csv", "--verify"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("2 counted again"), "{err}");
    let adopted = read(&dir.path().join("n.csv"));
    let board = |n| Board::new(n, n).unwrap();
    assert!(adopted.starts_with("n,solutions,unique,digest,seconds,threads\n"));
    for (n, s, u) in [(5, 10, 2), (6, 4, 1), (7, 40, 6)] {
        let row = nqueens_row(board(n), s, Some(u));
        let values = row.rsplitn(3, ',').last().unwrap();
        assert!(adopted.contains(values), "{values} in {adopted}");
    }
}

#[test]
fn a_spreadsheet_saved_nqueens_table_is_still_resumed() {
    let dir = TempDir::new().unwrap();
    assert_eq!(
        run(dir.path(), &["nqueens", "1-9", "-o", "n.csv"]).0,
        Some(0)
    );
    let whole = read(&dir.path().join("n.csv"));
    let half: Vec<&str> = whole.lines().take(5).collect();
    let saved = format!("\u{feff}{}\r\n", half.join("\r\n"));
    fs::write(dir.path().join("n.csv"), &saved).unwrap();
    let (code, err) = run(dir.path(), &["nqueens", "1-9", "-o", "n.csv"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("4 of 9 boards already done"), "{err}");
    let resumed = read(&dir.path().join("n.csv"));
    assert!(resumed.starts_with(&saved));
    assert_eq!(resumed.lines().count(), 10);
    assert!(resumed.split_inclusive('\n').all(|l| l.ends_with("\r\n")));
}

#[test]
fn nqueens_writes_every_format() {
    let dir = TempDir::new().unwrap();
    for (name, format) in [
        ("n.md", None),
        ("n.xlsx", None),
        ("g", Some("grid")),
        ("b", Some("bfile")),
    ] {
        let mut args = vec!["nqueens", "4-8", "-o", name];
        if let Some(f) = format {
            args.extend(["--format", f]);
        }
        let (code, err) = run(dir.path(), &args);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(dir.path().join(name).is_file());
    }
    assert!(read(&dir.path().join("n.md")).contains("| 8 | 92 | 12 |"));
    assert!(read(&dir.path().join("b")).contains("\n8 92\n"));
    assert!(read(&dir.path().join("g")).starts_with("solutions rows\\cols,4,5,6,7,8\n"));
    let bytes = fs::read(dir.path().join("n.xlsx")).unwrap();
    assert!(bytes.starts_with(b"PK"), "a zip archive");
    // Rectangles cannot be a b-file: refused before any work.
    let (code, err) = run(
        dir.path(),
        &["nqueens", "--rows", "4", "--cols", "5", "--format", "bfile"],
    );
    assert_eq!(code, Some(2), "{err}");
}
