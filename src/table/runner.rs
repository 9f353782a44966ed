//! Computing a table's boards: each board once (a board and its transpose share one search), one
//! after the other or side by side as jobs of one rayon pool, largest first.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::plan::checkpoint::{
    solve_checkpointed, CheckpointError, CheckpointProver, CHECKPOINT_PARTS,
};
use crate::row::{LayoutTotals, RowKind, TableRow};
use crate::search::{
    bracket, bracket_with, count, solve, Bracket, Phase, Problem, SearchError, SearchOptions,
};
use crate::trace::{thread_cpu_seconds, ChildSplit, TaskIdentity, TaskKind};

/// What the search of one board gives a table: the optimal layout, the counts when the table
/// counts, and the nodes it took.
#[derive(Debug, Clone)]
pub struct Searched {
    pub layout: Layout,
    pub counts: Option<LayoutTotals>,
    /// In tables with bounds: the proven lower bound (the layout is the upper).
    pub lower: Option<usize>,
    pub nodes: u64,
}

/// What a side-by-side run ([`TableRunner::compute_side_by_side`]) tells its caller as it goes,
/// from whichever worker it happens on, one call at a time.
#[derive(Debug)]
pub enum TableEvent {
    /// The search of this board (as searched: no more rows than columns) began.
    Started(Board),
    /// A board is done: the rows it gives the table (the board as written in the table, its
    /// transpose, or both, in the table's order), each checked on its board as written.
    Finished {
        searched: Board,
        rows: Vec<TableRow>,
    },
}

/// Why a side-by-side run stopped before every board was done.
#[derive(Debug, Error)]
pub enum SideBySideError<E> {
    /// The cancel flag was raised: the boards in progress were dropped, every finished board
    /// was reported.
    #[error("search cancelled")]
    Cancelled,
    /// A board's search failed (an internal error); no board was started after it.
    #[error("board {board}: {error}")]
    Search { board: Board, error: SearchError },
    /// The caller's event handler failed; no board was started after it.
    #[error("{0}")]
    Caller(E),
}

/// The order in which a side-by-side run starts its searches: the estimated cost, largest first.
/// The area: a search's tree grows steeply with the squares to cover. The replays of the tables
/// measured (`scripts/scaling.py --order`, docs/scaling.md) predict the same for any order, since idle
/// workers share a long search whenever it starts; largest first hedges against what the replay
/// leaves out (waits at joins, a search that cannot be split).
pub fn estimated_cost(board: Board) -> usize {
    board.squares()
}

/// Told as the exact proof of a board starts, with the nodes it is estimated to take (see
/// [`Phase::Proving`]), so that a caller can name the boards that will take long before they do.
pub type ProofEstimate = Arc<dyn Fn(Board, f64) + Send + Sync>;

/// Boards of fewer squares are not estimated for a [`ProofEstimate`]: the estimate costs tens of
/// milliseconds, and the proofs there take seconds at most (γ(Q_14), 196 squares, 0.5 M nodes).
pub const ESTIMATED_MIN_SQUARES: usize = 200;

/// Computes the boards of a table, searching each board or its transpose only once: one after the
/// other, each on all threads of the current pool ([`TableRunner::compute`]), or all side by side
/// ([`TableRunner::compute_side_by_side`]).
pub struct TableRunner {
    problem: Problem,
    kind: RowKind,
    options: SearchOptions,
    threads: usize,
    /// Results already found, by board as searched (rows ≤ cols); their nodes are not used.
    done: HashMap<Board, Searched>,
    /// In tables with bounds: the wall time each board's search may take.
    budget: Option<Duration>,
    /// In tables with bounds: the bounds of earlier runs that did not meet, by board as searched,
    /// to start from.
    known: HashMap<Board, Bracket>,
    start_order: StartOrder,
    proof_estimate: Option<ProofEstimate>,
}

