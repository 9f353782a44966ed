//! Merging the reports of a plan's parts into the answer for every board.

use thiserror::Error;

use crate::board::{Board, Layout};

use super::{LoadedPlan, PartReport, PlanGoal};

/// The answer for one board of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardAnswer {
    pub board: Board,
    /// The first optimal layout in search order (for a count: the plan's start layout, which
    /// has the counted size when the count holds).
    pub layout: Layout,
    /// For a count: (queens, layouts, classes).
    pub count: Option<(usize, u64, u64)>,
    /// Sums over the board's parts.
    pub nodes: u64,
    pub seconds: f64,
    pub cpu_seconds: f64,
    pub parts: usize,
    /// Most threads any of the board's parts used.
    pub threads: usize,
}

/// Every board's answer, in the plan's board order.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub boards: Vec<BoardAnswer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MergeError {
    #[error("{} of {total} parts have no result yet: {}", .missing.len(), list(.missing))]
    Missing { missing: Vec<usize>, total: usize },
    #[error("board {board}: part {part} found a layout of {queens} queens, below the {counted} being counted: {layout}")]
    NotMinimum {
        board: Board,
        part: usize,
        queens: usize,
        counted: usize,
        layout: String,
    },
    #[error("{0}")]
    Plan(String),
    #[error("board {board}: no layout of {queens} queens exists, so the minimum is larger")]
    NoLayout { board: Board, queens: usize },
}

/// Part numbers as a short list: `3, 7, 12-40`.
pub(crate) fn list(parts: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let mut j = i;
        while j + 1 < parts.len() && parts[j + 1] == parts[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", parts[i], parts[j])
        } else {
            parts[i].to_string()
        });
        i = j + 1;
        if out.len() == 20 && i < parts.len() {
            out.push("…".into());
            break;
        }
    }
    out.join(", ")
}

/// Merge checked reports (`reports[k]` for part k) into every board's answer. The answer does not
/// depend on where, when or in which order the parts ran.
pub fn merge(plan: &LoadedPlan, reports: &[Option<PartReport>]) -> Result<Merged, MergeError> {
    let missing: Vec<usize> = (0..plan.parts())
        .filter(|&k| reports.get(k).is_none_or(|r| r.is_none()))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            total: plan.parts(),
        });
    }
    for k in 0..plan.parts() {
        plan.check_part(k)
            .map_err(|e| MergeError::Plan(e.to_string()))?;
    }
    let mut boards = Vec::with_capacity(plan.boards.len());
    for (b, &board) in plan.boards.iter().enumerate() {
        let mine: Vec<(usize, &PartReport)> = reports
            .iter()
            .enumerate()
            .filter(|(k, _)| plan.plan.parts[*k].board == b)
            .map(|(k, r)| (k, r.as_ref().expect("none missing")))
            .collect();
        let mut answer = BoardAnswer {
            board,
            layout: plan.starts[b].clone(),
            count: None,
            nodes: 0,
            seconds: 0.0,
            cpu_seconds: 0.0,
            parts: mine.len(),
            threads: 0,
        };
        let mut best = (answer.layout.len(), 0u64);
        for (_, r) in &mine {
            answer.nodes += r.nodes;
            answer.seconds += r.seconds;
            answer.cpu_seconds += r.cpu_seconds;
            answer.threads = answer.threads.max(r.threads);
            if let Some(f) = &r.found {
                if (f.queens, f.rank) < best {
                    best = (f.queens, f.rank);
                    answer.layout = Layout::parse(board, &f.layout).expect("checked reports");
                }
            }
        }
        if plan.plan.goal == PlanGoal::Count {
            let queens = plan.plan.boards[b]
                .count_queens
                .expect("count plans name it");
            let (mut layouts, mut classes) = (0u64, 0u64);
            for (k, r) in &mine {
                let c = r.count.as_ref().expect("count reports hold counts");
                if let Some(s) = &c.smaller {
                    return Err(MergeError::NotMinimum {
                        board,
                        part: *k,
                        queens: s.split(' ').count(),
                        counted: queens,
                        layout: s.clone(),
                    });
                }
                layouts += c.layouts;
                classes += c.classes;
            }
            if layouts == 0 {
                return Err(MergeError::NoLayout { board, queens });
            }
            answer.count = Some((queens, layouts, classes));
        }
        boards.push(answer);
    }
    Ok(Merged { boards })
}
