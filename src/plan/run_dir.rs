//! A run directory on disk: the plan, one result file per finished part, and a lock file per part
//! that a worker holds while it searches the part.
//!
//! ```text
//! RUN/plan.json                     the plan (its SHA-256 is the plan's id)
//! RUN/results/part-000012.json      part 12's result, written whole (temp file, fsync, rename)
//! RUN/claims/part-000012.lock       locked (flock) by the worker on part 12; says who
//! RUN/attempts/part-000012.jsonl    every attempt at part 12: started, finished, interrupted, failed
//! RUN/split-ID/                     a split's history: the plan, results and attempts it replaced
//! RUN/staging/                      a split being written (RUN/split.commit: it is complete)
//! RUN/merge.log                     what the merge jobs did (written by queendom-merge.sbatch)
//! ```
//!
//! A result file appears whole or not at all, so a worker killed at any moment leaves either no
//! result (the part is run again) or a complete one. The lock is the kernel's, so a worker that
//! dies, even by `kill -9`, releases its part at once. A split, which changes the plan and every
//! result together, is a transaction (see [`RunDir::replace_plan`]): every opening of the run
//! completes or undoes one that was killed half way.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use thiserror::Error;

use super::{
    array_syntax, last_attempt, parse_array_syntax, parts_text, result_name, run_part, split_parts,
    utc_iso, Attempt, AttemptEvent, LastAttempt, LoadedPlan, PartReport, ReportError, Split,
    PROBES, RESULTS,
};
use crate::destination::file::{open_regular, read_regular, write_whole};
use crate::destination::lock::host_name;
use crate::destination::write_error_text;
use crate::error::{ErrorKind, Kind};
use crate::fault;
use crate::search::{SearchError, SearchOptions};

/// A run directory that cannot be used as asked (missing, foreign, not empty, unreadable): a
/// refusal, which the command line reports as a usage error.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct RunDirError(pub String);

fn refused(message: impl std::fmt::Display) -> RunDirError {
    RunDirError(message.to_string())
}

pub const PLAN_FILE: &str = "plan.json";
pub const CLAIMS: &str = "claims";
const ATTEMPTS: &str = "attempts";
/// Written by `scripts/slurm/queendom-merge.sbatch`, one line per event of a merge job.
pub const MERGE_LOG: &str = "merge.log";

/// The largest plan or part result read: far above any run's (a plan of a million parts is about
/// 200 MB), and a bound on the memory a wrong file there can take.
pub const MAX_LEDGER_FILE: u64 = 1 << 30;
/// The largest attempts file or merge log read: a line per attempt or merge job, about 200 bytes.
pub const MAX_LOG_FILE: u64 = 64 << 20;
/// `split.commit` holds one directory name.
const MAX_COMMIT_FILE: u64 = 4096;

pub struct RunDir {
    pub path: PathBuf,
    pub plan: LoadedPlan,
    /// Results already read and checked: a checked result is never rewritten (parts with one are
    /// not run again), so it need not be read twice.
    seen: Mutex<Vec<Option<PartReport>>>,
    /// When `results/` was last read for the shared bound (see [`RunDir::work`]).
    refreshed: Mutex<Option<Instant>>,
}

/// How often a worker that runs part after part rereads `results/` for the others' layouts: a
/// bound that is a little stale only costs search (a part never searches for less than it should),
/// while reading thousands of result files before every short part cost more than the parts
/// themselves (γ(Q_15) in 6 554 parts: 6.4 CPU minutes of workers for 58 CPU s of search).
const REFRESH: Duration = Duration::from_secs(1);

/// What is in `results/`.
pub struct Results {
    /// `reports[k]`: part k's checked report, if it has one.
    pub reports: Vec<Option<PartReport>>,
    /// Files that are not a checked report of this plan: (file, why).
    pub refused: Vec<(PathBuf, String)>,
}

impl Results {
    pub fn done(&self) -> usize {
        self.reports.iter().filter(|r| r.is_some()).count()
    }

    pub fn checked(&self) -> Vec<&PartReport> {
        self.reports.iter().flatten().collect()
    }
}

impl RunDir {
    /// Open an existing run directory; a missing or foreign plan is a usage error. A split that
    /// stopped half way (see [`RunDir::replace_plan`]) is first completed or undone.
    pub fn open(path: &Path) -> Result<RunDir, RunDirError> {
        finish_split(path, None)?;
        RunDir::open_as_is(path)
    }

    /// [`RunDir::open`] for the holder of the plan lock taken whole.
    pub fn open_locked(path: &Path, lock: &PlanLock) -> Result<RunDir, RunDirError> {
        finish_split(path, Some(lock))?;
        RunDir::open_as_is(path)
    }