/// The order in which [`TableRunner::compute_side_by_side`] starts its searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StartOrder {
    /// Decreasing [`estimated_cost`]: the longest searches do not start last. For a file, whose
    /// rows may arrive in any order.
    #[default]
    LargestFirst,
    /// The table's order: rows written in the table's order (standard output, a pipe) then flow
    /// from the first second instead of waiting behind the largest board. The replays of
    /// docs/scaling.md predict the same wall time for any order, since idle workers share the
    /// searches in progress; docs/performance.md has the measured difference.
    TableOrder,
}

impl TableRunner {
    pub fn new(problem: Problem, options: SearchOptions, threads: usize) -> TableRunner {
        TableRunner::of_kind(RowKind::Optimum, problem, options, threads)
    }

    /// A runner for rows of `kind`: with [`RowKind::Count`], every board's minimum layouts are
    /// counted too (see [`crate::search::count`]).
    pub fn of_kind(
        kind: RowKind,
        problem: Problem,
        options: SearchOptions,
        threads: usize,
    ) -> TableRunner {
        TableRunner {
            problem,
            kind,
            options,
            threads,
            done: HashMap::new(),
            budget: None,
            known: HashMap::new(),
            start_order: StartOrder::default(),
            proof_estimate: None,
        }
    }

    /// Give each board's search at most `budget` of wall time (tables with bounds,
    /// [`RowKind::Bounds`]): see [`bracket`].
    pub fn set_budget(&mut self, budget: Duration) {
        self.budget = Some(budget);
    }

    /// Tell `listener` the estimated nodes of each exact proof as it starts (tables of the
    /// optimum only, boards of at least [`ESTIMATED_MIN_SQUARES`] squares).
    pub fn set_proof_estimate(&mut self, listener: ProofEstimate) {
        self.proof_estimate = Some(listener);
    }

    /// `options` for the search of `searched`, with the proof's estimate told to the listener.
    fn options_for(&self, searched: Board, options: SearchOptions) -> SearchOptions {
        let listener = match &self.proof_estimate {
            Some(l) if self.kind == RowKind::Optimum => l.clone(),
            _ => return options,
        };
        if searched.squares() < ESTIMATED_MIN_SQUARES {
            return options;
        }
        let earlier = options.phase.clone();
        SearchOptions {
            phase: Some(Arc::new(move |phase| {
                if let Some(earlier) = &earlier {
                    earlier(phase);
                }
                if let Phase::Proving {
                    estimated_nodes, ..
                } = phase
                {
                    listener(searched, estimated_nodes);
                }
            })),
            ..options
        }
    }

    /// Start side-by-side searches in this order (default: largest first).
    pub fn set_start_order(&mut self, order: StartOrder) {
        self.start_order = order;
    }

    /// Remember a layout known from elsewhere (e.g. a row kept from an earlier run), so that its
    /// transpose is not searched again. The caller has checked it.
    pub fn remember(&mut self, row: &TableRow) {
        let layout = canonical(&row.layout);
        let board = layout.board();
        if !row.is_proven() {
            // Not done: the bounds to start from (the tightest, if a board and its transpose
            // were both kept).
            let bracket = Bracket {
                lower: row.lower_bound(),
                layout,
                nodes: 0,
            };
            let keep = self
                .known
                .get(&board)
                .is_none_or(|k| bracket.lower >= k.lower && bracket.upper() <= k.upper());
            if keep {
                self.known.insert(board, bracket);
            }
            return;
        }
        self.done.entry(board).or_insert(Searched {
            layout,
            counts: row.counts,
            lower: row.lower,
            nodes: 0,
        });
    }

    /// The options its searches run with.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The row for `board`: searched, or taken from its transpose if that was done before.
    pub fn compute(&mut self, board: Board) -> Result<TableRow, SearchError> {
        let (problem, kind) = (self.problem, self.kind);
        let options = self.options_for(as_searched(board), self.options.clone());
        let known = self.known.get(&as_searched(board)).cloned();
        let budget = self.budget;
        self.compute_with(board, |searched| {
            search(kind, problem, budget, known.as_ref(), searched, &options)
        })
    }

