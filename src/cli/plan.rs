//! `queendom plan`, `work`, `status` and `merge`: one board's proof, a count, or a whole table cut
//! into parts that run anywhere (a Slurm job array, GNU parallel, several machines sharing a
//! filesystem) and merge into exactly the answer `solve`, `count` or `table` gives.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use queendom::export::Format;
use queendom::plan::{
    array_syntax, build, last_attempt, merge, split_parts, time_text, AttemptEvent, BoardAnswer,
    LastAttempt, LoadedPlan, MergeError, Merged, PlanGoal, PlanRequest, TableAxes, MIN_PART_NODES,
    PROBES,
};
use queendom::row::{RowKind, TableRow};
use queendom::search::{Problem, SearchError, SearchOptions};
use queendom::table::{boards, SizeList};
use queendom::Board;

use super::output::{OutFile, Target};
use super::signals::Interrupt;
use super::start::StartArgs;
use super::trace_file::TraceArgs;
use super::{print, usage, Failure, ProblemArgs, ThreadArgs};
use queendom::plan::run_dir::{Claim, PlanLock, RunDir, WorkError};
use queendom::plan::status::StatusReport;

/// Exit code of `work --next` when no part is left to claim.
pub const NOTHING_LEFT: i32 = 3;

const PLAN_HELP: &str = "\
A plan directory holds plan.json (boards, problem, start layouts, the parts in search order with
their estimated cost; its SHA-256 is the plan's id), results/ (one file per finished part, each
written whole) and claims/ (a lock per part while a worker runs it). Run the parts with
`queendom work RUN --next --until-done` on any number of machines sharing the directory (one per
core, with -j 1: each claims the next free part until none is left, in one process), or as Slurm
array tasks with `queendom work RUN --part K` (K = 0 .. parts-1; without --part, K comes from
SLURM_ARRAY_TASK_ID; see scripts/slurm/submit.sh); watch with `queendom status RUN`; then
`queendom merge RUN`.

Example, γ(19×19) on a machine with 2 cores:
  queendom plan 19x19 --parts 4000 -o q19
  queendom work q19 --next --until-done -j 1 &
  queendom work q19 --next --until-done -j 1; wait
  queendom merge q19";

#[derive(clap::Args, Debug)]
#[command(after_long_help = PLAN_HELP)]
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
    /// With --count: the minimum, if known (else it is computed first, on this machine). The
    /// merge checks it: no part may find fewer queens, and some part must find this many.
    #[arg(long, value_name = "K", requires = "count", value_parser = clap::value_parser!(u16).range(1..=32))]
    queens: Option<u16>,
    /// How many parts to aim at. The largest part is cut into all its children at once, so a plan
    /// can have more parts than this; boards estimated small stay one part.
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
    /// `queendom plan RUN --split PARTS`: replace each of these parts of the plan in RUN (a list
    /// as `3,17,40-45`, or `interrupted`: every part whose last attempt was interrupted, as by a
    /// time limit) by its pieces in the search tree, each estimated at most half of it. Parts
    /// with a result cannot be split; no worker may be running. The results kept get the new
    /// plan's id and their parts' new numbers; the old plan, results and attempts are kept in
    /// RUN/split-ID/.
    #[arg(long, value_name = "PARTS", conflicts_with_all = ["rows", "cols", "independent", "count", "queens"])]
    split: Option<String>,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    threads: ThreadArgs,
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
        return split(Path::new(dir), parts, &args.threads);
    }
    let output = args
        .output
        .clone()
        .expect("clap requires -o without --split");
    let problem = args.problem.problem();
    let (board_list, table) = match (&args.board, &args.rows, &args.cols) {
        (Some(b), None, None) => (vec![b.parse::<Board>().map_err(usage)?], None),
        (None, Some(r), Some(c)) => (
            boards(r, c),
            Some(TableAxes {
                rows: r.sizes().to_vec(),
                cols: c.sizes().to_vec(),
            }),
        ),
        (Some(_), _, _) => return Err(usage("give either a board or --rows and --cols, not both")),
        (None, Some(_), None) => return Err(usage("--rows needs --cols")),
        (None, None, Some(_)) => return Err(usage("--cols needs --rows")),
        (None, None, None) => return Err(usage("give a board (e.g. 19x19), or --rows and --cols")),
    };
    if args.count && table.is_some() {
        return Err(usage(
            "count plans take one board; use `queendom table --count` for tables",
        ));
    }
    let starts = args.start.layouts(&board_list, problem)?;
    refuse_existing(&output)?;
    let interrupt = Interrupt::register()?;
    let request = PlanRequest {
        boards: board_list,
        table,
        problem,
        goal: if args.count {
            PlanGoal::Count
        } else {
            PlanGoal::Minimum
        },
        count_queens: args.queens.map(usize::from),
        parts: args.parts as usize,
        probes: PROBES,
        min_part_nodes: MIN_PART_NODES,
    };
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        start: starts,
        ..SearchOptions::for_threads(args.threads.count())
    };
    let pool = args.threads.pool()?;
    let plan = match pool.install(|| build(&request, &options)) {
        Ok(p) => p,
        Err(SearchError::Cancelled) => {
            eprintln!("queendom: interrupted while planning; nothing was written");
            return Err(Failure::Interrupted(interrupt.exit_code()));
        }
        Err(e) => return Err(e.into()),
    };
    let run = RunDir::create(&output, &plan.to_bytes())?;
    print(&describe(&run.plan, &output))?;
    Ok(())
}

