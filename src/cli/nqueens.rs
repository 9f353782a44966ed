//! `queendom nqueens SIZES [--list | --board]` and `queendom nqueens --rows A-B --cols C-D`: N-queens
//! counts as CSV, one row per board written as each finishes, or every placement of a square board.

use std::io::{self, BufWriter, Write};

use queendom::export::{Format, Subject};
use queendom::nqueens::{list_placements, placement_text, MAX_LIST_N};
use queendom::table::nqueens::{axes, table_boards, NQueensCounter, RecountError, Shape};
use queendom::table::resume::NQueens;
use queendom::table::writer::{self, Output, TableSpec};
use queendom::table::SizeList;
use queendom::Board;

use super::destination::{OutFile, Target};
use super::signals::ExitOnSignal;
use super::table_file::TableFileArgs;
use super::trace_file::TraceArgs;
use super::{progress, usage, Failure, ThreadArgs};

/// Count (or list) the placements of N non-attacking queens on N×N boards; with --rows and
/// --cols, of min(N, M) queens on N×M boards.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  queendom nqueens 1-12
  queendom nqueens 1-16 -o nqueens.csv    run again to resume
More: docs/commands.md, or `queendom manpage`.")]
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
    /// Print every placement (n ≤ 18), one a line: the queen's column (from 1) in each row.
    #[arg(long, conflicts_with_all = ["board", "rows"])]
    list: bool,
    /// Like --list, but each placement as a diagram.
    #[arg(long, conflicts_with = "rows")]
    board: bool,
    #[command(flatten)]
    file: TableFileArgs,
    #[command(flatten)]
    trace: TraceArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: NQueensArgs) -> Result<(), Failure> {
    check_args(&args)?;
    let listing = args.list || args.board;
    let signals = ExitOnSignal::register()?;
    let target = Target::parse(args.file.output.as_deref());
    if target == Target::Stdout && args.trace.uses_stdout() {
        return Err(usage(
            "the counts and --trace - cannot both go to standard output: give -o FILE",
        ));
    }
    let trace_out = args.trace.claim(args.file.force)?;
    if let Some(trace) = &trace_out {
        signals.status().cleanup.extend(trace.lock_files());
    }
    let format = choose_format(args.file.format.map(Into::into), &target, listing)?;
    let pool = args.threads.pool()?;
    let threads = args.threads.count();
    if let (Some(sizes), true) = (&args.sizes, listing) {
        // One thread runs the sequential twin: no pieces handed around.
        let parallel = threads > 1;
        return list_all(
            sizes,
            &target,
            args.file.force,
            parallel,
            args.board,
            &pool,
            &signals,
        );
    }
    let (shape, spec) = table_spec(&args, format)?;
    let kind = shape.kind();
    let mut out = Output::open(
        &target,
        spec,
        NQueens { kind },
        args.file.force,
        args.file.verify,
    )?;
    say(&mut out);
    let trace = trace_out.as_ref().map(|t| t.trace());
    let mut counter = NQueensCounter::new(shape, threads, trace.as_deref());
    // Kept counts of small boards (all with --verify, or without digests) are counted again.
    let kept = out.kept();
    let recounted = match pool.install(|| counter.recount(kept, args.file.verify)) {
        Ok(n) => n,
        Err(RecountError::Count(e)) => return Err(e.into()),
        Err(RecountError::Differs(e)) => return Err(out.refuse(e).into()),
    };
    if !out.kept().is_empty() {
        eprintln!("queendom: {}", out.resuming(recounted, "counted again"));
    }
    out.start()?;
    say(&mut out);
    count_all(&mut out, &mut counter, &pool, &signals)?;
    if let Some(trace) = &trace_out {
        // Under the status lock: a signal now must not cut the rename.
        let _status = signals.status();
        trace.write()?;
    }
    // Holding the status lock: a signal now must not cut the rename.
    let _status = signals.status();
    out.finish()?;
    Ok(())
}

/// The table's shape and boards, in `format` if it takes them.
fn table_spec(args: &NQueensArgs, format: Format) -> Result<(Shape, TableSpec), Failure> {
    let (shape, boards) = table_boards(args.sizes.as_ref(), args.rows.as_ref(), args.cols.as_ref())
        .expect("check_args checked the combinations");
    format.accepts(&boards).map_err(usage)?;
    let (rows, cols) = axes(&boards);
    let spec = TableSpec {
        format,
        subject: Subject::NQueens,
        boards,
        rows,
        cols,
    };
    Ok((shape, spec))
}

