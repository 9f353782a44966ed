//! Plans: one board's proof (or a whole table, or a count) cut into parts that any scheduler can
//! run anywhere, in any order, any number of times, and results that merge into exactly what
//! `solve`, `table` or `count` give in one process.
//!
//! A plan names each part by its board and its path in the search tree (see
//! [`crate::search::PartPath`]); the search order makes the merged answer independent of where and
//! when the parts ran. The best layout known is shared through the results: a part started after
//! others finished begins from the best of their layouts (see [`LoadedPlan::incumbent`]).
//!
//! Everything here is pure: plans and part reports are turned into bytes and read back from bytes,
//! and the caller decides where they are stored. The identity of a plan is the SHA-256 of its
//! bytes, and every report names the plan it belongs to.

mod attempts;
mod audit;
mod build;
pub mod checkpoint;
mod cost;
mod merge;
mod report;
pub mod run_dir;
mod split;
pub mod status;
pub mod worker;

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::search::{Incumbent, PartPath, Problem, Rank, SearchSpace};

pub use attempts::{
    age, last_attempt, slurm_time, time_text, utc_iso, Attempt, AttemptEvent, LastAttempt,
};
pub use audit::{
    audit_part, audit_part_plainly, audit_parts, audit_verdict, merged_run, sample_parts,
    AuditError, AuditStop, MergedRun, PartAudit, RunAudit,
};
pub use build::{build, PlanAsk, PlanAskError, PlanRequest, MIN_PART_NODES, PROBES};
pub use cost::{
    cpu_time_text, measure_cost, CostSample, NoCost, PlanCost, COST_BUDGET, COST_CPU_SECONDS,
};
pub use merge::{
    array_syntax, count_contradiction, merge, parse_array_syntax, BoardAnswer, MergeError, Merged,
    PartListError,
};
pub use report::{run_part, CountReport, FoundReport, PartReport, PartRun, ReportError};
pub use split::{split_parts, Split, SplitError};

/// The folder of a run directory that holds the parts' results.
pub const RESULTS: &str = "results";

/// Result file name of part `k` (in [`RESULTS`]).
pub fn result_name(k: usize) -> String {
    format!("part-{k:06}.json")
}

/// The `format` field of every plan file.
pub const PLAN_FORMAT: &str = "queendom-plan";
/// The version of the plan file layout this build writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// What a plan computes for each board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanGoal {
    /// The minimum and the first optimal layout in search order, as `solve` and `table` give.
    Minimum,
    /// The number of layouts of the board's `count_queens` queens and of their classes, as
    /// `count` gives.
    Count,
}

/// A plan, as stored in `plan.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub format: String,
    pub version: u32,
    /// The queendom version that wrote the plan; parts run by another version are refused.
    pub queendom: String,
    /// `domination` or `independent-domination`.
    pub problem: String,
    pub goal: PlanGoal,
    /// A count plan that also lists its classes: each part reports the canonical layout and
    /// size of every class it counts, and the merge lists them as `count --classes` does.
    /// Absent (false) in every other plan, so their ids are as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub classes: bool,
    /// For a table: the row and column counts as written (`--rows`, `--cols`), in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableAxes>,
    pub boards: Vec<PlanBoard>,
    pub parts: Vec<PlanPart>,
    /// What the plan will cost on the machine that made it (`queendom plan` measures it unless
    /// told `--no-cost`). Absent in plans made without it and in plans from before it existed,
    /// which read as before. Measured, so it differs from machine to machine, and so does the
    /// id of a plan that holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<PlanCost>,
}

/// The axes of a table plan, for the exports that need them (the grid).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableAxes {
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
}

impl TableAxes {
    /// The table's boards in its order: by row count, then column count, as `table` lists them.
    pub fn boards(&self) -> Vec<Board> {
        self.rows
            .iter()
            .flat_map(|&r| {
                self.cols
                    .iter()
                    .map(move |&c| Board::new(r, c).expect("a plan's axes hold valid sizes"))
            })
            .collect()
    }
}

/// "1 part", "2 parts".
pub fn parts_text(n: usize) -> String {
    if n == 1 {
        "1 part".to_string()
    } else {
        format!("{n} parts")
    }
}

