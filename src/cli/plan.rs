//! `queendom plan`, `work`, `status` and `merge`: one board's proof, a count, or a whole table cut
//! into parts that run anywhere (a Slurm job array, GNU parallel, several machines sharing a
//! filesystem) and merge into exactly the answer `solve`, `count` or `table` gives.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use queendom::error::{ErrorKind, Kind};
use queendom::plan::{build, measure_cost, merge, LoadedPlan, PlanAsk, PlanGoal, COST_BUDGET};
use queendom::row::RowKind;
use queendom::search::{SearchError, SearchOptions};
use queendom::table::writer::{choose_format, whole_table, TableSpec};
use queendom::table::SizeList;

use super::destination::{OutFile, Target};
use super::signals::Interrupt;
use super::start::StartArgs;
use super::trace_file::TraceArgs;
use super::{print, usage, Failure, ProblemArgs, ThreadArgs};
use queendom::plan::run_dir::{Claim, PlanLock, RunDir, SplitRunError, WorkError, SPLIT_SHARE};
use queendom::plan::status::StatusReport;
use queendom::plan::worker::{AttemptEnd, Note, PartChoice};

/// Exit code of `work --next` when no part is left to claim.
pub const NOTHING_LEFT: i32 = 3;

const PLAN_HELP: &str = "\
Example, γ(19×19) on a machine with 2 cores:
  queendom plan 19x19 --parts 4000 -o q19
  queendom work q19 --next --until-done -j 1 &
  queendom work q19 --next --until-done -j 1; wait
  queendom merge q19
The run directory, Slurm arrays and splitting parts: docs/cluster.md; More: docs/commands.md, or `queendom manpage`.";

#[derive(clap::Args, Debug)]
#[command(after_help = PLAN_HELP)]
pub struct PlanArgs {
    /// A board as ROWSxCOLS (e.g. 19x19); or give --rows and --cols for a table.
    #[arg(value_name = "BOARD")]
    board: Option<String>,
    /// A table's row counts: a number, a range A-B, or a comma list (needs --cols).
    #[arg(long, value_name = "SIZES", allow_negative_numbers = true)]
    rows: Option<SizeList>,
    /// A table's column counts (needs --rows).
    #[arg(long, value_name = "SIZES", allow_negative_numbers = true)]
    cols: Option<SizeList>,
    #[command(flatten)]
    problem: ProblemArgs,
    /// Count every minimum layout (as `queendom count`) instead of finding one.
    #[arg(long)]
    count: bool,
    /// With --count: the minimum, if known (else it is computed first, on this machine).
    #[arg(long, value_name = "K", requires = "count", value_parser = clap::value_parser!(u16).range(1..=32))]
    queens: Option<u16>,
    /// With --count: also list every class, as `count --classes` does (merge prints them).
    #[arg(long, requires = "count")]
    classes: bool,
    /// How many parts to aim at (a plan may have a few more).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    parts: u32,
    /// The plan directory to create (new, or empty).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "RUN",
        required_unless_present = "split"
    )]
    output: Option<PathBuf>,
    /// `plan RUN --split PARTS`: cut these parts (`3,17,40-45` or `interrupted`) into pieces.
    #[arg(long, value_name = "PARTS", conflicts_with_all = ["rows", "cols", "independent", "count", "queens", "no_cost"])]
    split: Option<String>,
    /// Do not measure what the plan will cost on this machine (a few seconds of sample searches);
    /// plan.json is then the same, byte for byte, on every machine.
    #[arg(long)]
    no_cost: bool,
    /// With --split: each piece estimated at most this share of its part (0 < F <= 1).
    #[arg(long, value_name = "F", requires = "split", default_value_t = SPLIT_SHARE, value_parser = parse_share)]
    share: f64,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

impl PlanArgs {
    /// `plan RUN --split PARTS`, which changes a plan, rather than making one.
    pub fn is_split(&self) -> bool {
        self.split.is_some()
    }
}