    /// Compute every board of `boards` (in a table's order) side by side in the current rayon
    /// pool: each distinct search (a board and its transpose are one) is one job of the pool, and
    /// its search is the parallel driver as in [`TableRunner::compute`], nested. Boards whose
    /// result is already known (their transpose was done, or [`TableRunner::remember`]ed) are
    /// reported first, without a search. The jobs start in the runner's [`StartOrder`] (by default
    /// decreasing [`estimated_cost`], the table's order on ties, so the longest searches do not
    /// start last); each board is reported
    /// through `on_event` as it finishes, so rows come in any order. The rows are those
    /// [`TableRunner::compute`] gives, whatever the threads: a layout is the first optimal one in
    /// the search's fixed order. A row's `seconds` are the wall seconds of its board's search
    /// while it shared the pool with the others.
    ///
    /// On cancellation (the options' cancel flag), the boards in progress are dropped, no board
    /// starts, and every board finished before is reported. After an internal error, no further
    /// board starts and the boards in progress finish and are reported; after an error of
    /// `on_event`, it is not called again. A trace gets one `board` task per job (path: its
    /// place in the start order), under which the board's start and searches hang.
    pub fn compute_side_by_side<E: Send>(
        &mut self,
        boards: &[Board],
        mut on_event: impl FnMut(TableEvent) -> Result<(), E> + Send,
    ) -> Result<(), SideBySideError<E>> {
        let mut jobs: Vec<(Board, Vec<Board>)> = Vec::new();
        let mut job_of: HashMap<Board, usize> = HashMap::new();
        for &board in boards {
            let searched = as_searched(board);
            if let Some(done) = self.done.get(&searched) {
                let row = self
                    .row(board, done, 0, 0.0)
                    .map_err(|error| SideBySideError::Search { board, error })?;
                let rows = vec![row];
                on_event(TableEvent::Finished { searched, rows })
                    .map_err(SideBySideError::Caller)?;
                continue;
            }
            let k = *job_of.entry(searched).or_insert_with(|| {
                jobs.push((searched, Vec::new()));
                jobs.len() - 1
            });
            jobs[k].1.push(board);
        }
        if self.start_order == StartOrder::LargestFirst {
            // Stable: boards of the same cost start in the table's order.
            jobs.sort_by_key(|(searched, _)| Reverse(estimated_cost(*searched)));
        }

        let stop = AtomicBool::new(false);
        let state = Mutex::new(RunState {
            on_event,
            found: Vec::new(),
            failure: None,
        });
        let this = &*self;
        rayon::scope_fifo(|scope| {
            for (place, (searched, boards)) in jobs.iter().enumerate() {
                let (stop, state) = (&stop, &state);
                scope.spawn_fifo(move |_| {
                    this.run_job(place, *searched, boards, stop, state);
                });
            }
        });

        let state = state.into_inner().unwrap_or_else(|e| e.into_inner());
        for found in state.found {
            self.done.insert(found.layout.board(), found);
        }
        if let Some(failure) = state.failure {
            return Err(failure);
        }
        if self
            .options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Relaxed))
            && jobs
                .iter()
                .any(|(searched, _)| !self.done.contains_key(searched))
        {
            return Err(SideBySideError::Cancelled);
        }
        Ok(())
    }

    /// One job of [`TableRunner::compute_side_by_side`]: search `searched` and report the rows of
    /// `boards` (the table's boards it answers, in the table's order).
    fn run_job<E, F: FnMut(TableEvent) -> Result<(), E>>(
        &self,
        place: usize,
        searched: Board,
        boards: &[Board],
        stop: &AtomicBool,
        state: &Mutex<RunState<F, E>>,
    ) {
        let cancelled = || {
            self.options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Relaxed))
        };
        if stop.load(Relaxed) || cancelled() {
            return;
        }
        let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
        let fail = |state: &mut RunState<F, E>, failure| {
            stop.store(true, Relaxed);
            state.failure.get_or_insert(failure);
        };
        {
            let mut state = lock();
            if state.failure.is_some() {
                return;
            }
            if let Err(e) = (state.on_event)(TableEvent::Started(searched)) {
                fail(&mut state, SideBySideError::Caller(e));
                return;
            }
        }
        // The job's own work (checks, reporting) is its task's cost; its start and searches are
        // its children, traced as they run.
        let span = self.options.trace.as_ref().map(|t| t.begin());
        let options = SearchOptions {
            trace_parent: span.as_ref().map(|s| s.id),
            ..self.options_for(searched, self.options.clone())
        };
        let search_cpu = thread_cpu_seconds();
        let started = Instant::now();
        let known = self.known.get(&searched);
        let found = search(
            self.kind,
            self.problem,
            self.budget,
            known,
            searched,
            &options,
        );
        let seconds = started.elapsed().as_secs_f64();
        let search_cpu = thread_cpu_seconds() - search_cpu;
        let outcome = found.and_then(|found| {
            self.problem.check(&found.layout, found.layout.len())?;
            let rows = boards
                .iter()
                .enumerate()
                .map(|(k, &board)| {
                    // The first row in the table's order carries the search, as in `compute`.
                    let (nodes, seconds) = if k == 0 {
                        (found.nodes, seconds)
                    } else {
                        (0, 0.0)
                    };
                    self.row(board, &found, nodes, seconds)
                })
                .collect::<Result<Vec<TableRow>, SearchError>>()?;
            Ok((found, rows))
        });
        {
            let mut state = lock();
            match outcome {
                Ok((found, rows)) => {
                    state.found.push(found);
                    let handler_failed = matches!(state.failure, Some(SideBySideError::Caller(_)));
                    if !handler_failed {
                        if let Err(e) = (state.on_event)(TableEvent::Finished { searched, rows }) {
                            fail(&mut state, SideBySideError::Caller(e));
                        }
                    }
                }
                // Dropped: the caller learns of it from the run's outcome.
                Err(SearchError::Cancelled) => {}
                Err(error) => fail(
                    &mut state,
                    SideBySideError::Search {
                        board: searched,
                        error,
                    },
                ),
            }
        }
        if let (Some(trace), Some(span)) = (&self.options.trace, span) {
            let identity = TaskIdentity {
                parent: None,
                kind: TaskKind::Board,
                board: searched,
                path: vec![u16::try_from(place).unwrap_or(u16::MAX)],
            };
            trace.end_around(span, identity, Some(ChildSplit::InOrder), search_cpu);
        }
    }

    /// As [`TableRunner::compute`], the board's search kept in parts under `dir` (see
    /// [`solve_checkpointed`]) and run on `threads` threads, so that an interrupted board resumes
    /// from its parts; `on_part(done, total)` follows them. Not for count tables.
    pub fn compute_checkpointed(
        &mut self,
        board: Board,
        dir: &Path,
        threads: usize,
        on_part: &dyn Fn(usize, usize),
    ) -> Result<TableRow, CheckpointError> {
        let plain = SearchOptions {
            progress: None,
            ..self.options.clone()
        };
        let problem = self.problem;
        if self.kind == RowKind::Bounds {
            // Within the budget: the proof's parts kept under `dir` until the deadline, so that
            // the next run goes on from them.
            let known = self.known.get(&as_searched(board)).cloned();
            let budget = self.budget.unwrap_or(Duration::MAX);
            return self.compute_with(board, |searched| {
                let mut prover = CheckpointProver {
                    dir,
                    threads,
                    on_part,
                    interrupt: plain.cancel.clone(),
                };
                bracket_with(
                    searched,
                    problem,
                    known.as_ref(),
                    budget,
                    &plain,
                    &mut prover,
                )
                .map(|b| Searched {
                    lower: Some(b.lower),
                    layout: b.layout,
                    counts: None,
                    nodes: b.nodes,
                })
            });
        }
        self.compute_with(board, |searched| {
            solve_checkpointed(
                searched,
                problem,
                dir,
                CHECKPOINT_PARTS,
                &plain,
                threads,
                on_part,
            )
            .map(|(layout, nodes)| Searched {
                layout,
                counts: None,
                lower: None,
                nodes,
            })
        })
    }

    /// As [`TableRunner::compute`], with `search` giving the result for the board it is handed
    /// (the board with at most as many rows as columns), e.g. from a checkpointed search. Its
    /// layout is checked like any other, and it must carry counts exactly when the table counts.
    pub fn compute_with<E: From<SearchError>>(
        &mut self,
        board: Board,
        search: impl FnOnce(Board) -> Result<Searched, E>,
    ) -> Result<TableRow, E> {
        let searched = as_searched(board);
        let (found, nodes, seconds) = match self.done.get(&searched) {
            Some(done) => (done.clone(), 0, 0.0),
            None => {
                let start = Instant::now();
                let found = search(searched)?;
                let seconds = start.elapsed().as_secs_f64();
                self.problem
                    .check(&found.layout, found.layout.len())
                    .map_err(SearchError::from)?;
                let nodes = found.nodes;
                self.done.insert(searched, found.clone());
                (found, nodes, seconds)
            }
        };
        Ok(self.row(board, &found, nodes, seconds)?)
    }

    /// The row of `board` from the result of its search (on the board as searched).
    fn row(
        &self,
        board: Board,
        found: &Searched,
        nodes: u64,
        seconds: f64,
    ) -> Result<TableRow, SearchError> {
        let (layout, counts) = (&found.layout, found.counts);
        let searched = layout.board();
        if searched != as_searched(board) {
            return Err(SearchError::Inconsistent(format!(
                "a layout on {searched} was given for {board}"
            )));
        }
        if counts.is_some() != (self.kind == RowKind::Count) {
            return Err(SearchError::Inconsistent(format!(
                "the result for {searched} {} counts, the table {}",
                if counts.is_some() { "has" } else { "has no" },
                if self.kind == RowKind::Count {
                    "counts"
                } else {
                    "does not count"
                }
            )));
        }
        if found.lower.is_some() != (self.kind == RowKind::Bounds) {
            return Err(SearchError::Inconsistent(format!(
                "the result for {searched} and the table disagree on having bounds"
            )));
        }
        let layout = if board == searched {
            layout.clone()
        } else {
            layout.transposed()
        };
        // Checked again on the board as written: a transposition slip must not reach a file.
        self.problem.check(&layout, layout.len())?;
        Ok(TableRow {
            board,
            problem: self.problem,
            layout,
            counts,
            lower: found.lower,
            nodes,
            seconds,
            threads: self.threads,
        })
    }
}