    fn open_as_is(path: &Path) -> Result<RunDir, RunDirError> {
        let plan_path = path.join(PLAN_FILE);
        let bytes = match read_regular(&plan_path, MAX_LEDGER_FILE) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(refused(format!(
                    "{} holds no plan ({} is missing): make one with `queendom plan`",
                    path.display(),
                    plan_path.display()
                )))
            }
            Err(e) => return Err(refused(format!("cannot read {}: {e}", plan_path.display()))),
        };
        let plan = LoadedPlan::from_bytes(&bytes)
            .map_err(|e| refused(format!("{}: {e}", plan_path.display())))?;
        Ok(RunDir {
            path: path.to_path_buf(),
            seen: Mutex::new(vec![None; plan.parts()]),
            refreshed: Mutex::new(None),
            plan,
        })
    }

    /// Create `path` (its parent must exist) and write `plan` into it. An existing directory
    /// must be empty: a plan never replaces another plan or its results.
    pub fn create(path: &Path, plan_bytes: &[u8]) -> Result<RunDir, RunDirError> {
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                let mut entries = fs::read_dir(path)
                    .map_err(|e| refused(format!("cannot read {}: {e}", path.display())))?;
                if entries.next().is_some() {
                    let what = if path.join(PLAN_FILE).exists() {
                        "already holds a plan"
                    } else {
                        "is not empty"
                    };
                    return Err(refused(format!(
                        "{} {what}: a plan goes into a new or empty directory",
                        path.display()
                    )));
                }
            }
            Ok(_) => {
                return Err(refused(format!(
                    "{} exists and is not a directory",
                    path.display()
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir(path)
                    .map_err(|e| refused(format!("cannot create {}: {e}", path.display())))?;
            }
            Err(e) => return Err(refused(format!("cannot use {}: {e}", path.display()))),
        }
        RunDir::write_plan_and_open(path, plan_bytes)
    }

    /// Write `plan_bytes` as the plan of `path` (which must exist) and open it, for a caller that
    /// holds the directory's [`PlanLock`] and has seen no plan there: the directory is not
    /// required to be empty, since the lock itself lives in it.
    pub fn create_locked(
        path: &Path,
        _lock: &PlanLock,
        plan_bytes: &[u8],
    ) -> Result<RunDir, RunDirError> {
        RunDir::write_plan_and_open(path, plan_bytes)
    }

    fn write_plan_and_open(path: &Path, plan_bytes: &[u8]) -> Result<RunDir, RunDirError> {
        write_whole(&path.join(PLAN_FILE), plan_bytes).map_err(|e| {
            refused(format!(
                "cannot write the plan into {}: {e}",
                path.display()
            ))
        })?;
        RunDir::open(path)
    }

    fn results_dir(&self) -> PathBuf {
        self.path.join(RESULTS)
    }

    pub fn result_path(&self, k: usize) -> PathBuf {
        self.results_dir().join(result_name(k))
    }

    fn attempts_path(&self, k: usize) -> PathBuf {
        self.path.join(ATTEMPTS).join(format!("part-{k:06}.jsonl"))
    }

    /// Append an event of this process's attempt at part `k` (which it holds), as a line of the
    /// part's attempts file. Best effort: a directory that cannot take it cannot take the result
    /// either, and that failure is reported on its own.
    pub fn record_attempt(
        &self,
        k: usize,
        event: AttemptEvent,
        exit: Option<i32>,
        why: Option<String>,
    ) -> io::Result<()> {
        let attempt = Attempt {
            event,
            time: utc_iso(SystemTime::now()),
            host: host_name(),
            pid: std::process::id(),
            job: slurm_job(),
            exit,
            why,
        };
        let path = self.attempts_path(k);
        let record = || -> io::Result<()> {
            fs::create_dir_all(self.path.join(ATTEMPTS))?;
            let mut file = OpenOptions::new()
                .read(true)
                .create(true)
                .append(true)
                .open(&path)?;
            // A line cut short by a full disk is ended first, so that it costs only itself:
            // appended to, it would take this record with it.
            let len = file.metadata()?.len();
            let mut last = [0u8];
            let cut = len > 0 && {
                use std::os::unix::fs::FileExt;
                file.read_exact_at(&mut last, len - 1)?;
                last[0] != b'\n'
            };
            let mut line = if cut { "\n".to_string() } else { String::new() };
            line.push_str(&attempt.to_line());
            fault::write_all("attempt record", &mut file, line.as_bytes())?;
            file.sync_data()
        };
        record().map_err(|e| naming(&path, e))
    }

    /// Every attempt recorded at part `k`, oldest first.
    pub fn attempts(&self, k: usize) -> Vec<Attempt> {
        read_regular(&self.attempts_path(k), MAX_LOG_FILE)
            .map(|t| Attempt::parse_all(&String::from_utf8_lossy(&t)))
            .unwrap_or_default()
    }

    /// Check, before a search, that its result can be stored: `results/` exists (or is created)
    /// and takes a file written whole. A task that could not store its result would otherwise
    /// learn it only after its whole search.
    pub fn check_writable(&self) -> io::Result<()> {
        fs::create_dir_all(self.results_dir())?;
        let mut probe = tempfile::Builder::new()
            .prefix(".write-check.")
            .tempfile_in(self.results_dir())?;
        fault::write_all("results check", &mut probe, b"queendom\n")?;
        probe.as_file().sync_all()?;
        probe.close()
    }

    fn claim_path(&self, k: usize) -> PathBuf {
        self.path.join(CLAIMS).join(format!("part-{k:06}.lock"))
    }

    /// Read one part's result: `Ok(None)` if there is none, `Err` with the reason if the file is
    /// there but refused.
    pub fn read_result(&self, k: usize) -> Result<Option<PartReport>, String> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = &seen[k] {
            return Ok(Some(r.clone()));
        }
        match read_regular(&self.result_path(k), MAX_LEDGER_FILE) {
            Ok(bytes) => {
                let r = PartReport::from_bytes(&bytes, &self.plan, k)
                    .map_err(|e: ReportError| e.to_string())?;
                seen[k] = Some(r.clone());
                Ok(Some(r))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read it: {e}")),
        }
    }

    /// Whether part `k` has a checked result (read now if this process has not seen it yet).
    pub fn is_done(&self, k: usize) -> bool {
        let known = self.seen.lock().unwrap_or_else(|e| e.into_inner())[k].is_some();
        known || matches!(self.read_result(k), Ok(Some(_)))
    }

    /// Claim the first part of `order` that has no result and no worker. `from` is where to look
    /// first: the parts of `order` before it are known to be done, so that a worker running part
    /// after part does not look at every finished part again for each claim.
    pub fn claim_next(
        &self,
        order: &[usize],
        from: &mut usize,
    ) -> io::Result<Option<(usize, Claim)>> {
        for (i, &k) in order.iter().enumerate().skip(*from) {
            if self.is_done(k) {
                if i == *from {
                    *from += 1;
                }
                continue;
            }
            if let Ok(claim) = self.claim(k)? {
                // Someone may have finished it between the look and the claim.
                if self.is_done(k) {
                    continue;
                }
                return Ok(Some((k, claim)));
            }
        }
        Ok(None)
    }

    /// The checked reports that hold a layout: all the shared bound needs. `results/` is read
    /// again only when the last read is older than [`REFRESH`]; this process's own results are
    /// known without it.
    fn layouts_found(&self) -> Vec<PartReport> {
        let mut refreshed = self.refreshed.lock().unwrap_or_else(|e| e.into_inner());
        if refreshed.is_none_or(|t| t.elapsed() >= REFRESH) {
            self.read_results();
            *refreshed = Some(Instant::now());
        }
        drop(refreshed);
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter()
            .flatten()
            .filter(|r| r.found.is_some())
            .cloned()
            .collect()
    }

    /// Read every result file. Hidden files (a writer's temporary files) are skipped; anything
    /// else that is not a checked report of one of this plan's parts is listed as refused.
    pub fn read_results(&self) -> Results {
        let mut results = Results {
            reports: vec![None; self.plan.parts()],
            refused: Vec::new(),
        };
        let Ok(entries) = fs::read_dir(self.results_dir()) else {
            return results;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            if name.starts_with('.') {
                continue;
            }
            let path = self.results_dir().join(&name);
            let k = name
                .strip_prefix("part-")
                .and_then(|s| s.strip_suffix(".json"))
                .filter(|s| s.len() == 6 && s.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|s| s.parse::<usize>().ok());
            let Some(k) = k.filter(|&k| k < self.plan.parts()) else {
                results
                    .refused
                    .push((path, "not a result file of this plan".to_string()));
                continue;
            };
            match self.read_result(k) {
                Ok(Some(r)) => results.reports[k] = Some(r),
                Ok(None) => {}
                Err(why) => results.refused.push((path, why)),
            }
        }
        results
    }

    /// Try to claim part `k`: `Ok(Ok(claim))` if this process now holds it, `Ok(Err(note))` with
    /// the holder's note if another process does.
    pub fn claim(&self, k: usize) -> io::Result<Result<Claim, String>> {
        let path = self.claim_path(k);
        let claim = || -> io::Result<Result<Claim, String>> {
            fs::create_dir_all(self.path.join(CLAIMS))?;
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)?;
            if !ofd_lock(&file, libc::F_OFD_SETLK)? {
                let mut note = String::new();
                let _ = file.read_to_string(&mut note);
                return Ok(Err(note.trim().to_string()));
            }
            file.set_len(0)?;
            let note = format!(
                "host {} pid {} since {}",
                host_name(),
                std::process::id(),
                utc_iso(SystemTime::now())
            );
            fault::write_all("claim note", &mut file, note.as_bytes())?;
            file.flush()?;
            Ok(Ok(Claim { _file: file }))
        };
        claim().map_err(|e| naming(&path, e))
    }

    /// Whether some process holds part `k`'s claim right now. Asks the kernel without taking the
    /// lock, so that looking never makes a worker skip a part.
    pub fn is_claimed(&self, k: usize) -> bool {
        let Ok(file) = open_regular(&self.claim_path(k), OpenOptions::new().read(true)) else {
            return false;
        };
        ofd_locked_by_other(&file).unwrap_or(false)
    }

    /// Search part `k` (which the caller has claimed) and store its result. The best layout the
    /// results present hold is where the part starts: the shared bound (as of the last read of
    /// `results/`, at most `REFRESH` (one second) old when the part starts).
    pub fn work(
        &self,
        k: usize,
        options: &SearchOptions,
        threads: usize,
    ) -> Result<PartReport, WorkError> {
        let found = self.layouts_found();
        let known: Vec<&PartReport> = found.iter().collect();
        let cpu_before = cpu_seconds();
        let start = Instant::now();
        let run = run_part(&self.plan, k, &known, options).map_err(WorkError::Search)?;
        let seconds = start.elapsed().as_secs_f64();
        let cpu = (cpu_seconds() - cpu_before).max(0.0);
        let (_, board, path) = self.plan.part(k);
        let report = PartReport {
            format: "queendom-part".to_string(),
            plan: self.plan.id.clone(),
            part: k,
            board: board.to_string(),
            path: path.to_string(),
            problem: self.plan.problem.name().to_string(),
            goal: self.plan.plan.goal,
            bound_queens: run.bound_queens,
            bound_rank: run.bound_rank,
            found: run.found,
            count: run.count,
            nodes: run.nodes,
            seconds: round6(seconds),
            cpu_seconds: round6(cpu),
            threads,
            host: host_name(),
            finished: now_seconds(),
            queendom: env!("CARGO_PKG_VERSION").to_string(),
        };
        let bytes = report.to_bytes();
        // What is written must read back: a report this build refuses is a bug, not a result.
        PartReport::from_bytes(&bytes, &self.plan, k)
            .map_err(|e| WorkError::Io(io::Error::other(format!("internal error: {e}"))))?;
        fs::create_dir_all(self.results_dir()).map_err(WorkError::Io)?;
        let path = self.result_path(k);
        fault::point("part result")
            .and_then(|()| write_whole(&path, &bytes))
            .map_err(|e| WorkError::Io(naming(&path, e)))?;
        self.seen.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(report.clone());
        Ok(report)
    }
}

