//! The fixed workloads of `queendom bench`: searches whose tree, and so whose amount of work, is
//! the same on any number of threads and at any timing, so that wall time measures the machine.
//!
//! A domination workload is a proof that no layout below the optimum exists: with nothing to find,
//! the bound never moves and every worker explores exactly the same tree as the sequential search.
//! An N-queens workload counts every placement, a fixed tree too.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::nqueens::{count_placements_traced, NQueensError};
use crate::search::{search_at_most, Problem, SearchError, SearchOptions};
use crate::trace::Trace;

/// One fixed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Prove that no layout of `queens` queens solves `problem` on a `rows`×`cols` board.
    NoLayout {
        rows: usize,
        cols: usize,
        problem: Problem,
        queens: usize,
    },
    /// Count every placement of n non-attacking queens on the n×n board.
    CountPlacements { n: usize },
}

/// What a workload did: search nodes (domination) or placements counted (N-queens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Work {
    pub nodes: u64,
    pub placements: u64,
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // The fields in the order the sentence names them.
            Workload::NoLayout {
                queens,
                problem,
                rows,
                cols,
            } => write!(f, "no {queens} queens {} {rows}x{cols}", problem.verb()),
            Workload::CountPlacements { n } => write!(f, "count the {n}-queens placements"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    NQueens(#[from] NQueensError),
    /// The proof found a layout: the workload is misdefined, or the search is wrong.
    #[error("workload '{0}' found a layout, so it is not a proof")]
    NotAProof(String),
}

impl Workload {
    /// Run on the current rayon pool.
    pub fn run(&self) -> Result<Work, WorkloadError> {
        self.run_traced(None)
    }

    /// Run on the current rayon pool, keeping a record of every task in `trace`.
    pub fn run_traced(&self, trace: Option<&Arc<Trace>>) -> Result<Work, WorkloadError> {
        match *self {
            Workload::NoLayout {
                rows,
                cols,
                problem,
                queens,
            } => {
                let board = Board::new(rows, cols).expect("workload boards are valid");
                // Split at every thread count, one thread included: the work is the same tree.
                let options = SearchOptions {
                    trace: trace.cloned(),
                    ..SearchOptions::parallel()
                };
                let out = search_at_most(board, problem, queens, &options)?;
                if out.layout.is_some() {
                    return Err(WorkloadError::NotAProof(self.to_string()));
                }
                Ok(Work {
                    nodes: out.nodes,
                    placements: 0,
                })
            }
            Workload::CountPlacements { n } => Ok(Work {
                nodes: 0,
                placements: count_placements_traced(n, true, trace.map(|t| &**t))?.solutions,
            }),
        }
    }
}

/// The standard benchmark: a few seconds of one core each.
pub fn standard() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 14,
            cols: 14,
            problem: Problem::Domination,
            queens: 7,
        },
        Workload::NoLayout {
            rows: 13,
            cols: 15,
            problem: Problem::Domination,
            queens: 7,
        },
        Workload::NoLayout {
            rows: 16,
            cols: 16,
            problem: Problem::IndependentDomination,
            queens: 8,
        },
        Workload::CountPlacements { n: 16 },
    ]
}

/// Work for machines with many threads: about 20 times the standard work (on the reference
/// machine, about 3 minutes of one core: 3 s on 64 threads), made of the proofs that no 8 queens
/// dominate 15×15 or 18×18 and the 18-queens count, searches whose splits keep 256 threads busy
/// (docs/scaling.md, "Benchmark size").
pub fn large() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 15,
            cols: 15,
            problem: Problem::Domination,
            queens: 8,
        },
        Workload::NoLayout {
            rows: 18,
            cols: 18,
            problem: Problem::Domination,
            queens: 8,
        },
        Workload::CountPlacements { n: 18 },
    ]
}

/// The work sizes of `queendom bench`, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkSize {
    Quick,
    Standard,
    Large,
}

// CPU seconds on one core of the reference machine: quick and standard from `queendom bench`
// with one thread, large from the sum of the CPU seconds of its traced tasks (docs/scaling.md,
// "Benchmark size").
const REFERENCE_QUICK: f64 = 0.5;
const REFERENCE_STANDARD: f64 = 8.4;
const REFERENCE_LARGE: f64 = 190.0;

