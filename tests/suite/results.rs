//! The shipped tables in `results/`: every row is read as `table` resumes a file (layout through
//! the independent checker, digest, board requested once), rows of boards up to 144 squares are
//! proved again, and the values agree with the published ones in `data/`, with their transposes,
//! between γ and i, and with the facts that hold for every board. The search never reads
//! `results/`; this test only reads what it wrote.

use std::collections::HashMap;
use std::path::Path;

use queendom::export::Format;
use queendom::row::RowKind;
use queendom::search::{lower_bound, Problem, SearchOptions};
use queendom::table::resume::{read_existing, reprove};
use queendom::Board;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every value of a shipped table, by board.
fn shipped(file: &str, problem: Problem) -> HashMap<(usize, usize), usize> {
    let path = Path::new(ROOT).join("results").join(file);
    let contents = std::fs::read(&path).unwrap();
    let boards: Vec<Board> = (1..=20)
        .flat_map(|r| (1..=20).map(move |c| Board::new(r, c).unwrap()))
        .collect();
    let table = read_existing(
        &contents,
        Format::Csv,
        RowKind::Optimum,
        problem,
        &boards,
        false,
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(
        table.keep_len,
        contents.len() as u64,
        "{file}: a half-written last line"
    );
    assert!(
        table.rows.iter().all(|r| r.has_digest),
        "{file}: rows without digests"
    );
    let proved = reprove(
        &table.rows,
        problem,
        false,
        &SearchOptions::parallel(),
        |_| {},
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(proved > 0);
    let mut values = HashMap::new();
    for kept in &table.rows {
        let board = kept.board();
        let queens = kept.row.queens();
        assert!(
            queens >= lower_bound(board, problem),
            "{file} line {}: below the proven lower bound",
            kept.line
        );
        assert!(
            queens <= board.rows().min(board.cols()),
            "{file} line {}: more queens than a full line of the shorter side needs",
            kept.line
        );
        values.insert((board.rows(), board.cols()), queens);
    }
    for (&(r, c), &q) in &values {
        if let Some(&t) = values.get(&(c, r)) {
            assert_eq!(q, t, "{file}: {r}x{c} and {c}x{r} differ");
        }
    }
    values
}

/// `rows,cols,value` rows of a file in `data/`.
fn published(file: &str) -> Vec<(usize, usize, usize)> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("data").join(file)).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let v: Vec<usize> = l.split(',').map(|t| t.parse().unwrap()).collect();
            (v[0], v[1], v[2])
        })
        .collect()
}

