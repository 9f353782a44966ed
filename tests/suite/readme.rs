//! Docs that run: every command shown in a fenced block of README.md and docs/*.md either runs here
//! (exit 0, in a scratch directory so that the files it writes land there) or is listed in
//! [`NOT_RUN`] with the reason, and the README's results table says what results/ holds.
//!
//! A command is a line of a fenced block that starts with `queendom `, `scripts/` or `cargo `
//! (after a `$ ` prompt, which in a block with prompts marks the only commands: the other lines are
//! output). It ends at a `#` comment or at two spaces before a description; `;`, `&&` and a
//! trailing `&` separate commands on one line, of which only queendom's are run (`cat`, `wait`
//! are the shell's). Lines with `...` or `[` are shapes, not commands. The commands of one block
//! run in order in one directory, so that a later command finds what an earlier one wrote; on the
//! docs' pages that directory starts with `gamma.csv` and `indep.csv` (γ and i up to 6×6), the
//! tables their examples read.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;

/// Commands shown in the README or the docs that the tests do not run, each with why: too long
/// for a test (a test run is minutes for everything), a cluster (`tests/suite/slurm.rs` runs
/// `submit.sh` on a real one when `QUEENDOM_SLURM` is set), or a run directory that only a listed
/// command makes. A command here that no page shows any more fails the test, so the list stays
/// the docs' own.
#[rustfmt::skip]
const NOT_RUN: &[(&str, &str)] = &[
    // README.md
    ("cargo run --release -- table --rows 1-12 --cols 1-12 -o gamma.csv", "a build; the same table runs below"),
    ("cargo test --release", "the tests themselves"),
    ("cargo install --locked --path .", "an install"),
    ("queendom bench --work standard -o bench.csv", "about a minute on 2 cores"),
    ("queendom bench --work large --trace t.csv", "about 190 CPU s per run"),
    ("queendom table --rows 1-32 --cols 1-32 --budget 5s -o g32.csv", "about 10 minutes on 2 cores (tests/suite/budget.rs runs --budget)"),
    ("queendom plan 21x21 --parts 2000 -o run21/", "minutes of planning"),
    ("scripts/slurm/submit.sh run21/ -- --time=2:00:00", "a Slurm cluster"),
    ("queendom status run21/", "needs run21/"),
    ("scripts/slurm/submit.sh run21/ --missing -- --time=2:00:00", "a Slurm cluster"),
    ("queendom audit run21/ --sample 5%", "needs run21/ merged"),
    // docs/cluster.md
    ("queendom plan 19x19 --parts 4000 -o run19/", "47 s of planning"),
    ("scripts/slurm/submit.sh run19/ --max-running 200 -- --partition=long --time=2:00:00", "a Slurm cluster"),
    ("queendom status run19/", "needs run19/"),
    ("scripts/slurm/submit.sh run19/ --missing -- --partition=long --time=2:00:00", "a Slurm cluster"),
    ("scripts/slurm/submit.sh run19/ --missing -- --time=2:00:00", "a Slurm cluster"),
    ("queendom merge run/", "needs run/ worked by GNU parallel"),
    ("scripts/slurm/cluster.sh up", "starts a cluster as root"),
    ("QUEENDOM_SLURM=1 cargo test --release --test suite slurm::", "the Slurm tests, in .ci/run"),
    ("scripts/slurm/cluster.sh down", "stops a cluster"),
    // docs/counting.md
    ("queendom plan 20x20 --count --queens 11 --classes --parts 2000 -o count20/", "minutes of planning"),
    ("scripts/slurm/submit.sh count20/ --max-running 200 -- --time=2:00:00", "a Slurm cluster"),
    ("queendom status count20/", "needs count20/"),
    // docs/frontier.md
    ("queendom plan 26x26 --parts 2000 -o run26/", "1.5 min of planning"),
    ("scripts/slurm/submit.sh run26/ --max-running 500 -- --partition=long --time=4:00:00", "a Slurm cluster"),
    ("queendom status run26/", "needs run26/"),
    // docs/results.md
    ("queendom plan 19x19 --parts 4000 -o q19", "47 s of planning"),
    ("queendom work q19 --next --until-done -j 1", "the proof of γ(Q_19), minutes"),
    ("queendom merge q19", "needs q19 worked"),
    // docs/scaling.md
    ("queendom bench --work standard", "about a minute on 2 cores"),
];

/// One command of a page: the page, which of its fenced blocks holds it, and its text as shown.
struct Shown {
    page: String,
    block: usize,
    command: String,
}

