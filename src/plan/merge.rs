//! Merging the reports of a plan's parts into the answer for every board.

use thiserror::Error;

use std::collections::HashMap;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::row::TableRow;
use crate::search::{threads_text, Goal, Incumbent, PartPath, Problem};

use super::{parts_text, result_name, LoadedPlan, PartReport, PlanGoal, TableAxes, RESULTS};

/// The answer for one board of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardAnswer {
    pub board: Board,
    /// The first optimal layout in search order (for a count: the plan's start layout, which
    /// has the counted size when the count holds).
    pub layout: Layout,
    /// The layout's rank in the search order (0: the start layout, which ranks first).
    pub rank: u64,
    /// For a count: (queens, layouts, classes).
    pub count: Option<(usize, u64, u64)>,
    /// For a count plan that lists classes: each class's canonical layout and size, in
    /// increasing order of layout (each checked by the part report's reader).
    pub classes: Vec<(Layout, usize)>,
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
    #[error("{} of {total} parts have no result yet: {} (by rank, as Slurm array tasks count them: --array={})", .missing.len(), list(.missing), array_syntax(.ranks))]
    Missing {
        missing: Vec<usize>,
        /// The same parts by rank (their place in the claim order), sorted.
        ranks: Vec<usize>,
        total: usize,
    },
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
    /// A part that found nothing proves only that its subtree holds nothing before its bound;
    /// here that bound comes before the answer, so the answer is not proven.
    #[error("board {board}: part {part} proves only that its subtree holds no layout of {}, short of the answer ({}): a layout before the answer is not ruled out there (the result was changed, or belongs to another run)", bound_text(*.proved), answer_text(*.answer))]
    Unproven {
        board: Board,
        part: usize,
        proved: (usize, u64),
        answer: (usize, u64),
    },
    /// The plan's parts do not cover the board's search tree.
    #[error("board {board}: the plan leaves out the subtree {path}, which the bounds do not rule out (the plan was changed)")]
    Uncovered { board: Board, path: String },
    #[error("board {board}: parts {first} and {second} overlap (one lies inside the other; the plan was changed)")]
    Overlap {
        board: Board,
        first: usize,
        second: usize,
    },
    #[error("board {board}: the counts do not add up: {what}")]
    BadCount { board: Board, what: String },
    /// A number of a part's result (`field`, as the file spells it) that takes the sum over the
    /// board's parts beyond what can be stored.
    #[error("board {board}: {file}: its {field} takes the sum over the board's parts beyond what can be stored (the result was changed)")]
    Overflow {
        board: Board,
        file: String,
        field: &'static str,
    },
    #[error("the plan has no board {0}")]
    NoBoard(Board),
    /// A merged layout that fails the independent checker (the checker's words).
    #[error("{0}")]
    Check(String),
}

/// What a bound `(queens, rank)` rules out, in words. Rank 0 comes before every part (the start
/// layout's place), so `(q, 0)` rules out fewer than q queens only.
fn bound_text((queens, rank): (usize, u64)) -> String {
    if rank == 0 {
        format!("fewer than {}", queens_text(queens))
    } else {
        format!(
            "fewer than {}, nor of {queens} before rank {rank}",
            queens_text(queens)
        )
    }
}

/// The answer `(queens, rank)` in words.
fn answer_text((queens, rank): (usize, u64)) -> String {
    if rank == 0 {
        format!("{}, the start layout", queens_text(queens))
    } else {
        format!("{} at rank {rank}", queens_text(queens))
    }
}

fn queens_text(queens: usize) -> String {
    if queens == 1 {
        "1 queen".into()
    } else {
        format!("{queens} queens")
    }
}

impl BoardAnswer {
    /// The answer as `solve` (or `count`) prints it, with the parts it took: what `merge`
    /// prints for a one-board plan.
    pub fn text(&self, symbol: &str) -> String {
        let answer = self;
        match answer.count {
        None => format!(
            "{symbol}({}) = {}\n{}layout: {}\n({} nodes in {}, {:.3} s, {:.3} CPU s, {})\n\n",
            answer.board,
            answer.layout.len(),
            answer.layout.diagram(),
            answer.layout.to_squares_string(),
            answer.nodes,
            parts_text(answer.parts),
            answer.seconds,
            answer.cpu_seconds,
            threads_text(answer.threads)
        ),
        Some((queens, layouts, classes)) => format!(
            "{}{symbol}({}) = {queens}\nlayouts: {layouts}\nclasses: {classes} (under {})\n({} nodes in {}, {:.3} s, {:.3} CPU s, {})\n\n",
            answer
                .classes
                .iter()
                .map(|(layout, size)| format!("{}  (class of {size})\n", layout.to_squares_string()))
                .collect::<String>(),
            answer.board,
            answer.board.symmetry_group(),
            answer.nodes,
            parts_text(answer.parts),
            answer.seconds,
            answer.cpu_seconds,
            threads_text(answer.threads)
        ),
    }
    }
}

