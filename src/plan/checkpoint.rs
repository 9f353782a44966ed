//! `solve --checkpoint DIR` and `table --checkpoint DIR`: one board's proof as a plan in its own
//! run directory, run part after part on this machine and merged, so that an interrupted run
//! loses at most the part in progress.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use super::run_dir::{PlanLock, RunDir, RunDirError, WorkError, CLAIMS, PLAN_FILE};
use super::{build, merge, PlanGoal, PlanRequest, PROBES};
use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::search::{
    prove_upward, Problem, Prover, SearchError, SearchOptions, SearchSpace, StartLayouts,
};

/// With `--checkpoint`, parts are not cut below a second or two of search: a finished part costs
/// a result file written with fsync, and an interruption loses at most one part anyway.
const CHECKPOINT_PART_NODES: f64 = 1_000_000.0;

/// The parts a checkpointed board's plan aims at (fewer where its tree is small).
pub const CHECKPOINT_PARTS: usize = 64;

/// Why a checkpointed search stopped.
#[derive(Debug, Error)]
pub enum CheckpointError {
    // (Converted from the search's own errors by `TableRunner::compute_with`.)
    /// A checkpoint directory that cannot be used.
    #[error(transparent)]
    Refused(#[from] RunDirError),
    /// Interrupted: (parts done, parts in all).
    #[error("interrupted with {0} of {1} parts done")]
    Cancelled(usize, usize),
    #[error(transparent)]
    Search(SearchError),
    /// A part's result cannot be stored or read back, or the merge refused the results.
    #[error("{0}")]
    Failed(String),
}

/// The run directory of `board` inside a checkpoint directory.
pub fn checkpoint_dir(dir: &Path, board: Board, problem: Problem) -> PathBuf {
    dir.join(format!("{board}-{}", problem.name()))
}

/// `solve --checkpoint DIR` and `table --checkpoint DIR`: plan the board (or take up its plan
/// from an earlier run), run every part that has no result on all threads in order, and merge.
/// Every finished part is on disk, so an interrupted run loses at most the part in progress;
/// parts another process is running are waited for, so two runs on one directory share it.
pub fn solve_checkpointed(
    board: Board,
    problem: Problem,
    dir: &Path,
    parts: usize,
    options: &SearchOptions,
    threads: usize,
    on_part: &dyn Fn(usize, usize),
) -> Result<(Layout, u64), CheckpointError> {
    let run = take_up_or_plan(board, problem, dir, parts, options)?;
    run_parts(&run, options, threads, on_part)
}

/// The run directory of `board`'s proof in `dir`: the plan of an earlier run taken up (after
/// checking that it is a plan of this board and problem and holds no foreign result), or a new
/// plan (from `options.start` or the local search) written there.
fn take_up_or_plan(
    board: Board,
    problem: Problem,
    dir: &Path,
    parts: usize,
    options: &SearchOptions,
) -> Result<RunDir, CheckpointError> {
    let sub = checkpoint_dir(dir, board, problem);
    let cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    };
    for (d, what) in [(dir, "checkpoint directory"), (sub.as_path(), "directory")] {
        // Another run may create it at the same moment: a directory that exists is fine.
        match std::fs::create_dir(d) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => {
                return Err(CheckpointError::Refused(RunDirError(format!(
                    "cannot create {what} {}: {e}",
                    d.display()
                ))))
            }
        }
    }
    // One process plans the board; one started beside it waits, then takes up that plan.
    let lock = loop {
        match PlanLock::try_take(&sub) {
            Ok(Some(lock)) => break lock,
            Ok(None) if cancelled() => return Err(CheckpointError::Cancelled(0, 0)),
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(100)),
            Err(e) => {
                return Err(CheckpointError::Refused(RunDirError(format!(
                    "cannot lock {} to plan {board}: {e}",
                    sub.display()
                ))))
            }
        }
    };
    let run = if sub.join(PLAN_FILE).exists() {
        let run = RunDir::open_locked(&sub, &lock)?;
        let p = &run.plan;
        if p.boards != [board]
            || p.problem != problem
            || p.plan.goal != PlanGoal::Minimum
            || p.plan.table.is_some()
        {
            return Err(CheckpointError::Refused(RunDirError(format!(
                "{} holds another plan, not {} of {board}",
                sub.display(),
                problem.symbol()
            ))));
        }
        // A result file that is not this plan's is refused now, not after every part has run.
        if let Some((path, why)) = run.read_results().refused.first() {
            return Err(CheckpointError::Refused(RunDirError(format!(
                "{}: {why}; {} is not a checkpoint of this run (move the file away, or give \
                 another --checkpoint directory)",
                path.display(),
                sub.display()
            ))));
        }
        run
    } else {
        // Without a plan the directory holds only the lock just taken: anything else is somebody
        // else's, refused before the search rather than after it.
        let foreign = std::fs::read_dir(&sub)
            .map_err(|e| RunDirError(format!("cannot read {}: {e}", sub.display())))?
            .filter_map(Result::ok)
            .find(|entry| entry.file_name() != CLAIMS);
        if let Some(entry) = foreign {
            return Err(CheckpointError::Refused(RunDirError(format!(
                "{} holds {} but no plan: it is not a checkpoint of {} of {board} (move it away, \
                 or give another --checkpoint directory)",
                sub.display(),
                entry.file_name().to_string_lossy(),
                problem.symbol()
            ))));
        }
        let request = PlanRequest {
            boards: vec![board],
            table: None,
            problem,
            goal: PlanGoal::Minimum,
            count_queens: None,
            classes: false,
            parts,
            probes: PROBES,
            min_part_nodes: CHECKPOINT_PART_NODES,
        };
        let plan = match build(&request, options) {
            Ok(p) => p,
            Err(SearchError::Cancelled) => return Err(CheckpointError::Cancelled(0, 0)),
            Err(e) => return Err(CheckpointError::Search(e)),
        };
        RunDir::create_locked(&sub, &lock, &plan.to_bytes())?
    };
    drop(lock);
    Ok(run)
}