/// Why a part was not run to a stored result.
#[derive(Debug, Error)]
pub enum WorkError {
    #[error(transparent)]
    Search(SearchError),
    /// The result cannot be stored.
    #[error("{0}")]
    Io(io::Error),
}

impl Kind for WorkError {
    fn kind(&self) -> ErrorKind {
        match self {
            WorkError::Search(e) => e.kind(),
            WorkError::Io(e) => Kind::kind(e),
        }
    }
}

/// The right to create the plan of a run directory (`claims/plan.lock`), so that processes that
/// start on one new checkpoint directory at the same moment build its plan once: the first
/// builds and writes it, the others wait and then open it. A lock like a part's claim, so a
/// process that dies while planning releases it at once.
pub struct PlanLock {
    _file: File,
}

impl PlanLock {
    /// Take the plan lock of the directory `path` (which must exist) without waiting:
    /// `Ok(None)` while another process holds it.
    pub fn try_take(path: &Path) -> io::Result<Option<PlanLock>> {
        let file = PlanLock::file(path)?;
        Ok(ofd_lock(&file, libc::F_OFD_SETLK)?.then_some(PlanLock { _file: file }))
    }

    /// Share the plan lock, waiting while another process holds it whole: a worker holds it
    /// shared for its life, so that `plan RUN --split` (which takes it whole) never renumbers the
    /// parts under a worker, and a worker never reads a plan half replaced. A split that was
    /// killed after its commit is completed first (which needs the lock whole).
    pub fn share(path: &Path) -> io::Result<PlanLock> {
        loop {
            finish_split(path, None).map_err(|e| io::Error::other(e.0))?;
            let file = PlanLock::file(path)?;
            ofd_lock_kind(&file, libc::F_OFD_SETLKW, libc::F_RDLCK)?;
            // A split killed after its commit while this process waited: complete it first.
            if !path.join(COMMIT).exists() {
                return Ok(PlanLock { _file: file });
            }
        }
    }