impl Merged {
    /// A table plan's answer as the rows `table` writes: in the table's order, a board taken from
    /// its transpose's search with nodes and seconds 0, as `table` does; every layout passes the
    /// independent checker again.
    pub fn table_rows(
        &self,
        problem: Problem,
        axes: &TableAxes,
    ) -> Result<Vec<TableRow>, MergeError> {
        let mut rows = Vec::new();
        let mut seen: Vec<Board> = Vec::new();
        for board in axes.boards() {
            let flip = board.rows() > board.cols();
            let searched = if flip { board.transposed() } else { board };
            let answer = self
                .boards
                .iter()
                .find(|a| a.board == searched)
                .ok_or(MergeError::NoBoard(searched))?;
            let first = !seen.contains(&searched);
            seen.push(searched);
            let layout = if flip {
                answer.layout.transposed()
            } else {
                answer.layout.clone()
            };
            problem
                .check(&layout, layout.len())
                .map_err(|e| MergeError::Check(e.to_string()))?;
            rows.push(TableRow {
                board,
                problem,
                layout,
                counts: None,
                lower: None,
                nodes: if first { answer.nodes } else { 0 },
                seconds: if first { answer.seconds } else { 0.0 },
                threads: answer.threads,
            });
        }
        Ok(rows)
    }
}

/// Runs of consecutive part numbers (`parts` sorted), each as `a-b` or `a`.
fn runs(parts: &[usize]) -> impl Iterator<Item = String> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = *parts.get(i)?;
        let mut j = i;
        while j + 1 < parts.len() && parts[j + 1] == parts[j] + 1 {
            j += 1;
        }
        i = j + 1;
        Some(if parts[j] > start {
            format!("{start}-{}", parts[j])
        } else {
            start.to_string()
        })
    })
}

/// Part numbers (sorted) in the syntax of a Slurm job array, whole: `0,17,40-45`.
pub fn array_syntax(parts: &[usize]) -> String {
    runs(parts).collect::<Vec<_>>().join(",")
}

/// Why a list of part numbers does not read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PartListError {
    #[error("'{0}' is not a part number")]
    NotANumber(String),
    #[error("the range {0}-{1} is empty")]
    EmptyRange(usize, usize),
    #[error("part {part} does not exist: the plan has parts 0..{}", .total.saturating_sub(1))]
    NoSuchPart { part: usize, total: usize },
}

/// Part numbers written as [`array_syntax`] writes them (`3,17,40-45`), sorted, each once; every
/// number below `total`.
pub fn parse_array_syntax(text: &str, total: usize) -> Result<Vec<usize>, PartListError> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| PartListError::NotANumber(t.to_string()))
    };
    let mut parts = Vec::new();
    for item in text.split(',') {
        let (a, b) = match item.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(item)?, number(item)?),
        };
        if a > b {
            return Err(PartListError::EmptyRange(a, b));
        }
        if b >= total {
            return Err(PartListError::NoSuchPart { part: b, total });
        }
        parts.extend(a..=b);
    }
    parts.sort_unstable();
    parts.dedup();
    Ok(parts)
}

/// Part numbers as a short list: `3, 7, 12-40`, with at most 20 runs and `…` for the rest.
pub(crate) fn list(parts: &[usize]) -> String {
    let mut out: Vec<String> = runs(parts).take(21).collect();
    if out.len() == 21 {
        out[20] = "…".into();
    }
    out.join(", ")
}

