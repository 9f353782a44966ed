//! Part reports: what one part of a plan gave, as stored in the run's `results/` folder.

use crate::error::{ErrorKind, Kind};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Board;
use crate::layout::Layout;
use crate::search::{Goal, PartPath, PartResult, Rank, SearchError, SearchOptions};

use super::{LoadedPlan, PlanGoal};

/// The `format` field of every part report.
pub const REPORT_FORMAT: &str = "queendom-part";

/// The result of one part of a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartReport {
    pub format: String,
    /// The id of the plan (SHA-256 of `plan.json`).
    pub plan: String,
    /// The part's index in the plan.
    pub part: usize,
    pub board: String,
    pub path: String,
    pub problem: String,
    pub goal: PlanGoal,
    /// What the part had to beat when it started: the plan's start layout or a better layout
    /// another part had found by then (`queens`, `rank`).
    pub bound_queens: usize,
    pub bound_rank: u64,
    /// The best layout found that beats the bound, if any.
    pub found: Option<FoundReport>,
    /// For a count plan: the layouts and classes in this part.
    pub count: Option<CountReport>,
    pub nodes: u64,
    /// Wall seconds of the part's search.
    pub seconds: f64,
    /// CPU seconds (user + system) of the process while it searched the part.
    pub cpu_seconds: f64,
    pub threads: usize,
    pub host: String,
    /// When the part finished, in seconds since 1970 (UTC).
    pub finished: u64,
    pub queendom: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoundReport {
    pub queens: usize,
    pub rank: u64,
    pub layout: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountReport {
    pub queens: usize,
    pub layouts: u64,
    pub classes: u64,
    /// A layout with fewer queens, if the part holds one: then `queens` was not the minimum.
    pub smaller: Option<String>,
    /// In a plan that lists classes: the canonical layout and the size of each class counted
    /// here, in increasing order of layout.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub representatives: Vec<ClassReport>,
}

/// One class of minimum layouts: its canonical (least) member and how many layouts it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassReport {
    pub layout: String,
    pub size: usize,
}

/// Why a report is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReportError {
    #[error("it is not a queendom part report: {0}")]
    NotAReport(String),
    #[error("it belongs to another plan ({0}…)")]
    OtherPlan(String),
    #[error("it claims to be part {found}, but is stored as part {expected}")]
    WrongPart { found: usize, expected: usize },
    #[error("it does not match part {part} of the plan: {what}")]
    Mismatch { part: usize, what: String },
    #[error("its layout fails the independent check: {0}")]
    Check(String),
}

/// What running a part gave, before the caller adds where and how long.
#[derive(Debug, Clone)]
pub struct PartRun {
    pub bound_queens: usize,
    pub bound_rank: u64,
    pub found: Option<FoundReport>,
    pub count: Option<CountReport>,
    pub nodes: u64,
}

/// Run part `k` of `plan`, starting from the best layout the (checked) `reports` of its board
/// hold. Pure: the caller reads and writes the files.
pub fn run_part(
    plan: &LoadedPlan,
    k: usize,
    reports: &[&PartReport],
    options: &SearchOptions,
) -> Result<PartRun, SearchError> {
    let (b, _, path) = plan.part(k);
    plan.check_part(k)
        .map_err(|e| SearchError::Inconsistent(e.to_string()))?;
    let space = plan.space(b);
    match plan.plan.goal {
        PlanGoal::Minimum => {
            let incumbent = plan.incumbent(b, reports);
            let (bound_queens, bound_rank) = (incumbent.queens, incumbent.rank.value());
            let outcome = space.run(path, &Goal::Improve(incumbent), options)?;
            let PartResult::Improve(found) = outcome.result else {
                unreachable!("an improving search gives a layout or none")
            };
            if let Some(f) = &found {
                plan.problem.check(&f.layout, f.layout.len())?;
            }
            Ok(PartRun {
                bound_queens,
                bound_rank,
                found: found.map(|f| FoundReport {
                    queens: f.layout.len(),
                    rank: f.rank.value(),
                    layout: f.layout.to_squares_string(),
                }),
                count: None,
                nodes: outcome.nodes,
            })
        }
        PlanGoal::Count => {
            let (count, nodes) = count_part(plan, b, path, options)?;
            Ok(PartRun {
                bound_queens: count.queens + 1,
                bound_rank: 0,
                found: None,
                count: Some(count),
                nodes,
            })
        }
    }
}

