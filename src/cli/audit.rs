//! `queendom audit RUN`: search a reproducible sample of a merged run's parts again and check
//! that each part's result claims what its subtree holds.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use queendom::plan::{
    array_syntax, audit_parts, audit_verdict, merged_run, parse_array_syntax, sample_parts,
    AuditError, AuditStop, PlanGoal,
};
use queendom::search::SearchOptions;

use super::signals::Interrupt;
use super::{print, usage, Failure, ThreadArgs};
use queendom::plan::run_dir::RunDir;

const AUDIT_HELP: &str = "\
Example, as a Slurm job array of one task per sampled part:
  sbatch --array=$(queendom audit RUN --sample 5% --seed 7 --list) \\
      --wrap 'queendom audit RUN --parts $SLURM_ARRAY_TASK_ID -j 1'
Exit codes: 0 every audited claim holds; 1 some claim fails; 2 the run does not merge, or a bad
command line; 130/143/129 interrupted. More: docs/commands.md, or `queendom manpage`.";

#[derive(clap::Args, Debug)]
#[command(after_long_help = AUDIT_HELP)]
pub struct AuditArgs {
    /// The plan directory, with every part's result.
    #[arg(value_name = "RUN")]
    run: PathBuf,
    /// The share of the parts to search again, as a percentage (`5%`) or a fraction (`0.05`);
    /// at least one part.
    #[arg(
        long,
        value_name = "SHARE",
        default_value = "5%",
        conflicts_with = "parts"
    )]
    sample: String,
    /// The seed that chooses the sample (default: from the clock; printed either way).
    #[arg(long, value_name = "S", conflicts_with = "parts")]
    seed: Option<u64>,
    /// These parts instead of a sample: numbers and ranges, such as 3,17,40-45.
    #[arg(long, value_name = "K,...")]
    parts: Option<String>,
    /// Only print the chosen parts in Slurm array syntax (for `sbatch --array=`), and exit.
    #[arg(long)]
    list: bool,
    /// Search the parts with the plain search (none of the kernel's bounds and rules), at most
    /// NODES nodes a part (default 1e9); minimum plans only.
    #[arg(long, value_name = "NODES", num_args = 0..=1, default_missing_value = "1000000000")]
    plain: Option<u64>,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: AuditArgs) -> Result<(), Failure> {
    let run = RunDir::open(&args.run)?;
    let total = run.plan.parts();
    let (chosen, how) = choose(&args, total)?;
    if args.list {
        return print(&format!("{}\n", array_syntax(&chosen)));
    }
    if args.plain.is_some() && run.plan.plan.goal != PlanGoal::Minimum {
        return Err(AuditError::PlainCount.into());
    }
    let merged = merged_run(&run, &args.run)?;
    let interrupt = Interrupt::register()?;
    let pool = args.threads.pool()?;
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        ..SearchOptions::for_threads(args.threads.count())
    };
    print(&format!(
        "audit of {}: {} of {total} parts, {how}\n",
        args.run.display(),
        chosen.len()
    ))?;
    let audited = pool.install(|| {
        audit_parts(&run.plan, &merged, &chosen, args.plain, &options, |line| {
            print(&line)
        })
    });
    let sum = match audited {
        Ok(sum) => sum,
        Err(AuditStop::Cancelled { part, done }) => {
            eprintln!(
                "queendom: audit interrupted at part {part}; {done} of {} parts audited",
                chosen.len()
            );
            return Err(Failure::Interrupted(interrupt.exit_code()));
        }
        Err(AuditStop::Search(e)) => return Err(e.into()),
        Err(AuditStop::Caller(failure)) => return Err(failure),
    };
    print(&audit_verdict(
        chosen.len(),
        &sum.failed,
        sum.nodes,
        sum.cpu,
    )?)
}

/// The parts to audit (`--parts`, or a sample) and how they were chosen, in words.
fn choose(args: &AuditArgs, total: usize) -> Result<(Vec<usize>, String), Failure> {
    Ok(match &args.parts {
        Some(list) => (
            parse_array_syntax(list, total)
                .map_err(|why| usage(format!("--parts '{list}': {why}")))?,
            "chosen".to_string(),
        ),
        None => {
            let share = parse_share(&args.sample)?;
            let seed = args.seed.unwrap_or_else(clock_seed);
            (
                sample_parts(total, share, seed),
                format!(
                    "a {} sample, seed {seed} (again: queendom audit {} --sample {} --seed {seed})",
                    args.sample,
                    args.run.display(),
                    args.sample
                ),
            )
        }
    })
}

/// `5%` or `0.05`: a share in (0, 1].
fn parse_share(text: &str) -> Result<f64, Failure> {
    let bad = || {
        usage(format!(
            "--sample '{text}': expected a percentage such as 5% or a fraction such as 0.05, above 0 and at most 100%"
        ))
    };
    let value = match text.trim().strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map_err(|_| bad())? / 100.0,
        None => text.trim().parse::<f64>().map_err(|_| bad())?,
    };
    if !(value > 0.0 && value <= 1.0) {
        return Err(bad());
    }
    Ok(value)
}

fn clock_seed() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    // Small enough to type again.
    (now.as_nanos() % 1_000_000) as u64
}
