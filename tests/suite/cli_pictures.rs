//! The picture commands: `solve --svg/--png`, `plot`, `report`; their files read back, and every
//! refusal (exit 2, one line, nothing written).

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use roxmltree::Document;

fn queendom() -> Command {
    Command::cargo_bin("queendom").unwrap()
}

fn count_class(svg: &str, class: &str) -> usize {
    let doc = Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|t| t == class))
        })
        .count()
}

fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(fs::File::open(path).unwrap()));
    let info = decoder.read_info().unwrap();
    (info.info().width, info.info().height)
}

/// The files in `dir`, by name, sorted (temporary files would show up here).
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Expect exit 2 with one line on stderr containing `message`.
fn refused(cmd: &mut Command, message: &str) {
    let out = cmd.assert().code(2).get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(message),
        "expected '{message}' in: {stderr}"
    );
}

#[test]
fn solve_draws_the_board_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let out = queendom()
        .args(["solve", "8x8", "--svg", "b.svg", "--png", "b.png"])
        .current_dir(dir.path())
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with("γ(8x8) = 5\n"),
        "the text report is unchanged"
    );
    let svg = fs::read_to_string(dir.path().join("b.svg")).unwrap();
    assert_eq!(count_class(&svg, "square"), 64);
    assert_eq!(count_class(&svg, "queen"), 5);
    assert_eq!(count_class(&svg, "covered"), 59);
    assert!(svg.contains("γ(8×8) = 5"));
    let (w, h) = png_size(&dir.path().join("b.png"));
    let doc = Document::parse(&svg).unwrap();
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    let height: f64 = doc
        .root_element()
        .attribute("height")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!((w, h), ((width * 2.0) as u32, (height * 2.0) as u32));
    assert_eq!(files(dir.path()), ["b.png", "b.svg"]);
}

#[test]
fn several_boards_need_a_board_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    queendom()
        .args(["solve", "4x4", "3x5", "-i", "--svg", "pic-{board}.svg"])
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(files(dir.path()), ["pic-3x5.svg", "pic-4x4.svg"]);
    let svg = fs::read_to_string(dir.path().join("pic-4x4.svg")).unwrap();
    assert_eq!(count_class(&svg, "queen"), 3, "i(4x4) = 3");
    assert!(svg.contains("i(4×4) = 3"));

    refused(
        queendom()
            .args(["solve", "4x4", "5x5", "--svg", "one.svg"])
            .current_dir(dir.path()),
        "put {board} in the name",
    );
    refused(
        queendom()
            .args(["solve", "4", "4x4", "--png", "p-{board}.png"])
            .current_dir(dir.path()),
        "would both be written to p-4x4.png",
    );
    refused(
        queendom()
            .args(["solve", "4", "5", "--svg", "-"])
            .current_dir(dir.path()),
        "--svg - writes one picture",
    );
    assert_eq!(files(dir.path()), ["pic-3x5.svg", "pic-4x4.svg"]);
}

#[test]
fn svg_to_stdout_moves_the_text_to_stderr() {
    let out = queendom()
        .args(["solve", "5x5", "--svg", "-"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(count_class(&stdout, "square"), 25);
    assert!(stderr.starts_with("γ(5x5) = 3\n"), "{stderr}");
    refused(
        queendom().args(["solve", "5x5", "--png", "-"]),
        "--png needs a file name",
    );
}

#[test]
fn picture_files_are_refused_before_the_search_and_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.svg");
    fs::write(&path, "keep me").unwrap();
    // 18x18 would take minutes: the refusal must come first.
    refused(
        queendom()
            .args(["solve", "18x18", "--svg", "b.svg"])
            .current_dir(dir.path()),
        "b.svg already exists: use --force",
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), "keep me");
    refused(
        queendom()
            .args(["solve", "18x18", "--png", "missing/b.png"])
            .current_dir(dir.path()),
        "directory missing does not exist",
    );
    refused(
        queendom()
            .args(["solve", "18x18", "--png", "b.svg/x.png"])
            .current_dir(dir.path()),
        "is not a directory",
    );
    refused(
        queendom()
            .args(["solve", "18x18", "--svg", "."])
            .current_dir(dir.path()),
        "is a directory",
    );
    queendom()
        .args(["solve", "6x6", "--svg", "b.svg", "--force"])
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(
        count_class(&fs::read_to_string(&path).unwrap(), "square"),
        36
    );
    assert_eq!(files(dir.path()), ["b.svg"]);
}

