//! Audits: a merged run's answer rests on parts that ran on machines nobody watched, and `merge`
//! can only check what their results claim. An audit searches a sample of the parts again, with
//! the merged answer as the bound, and checks that what each part's result claims holds.

use crate::random::SplitMix64;
use std::path::{Path, PathBuf};

use crate::error::{ErrorKind, Kind};
use crate::search::{Goal, Incumbent, PartResult, Rank, SearchError, SearchOptions};
use thiserror::Error;

use super::report::count_part;
use super::run_dir::{cpu_seconds, Results, RunDir};
use super::{
    array_syntax, merge, CountReport, LoadedPlan, MergeError, Merged, PartReport, PlanGoal,
};

/// What searching one part again showed.
#[derive(Debug, Clone, PartialEq)]
pub struct PartAudit {
    pub part: usize,
    pub nodes: u64,
    /// Why the part's result does not hold, if it does not.
    pub failure: Option<String>,
}

impl PartAudit {
    /// The audit's line for this part: "part 3 (rank 5, 8x8 at PATH): holds (120 nodes, 0.010
    /// CPU s)", or FAILS with the reason; `cpu` is what the search of the part cost.
    pub fn line(&self, plan: &LoadedPlan, rank: usize, cpu: f64) -> String {
        let (_, board, path) = plan.part(self.part);
        let verdict = match &self.failure {
            None => "holds".to_string(),
            Some(why) => format!("FAILS: {why}"),
        };
        format!(
            "part {} (rank {rank}, {board} at {path}): {verdict} ({} nodes, {cpu:.3} CPU s)\n",
            self.part, self.nodes
        )
    }
}

/// Why an audit cannot be made, or found claims that do not hold.
#[derive(Debug, Error)]
pub enum AuditError {
    /// A result file of the run is refused (foreign, corrupt, forged): `path: why`.
    #[error("{}: {why}", .path.display())]
    RefusedResult { path: PathBuf, why: String },
    /// The run does not merge: parts are missing (a failure: run them), or the results do not
    /// prove what they claim (refused, as by `merge`).
    #[error("{}: {error}{}", .run.display(), if matches!(.error, MergeError::Missing { .. }) { "; an audit checks a merged run" } else { "" })]
    NotMerged { run: PathBuf, error: MergeError },
    /// `audit --plain` of a count plan: the plain search checks minimum plans only.
    #[error("--plain audits the parts of a minimum plan; this plan counts layouts (audit it without --plain)")]
    PlainCount,
    /// Some parts' results claim what their subtrees do not hold.
    #[error("{} of {audited} audited parts claim what their subtree does not hold: {} (their results are wrong: delete them and run the parts again)", .failed.len(), array_syntax(.failed))]
    ClaimsFail { audited: usize, failed: Vec<usize> },
}

impl Kind for AuditError {
    fn kind(&self) -> ErrorKind {
        match self {
            AuditError::RefusedResult { .. } => ErrorKind::Refusal,
            AuditError::NotMerged { error, .. } => match error {
                MergeError::Missing { .. } => ErrorKind::Failure,
                // Every other way of not merging is a run that is not sound: refused.
                _ => ErrorKind::Refusal,
            },
            AuditError::PlainCount => ErrorKind::Refusal,
            AuditError::ClaimsFail { .. } => ErrorKind::Failure,
        }
    }
}

/// How an audit of `audited` parts ends: the summary line if every claim held, else the error
/// naming the parts whose claims failed.
pub fn audit_verdict(
    audited: usize,
    failed: &[usize],
    nodes: u64,
    cpu: f64,
) -> Result<String, AuditError> {
    if failed.is_empty() {
        Ok(format!(
            "every audited claim holds: {audited} parts, {nodes} nodes, {cpu:.3} CPU s\n"
        ))
    } else {
        Err(AuditError::ClaimsFail {
            audited,
            failed: failed.to_vec(),
        })
    }
}

/// A run ready to audit: every part's result, read, checked and merged.
pub struct MergedRun {
    pub results: Results,
    pub merged: Merged,
}

/// Read the results of `run` (the run directory `dir`) and merge them; a run whose results do
/// not all read back, or do not merge, cannot be audited.
pub fn merged_run(run: &RunDir, dir: &Path) -> Result<MergedRun, AuditError> {
    let results = run.read_results();
    if let Some((path, why)) = results.refused.first() {
        let (path, why) = (path.clone(), why.clone());
        return Err(AuditError::RefusedResult { path, why });
    }
    let merged = merge(&run.plan, &results.reports).map_err(|error| AuditError::NotMerged {
        run: dir.to_path_buf(),
        error,
    })?;
    Ok(MergedRun { results, merged })
}

