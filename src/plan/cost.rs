//! What a plan will cost on the machine that made it: the plan's estimated nodes at the node rate
//! of this machine's search, measured on a few sample subtrees of the plan's own parts.
//!
//! The figure is two estimates multiplied: Knuth's estimate of the nodes (which `status` and the
//! balance of the parts already rest on) and a rate sampled in seconds. The rate is measured with
//! the kernel, bound and goal that `work` uses, on one thread and in CPU time, so that it holds
//! for a worker with `-j 1` on a machine like this one, loaded or not.
//!
//! The samples are drawn in proportion to the estimates: the part holding each of the points 1/2,
//! 1/4, 3/4, 1/8, … of the plan's cumulative estimate (in plan order), then down its tree, a child
//! chosen with probability proportional to its estimate, to a subtree small enough to finish in a
//! fraction of a second. Such a walk lands in a subtree about as a node drawn uniformly from the plan's
//! nodes would, which is the weighting that total nodes over total CPU time needs. Each subtree is
//! searched whole (a search cut short reports no nodes), so a sample that overruns its time is
//! dropped and the next ones are sought smaller.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::destination::lock::host_name;
use crate::random::XorShift;
use crate::search::{Deadline, Goal, Incumbent, PartPath, SearchError, SearchOptions};
use crate::trace::thread_cpu_seconds;

use super::build::seed;
use super::{LoadedPlan, PlanGoal, PROBES};

/// Sampling stops once the samples have taken this much CPU time together...
pub const COST_CPU_SECONDS: f64 = 2.0;

/// ...or this many samples (a plan of small parts is sampled part by part, and one sample of a
/// few milliseconds says little)...
const MAX_SAMPLES: usize = 32;

/// ...or when this much wall time has passed since the measuring began (the estimates of the
/// subtrees included), whichever comes first; or once the samples have searched as many nodes as
/// the whole plan is estimated at, for a plan cheaper than its measurement.
pub const COST_BUDGET: Duration = Duration::from_secs(5);

/// A sample is sized to take about this share of [`COST_CPU_SECONDS`]...
const SAMPLE_SHARE: f64 = 0.25;

/// ...at this share of the rate measured so far: Knuth's estimate of one subtree can be several
/// times off.
const SAMPLE_MARGIN: f64 = 0.5;

/// The first subtree is sought at most this large (estimated nodes): a few tenths of a second at
/// the slowest rates measured (0.25 M nodes per CPU second on γ(Q_26)'s parts). The next ones are
/// sized by the rate measured so far.
const FIRST_SAMPLE_NODES: f64 = 100_000.0;

/// A sample that ran past twice its share is dropped, and the next ones are sought this much
/// smaller.
const OVERRUN_SHRINK: f64 = 10.0;

/// What the plan will cost, as measured when it was made (`cost` in `plan.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanCost {
    /// Nodes per CPU second of the samples together (their nodes over their CPU seconds).
    pub nodes_per_cpu_second: f64,
    /// The plan's estimated nodes (the sum of its parts' estimates) at that rate, in CPU hours.
    pub cpu_hours: f64,
    /// The machine the rate was measured on.
    pub host: String,
    pub samples: Vec<CostSample>,
}

/// One sample: a subtree of one of the plan's parts, searched whole on one thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostSample {
    /// Index into [`super::Plan::boards`].
    pub board: usize,
    /// The subtree's path: the part's own, or below it.
    pub path: String,
    pub nodes: u64,
    pub cpu_seconds: f64,
}

/// Why no rate was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoCost {
    /// The plan has no part estimated above zero nodes: nothing to measure, nothing to pay.
    NothingToSearch,
    /// The samples finished without searching a node (the start layout is at the lower bound,
    /// which settles every part at once): the plan costs next to nothing, at no rate.
    NoNodes,
    /// No sample finished within the time.
    NoSampleFinished(Duration),
}

impl std::fmt::Display for NoCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoCost::NothingToSearch => f.write_str("its parts are estimated at no node"),
            NoCost::NoNodes => f.write_str(
                "its sample subtrees needed no search (the start layout meets the lower bound)",
            ),
            NoCost::NoSampleFinished(t) => {
                write!(f, "no sample subtree finished within {} s", t.as_secs_f64())
            }
        }
    }
}

impl PlanCost {
    /// The rate and samples, with the CPU hours of `estimated_nodes` at that rate.
    fn new(samples: Vec<CostSample>, estimated_nodes: f64) -> Option<PlanCost> {
        let nodes: u64 = samples.iter().map(|s| s.nodes).sum();
        let cpu: f64 = samples.iter().map(|s| s.cpu_seconds).sum();
        if nodes == 0 || cpu <= 0.0 {
            return None;
        }
        let rate = nodes as f64 / cpu;
        Some(PlanCost {
            nodes_per_cpu_second: round_to(rate, 1.0),
            cpu_hours: estimated_nodes / rate / 3600.0,
            host: host_name(),
            samples,
        })
    }