    /// Take the plan lock whole, waiting while others hold it.
    fn wait_whole(path: &Path) -> io::Result<PlanLock> {
        let file = PlanLock::file(path)?;
        ofd_lock_kind(&file, libc::F_OFD_SETLKW, libc::F_WRLCK)?;
        Ok(PlanLock { _file: file })
    }

    fn file(path: &Path) -> io::Result<File> {
        fs::create_dir_all(path.join(CLAIMS))?;
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path.join(CLAIMS).join("plan.lock"))
    }
}

/// `RUN/staging/`: a split's new plan, results and attempts, written aside before any is seen.
pub const STAGING: &str = "staging";
/// `RUN/split.commit`: the commit mark of a split, written (whole) once the staging area is
/// complete; it names the history directory (`split-ID`). With it the split is rolled forward,
/// without it the staging area is thrown away. It is removed last, after the staging area, so
/// that a split completed but for its removal is still known as done.
pub const COMMIT: &str = "split.commit";

/// A step of a split, in order: the write points of the command `split` ([`crate::fault`];
/// `QUEENDOM_FAULT=split:kill:K` stops a split at its K-th step as `kill -9` would,
/// `split:full:K` fails the step's next write or rename as a full disk would). `path` is what the
/// step writes or moves next, which a failure there names.
fn step(path: &Path) -> io::Result<()> {
    fault::point("split step").map_err(|e| naming(path, e))
}

