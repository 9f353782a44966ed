//! `queendom table --rows A-B --cols C-D [-o FILE]`: one row per board, written as each finishes.

use std::fs::OpenOptions;

use anyhow::Context;
use queendom::export::{CsvExport, Export};
use queendom::search::{Problem, SearchOptions};
use queendom::table::{boards, SizeList, TableRunner};

use super::output::{Sink, Target};
use super::{progress, Failure, ThreadArgs};

#[derive(clap::Args, Debug)]
pub struct TableArgs {
    /// Row counts: a number, a range A-B, or a comma list such as 4,6,9-11.
    #[arg(long, value_name = "SIZES", allow_hyphen_values = true)]
    rows: SizeList,
    /// Column counts, in the same form as --rows.
    #[arg(long, value_name = "SIZES", allow_hyphen_values = true)]
    cols: SizeList,
    /// Independent domination i instead of domination γ.
    #[arg(short = 'i', long)]
    independent: bool,
    /// Output file; `-` or none means stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Overwrite FILE if it exists.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: TableArgs) -> Result<(), Failure> {
    let problem = if args.independent {
        Problem::IndependentDomination
    } else {
        Problem::Domination
    };
    let boards = boards(&args.rows, &args.cols);
    let target = Target::parse(args.output.as_deref());
    let mut sink = match &target {
        Target::Stdout => Sink::stdout(),
        Target::File(path) => {
            if path.exists() && !args.force {
                return Err(super::usage(format!(
                    "{} already exists; use --force to overwrite it",
                    path.display()
                )));
            }
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .map_err(|e| super::usage(format!("cannot write {}: {e}", path.display())))?;
            Sink::file(file)
        }
    };
    let mut export = CsvExport;
    sink.write_now(&export.header()?)?;
    let pool = args.threads.pool()?;
    let mut runner = TableRunner::new(problem, SearchOptions::parallel(), args.threads.count());
    let bar = progress::bar(boards.len() as u64, "boards");
    for board in boards {
        bar.set_message(format!("searching {board}"));
        let row = pool
            .install(|| runner.compute(board))
            .with_context(|| format!("board {board}"))?;
        sink.write_now(&export.row(&row)?)?;
        bar.inc(1);
    }
    sink.write_now(&export.footer()?)?;
    bar.finish_and_clear();
    Ok(())
}
