//! `queendom solve 8x8 [--independent]`: the number and an optimal layout as a diagram.

use std::sync::Arc;
use std::time::Instant;

use queendom::search::{solve, Problem, SearchError, SearchOptions};
use queendom::table::parse_board;
use queendom::Board;

use super::signals::Interrupt;
use super::solve_pictures::{PictureArgs, PicturePlan};
use super::{print, progress, usage, Failure, ThreadArgs};

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Boards as ROWSxCOLS (e.g. 8x8, 3x5); a single number N means NxN.
    #[arg(value_name = "BOARD", required = true)]
    boards: Vec<String>,
    /// Independent domination i: no two queens may attack each other.
    #[arg(short = 'i', long)]
    independent: bool,
    #[command(flatten)]
    pictures: PictureArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: SolveArgs) -> Result<(), Failure> {
    let boards: Vec<Board> = args
        .boards
        .iter()
        .map(|b| parse_board(b).map_err(usage))
        .collect::<Result<_, _>>()?;
    let pictures = PicturePlan::new(&args.pictures, &boards)?;
    let problem = if args.independent {
        Problem::IndependentDomination
    } else {
        Problem::Domination
    };
    let pool = args.threads.pool()?;
    let interrupt = Interrupt::register()?;
    let total = boards.len();
    for (done, board) in boards.into_iter().enumerate() {
        let start = Instant::now();
        let bar = progress::bar(0, "first-queen parts");
        bar.set_message(format!("searching {board}"));
        let on_part = bar.clone();
        let options = SearchOptions {
            progress: Some(Arc::new(move |done, total| {
                on_part.set_length(total as u64);
                on_part.set_position(done as u64);
            })),
            cancel: Some(interrupt.flag()),
            ..SearchOptions::parallel()
        };
        let solution = pool.install(|| solve(board, problem, &options));
        bar.finish_and_clear();
        let solution = match solution {
            Err(SearchError::Cancelled) => {
                eprintln!(
                    "queendom: interrupted while searching {board} ({done} of {total} boards done)"
                );
                return Err(Failure::Interrupted(interrupt.exit_code()));
            }
            other => other?,
        };
        let seconds = start.elapsed().as_secs_f64();
        let symbol = if args.independent { "i" } else { "γ" };
        let report = format!(
            "{symbol}({board}) = {}\n{}layout: {}\n({} nodes, {seconds:.3} s, {} threads)\n\n",
            solution.queens(),
            solution.layout.diagram(),
            solution.layout.to_squares_string(),
            solution.nodes,
            args.threads.count(),
        );
        if pictures.uses_stdout() {
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
    Ok(())
}
