//! Where the search hands what it finds when it counts: the `Recorder` a searcher gives every
//! layout within the limit, and the `Tally` it keeps of them until it flushes it. Below the kernel,
//! so that the kernel records without knowing how layouts are counted (`count` does).

use crate::layout::Layout;

/// Counts of the layouts of one size, and optionally their class representatives.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Layouts of the target size.
    pub layouts: u64,
    /// Classes of such layouts under the board's symmetries.
    pub classes: u64,
    /// Smallest layout below the target size seen, if any: the target was not the minimum.
    pub smaller: Option<Vec<u16>>,
    /// The canonical member (smallest over the whole class) and class size of every class
    /// counted, when asked for.
    pub representatives: Vec<(Vec<u16>, u8)>,
}

impl Tally {
    pub fn add(&mut self, other: &mut Tally) {
        self.layouts = self
            .layouts
            .checked_add(other.layouts)
            .expect("fewer than 2^64 layouts");
        self.classes += other.classes;
        if let Some(s) = other.smaller.take() {
            if self.smaller.as_ref().is_none_or(|t| s < *t) {
                self.smaller = Some(s);
            }
        }
        self.representatives.append(&mut other.representatives);
        other.layouts = 0;
        other.classes = 0;
    }
}

/// Where a count hands the classes it finds, as it finds them, instead of keeping them: so that a
/// count of millions of classes need not hold them all (the command line sorts them on disk).
/// Batches come from any thread, in no particular order; each class comes exactly once.
pub trait ClassSink: Send + Sync {
    /// Classes found: each one's canonical layout (the smallest of its images) and its size.
    fn classes(&self, batch: Vec<(Layout, usize)>);
}

/// Where the search hands the layouts it finds when counting.
pub(crate) trait Recorder: Sync {
    /// A layout the search found (squares in the order placed).
    fn record(&self, queens: &[u16], tally: &mut Tally);
    /// A searcher is done: add its tally to the total.
    fn flush(&self, tally: &mut Tally);
}