/// `e` with the file it happened to, and for a full disk what to do.
fn naming(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), write_error_text(path, &e))
}

/// The number of steps of a split: its write points for `QUEENDOM_FAULT=split:KIND:K`.
pub const SPLIT_STEPS: u32 = 12;

/// Complete or undo a split that stopped half way (killed, a full disk). A staging area with its
/// commit mark is rolled forward; one without is removed, but only by a holder of the plan lock
/// (a split in progress holds it, and its staging area is not ours to remove; left alone, it is
/// invisible to every reader). `held`: the lock, taken whole by the caller.
fn finish_split(path: &Path, held: Option<&PlanLock>) -> Result<(), RunDirError> {
    let staging = path.join(STAGING);
    if !staging.is_dir() && !path.join(COMMIT).exists() {
        return Ok(());
    }
    let cannot = |e: io::Error| {
        refused(format!(
            "cannot complete the split interrupted in {}: {e}",
            path.display()
        ))
    };
    let committed = || path.join(COMMIT).is_file();
    let _taken = match held {
        Some(_) => None,
        // A committed split is a few renames from done: wait for whoever holds the lock.
        None if committed() => Some(PlanLock::wait_whole(path).map_err(cannot)?),
        None => match PlanLock::try_take(path).map_err(cannot)? {
            Some(lock) => Some(lock),
            None => return Ok(()),
        },
    };
    if committed() {
        roll_forward(path).map_err(cannot)?;
    } else if staging.is_dir() {
        fs::remove_dir_all(&staging).map_err(cannot)?;
    }
    Ok(())
}

/// Make a committed split visible, from wherever a previous attempt stopped: every step is
/// skipped once done, so a kill at any point leaves a state this completes. Old plan, results and
/// attempts go to the history directory, the staging area's take their places.
fn roll_forward(path: &Path) -> io::Result<PathBuf> {
    let staging = path.join(STAGING);
    let name = read_regular(&path.join(COMMIT), MAX_COMMIT_FILE)?;
    let name = String::from_utf8_lossy(&name);
    let name = name.trim();
    if !name.starts_with("split-") || name.contains('/') {
        return Err(io::Error::other(format!(
            "{} names '{name}', not a split-ID directory",
            path.join(COMMIT).display()
        )));
    }
    let history = path.join(name);
    if !history.is_dir() {
        fs::create_dir(&history).map_err(|e| naming(&history, e))?;
    }
    let plan = path.join(PLAN_FILE);
    step(&history.join(PLAN_FILE))?;
    let new_plan = staging.join(PLAN_FILE);
    if new_plan.exists() {
        if !history.join(PLAN_FILE).exists() {
            write_whole(
                &history.join(PLAN_FILE),
                &read_regular(&plan, MAX_LEDGER_FILE)?,
            )
            .map_err(|e| naming(&history.join(PLAN_FILE), e))?;
        }
        step(&plan)?;
        fs::rename(&new_plan, &plan).map_err(|e| naming(&plan, e))?;
        step(&path.join(RESULTS))?;
    }
    // After each move, what the next step moves: the attempts, then the staging area, removed.
    for (dir, next) in [(RESULTS, path.join(ATTEMPTS)), (ATTEMPTS, staging.clone())] {
        let (new, old) = (staging.join(dir), path.join(dir));
        if !new.exists() {
            continue;
        }
        if old.exists() {
            fs::rename(&old, history.join(dir)).map_err(|e| naming(&old, e))?;
        }
        step(&old)?;
        fs::rename(&new, &old).map_err(|e| naming(&old, e))?;
        step(&next)?;
    }
    if staging.exists() {
        fs::remove_dir_all(&staging)?;
    }
    File::open(path)?.sync_all()?;
    step(&path.join(COMMIT))?;
    fs::remove_file(path.join(COMMIT))?;
    Ok(history)
}

impl RunDir {
    /// Replace this run's plan by `split` (made from it), keeping every result and attempt under
    /// its part's new index. The caller holds the plan lock whole, so no worker runs. The old
    /// plan, results and attempts move to `RUN/split-ID/` (ID: the old plan id's first 12 digits).
    ///
    /// A transaction: the new plan, results and attempts are written into `RUN/staging/`, then
    /// the commit mark; only then are they renamed into place (`roll_forward`). A kill before the
    /// mark leaves the old run as it was (the staging area is removed by the next command), one
    /// after it leaves a split that the next command completes.
    pub fn replace_plan(&self, _lock: &PlanLock, split: &Split) -> io::Result<PathBuf> {
        let staging = self.path.join(STAGING);
        let (commit, history) = (
            self.path.join(COMMIT),
            format!("split-{}", &self.plan.id[..12]),
        );
        let committed = self.stage(split, &staging).and_then(|()| {
            step(&commit)?;
            write_whole(&commit, format!("{history}\n").as_bytes()).map_err(|e| naming(&commit, e))
        });
        if let Err(e) = committed {
            // Nothing is decided without the commit mark: a split that cannot be staged or
            // committed (a full disk) leaves the run as it was, without its staging area.
            if !commit.exists() {
                let _ = fs::remove_dir_all(&staging);
            }
            return Err(e);
        }
        step(&self.path.join(&history))?;
        roll_forward(&self.path)
    }