pub fn plan(args: PlanArgs) -> Result<(), Failure> {
    if let Some(parts) = &args.split {
        let Some(dir) = &args.board else {
            return Err(usage(
                "--split needs the plan directory: queendom plan RUN --split PARTS",
            ));
        };
        if args.output.is_some() {
            return Err(usage("--split changes the plan in RUN in place: no -o"));
        }
        return split(Path::new(dir), parts, args.share, &args.threads);
    }
    let output = args
        .output
        .clone()
        .expect("clap requires -o without --split");
    let problem = args.problem.problem();
    let ask = PlanAsk {
        board: args.board.as_deref(),
        rows: args.rows.as_ref().map(SizeList::sizes),
        cols: args.cols.as_ref().map(SizeList::sizes),
        problem,
        goal: if args.count {
            PlanGoal::Count
        } else {
            PlanGoal::Minimum
        },
        count_queens: args.queens.map(usize::from),
        classes: args.classes,
        parts: args.parts as usize,
    };
    let request = ask.request()?;
    let starts = args.start.layouts(&request.boards, problem)?;
    RunDir::check_new(&output)?;
    let interrupt = Interrupt::register()?;
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        start: starts,
        ..SearchOptions::for_threads(args.threads.count())
    };
    let pool = args.threads.pool()?;
    let interrupted = || {
        eprintln!("queendom: interrupted while planning; nothing was written");
        Failure::Interrupted(interrupt.exit_code())
    };
    let mut plan = match pool.install(|| build(&request, &options)) {
        Ok(p) => p,
        Err(SearchError::Cancelled) => return Err(interrupted()),
        Err(e) => return Err(e.into()),
    };
    if !args.no_cost {
        let loaded = LoadedPlan::from_bytes(&plan.to_bytes())
            .map_err(|e| Failure::Error(anyhow::anyhow!("internal error: {e}")))?;
        // On this thread, outside the pool: the rate of one worker with -j 1.
        match measure_cost(&loaded, COST_BUDGET, &options) {
            Ok(Ok(cost)) => plan.cost = Some(cost),
            Ok(Err(why)) => eprintln!("queendom: the plan's cost was not measured: {why}"),
            Err(SearchError::Cancelled) => return Err(interrupted()),
            Err(e) => return Err(e.into()),
        }
    }
    let run = RunDir::create(&output, &plan.to_bytes())?;
    print(&run.plan.describe(&output))?;
    Ok(())
}