/// What clap cannot check: which of SIZES and --rows/--cols is given, listing sizes, --trace.
fn check_args(args: &NQueensArgs) -> Result<(), Failure> {
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
    let listing = args.list || args.board;
    if let (Some(sizes), true) = (&args.sizes, listing) {
        if let Some(&n) = sizes.sizes().iter().find(|&&n| n > MAX_LIST_N) {
            return Err(usage(format!(
                "cannot list n = {n}: --list and --board accept n up to {MAX_LIST_N} (the \
                 output grows about sixfold per row); leave them out to count"
            )));
        }
    }
    if args.trace.is_given() && (listing || args.sizes.is_none()) {
        return Err(usage(
            "--trace is for counts of square boards (SIZES, without --list or --board)",
        ));
    }
    Ok(())
}

/// Count the boards still to do and write their rows, the interrupt message kept up to date.
fn count_all(
    out: &mut Output<NQueens>,
    counter: &mut NQueensCounter,
    pool: &rayon::ThreadPool,
    signals: &ExitOnSignal,
) -> Result<(), Failure> {
    let total = out.to_do().len() + out.done();
    let resume_hint = out.where_rows_are();
    {
        let mut status = signals.status();
        status.message = format!(
            "interrupted after {} of {total} boards{resume_hint}",
            out.done()
        );
        status.cleanup.extend(out.lock_files());
    }
    let bar = progress::bar(total as u64, "boards");
    bar.set_position(out.done() as u64);
    for board in out.to_do() {
        bar.set_message(format!("counting {board}"));
        let row = pool.install(|| counter.row(board))?;
        let mut status = signals.status();
        out.write(row)?;
        status.message = format!(
            "interrupted after {} of {total} boards{resume_hint}",
            out.done()
        );
        drop(status);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// Print what the writer has to say (notes on journals, a dropped half-written line).
fn say(out: &mut Output<NQueens>) {
    for note in out.take_notes() {
        eprintln!("queendom: {note}");
    }
}

/// `--format`, else FILE's extension, else csv, as `table` chooses it; listings have no format.
fn choose_format(arg: Option<Format>, target: &Target, listing: bool) -> Result<Format, Failure> {
    if listing {
        if arg.is_some() {
            return Err(usage(
                "--list and --board print placements: --format does not apply",
            ));
        }
        return Ok(Format::Csv);
    }
    Ok(writer::choose_format(arg, target)?)
}

/// Every placement of each n, to stdout or to FILE (written whole at the end).
fn list_all(
    sizes: &SizeList,
    target: &Target,
    force: bool,
    parallel: bool,
    diagrams: bool,
    pool: &rayon::ThreadPool,
    signals: &ExitOnSignal,
) -> Result<(), Failure> {
    signals.status().message = "interrupted while listing placements".into();
    match target {
        Target::Stdout => {
            super::destination::check_stdout()?;
            let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
            for &n in sizes.sizes() {
                pool.install(|| list(n, parallel, diagrams, &mut out))?;
            }
            out.flush()?;
            Ok(())
        }
        Target::File(path) => {
            let file = OutFile::claim(path)?;
            if file.exists() && !force {
                return Err(usage(format!(
                    "{} already exists; use --force to replace it once the new listing is complete",
                    path.display()
                )));
            }
            {
                let mut status = signals.status();
                status.message = format!(
                    "interrupted while listing placements; {} was not written",
                    path.display()
                );
                status.cleanup.extend(file.lock_files());
            }
            let mut replacement = file.replacement()?;
            signals
                .status()
                .cleanup
                .push(replacement.path().to_path_buf());
            {
                let mut out = BufWriter::with_capacity(1 << 16, replacement.file());
                for &n in sizes.sizes() {
                    pool.install(|| list(n, parallel, diagrams, &mut out))?;
                }
                out.flush()?;
            }
            let _status = signals.status();
            Ok(replacement.commit()?)
        }
    }
}

/// Print every placement of n queens, then the count.
fn list(n: usize, parallel: bool, diagrams: bool, out: &mut impl Write) -> Result<(), Failure> {
    let board = Board::new(n, n).map_err(usage)?;
    let mut line = String::with_capacity(3 * n + 1);
    let count = list_placements(n, parallel, |placement| -> Result<(), Failure> {
        line.clear();
        placement_text(board, placement, diagrams, &mut line);
        out.write_all(line.as_bytes())?;
        Ok(())
    })?;
    writeln!(out, "{count} placements on {board}")?;
    Ok(())
}