/// `plan RUN --split PARTS`.
fn split(dir: &Path, parts: &str, threads: &ThreadArgs) -> Result<(), Failure> {
    // Opened first for a usage error on a directory that holds no plan.
    RunDir::open(dir)?;
    let Some(lock) = PlanLock::try_take(dir)
        .map_err(|e| Failure::Error(anyhow::anyhow!("cannot lock {}: {e}", dir.display())))?
    else {
        return Err(Failure::Error(anyhow::anyhow!(
            "workers are running on {} (`queendom status` lists them): split once none is",
            dir.display()
        )));
    };
    // Read again under the lock: the plan may have changed while we waited.
    let run = RunDir::open(dir)?;
    let results = run.read_results();
    if let Some((path, why)) = results.refused.first() {
        return Err(usage(format!("{}: {why}; nothing split", path.display())));
    }
    let n = run.plan.parts();
    let chosen: Vec<usize> = if parts == "interrupted" {
        (0..n)
            .filter(|&k| {
                results.reports[k].is_none()
                    && matches!(last_attempt(&run.attempts(k)),
                        LastAttempt::Ended(a) if a.event == AttemptEvent::Interrupted)
            })
            .collect()
    } else {
        parse_parts(parts).ok_or_else(|| {
            usage(format!(
                "--split takes parts as 3,17,40-45 or `interrupted`, not '{parts}'"
            ))
        })?
    };
    if chosen.is_empty() {
        eprintln!(
            "queendom: no part of {} to split: nothing changed",
            dir.display()
        );
        return Ok(());
    }
    for &k in &chosen {
        if k < n && results.reports[k].is_some() {
            return Err(usage(format!(
                "part {k} has a result: only parts without one are split; nothing split"
            )));
        }
    }
    let pool = threads.pool()?;
    let split = pool
        .install(|| split_parts(&run.plan, &chosen, SPLIT_SHARE, PROBES))
        .map_err(|e| usage(format!("{}: {e}; nothing split", dir.display())))?;
    let history = run.replace_plan(&lock, &split).map_err(|e| {
        Failure::Error(anyhow::anyhow!(
            "cannot write the split plan into {}: {e}",
            dir.display()
        ))
    })?;
    drop(lock);
    let new = RunDir::open(dir)?;
    let mut rank_of = vec![0; new.plan.parts()];
    for (r, k) in new.plan.claim_order().into_iter().enumerate() {
        rank_of[k] = r;
    }
    let mut out = format!("plan {}: {}\n", new.plan.id, parts_text(new.plan.parts()));
    for &k in &chosen {
        let pieces = &split.moved[k];
        let mut ranks: Vec<usize> = pieces.iter().map(|&j| rank_of[j]).collect();
        ranks.sort_unstable();
        out.push_str(&format!(
            "part {k} (estimate {:.3e}) is now {}: parts {}, ranks {}\n",
            run.plan.plan.parts[k].estimate,
            parts_text(pieces.len()),
            array_syntax(pieces),
            array_syntax(&ranks)
        ));
    }
    out.push_str(&format!(
        "the old plan, results and attempts are in {}; missing ranks: {}\n",
        history.display(),
        array_syntax(
            &new.plan.ranks_of(
                &(0..new.plan.parts())
                    .filter(|&j| !new.is_done(j))
                    .collect::<Vec<_>>()
            )
        )
    ));
    print(&out)
}

