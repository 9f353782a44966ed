//! `queendom table --rows A-B --cols C-D [-o FILE] [--format F]`: one row per board, written as each
//! finishes. The boards are searched side by side, one job of the thread pool each (with
//! `--checkpoint`, one after the other). An existing table file is checked, re-proved where that
//! is cheap, and completed; Ctrl-C, SIGTERM or SIGHUP stops cleanly.
//!
//! Everything that can be refused is refused before a file is created or changed: the format, the
//! path (through the output-file policy, [`super::output::file`]), and an existing file's contents.
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

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use indicatif::ProgressBar;
use queendom::export::{Export, Format};
use queendom::row::{RowKind, TableRow};
use queendom::search::{Problem, SearchError, SearchOptions};
use queendom::table::resume::{
    max_lines, read_existing, reprove, visible, ExistingTable, KeptRow, LineEnding, ResumeError,
    MAX_LINE_BYTES,
};
use queendom::table::{
    boards, square_boards, Searched, SideBySideError, SizeList, TableEvent, TableRunner,
};
use queendom::Board;

use super::output::file::{cannot_write, read_start};
use super::output::{OutFile, Sink, Target};
use super::plan::{solve_checkpointed, CheckpointError};
use super::signals::Interrupt;
use super::start::StartArgs;
use super::trace_file::TraceArgs;
use super::{progress, usage, Failure, ThreadArgs};

const TABLE_HELP: &str = "\
Formats: --format, or from FILE's extension (.csv .tsv .json .jsonl .ndjson .md .markdown .xlsx);
  stdout and files without an extension get csv, other extensions are refused. The columns of
  csv, tsv, json, markdown and the workbook's rows sheet: rows,cols,queens,layout,problem,digest,
  nodes,seconds,threads. layout lists the queens as 1-based squares r1c1 (row from the top, column
  from the left) separated by single spaces. digest is a checksum of the row's values (q and 16
  hex digits). nodes and seconds measure the search (a board whose transpose was already done
  shows 0 and 0; seconds are the wall seconds of the board's search while it shared the threads
  with the other boards), threads is the number of worker threads: these three say how a row was
  obtained and may differ between runs. Rows come in the order of --rows, then --cols.

Boards run side by side: each board's search (a board and its transpose are one) is one job of
  the thread pool, and the pool's threads also share the work inside each search; the largest
  boards start first. A FILE gets each row, written whole and flushed, as soon as its board is
  done, in the order boards finish; once the table is complete, the file is rewritten in the
  table's order (atomically) if it is not in it. Standard output gets the rows in the table's
  order, each as soon as every row before it is written, so the first rows may wait for the
  largest boards. With --checkpoint the boards run one after the other, each on all threads, and
  rows are written in the table's order.

--count: every board's minimum layouts are counted too (as `queendom count` does), and two
  columns follow problem: layouts (all minimum layouts) and classes (their classes under the
  board's rotations and reflections: 8 for a square board, 4 for the others). The layout column
  still holds the first optimal layout. A board and its transpose have the same counts and are
  counted once. Count tables resume like the others (the header must have the count columns);
  kept rows on boards of at most 144 squares (all with --verify) are counted again and must agree.

Resume (csv, tsv, json files): if FILE exists, it must be a table of this format and problem
  (-i or not) whose rows are all boards of this table, each at most once, in any order (CRLF line
  ends and a UTF-8 byte order mark, as spreadsheets save files, are fine). Every kept row is
  re-checked: its layout by the independent checker, its digest against its values, and on boards
  of at most 144 squares (all boards with --verify) its number is proved again: no layout with one
  queen fewer exists. Kept rows stay as they are and only the missing boards are computed and
  appended. If the rows then are not in the table's order (e.g. the ranges grew), the finished
  file is rewritten in order, atomically. A half-written last line, as a killed run may leave (the
  start of a row of a requested board, in this format), is dropped and its board computed again;
  any other last line without a newline is refused. A line longer than any row (4096 bytes) is
  refused at once, whatever the file's size. Any other file is refused and left unchanged. Files of
  older versions (no digest column) are resumed with --verify only, then rewritten with digests.

--force, and the whole-table formats (markdown, grid, bfile, xlsx): FILE is not read; the rows go
  to .FILE.partial beside it (resumed if an interrupted run of the same table left one), and FILE
  is replaced by the new table, in one rename, only when it is complete. Without --force an
  existing FILE of a whole-table format is refused.

Interruption: Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the run within a fraction of a second,
  whatever it is doing (start layouts, search, re-proving): every finished board is on disk (in
  FILE, or in .FILE.partial as the message says; on standard output, finished rows still waiting
  for a board before them are written last, and the message says how many), the boards in
  progress are dropped, and the exit code is 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP). A second
  signal ends the process at once. Rows are written whole, so even `kill -9` leaves a file that
  the same command resumes, whatever the order its rows finished in.