    /// Write the new plan, results and attempts of `split` into `staging` (steps 1 and 2).
    fn stage(&self, split: &Split, staging: &Path) -> io::Result<()> {
        let bytes = split.plan.to_bytes();
        let new = LoadedPlan::from_bytes(&bytes)
            .map_err(|e| io::Error::other(format!("internal error: the split plan: {e}")))?;
        if staging.exists() {
            fs::remove_dir_all(staging)?;
        }
        fs::create_dir(staging).map_err(|e| naming(staging, e))?;
        let plan = staging.join(PLAN_FILE);
        step(&plan)?;
        write_whole(&plan, &bytes).map_err(|e| naming(&plan, e))?;
        let (new_results, new_attempts) = (staging.join(RESULTS), staging.join(ATTEMPTS));
        step(&new_results)?;
        fs::create_dir(&new_results).map_err(|e| naming(&new_results, e))?;
        fs::create_dir(&new_attempts).map_err(|e| naming(&new_attempts, e))?;
        let results = self.read_results();
        for (k, report) in results.reports.iter().enumerate() {
            let [j] = split.moved[k][..] else { continue };
            if let Some(r) = report {
                let mut r = r.clone();
                r.plan = new.id.clone();
                r.part = j;
                let bytes = r.to_bytes();
                PartReport::from_bytes(&bytes, &new, j).map_err(|e| {
                    io::Error::other(format!("internal error: result of part {k} as {j}: {e}"))
                })?;
                let to = new_results.join(result_name(j));
                write_whole(&to, &bytes).map_err(|e| naming(&to, e))?;
            }
            if let Ok(text) = read_regular(&self.attempts_path(k), MAX_LOG_FILE) {
                let to = new_attempts.join(format!("part-{j:06}.jsonl"));
                write_whole(&to, &text).map_err(|e| naming(&to, e))?;
            }
        }
        Ok(())
    }
}

/// An output (`merge -o FILE`) that would land in a run's ledger: it would be taken for a
/// foreign result, replace the plan, or sit among the claims; refused before anything is written.
#[derive(Debug, Error)]
#[error("{output} is inside the ledger of the run {run} ({place}): write the answer elsewhere")]
pub struct OutputInLedger {
    pub output: PathBuf,
    pub run: PathBuf,
    pub place: String,
}

/// The entries of a run directory that belong to its ledger: no output of the run goes there.
/// (`split-ID/` directories, the history of splits, are matched by their prefix.)
const LEDGER: [&str; 7] = [
    PLAN_FILE, RESULTS, ATTEMPTS, CLAIMS, STAGING, COMMIT, MERGE_LOG,
];

impl RunDir {
    /// Refuse `output` if it is, or resolves to (through symbolic links and `..`), a path inside
    /// this run's ledger: its plan, `results/`, `attempts/`, `claims/`, `staging/`, `split.commit`,
    /// `merge.log` (the merge jobs' record, which `status` reads) or a `split-ID/` history directory.
    pub fn check_output(&self, output: &Path) -> Result<(), OutputInLedger> {
        let (Ok(run), Some(target)) = (fs::canonicalize(&self.path), resolve(output, 0)) else {
            return Ok(());
        };
        let Ok(inside) = target.strip_prefix(&run) else {
            return Ok(());
        };
        let Some(first) = inside.components().next() else {
            return Ok(());
        };
        let first = first.as_os_str().to_string_lossy();
        if LEDGER.contains(&&*first) || first.starts_with("split-") {
            return Err(OutputInLedger {
                output: output.to_path_buf(),
                run: self.path.clone(),
                place: first.into_owned(),
            });
        }
        Ok(())
    }
}

/// Where writing `path` would land: the path with every symbolic link (a dangling one too) and
/// `..` resolved, as far as it exists; the parts that do not exist yet appended as written.
fn resolve(path: &Path, depth: u32) -> Option<PathBuf> {
    if depth > 40 {
        return None;
    }
    if let Ok(real) = fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(target) = fs::read_link(path) {
        // A dangling link: a write goes to its target.
        return resolve(&parent.join(target), depth + 1);
    }
    match name {
        Some(name) => Some(resolve(parent, depth + 1)?.join(name)),
        // `..` or `.` at the end of a path that does not exist: lexically.
        None => {
            let mut base = resolve(parent, depth + 1)?;
            if path.ends_with("..") {
                base.pop();
            }
            Some(base)
        }
    }
}

