//! The loop `solve` and `count` share: one board after the other on one thread pool, each with
//! its own progress bar, a signal stopping the run with one line saying how far it came.

use std::time::Instant;

use queendom::search::{SearchError, SearchOptions};
use queendom::Board;

use super::progress::BoardProgress;
use super::signals::Interrupt;
use super::{Failure, ThreadArgs};

/// How one command runs its boards.
pub struct BoardLoop<'a> {
    /// What the command is doing to a board, for the interrupted message: `searching`.
    pub verb: &'static str,
    /// Said after the interrupted message of a plain search (none: nothing to add).
    pub hint: Option<&'static str>,
    pub interrupt: &'a Interrupt,
    pub threads: &'a ThreadArgs,
}

/// One board's search as the loop sees it.
pub enum Searched<T> {
    Done(T),
    /// Stopped by a signal; what was kept, if the search keeps anything (else the loop says how
    /// many boards were done).
    Interrupted(Option<String>),
}

impl<T> Searched<T> {
    /// A library search's outcome: cancelled is an interruption, any other error a failure.
    pub fn of(result: Result<T, SearchError>) -> Result<Searched<T>, Failure> {
        match result {
            Ok(t) => Ok(Searched::Done(t)),
            Err(SearchError::Cancelled) => Ok(Searched::Interrupted(None)),
            Err(e) => Err(e.into()),
        }
    }

    /// The answer turned into another, an interruption kept as it is.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Searched<U> {
        match self {
            Searched::Done(t) => Searched::Done(f(t)),
            Searched::Interrupted(kept) => Searched::Interrupted(kept),
        }
    }
}

impl BoardLoop<'_> {
    /// Run `search` on every board in order, each given the options (`base` with the progress
    /// bar's callbacks and the interrupt flag) and its bar; hand each answer to `report` with the
    /// seconds it took.
    pub fn run<T>(
        &self,
        boards: Vec<Board>,
        base: &SearchOptions,
        mut search: impl FnMut(Board, &SearchOptions, &BoardProgress) -> Result<Searched<T>, Failure>
            + Send,
        mut report: impl FnMut(Board, T, f64) -> Result<(), Failure>,
    ) -> Result<(), Failure>
    where
        T: Send,
    {
        let pool = self.threads.pool()?;
        let total = boards.len();
        for (done, board) in boards.into_iter().enumerate() {
            let start = Instant::now();
            let progress = BoardProgress::new(board);
            let (on_phase, on_parts) = progress.callbacks();
            let options = SearchOptions {
                progress: Some(on_parts),
                phase: Some(on_phase),
                cancel: Some(self.interrupt.flag()),
                ..base.clone()
            };
            let outcome = pool.install(|| search(board, &options, &progress));
            progress.finish();
            match outcome? {
                Searched::Done(answer) => report(board, answer, start.elapsed().as_secs_f64())?,
                Searched::Interrupted(kept) => {
                    let verb = self.verb;
                    match kept {
                        Some(kept) => {
                            eprintln!("queendom: interrupted while {verb} {board} ({kept})")
                        }
                        None => eprintln!(
                            "queendom: interrupted while {verb} {board} ({done} of {total} boards \
                             done){}",
                            self.hint.unwrap_or("")
                        ),
                    }
                    return Err(Failure::Interrupted(self.interrupt.exit_code()));
                }
            }
        }
        Ok(())
    }
}