Only one run at a time may write a FILE, under any of its names (a hard link too): a second one is
  refused (exit 2) naming the first (pid, host, start). Only regular files are written (devices,
  FIFOs, sockets and directories are refused, with or without --force); a symbolic link is
  followed and its target replaced, so the link stays.

Exit codes: 0 done (also when the reader of stdout goes away, as with `| head`); 1 failure
  (including a closed standard output); 2 bad command line, unusable output path, a FILE in use,
  or an existing FILE that cannot be resumed (nothing is created or changed); 130/143/129
  interrupted.";

#[derive(clap::Args, Debug)]
#[command(after_long_help = TABLE_HELP)]
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
    /// Independent domination i instead of domination γ.
    #[arg(short = 'i', long)]
    independent: bool,
    /// Output file; `-` or none means stdout. An existing csv/tsv/json table is resumed.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Output format [default: from FILE's extension, else csv].
    #[arg(short = 'f', long, value_name = "FORMAT", ignore_case = true)]
    format: Option<Format>,
    /// Replace FILE instead of resuming it; FILE changes only once the new table is complete.
    /// Also replaces an existing --trace FILE.
    #[arg(long)]
    force: bool,
    /// Re-prove every kept row when resuming, whatever its board size (and adopt files of older
    /// versions, which have no digests).
    #[arg(long)]
    verify: bool,
    /// Also count every minimum layout of each board, and their classes under its symmetries
    /// (columns layouts and classes).
    #[arg(long, conflicts_with = "checkpoint")]
    count: bool,
    /// Keep every finished part of each board's search in DIR/BOARD-PROBLEM/ (see `queendom
    /// solve --checkpoint`): an interrupted board resumes there instead of starting afresh. The
    /// boards then run one after the other, each on all threads.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    trace: TraceArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

/// Everything the run needs to know about the table itself.
struct Table {
    problem: Problem,
    kind: RowKind,
    format: Format,
    boards: Vec<Board>,
    rows: Vec<usize>,
    cols: Vec<usize>,
}

impl Table {
    fn exporter(&self, format: Format) -> Box<dyn Export> {
        format.exporter(self.kind, self.problem, &self.rows, &self.cols)
    }
}

