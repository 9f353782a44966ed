//! Command-line definitions and the dispatch from a parsed command line to the library.

mod audit;
mod bench;
mod boards;
mod count;
mod destination;
mod format_arg;
mod nqueens;
mod plan;
mod plot;
mod progress;
mod signals;
mod solve;
mod solve_pictures;
mod start;
mod table;
mod table_file;
mod trace_file;

use std::io::{self, IsTerminal, Write};

use clap::{CommandFactory, Parser, Subcommand};
use queendom::error::ErrorKind;

/// Exact queen numbers of N×M chessboards: domination γ, independent domination i, N-queens.
#[derive(Parser, Debug)]
#[command(
    name = "queendom",
    version = VERSION,
    about,
    max_term_width = 100,
    after_help = "Examples:
  queendom table --rows 1-10 --cols 1-10 -o gamma.csv   γ of 100 boards (resumable)
  queendom solve 8x8 -i                                  i(8×8) and a layout
  queendom count 8x8 --classes                           every minimum layout, up to symmetry
  queendom nqueens 1-12                                  the N-queens counts
Run `queendom help COMMAND` for each command's options and examples."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--version`: the crate's version and the git revision it was built from (see `build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("QUEENDOM_REVISION"),
    ")"
);

// The order here is the order of `queendom --help`: the everyday commands first, then the cluster
// commands, then the tools.
#[derive(Subcommand, Debug)]
enum Command {
    /// Compute γ (or i) for every board in a range of sizes and write or resume the table.
    Table(table::TableArgs),
    /// Compute γ (or i) of one or more boards and print an optimal layout as a diagram.
    Solve(solve::SolveArgs),
    /// Count every minimum layout of one or more boards, and their classes under symmetry.
    Count(count::CountArgs),
    /// Count (or list) the placements of N non-attacking queens on N×N (or N×M) boards (CSV).
    Nqueens(nqueens::NQueensArgs),
    /// Draw a table written by `table` as a heatmap (SVG or PNG), γ and i side by side with -i.
    Plot(plot::PlotArgs),
    /// Write one self-contained HTML page: the heatmap(s) and a diagram of every board's layout.
    Report(plot::ReportArgs),
    /// Cut one board's search (or a table, or a count) into parts for many workers or machines.
    Plan(plan::PlanArgs),
    /// Run one part of a plan (--part K, --rank R, --next, or the rank SLURM_ARRAY_TASK_ID) and store its result.
    Work(plan::WorkArgs),
    /// Show how far a plan has come: parts done, running, left; nodes and CPU time.
    Status(plan::StatusArgs),
    /// Check every part's result and print the answer (or write the table) of a plan.
    Merge(plan::MergeArgs),
    /// Search a sample of a merged run's parts again and check that each result's claim holds.
    Audit(audit::AuditArgs),
    /// Benchmark the machine: fixed searches at 1, 2, 4, … threads; speedup and efficiency.
    Bench(bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) on standard output.
    #[command(after_help = "Examples:
  queendom completions bash > ~/.local/share/bash-completion/completions/queendom
  queendom completions zsh > ~/.zfunc/_queendom
  queendom completions fish > ~/.config/fish/completions/queendom.fish")]
    Completions {
        /// The shell to write the script for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on standard output.
    #[command(after_help = "Example:
  queendom manpage > queendom.1 && man ./queendom.1")]
    Manpage,
}

impl Command {
    /// The command's name as `QUEENDOM_FAULT` gives it (see `queendom::fault`): its own, but
    /// `split` for `plan RUN --split`.
    fn name(&self) -> &'static str {
        match self {
            Command::Table(_) => "table",
            Command::Solve(_) => "solve",
            Command::Count(_) => "count",
            Command::Nqueens(_) => "nqueens",
            Command::Plot(_) => "plot",
            Command::Report(_) => "report",
            Command::Plan(args) if args.is_split() => "split",
            Command::Plan(_) => "plan",
            Command::Work(_) => "work",
            Command::Status(_) => "status",
            Command::Merge(_) => "merge",
            Command::Audit(_) => "audit",
            Command::Bench(_) => "bench",
            Command::Completions { .. } => "completions",
            Command::Manpage => "manpage",
        }
    }
}

/// Options every computing command shares.
#[derive(clap::Args, Debug, Clone)]
pub struct ThreadArgs {
    /// Number of worker threads (default: all cores; more than the cores is lowered to the cores).
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// Which number a computing command computes: `-i` is read here and nowhere else.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ProblemArgs {
    /// Independent domination i instead of domination γ: no two queens may attack each other.
    #[arg(short = 'i', long)]
    independent: bool,
}

impl ProblemArgs {
    pub fn problem(self) -> queendom::Problem {
        if self.independent {
            queendom::Problem::IndependentDomination
        } else {
            queendom::Problem::Domination
        }
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
    /// The command line's own refusal (options that do not go together, beyond what clap
    /// checks): exit 2.
    Usage(anyhow::Error),
    /// An error of the library or the system: its kind decides the exit code (see
    /// [`Failure::exit_code`]).
    Error(anyhow::Error),
    /// Stopped by a signal, the message already printed: exit with this code (130, 143, 129).
    Interrupted(i32),
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Error(e.into())
    }
}

impl Failure {
    /// The one place an error becomes an exit code: a usage error 2; a library error its kind's
    /// code (2 for a refusal, 1 for a failure), from the first error of its chain that has a kind
    /// (a context added here has none); an error of no kind 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) => ErrorKind::Refusal.exit_code(),
            Failure::Error(e) => e
                .chain()
                .find_map(queendom::kinds::error_kind)
                .unwrap_or(ErrorKind::Failure)
                .exit_code(),
            Failure::Interrupted(code) => *code,
        }
    }
}

pub fn usage(msg: impl std::fmt::Display) -> Failure {
    Failure::Usage(anyhow::anyhow!("{msg}"))
}

/// Parse the command line, run it, and return the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return parse_error(e),
    };
    queendom::fault::enter(cli.command.name());
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
        Command::Completions { shell } => completions(shell),
        Command::Manpage => manpage(),
    };
    let failure = match outcome {
        Ok(()) => return 0,
        Err(failure) => failure,
    };
    let code = failure.exit_code();
    match &failure {
        Failure::Error(e) if destination::is_broken_pipe(e) => return 0,
        Failure::Usage(e) | Failure::Error(e) if code == ErrorKind::Refusal.exit_code() => {
            eprintln!("queendom: {e:#}")
        }
        Failure::Usage(e) | Failure::Error(e) => eprintln!("queendom: error: {e:#}"),
        Failure::Interrupted(_) => {}
    }
    code
}

/// Report a command line clap refused (exit 2), or print the help or version it was asked for
/// (exit 0; 2 for help shown because a subcommand or argument is missing).
fn parse_error(e: clap::Error) -> i32 {
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
    // One line: clap's first paragraph names the problem (sometimes over two lines); the usage
    // hint after the blank line is left out, but its "tip:" lines ("a similar argument exists:
    // '--rows'") are kept, after a semicolon.
    let text = e.render().to_string();
    let problem: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let problem = problem.join(" ");
    let problem = problem.strip_prefix("error: ").unwrap_or(&problem);
    let tips: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("tip: "))
        .collect();
    if tips.is_empty() {
        eprintln!("queendom: {problem}");
    } else {
        eprintln!("queendom: {problem}; {}", tips.join("; "));
    }
    2
}

/// `queendom completions SHELL`: generated from the same definitions as the parser, so it cannot
/// fall behind.
fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "queendom", &mut bytes);
    print(&String::from_utf8_lossy(&bytes))
}

/// `queendom manpage`: queendom(1) in roff, with a section per subcommand.
fn manpage() -> Result<(), Failure> {
    let command = Cli::command();
    let mut bytes = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut bytes)?;
    for sub in command.get_subcommands() {
        if sub.is_hide_set() {
            continue;
        }
        let name = format!("queendom-{}", sub.get_name());
        let mut sub = sub.clone().display_name(name).version(VERSION);
        if let Some(text) = details(sub.get_name()) {
            sub = sub.after_long_help(text);
        }
        clap_mangen::Man::new(sub).render(&mut bytes)?;
    }
    print(&String::from_utf8_lossy(&bytes))
}

/// The details `queendom help COMMAND` leaves out, for the manual page: the section `## COMMAND`
/// of docs/commands.md.
fn details(command: &str) -> Option<&'static str> {
    const DETAILS: &str = include_str!("../../docs/commands.md");
    let start = DETAILS.find(&format!("\n## {command}\n"))? + command.len() + 5;
    let end = DETAILS[start..]
        .find("\n## ")
        .map_or(DETAILS.len(), |e| start + e);
    Some(DETAILS[start..end].trim())
}

/// Whether stderr is a terminal (progress bars are drawn only then).
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// Write to stdout; a closed pipe surfaces as an error that `run` turns into a quiet exit 0, a
/// closed standard output as a failure.
pub fn print(text: &str) -> Result<(), Failure> {
    destination::check_stdout()?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
