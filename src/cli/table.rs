//! `queendom table --rows A-B --cols C-D [-o FILE] [--format F]`: one row per board, written as each
//! finishes. The boards are searched side by side, one job of the thread pool each (with
//! `--checkpoint`, one after the other). An existing table file is checked, re-proved where that
//! is cheap, and completed; Ctrl-C, SIGTERM or SIGHUP stops cleanly.
//!
//! Everything that can be refused is refused before a file is created or changed: the format, the
//! path (through the output-file policy, [`super::destination::file`]), and an existing file's contents.
//!
//! Where rows go while the table is computed:
//! - standard output: in the table's order, each once every row before it is done (whole-table
//!   formats: all at the end);
//! - a csv/tsv/json FILE without `--force`: appended to FILE as they finish, in any order (FILE is
//!   resumed; once complete, it is rewritten in the table's order if the rows are not in it);
//! - otherwise (`--force`, or a whole-table format): a journal `.FILE.partial` beside FILE, in a
//!   line format, resumed by the next run of the same command; once the table is complete, FILE is
//!   written whole from the rows, renamed into place, and the journal removed. So `--force` never
//!   touches FILE before the new table is complete, and an interrupted run loses no finished row.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

use indicatif::ProgressBar;
use queendom::export::Format;
use queendom::row::RowKind;
use queendom::search::{Problem, SearchError, SearchOptions};
use queendom::table::resume::{reprove, Queens, ResumeError};
use queendom::table::writer::{choose_format, Output, TableSpec};
use queendom::table::{
    boards, square_boards, SideBySideError, SizeList, StartOrder, TableEvent, TableRunner,
};
use queendom::Board;

use super::destination::Target;
use super::signals::Interrupt;
use super::start::StartArgs;
use super::table_file::TableFileArgs;
use super::trace_file::TraceArgs;
use super::{progress, usage, Failure, ProblemArgs, ThreadArgs};
use queendom::plan::checkpoint::CheckpointError;

const TABLE_HELP: &str = "\
Examples:
  queendom table --rows 1-10 --cols 1-10 -o gamma.csv    γ of 100 boards; run again to resume
  queendom table --squares 1-12 -i --count -o i.xlsx    i and its counts, as a workbook
Exit codes: 0 done; 1 failure; 2 refused (bad options, an output in use or that cannot be
resumed: nothing changed); 130/143/129 interrupted (every finished board is kept).
Formats, columns, resume, --force and locking: More: docs/commands.md, or `queendom manpage`.";

#[derive(clap::Args, Debug)]
#[command(after_help = TABLE_HELP)]
pub struct TableArgs {
    /// Row counts: a number, a range A-B, or a comma list such as 4,6,9-11.
    // A negative number reaches the size parser, which names the problem, instead of reading as a
    // flag; a forgotten value (`--rows --cols 3`) is still reported as missing.
    #[arg(
        long,
        value_name = "SIZES",
        allow_negative_numbers = true,
        required_unless_present = "squares",
        requires = "cols"
    )]
    rows: Option<SizeList>,
    /// Column counts, in the same form as --rows.
    #[arg(
        long,
        value_name = "SIZES",
        allow_negative_numbers = true,
        required_unless_present = "squares",
        requires = "rows"
    )]
    cols: Option<SizeList>,
    /// Square boards n×n only, for these n (instead of --rows and --cols).
    #[arg(long, value_name = "SIZES", allow_negative_numbers = true, conflicts_with_all = ["rows", "cols"])]
    squares: Option<SizeList>,
    #[command(flatten)]
    problem: ProblemArgs,
    #[command(flatten)]
    file: TableFileArgs,
    /// Also count each board's minimum layouts and their classes under its symmetries.
    #[arg(long, conflicts_with = "checkpoint")]
    count: bool,
    /// Give each board at most TIME (5s, 2m, 1h30m): a proof if it ends in time, else its
    /// lower and upper bounds (columns lower, upper, status); run again to tighten them.
    /// With --checkpoint, a board's proof keeps its finished parts there and the next run goes on
    /// from them.
    #[arg(long, value_name = "TIME", value_parser = parse_budget, conflicts_with = "count")]
    budget: Option<Duration>,
    /// Keep each board's finished parts in DIR/BOARD-PROBLEM/, to resume; boards run one by one.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    trace: TraceArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