pub fn run(args: TableArgs) -> Result<(), Failure> {
    let problem = if args.independent {
        Problem::IndependentDomination
    } else {
        Problem::Domination
    };
    // From here on a signal only raises the flag, so no moment of the run can be cut short
    // uncontrolled.
    let interrupt = Interrupt::register()?;
    let target = Target::parse(args.output.as_deref());
    let format = choose_format(args.format, &target)?;
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
    if target == Target::Stdout && args.trace.uses_stdout() {
        return Err(usage(
            "the table and --trace - cannot both go to standard output: give -o FILE",
        ));
    }
    let starts = args.start.layouts(&boards, problem)?;
    let trace = args.trace.claim(args.force)?;
    let table = Table {
        problem,
        kind: if args.count {
            RowKind::Count
        } else {
            RowKind::Optimum
        },
        format,
        boards,
        rows,
        cols,
    };
    let pool = args.threads.pool()?;
    let threads = args.threads.count();
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        trace: trace.as_ref().map(|t| t.trace()),
        start: starts,
        ..SearchOptions::for_threads(threads)
    };

    let mut plan = Plan::open(&target, &table, args.force, args.verify)?;
    if !plan.kept.is_empty() {
        let bar = progress::bar(plan.kept.len() as u64, "kept rows re-proved");
        let proved = pool.install(|| {
            reprove(&plan.kept, problem, args.verify, &options, |kept| {
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
                    plan.source()
                );
                return Err(Failure::Interrupted(interrupt.exit_code()));
            }
            Err(e) => return Err(plan.refuse(e)),
        };
        plan.say_resuming(table.boards.len(), proved);
    }
    let sink = plan.start(&table)?;

    let bar = progress::bar(table.boards.len() as u64, "boards");
    bar.set_position(plan.kept.len() as u64);
    let mut runner = TableRunner::of_kind(table.kind, problem, options, threads);
    for kept in &plan.kept {
        runner.remember(&kept.row);
    }
    let kept_boards: HashSet<Board> = plan.kept.iter().map(|r| r.board()).collect();
    let to_do: Vec<Board> = table
        .boards
        .iter()
        .copied()
        .filter(|b| !kept_boards.contains(b))
        .collect();
    let in_order = matches!(plan.dest, Dest::Stdout).then(|| to_do.clone());
    let mut rows = RowWriter {
        sink,
        export: table.exporter(plan.writes_format(&table)),
        line_ending: plan.line_ending,
        finished: Vec::new(),
        in_order: in_order.map(InOrder::new),
    };
    let run = Run {
        problem,
        pool: &pool,
        interrupt: &interrupt,
        bar: &bar,
    };
    match &args.checkpoint {
        None => run.side_by_side(&mut runner, &to_do, &mut rows)?,
        Some(dir) => run.one_after_another(&mut runner, &to_do, dir, &mut rows)?,
    }
    bar.finish_and_clear();

    // Standard output: rows held back for the table's order are finished results too.
    let held = if plan.kept.len() + rows.finished.len() < table.boards.len() {
        rows.write_held()?
    } else {
        0
    };
    let done = plan.kept.len() + rows.finished.len();
    if done < table.boards.len() {
        let total = table.boards.len();
        let held = match held {
            0 => String::new(),
            1 => "; 1 finished row was waiting for a board before it and is written last, out of \
                  the table's order"
                .into(),
            n => format!(
                "; {n} finished rows were waiting for boards before them and are written last, \
                 out of the table's order"
            ),
        };
        eprintln!(
            "queendom: interrupted after {done} of {total} boards{held}{}",
            plan.where_rows_are()
        );
        return Err(Failure::Interrupted(interrupt.exit_code()));
    }
    let RowWriter {
        mut sink,
        mut export,
        finished,
        ..
    } = rows;
    sink.write_now(&export.footer()?)?;
    drop(sink);
    plan.finish(&table, finished)?;
    match &trace {
        Some(trace) => trace.write(),
        None => Ok(()),
    }
}

/// What computing the boards needs besides the runner and where the rows go.
struct Run<'a> {
    problem: Problem,
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
        rows: &mut RowWriter,
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
                                return Err(e);
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
        rows: &mut RowWriter,
    ) -> Result<(), Failure> {
        let plain = SearchOptions {
            progress: None,
            ..runner.options().clone()
        };
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
            let problem = self.problem;
            let outcome = self.pool.install(|| {
                runner.compute_with(board, |searched| {
                    solve_checkpointed(searched, problem, dir, 64, &plain, threads, &on_part).map(
                        |(layout, nodes)| Searched {
                            layout,
                            counts: None,
                            nodes,
                        },
                    )
                })
            });
            match outcome {
                Ok(row) => rows.write(row)?,
                // The board in progress is dropped: nothing of it was written.
                Err(CheckpointError::Cancelled(..)) => break,
                Err(CheckpointError::Usage(f) | CheckpointError::Other(f)) => return Err(f),
            }
            self.bar.inc(1);
        }
        Ok(())
    }
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

/// Where finished rows go: to a file at once, whatever their order (`Plan::finish` puts them in
/// the table's order at the end); to standard output in the table's order, each as soon as every
/// row before it is written.
struct RowWriter {
    sink: Sink,
    export: Box<dyn Export>,
    line_ending: LineEnding,
    /// Every row finished in this run with its bytes, in the order finished.
    finished: Vec<(TableRow, Vec<u8>)>,
    in_order: Option<InOrder>,
}

/// The reorder buffer for standard output.
struct InOrder {
    /// The boards to write, in the table's order, and how many are written.
    boards: Vec<Board>,
    next: usize,
    /// Finished rows waiting for a board before them.
    held: HashMap<Board, TableRow>,
}

impl InOrder {
    fn new(boards: Vec<Board>) -> InOrder {
        InOrder {
            boards,
            next: 0,
            held: HashMap::new(),
        }
    }
}