    /// The same rate and samples for a plan of `estimated_nodes` (after a split re-estimated
    /// some of its parts).
    pub fn for_nodes(&self, estimated_nodes: f64) -> PlanCost {
        PlanCost {
            cpu_hours: estimated_nodes / self.nodes_per_cpu_second / 3600.0,
            ..self.clone()
        }
    }

    /// The CPU seconds the samples took together.
    pub fn sample_cpu_seconds(&self) -> f64 {
        self.samples.iter().map(|s| s.cpu_seconds).sum()
    }

    /// Whether the figures are numbers a reader can print: a positive rate, finite hours, and
    /// samples that searched something. What is wrong, if anything.
    pub fn check(&self, boards: usize) -> Result<(), String> {
        if !(self.nodes_per_cpu_second.is_finite() && self.nodes_per_cpu_second > 0.0) {
            return Err("its cost has no positive rate".into());
        }
        if !(self.cpu_hours.is_finite() && self.cpu_hours >= 0.0) {
            return Err("its cost's CPU hours are not a duration".into());
        }
        if self.samples.is_empty() {
            return Err("its cost names no sample".into());
        }
        for s in &self.samples {
            if s.board >= boards {
                return Err(format!("its cost samples board {} of {boards}", s.board));
            }
            s.path
                .parse::<PartPath>()
                .map_err(|e| format!("its cost samples {}: {e}", s.path))?;
            if !(s.cpu_seconds.is_finite() && s.cpu_seconds >= 0.0) {
                return Err("its cost's sample times are not durations".into());
            }
        }
        Ok(())
    }

    /// "about 42 CPU hours: the estimated nodes at 0.32 M nodes per CPU second, the rate measured
    /// on 4 sample subtrees of its parts (1.93 CPU s on HOST)": what `plan` and `status` print
    /// after "estimated cost: ".
    pub fn text(&self) -> String {
        let n = self.samples.len();
        format!(
            "about {}: the estimated nodes at {} M nodes per CPU second, the rate measured on {n} \
             sample subtree{} of its parts ({:.2} CPU s on {})",
            cpu_time_text(self.cpu_hours * 3600.0),
            significant(self.nodes_per_cpu_second / 1e6),
            if n == 1 { "" } else { "s" },
            self.sample_cpu_seconds(),
            self.host
        )
    }
}

/// CPU time in the unit that reads best: "42 CPU hours", "3.5 CPU minutes", "0.8 CPU seconds".
pub fn cpu_time_text(seconds: f64) -> String {
    if seconds >= 3600.0 {
        format!("{} CPU hours", significant(seconds / 3600.0))
    } else if seconds >= 60.0 {
        format!("{} CPU minutes", significant(seconds / 60.0))
    } else {
        format!("{} CPU seconds", significant(seconds))
    }
}

/// Two significant figures, at least: 42, 4.2, 0.42, 0.0042; 1234 as 1234.
fn significant(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else if x > 0.0 {
        let decimals = (1.0 - x.log10().floor()) as usize;
        format!("{x:.decimals$}")
    } else {
        "0".to_string()
    }
}

fn round_to(x: f64, unit: f64) -> f64 {
    (x / unit).round() * unit
}

/// Measure what `plan` will cost on this machine: subtrees of its parts, each searched whole on
/// the calling thread as `work` searches a part (the start layout as the bound, or the count),
/// until the samples took [`COST_CPU_SECONDS`] or `MAX_SAMPLES` were taken, within `budget` of
/// wall time in all. `options.cancel` (Ctrl-C) stops it with `Cancelled`; the time running out
/// does not.
pub fn measure_cost(
    plan: &LoadedPlan,
    budget: Duration,
    options: &SearchOptions,
) -> Result<Result<PlanCost, NoCost>, SearchError> {
    let estimates: Vec<f64> = plan.plan.parts.iter().map(|p| p.estimate).collect();
    let total: f64 = estimates.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Ok(Err(NoCost::NothingToSearch));
    }
    let began = Instant::now();
    let per_sample = SAMPLE_SHARE * COST_CPU_SECONDS;
    let mut target = FIRST_SAMPLE_NODES;
    let mut samples: Vec<CostSample> = Vec::new();
    let mut whole_parts: Vec<usize> = Vec::new();
    let (mut nodes, mut spent) = (0u64, 0.0f64);
    for i in 0..MAX_SAMPLES {
        let Some(left) = budget.checked_sub(began.elapsed()) else {
            break;
        };
        if left.is_zero() || spent >= COST_CPU_SECONDS || nodes as f64 >= total {
            break;
        }
        let k = part_at(&estimates, total * spread(i));
        let (b, _, part_path) = plan.part(k);
        let goal = work_goal(plan, b);
        let mut rng = XorShift::from_seed(seed(b, part_path) ^ i as u64);
        let path = subtree(plan, b, part_path, estimates[k], &goal, target, &mut rng);
        if path == *part_path {
            // A part small enough to search whole gives the same sample every time.
            if whole_parts.contains(&k) {
                continue;
            }
            whole_parts.push(k);
        }
        let deadline = Deadline::start(
            left.min(Duration::from_secs_f64(2.0 * per_sample)),
            options.cancel.clone(),
        );
        let within = SearchOptions {
            parallel: false,
            ..options.cancelled_by(deadline.flag())
        };
        let cpu_before = thread_cpu_seconds();
        let outcome = plan.space(b).run(&path, &goal, &within);
        let cpu = (thread_cpu_seconds() - cpu_before).max(0.0);
        match outcome {
            Ok(outcome) => {
                let cpu = (cpu * 1e6).round() / 1e6;
                samples.push(CostSample {
                    board: b,
                    path: path.to_string(),
                    nodes: outcome.nodes,
                    cpu_seconds: cpu,
                });
                nodes += outcome.nodes;
                spent += cpu;
                if nodes > 0 && spent > 0.0 {
                    target = SAMPLE_MARGIN * per_sample * nodes as f64 / spent;
                }
            }
            Err(SearchError::Cancelled) if deadline.cancelled_from_outside() => {
                return Err(SearchError::Cancelled)
            }
            Err(SearchError::Cancelled) => target /= OVERRUN_SHRINK,
            Err(e) => return Err(e),
        }
    }
    let finished = !samples.is_empty();
    Ok(match PlanCost::new(samples, total) {
        Some(cost) => Ok(cost),
        None if !finished => Err(NoCost::NoSampleFinished(budget)),
        None => Err(NoCost::NoNodes),
    })
}

