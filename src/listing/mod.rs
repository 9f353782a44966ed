//! What `count --list` and `count --classes` print before the counts, with memory bounded
//! whatever the count: the search hands each class to a [`CountListing`] as it finds it (a
//! [`ClassSink`]), in any order; the listing keeps a fixed buffer of records and spills it, sorted,
//! to anonymous temporary files (`spill`), then merges them into the order the in-memory report
//! prints ([`Counted::report`]): classes by canonical layout, layouts in increasing order, both
//! independent of the threads. Every layout written passes the independent checker again.

mod spill;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use thiserror::Error;

use crate::board::Board;
use crate::check::CheckError;
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;
use crate::search::{ClassSink, Counted};

use spill::SpillSorter;

/// Bytes of records a listing keeps in memory before it spills them to disk.
pub const DEFAULT_BUFFER_BYTES: usize = 64 << 20;

/// Records written between two looks at the stop flag.
const STOP_EVERY: u64 = 4096;

/// What the listing prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// One line per class: its canonical layout and its size.
    Classes,
    /// One line per layout.
    Layouts,
}

/// Why a listing could not be written.
#[derive(Debug, Error)]
pub enum ListingError {
    #[error(
        "cannot write the sorted layouts to a temporary file in {}: {source} (set TMPDIR to a \
         directory with room, then run the count again)",
        dir.display()
    )]
    Spill {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot write the listing: {0}")]
    Output(#[source] io::Error),
    #[error(transparent)]
    Check(#[from] CheckError),
    #[error("internal error: the count of {board} gave {layout} twice")]
    Repeated { board: Board, layout: String },
    #[error(
        "internal error: the listing of {board} holds {classes} classes of {layouts} layouts, \
         the count says {counted_classes} of {counted_layouts}"
    )]
    Held {
        board: Board,
        classes: u64,
        layouts: u64,
        counted_classes: u64,
        counted_layouts: u64,
    },
    #[error("stopped while listing the layouts of {board}")]
    Stopped { board: Board },
}

impl ListingError {
    /// The reader of the listing went away (as with `| head`): not an error of the command.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, ListingError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// A listing's own layouts failing is a bug in the search; the disk or the output failing is
/// the machine's.
impl Kind for ListingError {
    fn kind(&self) -> ErrorKind {
        match self {
            ListingError::Spill { .. }
            | ListingError::Output(_)
            | ListingError::Check(_)
            | ListingError::Repeated { .. }
            | ListingError::Held { .. }
            | ListingError::Stopped { .. } => ErrorKind::Failure,
        }
    }
}

/// The classes of one board's count, gathered on disk as the search finds them.
pub struct CountListing {
    board: Board,
    listing: Listing,
    sorter: Mutex<Option<SpillSorter>>,
    /// The first spill that failed: the search is stopped (through `cancel`) and this reported.
    failure: Mutex<Option<ListingError>>,
    cancel: Option<Arc<AtomicBool>>,
}

impl CountListing {
    /// A listing of `board` that keeps `buffer_bytes` of records in memory and spills the rest
    /// to anonymous files in `dir`; a failed spill sets `cancel`, to stop the search.
    pub fn new(
        board: Board,
        listing: Listing,
        dir: &Path,
        buffer_bytes: usize,
        cancel: Option<Arc<AtomicBool>>,
    ) -> CountListing {
        CountListing {
            board,
            listing,
            sorter: Mutex::new(Some(SpillSorter::new(dir, buffer_bytes))),
            failure: Mutex::new(None),
            cancel,
        }
    }

    /// The spill failure that stopped the search, if one did.
    pub fn take_failure(&self) -> Option<ListingError> {
        lock(&self.failure).take()
    }

    /// Write the listing to `out` in the report's order, each layout checked again, and hand
    /// each class (with `Listing::Classes`) to `on_class`; `stop` is asked now and then whether
    /// to give up. The totals must be those of `counted`. The listing is then empty.
    pub fn write(
        &self,
        counted: &Counted,
        out: &mut dyn Write,
        on_class: &mut dyn FnMut(Layout, usize),
        stop: &dyn Fn() -> bool,
    ) -> Result<(), ListingError> {
        if let Some(failure) = self.take_failure() {
            return Err(failure);
        }
        let board = self.board;
        let Some(sorter) = lock(&self.sorter).take() else {
            panic!("a listing is written once");
        };
        let mut sorted = sorter.into_sorted()?;
        let (problem, queens) = (counted.problem, counted.queens);
        let (mut classes, mut layouts) = (0u64, 0u64);
        let mut previous: Option<Vec<u16>> = None;
        let mut written = 0u64;
        while let Some(record) = sorted.next_record()? {
            let squares = &record[..queens.min(record.len())];
            if previous.as_deref() == Some(squares) {
                return Err(ListingError::Repeated {
                    board,
                    layout: layout_of(board, squares).to_squares_string(),
                });
            }
            let layout = layout_of(board, squares);
            problem.check(&layout, queens)?;
            let text = layout.to_squares_string();
            match self.listing {
                Listing::Classes => {
                    let size = record[queens] as usize;
                    writeln!(out, "{text}  (class of {size})").map_err(ListingError::Output)?;
                    classes += 1;
                    layouts += size as u64;
                    on_class(layout, size);
                }
                Listing::Layouts => {
                    writeln!(out, "{text}").map_err(ListingError::Output)?;
                    layouts += 1;
                }
            }
            written += 1;
            if written.is_multiple_of(STOP_EVERY) && stop() {
                return Err(ListingError::Stopped { board });
            }
            previous = Some(squares.to_vec());
        }
        let classes_held = match self.listing {
            Listing::Classes => classes,
            // A list does not say its classes.
            Listing::Layouts => counted.classes,
        };
        if classes_held != counted.classes || layouts != counted.layouts {
            return Err(ListingError::Held {
                board,
                classes: classes_held,
                layouts,
                counted_classes: counted.classes,
                counted_layouts: counted.layouts,
            });
        }
        Ok(())
    }