/// A part that hit a time limit comes back in pieces of at most this share of its estimate unless
/// told otherwise (`plan --split --share`): one that took twice the limit then fits, if the
/// estimates hold.
pub const SPLIT_SHARE: f64 = 0.5;

/// Why `plan RUN --split` changed nothing.
#[derive(Debug, Error)]
pub enum SplitRunError {
    /// No plan in the directory, parts that do not read or have results, a split the plan
    /// refuses: the input is at fault (a usage error).
    #[error(transparent)]
    Refused(#[from] RunDirError),
    /// Workers are running, or the lock or the new plan cannot be written.
    #[error("{0}")]
    Failed(String),
}

impl RunDir {
    /// `plan RUN --split PARTS`: replace each of these parts (a list as `3,17,40-45`, or
    /// `interrupted`: every part without a result whose last attempt was interrupted) by its
    /// pieces, each estimated at most `share` of it (in (0, 1]; [`SPLIT_SHARE`] by default), under
    /// the plan lock taken whole. Returns what changed, in words, or `None` when no part is to be
    /// split. Run it in the thread pool the estimates should use.
    pub fn split(dir: &Path, parts: &str, share: f64) -> Result<Option<String>, SplitRunError> {
        // Opened first for a refusal of a directory that holds no plan; a split killed after its
        // commit is completed here, and that is what this command, run again, was asked for.
        let committed = dir.join(COMMIT).is_file();
        let run = RunDir::open(dir)?;
        if committed && !dir.join(COMMIT).exists() {
            return Ok(Some(format!(
                "completed the split that was stopped after its commit: plan {}: {}; \
                 nothing else split\n",
                run.plan.id,
                parts_text(run.plan.parts())
            )));
        }
        let failed = |msg: String| SplitRunError::Failed(msg);
        let Some(lock) = PlanLock::try_take(dir)
            .map_err(|e| failed(format!("cannot lock {}: {e}", dir.display())))?
        else {
            return Err(failed(format!(
                "workers are running on {} (`queendom status` lists them): split once none is",
                dir.display()
            )));
        };
        // Read again under the lock: the plan may have changed while we waited.
        let run = RunDir::open_locked(dir, &lock)?;
        let chosen = run.parts_to_split(parts)?;
        if chosen.is_empty() {
            return Ok(None);
        }
        let split = split_parts(&run.plan, &chosen, share, PROBES)
            .map_err(|e| refused(format!("{}: {e}; nothing split", dir.display())))?;
        let history = run.replace_plan(&lock, &split).map_err(|e| {
            failed(format!(
                "cannot write the split plan into {}: {e}",
                dir.display()
            ))
        })?;
        drop(lock);
        let new = RunDir::open(dir)?;
        Ok(Some(new.split_text(&run.plan, &chosen, &split, &history)))
    }

    /// A plan is never written over anything: an existing non-empty directory is refused before any
    /// work is done.
    pub fn check_new(path: &Path) -> Result<(), RunDirError> {
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_dir() {
                return Err(refused(format!(
                    "{} exists and is not a directory",
                    path.display()
                )));
            }
            let empty = std::fs::read_dir(path)
                .map_err(|e| refused(format!("cannot read {}: {e}", path.display())))?
                .next()
                .is_none();
            if !empty {
                return Err(refused(format!(
                    "{} is not empty: a plan goes into a new or empty directory",
                    path.display()
                )));
            }
            return Ok(());
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            return Err(refused(format!(
                "cannot create {}: directory {} does not exist",
                path.display(),
                parent.display()
            )));
        }
        Ok(())
    }

    /// Part `k`, if the plan has it.
    pub fn part_number(&self, k: usize) -> Result<usize, RunDirError> {
        let parts = self.plan.parts();
        if k >= parts {
            return Err(refused(format!(
                "part {k} does not exist: the plan in {} has parts 0..{}",
                self.path.display(),
                parts.saturating_sub(1)
            )));
        }
        Ok(k)
    }

    /// The part at rank `r` of the claim order (rank 0: the largest estimate).
    pub fn part_at_rank(&self, r: usize) -> Result<usize, RunDirError> {
        self.plan.claim_order().get(r).copied().ok_or_else(|| {
            refused(format!(
                "rank {r} does not exist: the plan in {} has ranks 0..{}",
                self.path.display(),
                self.plan.parts().saturating_sub(1)
            ))
        })
    }

    /// What a worker that found no part to claim says: "no part left to claim in RUN (3 of 5
    /// done, the other 2 being run)".
    pub fn nothing_left_text(&self) -> String {
        let parts = self.plan.parts();
        let done = self.read_results().done();
        let others = if done == parts {
            String::new()
        } else {
            format!(", the other {} being run", parts - done)
        };
        format!(
            "no part left to claim in {} ({done} of {parts} done{others})",
            self.path.display()
        )
    }

