//! How far a plan has come (`queendom status`): parts done, running, missing and failed, the
//! search so far, and what is left by the estimates. The command line only prints it.

use std::path::PathBuf;

use super::run_dir::{RunDir, MERGE_LOG};
use super::{last_attempt, slurm_time, Attempt, AttemptEvent, LastAttempt, PlanGoal};

/// A missing part that a worker started and did not finish.
#[derive(Debug, Clone)]
pub struct FailedPart {
    pub part: usize,
    /// How many times a worker started it.
    pub attempts: usize,
    /// How its last attempt ended (`Started`: without a word).
    pub last: Attempt,
}

/// The state of a run directory, as read at one moment.
#[derive(Debug, Clone)]
pub struct StatusReport {
    /// The plan's id.
    pub plan: String,
    pub parts: usize,
    pub done: usize,
    pub running: usize,
    pub left: usize,
    /// Result files refused, with why.
    pub refused: Vec<(PathBuf, String)>,
    /// Nodes, CPU seconds and wall seconds of the parts done.
    pub nodes: u64,
    pub cpu_seconds: f64,
    pub seconds: f64,
    /// The CPU seconds left, at the CPU cost per estimated node of the parts done so far.
    pub cpu_seconds_left: Option<f64>,
    /// The part left with the largest estimate and its CPU seconds at that cost.
    pub largest_left: Option<(usize, f64)>,
    /// A Slurm `--time` for one CPU a task: twice the largest part left, and a minute.
    pub suggested_time: Option<String>,
    /// Parts with no result and no worker, and their ranks.
    pub missing: Vec<usize>,
    pub missing_ranks: Vec<usize>,
    /// Parts a worker holds, and their ranks.
    pub running_parts: Vec<usize>,
    pub running_ranks: Vec<usize>,
    /// The last attempt of the first ten running parts.
    pub running_attempts: Vec<(usize, Attempt)>,
    /// Of the missing parts, those a worker started and did not finish.
    pub failed: Vec<FailedPart>,
    pub failed_ranks: Vec<usize>,
    /// Each part's rank in the claim order (`--rank`, a Slurm array index).
    pub rank_of: Vec<usize>,
    /// The last line of the merge jobs' log, if any.
    pub last_merge: Option<String>,
    /// The best layout's size per board (`BOARD: QUEENS`), for a minimum of at most 8 boards.
    pub best: Option<Vec<String>>,
}

impl StatusReport {
    pub fn of(run: &RunDir) -> StatusReport {
        let results = run.read_results();
        let parts = run.plan.parts();
        let done = results.done();
        let claimed: Vec<bool> = (0..parts)
            .map(|k| results.reports[k].is_none() && run.is_claimed(k))
            .collect();
        let running = claimed.iter().filter(|&&c| c).count();
        let reports = results.checked();
        let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
        let cpu: f64 = reports.iter().fold(0.0, |t, r| t + r.cpu_seconds);
        let wall: f64 = reports.iter().fold(0.0, |t, r| t + r.seconds);
        let estimate = |k: usize| run.plan.plan.parts[k].estimate;
        let sum = |done: bool| {
            (0..parts)
                .filter(|&k| results.reports[k].is_some() == done)
                .fold(0.0, |t, k| t + estimate(k))
        };
        let (done_estimate, left_estimate) = (sum(true), sum(false));
        let per_node = (done_estimate > 0.0 && done > 0).then(|| cpu / done_estimate);
        let best: Vec<String> = run
            .plan
            .boards
            .iter()
            .enumerate()
            .map(|(b, board)| {
                let inc = run.plan.incumbent(b, &reports);
                format!("{board}: {}", inc.queens)
            })
            .collect();
        let mut rank_of = vec![0; parts];
        for (r, k) in run.plan.claim_order().into_iter().enumerate() {
            rank_of[k] = r;
        }
        let missing: Vec<usize> = (0..parts)
            .filter(|&k| results.reports[k].is_none() && !claimed[k])
            .collect();
        let running_parts: Vec<usize> = (0..parts).filter(|&k| claimed[k]).collect();
        let failed: Vec<FailedPart> = missing
            .iter()
            .filter_map(|&k| {
                let attempts = run.attempts(k);
                match last_attempt(&attempts) {
                    LastAttempt::Never => None,
                    LastAttempt::Ended(a) if a.event == AttemptEvent::Finished => None,
                    LastAttempt::Ended(a) | LastAttempt::Silent(a) => Some(FailedPart {
                        part: k,
                        attempts: attempts
                            .iter()
                            .filter(|a| a.event == AttemptEvent::Started)
                            .count(),
                        last: a,
                    }),
                }
            })
            .collect();
        let failed_parts: Vec<usize> = failed.iter().map(|f| f.part).collect();
        // The longest part left decides the `--time` of a resubmission (one CPU a task).
        let largest_left = per_node.zip(
            (0..parts)
                .filter(|&k| results.reports[k].is_none())
                .max_by(|&a, &b| estimate(a).total_cmp(&estimate(b))),
        );
        let largest_left = largest_left.map(|(c, k)| (k, c * estimate(k)));
        let merge_log = std::fs::read_to_string(run.path.join(MERGE_LOG)).unwrap_or_default();
        StatusReport {
            plan: run.plan.id.clone(),
            parts,
            done,
            running,
            left: parts - done - running,
            nodes,
            cpu_seconds: cpu,
            seconds: wall,
            cpu_seconds_left: per_node.map(|c| c * left_estimate),
            suggested_time: largest_left.map(|(_, s)| slurm_time(2.0 * s + 60.0)),
            largest_left,
            missing_ranks: run.plan.ranks_of(&missing),
            missing,
            running_ranks: run.plan.ranks_of(&running_parts),
            running_attempts: running_parts
                .iter()
                .take(10)
                .filter_map(|&k| run.attempts(k).last().map(|a| (k, a.clone())))
                .collect(),
            running_parts,
            failed_ranks: run.plan.ranks_of(&failed_parts),
            failed,
            rank_of,
            last_merge: merge_log
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(str::to_string),
            best: (run.plan.plan.goal == PlanGoal::Minimum && best.len() <= 8).then_some(best),
            refused: results.refused,
        }
    }

    /// The failed parts' numbers.
    pub fn failed_parts(&self) -> Vec<usize> {
        self.failed.iter().map(|f| f.part).collect()
    }
}
