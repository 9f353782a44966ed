//! `--trace FILE`: the CSV of every search task a command ran (see `queendom::trace`), written
//! whole when the command ends, through the output-file policy (`-` is stdout).

use std::sync::Arc;

use queendom::search::PartPath;
use queendom::trace::{TaskRecord, Trace};

use super::destination::{OutFile, Target};
use super::{print, usage, Failure};

/// The columns, in order: the schema `scripts/scaling.py` reads.
pub const COLUMNS: [&str; 11] = [
    "id",
    "parent",
    "kind",
    "board",
    "path",
    "children",
    "cpu_seconds",
    "nodes",
    "thread",
    "start_seconds",
    "end_seconds",
];

#[derive(clap::Args, Debug, Clone)]
pub struct TraceArgs {
    /// Write one CSV row per search task as it ran to FILE (`-`: stdout), for scripts/scaling.py.
    #[arg(long, value_name = "FILE")]
    trace: Option<String>,
}

/// Where the trace goes, claimed before any search starts.
pub struct TraceOut {
    trace: Arc<Trace>,
    file: Option<OutFile>,
}

impl TraceArgs {
    /// The trace of one part of a plan: `{part}` in the file name becomes `k`.
    pub fn for_part(name: Option<&str>, k: usize) -> TraceArgs {
        TraceArgs {
            trace: name.map(|n| n.replace("{part}", &k.to_string())),
        }
    }

    pub fn is_given(&self) -> bool {
        self.trace.is_some()
    }

    /// Whether the trace goes to standard output (the command's own text then goes elsewhere).
    pub fn uses_stdout(&self) -> bool {
        self.trace.as_deref() == Some("-")
    }

    /// Check and lock FILE; an existing FILE is replaced only with `force`.
    pub fn claim(&self, force: bool) -> Result<Option<TraceOut>, Failure> {
        let Some(name) = &self.trace else {
            return Ok(None);
        };
        let file = match Target::parse(Some(name)) {
            Target::Stdout => {
                super::destination::check_stdout()?;
                None
            }
            Target::File(path) => {
                let out = OutFile::claim(&path)?;
                if out.exists() && !force {
                    return Err(usage(format!(
                        "{} already exists; use --force to replace it",
                        path.display()
                    )));
                }
                Some(out)
            }
        };
        Ok(Some(TraceOut {
            trace: Arc::new(Trace::new()),
            file,
        }))
    }
}

impl TraceOut {
    /// The collector to hand to the searches.
    pub fn trace(&self) -> Arc<Trace> {
        self.trace.clone()
    }

    /// The lock's sidecar files of FILE: to remove before an exit that runs no destructors.
    pub fn lock_files(&self) -> Vec<std::path::PathBuf> {
        self.file
            .as_ref()
            .map_or_else(Vec::new, OutFile::lock_files)
    }

    /// Write every record collected.
    pub fn write(&self) -> Result<(), Failure> {
        let bytes = to_csv(&self.trace.records())?;
        match &self.file {
            Some(out) => Ok(out.write_whole(&bytes)?),
            None => print(&String::from_utf8_lossy(&bytes)),
        }
    }
}

fn to_csv(records: &[TaskRecord]) -> Result<Vec<u8>, Failure> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for r in records {
        w.write_record([
            r.id.to_string(),
            r.parent.map_or(String::new(), |p| p.to_string()),
            r.kind.name().to_string(),
            r.board.to_string(),
            PartPath::from_indices(&r.path).to_string(),
            r.children.map_or("", |c| c.name()).to_string(),
            format!("{:.9}", r.cpu_seconds),
            r.nodes.to_string(),
            r.thread.map_or(String::new(), |t| t.to_string()),
            format!("{:.6}", r.start_seconds),
            format!("{:.6}", r.end_seconds),
        ])?;
    }
    w.into_inner()
        .map_err(|e| Failure::Error(anyhow::anyhow!("{e}")))
}
