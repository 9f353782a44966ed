//! Making a plan: each board's tree cut into parts of similar estimated cost.

use std::collections::BinaryHeap;

use thiserror::Error;

use crate::board::{Board, BoardParseError};
use crate::error::{ErrorKind, Kind};
use crate::search::{
    solve, Goal, Incumbent, PartPath, Problem, SearchError, SearchOptions, SearchSpace,
};

use super::{Plan, PlanBoard, PlanGoal, PlanPart, TableAxes, PLAN_FORMAT, PLAN_VERSION};

/// What to plan.
#[derive(Debug, Clone)]
pub struct PlanRequest {
    /// The boards, in the order of the answer (a table's order); a board and its transpose are
    /// searched once, as the one with at most as many rows as columns.
    pub boards: Vec<Board>,
    pub table: Option<TableAxes>,
    pub problem: Problem,
    pub goal: PlanGoal,
    /// For a count: the number of queens to count layouts of, if known (else each board is solved
    /// first). The merge checks it: no part may find fewer, and some part must find that many.
    pub count_queens: Option<usize>,
    /// For a count: list each class's canonical layout and size too (`Plan::classes`).
    pub classes: bool,
    /// How many parts to aim at. Boards whose whole tree is estimated small stay one part.
    pub parts: usize,
    /// Random probes per estimate.
    pub probes: u32,
    /// Parts are not cut below this many estimated nodes: cutting further only adds overhead
    /// (each part costs a result file, written with fsync).
    pub min_part_nodes: f64,
}

/// What `queendom plan` is asked for, as its command line says it.
#[derive(Debug, Clone)]
pub struct PlanAsk<'a> {
    /// One board, written as ROWSxCOLS; or none, and `rows` and `cols` for a table.
    pub board: Option<&'a str>,
    pub rows: Option<&'a [usize]>,
    pub cols: Option<&'a [usize]>,
    pub problem: Problem,
    pub goal: PlanGoal,
    /// For a count: the number of queens, if known.
    pub count_queens: Option<usize>,
    pub classes: bool,
    pub parts: usize,
}

/// Why a plan cannot be made as asked: every variant a refusal.
#[derive(Debug, Error)]
pub enum PlanAskError {
    #[error(transparent)]
    Board(#[from] BoardParseError),
    #[error("give either a board or --rows and --cols, not both")]
    BoardAndTable,
    #[error("--rows needs --cols")]
    RowsWithoutCols,
    #[error("--cols needs --rows")]
    ColsWithoutRows,
    #[error("give a board (e.g. 19x19), or --rows and --cols")]
    NoBoard,
    #[error("count plans take one board; use `queendom table --count` for tables")]
    CountOfTable,
}

impl Kind for PlanAskError {
    fn kind(&self) -> ErrorKind {
        match self {
            PlanAskError::Board(_)
            | PlanAskError::BoardAndTable
            | PlanAskError::RowsWithoutCols
            | PlanAskError::ColsWithoutRows
            | PlanAskError::NoBoard
            | PlanAskError::CountOfTable => ErrorKind::Refusal,
        }
    }
}

impl PlanAsk<'_> {
    /// The request: the board, or the table's boards in its order with its axes, checked; the
    /// estimates' probes and the smallest part as for every plan.
    pub fn request(&self) -> Result<PlanRequest, PlanAskError> {
        let (boards, table) = self.boards()?;
        if self.goal == PlanGoal::Count && table.is_some() {
            return Err(PlanAskError::CountOfTable);
        }
        Ok(PlanRequest {
            boards,
            table,
            problem: self.problem,
            goal: self.goal,
            count_queens: self.count_queens,
            classes: self.classes,
            parts: self.parts,
            probes: PROBES,
            min_part_nodes: MIN_PART_NODES,
        })
    }

    /// The boards asked for: one board, or a table's (with its axes).
    fn boards(&self) -> Result<(Vec<Board>, Option<TableAxes>), PlanAskError> {
        Ok(match (self.board, self.rows, self.cols) {
            (Some(b), None, None) => (vec![b.parse::<Board>()?], None),
            (None, Some(rows), Some(cols)) => {
                let axes = TableAxes {
                    rows: rows.to_vec(),
                    cols: cols.to_vec(),
                };
                (axes.boards(), Some(axes))
            }
            (Some(_), _, _) => return Err(PlanAskError::BoardAndTable),
            (None, Some(_), None) => return Err(PlanAskError::RowsWithoutCols),
            (None, None, Some(_)) => return Err(PlanAskError::ColsWithoutRows),
            (None, None, None) => return Err(PlanAskError::NoBoard),
        })
    }
}

/// The smallest parts worth cutting for a cluster: a few milliseconds of search.
pub const MIN_PART_NODES: f64 = 20_000.0;

/// Random probes per cost estimate of a part.
pub const PROBES: u32 = 64;

/// Parts are cut at most this deep (root parts, then three more levels), which leaves the rest
/// of the search order's levels to the workers' own threads.
const MAX_PLAN_DEPTH: usize = 4;

/// A part waiting to be cut, largest estimate first.
struct Candidate {
    estimate: f64,
    board: usize,
    path: PartPath,
    final_: bool,
}