/// What searching a run's parts again added up to.
#[derive(Debug, Clone, PartialEq)]
pub struct RunAudit {
    /// The parts whose result claims what their subtree does not hold.
    pub failed: Vec<usize>,
    pub nodes: u64,
    /// CPU seconds of this process spent on the searches.
    pub cpu: f64,
}

/// Why [`audit_parts`] stopped before the last part.
#[derive(Debug)]
pub enum AuditStop<E> {
    /// The search was cancelled in `part`, after `done` parts were audited.
    Cancelled {
        part: usize,
        done: usize,
    },
    Search(SearchError),
    /// The caller's `each` failed.
    Caller(E),
}

/// Search each of the parts `chosen` of the merged run `run` (of `plan`) again, one after the
/// other on the current rayon pool, and hand each part's line ([`PartAudit::line`]) to `each`
/// as it is done.
pub fn audit_parts<E>(
    plan: &LoadedPlan,
    run: &MergedRun,
    chosen: &[usize],
    plain: Option<u64>,
    options: &SearchOptions,
    mut each: impl FnMut(String) -> Result<(), E>,
) -> Result<RunAudit, AuditStop<E>> {
    let rank_of = plan.rank_of();
    let mut sum = RunAudit {
        failed: Vec::new(),
        nodes: 0,
        cpu: 0.0,
    };
    for (done, &k) in chosen.iter().enumerate() {
        let report = run.results.reports[k]
            .as_ref()
            .expect("a merged run has them all");
        let before = cpu_seconds();
        let audit = match plain {
            Some(budget) => audit_part_plainly(plan, &run.merged, k, budget, options),
            None => audit_part(plan, &run.merged, report, k, options),
        };
        let cancelled = options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        let audit = match audit {
            Ok(_) if cancelled => return Err(AuditStop::Cancelled { part: k, done }),
            Ok(a) => a,
            Err(SearchError::Cancelled) => return Err(AuditStop::Cancelled { part: k, done }),
            Err(e) => return Err(AuditStop::Search(e)),
        };
        let spent = (cpu_seconds() - before).max(0.0);
        sum.cpu += spent;
        sum.nodes = sum.nodes.saturating_add(audit.nodes);
        if audit.failure.is_some() {
            sum.failed.push(k);
        }
        each(audit.line(plan, rank_of[k], spent)).map_err(AuditStop::Caller)?;
    }
    Ok(sum)
}

/// Search part `k` again and check its result `report` against the merged answer `merged`:
/// for a minimum, that no layout of the part comes before the answer (the one claim every part
/// of a certified merge makes, whatever it found); for a count, the same layouts, classes and
/// no smaller layout. Pure: the caller measures and prints.
pub fn audit_part(
    plan: &LoadedPlan,
    merged: &Merged,
    report: &PartReport,
    k: usize,
    options: &SearchOptions,
) -> Result<PartAudit, SearchError> {
    let (b, _, path) = plan.part(k);
    plan.check_part(k)
        .map_err(|e| SearchError::Inconsistent(e.to_string()))?;
    let space = plan.space(b);
    let answer = &merged.boards[b];
    match plan.plan.goal {
        PlanGoal::Minimum => {
            let goal = Goal::Improve(Incumbent {
                queens: answer.layout.len(),
                rank: Rank::from_value(answer.rank),
                layout: None,
            });
            let outcome = space.run(path, &goal, options)?;
            let PartResult::Improve(found) = outcome.result else {
                unreachable!("an improving search gives a layout or none")
            };
            let failure = found.map(|f| {
                format!(
                    "its subtree holds a layout of {} queens at rank {} ({}), before the merged answer of {} queens: its result claims {}",
                    f.layout.len(),
                    f.rank,
                    f.layout.to_squares_string(),
                    answer.layout.len(),
                    claim_text(report)
                )
            });
            Ok(PartAudit {
                part: k,
                nodes: outcome.nodes,
                failure,
            })
        }
        PlanGoal::Count => {
            let (c, nodes) = count_part(plan, b, path, options)?;
            let claimed = report.count.as_ref().expect("count reports hold counts");
            let (classes, claimed_classes) = (sorted_classes(&c), sorted_classes(claimed));
            let failure = (c.layouts != claimed.layouts
                || c.classes != claimed.classes
                || c.smaller != claimed.smaller
                || classes != claimed_classes)
                .then(|| {
                    let smaller = |count: &CountReport| {
                        count
                            .smaller
                            .as_ref()
                            .map(|s| format!(" and the smaller layout {s}"))
                            .unwrap_or_default()
                    };
                    format!(
                        "it holds {} layouts in {} classes{}, its result claims {} in {}{}{}",
                        c.layouts,
                        c.classes,
                        smaller(&c),
                        claimed.layouts,
                        claimed.classes,
                        smaller(claimed),
                        if classes != claimed_classes {
                            ", and its list of classes differs"
                        } else {
                            ""
                        }
                    )
                });
            Ok(PartAudit {
                part: k,
                nodes,
                failure,
            })
        }
    }
}