/// The table writer of a γ or i table.
type TableOutput = Output<Queens>;

pub fn run(args: TableArgs) -> Result<(), Failure> {
    let problem = args.problem.problem();
    // From here on a signal only raises the flag, so no moment of the run can be cut short
    // uncontrolled.
    let interrupt = Interrupt::register()?;
    let target = Target::parse(args.file.output.as_deref());
    let spec = table_spec(&args, &target)?;
    if target == Target::Stdout && args.trace.uses_stdout() {
        return Err(usage(
            "the table and --trace - cannot both go to standard output: give -o FILE",
        ));
    }
    let starts = args.start.layouts(&spec.boards, problem)?;
    let trace = args.trace.claim(args.file.force)?;
    let kind = args.kind();
    let total = spec.boards.len();
    let pool = args.threads.pool()?;
    let threads = args.threads.count();
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        trace: trace.as_ref().map(|t| t.trace()),
        start: starts,
        ..SearchOptions::for_threads(threads)
    };
    let schema = Queens { kind, problem };
    let mut out = Output::open(&target, spec, schema, args.file.force, args.file.verify)?;
    say(&mut out);
    reprove_kept(&out, problem, args.file.verify, &options, &pool, &interrupt)?;
    out.start()?;
    say(&mut out);

    let bar = progress::bar(total as u64, "boards");
    bar.set_position(out.kept_final() as u64);
    let mut runner = TableRunner::of_kind(kind, problem, options, threads);
    if let Some(budget) = args.budget {
        runner.set_budget(budget);
    } else if kind == RowKind::Optimum {
        let bar = bar.clone();
        runner.set_proof_estimate(Arc::new(move |board, nodes| {
            if let Some(warning) = long_proof_warning(board, nodes, threads) {
                bar.suspend(|| eprintln!("queendom: {warning}"));
            }
        }));
    }
    if out.is_stdout() {
        // Rows reach stdout in the table's order; starting there lets them flow at once.
        runner.set_start_order(StartOrder::TableOrder);
    }
    for kept in out.kept() {
        runner.remember(&kept.row);
    }
    let to_do = out.to_do();
    let run = Run {
        pool: &pool,
        interrupt: &interrupt,
        bar: &bar,
    };
    match &args.checkpoint {
        None => run.side_by_side(&mut runner, &to_do, &mut out)?,
        Some(dir) => run.one_after_another(&mut runner, &to_do, dir, &mut out)?,
    }
    bar.finish_and_clear();
    finish(out, &target, &interrupt)?;
    match &trace {
        Some(trace) => trace.write(),
        None => Ok(()),
    }
}

impl TableArgs {
    /// The rows' kind: with the counts (`--count`), with bounds (`--budget`), or exact.
    fn kind(&self) -> RowKind {
        if self.count {
            RowKind::Count
        } else if self.budget.is_some() {
            RowKind::Bounds
        } else {
            RowKind::Optimum
        }
    }
}

/// The table asked for: its boards and axes in the format chosen.
fn table_spec(args: &TableArgs, target: &Target) -> Result<TableSpec, Failure> {
    let format = choose_format(args.file.format.map(Format::from), target)?;
    let (boards, rows, cols) = match (&args.squares, &args.rows, &args.cols) {
        (Some(sizes), _, _) => (
            square_boards(sizes),
            sizes.sizes().to_vec(),
            sizes.sizes().to_vec(),
        ),
        (None, Some(r), Some(c)) => (boards(r, c), r.sizes().to_vec(), c.sizes().to_vec()),
        _ => return Err(usage("give --rows and --cols, or --squares")),
    };
    format.accepts(&boards).map_err(usage)?;
    Ok(TableSpec {
        format,
        subject: args.problem.problem().into(),
        boards,
        rows,
        cols,
    })
}