/// γ and i tables of 1-6 × 1-7 in `dir`, as csv and tsv/json, written by `queendom table`.
fn make_tables(dir: &Path) {
    for args in [
        vec!["-o", "g.csv"],
        vec!["-i", "-o", "i.csv"],
        vec!["-o", "g.tsv"],
        vec!["-i", "-o", "i.json"],
        vec!["--format", "grid", "-o", "grid.csv"],
        vec!["-o", "g.md"],
    ] {
        queendom()
            .args(["table", "--rows", "1-6", "--cols", "1-7", "-j", "1"])
            .args(args)
            .current_dir(dir)
            .assert()
            .success();
    }
}

#[test]
fn plot_draws_one_or_both_tables_in_svg_or_png() {
    let dir = tempfile::tempdir().unwrap();
    make_tables(dir.path());
    let run = |args: &[&str]| {
        queendom()
            .arg("plot")
            .args(args)
            .current_dir(dir.path())
            .assert()
            .success()
    };
    run(&["g.csv", "-o", "g.svg"]);
    let svg = fs::read_to_string(dir.path().join("g.svg")).unwrap();
    assert_eq!(count_class(&svg, "cell"), 42);
    assert_eq!(count_class(&svg, "i-above-gamma"), 0);

    run(&["g.tsv", "-i", "i.json", "-o", "both.svg", "--title", "Both"]);
    let svg = fs::read_to_string(dir.path().join("both.svg")).unwrap();
    assert_eq!(count_class(&svg, "cell"), 84);
    // i > γ on 4×4, 4×5, 5×4, 5×7 and 6×6 among these boards: framed in both panels, plus the
    // legend's.
    assert_eq!(count_class(&svg, "i-above-gamma"), 11);
    assert!(svg.contains("<title>Both</title>"));

    // The PDF holds the heatmap's numbers as text.
    run(&["g.tsv", "-i", "i.json", "-o", "both.pdf", "--title", "Both"]);
    let pdf = fs::read(dir.path().join("both.pdf")).unwrap();
    let page = &crate::pdf::check_pdf(&pdf)[0];
    assert!(page.contains("(Both) Tj"), "{page}");
    if crate::pdf::poppler() {
        assert!(crate::pdf::poppler_text(&pdf).contains("Both"));
    }

    run(&["i.csv", "-o", "i.PNG"]);
    let (w, h) = png_size(&dir.path().join("i.PNG"));
    assert!(w > 400 && h > 300, "{w}x{h}");

    let out = run(&["g.csv"]);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(count_class(&stdout, "cell"), 42);
    let out = run(&["g.csv", "-o", "-"]);
    assert_eq!(out.get_output().stdout, stdout.as_bytes());
}