/// The run at the highest thread count should last at least this long (wall seconds, every
/// thread fully used) for its time to be measured well.
pub const MIN_WALL_SECONDS: f64 = 3.0;

impl WorkSize {
    pub fn name(self) -> &'static str {
        match self {
            WorkSize::Quick => "quick",
            WorkSize::Standard => "standard",
            WorkSize::Large => "large",
        }
    }

    pub fn workloads(self) -> Vec<Workload> {
        match self {
            WorkSize::Quick => quick(),
            WorkSize::Standard => standard(),
            WorkSize::Large => large(),
        }
    }

    /// CPU seconds of the work on one core of the reference machine (a 2-core Intel Xeon, the
    /// project's own), measured with `queendom bench --work SIZE --max-threads 1`.
    pub fn reference_cpu_seconds(self) -> f64 {
        match self {
            WorkSize::Quick => REFERENCE_QUICK,
            WorkSize::Standard => REFERENCE_STANDARD,
            WorkSize::Large => REFERENCE_LARGE,
        }
    }

    /// The work for a machine whose highest thread count is `threads`: the standard work if it
    /// lasts at least [`MIN_WALL_SECONDS`] on that many threads, else the large work.
    pub fn for_threads(threads: usize) -> WorkSize {
        if REFERENCE_STANDARD / threads.max(1) as f64 >= MIN_WALL_SECONDS {
            WorkSize::Standard
        } else {
            WorkSize::Large
        }
    }
}

/// A quick check of the same kinds of work, well under a second of one core each.
pub fn quick() -> Vec<Workload> {
    vec![
        Workload::NoLayout {
            rows: 13,
            cols: 13,
            problem: Problem::Domination,
            queens: 6,
        },
        Workload::NoLayout {
            rows: 14,
            cols: 14,
            problem: Problem::IndependentDomination,
            queens: 7,
        },
        Workload::CountPlacements { n: 13 },
    ]
}

/// Why a benchmark stopped.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Pool(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Workload(#[from] WorkloadError),
    /// Two runs did different work: the workloads are not fixed.
    #[error("the work changed between runs ({first:?} then {then:?}): the workload is not fixed")]
    Changed { first: Work, then: Work },
    #[error("{0}")]
    Csv(String),
}

/// The workloads run once at one thread count: wall seconds and the work done.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub threads: usize,
    /// Wall seconds of the whole workload.
    pub seconds: f64,
    /// Wall seconds of the domination proofs and of the N-queens counts, within `seconds`.
    pub search_seconds: f64,
    pub count_seconds: f64,
    pub work: Work,
}

impl Measurement {
    pub fn nodes_per_second(&self) -> f64 {
        self.work.nodes as f64 / self.search_seconds
    }

    pub fn placements_per_second(&self) -> f64 {
        self.work.placements as f64 / self.count_seconds
    }

    /// Run `workloads` once on a pool of `threads` threads.
    pub fn of(
        workloads: &[Workload],
        threads: usize,
        trace: Option<&Arc<Trace>>,
    ) -> Result<Measurement, BenchError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let mut m = Measurement {
            threads,
            seconds: 0.0,
            search_seconds: 0.0,
            count_seconds: 0.0,
            work: Work::default(),
        };
        for w in workloads {
            let start = Instant::now();
            let work = pool.install(|| w.run_traced(trace))?;
            let t = start.elapsed().as_secs_f64();
            m.seconds += t;
            match w {
                Workload::NoLayout { .. } => m.search_seconds += t,
                Workload::CountPlacements { .. } => m.count_seconds += t,
            }
            m.work.nodes += work.nodes;
            m.work.placements += work.placements;
        }
        Ok(m)
    }

    /// The table line of this measurement, `base` being the wall seconds of the first.
    pub fn line(&self, base: f64) -> String {
        format!(
            "{:>7}  {:>7.3}  {:>7.2}  {:>9.0}%  {:>9.3e}  {:>12.3e}\n",
            self.threads,
            self.seconds,
            base / self.seconds,
            100.0 * base / self.seconds / self.threads as f64,
            self.nodes_per_second(),
            self.placements_per_second(),
        )
    }
}