    fn push(&self, batch: Vec<(Layout, usize)>) -> Result<(), ListingError> {
        let mut guard = lock(&self.sorter);
        let Some(sorter) = guard.as_mut() else {
            return Ok(());
        };
        let board = self.board;
        let mut record: Vec<u16> = Vec::new();
        for (layout, size) in batch {
            match self.listing {
                Listing::Classes => {
                    record.clear();
                    record.extend(layout.queens().iter().map(|&q| board.index(q) as u16));
                    // At most 8 symmetries: a class size fits a record's value.
                    record.push(size as u16);
                    sorter.push(&record)?;
                }
                Listing::Layouts => {
                    for member in layout.class() {
                        record.clear();
                        record.extend(member.queens().iter().map(|&q| board.index(q) as u16));
                        sorter.push(&record)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl ClassSink for CountListing {
    fn classes(&self, batch: Vec<(Layout, usize)>) {
        if lock(&self.failure).is_some() {
            return;
        }
        if let Err(e) = self.push(batch) {
            *lock(&self.failure) = Some(e);
            if let Some(cancel) = &self.cancel {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// A lock whose holder panicked still holds consistent data here (records are pushed whole).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn layout_of(board: Board, squares: &[u16]) -> Layout {
    Layout::new(
        board,
        squares.iter().map(|&s| board.square(s as usize)).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;
    use crate::search::{count, SearchError, SearchOptions};

    /// The listing streamed through a sorter of `buffer_bytes`, and the count.
    fn streamed(
        board: Board,
        problem: Problem,
        listing: Listing,
        parallel: bool,
        buffer_bytes: usize,
    ) -> (String, Counted) {
        let dir = tempfile::tempdir().unwrap();
        let sink = Arc::new(CountListing::new(
            board,
            listing,
            dir.path(),
            buffer_bytes,
            None,
        ));
        let options = SearchOptions {
            parallel,
            class_sink: Some(sink.clone()),
            ..SearchOptions::default()
        };
        let counted = count(board, problem, true, &options).unwrap();
        assert!(counted.representatives.is_empty(), "the sink took them");
        let mut out = Vec::new();
        let mut drawn = 0;
        sink.write(&counted, &mut out, &mut |_, _| drawn += 1, &|| false)
            .unwrap();
        if listing == Listing::Classes {
            assert_eq!(drawn as u64, counted.classes);
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        (String::from_utf8(out).unwrap(), counted)
    }

    #[test]
    fn streamed_listings_equal_the_in_memory_report() {
        let boards = [
            ("8x8", Problem::Domination),
            ("6x9", Problem::Domination),
            ("5x12", Problem::Domination),
            ("4x4", Problem::IndependentDomination),
            ("7x7", Problem::IndependentDomination),
        ];
        for (board, problem) in boards {
            let board: Board = board.parse().unwrap();
            // The old path: every class in memory, the report built whole.
            let in_memory = count(board, problem, true, &SearchOptions::sequential()).unwrap();
            for listing in [Listing::Classes, Listing::Layouts] {
                let (list, classes) = (listing == Listing::Layouts, listing == Listing::Classes);
                let expected = in_memory.report(board, list, classes, 0.0, 1).unwrap();
                for parallel in [false, true] {
                    // Tiny buffers (a record or a few per run: the spill-and-merge path, in
                    // several passes) and the default (all in memory).
                    for buffer_bytes in [1, 100, DEFAULT_BUFFER_BYTES] {
                        let what = format!(
                            "{board} {problem:?} {listing:?} parallel {parallel} buffer {buffer_bytes}"
                        );
                        let (text, counted) =
                            streamed(board, problem, listing, parallel, buffer_bytes);
                        assert_eq!(
                            (counted.layouts, counted.classes),
                            (in_memory.layouts, in_memory.classes),
                            "{what}"
                        );
                        // The summary's node count depends on timing in parallel: the old
                        // report's is taken.
                        let got = text + &in_memory.summary(board, 0.0, 1);
                        assert_eq!(got, expected, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_failed_spill_stops_the_search_and_names_the_directory() {
        let board: Board = "8x8".parse().unwrap();
        let missing = Path::new("/nonexistent/queendom-listing");
        let cancel = Arc::new(AtomicBool::new(false));
        let sink = Arc::new(CountListing::new(
            board,
            Listing::Layouts,
            missing,
            1,
            Some(cancel.clone()),
        ));
        let options = SearchOptions {
            class_sink: Some(sink.clone()),
            cancel: Some(cancel.clone()),
            ..SearchOptions::default()
        };
        let result = count(board, Problem::Domination, true, &options);
        // The search stops at its next look at the flag, or is already done.
        assert!(cancel.load(Ordering::Relaxed));
        assert!(matches!(result, Ok(_) | Err(SearchError::Cancelled)));
        let err = sink.take_failure().expect("the spill failed");
        assert!(
            err.to_string().contains("/nonexistent/queendom-listing"),
            "{err}"
        );
    }
}
