//! A worker's life on a run directory: which part it runs (named, by rank, from a Slurm array
//! task, or the next free one), claiming it, and the attempt recorded around its search: checked
//! writable first, recorded as started, then as finished, interrupted or failed. Prints nothing:
//! what a worker would say comes back as [`Note`]s, and the search itself (with whatever the
//! caller does around it: a trace file, a report) is the caller's closure.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::SystemTime;

use thiserror::Error;

use super::run_dir::{Claim, RunDir, RunDirError};
use super::{parts_text, time_text, AttemptEvent, PlanError};
use crate::destination::full_disk_hint;
use crate::error::{ErrorKind, Kind};

/// Which part a worker is told to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartChoice {
    /// Part K.
    Part(usize),
    /// The part at rank R of the claim order (rank 0: the largest estimate).
    Rank(usize),
    /// The rank in `SLURM_ARRAY_TASK_ID` (a Slurm job array: task R runs rank R).
    SlurmTask,
}

/// Why a worker did not run its part.
#[derive(Debug, Error)]
pub enum WorkerError {
    #[error("which part? give --part K, --rank R or --next (or run as a Slurm array task: SLURM_ARRAY_TASK_ID is the rank)")]
    NoPart,
    #[error("SLURM_ARRAY_TASK_ID is '{0}', not a rank (a part's place, 0-based)")]
    BadSlurmTask(String),
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    /// The plan cannot run this part (made by another search, changed).
    #[error("{}: {error}", .run.display())]
    Plan { run: PathBuf, error: PlanError },
    /// The result could not be stored, checked before the search (which was not made).
    #[error("cannot store results in {}: {error}; part {part} was not searched{}", .dir.display(), full_disk_hint(.error))]
    NotWritable {
        dir: PathBuf,
        part: usize,
        error: io::Error,
    },
    /// A claim file could not be made or locked.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl Kind for WorkerError {
    fn kind(&self) -> ErrorKind {
        match self {
            WorkerError::NoPart | WorkerError::BadSlurmTask(_) | WorkerError::Plan { .. } => {
                ErrorKind::Refusal
            }
            WorkerError::RunDir(e) => e.kind(),
            WorkerError::NotWritable { .. } | WorkerError::Io(_) => ErrorKind::Failure,
        }
    }
}

/// What a worker would say on its way, for the caller to print (or not).
#[derive(Debug)]
pub enum Note {
    AlreadyDone {
        part: usize,
    },
    /// The part's result file is there but refused; it will be replaced.
    ReplacingResult {
        part: usize,
        why: String,
    },
    /// Another worker holds the part (a second submission beside the first): not run twice.
    HeldByAnother {
        part: usize,
        holder: String,
    },
    CannotRecordStart {
        part: usize,
        error: io::Error,
    },
    CannotRecordEnd {
        part: usize,
        error: io::Error,
    },
    /// `--next --until-done` found no part left, having run `ran`.
    RanAll {
        ran: usize,
        left: String,
    },
    /// `--next` found no part to claim.
    NothingLeft {
        left: String,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::AlreadyDone { part } => write!(f, "part {part} is already done"),
            Note::ReplacingResult { part, why } => {
                write!(f, "part {part}: replacing its result file ({why})")
            }
            Note::HeldByAnother { part, holder } => write!(
                f,
                "part {part} is being run by another worker ({holder}); skipped, not run twice"
            ),
            Note::CannotRecordStart { part, error } => write!(
                f,
                "part {part}: cannot record the attempt ({error}); searching anyway"
            ),
            Note::CannotRecordEnd { part, error } => {
                write!(
                    f,
                    "part {part}: cannot record how the attempt ended ({error})"
                )
            }
            Note::RanAll { ran, left } => write!(f, "ran {}; {left}", parts_text(*ran)),
            Note::NothingLeft { left } => write!(f, "{left}"),
        }
    }
}

/// How an attempt that did not finish ended, as its attempts file records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptEnd {
    /// Stopped by a signal; `code` is the exit code it stands for (129, 130, 143).
    Interrupted { code: i32 },
    /// Failed with this exit code, for this reason.
    Failed { code: i32, why: String },
}

/// The signal an exit code of an interrupted worker stands for.
pub fn signal_name(code: i32) -> &'static str {
    match code {
        129 => "SIGHUP",
        130 => "SIGINT",
        143 => "SIGTERM (Slurm sends it at the time limit and on scancel)",
        _ => "a signal",
    }
}

