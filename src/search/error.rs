//! Why a search gave no answer.

use thiserror::Error;

use crate::check::CheckError;

#[derive(Debug, Error)]
pub enum SearchError {
    #[error("search cancelled")]
    Cancelled,
    /// The independent checker refused a layout the search produced: a bug in the search.
    #[error("internal error: the search produced a layout that fails the independent check: {0}")]
    Check(#[from] CheckError),
    /// Two searches disagree: a bug in the search.
    #[error("internal error: {0}")]
    Inconsistent(String),
    #[error("part {0} is not a part of this search")]
    NoSuchPart(String),
}