impl RowWriter {
    fn write(&mut self, row: TableRow) -> Result<(), Failure> {
        let Some(order) = &mut self.in_order else {
            let bytes = self.line_ending.apply(self.export.row(&row)?);
            self.sink.write_now(&bytes)?;
            self.finished.push((row, bytes));
            return Ok(());
        };
        order.held.insert(row.board, row);
        while let Some(row) = order
            .boards
            .get(order.next)
            .and_then(|b| order.held.remove(b))
        {
            // Formatted when written: the whole-table formats keep the rows in the order given.
            let bytes = self.line_ending.apply(self.export.row(&row)?);
            self.sink.write_now(&bytes)?;
            self.finished.push((row, bytes));
            order.next += 1;
        }
        Ok(())
    }

    /// Write the rows still waiting for an unfinished board before them (an interrupted run),
    /// in the table's order; how many.
    fn write_held(&mut self) -> Result<usize, Failure> {
        let Some(order) = &mut self.in_order else {
            return Ok(0);
        };
        let mut written = 0;
        for board in &order.boards[order.next..] {
            if let Some(row) = order.held.remove(board) {
                let bytes = self.line_ending.apply(self.export.row(&row)?);
                self.sink.write_now(&bytes)?;
                self.finished.push((row, bytes));
                written += 1;
            }
        }
        Ok(written)
    }
}

/// `--format`, else the output file's extension, else csv.
pub fn choose_format(arg: Option<Format>, target: &Target) -> Result<Format, Failure> {
    let format = match (arg, target) {
        (Some(f), _) => f,
        (None, Target::Stdout) => Format::Csv,
        (None, Target::File(path)) => match path.extension() {
            None => Format::Csv,
            Some(ext) => {
                let ext = ext.to_string_lossy();
                Format::from_extension(&ext).ok_or_else(|| {
                    usage(format!(
                        "cannot tell the format of {} from its extension '.{}': use --format \
                         csv, tsv, json, markdown, grid, bfile or xlsx",
                        path.display(),
                        visible(&ext)
                    ))
                })?
            }
        },
    };
    if !format.is_text() && *target == Target::Stdout && std::io::stdout().is_terminal() {
        return Err(usage(format!(
            "{format} is a binary format: write it to a file with -o FILE.{format}"
        )));
    }
    Ok(format)
}

/// Where the rows go, and what is already there.
struct Plan {
    dest: Dest,
    /// Rows kept from an existing file or journal, in file order.
    kept: Vec<KeptRow>,
    /// The file the kept rows came from did not have the whole header yet.
    needs_header: bool,
    /// Kept rows lack digests (older version, adopted with --verify): rewrite them first.
    legacy: bool,
    /// Bytes of the kept file to keep (a half-written last line lies beyond).
    keep_len: u64,
    /// The kept file's bytes before its first row (a byte order mark, the header) as they are, for
    /// a rewrite in the table's order; `None`: a header written by this run.
    head: Option<Vec<u8>>,
    line_ending: LineEnding,
}

enum Dest {
    Stdout,
    /// A csv/tsv/json FILE, resumed and appended to in place.
    Direct(OutFile),
    /// FILE is written whole at the end; the rows go to `journal` (in `journal_format`) till then.
    Journal {
        out: OutFile,
        journal: PathBuf,
        journal_format: Format,
        /// Whether the journal exists and was resumed.
        resumed: bool,
    },
}