/// One board of a plan. A table plan holds each board once with at most as many rows as columns:
/// a board and its transpose share one search, as in `table`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanBoard {
    /// `NxM`.
    pub board: String,
    /// The start layout (greedy and local search, as `solve` starts): every part looks for
    /// something better. In the layout notation of the tables.
    pub start: String,
    /// For a count: the number of queens whose layouts are counted (the minimum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_queens: Option<usize>,
}

/// One part: a board of the plan and a part of its search tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanPart {
    /// Index into [`Plan::boards`].
    pub board: usize,
    /// The part's path in the board's search tree (`root`: the whole tree).
    pub path: String,
    /// The queens the part places before its search (empty for the whole tree). The path is
    /// followed again by whoever runs the part; a search that cuts its tree differently (another
    /// build) would place other queens, and is refused rather than trusted to cover the same
    /// layouts.
    pub queens: String,
    /// Estimated search nodes (Knuth's random probes), for balancing and for `status`.
    pub estimate: f64,
}

/// Why a plan file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    #[error("it is not a queendom plan: {0}")]
    NotAPlan(String),
    #[error("it is a plan of version {found}, this queendom reads version {expected}")]
    Version { found: u32, expected: u32 },
    #[error("it was made by queendom {found}, this is queendom {expected}: run its parts with the same version")]
    QueendomVersion { found: String, expected: String },
    #[error("it is inconsistent: {0}")]
    Inconsistent(String),
    #[error("its table's {axis} hold {value}, which is no board side: {why}")]
    BadAxis {
        axis: &'static str,
        value: usize,
        why: String,
    },
    #[error("its table holds {0}, which none of its boards is (nor its transpose)")]
    AxisBoard(Board),
    #[error("part {part} places {found:?} in this queendom's search, the plan says {expected:?}: the plan was made by a search that cuts its tree differently")]
    OtherSearch {
        part: usize,
        found: String,
        expected: String,
    },
}

/// A plan read back and checked: every board and path resolved.
#[derive(Debug)]
pub struct LoadedPlan {
    pub plan: Plan,
    /// SHA-256 of the plan's bytes (without its measured `cost`), in hex: the plan's identity.
    pub id: String,
    pub problem: Problem,
    pub boards: Vec<Board>,
    pub starts: Vec<Layout>,
    pub paths: Vec<PartPath>,
    /// Each board's search space, made when first needed (checking a report needs it, and a run
    /// checks many).
    spaces: Vec<OnceLock<SearchSpace>>,
}

/// The plan's identity: SHA-256 of its bytes, in hex.
pub fn plan_id(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl Plan {
    /// The plan as stored: pretty JSON, one part per line, ending in a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("a plan serialises");
        out.push(b'\n');
        out
    }
}

/// A table plan's axes must make valid boards, each searched by the plan (as itself or as its
/// transpose), so that every reader of the plan can lay its table out.
fn check_axes(axes: &TableAxes, boards: &[Board]) -> Result<(), PlanError> {
    for (axis, values) in [("rows", &axes.rows), ("cols", &axes.cols)] {
        for &value in values {
            if let Err(e) = Board::new(value, value) {
                return Err(PlanError::BadAxis {
                    axis,
                    value,
                    why: e.to_string(),
                });
            }
        }
    }
    for board in axes.boards() {
        if !boards.contains(&board) && !boards.contains(&board.transposed()) {
            return Err(PlanError::AxisBoard(board));
        }
    }
    Ok(())
}

