//! Command-line definitions and the dispatch from a parsed command line to the library.

mod audit;
mod bench;
mod count;
mod nqueens;
mod output;
mod plan;
mod plot;
mod progress;
mod run_dir;
mod signals;
mod solve;
mod solve_pictures;
mod start;
mod table;
mod trace_file;

use std::io::{self, IsTerminal, Write};

use clap::{Parser, Subcommand};

/// Exact queen numbers of N×M chessboards: domination γ, independent domination i.
#[derive(Parser, Debug)]
#[command(name = "queendom", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compute γ (or i) of one or more boards and print an optimal layout as a diagram.
    Solve(solve::SolveArgs),
    /// Count every minimum layout of one or more boards, and their classes under symmetry.
    Count(count::CountArgs),
    /// Cut one board's search (or a table, or a count) into parts for many workers or machines.
    Plan(plan::PlanArgs),
    /// Run one part of a plan (--part K, --next, or SLURM_ARRAY_TASK_ID) and store its result.
    Work(plan::WorkArgs),
    /// Show how far a plan has come: parts done, running, left; nodes and CPU time.
    Status(plan::StatusArgs),
    /// Check every part's result and print the answer (or write the table) of a plan.
    Merge(plan::MergeArgs),
    /// Search a sample of a merged run's parts again and check that each result's claim holds.
    Audit(audit::AuditArgs),
    /// Compute γ (or i) for every board in a range of sizes and write or resume the table.
    Table(table::TableArgs),
    /// Count (or list) the placements of N non-attacking queens on N×N (or N×M) boards (CSV).
    Nqueens(nqueens::NQueensArgs),
    /// Benchmark the machine: fixed searches at 1, 2, 4, … threads; speedup and efficiency.
    Bench(bench::BenchArgs),
    /// Draw a table written by `table` as a heatmap (SVG or PNG), γ and i side by side with -i.
    Plot(plot::PlotArgs),
    /// Write one self-contained HTML page: the heatmap(s) and a diagram of every board's layout.
    Report(plot::ReportArgs),
}

/// Options every computing command shares.
#[derive(clap::Args, Debug, Clone)]
pub struct ThreadArgs {
    /// Number of worker threads (default: all cores; more than the cores is lowered to the cores).
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// "1 thread", "2 threads": the thread count as the reports print it.
pub fn threads_text(threads: usize) -> String {
    if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    }
}

/// The cores this process may use (its CPU affinity and quota included).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl ThreadArgs {
    /// The worker threads to use: `-j`, but never more than the cores. More threads than cores
    /// only add work (every thread gets parts of the tree to split and share) and make the run
    /// slower, not faster: `-j 1024` on two cores turned a 0.05 s table into 11 s.
    pub fn count(&self) -> usize {
        match self.threads {
            Some(n) => (n as usize).min(cores()),
            None => cores(),
        }
    }

    /// A pool of [`count`](Self::count) threads; says once on stderr when `-j` was lowered.
    pub fn pool(&self) -> anyhow::Result<rayon::ThreadPool> {
        if let Some(asked) = self.threads {
            if asked as usize > self.count() {
                eprintln!(
                    "queendom: note: -j {asked} is more than the {} cores here; using {} threads",
                    cores(),
                    self.count()
                );
            }
        }
        Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(self.count())
            .build()?)
    }
}

/// How a command failed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad input from the user: exit 2.
    Usage(anyhow::Error),
    /// Anything else: exit 1.
    Error(anyhow::Error),
    /// Stopped by a signal, the message already printed: exit with this code (130, 143, 129).
    Interrupted(i32),
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Error(e.into())
    }
}

pub fn usage(msg: impl std::fmt::Display) -> Failure {
    Failure::Usage(anyhow::anyhow!("{msg}"))
}

/// Parse the command line, run it, and return the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    2
                } else {
                    0
                };
            }
            // One line: clap's first paragraph names the problem (sometimes over two lines); the
            // usage hint after the blank line is left out.
            let text = e.render().to_string();
            let problem: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let problem = problem.join(" ");
            let problem = problem.strip_prefix("error: ").unwrap_or(&problem);
            eprintln!("queendom: {problem}");
            return 2;
        }
    };
    let outcome = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Table(args) => table::run(args),
        Command::Count(args) => count::run(args),
        Command::Plan(args) => plan::plan(args),
        Command::Work(args) => plan::work(args),
        Command::Status(args) => plan::status(args),
        Command::Merge(args) => plan::merge_run(args),
        Command::Audit(args) => audit::run(args),
        Command::Nqueens(args) => nqueens::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Plot(args) => plot::run_plot(args),
        Command::Report(args) => plot::run_report(args),
    };
    match outcome {
        Ok(()) => 0,
        Err(Failure::Usage(e)) => {
            eprintln!("queendom: {e:#}");
            2
        }
        Err(Failure::Error(e)) => {
            if output::is_broken_pipe(&e) {
                return 0;
            }
            eprintln!("queendom: error: {e:#}");
            1
        }
        Err(Failure::Interrupted(code)) => code,
    }
}

/// Whether stderr is a terminal (progress bars are drawn only then).
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// Write to stdout; a closed pipe surfaces as an error that `run` turns into a quiet exit 0, a
/// closed standard output as a failure.
pub fn print(text: &str) -> Result<(), Failure> {
    output::check_stdout()?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