/// A claim's note with its time made readable: `host H pid P since ISO (age)`.
fn holder_text(note: &str) -> String {
    match note.split_once(" since ") {
        Some((who, when)) => format!("{who} since {}", time_text(when.trim(), SystemTime::now())),
        None => note.to_string(),
    }
}

impl RunDir {
    /// The part `choice` names (checked against the plan).
    pub fn chosen_part(&self, choice: PartChoice) -> Result<usize, WorkerError> {
        Ok(match choice {
            PartChoice::Part(k) => self.part_number(k)?,
            PartChoice::Rank(r) => self.part_at_rank(r)?,
            PartChoice::SlurmTask => {
                let text = std::env::var("SLURM_ARRAY_TASK_ID").map_err(|_| WorkerError::NoPart)?;
                let rank = text
                    .trim()
                    .parse()
                    .map_err(|_| WorkerError::BadSlurmTask(text.clone()))?;
                self.part_at_rank(rank)?
            }
        })
    }

    /// Claim part `k` to run it, unless it is done or another worker holds it (`None`, with a
    /// note saying which).
    pub fn claim_named(
        &self,
        k: usize,
        note: &mut dyn FnMut(Note),
    ) -> Result<Option<Claim>, WorkerError> {
        match self.read_result(k) {
            Ok(Some(_)) => {
                note(Note::AlreadyDone { part: k });
                return Ok(None);
            }
            Ok(None) => {}
            Err(why) => note(Note::ReplacingResult { part: k, why }),
        }
        Ok(match self.claim(k)? {
            Ok(claim) => Some(claim),
            Err(holder) => {
                let holder = holder_text(&holder);
                note(Note::HeldByAnother { part: k, holder });
                None
            }
        })
    }

    /// `--next`: claim the free part with the largest estimate and run it with `attempt`; with
    /// `until_done`, part after part until none is left. `Ok(false)` when `--next` found no part
    /// (said in a note).
    pub fn run_next<E: From<WorkerError>>(
        &self,
        until_done: bool,
        note: &mut dyn FnMut(Note),
        mut attempt: impl FnMut(usize, Claim, &mut dyn FnMut(Note)) -> Result<(), E>,
    ) -> Result<bool, E> {
        let order = self.plan.claim_order();
        let mut from = 0;
        let mut ran = 0;
        while let Some((k, claim)) = self
            .claim_next(&order, &mut from)
            .map_err(WorkerError::from)?
        {
            attempt(k, claim, note)?;
            ran += 1;
            if !until_done {
                return Ok(true);
            }
        }
        let left = self.nothing_left_text();
        if until_done {
            note(Note::RanAll { ran, left });
            return Ok(true);
        }
        note(Note::NothingLeft { left });
        Ok(false)
    }

    /// Run part `k`, which the caller has claimed: check that the plan can run it and that its
    /// result can be stored (before the search, not after: a result that cannot be stored is a
    /// search wasted), record the attempt as started, run `search`, record how it ended
    /// (`ended` says how an error of `search` ends an attempt), and release the claim.
    pub fn attempt<T, E: From<WorkerError>>(
        &self,
        k: usize,
        claim: Claim,
        note: &mut dyn FnMut(Note),
        search: impl FnOnce() -> Result<T, E>,
        ended: impl FnOnce(&E) -> AttemptEnd,
    ) -> Result<T, E> {
        self.plan.check_part(k).map_err(|error| WorkerError::Plan {
            run: self.path.clone(),
            error,
        })?;
        if let Err(error) = self.check_writable() {
            let e = WorkerError::NotWritable {
                dir: self.path.join("results"),
                part: k,
                error,
            };
            let code = e.kind().exit_code();
            let _ = self.record_attempt(k, AttemptEvent::Failed, Some(code), Some(e.to_string()));
            return Err(e.into());
        }
        if let Err(error) = self.record_attempt(k, AttemptEvent::Started, None, None) {
            note(Note::CannotRecordStart { part: k, error });
        }
        let outcome = search();
        let (event, exit, why) = match outcome.as_ref().map_err(ended) {
            Ok(_) => (AttemptEvent::Finished, 0, None),
            Err(AttemptEnd::Interrupted { code }) => (
                AttemptEvent::Interrupted,
                code,
                Some(signal_name(code).to_string()),
            ),
            Err(AttemptEnd::Failed { code, why }) => (AttemptEvent::Failed, code, Some(why)),
        };
        if let Err(error) = self.record_attempt(k, event, Some(exit), why) {
            note(Note::CannotRecordEnd { part: k, error });
        }
        drop(claim);
        outcome
    }
}