/// The `i`-th point of a sequence spread evenly over (0, 1), each prefix as evenly as it can be:
/// 1/2, 1/4, 3/4, 1/8, 5/8, … (van der Corput's, in base 2).
fn spread(i: usize) -> f64 {
    let (mut x, mut unit, mut n) = (0.0, 0.5, i + 1);
    while n > 0 {
        if n & 1 == 1 {
            x += unit;
        }
        unit /= 2.0;
        n >>= 1;
    }
    x
}

/// The goal `work` searches board `b`'s parts for before any part has a result: better than the
/// start layout, or the count.
fn work_goal(plan: &LoadedPlan, b: usize) -> Goal {
    match (plan.plan.goal, plan.plan.boards[b].count_queens) {
        (PlanGoal::Count, Some(queens)) => Goal::Count {
            queens,
            representatives: plan.plan.classes,
        },
        _ => Goal::Improve(Incumbent::start(plan.starts[b].clone())),
    }
}

/// The part in which the cumulative estimate (in plan order) reaches `point`.
fn part_at(estimates: &[f64], point: f64) -> usize {
    let mut sum = 0.0;
    for (k, e) in estimates.iter().enumerate() {
        sum += e;
        if sum > point {
            return k;
        }
    }
    estimates.len() - 1
}

/// A subtree of `part` estimated at most `target` nodes (or one that cannot be cut further): from
/// the part down, each time a child drawn in proportion to its estimate.
fn subtree(
    plan: &LoadedPlan,
    b: usize,
    part: &PartPath,
    part_estimate: f64,
    goal: &Goal,
    target: f64,
    rng: &mut XorShift,
) -> PartPath {
    let space = plan.space(b);
    let mut path = part.clone();
    let mut estimate = part_estimate;
    while estimate > target {
        let children: Vec<(PartPath, f64)> = space
            .children(&path)
            .expect("the plan's parts exist")
            .into_iter()
            .filter(|c| !space.is_hopeless(c, goal).expect("children exist"))
            .map(|c| {
                let e = space
                    .estimate(&c, goal, PROBES, seed(b, &c))
                    .expect("children exist");
                (c, e)
            })
            .collect();
        let sum: f64 = children.iter().map(|(_, e)| e).sum();
        if children.is_empty() || sum.is_nan() || sum <= 0.0 {
            break;
        }
        // A point in [0, sum): 53 random bits scaled.
        let point = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * sum;
        let k = part_at(&children.iter().map(|(_, e)| *e).collect::<Vec<_>>(), point);
        (path, estimate) = children.into_iter().nth(k).expect("drawn among them");
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_times_read_in_their_unit_with_two_figures() {
        assert_eq!(cpu_time_text(42.0 * 3600.0), "42 CPU hours");
        assert_eq!(cpu_time_text(3.54 * 60.0), "3.5 CPU minutes");
        assert_eq!(cpu_time_text(0.0123), "0.012 CPU seconds");
        assert_eq!(cpu_time_text(0.0), "0 CPU seconds");
    }

    #[test]
    fn the_sample_points_spread_over_the_plan() {
        let points: Vec<f64> = (0..7).map(spread).collect();
        assert_eq!(points, [0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875]);
    }

    #[test]
    fn the_part_at_a_point_is_where_the_cumulative_estimate_passes_it() {
        let e = [10.0, 0.0, 30.0, 60.0];
        assert_eq!(part_at(&e, 0.0), 0);
        assert_eq!(part_at(&e, 9.9), 0);
        assert_eq!(part_at(&e, 10.0), 2);
        assert_eq!(part_at(&e, 40.0), 3);
        assert_eq!(part_at(&e, 99.9), 3);
    }
}