/// A benchmark: the same work at every thread count, the median of `runs` runs at each.
pub struct Bench {
    pub workloads: Vec<Workload>,
    pub runs: usize,
    /// The results so far, one per thread count, in the order run.
    pub results: Vec<Measurement>,
}

impl Bench {
    /// Run the workloads `runs` times at `threads` threads (the very first run traced into
    /// `trace`) and keep the median, checking that every run did the same work. Returns the
    /// median's table line.
    pub fn measure(
        &mut self,
        threads: usize,
        trace: Option<&Arc<Trace>>,
    ) -> Result<String, BenchError> {
        let mut runs: Vec<Measurement> = Vec::new();
        for _ in 0..self.runs {
            let traced = trace.filter(|_| self.results.is_empty() && runs.is_empty());
            let m = Measurement::of(&self.workloads, threads, traced)?;
            if let Some(first) = runs.first().or(self.results.first()) {
                if first.work != m.work {
                    return Err(BenchError::Changed {
                        first: first.work,
                        then: m.work,
                    });
                }
            }
            runs.push(m);
        }
        runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let median = runs.swap_remove(runs.len() / 2);
        let line = median.line(self.results.first().unwrap_or(&median).seconds);
        self.results.push(median);
        Ok(line)
    }

    /// The results as CSV: threads,seconds,speedup,efficiency,nodes,nodes_per_second,placements,
    /// placements_per_second,cores,workload,cpu_model.
    pub fn csv(&self, cores: usize, work: &str, model: &str) -> Result<Vec<u8>, BenchError> {
        let csv_error = |e: csv::Error| BenchError::Csv(e.to_string());
        let base = self.results.first().map_or(0.0, |m| m.seconds);
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "threads",
            "seconds",
            "speedup",
            "efficiency",
            "nodes",
            "nodes_per_second",
            "placements",
            "placements_per_second",
            "cores",
            "workload",
            "cpu_model",
        ])
        .map_err(csv_error)?;
        for m in &self.results {
            w.write_record([
                m.threads.to_string(),
                format!("{:.6}", m.seconds),
                format!("{:.4}", base / m.seconds),
                format!("{:.4}", base / m.seconds / m.threads as f64),
                m.work.nodes.to_string(),
                format!("{:.0}", m.nodes_per_second()),
                m.work.placements.to_string(),
                format!("{:.0}", m.placements_per_second()),
                cores.to_string(),
                work.to_string(),
                model.to_string(),
            ])
            .map_err(csv_error)?;
        }
        w.into_inner().map_err(|e| BenchError::Csv(e.to_string()))
    }
}

/// 1, 2, 4, … below `max`, then `max` itself.
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut out: Vec<usize> = std::iter::successors(Some(1usize), |t| Some(t * 2))
        .take_while(|&t| t < max)
        .collect();
    out.push(max);
    out
}

impl Kind for WorkloadError {
    fn kind(&self) -> ErrorKind {
        match self {
            WorkloadError::Search(e) => e.kind(),
            WorkloadError::NQueens(e) => e.kind(),
            WorkloadError::NotAProof(_) => ErrorKind::Failure,
        }
    }
}

impl Kind for BenchError {
    fn kind(&self) -> ErrorKind {
        match self {
            BenchError::Pool(_) | BenchError::Changed { .. } | BenchError::Csv(_) => {
                ErrorKind::Failure
            }
            BenchError::Workload(e) => e.kind(),
        }
    }
}

#[cfg(test)]
mod bench_tests {
    use super::*;

    #[test]
    fn thread_counts_double_up_to_the_highest() {
        assert_eq!(thread_counts(1), vec![1]);
        assert_eq!(thread_counts(2), vec![1, 2]);
        assert_eq!(thread_counts(6), vec![1, 2, 4, 6]);
        assert_eq!(thread_counts(8), vec![1, 2, 4, 8]);
    }
}
