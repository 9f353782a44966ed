//! `queendom nqueens SIZES [--list | --board]` and `queendom nqueens --rows A-B --cols C-D`: N-queens
//! counts as CSV, one row per board written as each finishes, or every placement of a square board.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use anyhow::Context;
use queendom::nqueens::{count_placements, count_rectangular, list_placements, MAX_LIST_N};
use queendom::table::{boards, SizeList};
use queendom::{Board, Layout, Square};

use super::output::{Sink, Target};
use super::{progress, usage, Failure, ThreadArgs};

/// Count (or list) the placements of N non-attacking queens on N×N boards; with --rows and
/// --cols, of min(N, M) queens on N×M boards.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Counts are exact for every n up to 32, but the time grows about sixfold \
per extra row: n = 16 takes a few seconds, n = 20 about an hour on one core, and n = 24 months \
or more. CSV columns: n,solutions,unique,seconds,threads (unique: up to rotations and \
reflections); with --rows/--cols: rows,cols,solutions,seconds,threads."
)]
pub struct NQueensArgs {
    /// Board sides n: a number, a range A-B, or a comma list such as 4,6,9-11 (n ≤ 32).
    // Which of SIZES and --rows/--cols is given is checked in `run`: clap's own messages for
    // these name the arguments on a second line, which the one-line error would drop.
    #[arg(value_name = "SIZES")]
    sizes: Option<SizeList>,
    /// Rectangular boards: row counts, in the same form as SIZES (needs --cols).
    #[arg(long, value_name = "SIZES")]
    rows: Option<SizeList>,
    /// Rectangular boards: column counts, in the same form as SIZES (needs --rows).
    #[arg(long, value_name = "SIZES")]
    cols: Option<SizeList>,
    /// Print every placement, one per line as the 1-based column of the queen in each row, in
    /// lexicographic order, then the count (n ≤ 18).
    #[arg(long, conflicts_with_all = ["board", "rows"])]
    list: bool,
    /// Like --list, but each placement as a diagram.
    #[arg(long, conflicts_with = "rows")]
    board: bool,
    /// Output file; `-` or none means stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Overwrite FILE if it exists.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    threads: ThreadArgs,
}

/// The CSV columns of square boards; the first three are the contract.
const SQUARE_COLUMNS: [&str; 5] = ["n", "solutions", "unique", "seconds", "threads"];
/// The CSV columns of rectangular boards; the first three are the contract.
const RECTANGLE_COLUMNS: [&str; 5] = ["rows", "cols", "solutions", "seconds", "threads"];