#[test]
fn plot_and_report_refuse_what_they_cannot_draw() {
    let dir = tempfile::tempdir().unwrap();
    make_tables(dir.path());
    fs::write(dir.path().join("foreign.csv"), "a,b\n1,2\n").unwrap();
    let before = files(dir.path());
    for command in ["plot", "report"] {
        let ext = if command == "plot" { "svg" } else { "html" };
        let out = format!("out.{ext}");
        let missing_dir = format!("no/such/dir.{ext}");
        let cases: Vec<(Vec<&str>, &str)> = vec![
            (vec!["grid.csv"], "grid tables hold no layouts"),
            (vec!["g.md"], "markdown tables hold no layouts"),
            (
                vec!["foreign.csv"],
                "foreign.csv: it is not a table written by queendom table",
            ),
            (vec!["nothing.csv"], "cannot read nothing.csv"),
            (
                vec!["i.csv", "-i", "g.csv"],
                "with -i, TABLE must be the domination table",
            ),
            (
                vec!["g.csv", "-i", "g.tsv"],
                "-i takes the independent-domination table",
            ),
            (vec!["g.csv", "-o", "g.csv", "--force"], "name"),
            (vec!["g.csv", "-o", "g.csv"], "name"),
            (vec!["g.csv", "-o", &missing_dir], "does not exist"),
        ];
        for (args, message) in cases {
            let mut cmd = queendom();
            cmd.arg(command).args(&args).current_dir(dir.path());
            if !args.contains(&"-o") {
                cmd.args(["-o", &out]);
            }
            refused(&mut cmd, message);
        }
        assert_eq!(files(dir.path()), before, "{command} left a file behind");
    }
    refused(
        queendom()
            .args(["plot", "g.csv", "-o", "g.gif"])
            .current_dir(dir.path()),
        "name it .svg, .png or .pdf",
    );
    // A layout edited into one that leaves a square uncovered.
    let csv = fs::read_to_string(dir.path().join("g.csv")).unwrap();
    let bad = csv.replace("3,3,1,r2c2,", "3,3,1,r1c1,");
    assert_ne!(bad, csv);
    fs::write(dir.path().join("bad.csv"), bad).unwrap();
    refused(
        queendom()
            .args(["plot", "bad.csv", "-o", "x.svg"])
            .current_dir(dir.path()),
        "bad.csv: line 18 (board 3x3) fails the independent check",
    );
}

#[test]
fn outputs_are_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    make_tables(dir.path());
    fs::write(dir.path().join("r.html"), "old").unwrap();
    refused(
        queendom()
            .args(["report", "g.csv", "-o", "r.html"])
            .current_dir(dir.path()),
        "r.html already exists: use --force",
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("r.html")).unwrap(),
        "old"
    );
    queendom()
        .args(["report", "g.csv", "-i", "i.csv", "-o", "r.html", "--force"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    let html = fs::read_to_string(dir.path().join("r.html")).unwrap();
    assert_eq!(html.matches("<details").count(), 42);
    assert_eq!(html.matches("class=\"diagram\"").count(), 2 * 42);
    assert!(html.contains("<code>g.csv</code>") && html.contains("<code>i.csv</code>"));
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    Document::parse_with_options(&html, options).unwrap();
    let out = queendom()
        .args(["report", "i.json"])
        .current_dir(dir.path())
        .assert()
        .success();
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(page.matches("<details").count(), 42);
    assert!(page.contains("<code>i.json</code>"));
}

#[test]
fn count_draws_one_picture_per_class() {
    let dir = tempfile::tempdir().unwrap();
    let out = queendom()
        .args(["count", "5x5", "--classes", "--svg", "cls", "--png", "cls"])
        .current_dir(dir.path())
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("classes: 37"), "{text}");
    let names = files(&dir.path().join("cls"));
    // A picture per class in each format, and the SVG contact sheet.
    assert_eq!(names.len(), 2 * 37 + 1, "{names:?}");
    assert_eq!(names[0], "5x5-domination-class-01.png");
    assert_eq!(names[1], "5x5-domination-class-01.svg");
    // The pictures show the classes printed, in order, each with 3 queens on 25 squares.
    let printed: Vec<&str> = text.lines().filter(|l| l.contains("(class of")).collect();
    assert_eq!(printed.len(), 37);
    for (k, line) in printed.iter().enumerate() {
        let svg = fs::read_to_string(
            dir.path()
                .join("cls")
                .join(format!("5x5-domination-class-{:02}.svg", k + 1)),
        )
        .unwrap();
        assert_eq!(count_class(&svg, "square"), 25);
        assert_eq!(count_class(&svg, "queen"), 3);
        assert_eq!(count_class(&svg, "covered"), 22);
        let size = line
            .rsplit_once("class of ")
            .unwrap()
            .1
            .trim_end_matches(')');
        assert!(svg.contains(&format!("class {} of 37, {size} layout", k + 1)));
    }
    // Existing pictures are refused unless --force; --svg needs --classes.
    refused(
        queendom()
            .args(["count", "5x5", "--classes", "--svg", "cls"])
            .current_dir(dir.path()),
        "already exists",
    );
    queendom()
        .args(["count", "5x5", "--classes", "--svg", "cls", "--force"])
        .current_dir(dir.path())
        .assert()
        .success();
    queendom()
        .args(["count", "5x5", "--svg", "cls"])
        .current_dir(dir.path())
        .assert()
        .code(2);
    fs::write(dir.path().join("file"), "").unwrap();
    refused(
        queendom()
            .args(["count", "5x5", "--classes", "--svg", "file"])
            .current_dir(dir.path()),
        "not a directory",
    );
    assert_eq!(files(&dir.path().join("cls")).len(), 2 * 37 + 1);
}

