//! `queendom bench`: the same fixed work at 1, 2, 4, … threads and at all threads; wall seconds,
//! speedup, parallel efficiency and nodes per second, as a table and optionally CSV, with the
//! machine (cores, CPU model) so that results from different machines can be put side by side.
//! The work is sized to the highest thread count (see [`WorkSize::for_threads`]) unless pinned.

use queendom::workload::{thread_counts, Bench, WorkSize, Workload, MIN_WALL_SECONDS};

use super::destination::{OutFile, Target};
use super::signals::ExitOnSignal;
use super::trace_file::TraceArgs;
use super::{print, usage, Failure};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  queendom bench --quick
  queendom bench --work standard -o bench.csv
More: docs/commands.md, or `queendom manpage`.")]
pub struct BenchArgs {
    /// A short run (seconds): the same as --work quick.
    #[arg(long, conflicts_with = "work")]
    quick: bool,
    /// The work to run at every thread count [default: sized to the highest thread count].
    #[arg(long, value_name = "SIZE")]
    work: Option<Size>,
    /// Runs at each thread count; the median is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=100))]
    runs: u16,
    /// Highest thread count to try (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    max_threads: Option<u16>,
    /// Also write the results as CSV to FILE (`-` for stdout instead of the table).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Overwrite FILE (and the --trace FILE) if it exists.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    trace: TraceArgs,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
enum Size {
    Quick,
    Standard,
    Large,
}

impl From<Size> for WorkSize {
    fn from(s: Size) -> WorkSize {
        match s {
            Size::Quick => WorkSize::Quick,
            Size::Standard => WorkSize::Standard,
            Size::Large => WorkSize::Large,
        }
    }
}

/// The CPU model as /proc/cpuinfo names it (`model name` on x86, else `Hardware` or `CPU part`).
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    ["model name", "Hardware", "CPU part"]
        .iter()
        .find_map(|key| {
            info.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
            })
        })
        .unwrap_or_else(|| "unknown".to_string())
}

pub fn run(args: BenchArgs) -> Result<(), Failure> {
    // The runs cannot stop in the middle, and nothing is written before they end: a signal ends
    // the process at once, leaving no lock behind.
    let signals = ExitOnSignal::register()?;
    signals.status().message = "interrupted while benchmarking; nothing was written".into();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = args.max_threads.map_or(cores, |n| n as usize);
    let out = claim_output(&args, &signals)?;
    let trace = args.trace.claim(args.force)?;
    if let Some(trace) = &trace {
        signals.status().cleanup.extend(trace.lock_files());
    }
    let size = match (args.quick, args.work) {
        (true, _) => WorkSize::Quick,
        (false, Some(size)) => size.into(),
        (false, None) => WorkSize::for_threads(max),
    };
    let mut bench = Bench {
        workloads: size.workloads(),
        runs: usize::from(args.runs),
        results: Vec::new(),
    };
    let model = cpu_model();
    let csv_to_stdout = csv_to_stdout_arg(&args);
    // The text goes to stderr when stdout carries the trace.
    let say = |text: &str| -> Result<(), Failure> {
        if args.trace.uses_stdout() {
            eprint!("{text}");
            Ok(())
        } else {
            print(text)
        }
    };
    if !csv_to_stdout {
        say(&heading(&args, size, max, cores, &model, &bench.workloads))?;
    }
    for threads in thread_counts(max) {
        let line = bench.measure(threads, trace.as_ref().map(|t| t.trace()).as_ref())?;
        if !csv_to_stdout {
            say(&line)?;
        }
    }
    let bytes = bench.csv(cores, size.name(), &model)?;
    // Held to the end: a signal now must not cut a file's rename.
    let _status = signals.status();
    if csv_to_stdout {
        print(&String::from_utf8_lossy(&bytes))?;
    } else if let Some(out) = &out {
        out.write_whole(&bytes)?;
    }
    if let Some(trace) = &trace {
        trace.write()?;
    }
    Ok(())
}

/// Claim (check and lock) `-o FILE` before the runs, to write it after them: a path that cannot
/// be written is found before minutes of benchmark, and a failed run leaves no file behind.
fn claim_output(args: &BenchArgs, signals: &ExitOnSignal) -> Result<Option<OutFile>, Failure> {
    let out = match Target::parse(args.output.as_deref()) {
        Target::File(path) => {
            let out = OutFile::claim(&path)?;
            if out.exists() && !args.force {
                return Err(usage(format!(
                    "{} already exists; use --force to replace it",
                    path.display()
                )));
            }
            signals.status().cleanup.extend(out.lock_files());
            Some(out)
        }
        Target::Stdout => {
            super::destination::check_stdout()?;
            None
        }
    };
    if csv_to_stdout_arg(args) && args.trace.uses_stdout() {
        return Err(usage(
            "-o - and --trace - cannot both go to standard output",
        ));
    }
    Ok(out)
}

/// The lines above the table: the work, the machine, and the table's column names.
fn heading(
    args: &BenchArgs,
    size: WorkSize,
    max: usize,
    cores: usize,
    model: &str,
    workloads: &[Workload],
) -> String {
    format!(
        "queendom bench --work {}{}: {} runs per thread count, median wall time\n\
         machine: {cores} cores, {model}\nwork: {}\n\
         threads  seconds  speedup  efficiency    nodes/s  placements/s\n",
        size.name(),
        match (args.work, args.quick) {
            (None, false) =>
                format!(" (sized for {max} threads: at least {MIN_WALL_SECONDS} s there)"),
            _ => String::new(),
        },
        args.runs,
        workloads
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join("; "),
    )
}

fn csv_to_stdout_arg(args: &BenchArgs) -> bool {
    args.output.as_deref() == Some("-")
}