/// Merge checked reports (`reports[k]` for part k) into every board's answer. The answer does not
/// depend on where, when or in which order the parts ran.
///
/// The merge certifies what it prints (see `certify`): the parts must cover each board's search
/// tree, and every part's claim must reach the answer. Reports are only what their files say, so
/// this is checked here rather than trusted.
pub fn merge(plan: &LoadedPlan, reports: &[Option<PartReport>]) -> Result<Merged, MergeError> {
    let missing: Vec<usize> = (0..plan.parts())
        .filter(|&k| reports.get(k).is_none_or(|r| r.is_none()))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            ranks: plan.ranks_of(&missing),
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
            rank: 0,
            count: None,
            classes: Vec::new(),
            nodes: 0,
            seconds: 0.0,
            cpu_seconds: 0.0,
            parts: mine.len(),
            threads: 0,
        };
        // The part whose number takes a sum past what can be stored is named with the field:
        // only an edited result holds such a number (2^64 nodes is centuries of search).
        let too_large = |part: usize, field: &'static str| MergeError::Overflow {
            board,
            file: format!("{RESULTS}/{}", result_name(part)),
            field,
        };
        let mut best = (answer.layout.len(), 0u64);
        for (k, r) in &mine {
            answer.nodes = answer
                .nodes
                .checked_add(r.nodes)
                .ok_or_else(|| too_large(*k, "nodes"))?;
            answer.seconds += r.seconds;
            if !answer.seconds.is_finite() {
                return Err(too_large(*k, "seconds"));
            }
            answer.cpu_seconds += r.cpu_seconds;
            if !answer.cpu_seconds.is_finite() {
                return Err(too_large(*k, "cpu_seconds"));
            }
            answer.threads = answer.threads.max(r.threads);
            if let Some(f) = &r.found {
                if (f.queens, f.rank) < best {
                    best = (f.queens, f.rank);
                    answer.layout = Layout::parse(board, &f.layout).expect("checked reports");
                }
            }
        }
        answer.rank = best.1;
        certify(plan, b, &mine, best)?;
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
                layouts = layouts
                    .checked_add(c.layouts)
                    .ok_or_else(|| too_large(*k, "count.layouts"))?;
                classes = classes
                    .checked_add(c.classes)
                    .ok_or_else(|| too_large(*k, "count.classes"))?;
                for class in &c.representatives {
                    let layout = Layout::parse(board, &class.layout).expect("checked reports");
                    answer.classes.push((layout, class.size));
                }
            }
            answer
                .classes
                .sort_by(|a, b| a.0.queens().cmp(b.0.queens()));
            // Each class is counted in exactly one part: one listed twice means two parts
            // counted it, so the parts overlap (or a result was edited).
            if let Some(w) = answer.classes.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(MergeError::BadCount {
                    board,
                    what: format!(
                        "the class of {} is counted by two parts",
                        w[0].0.to_squares_string()
                    ),
                });
            }
            if layouts == 0 {
                return Err(MergeError::NoLayout { board, queens });
            }
            if let Some(what) = count_contradiction(board, layouts, classes) {
                return Err(MergeError::BadCount { board, what });
            }
            answer.count = Some((queens, layouts, classes));
        }
        boards.push(answer);
    }
    Ok(Merged { boards })
}

/// Why `layouts` layouts cannot fall into `classes` classes under the board's symmetries, if
/// they cannot: every class holds at least one layout and at most one per symmetry.
pub fn count_contradiction(board: Board, layouts: u64, classes: u64) -> Option<String> {
    let group = board.symmetries().len() as u64;
    if classes > layouts {
        return Some(format!("{classes} classes of only {layouts} layouts"));
    }
    if layouts > classes.saturating_mul(group) {
        return Some(format!(
            "{layouts} layouts in {classes} classes of at most {group} layouts each"
        ));
    }
    None
}