#[test]
fn plot_and_report_say_what_they_wrote_and_refuse_workbooks_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("g.csv");
    queendom()
        .args(["table", "--rows", "1-4", "--cols", "1-4", "-o"])
        .arg(&table)
        .assert()
        .success();
    let png = dir.path().join("g.png");
    queendom()
        .arg("plot")
        .arg(&table)
        .arg("-o")
        .arg(&png)
        .assert()
        .success()
        .stderr(predicate::str::starts_with(format!(
            "queendom: wrote {} (",
            png.display()
        )));
    let html = dir.path().join("r.html");
    queendom()
        .arg("report")
        .arg(&table)
        .arg("-o")
        .arg(&html)
        .assert()
        .success()
        .stderr(predicate::str::contains("queendom: wrote"));
    // On stdout, nothing is said on stderr.
    queendom()
        .arg("plot")
        .arg(&table)
        .assert()
        .success()
        .stderr("");
    let workbook = dir.path().join("g.xlsx");
    queendom()
        .args(["table", "--rows", "1-4", "--cols", "1-4", "-o"])
        .arg(&workbook)
        .assert()
        .success();
    queendom()
        .arg("plot")
        .arg(&workbook)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("xlsx workbook")
                .and(predicate::str::contains("writes xlsx but does not read it"))
                .and(predicate::str::contains("csv, tsv or json")),
        );
}

#[test]
fn count_pictures_refuse_a_dash_for_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    queendom()
        .args(["count", "5x5", "--classes", "--png", "-"])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not `-`"));
    assert!(!dir.path().join("-").exists());
}