fn agrees_with_published(
    values: &HashMap<(usize, usize), usize>,
    files: &[&str],
    name: &str,
) -> usize {
    let mut compared = 0;
    for file in files {
        for (r, c, v) in published(file) {
            if let Some(&q) = values.get(&(r, c)) {
                assert_eq!(q, v, "{name}({r}x{c}) = {q}, published {v} ({file})");
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn shipped_tables_hold_every_check() {
    let gamma = shipped("domination-1-20.csv", Problem::Domination);
    let indep = shipped(
        "independent-domination-1-20.csv",
        Problem::IndependentDomination,
    );
    assert!(
        agrees_with_published(
            &gamma,
            &[
                "domination_triangle.csv",
                "domination_squares.csv",
                "domination_rectangles.csv"
            ],
            "γ"
        ) >= 171
    );
    assert!(
        agrees_with_published(
            &indep,
            &[
                "independent_domination_triangle.csv",
                "independent_domination_squares.csv"
            ],
            "i"
        ) >= 171
    );
    // i ≥ γ on every board: an independent dominating layout dominates.
    for (board, &g) in &gamma {
        if let Some(&i) = indep.get(board) {
            assert!(i >= g, "i({board:?}) = {i} < γ = {g}");
        }
    }
    // The tables grow as the runs of results/README.md finish; they never shrink.
    assert!(gamma.len() >= 400, "γ table: {} rows", gamma.len());
    assert!(indep.len() >= 400, "i table: {} rows", indep.len());
}

/// The b-files `scripts/bfiles.py` writes are named by the OEIS sequences [`Problem`] names (its
/// `TABLES` list is the script's copy of them), and their square terms are the shipped table's:
/// the 1-32 table's proven rows where results/ holds it, else the 1-20 table's.
#[test]
fn bfiles_are_named_as_problem_names_them() {
    let script = std::fs::read_to_string(Path::new(ROOT).join("scripts/bfiles.py")).unwrap();
    for problem in Problem::ALL {
        let (square, triangle) = (problem.square_sequence(), problem.triangle_sequence());
        let tables = [32, 20].map(|n| format!("{}-1-{n}.csv", problem.name()));
        let entry = format!(
            "((\"{}\", \"{}\"), \"{square}\", \"{triangle}\")",
            tables[0], tables[1]
        );
        assert!(script.contains(&entry), "scripts/bfiles.py lacks {entry}");
        let table = tables
            .iter()
            .find(|t| Path::new(ROOT).join("results").join(t).exists())
            .unwrap();
        // rows,cols,queens lead every line; a row of bounds (status not proven) is no value.
        let csv = std::fs::read_to_string(Path::new(ROOT).join("results").join(table)).unwrap();
        let values: HashMap<(usize, usize), usize> = csv
            .lines()
            .skip(1)
            .filter(|line| !line.contains(",bounds,"))
            .map(|line| {
                let cells: Vec<usize> = line
                    .split(',')
                    .take(3)
                    .map(|c| c.parse().unwrap())
                    .collect();
                ((cells[0], cells[1]), cells[2])
            })
            .collect();
        for sequence in [square, triangle] {
            let path = Path::new(ROOT).join(format!("results/b{}.txt", &sequence[1..]));
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with(&format!("# {sequence}: ")),
                "{}",
                path.display()
            );
            if sequence == square {
                for line in text.lines().skip(1) {
                    let (n, value) = line.split_once(' ').unwrap();
                    let n: usize = n.parse().unwrap();
                    assert_eq!(values[&(n, n)], value.parse::<usize>().unwrap(), "{line}");
                }
            }
        }
    }
}

/// Every `results/*.txt`: its file name, the name without `.txt`, and its text.
fn result_texts() -> Vec<(String, String, String)> {
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join("results")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            texts.push((name.clone(), stem.to_string(), text));
        }
    }
    texts
}

/// The file of `data/` with the published `what` ("squares", "counts") of `problem`, e.g.
/// `independent_domination_counts.csv`.
fn data_file(problem: Problem, what: &str) -> String {
    format!("{}_{what}.csv", problem.to_string().replace('-', "_"))
}

/// The single boards beyond the tables (`results/*-NxM.txt`, what `merge` printed): the value line
/// names the board and problem, the layout passes the independent checker with that many queens,
/// the value is at least the proven lower bound, and it agrees with `data/` where published.
#[test]
fn shipped_single_boards_hold_every_check() {
    let mut files = 0;
    for (name, stem, text) in result_texts() {
        let Some((kind, board)) = stem.rsplit_once('-') else {
            continue;
        };
        let Ok(problem) = kind.parse::<Problem>() else {
            continue;
        };
        let board: Board = board.parse().unwrap();
        let first = text.lines().next().unwrap();
        let queens: usize = first
            .strip_prefix(&format!("{}({board}) = ", problem.symbol()))
            .unwrap_or_else(|| panic!("{name}: first line {first:?}"))
            .parse()
            .unwrap();
        let layout = text
            .lines()
            .find_map(|l| l.strip_prefix("layout: "))
            .unwrap_or_else(|| panic!("{name}: no layout line"));
        let layout = queendom::Layout::parse(board, layout).unwrap();
        problem
            .check(&layout, queens)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(queens >= lower_bound(board, problem), "{name}");
        for (r, c, v) in published(&data_file(problem, "squares")) {
            if (r, c) == (board.rows(), board.cols()) {
                assert_eq!(queens, v, "{name}: published {v}");
            }
        }
        files += 1;
    }
    assert!(files >= 2, "{files} single-board files");
}

/// The minimum layouts counted beyond the published class counts (`results/*-classes-NxN.txt`,
/// what `queendom count NxN --classes` printed): every class's canonical layout passes the
/// independent checker, is its class's lowest image under the board's symmetries, and no two
/// lines hold one class; the class sizes add up to the layouts; the totals agree with the
/// published layout counts in `data/` (and with the published class counts, except where a
/// published count cannot be right: A002563 gives 43 for n = 16, below 2968 / 8).
#[test]
fn shipped_class_lists_hold_every_check() {
    let mut files = 0;
    for (name, stem, text) in result_texts() {
        let Some((kind, board)) = stem.rsplit_once("-classes-") else {
            continue;
        };
        let problem: Problem = kind.parse().unwrap();
        let board: Board = board.parse().unwrap();
        let value_line = format!("{}({board}) = ", problem.symbol());
        let queens: usize = text
            .lines()
            .find_map(|l| l.strip_prefix(&value_line))
            .unwrap_or_else(|| panic!("{name}: no value line"))
            .parse()
            .unwrap();
        let number = |label: &str| -> usize {
            text.lines()
                .find_map(|l| l.strip_prefix(label))
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("{name}: no {label:?} line"))
                .parse()
                .unwrap()
        };
        let (layouts, classes) = (number("layouts: "), number("classes: "));
        let mut seen = std::collections::HashSet::new();
        let mut total = 0;
        for line in text.lines().filter(|l| l.contains("(class of ")) {
            let (layout, size) = line.split_once("  (class of ").unwrap();
            let size: usize = size.trim_end_matches(')').parse().unwrap();
            let layout = queendom::Layout::parse(board, layout).unwrap();
            problem
                .check(&layout, queens)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let class = layout.class();
            assert_eq!(
                class[0], layout,
                "{name}: not the lowest image of its class"
            );
            assert_eq!(class.len(), size, "{name}: class size of {layout:?}");
            assert!(seen.insert(layout), "{name}: a class twice");
            total += size;
        }
        assert_eq!(seen.len(), classes, "{name}");
        assert_eq!(total, layouts, "{name}");
        let published = std::fs::read_to_string(
            Path::new(ROOT)
                .join("data")
                .join(data_file(problem, "counts")),
        )
        .unwrap();
        let row = published
            .lines()
            .find(|l| l.starts_with(&format!("{},", board.rows())))
            .unwrap_or_else(|| panic!("{name}: no published row"));
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[1].parse::<usize>().unwrap(), queens, "{name}");
        assert_eq!(f[2].parse::<usize>().unwrap(), layouts, "{name}");
        if let Ok(published_classes) = f[3].parse::<usize>() {
            if published_classes * 8 >= layouts {
                assert_eq!(published_classes, classes, "{name}");
            }
        }
        files += 1;
    }
    assert!(files >= 2, "{files} class lists");
}