/// `plan RUN --split PARTS`.
fn split(dir: &Path, parts: &str, share: f64, threads: &ThreadArgs) -> Result<(), Failure> {
    let pool = threads.pool()?;
    match pool.install(|| RunDir::split(dir, parts, share)) {
        Ok(Some(text)) => print(&text),
        Ok(None) => {
            eprintln!(
                "queendom: no part of {} to split: nothing changed",
                dir.display()
            );
            Ok(())
        }
        Err(SplitRunError::Refused(e)) => Err(e.into()),
        Err(SplitRunError::Failed(e)) => Err(Failure::Error(anyhow::anyhow!(e))),
    }
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  queendom work RUN --next --until-done -j 1    claim and run parts until none is left
  queendom work RUN --part 17                   part 17
  queendom work RUN                             in a Slurm array task: rank SLURM_ARRAY_TASK_ID
Exit codes: 0 done; 1 failure; 2 bad command line or run directory; 3 (--next) no part left;
130/143/129 interrupted. More: docs/commands.md, or `queendom manpage`.")]
pub struct WorkArgs {
    /// The plan directory.
    #[arg(value_name = "RUN")]
    run: PathBuf,
    /// The part to run, 0-based.
    #[arg(long, value_name = "K", conflicts_with_all = ["next", "rank"])]
    part: Option<usize>,
    /// The part to run by its place in --next's order, 0-based: rank 0 is the part with the
    /// largest estimate. A job array over the ranks 0..N-1 runs every part, the longest first.
    #[arg(long, value_name = "R", conflicts_with = "next")]
    rank: Option<usize>,
    /// Claim and run the part with the largest estimate that has no result and no worker.
    #[arg(long)]
    next: bool,
    /// With --next: claim and run parts in this one process until none is left. The plan and the
    /// other workers' results are read once, not once per part.
    #[arg(long, requires = "next")]
    until_done: bool,
    /// Write one CSV row per search task of the part to FILE (`-`: stdout), as `solve --trace`
    /// does; `{part}` in FILE becomes the part's number (one file per task of a Slurm array; with
    /// --until-done FILE must hold `{part}`).
    #[arg(long, value_name = "FILE")]
    trace: Option<String>,
    /// Replace an existing trace file.
    #[arg(long, requires = "trace")]
    force: bool,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn work(args: WorkArgs) -> Result<(), Failure> {
    // Held for the worker's life: `plan --split` waits for no worker, and no worker reads a plan
    // that a split is replacing.
    let _plan_lock = if args.run.join(queendom::plan::run_dir::PLAN_FILE).is_file() {
        Some(PlanLock::share(&args.run).map_err(|e| {
            Failure::Error(anyhow::anyhow!(
                "cannot lock the plan of {}: {e}",
                args.run.display()
            ))
        })?)
    } else {
        None
    };
    let run = RunDir::open(&args.run)?;
    if args.until_done && args.trace.as_deref().is_some_and(|t| !t.contains("{part}")) {
        return Err(usage(
            "with --until-done, --trace FILE needs {part} in its name: one trace per part",
        ));
    }
    let interrupt = Interrupt::register()?;
    let worker = Worker {
        run: &run,
        args: &args,
        pool: &args.threads.pool()?,
        options: &SearchOptions {
            cancel: Some(interrupt.flag()),
            ..SearchOptions::for_threads(args.threads.count())
        },
        interrupt: &interrupt,
    };
    let mut say = |note: Note| eprintln!("queendom: {note}");
    if args.next {
        let found = run.run_next(args.until_done, &mut say, |k, claim, say| {
            worker.attempt(k, claim, say)
        })?;
        return if found {
            Ok(())
        } else {
            Err(Failure::Interrupted(NOTHING_LEFT))
        };
    }
    let choice = match (args.part, args.rank) {
        (Some(k), _) => PartChoice::Part(k),
        (None, Some(r)) => PartChoice::Rank(r),
        (None, None) => PartChoice::SlurmTask,
    };
    let k = run.chosen_part(choice)?;
    match run.claim_named(k, &mut say)? {
        Some(claim) => worker.attempt(k, claim, &mut say),
        None => Ok(()),
    }
}

/// What a worker on a run directory needs to search a part.
struct Worker<'a> {
    run: &'a RunDir,
    args: &'a WorkArgs,
    pool: &'a rayon::ThreadPool,
    options: &'a SearchOptions,
    interrupt: &'a Interrupt,
}

impl Worker<'_> {
    /// Run part `k`, which this process has claimed, as a recorded attempt.
    fn attempt(&self, k: usize, claim: Claim, say: &mut dyn FnMut(Note)) -> Result<(), Failure> {
        self.run.attempt(
            k,
            claim,
            say,
            || self.search(k),
            |failure| match failure {
                Failure::Interrupted(code) => AttemptEnd::Interrupted { code: *code },
                Failure::Usage(e) | Failure::Error(e) => AttemptEnd::Failed {
                    code: failure.exit_code(),
                    why: format!("{e:#}"),
                },
            },
        )
    }

    /// Search part `k`, which the caller holds and has recorded as started; store and report it.
    fn search(&self, k: usize) -> Result<(), Failure> {
        let (run, args, pool, interrupt) = (self.run, self.args, self.pool, self.interrupt);
        let trace = TraceArgs::for_part(args.trace.as_deref(), k).claim(args.force)?;
        let options = SearchOptions {
            trace: trace.as_ref().map(|t| t.trace()),
            ..self.options.clone()
        };
        let threads = args.threads.count();
        let report = match pool.install(|| run.work(k, &options, threads)) {
            Ok(r) => r,
            Err(WorkError::Search(SearchError::Cancelled)) => {
                eprintln!(
                    "queendom: interrupted in part {k}; nothing of it was kept, run it again"
                );
                return Err(Failure::Interrupted(interrupt.exit_code()));
            }
            Err(WorkError::Search(e)) => return Err(e.into()),
            Err(WorkError::Io(e)) => {
                return Err(Failure::Error(anyhow::anyhow!(
                    "cannot store the result of part {k} in {}: {e}",
                    args.run.display()
                )))
            }
        };
        eprintln!(
            "queendom: part {k} done: {} ({} nodes, {:.3} s)",
            report.found_text(),
            report.nodes,
            report.seconds
        );
        // The part's result is stored first: a trace that cannot be written loses no work.
        if let Some(trace) = &trace {
            trace.write()?;
        }
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The plan directory.
    #[arg(value_name = "RUN")]
    run: PathBuf,
    /// One JSON object: parts, done, running, left, refused, nodes, cpu_seconds, ….
    #[arg(long)]
    json: bool,
}

pub fn status(args: StatusArgs) -> Result<(), Failure> {
    let run = RunDir::open(&args.run)?;
    let report = StatusReport::of(&run);
    if args.json {
        return print(&format!("{}\n", report.to_json()));
    }
    print(&report.text(&args.run, SystemTime::now()))
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Example:
  queendom merge q19 -o q19.txt
Exit codes: 0 merged; 1 parts missing; 2 a result file foreign, corrupt or failing the check, or
a bad command line. More: docs/commands.md, or `queendom manpage`.")]
pub struct MergeArgs {
    /// The plan directory.
    #[arg(value_name = "RUN")]
    run: PathBuf,
    /// Output file; `-` or none means stdout. Written whole, only if the merge succeeds.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Table plans: the output format [default: from FILE's extension, else csv].
    #[arg(short = 'f', long, value_name = "FORMAT", ignore_case = true)]
    format: Option<super::format_arg::FormatArg>,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

pub fn merge_run(args: MergeArgs) -> Result<(), Failure> {
    let run = RunDir::open(&args.run)?;
    let target = Target::parse(args.output.as_deref());
    let problem = run.plan.problem;
    let table = match &run.plan.plan.table {
        Some(axes) => {
            let spec = TableSpec {
                format: choose_format(args.format.map(Into::into), &target)?,
                subject: problem.into(),
                boards: axes.boards(),
                rows: axes.rows.clone(),
                cols: axes.cols.clone(),
            };
            spec.format.accepts(&spec.boards).map_err(usage)?;
            Some((axes, spec))
        }
        None => {
            one_board_output(&args, &target)?;
            None
        }
    };
    if let Target::File(path) = &target {
        run.check_output(path)?;
    }
    let out = claim_output(&target, args.force)?;
    let results = run.read_results();
    if !results.refused.is_empty() {
        let list: Vec<String> = results
            .refused
            .iter()
            .map(|(p, why)| format!("{}: {why}", p.display()))
            .collect();
        return Err(usage(format!(
            "{} result file(s) refused, nothing merged: {}",
            list.len(),
            list.join("; ")
        )));
    }
    let merged = merge(&run.plan, &results.reports).map_err(|e| match e.kind() {
        // Results or a plan that do not prove what they claim: refused like a foreign file,
        // named with the run.
        ErrorKind::Refusal => {
            Failure::from(anyhow::Error::new(e).context(args.run.display().to_string()))
        }
        // Missing parts (run them), or a count that contradicts the plan's size.
        ErrorKind::Failure => e.into(),
    })?;
    if let Some((axes, spec)) = table {
        let rows = merged.table_rows(problem, axes)?;
        return emit(out, &whole_table(&spec, RowKind::Optimum, &rows)?);
    }
    emit(out, merged.boards[0].text(problem.symbol()).as_bytes())
}

/// The merged answer of a plan of one board (or a count) is text: `--format` and a workbook
/// named as the output are refused, rather than text written into a file named `.xlsx`.
fn one_board_output(args: &MergeArgs, target: &Target) -> Result<(), Failure> {
    let run = args.run.display();
    if args.format.is_some() {
        return Err(usage(format!(
            "--format is for table plans: {run} is a plan of one board, whose merged answer is \
             text (leave out --format)"
        )));
    }
    if let Target::File(path) = target {
        let xlsx = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
        if xlsx {
            return Err(usage(format!(
                "{}: {run} is a plan of one board, whose merged answer is text, not a workbook: \
                 name a .txt file",
                path.display()
            )));
        }
    }
    Ok(())
}

/// A merged answer goes to stdout, or into FILE whole (claimed, and so locked, before the merge).
fn emit(out: Option<OutFile>, bytes: &[u8]) -> Result<(), Failure> {
    match out {
        None => print(&String::from_utf8_lossy(bytes)),
        Some(file) => Ok(file.write_whole(bytes)?),
    }
}

/// Claim `-o FILE` before merging: an existing file is replaced only with `--force`.
fn claim_output(target: &Target, force: bool) -> Result<Option<OutFile>, Failure> {
    let Target::File(path) = target else {
        return Ok(None);
    };
    let out = OutFile::claim(path)?;
    if out.exists() && !force {
        return Err(usage(format!(
            "{} exists: use --force to replace it once the merge succeeds",
            path.display()
        )));
    }
    Ok(Some(out))
}

/// `--share`: a fraction in (0, 1].
fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(f),
        _ => Err(format!(
            "'{text}' is not a share: give a number above 0 and at most 1, as 0.25"
        )),
    }
}