impl Plan {
    fn open(target: &Target, table: &Table, force: bool, verify: bool) -> Result<Plan, Failure> {
        let path = match target {
            Target::Stdout => {
                super::output::check_stdout()?;
                return Ok(Plan::fresh(Dest::Stdout));
            }
            Target::File(path) => path,
        };
        let out = OutFile::claim(path)?;
        let journal = out.sidecar("partial");
        if table.format.is_line_format() && !force {
            if journal.exists() {
                eprintln!(
                    "queendom: note: {} holds the rows of an interrupted --force run; run with \
                     --force to resume that one",
                    journal.display()
                );
            }
            if !out.exists() {
                return Ok(Plan::fresh(Dest::Direct(out)));
            }
            let (contents, whole) =
                out.read_start(MAX_LINE_BYTES, max_lines(table.boards.len()))?;
            let existing = read_existing(
                &contents,
                table.format,
                table.kind,
                table.problem,
                &table.boards,
                verify,
            )
            .map_err(|e| refusal(&out.shown().display().to_string(), e))?;
            if !whole {
                return Err(too_long(&out.shown().display().to_string(), &table.boards));
            }
            if existing.has_partial_line(contents.len() as u64) && existing.has_header {
                eprintln!(
                    "queendom: {}: dropped a half-written last line; its board is computed again",
                    out.shown().display()
                );
            }
            return Ok(Plan::resumed(Dest::Direct(out), existing, &contents));
        }

        if out.exists() && !force {
            return Err(usage(format!(
                "{} already exists, and {} tables cannot be resumed: use --force to replace it \
                 once the new table is complete",
                out.shown().display(),
                table.format
            )));
        }
        let journal_format = if table.format.is_line_format() {
            table.format
        } else {
            Format::Csv
        };
        let dest = |resumed| Dest::Journal {
            out,
            journal: journal.clone(),
            journal_format,
            resumed,
        };
        if !journal.exists() {
            return Ok(Plan::fresh(dest(false)));
        }
        let shown = journal.display().to_string();
        let (contents, whole) = read_journal(&journal, table.boards.len())?;
        let existing = read_existing(
            &contents,
            journal_format,
            table.kind,
            table.problem,
            &table.boards,
            verify,
        )
        .map_err(|e| e.to_string())
        .and_then(|existing| {
            whole
                .then_some(existing)
                .ok_or_else(|| more_lines(table.boards.len()))
        });
        match existing {
            Ok(existing) => Ok(Plan::resumed(dest(true), existing, &contents)),
            Err(e) if force => {
                eprintln!(
                    "queendom: note: starting {shown} afresh: it holds another table ({})",
                    e
                );
                Ok(Plan::fresh(dest(false)))
            }
            Err(e) => Err(usage(format!(
                "cannot resume {shown}, the unfinished rows of an earlier run: {e}; it is left \
                 unchanged (--force starts it afresh)"
            ))),
        }
    }

    fn fresh(dest: Dest) -> Plan {
        Plan {
            dest,
            kept: Vec::new(),
            needs_header: true,
            legacy: false,
            keep_len: 0,
            head: None,
            line_ending: LineEnding::Lf,
        }
    }

    fn resumed(dest: Dest, existing: ExistingTable, contents: &[u8]) -> Plan {
        // Every line after the header is a kept row: what is left of the kept bytes is the head.
        let rows_len: u64 = existing.rows.iter().map(|r| r.bytes.len() as u64).sum();
        let head = (existing.has_header && !existing.legacy)
            .then(|| existing.keep_len.checked_sub(rows_len))
            .flatten()
            .and_then(|len| contents.get(..len as usize))
            .map(<[u8]>::to_vec);
        Plan {
            dest,
            kept: existing.rows,
            needs_header: !existing.has_header,
            legacy: existing.legacy,
            keep_len: existing.keep_len,
            head,
            line_ending: existing.line_ending,
        }
    }

    /// The file the kept rows come from, for messages.
    fn source(&self) -> String {
        match &self.dest {
            Dest::Stdout => "standard output".into(),
            Dest::Direct(out) => out.shown().display().to_string(),
            Dest::Journal { journal, .. } => journal.display().to_string(),
        }
    }

    fn refuse(&self, e: ResumeError) -> Failure {
        refusal(&self.source(), e)
    }

    fn say_resuming(&self, total: usize, proved: usize) {
        let reproved = if proved == 0 {
            String::new()
        } else {
            format!(", {proved} re-proved")
        };
        eprintln!(
            "queendom: resuming {}: {} of {total} boards already done{reproved}",
            self.source(),
            self.kept.len()
        );
    }

    /// The format of the bytes written as rows finish.
    fn writes_format(&self, table: &Table) -> Format {
        match &self.dest {
            Dest::Journal { journal_format, .. } => *journal_format,
            _ => table.format,
        }
    }