/// The runs still under way (`results/in-progress/NAME/`: a plan directory's `plan.json`,
/// `results/` and `attempts/`, kept so that a later session resumes the work): each is read by
/// `status` as a worker would find it, with no part refused (every result is of this plan and
/// board), none running, none failed except by an interruption (the workers stopped to keep
/// it), and as many parts done as result files.
#[test]
fn runs_in_progress_resume_cleanly() {
    let dir = Path::new(ROOT).join("results/in-progress");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let run = entry.unwrap().path();
        if !run.is_dir() {
            continue;
        }
        let files = std::fs::read_dir(run.join("results"))
            .map(|d| d.count())
            .unwrap_or(0);
        let out = assert_cmd::Command::cargo_bin("queendom")
            .unwrap()
            .arg("status")
            .arg(&run)
            .arg("--json")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {out:?}", run.display());
        let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let name = run.display();
        assert_eq!(status["refused"], 0, "{name}: {status}");
        assert_eq!(status["running"], 0, "{name}: {status}");
        // The workers of a kept run were stopped: the parts they were on were interrupted, and
        // are searched again on resume. Any other failure (a crash, an error) is looked into
        // before the run is kept.
        for failed in status["failed"].as_array().unwrap() {
            assert_eq!(failed["event"], "interrupted", "{name}: {failed}");
        }
        assert_eq!(status["done"], files, "{name}: {status}");
        assert!(
            status["left"].as_u64().unwrap() > 0,
            "{name} is finished: merge it"
        );
    }
}

/// The 1-32 tables with bounds: every row read as `table --budget` resumes it (layout through the
/// checker, digest, bounds columns that agree), every lower bound at least the cited one, every
/// published value inside its row's bounds and equal to it where the row says proven.
#[test]
fn shipped_tables_with_bounds_bracket_every_published_value() {
    use queendom::search::cited_lower_bound;
    let boards: Vec<Board> = (1..=32)
        .flat_map(|r| (1..=32).map(move |c| Board::new(r, c).unwrap()))
        .collect();
    for problem in [Problem::Domination, Problem::IndependentDomination] {
        let file = format!("{}-1-32.csv", problem.name());
        // A table still being tightened is kept in in-progress/: the same checks hold for it.
        let results = Path::new(ROOT).join("results");
        let contents = std::fs::read(results.join(&file))
            .or_else(|_| std::fs::read(results.join("in-progress").join(&file)))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let table = read_existing(
            &contents,
            Format::Csv,
            RowKind::Bounds,
            problem,
            &boards,
            false,
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(table.rows.len(), 1024, "{file}");
        assert_eq!(table.superseded_bytes, 0, "{file}: rows superseded");
        let mut bounds = HashMap::new();
        for kept in &table.rows {
            let (board, row) = (kept.board(), &kept.row);
            assert!(
                row.lower_bound() >= cited_lower_bound(board, problem),
                "{file} {board}"
            );
            bounds.insert(
                (board.rows(), board.cols()),
                (row.lower_bound(), row.queens(), row.is_proven()),
            );
        }
        let files: &[&str] = match problem {
            Problem::Domination => &[
                "domination_triangle.csv",
                "domination_squares.csv",
                "domination_rectangles.csv",
            ],
            _ => &[
                "independent_domination_triangle.csv",
                "independent_domination_squares.csv",
            ],
        };
        let mut compared = 0;
        for data in files {
            for (r, c, v) in published(data) {
                let Some(&(lower, upper, proven)) = bounds.get(&(r, c)) else {
                    continue;
                };
                assert!(
                    lower <= v && v <= upper,
                    "{file} {r}x{c}: {v} outside {lower}..{upper}"
                );
                assert!(
                    !proven || upper == v,
                    "{file} {r}x{c}: proven {upper}, published {v}"
                );
                compared += 1;
            }
        }
        assert!(compared >= 190, "{file}: {compared} compared");
    }
}