/// What the jobs of a side-by-side run share: the caller's event handler (called under the lock),
/// the results to remember, and the first failure.
struct RunState<F, E> {
    on_event: F,
    found: Vec<Searched>,
    failure: Option<SideBySideError<E>>,
}

/// The search of one board as a table runs it: the optimum, with [`RowKind::Count`] the counts
/// too, with [`RowKind::Bounds`] the bounds within the `budget`, from the `known` ones.
fn search(
    kind: RowKind,
    problem: Problem,
    budget: Option<Duration>,
    known: Option<&Bracket>,
    searched: Board,
    options: &SearchOptions,
) -> Result<Searched, SearchError> {
    match kind {
        RowKind::Optimum => solve(searched, problem, options).map(|s| Searched {
            layout: s.layout,
            counts: None,
            lower: None,
            nodes: s.nodes,
        }),
        RowKind::Count => count(searched, problem, false, options).map(|c| Searched {
            layout: c.layout,
            counts: Some(LayoutTotals {
                layouts: c.layouts,
                classes: c.classes,
            }),
            lower: None,
            nodes: c.nodes,
        }),
        RowKind::Bounds => {
            let budget = budget.unwrap_or(Duration::MAX);
            bracket(searched, problem, known, budget, options).map(|b| Searched {
                lower: Some(b.lower),
                layout: b.layout,
                counts: None,
                nodes: b.nodes,
            })
        }
        RowKind::NQueens | RowKind::NQueensRect => {
            unreachable!("N-queens rows are counted by the nqueens module, not searched")
        }
    }
}