/// A part that hit a time limit comes back in pieces of at most this share of its estimate: one
/// that took twice the limit then fits, if the estimates hold.
const SPLIT_SHARE: f64 = 0.5;

/// `3,17,40-45` as part numbers, sorted, each once.
fn parse_parts(text: &str) -> Option<Vec<usize>> {
    let mut parts = Vec::new();
    for item in text.split(',') {
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if a > b {
                    return None;
                }
                parts.extend(a..=b);
            }
            None => parts.push(item.trim().parse().ok()?),
        }
    }
    parts.sort_unstable();
    parts.dedup();
    Some(parts)
}

/// A plan is never written over anything: an existing non-empty directory is refused before any
/// work is done.
fn refuse_existing(path: &Path) -> Result<(), Failure> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_dir() {
            return Err(usage(format!(
                "{} exists and is not a directory",
                path.display()
            )));
        }
        let empty = std::fs::read_dir(path)
            .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?
            .next()
            .is_none();
        if !empty {
            return Err(usage(format!(
                "{} is not empty: a plan goes into a new or empty directory",
                path.display()
            )));
        }
        return Ok(());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(usage(format!(
            "cannot create {}: directory {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

fn describe(plan: &LoadedPlan, dir: &Path) -> String {
    let total: f64 = plan.plan.parts.iter().map(|p| p.estimate).sum();
    let largest = plan
        .plan
        .parts
        .iter()
        .map(|p| p.estimate)
        .fold(0.0, f64::max);
    let what = match (&plan.plan.table, plan.boards.as_slice()) {
        (None, [b]) => format!("{} of {b}", plan.problem.symbol()),
        _ => format!("{} of {} boards", plan.problem.symbol(), plan.boards.len()),
    };
    let goal = match plan.plan.goal {
        PlanGoal::Minimum => "",
        PlanGoal::Count => ", counting every minimum layout",
    };
    let n = plan.parts();
    let mut out = format!("plan {}: {what}{goal}, {}\n", plan.id, parts_text(n));
    if plan.boards.len() == 1 {
        out.push_str(&format!(
            "start layout: {} queens ({})\n",
            plan.starts[0].len(),
            plan.starts[0].to_squares_string()
        ));
    }
    if n > 0 && total > 0.0 {
        out.push_str(&format!(
            "estimated {total:.3e} nodes; the largest part {:.1}% of them\n",
            100.0 * largest / total
        ));
    }
    out.push_str(&format!(
        "run: queendom work {} --next --until-done   (one worker; start as many as you like)\n     \
         or --part K / --rank R (0..{}; a Slurm array task: R = SLURM_ARRAY_TASK_ID)\n",
        dir.display(),
        n.saturating_sub(1)
    ));
    out
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Without --part, --rank or --next, the rank comes from SLURM_ARRAY_TASK_ID (a Slurm job array: task R
runs the part --rank R names, so the array starts with the largest parts). A part that already has a
result is not run again (exit 0), nor is a part another worker holds (exit 0, with a note: a second
submission can run beside the first). Every attempt is recorded in RUN/attempts/ (started, finished,
interrupted, failed; host, UTC time, exit), which `queendom status` shows. Exit codes: 0 the part is
done (--until-done: no part is left to claim); 1 failure (the result cannot be stored: checked before
the search); 2 bad command line or run directory; 3 (--next) no part left to claim; 130/143/129
interrupted by SIGINT/SIGTERM/SIGHUP (nothing of the part in progress is kept).")]
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
    let pool = args.threads.pool()?;
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        ..SearchOptions::for_threads(args.threads.count())
    };
    let parts = run.plan.parts();
    if !args.next {
        let rank = |r: usize| {
            let order = run.plan.claim_order();
            order.get(r).copied().ok_or_else(|| {
                usage(format!(
                    "rank {r} does not exist: the plan in {} has ranks 0..{}",
                    args.run.display(),
                    parts.saturating_sub(1)
                ))
            })
        };
        let k = match (args.part, args.rank) {
            (Some(k), _) => k,
            (None, Some(r)) => rank(r)?,
            (None, None) => rank(slurm_task()?)?,
        };
        if k >= parts {
            return Err(usage(format!(
                "part {k} does not exist: the plan in {} has parts 0..{}",
                args.run.display(),
                parts.saturating_sub(1)
            )));
        }
        match run.read_result(k) {
            Ok(Some(_)) => {
                eprintln!("queendom: part {k} is already done");
                return Ok(());
            }
            Ok(None) => {}
            Err(why) => eprintln!("queendom: part {k}: replacing its result file ({why})"),
        }
        let claim = match run.claim(k)? {
            Ok(claim) => claim,
            Err(holder) => {
                // A second submission beside the first: the part is in hand, not failed.
                eprintln!(
                    "queendom: part {k} is being run by another worker ({}); skipped, not run twice",
                    holder_text(&holder)
                );
                return Ok(());
            }
        };
        return run_claimed(&run, &args, k, claim, &pool, &options, &interrupt);
    }
    let order = run.plan.claim_order();
    let mut from = 0;
    let mut ran = 0;
    loop {
        match run.claim_next(&order, &mut from)? {
            Some((k, claim)) => {
                run_claimed(&run, &args, k, claim, &pool, &options, &interrupt)?;
                ran += 1;
                if !args.until_done {
                    return Ok(());
                }
            }
            None => {
                let done = run.read_results().done();
                let others = if done == parts {
                    String::new()
                } else {
                    format!(", the other {} being run", parts - done)
                };
                let where_ = args.run.display();
                if args.until_done {
                    eprintln!(
                        "queendom: ran {}; no part left to claim in {where_} ({done} of {parts} done{others})",
                        parts_text(ran)
                    );
                    return Ok(());
                }
                eprintln!(
                    "queendom: no part left to claim in {where_} ({done} of {parts} done{others})"
                );
                return Err(Failure::Interrupted(NOTHING_LEFT));
            }
        }
    }
}

/// Run part `k`, which this process has claimed, store its result and report it.
fn run_claimed(
    run: &RunDir,
    args: &WorkArgs,
    k: usize,
    claim: Claim,
    pool: &rayon::ThreadPool,
    options: &SearchOptions,
    interrupt: &Interrupt,
) -> Result<(), Failure> {
    run.plan
        .check_part(k)
        .map_err(|e| usage(format!("{}: {e}", args.run.display())))?;
    // Before the search, not after it: a result that cannot be stored is a search wasted.
    if let Err(e) = run.check_writable() {
        let why = format!(
            "cannot store results in {}: {e}; part {k} was not searched",
            args.run.join("results").display()
        );
        let _ = run.record_attempt(k, AttemptEvent::Failed, Some(1), Some(why.clone()));
        return Err(Failure::Error(anyhow::anyhow!(why)));
    }
    if let Err(e) = run.record_attempt(k, AttemptEvent::Started, None, None) {
        eprintln!("queendom: part {k}: cannot record the attempt ({e}); searching anyway");
    }
    let outcome = search_claimed(run, args, k, pool, options, interrupt);
    let (event, exit, why) = match &outcome {
        Ok(()) => (AttemptEvent::Finished, 0, None),
        Err(Failure::Interrupted(code)) => (
            AttemptEvent::Interrupted,
            *code,
            Some(signal_name(*code).to_string()),
        ),
        Err(Failure::Usage(e)) => (AttemptEvent::Failed, 2, Some(format!("{e:#}"))),
        Err(Failure::Error(e)) => (AttemptEvent::Failed, 1, Some(format!("{e:#}"))),
    };
    if let Err(e) = run.record_attempt(k, event, Some(exit), why) {
        eprintln!("queendom: part {k}: cannot record how the attempt ended ({e})");
    }
    drop(claim);
    outcome
}

/// Search part `k`, which the caller holds and has recorded as started; store and report it.
fn search_claimed(
    run: &RunDir,
    args: &WorkArgs,
    k: usize,
    pool: &rayon::ThreadPool,
    options: &SearchOptions,
    interrupt: &Interrupt,
) -> Result<(), Failure> {
    let trace = TraceArgs::for_part(args.trace.as_deref(), k).claim(args.force)?;
    let options = SearchOptions {
        trace: trace.as_ref().map(|t| t.trace()),
        ..options.clone()
    };
    let threads = args.threads.count();
    let report = match pool.install(|| run.work(k, &options, threads)) {
        Ok(r) => r,
        Err(WorkError::Search(SearchError::Cancelled)) => {
            eprintln!("queendom: interrupted in part {k}; nothing of it was kept, run it again");
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
    let found = match (&report.found, &report.count) {
        (Some(f), _) => format!("found a layout of {} queens", f.queens),
        (None, Some(c)) => format!("{} layouts, {} classes", c.layouts, c.classes),
        (None, None) => format!("nothing below {} queens", report.bound_queens),
    };
    eprintln!(
        "queendom: part {k} done: {found} ({} nodes, {:.3} s)",
        report.nodes, report.seconds
    );
    // The part's result is stored first: a trace that cannot be written loses no work.
    if let Some(trace) = &trace {
        trace.write()?;
    }
    Ok(())
}

/// The signal a work exit code stands for.
fn signal_name(code: i32) -> &'static str {
    match code {
        129 => "SIGHUP",
        130 => "SIGINT",
        143 => "SIGTERM (Slurm sends it at the time limit and on scancel)",
        _ => "a signal",
    }
}

/// A claim's note with its time made readable: `host H pid P since ISO (age)`.
fn holder_text(note: &str) -> String {
    match note.split_once(" since ") {
        Some((who, when)) => format!("{who} since {}", time_text(when.trim(), SystemTime::now())),
        None => note.to_string(),
    }
}

/// "1 part", "2 parts".
fn parts_text(n: usize) -> String {
    if n == 1 {
        "1 part".to_string()
    } else {
        format!("{n} parts")
    }
}

fn slurm_task() -> Result<usize, Failure> {
    let text = std::env::var("SLURM_ARRAY_TASK_ID").map_err(|_| {
        usage("which part? give --part K, --rank R or --next (or run as a Slurm array task: SLURM_ARRAY_TASK_ID is the rank)")
    })?;
    text.trim().parse().map_err(|_| {
        usage(format!(
            "SLURM_ARRAY_TASK_ID is '{text}', not a rank (a part's place, 0-based)"
        ))
    })
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
        return print(&format!("{}\n", status_json(&report)));
    }
    print(&status_text(&report, &args.run, SystemTime::now()))
}

fn status_json(s: &StatusReport) -> serde_json::Value {
    let failed_json: Vec<serde_json::Value> = s
        .failed
        .iter()
        .map(|f| {
            let a = &f.last;
            serde_json::json!({
                "part": f.part,
                "rank": s.rank_of[f.part],
                "attempts": f.attempts,
                "event": if a.event == AttemptEvent::Started { "died" } else { event_name(a.event) },
                "host": a.host,
                "time": a.time,
                "job": a.job,
                "exit": a.exit,
                "why": a.why,
            })
        })
        .collect();
    serde_json::json!({
        "missing_parts": array_syntax(&s.missing),
        "missing_ranks": array_syntax(&s.missing_ranks),
        "running_parts": array_syntax(&s.running_parts),
        "running_ranks": array_syntax(&s.running_ranks),
        "failed_parts": array_syntax(&s.failed_parts()),
        "failed_ranks": array_syntax(&s.failed_ranks),
        "failed": failed_json,
        "plan": s.plan,
        "parts": s.parts,
        "done": s.done,
        "running": s.running,
        "left": s.left,
        "refused": s.refused.len(),
        "nodes": s.nodes,
        "cpu_seconds": s.cpu_seconds,
        "seconds": s.seconds,
        "cpu_seconds_left_estimate": s.cpu_seconds_left,
        "largest_part_left": s.largest_left.map(|(k, _)| k),
        "largest_part_left_cpu_seconds_estimate": s.largest_left.map(|(_, c)| c),
        "suggested_time": s.suggested_time,
        "merge": s.last_merge,
    })
}

fn status_text(s: &StatusReport, dir: &Path, now: SystemTime) -> String {
    let (parts, done, running, left) = (s.parts, s.done, s.running, s.left);
    let (nodes, cpu, wall) = (s.nodes, s.cpu_seconds, s.seconds);
    let mut out = format!(
        "plan {}\nparts: {parts}; done {done}, running {running}, left {left}\n",
        s.plan
    );
    out.push_str(&format!(
        "search so far: {nodes} nodes, {cpu:.1} CPU s ({wall:.1} s of part wall time)\n"
    ));
    if done == parts {
        out.push_str(&format!(
            "left: nothing: `queendom merge {}` gives the answer\n",
            dir.display()
        ));
    } else if let Some(c) = s.cpu_seconds_left {
        out.push_str(&format!(
            "left: about {c:.0} CPU s by the estimates (the estimates are rough: single parts can be far off)\n"
        ));
    }
    if let (Some((k, c)), Some(t)) = (s.largest_left, &s.suggested_time) {
        out.push_str(&format!(
            "largest part left: part {k} (rank {}), about {c:.0} CPU s; for one CPU a task, --time={t} (twice that, and a minute)\n",
            s.rank_of[k]
        ));
    }
    if !s.missing.is_empty() {
        out.push_str(&format!(
            "missing (no result, no worker): ranks {} (for `sbatch --array=`; `submit.sh {} --missing` submits them), parts {}\n",
            array_syntax(&s.missing_ranks),
            dir.display(),
            array_syntax(&s.missing)
        ));
    }
    if !s.failed.is_empty() {
        out.push_str(&format!(
            "failed (of the missing; started, no result): ranks {}, parts {}\n",
            array_syntax(&s.failed_ranks),
            array_syntax(&s.failed_parts())
        ));
        const SHOWN: usize = 20;
        for f in s.failed.iter().take(SHOWN) {
            let (k, n, a) = (f.part, f.attempts, &f.last);
            let how = if a.event == AttemptEvent::Started {
                format!(
                    "{}, and ended without a word (killed by SIGKILL, out of memory, or its node failed)",
                    a.describe(now)
                )
            } else {
                a.describe(now)
            };
            let tries = if n > 1 {
                format!(" ({n} attempts)")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  part {k} (rank {}){tries}: {how}\n",
                s.rank_of[k]
            ));
        }
        if s.failed.len() > SHOWN {
            out.push_str(&format!(
                "  … and {} more (status --json lists them all)\n",
                s.failed.len() - SHOWN
            ));
        }
    }
    if !s.running_parts.is_empty() {
        out.push_str(&format!(
            "running: ranks {}, parts {}\n",
            array_syntax(&s.running_ranks),
            array_syntax(&s.running_parts)
        ));
        for (k, a) in &s.running_attempts {
            out.push_str(&format!(
                "  part {k} (rank {}): {}\n",
                s.rank_of[*k],
                a.describe(now)
            ));
        }
    }
    if let Some(line) = &s.last_merge {
        out.push_str(&format!("last merge job: {}\n", merge_line_text(line, now)));
    }
    if let Some(best) = &s.best {
        out.push_str(&format!("best so far: {}\n", best.join(", ")));
    }
    for (path, why) in &s.refused {
        out.push_str(&format!("refused: {}: {why}\n", path.display()));
    }
    out
}

fn event_name(event: AttemptEvent) -> &'static str {
    match event {
        AttemptEvent::Started => "started",
        AttemptEvent::Finished => "finished",
        AttemptEvent::Interrupted => "interrupted",
        AttemptEvent::Failed => "failed",
    }
}