/// Run every part of `run` that has no result, in plan order, then merge: the optimum and the
/// nodes of the whole proof.
fn run_parts(
    run: &RunDir,
    options: &SearchOptions,
    threads: usize,
    on_part: &dyn Fn(usize, usize),
) -> Result<(Layout, u64), CheckpointError> {
    let sub = &run.path;
    let cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    };
    let total = run.plan.parts();
    // In plan order: the parts done so far are the search's first ones.
    let order: Vec<usize> = (0..total).collect();
    let mut from = 0;
    loop {
        let next = run.claim_next(&order, &mut from).map_err(|e| {
            CheckpointError::Failed(format!("cannot claim a part in {}: {e}", sub.display()))
        })?;
        let Some((k, claim)) = next else {
            // Every part before `from` is done; the first one not done is another process's.
            if from == total {
                break;
            }
            // Wait for it (or take it over if that process dies).
            if cancelled() {
                return Err(CheckpointError::Cancelled(run.read_results().done(), total));
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
            continue;
        };
        match run.work(k, options, threads) {
            Ok(_) => {}
            Err(WorkError::Search(SearchError::Cancelled)) => {
                let done = run.read_results().done();
                return Err(CheckpointError::Cancelled(done, total));
            }
            Err(WorkError::Search(e)) => return Err(CheckpointError::Search(e)),
            Err(WorkError::Io(e)) => {
                return Err(CheckpointError::Failed(format!(
                    "cannot store a part's result in {}: {e}",
                    sub.display()
                )))
            }
        }
        drop(claim);
        on_part(run.read_results().done(), total);
    }
    let results = run.read_results();
    if let Some((path, why)) = results.refused.first() {
        return Err(CheckpointError::Refused(RunDirError(format!(
            "{}: {why}",
            path.display()
        ))));
    }
    let merged =
        merge(&run.plan, &results.reports).map_err(|e| CheckpointError::Failed(e.to_string()))?;
    let answer = &merged.boards[0];
    Ok((answer.layout.clone(), answer.nodes))
}