/// Search part `k` of a minimum plan again with the plain search (`SearchSpace::run_plain`: no
/// bound and no structural rule of the kernel), at most `budget` nodes, and check that it holds
/// no layout of fewer queens than the merged answer. Weaker than [`audit_part`] on ranks (the
/// plain search compares sizes only), but it shares none of the kernel's pruning, so a wrong rule
/// cannot pass it. A part the budget does not cover is a failure: its claim is not checked. (A
/// cancelled search ends early too: the caller looks at `options.cancel`.) A count plan is
/// refused: the caller says so first, with [`AuditError::PlainCount`].
pub fn audit_part_plainly(
    plan: &LoadedPlan,
    merged: &Merged,
    k: usize,
    budget: u64,
    options: &SearchOptions,
) -> Result<PartAudit, SearchError> {
    if plan.plan.goal != PlanGoal::Minimum {
        return Err(SearchError::Inconsistent(
            AuditError::PlainCount.to_string(),
        ));
    }
    let (b, _, path) = plan.part(k);
    let answer = merged.boards[b].layout.len();
    let outcome = plan
        .space(b)
        .run_plain(path, answer.saturating_sub(1), budget, options)
        .expect("a part of a checked plan is a part of its tree");
    let failure = if let Some(queens) = outcome.smallest {
        Some(format!(
            "the plain search finds a layout of {queens} queens in its subtree, fewer than the merged answer of {answer}"
        ))
    } else if !outcome.complete {
        Some(format!(
            "the plain search did not finish it within {budget} nodes, so its claim is not checked (a larger --plain budget, or parts split smaller)"
        ))
    } else {
        None
    };
    Ok(PartAudit {
        part: k,
        nodes: outcome.nodes,
        failure,
    })
}

/// A count's classes (canonical layout, size), in a fixed order: parts list them as found.
fn sorted_classes(count: &CountReport) -> Vec<(&str, usize)> {
    let mut classes: Vec<(&str, usize)> = count
        .representatives
        .iter()
        .map(|r| (r.layout.as_str(), r.size))
        .collect();
    classes.sort();
    classes
}

/// What a minimum part's result claims, in words.
fn claim_text(report: &PartReport) -> String {
    match &report.found {
        Some(f) => format!(
            "its best is {} queens at rank {} ({})",
            f.queens, f.rank, f.layout
        ),
        None if report.bound_rank == 0 => {
            format!("no layout of fewer than {} queens", report.bound_queens)
        }
        None => format!(
            "no layout before {} queens at rank {}",
            report.bound_queens, report.bound_rank
        ),
    }
}

/// A reproducible sample of `fraction` of `parts` parts (at least one), chosen by `seed`, in
/// increasing order.
pub fn sample_parts(parts: usize, fraction: f64, seed: u64) -> Vec<usize> {
    let want = ((parts as f64 * fraction).ceil() as usize).clamp(1, parts.max(1));
    let mut order: Vec<usize> = (0..parts).collect();
    // SplitMix64: a fixed, documented generator, so that a seed names the same sample on
    // every machine and build.
    let mut rng = SplitMix64::new(seed);
    let mut next = || rng.next();
    for i in 0..want.min(parts) {
        let j = i + (next() % (parts - i) as u64) as usize;
        order.swap(i, j);
    }
    let mut chosen: Vec<usize> = order.into_iter().take(want.min(parts)).collect();
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_names_the_failed_parts() {
        assert_eq!(
            audit_verdict(3, &[], 120, 0.5).ok(),
            Some("every audited claim holds: 3 parts, 120 nodes, 0.500 CPU s\n".to_string())
        );
        let failed = audit_verdict(5, &[1, 2, 4], 0, 0.0)
            .unwrap_err()
            .to_string();
        assert!(failed
            .starts_with("3 of 5 audited parts claim what their subtree does not hold: 1-2,4"));
    }

    #[test]
    fn a_sample_is_reproducible_and_of_the_asked_size() {
        assert_eq!(sample_parts(100, 0.05, 7), sample_parts(100, 0.05, 7));
        assert_ne!(sample_parts(100, 0.05, 7), sample_parts(100, 0.05, 8));
        assert_eq!(sample_parts(100, 0.05, 7).len(), 5);
        assert_eq!(sample_parts(10, 0.01, 1).len(), 1);
        assert_eq!(sample_parts(10, 1.0, 1), (0..10).collect::<Vec<_>>());
        let s = sample_parts(1000, 0.3, 3);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(s.iter().all(|&k| k < 1000));
    }
}