/// A line of `merge.log` (`ISO-TIME rest`) with its age.
fn merge_line_text(line: &str, now: SystemTime) -> String {
    match line.split_once(' ') {
        Some((when, rest)) => format!("{}: {rest}", time_text(when, now)),
        None => line.to_string(),
    }
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
A one-board plan prints its answer as `solve` (or `count`) does; a table plan writes the table as
`table` does (csv to stdout, or -o FILE, any --format). Exit codes: 0 merged; 1 parts missing
(run them and merge again); 2 a result file is foreign (another plan), corrupt, or fails the
independent check, or a bad command line. Nothing is written unless the merge succeeds.")]
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
    let format = match &run.plan.plan.table {
        Some(axes) => {
            let format =
                queendom::table::output::choose_format(args.format.map(Into::into), &target)?;
            let all = boards(
                &SizeList::from_sizes(&axes.rows),
                &SizeList::from_sizes(&axes.cols),
            );
            format.accepts(&all).map_err(usage)?;
            Some(format)
        }
        None => None,
    };
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
    let merged = merge(&run.plan, &results.reports).map_err(|e| match e {
        // Results or a plan that do not prove what they claim: refused like a foreign file.
        MergeError::Plan(_)
        | MergeError::Unproven { .. }
        | MergeError::Uncovered { .. }
        | MergeError::Overlap { .. }
        | MergeError::BadCount { .. } => usage(format!("{}: {e}", args.run.display())),
        // Missing parts (run them), or a count that contradicts the plan's size.
        _ => Failure::Error(anyhow::anyhow!("{e}")),
    })?;
    if let (Some(axes), Some(format)) = (&run.plan.plan.table, format) {
        let bytes = table_bytes(format, run.plan.problem, axes, &merged)?;
        return emit(out, &bytes);
    }
    let text = answer_text(&merged.boards[0], run.plan.problem.symbol());
    emit(out, text.as_bytes())
}

