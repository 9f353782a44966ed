//! `solve --checkpoint DIR` and `table --checkpoint DIR`: one board's proof as a plan in its own
//! run directory, run part after part on this machine and merged, so that an interrupted run
//! loses at most the part in progress.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::run_dir::{PlanLock, RunDir, RunDirError, WorkError, CLAIMS, PLAN_FILE};
use super::{build, merge, PlanGoal, PlanRequest, PROBES};
use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::search::{Problem, SearchError, SearchOptions};

/// With `--checkpoint`, parts are not cut below a second or two of search: a finished part costs
/// a result file written with fsync, and an interruption loses at most one part anyway.
const CHECKPOINT_PART_NODES: f64 = 1_000_000.0;

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