/// The theorem the merge relies on, checked for board `b` whose best known layout is `answer`
/// (queens, rank), the least of the start layout (rank 0) and every layout a part found.
///
/// Order layouts by (queens, rank): fewer queens first, then earlier in the search. A part that
/// found nothing proves that no layout of its subtree comes before its bound (what it had to
/// beat); a part that found a layout proves that none comes before that layout (it kept
/// searching with it as the bound). A subtree the plan leaves out is ruled out by the bounds at
/// its top, for the start layout. If the parts and the left-out subtrees partition the tree and
/// every such proof reaches at least `answer`, no layout comes before `answer`: its number of
/// queens is the minimum, and its layout is the first optimal one in search order.
///
/// So a report that claims a bound short of the answer (edited, or from a run with a worse start)
/// is refused, naming the part, as is a plan whose parts overlap or leave a live subtree out.
fn certify(
    plan: &LoadedPlan,
    b: usize,
    mine: &[(usize, &PartReport)],
    answer: (usize, u64),
) -> Result<(), MergeError> {
    let board = plan.boards[b];
    let space = plan.space(b);
    let goal = match plan.plan.goal {
        PlanGoal::Minimum => Goal::Improve(Incumbent::start(plan.starts[b].clone())),
        PlanGoal::Count => Goal::Count {
            queens: plan.plan.boards[b]
                .count_queens
                .expect("count plans name it"),
            representatives: false,
        },
    };
    for (k, r) in mine {
        if plan.plan.goal == PlanGoal::Minimum && r.found.is_none() {
            let proved = (r.bound_queens, r.bound_rank);
            if proved < answer {
                return Err(MergeError::Unproven {
                    board,
                    part: *k,
                    proved,
                    answer,
                });
            }
        }
    }
    let parts: HashMap<&PartPath, usize> =
        mine.iter().map(|(k, _)| (&plan.paths[*k], *k)).collect();
    // Every proper prefix of a part's path is a cut node, which the walk below descends through;
    // a cut node that is a part itself would count its subtree twice.
    let mut inner: HashMap<PartPath, usize> = HashMap::new();
    for (k, _) in mine {
        let path = &plan.paths[*k];
        for depth in 0..path.depth() {
            let up = PartPath::from_indices(&path.indices()[..depth]);
            if let Some(&first) = parts.get(&up) {
                return Err(MergeError::Overlap {
                    board,
                    first,
                    second: *k,
                });
            }
            inner.entry(up).or_insert(*k);
        }
    }
    let mut reached = 0usize;
    let mut stack = vec![PartPath::whole()];
    while let Some(path) = stack.pop() {
        if parts.contains_key(&path) {
            reached += 1;
        } else if inner.contains_key(&path) {
            let children = space.children(&path).ok_or_else(|| MergeError::Uncovered {
                board,
                path: path.to_string(),
            })?;
            stack.extend(children);
        } else if space.is_hopeless(&path, &goal) != Some(true) {
            return Err(MergeError::Uncovered {
                board,
                path: path.to_string(),
            });
        }
    }
    if reached != mine.len() {
        return Err(MergeError::Plan(format!(
            "board {board}: {} of its parts lie outside its search tree",
            mine.len() - reached
        )));
    }
    Ok(())
}

/// Parts still to run, or a count that contradicts the plan's size, are failures (run them, plan again); results or a plan that do not prove what they claim are refused like a foreign file.
impl Kind for PartListError {
    fn kind(&self) -> ErrorKind {
        match self {
            PartListError::NotANumber(_)
            | PartListError::EmptyRange(..)
            | PartListError::NoSuchPart { .. } => ErrorKind::Refusal,
        }
    }
}

impl Kind for MergeError {
    fn kind(&self) -> ErrorKind {
        match self {
            MergeError::Missing { .. }
            | MergeError::NotMinimum { .. }
            | MergeError::NoLayout { .. }
            | MergeError::NoBoard(_) => ErrorKind::Failure,
            MergeError::Plan(_)
            | MergeError::Unproven { .. }
            | MergeError::Uncovered { .. }
            | MergeError::Overlap { .. }
            | MergeError::BadCount { .. }
            | MergeError::Overflow { .. }
            | MergeError::Check(_) => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_lists_read_back_as_array_syntax_writes_them() {
        let parts = vec![0, 3, 4, 5, 9, 17, 18];
        assert_eq!(array_syntax(&parts), "0,3-5,9,17-18");
        assert_eq!(parse_array_syntax(&array_syntax(&parts), 20), Ok(parts));
        assert_eq!(parse_array_syntax("5, 1-2,2", 6), Ok(vec![1, 2, 5]));
        assert_eq!(
            parse_array_syntax("0-2,x", 3).map_err(|e| e.to_string()),
            Err("'x' is not a part number".to_string())
        );
        assert_eq!(
            parse_array_syntax("4-3", 9).map_err(|e| e.to_string()),
            Err("the range 4-3 is empty".to_string())
        );
        // The first item past the plan is named, before a later item that does not read.
        assert_eq!(
            parse_array_syntax("0-2,x", 2).map_err(|e| e.to_string()),
            Err("part 2 does not exist: the plan has parts 0..1".to_string())
        );
        assert_eq!(array_syntax(&[]), "");
    }

    #[test]
    fn short_lists_stop_after_twenty_runs() {
        assert_eq!(list(&[0, 3, 4, 5, 9]), "0, 3-5, 9");
        let twenty: Vec<usize> = (0..20).map(|k| 2 * k).collect();
        assert_eq!(list(&twenty).split(", ").count(), 20);
        assert!(!list(&twenty).contains('…'));
        let more: Vec<usize> = (0..21).map(|k| 2 * k).collect();
        let shown = list(&more);
        assert!(shown.starts_with("0, 2, 4,"), "{shown}");
        assert!(shown.ends_with("36, 38, …"), "{shown}");
    }
}
