//! Traces of searches: one record per task as it ran (what it searched, which task split it off,
//! the CPU time it spent itself, its nodes, its thread and when it ran), so that the schedule can
//! be replayed on any number of simulated workers (`scripts/scaling.py`).
//!
//! The searches only collect: a [`Trace`] is handed to them through their options, each task
//! appends one record when its own work is done (one lock per task, never per node), and the
//! command line writes the records out. With no trace the searches do nothing more than test an
//! `Option` once per task.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use crate::board::Board;
use crate::problem::Problem;

/// Which search a task belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskKind {
    /// One board's job in a table computed side by side (path: its place in the order the jobs
    /// were started); its children are the board's start and searches, run one after the other.
    Board,
    /// The heuristic that finds the layout a domination search starts from.
    Start,
    /// A part of a γ or i search (path: the indices of the cuts from the root).
    Search(Problem),
    /// A piece of an N-queens count (path: the column of the queen of each row placed).
    NQueens,
}

impl TaskKind {
    pub fn name(self) -> &'static str {
        match self {
            TaskKind::Board => "board",
            TaskKind::Start => "start",
            TaskKind::Search(problem) => problem.name(),
            TaskKind::NQueens => "nqueens",
        }
    }
}

/// How the driver hands a task's children to the rayon pool (the replay splits them the same way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildSplit {
    /// `into_par_iter()` on the children: rayon's adaptive splitter (about twice as many chunks as
    /// threads, split again when stolen), each chunk run in order by one worker.
    Adaptive,
    /// `par_iter().with_max_len(1)`: every child is its own stealable job.
    Each,
    /// A sequential search: the children ran in order on the same thread.
    InOrder,
}

impl ChildSplit {
    pub fn name(self) -> &'static str {
        match self {
            ChildSplit::Adaptive => "adaptive",
            ChildSplit::Each => "each",
            ChildSplit::InOrder => "in-order",
        }
    }
}

/// One task as it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    /// Numbered from 0 in the order tasks started, unique within the trace.
    pub id: u64,
    /// The task that split this one off, or the board job a search ran in; `None` for the first
    /// task of a search outside a board job (such searches ran one after the other, in the order
    /// of their first tasks) and for board jobs (those of one table ran side by side).
    pub parent: Option<u64>,
    pub kind: TaskKind,
    pub board: Board,
    pub path: Vec<u16>,
    /// How this task's children were handed to the pool, if it had any.
    pub children: Option<ChildSplit>,
    /// CPU seconds of the task itself, not of the tasks split off from it. For a `Start` task,
    /// the CPU of the whole process while it ran (its restarts run on several threads), except in
    /// a board job, where other boards run beside it: there, its thread's.
    pub cpu_seconds: f64,
    pub nodes: u64,
    /// The rayon worker that ran it (`None`: a thread outside the pool).
    pub thread: Option<usize>,
    /// Wall seconds from the creation of the trace to the start and to the end of the task's own
    /// work.
    pub start_seconds: f64,
    pub end_seconds: f64,
}

/// The records of one or more searches, collected from every worker.
#[derive(Debug)]
pub struct Trace {
    epoch: Instant,
    next_id: AtomicU64,
    records: Mutex<Vec<TaskRecord>>,
}

impl Default for Trace {
    fn default() -> Self {
        Trace::new()
    }
}

/// A task under way: taken when it starts, turned into a record when its own work ends.
pub struct Span {
    pub id: u64,
    start: f64,
    cpu: f64,
}

impl Trace {
    pub fn new() -> Trace {
        Trace {
            epoch: Instant::now(),
            next_id: AtomicU64::new(0),
            records: Mutex::new(Vec::new()),
        }
    }

    /// Start a task on this thread.
    pub fn begin(&self) -> Span {
        Span {
            id: self.next_id.fetch_add(1, Relaxed),
            start: self.epoch.elapsed().as_secs_f64(),
            cpu: thread_cpu_seconds(),
        }
    }

    /// Start a task whose CPU is counted over the whole process (work spread over threads).
    pub fn begin_process(&self) -> Span {
        Span {
            cpu: process_cpu_seconds(),
            ..self.begin()
        }
    }

    /// End a task begun with [`Trace::begin`] on this thread and keep its record.
    pub fn end(&self, span: Span, task: TaskIdentity, children: Option<ChildSplit>, nodes: u64) {
        let cpu = thread_cpu_seconds() - span.cpu;
        self.push(span, task, children, nodes, cpu);
    }

    /// End a task begun with [`Trace::begin`] on this thread whose children ran inside it, during
    /// `children_cpu` seconds of this thread's CPU (a table's board job: its start and searches,
    /// and whatever else the thread took on while it waited for them): its own CPU is the rest.
    /// Its start and end offsets span its children's.
    pub fn end_around(
        &self,
        span: Span,
        task: TaskIdentity,
        children: Option<ChildSplit>,
        children_cpu: f64,
    ) {
        let cpu = thread_cpu_seconds() - span.cpu - children_cpu;
        self.push(span, task, children, 0, cpu);
    }

    /// End a task begun with [`Trace::begin_process`].
    pub fn end_process(&self, span: Span, task: TaskIdentity, nodes: u64) {
        let cpu = process_cpu_seconds() - span.cpu;
        self.push(span, task, None, nodes, cpu);
    }

    fn push(
        &self,
        span: Span,
        task: TaskIdentity,
        children: Option<ChildSplit>,
        nodes: u64,
        cpu: f64,
    ) {
        let record = TaskRecord {
            id: span.id,
            parent: task.parent,
            kind: task.kind,
            board: task.board,
            path: task.path,
            children,
            cpu_seconds: cpu.max(0.0),
            nodes,
            thread: rayon::current_thread_index(),
            start_seconds: span.start,
            end_seconds: self.epoch.elapsed().as_secs_f64(),
        };
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record);
    }

    /// The records so far, in the order tasks started.
    pub fn records(&self) -> Vec<TaskRecord> {
        let mut out = self
            .records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        out.sort_by_key(|r| r.id);
        out
    }
}

/// What a task searched and where it came from.
pub struct TaskIdentity {
    pub parent: Option<u64>,
    pub kind: TaskKind,
    pub board: Board,
    pub path: Vec<u16>,
}

fn clock_seconds(clock: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // Sound: `ts` is a valid, writable timespec and both clocks exist on every Linux since 2.6.12;
    // on failure `ts` stays zero, which only makes the reading useless, not unsafe.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// CPU seconds used by the calling thread so far.
pub fn thread_cpu_seconds() -> f64 {
    clock_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU seconds used by the whole process so far.
pub fn process_cpu_seconds() -> f64 {
    clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_back_in_start_order_with_their_parents() {
        let trace = Trace::new();
        let board = Board::new(4, 4).unwrap();
        let outer = trace.begin();
        let inner = trace.begin();
        let outer_id = outer.id;
        trace.end(
            inner,
            TaskIdentity {
                parent: Some(outer_id),
                kind: TaskKind::Search(Problem::Domination),
                board,
                path: vec![0, 1],
            },
            None,
            5,
        );
        trace.end(
            outer,
            TaskIdentity {
                parent: None,
                kind: TaskKind::Search(Problem::Domination),
                board,
                path: vec![0],
            },
            Some(ChildSplit::Adaptive),
            1,
        );
        let records = trace.records();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].id, outer_id);
        assert_eq!(records[1].parent, Some(outer_id));
        assert!(records.iter().all(|r| r.end_seconds >= r.start_seconds));
    }

    #[test]
    fn the_thread_clock_counts_work() {
        let before = thread_cpu_seconds();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_cpu_seconds() > before);
    }
}