/// Count the layouts of part `path` of board `b` of a count plan, as its result reports them,
/// with the nodes searched: what `run_part` writes and what an audit compares with it.
pub(crate) fn count_part(
    plan: &LoadedPlan,
    b: usize,
    path: &PartPath,
    options: &SearchOptions,
) -> Result<(CountReport, u64), SearchError> {
    let queens = plan.plan.boards[b]
        .count_queens
        .expect("count plans name the size");
    let goal = Goal::Count {
        queens,
        representatives: plan.plan.classes,
    };
    let outcome = plan.space(b).run(path, &goal, options)?;
    let PartResult::Count(c) = outcome.result else {
        unreachable!("a count gives counts")
    };
    let count = CountReport {
        queens,
        layouts: c.layouts,
        classes: c.classes,
        smaller: c.smaller.map(|l| l.to_squares_string()),
        representatives: c
            .representatives
            .iter()
            .map(|(layout, size)| ClassReport {
                layout: layout.to_squares_string(),
                size: *size,
            })
            .collect(),
    };
    Ok((count, outcome.nodes))
}

impl PartReport {
    /// What the part found, in words: "found a layout of 5 queens", "12 layouts, 3 classes" or
    /// "nothing below 5 queens".
    pub fn found_text(&self) -> String {
        match (&self.found, &self.count) {
            (Some(f), _) => format!("found a layout of {} queens", f.queens),
            (None, Some(c)) => format!("{} layouts, {} classes", c.layouts, c.classes),
            (None, None) => format!("nothing below {} queens", self.bound_queens),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("a report serialises");
        out.push(b'\n');
        out
    }

    /// Read a report stored as part `k` of `plan` and check everything that can be checked
    /// without searching again: that it is this plan's, this part's, and that a layout it
    /// claims is on the board, has the queens it says, passes the independent checker and lies
    /// in the part's own subtree.
    pub fn from_bytes(
        bytes: &[u8],
        plan: &LoadedPlan,
        k: usize,
    ) -> Result<PartReport, ReportError> {
        let r: PartReport =
            serde_json::from_slice(bytes).map_err(|e| ReportError::NotAReport(e.to_string()))?;
        if r.format != REPORT_FORMAT {
            return Err(ReportError::NotAReport(format!(
                "its format is '{}', expected '{REPORT_FORMAT}'",
                r.format
            )));
        }
        if r.plan != plan.id {
            return Err(ReportError::OtherPlan(r.plan.chars().take(12).collect()));
        }
        if r.part != k {
            return Err(ReportError::WrongPart {
                found: r.part,
                expected: k,
            });
        }
        let (b, board, path) = plan.part(k);
        let mismatch = |what: String| ReportError::Mismatch { part: k, what };
        if r.board != board.to_string() || r.path != path.to_string() {
            return Err(mismatch(format!(
                "it is board {} part {}, the plan says board {board} part {path}",
                r.board, r.path
            )));
        }
        if r.problem != plan.problem.name() || r.goal != plan.plan.goal {
            return Err(mismatch(format!("it is a {} {} report", r.problem, r.goal)));
        }
        match (plan.plan.goal, &r.found, &r.count) {
            (PlanGoal::Minimum, _, None) => {}
            (PlanGoal::Count, None, Some(c)) => {
                let queens = plan.plan.boards[b].count_queens;
                if Some(c.queens) != queens {
                    return Err(mismatch(format!(
                        "it counts layouts of {} queens",
                        c.queens
                    )));
                }
                // Each class counted in a part adds its whole size, 1 to |group| layouts.
                if let Some(what) = super::count_contradiction(board, c.layouts, c.classes) {
                    return Err(mismatch(format!("its counts cannot be: {what}")));
                }
                if let Some(smaller) = &c.smaller {
                    let layout = Layout::parse(board, smaller)
                        .map_err(|e| ReportError::Check(e.to_string()))?;
                    plan.problem
                        .check(&layout, layout.len())
                        .map_err(|e| ReportError::Check(e.to_string()))?;
                }
                check_classes(plan, board, c).map_err(mismatch)?;
            }
            _ => return Err(mismatch("its fields do not fit the plan's goal".into())),
        }
        if let Some(f) = &r.found {
            let layout =
                Layout::parse(board, &f.layout).map_err(|e| ReportError::Check(e.to_string()))?;
            plan.problem
                .check(&layout, f.queens)
                .map_err(|e| ReportError::Check(e.to_string()))?;
            let space = plan.space(b);
            if !space.part_holds_rank(path, Rank::from_value(f.rank)) {
                return Err(mismatch(format!(
                    "its layout's rank {} lies outside the part",
                    f.rank
                )));
            }
            let part_queens = space.part_queens(path).expect("plan parts exist");
            if !part_queens
                .queens()
                .iter()
                .all(|q| layout.queens().contains(q))
            {
                return Err(mismatch(
                    "its layout lacks the queens the part places".into(),
                ));
            }
        }
        if !(r.seconds.is_finite()
            && r.seconds >= 0.0
            && r.cpu_seconds.is_finite()
            && r.cpu_seconds >= 0.0)
        {
            return Err(mismatch("its times are not durations".into()));
        }
        Ok(r)
    }
}

/// Whether the class list of a count report fits its plan and its counts: none unless the plan
/// asks for classes; else one entry per class counted, in increasing order, each a layout of the
/// counted size that passes the independent checker, is the least member of its class, and has
/// the class's size, the sizes adding up to the layouts counted. What is wrong, if anything.
fn check_classes(plan: &LoadedPlan, board: Board, c: &CountReport) -> Result<(), String> {
    if !plan.plan.classes {
        return match c.representatives.is_empty() {
            true => Ok(()),
            false => Err("it lists classes, which the plan does not ask for".into()),
        };
    }
    if c.representatives.len() as u64 != c.classes {
        return Err(format!(
            "it counts {} classes but lists {}",
            c.classes,
            c.representatives.len()
        ));
    }
    let mut layouts = 0u64;
    let mut before: Option<Layout> = None;
    for class in &c.representatives {
        let layout = Layout::parse(board, &class.layout)
            .map_err(|e| format!("its class {}: {e}", class.layout))?;
        plan.problem
            .check(&layout, c.queens)
            .map_err(|e| format!("its class {}: {e}", class.layout))?;
        let members = layout.class();
        if members[0] != layout || members.len() != class.size {
            return Err(format!(
                "its class {} is not a canonical layout with a class of {}",
                class.layout, class.size
            ));
        }
        if before
            .as_ref()
            .is_some_and(|b| b.queens() >= layout.queens())
        {
            return Err(format!("its classes are not in order at {}", class.layout));
        }
        layouts += class.size as u64;
        before = Some(layout);
    }
    if layouts != c.layouts {
        return Err(format!(
            "its classes hold {layouts} layouts, it counts {}",
            c.layouts
        ));
    }
    Ok(())
}

/// A result file that is foreign, corrupt or forged.
impl Kind for ReportError {
    fn kind(&self) -> ErrorKind {
        match self {
            ReportError::NotAReport(_)
            | ReportError::OtherPlan(_)
            | ReportError::WrongPart { .. }
            | ReportError::Mismatch { .. }
            | ReportError::Check(_) => ErrorKind::Refusal,
        }
    }
}