pub fn run(args: NQueensArgs) -> Result<(), Failure> {
    match (&args.sizes, &args.rows, &args.cols) {
        (Some(_), None, None) | (None, Some(_), Some(_)) => {}
        (Some(_), _, _) => {
            return Err(usage(
                "give either board sides n or --rows and --cols, not both",
            ))
        }
        (None, Some(_), None) => return Err(usage("--rows needs --cols")),
        (None, None, Some(_)) => return Err(usage("--cols needs --rows")),
        (None, None, None) => {
            return Err(usage(
                "give board sides n (e.g. 8 or 1-16), or --rows and --cols",
            ))
        }
    }
    if let Some(sizes) = &args.sizes {
        if args.list || args.board {
            if let Some(&n) = sizes.sizes().iter().find(|&&n| n > MAX_LIST_N) {
                return Err(usage(format!(
                    "cannot list n = {n}: --list and --board accept n up to {MAX_LIST_N} (the \
                     output grows about sixfold per row); leave them out to count"
                )));
            }
        }
    }
    let target = Target::parse(args.output.as_deref());
    let file = open(&target, args.force)?;
    let pool = args.threads.pool()?;
    let threads = args.threads.count();
    // One thread runs the sequential twin: no pieces handed around.
    let parallel = threads > 1;
    match (&args.sizes, &args.rows, &args.cols) {
        (Some(sizes), _, _) if args.list || args.board => {
            let out: Box<dyn Write + Send> = match file {
                Some(f) => Box::new(f),
                None => Box::new(io::stdout()),
            };
            let mut out = BufWriter::with_capacity(1 << 16, out);
            for &n in sizes.sizes() {
                pool.install(|| list(n, parallel, args.board, &mut out))?;
            }
            out.flush()?;
            Ok(())
        }
        (Some(sizes), _, _) => {
            let mut sink = sink(file);
            sink.write_now(&record(&SQUARE_COLUMNS)?)?;
            let bar = progress::bar(sizes.sizes().len() as u64, "boards");
            for &n in sizes.sizes() {
                bar.set_message(format!("counting n = {n}"));
                let start = Instant::now();
                let counts = pool
                    .install(|| count_placements(n, parallel))
                    .with_context(|| format!("n = {n}"))?;
                let seconds = start.elapsed().as_secs_f64();
                sink.write_now(&record(&[
                    &n.to_string(),
                    &counts.solutions.to_string(),
                    &counts.unique.to_string(),
                    &format!("{seconds:.6}"),
                    &threads.to_string(),
                ])?)?;
                bar.inc(1);
            }
            bar.finish_and_clear();
            Ok(())
        }
        (None, Some(rows), Some(cols)) => {
            let mut sink = sink(file);
            sink.write_now(&record(&RECTANGLE_COLUMNS)?)?;
            let boards = boards(rows, cols);
            let bar = progress::bar(boards.len() as u64, "boards");
            // A board and its transpose have the same count: the second is not searched again
            // and shows 0 seconds.
            let mut done: HashMap<Board, u64> = HashMap::new();
            for board in boards {
                bar.set_message(format!("counting {board}"));
                let start = Instant::now();
                let key = if board.rows() <= board.cols() {
                    board
                } else {
                    board.transposed()
                };
                let (solutions, seconds) = match done.get(&key) {
                    Some(&s) => (s, 0.0),
                    None => {
                        let s = pool.install(|| count_rectangular(key, parallel));
                        done.insert(key, s);
                        (s, start.elapsed().as_secs_f64())
                    }
                };
                sink.write_now(&record(&[
                    &board.rows().to_string(),
                    &board.cols().to_string(),
                    &solutions.to_string(),
                    &format!("{seconds:.6}"),
                    &threads.to_string(),
                ])?)?;
                bar.inc(1);
            }
            bar.finish_and_clear();
            Ok(())
        }
        _ => unreachable!("the combinations were checked above"),
    }
}

/// Print every placement of n queens, then the count.
fn list(n: usize, parallel: bool, diagrams: bool, out: &mut impl Write) -> Result<(), Failure> {
    let board = Board::new(n, n).map_err(usage)?;
    let mut line = String::with_capacity(3 * n + 1);
    let count = list_placements(n, parallel, |placement| -> Result<(), Failure> {
        line.clear();
        if diagrams {
            let queens = placement
                .iter()
                .enumerate()
                .map(|(row, &col)| Square::new(row, usize::from(col)))
                .collect();
            line.push_str(&Layout::new(board, queens).diagram());
            line.push('\n');
        } else {
            for (i, &col) in placement.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                line.push_str(decimal(usize::from(col) + 1));
            }
            line.push('\n');
        }
        out.write_all(line.as_bytes())?;
        Ok(())
    })?;
    writeln!(out, "{count} placements on {board}")?;
    Ok(())
}

/// The decimal form of a column number (at most 32), without formatting machinery per queen.
fn decimal(k: usize) -> &'static str {
    const NUMBERS: [&str; 33] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
        "32",
    ];
    NUMBERS[k]
}

/// Open the output file (refusing to overwrite without `force`); `None` means stdout.
fn open(target: &Target, force: bool) -> Result<Option<File>, Failure> {
    match target {
        Target::Stdout => Ok(None),
        Target::File(path) => {
            if path.exists() && !force {
                return Err(usage(format!(
                    "{} already exists; use --force to overwrite it",
                    path.display()
                )));
            }
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))?;
            Ok(Some(file))
        }
    }
}

fn sink(file: Option<File>) -> Sink {
    match file {
        Some(f) => Sink::file(f),
        None => Sink::stdout(),
    }
}

fn record(fields: &[&str]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(fields)?;
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}
