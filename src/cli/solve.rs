//! `queendom solve 8x8 [-i]`: the number and an optimal layout as a diagram.

use std::path::{Path, PathBuf};

use queendom::search::{solve, SearchOptions, Solution};
use queendom::{Board, Problem};

use super::boards::{BoardLoop, Searched};
use super::progress::BoardProgress;
use super::signals::Interrupt;
use super::solve_pictures::{PictureArgs, PicturePlan};
use super::start::StartArgs;
use super::trace_file::TraceArgs;
use super::{print, Failure, ProblemArgs, ThreadArgs};
use queendom::plan::checkpoint::{checkpoint_dir, solve_checkpointed, CheckpointError};

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Boards as ROWSxCOLS (e.g. 8x8, 3x5); a single number N means NxN.
    #[arg(value_name = "BOARD", required = true)]
    boards: Vec<Board>,
    #[command(flatten)]
    problem: ProblemArgs,
    /// Keep every finished part of the search in DIR/BOARD-PROBLEM/ (a plan directory, see
    /// `queendom plan`): an interrupted run resumes there, losing at most the part in progress.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: how many parts to cut a board into (see `queendom plan --parts`).
    #[arg(long, value_name = "N", default_value_t = 64, requires = "checkpoint", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    parts: u32,
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    pictures: PictureArgs,
    #[command(flatten)]
    trace: TraceArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: SolveArgs) -> Result<(), Failure> {
    // From here on a signal only raises the flag: the locks taken below are released in order.
    let interrupt = Interrupt::register()?;
    let boards: Vec<Board> = args.boards.clone();
    let pictures = PicturePlan::new(&args.pictures, &boards)?;
    if pictures.uses_stdout() && args.trace.uses_stdout() {
        return Err(super::usage(
            "--svg - and --trace - cannot both go to standard output",
        ));
    }
    let trace = args.trace.claim(args.pictures.force())?;
    // Found before any search: a closed standard output would lose every answer.
    super::destination::check_stdout()?;
    let problem = args.problem.problem();
    let starts = args.start.layouts(&boards, problem)?;
    let base = SearchOptions {
        trace: trace.as_ref().map(|t| t.trace()),
        start: starts,
        ..SearchOptions::for_threads(args.threads.count())
    };
    let board_loop = BoardLoop {
        verb: "searching",
        hint: Some("; --checkpoint DIR keeps the finished parts of a search, to resume from"),
        interrupt: &interrupt,
        threads: &args.threads,
    };
    let search = |board, options: &SearchOptions, progress: &BoardProgress| match &args.checkpoint {
        None => Searched::of(solve(board, problem, options)),
        Some(dir) => solve_in(
            dir,
            board,
            problem,
            args.parts as usize,
            options,
            args.threads.count(),
            progress,
        ),
    };
    let report = |board: Board, solution: Solution, seconds: f64| {
        let report = solution.report(board, seconds, args.threads.count());
        if pictures.uses_stdout() || args.trace.uses_stdout() {
            eprint!("{report}");
        } else {
            print(&report)?;
        }
        pictures.write(&solution.layout, &solution.title(board))
    };
    board_loop.run(boards, &base, search, report)?;
    if let Some(trace) = &trace {
        trace.write()?;
    }
    Ok(())
}

/// One board's search kept part by part in `dir` (see `solve_checkpointed`).
fn solve_in(
    dir: &Path,
    board: Board,
    problem: Problem,
    parts: usize,
    options: &SearchOptions,
    threads: usize,
    progress: &BoardProgress,
) -> Result<Searched<Solution>, Failure> {
    // The parts are the checkpoint's, not the search's.
    let options = SearchOptions {
        progress: None,
        ..options.clone()
    };
    progress.checkpointed();
    let on_part = |done, total| progress.parts(done, total);
    match solve_checkpointed(board, problem, dir, parts, &options, threads, &on_part) {
        Ok((layout, nodes)) => Ok(Searched::Done(Solution {
            problem,
            layout,
            nodes,
        })),
        Err(CheckpointError::Cancelled(parts_done, parts)) => {
            let at = checkpoint_dir(dir, board, problem);
            Ok(Searched::Interrupted(Some(format!(
                "{parts_done} of {parts} parts kept in {}); run the same command again to resume",
                at.display()
            ))))
        }
        Err(e) => Err(e.into()),
    }
}