impl LoadedPlan {
    /// Read and check a plan: every reader of a plan file (`status`, `work`, `merge`, `audit`,
    /// `plan --split`) reads it through here, so that all refuse the same plans the same way.
    pub fn from_bytes(bytes: &[u8]) -> Result<LoadedPlan, PlanError> {
        let plan: Plan =
            serde_json::from_slice(bytes).map_err(|e| PlanError::NotAPlan(format!("{e}")))?;
        if plan.format != PLAN_FORMAT {
            return Err(PlanError::NotAPlan(format!(
                "its format is '{}', expected '{PLAN_FORMAT}'",
                plan.format
            )));
        }
        if plan.version != PLAN_VERSION {
            return Err(PlanError::Version {
                found: plan.version,
                expected: PLAN_VERSION,
            });
        }
        if plan.queendom != env!("CARGO_PKG_VERSION") {
            return Err(PlanError::QueendomVersion {
                found: plan.queendom.clone(),
                expected: env!("CARGO_PKG_VERSION").to_string(),
            });
        }
        let bad = |m: String| PlanError::Inconsistent(m);
        let problem: Problem = plan
            .problem
            .parse()
            .map_err(|_| bad(format!("unknown problem '{}'", plan.problem)))?;
        let mut boards = Vec::with_capacity(plan.boards.len());
        let mut starts = Vec::with_capacity(plan.boards.len());
        for b in &plan.boards {
            let board = b
                .board
                .parse::<Board>()
                .map_err(|e| bad(format!("board '{}': {e}", b.board)))?;
            let start = Layout::parse(board, &b.start)
                .map_err(|e| bad(format!("start layout of {}: {e}", b.board)))?;
            problem
                .check(&start, start.len())
                .map_err(|e| bad(format!("start layout of {}: {e}", b.board)))?;
            match (plan.goal, b.count_queens) {
                (PlanGoal::Count, None) => {
                    return Err(bad(format!("board {} has no count_queens", b.board)))
                }
                (PlanGoal::Minimum, Some(_)) => {
                    return Err(bad(format!(
                        "board {} has count_queens in a minimum plan",
                        b.board
                    )))
                }
                _ => {}
            }
            boards.push(board);
            starts.push(start);
        }
        if let Some(axes) = &plan.table {
            check_axes(axes, &boards)?;
        }
        if let Some(cost) = &plan.cost {
            cost.check(boards.len()).map_err(bad)?;
        }
        let mut paths = Vec::with_capacity(plan.parts.len());
        for (k, p) in plan.parts.iter().enumerate() {
            if p.board >= plan.boards.len() {
                return Err(bad(format!(
                    "part {k} names board {} of {}",
                    p.board,
                    plan.boards.len()
                )));
            }
            let path: PartPath = p.path.parse().map_err(|e| bad(format!("part {k}: {e}")))?;
            paths.push(path);
        }
        // Parts in the search's fixed order, each at most once: the merge relies on it.
        for k in 1..paths.len() {
            let a = (plan.parts[k - 1].board, &paths[k - 1]);
            let b = (plan.parts[k].board, &paths[k]);
            if a >= b {
                return Err(bad(format!("parts {} and {k} are out of order", k - 1)));
            }
        }
        Ok(LoadedPlan {
            spaces: (0..boards.len()).map(|_| OnceLock::new()).collect(),
            id: match plan.cost {
                None => plan_id(bytes),
                // The cost is measured, so it differs from run to run and machine to machine;
                // the identity is that of the same plan without it (as `--no-cost` writes it),
                // so that the same request still names the same plan everywhere.
                Some(_) => plan_id(
                    &Plan {
                        cost: None,
                        ..plan.clone()
                    }
                    .to_bytes(),
                ),
            },
            plan,
            problem,
            boards,
            starts,
            paths,
        })
    }

    pub fn parts(&self) -> usize {
        self.plan.parts.len()
    }