#[test]
fn solve_draws_pdf_with_a_title_and_png_at_a_scale() {
    let dir = tempfile::tempdir().unwrap();
    queendom()
        .args([
            "solve",
            "6x6",
            "7x7",
            "--pdf",
            "b-{board}.pdf",
            "--svg",
            "b-{board}.svg",
            "--png",
            "b-{board}.png",
            "--scale",
            "1.5",
            "--coverage",
            "--title",
            "Queens & <friends> on {board}",
        ])
        .current_dir(dir.path())
        .assert()
        .success();
    for board in ["6x6", "7x7"] {
        let pretty = board.replace('x', "×");
        let svg = fs::read_to_string(dir.path().join(format!("b-{board}.svg"))).unwrap();
        assert!(svg.contains(&format!("Queens &amp; &lt;friends&gt; on {pretty}")));
        assert!(count_class(&svg, "cover-counts") == 1 && count_class(&svg, "legend") == 1);
        let pdf = fs::read(dir.path().join(format!("b-{board}.pdf"))).unwrap();
        let contents = crate::pdf::check_pdf(&pdf);
        assert!(
            contents[0].contains("(Queens & <friends> on "),
            "{}",
            contents[0]
        );
        if crate::pdf::poppler() {
            let text = crate::pdf::poppler_text(&pdf);
            assert!(
                text.contains(&format!("Queens & <friends> on {pretty}")),
                "{text}"
            );
        }
        let doc = Document::parse(&svg).unwrap();
        let side = |a| {
            doc.root_element()
                .attribute(a)
                .unwrap()
                .parse::<f64>()
                .unwrap()
        };
        let (w, h) = png_size(&dir.path().join(format!("b-{board}.png")));
        assert_eq!(
            (w, h),
            (
                (side("width") * 1.5).ceil() as u32,
                (side("height") * 1.5).ceil() as u32
            )
        );
    }
    // Without --title, the title is the answer.
    queendom()
        .args(["solve", "5x5", "--pdf", "five.pdf"])
        .current_dir(dir.path())
        .assert()
        .success();
    let pdf = fs::read(dir.path().join("five.pdf")).unwrap();
    assert!(crate::pdf::check_pdf(&pdf)[0].contains("(g) Tj /F1 18 Tf (\\(5\\3275\\) = 3) Tj"));

    let before = files(dir.path());
    refused(
        queendom()
            .args(["solve", "5x5", "--pdf", "-"])
            .current_dir(dir.path()),
        "--pdf needs a file name",
    );
    refused(
        queendom()
            .args(["solve", "5x5", "--png", "x.png", "--scale", "0"])
            .current_dir(dir.path()),
        "a scale is a number above 0",
    );
    refused(
        queendom()
            .args(["solve", "5x5", "--png", "x.png", "--scale", "17"])
            .current_dir(dir.path()),
        "at most 16",
    );
    queendom()
        .args(["solve", "5x5", "--scale", "2"])
        .current_dir(dir.path())
        .assert()
        .code(2);
    refused(
        queendom()
            .args(["solve", "18x18", "--pdf", "five.pdf"])
            .current_dir(dir.path()),
        "five.pdf already exists: use --force",
    );
    assert_eq!(files(dir.path()), before);
}

#[test]
fn count_classes_also_make_a_contact_sheet() {
    let dir = tempfile::tempdir().unwrap();
    queendom()
        .args([
            "count",
            "5x5",
            "--classes",
            "--svg",
            "d",
            "--pdf",
            "d",
            "--png",
            "p",
        ])
        .current_dir(dir.path())
        .assert()
        .success();
    let names = files(&dir.path().join("d"));
    assert_eq!(names.len(), 2 * 37 + 2, "{names:?}");
    assert!(names.contains(&"5x5-domination-classes.svg".to_string()));
    assert!(names.contains(&"5x5-domination-classes.pdf".to_string()));
    // No sheet among the PNGs: one file per class.
    assert_eq!(files(&dir.path().join("p")).len(), 37);
    let sheet = fs::read_to_string(dir.path().join("d/5x5-domination-classes.svg")).unwrap();
    assert_eq!(count_class(&sheet, "sheet-board"), 37);
    assert_eq!(count_class(&sheet, "square"), 37 * 25);
    assert_eq!(count_class(&sheet, "queen"), 37 * 3);
    assert!(sheet.contains("γ(5×5) = 3: 37 classes, 186 layouts"));
    // Each class's caption is its number and size, as printed.
    assert!(sheet.contains(">1 · 8 layouts<") && sheet.contains(">37 · 2 layouts<"));
    let pdf = fs::read(dir.path().join("d/5x5-domination-classes.pdf")).unwrap();
    crate::pdf::check_pdf(&pdf);
    if crate::pdf::poppler() {
        let text = crate::pdf::poppler_text(&pdf);
        assert!(text.contains("37 classes, 186 layouts"), "{text}");
    }
    // A second run refuses the sheet like any other picture.
    refused(
        queendom()
            .args(["count", "5x5", "--classes", "--pdf", "d"])
            .current_dir(dir.path()),
        "already exists",
    );
    queendom()
        .args([
            "count",
            "4x4",
            "-i",
            "--classes",
            "--coverage",
            "--svg",
            "d",
        ])
        .current_dir(dir.path())
        .assert()
        .success();
    let one =
        fs::read_to_string(dir.path().join("d/4x4-independent-domination-class-1.svg")).unwrap();
    assert_eq!(count_class(&one, "cover-counts"), 1);
}

