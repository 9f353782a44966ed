//! What spreadsheets get: the workbook read back with calamine (cell values and types, frozen
//! headers), the b-file, square-only tables, and layouts in `r1c1` form everywhere.

use std::io::Read;

use crate::common::{queendom, read};
use calamine::{open_workbook, Data, Reader, Xlsx};
use predicates::prelude::*;
use tempfile::TempDir;

fn stdout_of(args: &[&str]) -> String {
    let out = queendom()
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_workbook_has_numbers_as_numbers_and_layouts_as_text() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.xlsx");
    queendom()
        .args(["table", "--rows", "1-3", "--cols", "1-4", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    let csv = stdout_of(&["table", "--rows", "1-3", "--cols", "1-4", "-j", "1"]);
    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
    assert_eq!(book.sheet_names(), ["rows", "grid"]);

    let rows = book.worksheet_range("rows").unwrap();
    assert_eq!(rows.get_size(), (13, 9));
    let header: Vec<String> = (0..9)
        .map(|c| rows.get((0, c)).unwrap().to_string())
        .collect();
    assert_eq!(header.join(","), csv.lines().next().unwrap());
    for (r, line) in csv.lines().skip(1).enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        for (c, field) in fields.iter().enumerate() {
            let cell = rows.get((r + 1, c)).unwrap();
            match c {
                // layout, problem, digest: text, exactly as in the CSV.
                3..=5 => assert_eq!(cell, &Data::String(field.to_string()), "{r},{c}"),
                // seconds: a number (its value differs from the CSV's run).
                7 => assert!(matches!(cell, Data::Float(_)), "{r},{c}: {cell:?}"),
                // nodes differ between runs too, but are numbers.
                6 => assert!(matches!(cell, Data::Float(_)), "{r},{c}: {cell:?}"),
                _ => assert_eq!(cell, &Data::Float(field.parse().unwrap()), "{r},{c}"),
            }
        }
    }

    let grid = book.worksheet_range("grid").unwrap();
    let expected = stdout_of(&["table", "--rows", "1-3", "--cols", "1-4", "-f", "grid"]);
    for (r, line) in expected.lines().enumerate() {
        for (c, field) in line.split(',').enumerate() {
            let cell = grid.get((r, c)).unwrap();
            if r == 0 && c == 0 {
                assert_eq!(cell, &Data::String(field.to_string()));
            } else {
                assert_eq!(cell, &Data::Float(field.parse().unwrap()), "{r},{c}");
            }
        }
    }

    // Frozen headers: a frozen pane in each sheet's XML (calamine does not read panes).
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    for (sheet, split) in [
        ("xl/worksheets/sheet1.xml", "ySplit=\"1\""),
        ("xl/worksheets/sheet2.xml", "xSplit=\"1\" ySplit=\"1\""),
    ] {
        let mut xml = String::new();
        zip.by_name(sheet)
            .unwrap()
            .read_to_string(&mut xml)
            .unwrap();
        assert!(
            xml.contains("state=\"frozen\"") && xml.contains(split),
            "{sheet}: {xml}"
        );
    }
}

#[test]
fn a_workbook_is_not_written_to_a_terminal_or_resumed() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.xlsx");
    std::fs::write(&path, "old").unwrap();
    queendom()
        .args(["table", "--rows", "1", "--cols", "1", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "already exists, and xlsx tables cannot be resumed: use --force",
        ));
    assert_eq!(read(&path), "old");
}

#[test]
fn bfiles_list_square_boards() {
    let text = stdout_of(&["table", "--squares", "1-8", "-f", "bfile"]);
    assert_eq!(
        text,
        "# n queen domination number gamma(Q_n), by queendom\n1 1\n2 1\n3 1\n4 2\n5 3\n6 3\n7 4\n8 5\n"
    );
    let text = stdout_of(&["table", "--squares", "4,5", "-f", "bfile", "-i"]);
    assert_eq!(
        text,
        "# n independent queen domination number i(Q_n), by queendom\n4 3\n5 3\n"
    );
    // One size on both axes is a square table too.
    assert!(
        stdout_of(&["table", "--rows", "6", "--cols", "6", "-f", "bfile"]).ends_with("\n6 3\n")
    );
    queendom()
        .args(["table", "--rows", "4-5", "--cols", "4-5", "-f", "bfile"])
        .assert()
        .code(2)
        .stderr("queendom: a b-file lists square boards only (n a(n)), but the table includes 4x5: use --squares, or equal --rows and --cols of one size\n");
}

#[test]
fn square_tables_in_every_format() {
    let csv = stdout_of(&["table", "--squares", "2,4", "-j", "1"]);
    let boards: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(boards, ["2,2,1", "4,4,2"]);
    // The grid of a square table has its diagonal filled only.
    assert_eq!(
        stdout_of(&["table", "--squares", "2,4", "-f", "grid"]),
        "domination rows\\cols,2,4\n2,1,\n4,,2\n"
    );
    queendom()
        .args(["table", "--squares", "3", "--rows", "3", "--cols", "3"])
        .assert()
        .code(2);
}

#[test]
fn layouts_are_r1c1_everywhere() {
    let solve = stdout_of(&["solve", "4x4"]);
    assert!(solve.contains("\nlayout: r2c2 r2c3\n"), "{solve}");
    for format in ["csv", "tsv", "json", "md"] {
        let text = stdout_of(&["table", "--rows", "4", "--cols", "4", "-f", format]);
        assert!(text.contains("r2c2 r2c3"), "{format}: {text}");
        assert!(!text.contains("2:2"), "{format}: {text}");
    }
}

/// The `<col>` widths of a sheet's XML, by column number from 1.
fn column_widths(xml: &str) -> std::collections::BTreeMap<usize, f64> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let mut widths = std::collections::BTreeMap::new();
    for col in doc.descendants().filter(|n| n.has_tag_name("col")) {
        let min: usize = col.attribute("min").unwrap().parse().unwrap();
        let max: usize = col.attribute("max").unwrap().parse().unwrap();
        let width: f64 = col.attribute("width").unwrap().parse().unwrap();
        for c in min..=max {
            widths.insert(c, width);
        }
    }
    widths
}

#[test]
fn workbook_columns_are_as_wide_as_their_content() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("t.xlsx");
    // 12x12's layouts are long (6 queens: 29 characters), 1x1's short.
    queendom()
        .args(["table", "--rows", "1,12", "--cols", "1,12", "-j", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    let csv = stdout_of(&["table", "--rows", "1,12", "--cols", "1,12", "-j", "1"]);
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    let mut xml = String::new();
    zip.by_name("xl/worksheets/sheet1.xml")
        .unwrap()
        .read_to_string(&mut xml)
        .unwrap();
    let widths = column_widths(&xml);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for (c, name) in header.iter().enumerate() {
        let longest = csv
            .lines()
            .map(|l| l.split(',').nth(c).unwrap().chars().count())
            .max()
            .unwrap();
        let width = widths[&(c + 1)];
        assert!(
            width >= longest as f64 + 1.0,
            "{name}: {width} for {longest}"
        );
        // Not much wider than that either (the least width of a column aside).
        assert!(
            width <= (longest as f64 + 2.0).max(11.0) + 1.0,
            "{name}: {width} for {longest}"
        );
    }
    let layout = widths[&4];
    assert!(layout >= 30.0, "the layout column is {layout} wide");
}
