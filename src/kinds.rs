//! The kind of any error of the library, found from the error alone: the command line holds an
//! error chain, not a type, and asks here whether it is a refusal or a failure. Also the kinds of
//! the board's and the search's errors (the other modules give theirs beside the type).

use std::error::Error;

use crate::board::{BoardError, BoardParseError};
use crate::error::{ErrorKind, Kind};
use crate::layout::LayoutParseError;
use crate::search::{CountReportError, PartPathError, SearchError, StartError};

/// The kind of `error` if it is one of the library's error types (or an I/O error), else `None`.
/// A type missing here would read as no kind at all: the test below lists the library's error
/// types from its source and fails on one that is not here.
pub fn error_kind(error: &(dyn Error + 'static)) -> Option<ErrorKind> {
    macro_rules! first_of {
        ($($t:ty),+ $(,)?) => {
            $(if let Some(e) = error.downcast_ref::<$t>() {
                return Some(Kind::kind(e));
            })+
        };
    }
    use crate::{destination, export, nqueens, picture, plan, problem, row, table, workload};
    first_of!(
        std::io::Error,
        BoardError,
        BoardParseError,
        LayoutParseError,
        SearchError,
        CountReportError,
        StartError,
        PartPathError,
        crate::check::CheckError,
        crate::listing::ListingError,
        crate::nqueens_check::PlacementError,
        nqueens::NQueensError,
        problem::UnknownProblem,
        table::SizeListError,
        table::nqueens::CountError,
        table::nqueens::RecountError,
        table::resume::ResumeError,
        table::writer::TableError,
        export::ExportError,
        export::FormatError,
        export::LineError,
        row::RowReadError,
        destination::OutputError,
        picture::PictureError,
        picture::heatmap::TablesError,
        picture::heatmap::HeatmapError,
        picture::palette::ScaleError,
        picture::table_file::TableFileError,
        workload::WorkloadError,
        workload::BenchError,
        plan::PlanError,
        plan::PlanAskError,
        plan::SplitError,
        plan::MergeError,
        plan::PartListError,
        plan::AuditError,
        plan::run_dir::WorkError,
        plan::worker::WorkerError,
        plan::ReportError,
        plan::run_dir::RunDirError,
        plan::run_dir::OutputInLedger,
        plan::run_dir::SplitRunError,
        plan::checkpoint::CheckpointError,
    );
    None
}

impl Kind for BoardError {
    fn kind(&self) -> ErrorKind {
        match self {
            BoardError::Empty { .. } | BoardError::TooBig { .. } => ErrorKind::Refusal,
        }
    }
}

impl Kind for BoardParseError {
    fn kind(&self) -> ErrorKind {
        match self {
            BoardParseError::Malformed(_) => ErrorKind::Refusal,
            BoardParseError::Board(e) => e.kind(),
        }
    }
}

impl Kind for LayoutParseError {
    fn kind(&self) -> ErrorKind {
        match self {
            LayoutParseError::BadSquare(_) | LayoutParseError::OffBoard(..) => ErrorKind::Refusal,
        }
    }
}

impl Kind for SearchError {
    fn kind(&self) -> ErrorKind {
        match self {
            // A cancelled search is reported by whoever cancelled it (an interrupt's own code).
            SearchError::Cancelled | SearchError::Check(_) | SearchError::Inconsistent(_) => {
                ErrorKind::Failure
            }
            SearchError::NoSuchPart(_) => ErrorKind::Refusal,
        }
    }
}

/// The count's own layouts: a bug in the search, not the input.
impl Kind for CountReportError {
    fn kind(&self) -> ErrorKind {
        match self {
            CountReportError::Check(_) | CountReportError::Classes { .. } => ErrorKind::Failure,
        }
    }
}

impl Kind for StartError {
    fn kind(&self) -> ErrorKind {
        match self {
            StartError::Parse { .. } | StartError::Check { .. } | StartError::Repeated(_) => {
                ErrorKind::Refusal
            }
        }
    }
}

impl Kind for PartPathError {
    /// A part path that is not one (in a plan or a trace file given).
    fn kind(&self) -> ErrorKind {
        ErrorKind::Refusal
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every `pub enum …Error` and `pub struct …Error` of src/ (the command line's aside) is
    /// in `error_kind`'s list, so that no library error reaches the command line without a kind.
    #[test]
    fn every_error_type_is_listed() {
        let listed = include_str!("kinds.rs");
        let listed = &listed[..listed
            .find("\nimpl Kind for")
            .expect("the list comes first")];
        let mut missing = Vec::new();
        let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
        while let Some(path) = files.pop() {
            if path.is_dir() {
                if path.ends_with("cli") {
                    continue;
                }
                for entry in std::fs::read_dir(&path).unwrap() {
                    files.push(entry.unwrap().path());
                }
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some(rest) = line
                    .strip_prefix("pub enum ")
                    .or_else(|| line.strip_prefix("pub struct "))
                else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // Only the error types (derived with thiserror), not every type named *Error.
                let derived = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                    .any(|l| l.contains("Error)") || l.contains("Error,"));
                if !derived || name == "SideBySideError" {
                    // SideBySideError is generic: the caller matches it (its kind is its parts').
                    continue;
                }
                let word = |n: &str| {
                    listed.match_indices(n).any(|(at, _)| {
                        let after = listed[at + n.len()..].chars().next();
                        let before = listed[..at].chars().last();
                        !after.is_some_and(|c| c.is_alphanumeric())
                            && !before.is_some_and(|c| c.is_alphanumeric())
                    })
                };
                if !word(&name) {
                    missing.push(format!("{name} ({})", path.display()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "error types without a place in error_kind: {missing:?}"
        );
    }
}