    /// Open where the rows go and write what must come before them.
    fn start(&mut self, table: &Table) -> Result<Sink, Failure> {
        let format = self.writes_format(table);
        let mut export = table.exporter(format);
        let header = self.line_ending.apply(export.header()?);
        match &self.dest {
            Dest::Stdout => {
                let mut sink = Sink::stdout()?;
                sink.write_now(&header)?;
                Ok(sink)
            }
            Dest::Direct(out) => {
                if !out.exists() {
                    let mut sink = Sink::file(out.create()?);
                    sink.write_now(&header)?;
                    return Ok(sink);
                }
                if self.legacy {
                    // Adopt the file: every row again in today's columns (digest, r1c1), at once.
                    let mut bytes = header.clone();
                    for kept in &mut self.kept {
                        kept.bytes = self.line_ending.apply(export.row(&kept.row)?);
                        bytes.extend(&kept.bytes);
                    }
                    out.write_whole(&bytes)?;
                    eprintln!(
                        "queendom: {}: every row re-proved; rewritten with digests",
                        out.shown().display()
                    );
                    self.keep_len = bytes.len() as u64;
                    self.needs_header = false;
                    self.head = None;
                }
                let mut sink = Sink::file(out.append(self.keep_len)?);
                if self.needs_header {
                    sink.write_now(&header)?;
                }
                Ok(sink)
            }
            Dest::Journal {
                journal, resumed, ..
            } => {
                let cannot = |e| cannot_write(journal, e);
                let file = if *resumed {
                    let file = OpenOptions::new()
                        .append(true)
                        .open(journal)
                        .map_err(cannot)?;
                    file.set_len(self.keep_len).map_err(cannot)?;
                    file
                } else {
                    File::create(journal).map_err(cannot)?
                };
                let mut sink = Sink::file(file);
                if self.needs_header {
                    sink.write_now(&header)?;
                }
                Ok(sink)
            }
        }
    }

    /// What an interrupted run says after "interrupted after N of M boards".
    fn where_rows_are(&self) -> String {
        match &self.dest {
            Dest::Stdout => String::new(),
            Dest::Direct(_) => "; run the same command again to resume".into(),
            Dest::Journal { out, journal, .. } => format!(
                "; {} is unchanged, the finished rows are in {}: run the same command again to \
                 resume",
                out.shown().display(),
                journal.display()
            ),
        }
    }

    fn finish(self, table: &Table, written: Vec<(TableRow, Vec<u8>)>) -> Result<(), Failure> {
        match &self.dest {
            Dest::Stdout => Ok(()),
            Dest::Direct(out) => {
                let in_file: Vec<Board> = self
                    .kept
                    .iter()
                    .map(|r| r.board())
                    .chain(written.iter().map(|w| w.0.board))
                    .collect();
                if in_file == table.boards {
                    return Ok(());
                }
                // Kept rows were not the start of this table, or rows finished out of its order:
                // put every row in its place, so the file reads as an uninterrupted run would
                // have written it (a kept byte order mark and header stay as they were).
                let header = match &self.head {
                    Some(head) => head.clone(),
                    None => self
                        .line_ending
                        .apply(table.exporter(table.format).header()?),
                };
                let bytes = self.in_order(table, header, written);
                out.write_whole(&bytes)
            }
            Dest::Journal { out, journal, .. } => {
                let bytes = if table.format.is_line_format() {
                    let header = table.exporter(table.format).header()?;
                    self.in_order(table, header, written)
                } else {
                    let mut rows: HashMap<Board, TableRow> = self
                        .kept
                        .iter()
                        .map(|k| (k.board(), k.row.clone()))
                        .collect();
                    rows.extend(written.into_iter().map(|(row, _)| (row.board, row)));
                    let mut export = table.exporter(table.format);
                    let mut bytes = export.header()?;
                    for board in &table.boards {
                        bytes.extend(export.row(&rows[board])?);
                    }
                    bytes.extend(export.footer()?);
                    bytes
                };
                out.write_whole(&bytes)?;
                fs::remove_file(journal).map_err(|e| cannot_write(journal, e))?;
                Ok(())
            }
        }
    }

    /// `header` and every row's line in the table's order (rows of this run and kept ones).
    fn in_order(
        &self,
        table: &Table,
        header: Vec<u8>,
        written: Vec<(TableRow, Vec<u8>)>,
    ) -> Vec<u8> {
        let mut lines: HashMap<Board, Vec<u8>> = self
            .kept
            .iter()
            .map(|r| (r.board(), r.bytes.clone()))
            .collect();
        lines.extend(written.into_iter().map(|(row, bytes)| (row.board, bytes)));
        let mut bytes = header;
        for b in &table.boards {
            bytes.extend(&lines[b]);
        }
        bytes
    }
}