    /// The parts, largest estimate first (equal estimates in plan order): the order in which
    /// `work --next` claims them. Taken in plan order, the long parts of a board's last branches
    /// start last and leave the other workers idle at the end; replayed from recorded costs
    /// (`scripts/balance.py --order`), γ(Q_15) cut into 2 012 parts keeps 64 workers 88% busy in
    /// plan order and 99% largest first.
    pub fn claim_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.parts()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (self.plan.parts[a].estimate, self.plan.parts[b].estimate);
            eb.total_cmp(&ea).then(a.cmp(&b))
        });
        order
    }

    /// Every part's rank (its place in [`LoadedPlan::claim_order`]), by part.
    pub fn rank_of(&self) -> Vec<usize> {
        let mut rank_of = vec![0; self.parts()];
        for (r, k) in self.claim_order().into_iter().enumerate() {
            rank_of[k] = r;
        }
        rank_of
    }

    /// The ranks (places in [`LoadedPlan::claim_order`], which Slurm array tasks and
    /// `work --rank` count in) of `parts`, sorted.
    pub fn ranks_of(&self, parts: &[usize]) -> Vec<usize> {
        let mut ranks: Vec<usize> = self
            .claim_order()
            .iter()
            .enumerate()
            .filter(|(_, k)| parts.contains(k))
            .map(|(r, _)| r)
            .collect();
        ranks.sort_unstable();
        ranks
    }

    /// Check that this build's search cuts part `k` where the plan's maker did.
    pub fn check_part(&self, k: usize) -> Result<(), PlanError> {
        let (b, _, path) = self.part(k);
        let expected = &self.plan.parts[k].queens;
        let found = self
            .space(b)
            .part_queens(path)
            .map(|l| l.to_squares_string());
        match found {
            Some(f) if f == *expected => Ok(()),
            other => Err(PlanError::OtherSearch {
                part: k,
                found: other.unwrap_or_else(|| "no part at that path".into()),
                expected: expected.clone(),
            }),
        }
    }

    /// The search space of board `b`.
    pub fn space(&self, b: usize) -> &SearchSpace {
        self.spaces[b].get_or_init(|| SearchSpace::new(self.boards[b], self.problem))
    }

    /// The board index, board and path of part `k`.
    pub fn part(&self, k: usize) -> (usize, Board, &PartPath) {
        let b = self.plan.parts[k].board;
        (b, self.boards[b], &self.paths[k])
    }

    /// The best layout known for board `b` before a part of it starts: the start layout, or a
    /// better one that another part of the board found (`reports` must have been checked).
    pub fn incumbent(&self, b: usize, reports: &[&PartReport]) -> Incumbent {
        let mut best = Incumbent::start(self.starts[b].clone());
        for r in reports {
            if self.plan.parts[r.part].board != b {
                continue;
            }
            if let Some(found) = &r.found {
                let layout = Layout::parse(self.boards[b], &found.layout)
                    .expect("checked reports hold layouts");
                best = best.best_of(Incumbent {
                    queens: found.queens,
                    rank: Rank::from_value(found.rank),
                    layout: Some(layout),
                });
            }
        }
        best
    }
}

impl fmt::Display for PlanGoal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlanGoal::Minimum => "minimum",
            PlanGoal::Count => "count",
        })
    }
}

impl LoadedPlan {
    /// What `plan` prints about the plan it wrote into `dir`: what it computes, its parts and
    /// estimate, and how to run it.
    pub fn describe(&self, dir: &Path) -> String {
        let plan = self;
        let total: f64 = plan.plan.parts.iter().map(|p| p.estimate).sum();
        let largest = plan
            .plan
            .parts
            .iter()
            .map(|p| p.estimate)
            .fold(0.0, f64::max);
        let what = match (&plan.plan.table, plan.boards.as_slice()) {
            (None, [b]) => format!("{} of {b}", plan.problem.symbol()),
            _ => format!("{} of {} boards", plan.problem.symbol(), plan.boards.len()),
        };
        let goal = match plan.plan.goal {
            PlanGoal::Minimum => "",
            PlanGoal::Count if plan.plan.classes => {
                ", counting every minimum layout and listing its classes"
            }
            PlanGoal::Count => ", counting every minimum layout",
        };
        let n = plan.parts();
        let mut out = format!("plan {}: {what}{goal}, {}\n", plan.id, parts_text(n));
        if plan.boards.len() == 1 {
            out.push_str(&format!(
                "start layout: {} queens ({})\n",
                plan.starts[0].len(),
                plan.starts[0].to_squares_string()
            ));
        }
        if n > 0 && total > 0.0 {
            out.push_str(&format!(
                "estimated {total:.3e} nodes; the largest part {:.1}% of them\n",
                100.0 * largest / total
            ));
        }
        if let Some(cost) = &plan.plan.cost {
            out.push_str(&format!("estimated cost: {}\n", cost.text()));
        }
        out.push_str(&format!(
        "run: queendom work {} --next --until-done   (one worker; start as many as you like)\n     \
         or --part K / --rank R (0..{}; a Slurm array task: R = SLURM_ARRAY_TASK_ID)\n",
        dir.display(),
        n.saturating_sub(1)
    ));
        out
    }
}

/// A plan file that this build cannot run: the run directory is at fault.
impl Kind for PlanError {
    fn kind(&self) -> ErrorKind {
        match self {
            PlanError::NotAPlan(_)
            | PlanError::Version { .. }
            | PlanError::QueendomVersion { .. }
            | PlanError::Inconsistent(_)
            | PlanError::BadAxis { .. }
            | PlanError::AxisBoard(_)
            | PlanError::OtherSearch { .. } => ErrorKind::Refusal,
        }
    }
}