impl From<SearchError> for CheckpointError {
    fn from(e: SearchError) -> CheckpointError {
        match e {
            SearchError::Cancelled => CheckpointError::Cancelled(0, 0),
            e => CheckpointError::Search(e),
        }
    }
}

impl Kind for CheckpointError {
    fn kind(&self) -> ErrorKind {
        match self {
            CheckpointError::Refused(e) => e.kind(),
            CheckpointError::Search(e) => e.kind(),
            CheckpointError::Cancelled(..) | CheckpointError::Failed(_) => ErrorKind::Failure,
        }
    }
}

/// The prover of `table --budget TIME --checkpoint DIR` (see [`crate::search::bracket_with`]): the
/// board's proof is the plan [`solve_checkpointed`] keeps in DIR, started from the best layout
/// known, its parts run until the budget's deadline. A part finished is on disk, so the next run
/// goes on from the parts left; when the last part ends, the merge gives the optimum and the
/// bounds meet. A plan kept from an earlier run (with the budget or without) is taken up as it
/// is, even if a smaller layout has been found since: its parts found the minimum of their part
/// below its own start, which is still the minimum.
pub struct CheckpointProver<'a> {
    pub dir: &'a Path,
    pub threads: usize,
    pub on_part: &'a dyn Fn(usize, usize),
    /// What stops the making of a plan (Ctrl-C): not the deadline, which would throw a plan
    /// away unwritten on every run whose budget is shorter than the planning.
    pub interrupt: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl Prover for CheckpointProver<'_> {
    type Error = CheckpointError;

    fn prove(
        &mut self,
        space: &SearchSpace,
        lower: &mut usize,
        layout: &mut Layout,
        options: &SearchOptions,
    ) -> Result<u64, CheckpointError> {
        // Two or more queens apart, the cheaper proof of the lower bound goes first, in memory
        // (a size cut short by the deadline is searched again next time): it raises the lower
        // bound, or finds a layout, one size at a time.
        let (nodes, apart) = prove_upward(space, lower, layout, options, 1)?;
        if !apart {
            return Ok(nodes);
        }
        if *lower >= layout.len() {
            return Ok(nodes);
        }
        let (board, problem) = (space.board(), space.problem());
        let start = StartLayouts::new(problem, vec![layout.clone()])
            .map_err(|e| CheckpointError::Failed(format!("{board}: {e}")))?;
        let options = SearchOptions {
            start: Some(Arc::new(start)),
            progress: None,
            ..options.clone()
        };
        let planning = SearchOptions {
            cancel: self.interrupt.clone(),
            ..options.clone()
        };
        let run = take_up_or_plan(board, problem, self.dir, CHECKPOINT_PARTS, &planning)?;
        let solved = run_parts(&run, &options, self.threads, self.on_part);
        match solved {
            Ok((optimal, merged)) => {
                problem
                    .check(&optimal, optimal.len())
                    .map_err(|e| CheckpointError::Search(e.into()))?;
                if optimal.len() < *lower || optimal.len() > layout.len() {
                    return Err(CheckpointError::Search(SearchError::Inconsistent(format!(
                        "the checkpointed proof of {board} gives {} queens, outside the bounds \
                         {lower}..{}",
                        optimal.len(),
                        layout.len()
                    ))));
                }
                *layout = optimal;
                *lower = layout.len();
                Ok(nodes + merged)
            }
            // The deadline (or Ctrl-C, which the caller tells apart): the parts done are kept.
            Err(CheckpointError::Cancelled(..)) => Ok(nodes),
            Err(e) => Err(e),
        }
    }
}
