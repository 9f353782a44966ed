//! What plot, report and the whole-table formats show of a table with bounds (`table --budget`,
//! issue 48): a bounded board is never shown as if its upper bound were its number. The tables
//! are rows of results/domination-1-32.csv as it was shipped on 2026-12-07 (commit fcea5ea), kept
//! in tests/suite/fixtures/domination-bounds.csv so that tightening results/ does not change
//! them; their bounded boards took more than 5 s each: a budget of a millisecond leaves them as
//! they are.

use std::fs;
use std::path::Path;

use calamine::{open_workbook, Data, Reader, Xlsx};
use roxmltree::Document;
use tempfile::TempDir;

use crate::common::{queendom, read};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header and the rows of boards `keep` picks from the fixture.
fn results_rows(keep: impl Fn(usize, usize) -> bool) -> String {
    let fixture = Path::new(ROOT).join("tests/suite/fixtures/domination-bounds.csv");
    let text = fs::read_to_string(fixture).unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for line in lines {
        let mut f = line.split(',').map(|v| v.parse::<usize>().unwrap_or(0));
        if keep(f.next().unwrap(), f.next().unwrap()) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// 12×20 (γ = 9) and 13×20 (γ = 10) proven; 12-13 × 21-22 bounded, each 9–10.
fn rectangles() -> String {
    let text = results_rows(|r, c| (12..=13).contains(&r) && (20..=22).contains(&c));
    assert_eq!(text.lines().count(), 7);
    assert_eq!(text.matches(",bounds,").count(), 4, "{text}");
    assert_eq!(text.matches(",9,10,bounds,").count(), 4, "{text}");
    text
}

fn texts(svg: &str) -> Vec<String> {
    let doc = Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn plot_and_report_show_bounds_as_bounds() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("bounds.csv"), rectangles()).unwrap();
    let run = |args: &[&str]| {
        queendom()
            .args(args)
            .current_dir(dir.path())
            .assert()
            .success()
    };
    run(&["plot", "bounds.csv", "-o", "b.svg"]);
    let svg = read(&dir.path().join("b.svg"));
    assert_eq!(svg.matches(r#"class="cell bounds""#).count(), 4);
    assert_eq!(svg.matches(r#"class="cell""#).count(), 2);
    assert_eq!(
        svg.matches(r#"<path class="hatch""#).count(),
        5,
        "4 cells and the key"
    );
    let texts = texts(&svg);
    assert_eq!(texts.iter().filter(|t| *t == "9–10").count(), 4);
    // Only 13×20 is 10; the bounded cells have no value, only their bounds.
    assert_eq!(svg.matches(r#"data-value="10""#).count(), 1);
    assert_eq!(svg.matches(r#"data-lower="9" data-upper="10""#).count(), 4);
    assert!(texts
        .iter()
        .any(|t| t.starts_with("bounds: lower–upper, not proven")));
    assert!(texts
        .iter()
        .any(|t| t.ends_with("6 boards, 4 of them with bounds only")));
    run(&["plot", "bounds.csv", "-o", "b.png"]);
    assert!(fs::read(dir.path().join("b.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
    run(&["plot", "bounds.csv", "-o", "b.pdf"]);
    let pdf = fs::read(dir.path().join("b.pdf")).unwrap();
    crate::pdf::check_pdf(&pdf);

    run(&["report", "bounds.csv", "-o", "b.html"]);
    let html = read(&dir.path().join("b.html"));
    assert!(
        html.contains("12×21 · γ bounds 9–10 (layout of 10)"),
        "summary"
    );
    assert!(html.contains("12×20 · γ = 9<"), "a proven board as before");
    assert!(html.contains("6 boards from <code>bounds.csv</code>, 2 proven and 4 with bounds only"));
    assert!(
        html.contains("γ(13×22) bounds 9–10 (layout of 10)"),
        "diagram title"
    );
}

/// Run `table` on `boards` (its arguments) with a 1 ms budget into `file` of `format`, with
/// `rows` already in its journal, as an interrupted run leaves them.
fn export(dir: &Path, rows: &str, boards: &[&str], format: &str, file: &str) {
    fs::write(dir.join(format!(".{file}.partial")), rows).unwrap();
    queendom()
        .args([
            "table", "--budget", "1ms", "-j", "1", "-f", format, "-o", file,
        ])
        .args(boards)
        .current_dir(dir)
        .assert()
        .success();
}

#[test]
fn the_grid_markdown_and_workbook_show_bounds_as_bounds() {
    let dir = TempDir::new().unwrap();
    let boards = ["--rows", "12-13", "--cols", "20-22"];
    export(dir.path(), &rectangles(), &boards, "grid", "g.csv");
    assert_eq!(
        read(&dir.path().join("g.csv")),
        "domination rows\\cols,20,21,22\n12,9,9..10,9..10\n13,10,9..10,9..10\n"
    );

    export(dir.path(), &rectangles(), &boards, "markdown", "t.md");
    let markdown = read(&dir.path().join("t.md"));
    let mut lines = markdown.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("| rows | cols | queens | layout | problem | lower | upper | status |"));
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let rows: Vec<Vec<String>> = lines.skip(1).map(cells).collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0][..3], ["12", "20", "9"]);
    assert_eq!(rows[0][5..8], ["9", "9", "proven"]);
    assert_eq!(rows[1][..3], ["12", "21", "10"]);
    assert_eq!(rows[1][5..8], ["9", "10", "bounds"]);

    export(dir.path(), &rectangles(), &boards, "xlsx", "t.xlsx");
    let mut book: Xlsx<_> = open_workbook(dir.path().join("t.xlsx")).unwrap();
    let sheet = book.worksheet_range("rows").unwrap();
    let header: Vec<String> = (0..12)
        .map(|c| sheet.get((0, c)).unwrap().to_string())
        .collect();
    assert_eq!(header[5..8], ["lower", "upper", "status"]);
    // 12×21: the second row, bounded.
    assert_eq!(sheet.get((2, 5)), Some(&Data::Float(9.0)));
    assert_eq!(sheet.get((2, 6)), Some(&Data::Float(10.0)));
    assert_eq!(sheet.get((2, 7)), Some(&Data::String("bounds".into())));
    assert_eq!(sheet.get((1, 5)), Some(&Data::Float(9.0)));
    assert_eq!(sheet.get((1, 6)), Some(&Data::Float(9.0)));
    let grid = book.worksheet_range("grid").unwrap();
    assert_eq!(grid.get((1, 1)), Some(&Data::Float(9.0)));
    assert_eq!(grid.get((1, 2)), Some(&Data::String("9..10".into())));
}

#[test]
fn a_bfile_stops_before_the_first_square_that_is_not_proven() {
    // γ(20×20) = 11 and γ(21×21) = 11 proven; 22×22 bounded 11–12; 23×23 proven again.
    let rows = results_rows(|r, c| r == c && (20..=23).contains(&r));
    assert_eq!(rows.matches(",bounds,").count(), 1, "{rows}");
    assert!(rows.contains("\n22,22,12,"), "{rows}");
    let dir = TempDir::new().unwrap();
    export(dir.path(), &rows, &["--squares", "20-23"], "bfile", "g.b");
    assert_eq!(
        read(&dir.path().join("g.b")),
        "# n queen domination number gamma(Q_n), by queendom\n\
         # stops before n = 22: only the bounds 11..12 are proven there\n\
         20 11\n21 11\n"
    );
}