/// The commands of one page's fenced blocks, in order.
fn commands(page: &str, text: &str) -> Vec<Shown> {
    let mut found = Vec::new();
    // The odd pieces between fences are the blocks; each starts with its language.
    for (number, block) in text.split("```").skip(1).step_by(2).enumerate() {
        let body = block.split_once('\n').map_or("", |(_, body)| body);
        let prompted = body.lines().any(|line| line.trim_start().starts_with("$ "));
        for line in body.lines() {
            let mut line = line.trim();
            if prompted {
                match line.strip_prefix("$ ") {
                    Some(rest) => line = rest,
                    None => continue,
                }
            }
            let line = line.split(" #").next().unwrap();
            let line = line.split("  ").next().unwrap().trim();
            if line.contains("...") || line.contains('[') {
                continue;
            }
            for piece in line.split(';').flat_map(|p| p.split("&&")) {
                let command = piece.trim().trim_end_matches('&').trim();
                let shown = ["queendom ", "scripts/", "cargo ", "QUEENDOM_SLURM="];
                if shown.iter().any(|start| command.starts_with(start)) {
                    found.push(Shown {
                        page: page.to_string(),
                        block: number,
                        command: command.to_string(),
                    });
                }
            }
        }
    }
    found
}

/// Run `command` (a queendom command, `> FILE` sending its standard output to FILE) in `dir`.
fn run(shown: &Shown, dir: &Path) {
    let args = shown.command.strip_prefix("queendom ").unwrap_or_else(|| {
        panic!(
            "{}: `{}` is not queendom's: run it here or list it in NOT_RUN",
            shown.page, shown.command
        )
    });
    let (args, redirect) = match args.split_once(" > ") {
        Some((args, file)) => (args, Some(file.trim())),
        None => (args, None),
    };
    let out = Command::cargo_bin("queendom")
        .unwrap()
        .args(shell_words(args))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: `{}` failed ({}): {}",
        shown.page,
        shown.command,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    if let Some(file) = redirect {
        std::fs::write(dir.join(file), &out.stdout).unwrap();
    }
}

/// Words as the shell splits them, for the quoting the docs use: single quotes around a word with
/// spaces.
fn shell_words(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in args.chars() {
        if c == '\'' {
            quoted = !quoted;
            word.get_or_insert_with(String::new);
        } else if c.is_whitespace() && !quoted {
            words.extend(word.take());
        } else {
            word.get_or_insert_with(String::new).push(c);
        }
    }
    words.extend(word);
    words
}

fn page(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

fn docs_pages() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages
}

/// A fresh directory for a block's commands; `tables`: with gamma.csv and indep.csv in it.
fn scratch(tables: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if tables {
        for (file, extra) in [("gamma.csv", None), ("indep.csv", Some("-i"))] {
            let mut table = Command::cargo_bin("queendom").unwrap();
            table.args(["table", "--rows", "1-6", "--cols", "1-6", "-o", file]);
            table.args(extra).current_dir(dir.path()).assert().success();
        }
    }
    dir
}

/// Run the page's commands that are not listed, each block's in order in a directory of its own
/// (`tables`: see [`scratch`]). Returns the commands it saw.
fn run_page(name: &str, tables: bool) -> Vec<String> {
    let not_run: BTreeSet<&str> = NOT_RUN.iter().map(|(command, _)| *command).collect();
    let shown = commands(name, &page(name));
    let mut dir: Option<(usize, tempfile::TempDir)> = None;
    for command in &shown {
        if not_run.contains(command.command.as_str()) {
            continue;
        }
        if dir
            .as_ref()
            .is_none_or(|(block, _)| *block != command.block)
        {
            dir = Some((command.block, scratch(tables)));
        }
        run(command, dir.as_ref().unwrap().1.path());
    }
    shown.into_iter().map(|s| s.command).collect()
}

#[test]
fn readme_commands_work() {
    let shown = run_page("README.md", false);
    assert!(
        shown.len() >= 40,
        "only {} commands found in the README",
        shown.len()
    );
}

#[test]
fn docs_commands_work() {
    let mut seen: BTreeSet<String> = commands("README.md", &page("README.md"))
        .into_iter()
        .map(|s| s.command)
        .collect();
    for name in docs_pages() {
        seen.extend(run_page(&name, true));
    }
    for (command, why) in NOT_RUN {
        assert!(
            seen.contains(*command),
            "NOT_RUN lists `{command}` ({why}), which no page shows any more: remove it"
        );
    }
}

/// The README's table of the columns 19 and 20 is what results/ holds.
#[test]
fn readme_results_table_is_the_tables() {
    let readme = page("README.md");
    let mut checked = 0;
    for (symbol, file) in [
        ("γ", "results/domination-1-20.csv"),
        ("i", "results/independent-domination-1-20.csv"),
    ] {
        let mut values = std::collections::HashMap::new();
        let mut table = csv::Reader::from_path(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
            .expect("the results table reads");
        for row in table.records() {
            let row = row.unwrap();
            let number = |i: usize| row[i].parse::<usize>().unwrap();
            values.insert((number(0), number(1)), number(2));
        }
        for cols in [19, 20] {
            let label = format!("| {symbol}(m×{cols}) |");
            let line = readme
                .lines()
                .find(|line| line.starts_with(&label))
                .unwrap_or_else(|| panic!("the README has a row {label}"));
            let shown: Vec<usize> = line[label.len()..]
                .split('|')
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .map(|cell| cell.parse().unwrap())
                .collect();
            let held: Vec<usize> = (1..=20).map(|rows| values[&(rows, cols)]).collect();
            assert_eq!(shown, held, "README row {label} against {file}");
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}