fn refusal(source: &str, e: ResumeError) -> Failure {
    let hint = match e {
        ResumeError::NoDigest { .. } => " (or --force starts it afresh)",
        ResumeError::NotMinimal { .. }
        | ResumeError::WrongCounts { .. }
        | ResumeError::Digest { .. } => {
            "; the file is left unchanged (correct or delete that line, or --force starts it afresh)"
        }
        _ => "; the file is left unchanged (--force starts it afresh)",
    };
    usage(format!("cannot resume {source}: {e}{hint}"))
}

/// A file with more lines than a table of `boards` holds, all of them rows of it: a board would be
/// repeated, so this is not reached in practice; but such a file is refused, not cut.
fn too_long(source: &str, boards: &[Board]) -> Failure {
    usage(format!(
        "cannot resume {source}: {}; the file is left unchanged (--force starts it afresh)",
        more_lines(boards.len())
    ))
}

fn more_lines(boards: usize) -> String {
    format!("it has more lines than a table of {boards} boards")
}

/// The start of a journal left by an earlier run of this table (as much as a table of `boards`
/// boards can hold), read through the same non-blocking, regular files only rule as the output
/// itself; and whether that is all of it.
fn read_journal(journal: &std::path::Path, boards: usize) -> Result<(Vec<u8>, bool), Failure> {
    let meta = fs::symlink_metadata(journal).map_err(|e| cannot_write(journal, e))?;
    if !meta.is_file() {
        return Err(usage(format!(
            "{} is not a regular file: remove it",
            journal.display()
        )));
    }
    read_start(journal, MAX_LINE_BYTES, max_lines(boards))
}

#[cfg(test)]
mod tests {
    use queendom::table::TableRunner;

    use super::*;

    /// A writer to standard output's reorder buffer over a file, for the table 2x3, 3x3, 3x4, 4x4,
    /// and the rows of those boards.
    fn writer() -> (RowWriter, tempfile::NamedTempFile, Vec<TableRow>) {
        let boards: Vec<Board> = [(2, 3), (3, 3), (3, 4), (4, 4)]
            .iter()
            .map(|&(r, c)| Board::new(r, c).unwrap())
            .collect();
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut runner = TableRunner::new(Problem::Domination, SearchOptions::sequential(), 1);
        let rows = boards.iter().map(|&b| runner.compute(b).unwrap()).collect();
        let writer = RowWriter {
            sink: Sink::file(file.reopen().unwrap()),
            export: Format::Csv.exporter(RowKind::Optimum, Problem::Domination, &[], &[]),
            line_ending: LineEnding::Lf,
            finished: Vec::new(),
            in_order: Some(InOrder::new(boards)),
        };
        (writer, file, rows)
    }

    fn boards_written(file: &tempfile::NamedTempFile) -> Vec<String> {
        fs::read_to_string(file.path())
            .unwrap()
            .lines()
            .map(|l| l.split(',').take(2).collect::<Vec<_>>().join("x"))
            .collect()
    }

    #[test]
    fn standard_output_gets_each_row_once_every_row_before_it_is_written() {
        let (mut writer, file, rows) = writer();
        writer.write(rows[2].clone()).unwrap();
        writer.write(rows[1].clone()).unwrap();
        assert!(boards_written(&file).is_empty());
        writer.write(rows[0].clone()).unwrap();
        assert_eq!(boards_written(&file), ["2x3", "3x3", "3x4"]);
        writer.write(rows[3].clone()).unwrap();
        assert_eq!(boards_written(&file), ["2x3", "3x3", "3x4", "4x4"]);
        assert_eq!(writer.write_held().unwrap(), 0);
        assert_eq!(writer.finished.len(), 4);
    }

    #[test]
    fn an_interrupted_run_writes_the_rows_held_back_in_the_tables_order() {
        let (mut writer, file, rows) = writer();
        // 2x3 never finished: 4x4 and 3x3 wait for it.
        writer.write(rows[3].clone()).unwrap();
        writer.write(rows[1].clone()).unwrap();
        assert!(boards_written(&file).is_empty());
        assert_eq!(writer.write_held().unwrap(), 2);
        assert_eq!(boards_written(&file), ["3x3", "4x4"]);
        assert_eq!(writer.finished.len(), 2);
    }
}