impl PartialEq for Candidate {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == std::cmp::Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Candidate {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        // Largest estimate first; ties by position, so the plan is the same on every run.
        self.estimate
            .total_cmp(&o.estimate)
            .then_with(|| (o.board, &o.path).cmp(&(self.board, &self.path)))
    }
}

/// Make a plan: start layouts (and for a count the minimum), then the cut. Deterministic: the same
/// request gives the same plan, byte for byte, on any machine and any number of threads. (Its
/// cost, which `queendom plan` measures and adds, is of the machine: see `measure_cost`.)
pub fn build(request: &PlanRequest, options: &SearchOptions) -> Result<Plan, SearchError> {
    let mut searched: Vec<Board> = Vec::new();
    for &b in &request.boards {
        let s = if b.rows() > b.cols() {
            b.transposed()
        } else {
            b
        };
        if !searched.contains(&s) {
            searched.push(s);
        }
    }
    let mut boards = Vec::with_capacity(searched.len());
    let mut spaces = Vec::with_capacity(searched.len());
    let mut goals = Vec::with_capacity(searched.len());
    for &board in &searched {
        let space = SearchSpace::new(board, request.problem);
        let start = space.start_layout(options)?;
        let (goal, count_queens) = match request.goal {
            PlanGoal::Minimum => (Goal::Improve(Incumbent::start(start.clone())), None),
            PlanGoal::Count => {
                let queens = match request.count_queens {
                    Some(q) => q,
                    None => solve(board, request.problem, options)?.queens(),
                };
                (
                    Goal::Count {
                        queens,
                        representatives: false,
                    },
                    Some(queens),
                )
            }
        };
        boards.push(PlanBoard {
            board: board.to_string(),
            start: start.to_squares_string(),
            count_queens,
        });
        spaces.push(space);
        goals.push(goal);
    }
    // The estimates of a large plan take a while: they stop with the search's cancel flag too.
    let cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    };
    let mut heap = BinaryHeap::new();
    for (b, space) in spaces.iter().enumerate() {
        if cancelled() {
            return Err(SearchError::Cancelled);
        }
        let path = PartPath::whole();
        let estimate = space
            .estimate(&path, &goals[b], request.probes, seed(b, &path))
            .expect("the whole tree is a part");
        heap.push(Candidate {
            estimate,
            board: b,
            path,
            final_: false,
        });
    }
    // Cut the largest part while it is above its fair share of the estimated total, until there
    // are enough parts (or twice as many: a part can have a hundred children, all taken at once).
    let mut total: f64 = heap.iter().map(|c: &Candidate| c.estimate).sum();
    let mut done: Vec<Candidate> = Vec::new();
    while let Some(top) = heap.pop() {
        let count = heap.len() + done.len() + 1;
        let share = total / request.parts.max(1) as f64;
        let enough = count >= request.parts && top.estimate <= 2.0 * share;
        if top.final_
            || top.estimate < request.min_part_nodes
            || enough
            || count >= 2 * request.parts
        {
            done.push(top);
            continue;
        }
        let space = &spaces[top.board];
        let goal = &goals[top.board];
        let children: Vec<PartPath> = if top.path.depth() >= MAX_PLAN_DEPTH {
            Vec::new()
        } else {
            space
                .children(&top.path)
                .expect("planned parts exist")
                .into_iter()
                .filter(|c| !space.is_hopeless(c, goal).expect("children exist"))
                .collect()
        };
        // A part that cannot be cut stays whole. One whose children are all hopeless is kept
        // too: it is cheap, and the plan then covers the tree without relying on the bounds.
        if children.is_empty() {
            done.push(Candidate {
                final_: true,
                ..top
            });
            continue;
        }
        total -= top.estimate;
        for path in children {
            if cancelled() {
                return Err(SearchError::Cancelled);
            }
            let estimate = space
                .estimate(&path, goal, request.probes, seed(top.board, &path))
                .expect("children exist");
            total += estimate;
            heap.push(Candidate {
                estimate,
                board: top.board,
                path,
                final_: false,
            });
        }
    }
    let mut parts: Vec<PlanPart> = done
        .into_iter()
        .map(|c| PlanPart {
            board: c.board,
            queens: spaces[c.board]
                .part_queens(&c.path)
                .expect("planned parts exist")
                .to_squares_string(),
            path: c.path.to_string(),
            estimate: c.estimate.round(),
        })
        .collect();
    parts.sort_by(|a, b| {
        (a.board, a.path.parse::<PartPath>().unwrap())
            .cmp(&(b.board, b.path.parse::<PartPath>().unwrap()))
    });
    Ok(Plan {
        format: PLAN_FORMAT.to_string(),
        version: PLAN_VERSION,
        queendom: env!("CARGO_PKG_VERSION").to_string(),
        problem: request.problem.name().to_string(),
        goal: request.goal,
        classes: request.classes && request.goal == PlanGoal::Count,
        table: request.table.clone(),
        boards,
        parts,
        cost: None,
    })
}

/// A fixed seed per part, so that estimates and so the plan do not change between runs.
pub(crate) fn seed(board: usize, path: &PartPath) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ board as u64;
    for &i in path.indices() {
        h = (h ^ i as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}