    /// The parts `--split PARTS` names, none of which has a result.
    fn parts_to_split(&self, parts: &str) -> Result<Vec<usize>, RunDirError> {
        let results = self.read_results();
        if let Some((path, why)) = results.refused.first() {
            return Err(refused(format!("{}: {why}; nothing split", path.display())));
        }
        let n = self.plan.parts();
        let chosen: Vec<usize> = if parts == "interrupted" {
            (0..n)
                .filter(|&k| {
                    results.reports[k].is_none()
                        && matches!(last_attempt(&self.attempts(k)),
                            LastAttempt::Ended(a) if a.event == AttemptEvent::Interrupted)
                })
                .collect()
        } else {
            parse_array_syntax(parts, usize::MAX).map_err(|_| {
                refused(format!(
                    "--split takes parts as 3,17,40-45 or `interrupted`, not '{parts}'"
                ))
            })?
        };
        for &k in &chosen {
            if k < n && results.reports[k].is_some() {
                return Err(refused(format!(
                    "part {k} has a result: only parts without one are split; nothing split"
                )));
            }
        }
        Ok(chosen)
    }

    /// What `plan RUN --split` prints: this run's new plan, the pieces of each part split from
    /// `old`, and where the old plan went.
    fn split_text(
        &self,
        old: &LoadedPlan,
        chosen: &[usize],
        split: &Split,
        history: &Path,
    ) -> String {
        let new = self;
        let rank_of = new.plan.rank_of();
        let mut out = format!("plan {}: {}\n", new.plan.id, parts_text(new.plan.parts()));
        for &k in chosen {
            let pieces = &split.moved[k];
            let mut ranks: Vec<usize> = pieces.iter().map(|&j| rank_of[j]).collect();
            ranks.sort_unstable();
            out.push_str(&format!(
                "part {k} (estimate {:.3e}) is now {}: parts {}, ranks {}\n",
                old.plan.parts[k].estimate,
                parts_text(pieces.len()),
                array_syntax(pieces),
                array_syntax(&ranks)
            ));
        }
        let missing: Vec<usize> = (0..new.plan.parts()).filter(|&j| !new.is_done(j)).collect();
        out.push_str(&format!(
            "the old plan, results and attempts are in {}; missing ranks: {}\n",
            history.display(),
            array_syntax(&new.plan.ranks_of(&missing))
        ));
        out
    }
}

/// A part held by this process until dropped (the kernel drops it if the process dies).
pub struct Claim {
    _file: File,
}

/// Claims are open-file-description locks (Linux `F_OFD_SETLK`): unlike `flock` they work on NFS,
/// and unlike plain POSIX locks they belong to the open file, not the process, so that another
/// open of the same file in this process (a status check) never drops them; and the kernel can be
/// asked whether one is held without taking it (`F_OFD_GETLK`).
fn lock_request(kind: libc::c_int) -> libc::flock {
    // SAFETY: flock is plain data; every field that matters is set below.
    let mut request: libc::flock = unsafe { std::mem::zeroed() };
    request.l_type = kind as libc::c_short;
    request.l_whence = libc::SEEK_SET as libc::c_short;
    request.l_start = 0;
    request.l_len = 0;
    request
}

/// Take the write lock without waiting: `Ok(false)` if another holder has it.
fn ofd_lock(file: &File, command: libc::c_int) -> io::Result<bool> {
    ofd_lock_kind(file, command, libc::F_WRLCK)
}

/// Take a lock of `kind` (`F_WRLCK`, `F_RDLCK`) with `command` (`F_OFD_SETLK`, or
/// `F_OFD_SETLKW` to wait): `Ok(false)` if another holder has it and `command` does not wait.
fn ofd_lock_kind(file: &File, command: libc::c_int, kind: libc::c_int) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    let mut request = lock_request(kind);
    // SAFETY: a valid descriptor and a valid flock request.
    if unsafe { libc::fcntl(file.as_raw_fd(), command, &mut request) } == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EAGAIN) | Some(libc::EACCES) => Ok(false),
        _ => Err(e),
    }
}

fn ofd_locked_by_other(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    let mut request = lock_request(libc::F_WRLCK);
    // SAFETY: a valid descriptor and a valid flock request, which F_OFD_GETLK fills in.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_OFD_GETLK, &mut request) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(request.l_type != libc::F_UNLCK as libc::c_short)
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

pub fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// User + system CPU seconds of this process so far.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0;
    if !ok {
        return 0.0;
    }
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// The Slurm job this process runs in: `ARRAYJOB_TASK` for an array task, else the job id.
fn slurm_job() -> Option<String> {
    let var = |n: &str| std::env::var(n).ok().filter(|v| !v.is_empty());
    match (var("SLURM_ARRAY_JOB_ID"), var("SLURM_ARRAY_TASK_ID")) {
        (Some(job), Some(task)) => Some(format!("{job}_{task}")),
        _ => var("SLURM_JOB_ID"),
    }
}

impl Kind for OutputInLedger {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Refusal
    }
}

impl Kind for RunDirError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Refusal
    }
}

impl Kind for SplitRunError {
    fn kind(&self) -> ErrorKind {
        match self {
            SplitRunError::Refused(e) => e.kind(),
            SplitRunError::Failed(_) => ErrorKind::Failure,
        }
    }
}