/// Re-prove the rows kept from an earlier run (see [`reprove`]), with a bar.
fn reprove_kept(
    out: &TableOutput,
    problem: Problem,
    verify: bool,
    options: &SearchOptions,
    pool: &rayon::ThreadPool,
    interrupt: &Interrupt,
) -> Result<(), Failure> {
    if out.kept().is_empty() {
        return Ok(());
    }
    let bar = progress::bar(out.kept().len() as u64, "kept rows re-proved");
    let kept = out.kept();
    let proved = pool.install(|| {
        reprove(kept, problem, verify, options, |kept| {
            bar.set_message(format!("re-proving {}", kept.board()));
            bar.inc(1);
        })
    });
    bar.finish_and_clear();
    let proved = match proved {
        Ok(n) => n,
        Err(ResumeError::Search {
            error: SearchError::Cancelled,
            ..
        }) => {
            eprintln!(
                "queendom: interrupted while re-proving the rows of {}; nothing was changed",
                out.source()
            );
            return Err(Failure::Interrupted(interrupt.exit_code()));
        }
        Err(e) => return Err(out.refuse(e).into()),
    };
    eprintln!("queendom: {}", out.resuming(proved, "re-proved"));
    Ok(())
}

/// Finish the table once its boards are done (saying what was written), or say how far an
/// interrupted run got.
fn finish(mut out: TableOutput, target: &Target, interrupt: &Interrupt) -> Result<(), Failure> {
    // Standard output: rows held back for the table's order are finished results too.
    if !out.is_complete() {
        let held = out.write_held()?;
        eprintln!("queendom: {}", out.interrupted(held));
        return Err(Failure::Interrupted(interrupt.exit_code()));
    }
    let (total, kept) = (out.total(), out.kept_final());
    out.finish()?;
    if *target != Target::Stdout {
        let boards = if total == 1 { "board" } else { "boards" };
        eprintln!(
            "queendom: wrote {target}: {total} {boards} ({kept} kept, {} computed)",
            total - kept
        );
    }
    Ok(())
}

/// Print what the writer has to say (notes on journals, a dropped half-written line).
fn say(out: &mut TableOutput) {
    for note in out.take_notes() {
        eprintln!("queendom: {note}");
    }
}

/// What computing the boards needs besides the runner and where the rows go.
struct Run<'a> {
    pool: &'a rayon::ThreadPool,
    interrupt: &'a Interrupt,
    bar: &'a ProgressBar,
}

impl Run<'_> {
    /// Every board at once, each one job of the pool (see [`TableRunner::compute_side_by_side`]),
    /// rows written as boards finish. Returns when every board is done or the run was
    /// interrupted (the boards in progress are dropped).
    fn side_by_side(
        &self,
        runner: &mut TableRunner,
        boards: &[Board],
        rows: &mut TableOutput,
    ) -> Result<(), Failure> {
        let mut searching: Vec<Board> = Vec::new();
        let bar = self.bar;
        let outcome = self.pool.install(|| {
            runner.compute_side_by_side(boards, |event| {
                match event {
                    TableEvent::Started(board) => searching.push(board),
                    TableEvent::Finished {
                        searched,
                        rows: done,
                    } => {
                        searching.retain(|&b| b != searched);
                        for row in done {
                            if let Err(e) = rows.write(row) {
                                // Stop the boards in progress too: nothing more can be written.
                                self.interrupt.flag().store(true, Relaxed);
                                return Err(Failure::from(e));
                            }
                            bar.inc(1);
                        }
                    }
                }
                bar.set_message(in_progress(&searching));
                Ok(())
            })
        });
        match outcome {
            Ok(()) | Err(SideBySideError::Cancelled) => Ok(()),
            Err(SideBySideError::Search { board, error }) => Err(Failure::Error(
                anyhow::Error::new(error).context(format!("board {board}")),
            )),
            Err(SideBySideError::Caller(failure)) => Err(failure),
        }
    }

    /// One board after the other, each on all threads, each search kept in parts under `dir`
    /// (`--checkpoint`), so that an interrupted board resumes from its parts.
    fn one_after_another(
        &self,
        runner: &mut TableRunner,
        boards: &[Board],
        dir: &Path,
        rows: &mut TableOutput,
    ) -> Result<(), Failure> {
        let threads = self.pool.current_num_threads();
        for &board in boards {
            if self.interrupt.is_set() {
                break;
            }
            self.bar.set_message(format!("searching {board}"));
            self.bar.set_prefix("");
            let on_part = |done: usize, total: usize| {
                self.bar.set_prefix(format!(", part {done}/{total}"));
            };
            let outcome = self
                .pool
                .install(|| runner.compute_checkpointed(board, dir, threads, &on_part));
            match outcome {
                Ok(row) => rows.write(row)?,
                // The board in progress is dropped: nothing of it was written.
                Err(CheckpointError::Cancelled(..)) => break,
                Err(e) => return Err(e.into()),
            }
            self.bar.inc(1);
        }
        Ok(())
    }
}

