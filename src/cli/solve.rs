//! `queendom solve 8x8 [-i]`: the number and an optimal layout as a diagram.

use std::time::Instant;

use std::path::PathBuf;

use queendom::search::{solve, SearchError, SearchOptions, Solution};
use queendom::Board;

use super::plan::{checkpoint_dir, solve_checkpointed, CheckpointError};
use super::signals::Interrupt;
use super::solve_pictures::{PictureArgs, PicturePlan};
use super::start::StartArgs;
use super::trace_file::TraceArgs;
use super::{print, progress, Failure, ProblemArgs, ThreadArgs};

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
    super::output::check_stdout()?;
    let problem = args.problem.problem();
    let starts = args.start.layouts(&boards, problem)?;
    let pool = args.threads.pool()?;
    let total = boards.len();
    for (done, board) in boards.into_iter().enumerate() {
        let start = Instant::now();
        let bar = progress::bar(0, "first-queen parts");
        bar.set_message(format!("searching {board}"));
        let options = SearchOptions {
            progress: Some(progress::part_position(&bar)),
            cancel: Some(interrupt.flag()),
            trace: trace.as_ref().map(|t| t.trace()),
            start: starts.clone(),
            ..SearchOptions::for_threads(args.threads.count())
        };
        let solution = match &args.checkpoint {
            None => {
                let solution = pool.install(|| solve(board, problem, &options));
                bar.finish_and_clear();
                match solution {
                    Err(SearchError::Cancelled) => {
                        eprintln!(
                            "queendom: interrupted while searching {board} ({done} of {total} boards done)"
                        );
                        return Err(Failure::Interrupted(interrupt.exit_code()));
                    }
                    other => other?,
                }
            }
            Some(dir) => {
                let options = SearchOptions {
                    progress: None,
                    ..options
                };
                let on_part = |done, total| {
                    bar.set_length(total as u64);
                    bar.set_position(done as u64);
                };
                let threads = args.threads.count();
                let outcome = pool.install(|| {
                    solve_checkpointed(
                        board,
                        problem,
                        dir,
                        args.parts as usize,
                        &options,
                        threads,
                        &on_part,
                    )
                });
                bar.finish_and_clear();
                match outcome {
                    Ok((layout, nodes)) => Solution {
                        problem,
                        layout,
                        nodes,
                    },
                    Err(CheckpointError::Cancelled(parts_done, parts)) => {
                        let at = checkpoint_dir(dir, board, problem);
                        eprintln!(
                            "queendom: interrupted while searching {board} ({parts_done} of {parts} parts kept in {}); run the same command again to resume",
                            at.display()
                        );
                        return Err(Failure::Interrupted(interrupt.exit_code()));
                    }
                    Err(CheckpointError::Usage(f) | CheckpointError::Other(f)) => return Err(f),
                }
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let symbol = problem.symbol();
        let report = format!(
            "{symbol}({board}) = {}\n{}layout: {}\n({} nodes, {seconds:.3} s, {})\n\n",
            solution.queens(),
            solution.layout.diagram(),
            solution.layout.to_squares_string(),
            solution.nodes,
            super::threads_text(args.threads.count()),
        );
        if pictures.uses_stdout() || args.trace.uses_stdout() {
            eprint!("{report}");
        } else {
            print(&report)?;
        }
        let title = format!(
            "{symbol}({}×{}) = {}",
            board.rows(),
            board.cols(),
            solution.queens()
        );
        pictures.write(&solution.layout, &title)?;
    }
    if let Some(trace) = &trace {
        trace.write()?;
    }
    Ok(())
}
