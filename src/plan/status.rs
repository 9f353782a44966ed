//! How far a plan has come (`queendom status`): parts done, running, missing and failed, the
//! search so far, and what is left by the estimates. The command line only prints it.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::run_dir::{RunDir, MAX_LOG_FILE, MERGE_LOG};
use super::{
    array_syntax, last_attempt, slurm_time, time_text, Attempt, AttemptEvent, LastAttempt,
    PlanCost, PlanGoal,
};
use crate::destination::file::read_regular;

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
    /// The plan's estimated nodes (the sum of its parts' estimates).
    pub estimated_nodes: f64,
    /// What the plan costs on the machine that made it, if that was measured.
    pub cost: Option<PlanCost>,
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
        let rank_of = run.plan.rank_of();
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
        let merge_log = read_regular(&run.path.join(MERGE_LOG), MAX_LOG_FILE).unwrap_or_default();
        let merge_log = String::from_utf8_lossy(&merge_log);
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
            estimated_nodes: done_estimate + left_estimate,
            cost: run.plan.plan.cost.clone(),
            refused: results.refused,
        }
    }

    /// The failed parts' numbers.
    pub fn failed_parts(&self) -> Vec<usize> {
        self.failed.iter().map(|f| f.part).collect()
    }
}

impl StatusReport {
    /// `status --json`: one object with every count and list.
    pub fn to_json(&self) -> serde_json::Value {
        let s = self;
        let failed_json: Vec<serde_json::Value> = s
        .failed
        .iter()
        .map(|f| {
            let a = &f.last;
            serde_json::json!({
                "part": f.part,
                "rank": s.rank_of[f.part],
                "attempts": f.attempts,
                "event": if a.event == AttemptEvent::Started { "died" } else { event_name(a.event) },
                "host": a.host,
                "time": a.time,
                "job": a.job,
                "exit": a.exit,
                "why": a.why,
            })
        })
        .collect();
        serde_json::json!({
            "missing_parts": array_syntax(&s.missing),
            "missing_ranks": array_syntax(&s.missing_ranks),
            "running_parts": array_syntax(&s.running_parts),
            "running_ranks": array_syntax(&s.running_ranks),
            "failed_parts": array_syntax(&s.failed_parts()),
            "failed_ranks": array_syntax(&s.failed_ranks),
            "failed": failed_json,
            "plan": s.plan,
            "parts": s.parts,
            "done": s.done,
            "running": s.running,
            "left": s.left,
            "refused": s.refused.len(),
            "nodes": s.nodes,
            "cpu_seconds": s.cpu_seconds,
            "seconds": s.seconds,
            "cpu_seconds_left_estimate": s.cpu_seconds_left,
            "largest_part_left": s.largest_left.map(|(k, _)| k),
            "largest_part_left_cpu_seconds_estimate": s.largest_left.map(|(_, c)| c),
            "suggested_time": s.suggested_time,
            "merge": s.last_merge,
            "estimated_nodes": s.estimated_nodes,
            "estimated_cpu_hours": s.cost.as_ref().map(|c| c.cpu_hours),
            "nodes_per_cpu_second": s.cost.as_ref().map(|c| c.nodes_per_cpu_second),
        })
    }

    /// What `status` prints, `dir` being the run directory as the user named it.
    pub fn text(&self, dir: &Path, now: SystemTime) -> String {
        let s = self;
        let (parts, done, running, left) = (s.parts, s.done, s.running, s.left);
        let (nodes, cpu, wall) = (s.nodes, s.cpu_seconds, s.seconds);
        let mut out = format!(
            "plan {}\nparts: {parts}; done {done}, running {running}, left {left}\n",
            s.plan
        );
        if s.estimated_nodes > 0.0 {
            let cost = s.cost.as_ref().map(|c| format!(", {}", c.text()));
            out.push_str(&format!(
                "estimated {:.3e} nodes{}\n",
                s.estimated_nodes,
                cost.unwrap_or_default()
            ));
        }
        out.push_str(&format!(
            "search so far: {nodes} nodes, {cpu:.1} CPU s ({wall:.1} s of part wall time)\n"
        ));
        if done == parts {
            out.push_str(&format!(
                "left: nothing: `queendom merge {}` gives the answer\n",
                dir.display()
            ));
        } else if let Some(c) = s.cpu_seconds_left {
            out.push_str(&format!(
            "left: about {c:.0} CPU s by the estimates (the estimates are rough: single parts can be far off)\n"
        ));
        }
        if let (Some((k, c)), Some(t)) = (s.largest_left, &s.suggested_time) {
            out.push_str(&format!(
            "largest part left: part {k} (rank {}), about {c:.0} CPU s; for one CPU a task, --time={t} (twice that, and a minute)\n",
            s.rank_of[k]
        ));
        }
        if !s.missing.is_empty() {
            out.push_str(&format!(
            "missing (no result, no worker): ranks {} (for `sbatch --array=`; `submit.sh {} --missing` submits them), parts {}\n",
            array_syntax(&s.missing_ranks),
            dir.display(),
            array_syntax(&s.missing)
        ));
        }
        out.push_str(&s.failed_text(now));
        if !s.running_parts.is_empty() {
            out.push_str(&format!(
                "running: ranks {}, parts {}\n",
                array_syntax(&s.running_ranks),
                array_syntax(&s.running_parts)
            ));
            for (k, a) in &s.running_attempts {
                out.push_str(&format!(
                    "  part {k} (rank {}): {}\n",
                    s.rank_of[*k],
                    a.describe(now)
                ));
            }
        }
        if let Some(line) = &s.last_merge {
            out.push_str(&format!("last merge job: {}\n", merge_line_text(line, now)));
        }
        if let Some(best) = &s.best {
            out.push_str(&format!("best so far: {}\n", best.join(", ")));
        }
        for (path, why) in &s.refused {
            out.push_str(&format!("refused: {}: {why}\n", path.display()));
        }
        out
    }

    /// The failed parts, at most 20 of them with their last attempts.
    fn failed_text(&self, now: SystemTime) -> String {
        let s = self;
        let mut out = String::new();
        if !s.failed.is_empty() {
            out.push_str(&format!(
                "failed (of the missing; started, no result): ranks {}, parts {}\n",
                array_syntax(&s.failed_ranks),
                array_syntax(&s.failed_parts())
            ));
            const SHOWN: usize = 20;
            for f in s.failed.iter().take(SHOWN) {
                let (k, n, a) = (f.part, f.attempts, &f.last);
                let how = if a.event == AttemptEvent::Started {
                    format!(
                    "{}, and ended without a word (killed by SIGKILL, out of memory, or its node failed)",
                    a.describe(now)
                )
                } else {
                    a.describe(now)
                };
                let tries = if n > 1 {
                    format!(" ({n} attempts)")
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "  part {k} (rank {}){tries}: {how}\n",
                    s.rank_of[k]
                ));
            }
            if s.failed.len() > SHOWN {
                out.push_str(&format!(
                    "  … and {} more (status --json lists them all)\n",
                    s.failed.len() - SHOWN
                ));
            }
        }
        out
    }
}

fn event_name(event: AttemptEvent) -> &'static str {
    match event {
        AttemptEvent::Started => "started",
        AttemptEvent::Finished => "finished",
        AttemptEvent::Interrupted => "interrupted",
        AttemptEvent::Failed => "failed",
    }
}

/// A line of `merge.log` (`ISO-TIME rest`) with its age.
fn merge_line_text(line: &str, now: SystemTime) -> String {
    match line.split_once(' ') {
        Some((when, rest)) => format!("{}: {rest}", time_text(when, now)),
        None => line.to_string(),
    }
}