#[test]
fn plot_takes_a_range_and_a_difference_map_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    make_tables(dir.path());
    for (args, message) in [
        (vec!["--range", "5-2"], "LO must be below HI"),
        (
            vec!["--range", "x"],
            "'x' is not a range of values: write LO-HI",
        ),
        (vec!["--range", "1-40"], "reaches beyond 32"),
        (
            vec!["--range", "2-6"],
            "γ(1x1) = 1 lies outside the range 2-6",
        ),
        (vec!["--difference"], "needs a γ table and an i table"),
    ] {
        for command in ["plot", "report"] {
            refused(
                queendom()
                    .args([command, "g.csv"])
                    .args(&args)
                    .current_dir(dir.path()),
                message,
            );
        }
    }
    let out = queendom()
        .args([
            "plot",
            "g.csv",
            "-i",
            "i.csv",
            "--range",
            "1-4",
            "--difference",
        ])
        .current_dir(dir.path())
        .assert()
        .success();
    let svg = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(count_class(&svg, "panel"), 3);
    assert_eq!(count_class(&svg, "scale"), 4 + 3, "1-4, and i − γ 0-2");
}

#[test]
fn plot_draws_tables_of_different_extents_on_the_larger_one() {
    let dir = tempfile::tempdir().unwrap();
    make_tables(dir.path());
    queendom()
        .args([
            "table", "--rows", "1-4", "--cols", "1-4", "-i", "-o", "i4.csv",
        ])
        .current_dir(dir.path())
        .assert()
        .success();
    let out = queendom()
        .args(["plot", "g.csv", "-i", "i4.csv"])
        .current_dir(dir.path())
        .assert()
        .success();
    let svg = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(count_class(&svg, "cell"), 2 * 42, "both panels 6×7");
    assert_eq!(
        count_class(&svg, "missing"),
        42 - 16,
        "the i panel's boards beyond 4×4"
    );
    assert!(svg.contains("γ(N×M) · 42 boards") && svg.contains("i(N×M) · 16 boards"));
    assert!(svg.contains("not computed"));
}

/// Pictures of thousands of classes are asked for explicitly: past --max-pictures (1000 unless
/// given) the board is refused before any picture or line is written, naming the count and the
/// flag (3x32 has 8,448 classes: 8,449 SVG files with the contact sheet).
#[test]
fn count_refuses_more_pictures_than_max_pictures() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["count", "3x32", "--classes", "--svg", "cls"],
            "8449 pictures, more than --max-pictures 1000",
        ),
        // 37 classes: 37 PNG, 37 SVG and the SVG contact sheet.
        (
            vec![
                "count",
                "5x5",
                "--classes",
                "--svg",
                "cls",
                "--png",
                "cls",
                "--max-pictures",
                "74",
            ],
            "75 pictures, more than --max-pictures 74",
        ),
    ] {
        let out = queendom()
            .args(&args)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(out.stdout.is_empty(), "nothing printed");
        assert!(files(&dir.path().join("cls")).is_empty(), "nothing drawn");
    }
    queendom()
        .args(["count", "5x5", "--classes", "--svg", "cls", "--png", "cls"])
        .args(["--max-pictures", "75"])
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(files(&dir.path().join("cls")).len(), 75);
}