/// A time budget: a number and a unit (`5s`, `500ms`, `2m`, `1h30m`), more than zero.
fn parse_budget(text: &str) -> Result<Duration, String> {
    let budget = humantime::parse_duration(text)
        .map_err(|e| format!("'{text}' is not a time such as 5s, 2m or 1h30m ({e})"))?;
    if budget.is_zero() {
        return Err("the budget must be more than zero".into());
    }
    Ok(budget)
}

/// Nodes per CPU second of the exact search, to turn an estimate into hours: `solve 20x20 -j 1`
/// on a loaded 2-core machine (366 M nodes in 562 CPU s; an idle one is up to twice as fast, the
/// largest boards' parts are slower: docs/frontier.md).
const NODES_PER_CPU_SECOND: f64 = 650_000.0;

/// Proofs estimated past this many hours of wall time are named before they are waited for.
const LONG_PROOF_HOURS: f64 = 1.0;

/// The warning for a board whose exact proof is estimated at `nodes` on `threads` threads, if
/// that is past [`LONG_PROOF_HOURS`].
fn long_proof_warning(board: Board, nodes: f64, threads: usize) -> Option<String> {
    let cpu_hours = nodes / NODES_PER_CPU_SECOND / 3600.0;
    let hours = cpu_hours / threads.max(1) as f64;
    (hours > LONG_PROOF_HOURS).then(|| {
        format!(
            "{board}: its proof is estimated at {nodes:.1e} nodes, about {hours:.0} hours on \
             {threads} thread{s} ({cpu_hours:.0} CPU hours); --budget TIME gives bounds within TIME \
             per board instead, and `queendom plan` cuts a proof into parts for many machines",
            s = if threads == 1 { "" } else { "s" },
        )
    })
}

/// The progress bar's message while boards are searched side by side.
fn in_progress(searching: &[Board]) -> String {
    const NAMED: usize = 3;
    match searching.len() {
        0 => String::new(),
        n if n <= NAMED => {
            let names: Vec<String> = searching.iter().map(Board::to_string).collect();
            format!("searching {}", names.join(", "))
        }
        n => {
            let names: Vec<String> = searching[..NAMED].iter().map(Board::to_string).collect();
            format!("searching {} and {} more", names.join(", "), n - NAMED)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_past_an_hour_are_named_with_their_estimate_and_the_way_out() {
        let board = Board::new(24, 24).unwrap();
        // 6.02e10 nodes, the estimate of γ(Q_24)'s proof: about 26 CPU hours.
        let warning = long_proof_warning(board, 6.02e10, 2).expect("past an hour");
        assert!(warning.starts_with("24x24: "), "{warning}");
        assert!(warning.contains("6.0e10 nodes"), "{warning}");
        assert!(warning.contains("on 2 threads (26 CPU hours)"), "{warning}");
        assert!(warning.contains("--budget") && warning.contains("plan"));
        // γ(Q_20)'s 3.66e8 nodes are under an hour even on one thread.
        assert_eq!(long_proof_warning(board, 3.66e8, 1), None);
        // The threads share the hours.
        let hour = NODES_PER_CPU_SECOND * 3600.0;
        assert!(long_proof_warning(board, 1.5 * hour, 1).is_some());
        assert!(long_proof_warning(board, 1.5 * hour, 2).is_none());
    }
}