/// One board's merged answer as `solve` (or `count`) prints it, with the parts it took.
fn answer_text(answer: &BoardAnswer, symbol: &str) -> String {
    match answer.count {
        None => format!(
            "{symbol}({}) = {}\n{}layout: {}\n({} nodes in {}, {:.3} s, {:.3} CPU s, {})\n\n",
            answer.board,
            answer.layout.len(),
            answer.layout.diagram(),
            answer.layout.to_squares_string(),
            answer.nodes,
            parts_text(answer.parts),
            answer.seconds,
            answer.cpu_seconds,
            super::threads_text(answer.threads)
        ),
        Some((queens, layouts, classes)) => format!(
            "{symbol}({}) = {queens}\nlayouts: {layouts}\nclasses: {classes} (under {})\n({} nodes in {}, {:.3} s, {:.3} CPU s, {})\n\n",
            answer.board,
            group(answer.board),
            answer.nodes,
            parts_text(answer.parts),
            answer.seconds,
            answer.cpu_seconds,
            super::threads_text(answer.threads)
        ),
    }
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

/// A table plan's merged answer as `table` writes it: rows in the table's order, a board taken
/// from its transpose's search with nodes and seconds 0, as `table` does.
fn table_bytes(
    format: Format,
    problem: Problem,
    axes: &TableAxes,
    merged: &Merged,
) -> Result<Vec<u8>, Failure> {
    let rows = SizeList::from_sizes(&axes.rows);
    let cols = SizeList::from_sizes(&axes.cols);
    let mut export = format.exporter(RowKind::Optimum, problem, &axes.rows, &axes.cols);
    let mut out = export.header()?;
    let mut seen: Vec<Board> = Vec::new();
    for board in boards(&rows, &cols) {
        let flip = board.rows() > board.cols();
        let searched = if flip { board.transposed() } else { board };
        let answer = merged
            .boards
            .iter()
            .find(|a| a.board == searched)
            .ok_or_else(|| anyhow::anyhow!("the plan has no board {searched}"))?;
        let first = !seen.contains(&searched);
        seen.push(searched);
        let layout = if flip {
            answer.layout.transposed()
        } else {
            answer.layout.clone()
        };
        problem.check(&layout, layout.len())?;
        let row = TableRow {
            board,
            problem,
            layout,
            counts: None,
            nodes: if first { answer.nodes } else { 0 },
            seconds: if first { answer.seconds } else { 0.0 },
            threads: answer.threads,
        };
        out.extend(export.row(&row)?);
    }
    out.extend(export.footer()?);
    Ok(out)
}

pub fn group(board: Board) -> &'static str {
    if board.is_square() {
        "the 8 rotations and reflections of the square"
    } else {
        "the 4 symmetries of the rectangle"
    }
}