/// The board a table searches for `board`: itself or its transpose, whichever has no more rows
/// than columns.
fn as_searched(board: Board) -> Board {
    if board.rows() > board.cols() {
        board.transposed()
    } else {
        board
    }
}

fn canonical(layout: &Layout) -> Layout {
    if layout.board().rows() > layout.board().cols() {
        layout.transposed()
    } else {
        layout.clone()
    }
}

impl<E: Kind> Kind for SideBySideError<E> {
    fn kind(&self) -> ErrorKind {
        match self {
            SideBySideError::Cancelled => ErrorKind::Failure,
            SideBySideError::Search { error, .. } => error.kind(),
            SideBySideError::Caller(e) => e.kind(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::table::sizes::{boards, SizeList};

    #[test]
    fn transposes_are_searched_once() {
        let mut t = TableRunner::new(Problem::Domination, SearchOptions::sequential(), 1);
        // γ(8x11) = 6 is above the lower bound 5, so the first board is searched.
        let a = t.compute(Board::new(8, 11).unwrap()).unwrap();
        let b = t.compute(Board::new(11, 8).unwrap()).unwrap();
        assert!(a.nodes > 0);
        assert_eq!(b.nodes, 0);
        assert_eq!(b.layout, a.layout.transposed());
    }

    /// Every board of a table side by side in a pool of `threads`: the events, in the order seen.
    fn side_by_side(runner: &mut TableRunner, boards: &[Board], threads: usize) -> Vec<TableEvent> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut events = Vec::new();
        pool.install(|| {
            runner.compute_side_by_side(boards, |event| {
                events.push(event);
                Ok::<(), ()>(())
            })
        })
        .unwrap();
        events
    }

    /// (board, layout, counts, digest) of each row: what must not depend on how it was computed.
    fn values(rows: &[TableRow]) -> Vec<(Board, Layout, Option<LayoutTotals>, String)> {
        rows.iter()
            .map(|r| (r.board, r.layout.clone(), r.counts, r.digest()))
            .collect()
    }

    #[test]
    fn side_by_side_gives_the_rows_of_one_board_after_the_other() {
        // Transposes both ways, squares, boards settled by the lower bound and searched ones.
        let rows = SizeList::parse("1,3-6,8").unwrap();
        let cols = SizeList::parse("2-5,7-8").unwrap();
        let table = boards(&rows, &cols);
        for (kind, problem) in [
            (RowKind::Optimum, Problem::Domination),
            (RowKind::Optimum, Problem::IndependentDomination),
            (RowKind::Count, Problem::Domination),
        ] {
            let mut alone = TableRunner::of_kind(kind, problem, SearchOptions::sequential(), 1);
            let expected: Vec<TableRow> =
                table.iter().map(|&b| alone.compute(b).unwrap()).collect();
            for threads in [1, 2, 3] {
                let mut runner =
                    TableRunner::of_kind(kind, problem, SearchOptions::parallel(), threads);
                let events = side_by_side(&mut runner, &table, threads);
                let mut started = HashSet::new();
                let mut found: HashMap<Board, TableRow> = HashMap::new();
                for event in events {
                    match event {
                        TableEvent::Started(b) => assert!(started.insert(b), "{b} twice"),
                        TableEvent::Finished { searched, rows } => {
                            assert!(started.contains(&searched), "{searched} not started");
                            assert!(searched.rows() <= searched.cols());
                            for row in rows {
                                assert_eq!(as_searched(row.board), searched);
                                assert!(found.insert(row.board, row).is_none());
                            }
                        }
                    }
                }
                let got: Vec<TableRow> = table.iter().map(|b| found.remove(b).unwrap()).collect();
                assert_eq!(
                    values(&got),
                    values(&expected),
                    "{problem} {kind:?} -j {threads}"
                );
                // As one after the other: the first row of a pair in the table's order carries the
                // search, its transpose shows none.
                for (g, e) in got.iter().zip(&expected) {
                    assert_eq!(g.nodes == 0, e.nodes == 0, "{}", g.board);
                }
                assert!(runner.done.len() == started.len());
            }
        }
    }

    #[test]
    fn side_by_side_reports_known_boards_without_a_search() {
        let mut first = TableRunner::new(Problem::Domination, SearchOptions::sequential(), 1);
        let kept = first.compute(Board::new(8, 11).unwrap()).unwrap();
        let mut runner = TableRunner::new(Problem::Domination, SearchOptions::parallel(), 2);
        runner.remember(&kept);
        let table = [Board::new(11, 8).unwrap(), Board::new(3, 5).unwrap()];
        let events = side_by_side(&mut runner, &table, 2);
        // The transpose of the kept row first, at once; then the one search.
        let TableEvent::Finished { searched, rows } = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(*searched, Board::new(8, 11).unwrap());
        assert_eq!(rows[0].layout, kept.layout.transposed());
        assert_eq!(rows[0].nodes, 0);
        assert!(matches!(events[1], TableEvent::Started(b) if b == Board::new(3, 5).unwrap()));
        assert_eq!(events.len(), 3);
    }

    #[test]
    fn searches_start_largest_first_or_in_the_tables_order() {
        let table = [
            Board::new(1, 2).unwrap(),
            Board::new(6, 7).unwrap(),
            Board::new(2, 3).unwrap(),
            Board::new(7, 7).unwrap(),
        ];
        let started = |order: StartOrder| -> Vec<Board> {
            let mut runner = TableRunner::new(Problem::Domination, SearchOptions::parallel(), 1);
            runner.set_start_order(order);
            side_by_side(&mut runner, &table, 1)
                .into_iter()
                .filter_map(|e| match e {
                    TableEvent::Started(b) => Some(b),
                    TableEvent::Finished { .. } => None,
                })
                .collect()
        };
        let b = |r, c| Board::new(r, c).unwrap();
        assert_eq!(
            started(StartOrder::LargestFirst),
            [b(7, 7), b(6, 7), b(2, 3), b(1, 2)]
        );
        assert_eq!(started(StartOrder::TableOrder), table);
    }

    #[test]
    fn a_cancelled_side_by_side_run_starts_nothing_and_says_so() {
        let cancel = std::sync::Arc::new(AtomicBool::new(true));
        let options = SearchOptions {
            cancel: Some(cancel),
            ..SearchOptions::parallel()
        };
        let mut runner = TableRunner::new(Problem::Domination, options, 1);
        let mut events = 0;
        let outcome = runner.compute_side_by_side(&[Board::new(8, 11).unwrap()], |_| {
            events += 1;
            Ok::<(), ()>(())
        });
        assert!(matches!(outcome, Err(SideBySideError::Cancelled)));
        assert_eq!(events, 0);
    }

    #[test]
    fn an_error_of_the_caller_stops_the_run() {
        let mut runner = TableRunner::new(Problem::Domination, SearchOptions::parallel(), 1);
        let table = boards(
            &SizeList::parse("4-6").unwrap(),
            &SizeList::parse("7").unwrap(),
        );
        let mut finished = 0;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let outcome = pool.install(|| {
            runner.compute_side_by_side(&table, |event| match event {
                TableEvent::Started(_) => Ok(()),
                TableEvent::Finished { .. } => {
                    finished += 1;
                    Err("disk full")
                }
            })
        });
        assert!(matches!(outcome, Err(SideBySideError::Caller("disk full"))));
        // On one thread the jobs run one after the other: none starts after the failure.
        assert_eq!(finished, 1);
    }

    #[test]
    fn count_tables_count_a_board_and_its_transpose_once() {
        let mut t = TableRunner::of_kind(
            RowKind::Count,
            Problem::Domination,
            SearchOptions::sequential(),
            1,
        );
        let a = t.compute(Board::new(4, 6).unwrap()).unwrap();
        let b = t.compute(Board::new(6, 4).unwrap()).unwrap();
        let c = count(
            Board::new(6, 4).unwrap(),
            Problem::Domination,
            false,
            &SearchOptions::sequential(),
        )
        .unwrap();
        assert_eq!(a.kind(), RowKind::Count);
        assert!(a.nodes > 0);
        assert_eq!(b.nodes, 0);
        assert_eq!(b.layout, a.layout.transposed());
        let totals = LayoutTotals {
            layouts: c.layouts,
            classes: c.classes,
        };
        assert_eq!(a.counts, Some(totals));
        assert_eq!(b.counts, Some(totals));
        assert_eq!(
            a.layout,
            solve(a.board, Problem::Domination, &SearchOptions::sequential())
                .unwrap()
                .layout
        );
    }
}
