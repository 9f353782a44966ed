//! Counting every minimum layout, and its classes under the board's symmetries, with the same
//! search that finds one.
//!
//! The search cuts the tree by symmetry (see `space`): of every class of layouts it visits at
//! least one member, and it visits each member it visits exactly once, but it skips the rest. So
//! a layout found is counted as follows: of the members of its class that the search visits (a
//! pure test on the layout, [`SpaceW::visits`]), only the smallest is counted, and it counts as one
//! class and as the whole size of its class in layouts. Every class is then counted exactly once,
//! whatever the order or the threads, and the totals merge by addition across parts, threads and
//! machines.

use std::sync::Mutex;

use super::record::{ClassSink, Recorder, Tally};
use super::space::{layout_of, SpaceW};

/// Classes a searcher keeps before it hands them to the sink: memory stays a few batches per
/// thread, and the sink's lock is taken once per batch.
const SINK_BATCH: usize = 256;

/// The recorder of one counting run over one board.
pub(crate) struct Counter<'a, const W: usize> {
    space: &'a SpaceW<W>,
    target: usize,
    keep_representatives: bool,
    /// Where the representatives go as they are found, instead of into the total.
    sink: Option<&'a dyn ClassSink>,
    total: Mutex<Tally>,
}

impl<'a, const W: usize> Counter<'a, W> {
    pub fn new(
        space: &'a SpaceW<W>,
        target: usize,
        keep_representatives: bool,
        sink: Option<&'a dyn ClassSink>,
    ) -> Self {
        Counter {
            space,
            target,
            keep_representatives,
            sink,
            total: Mutex::new(Tally::default()),
        }
    }

    /// Hand the tally's representatives to the sink, if there is one.
    fn hand_over(&self, tally: &mut Tally) {
        let Some(sink) = self.sink else { return };
        if tally.representatives.is_empty() {
            return;
        }
        let board = self.space.board();
        let batch = tally
            .representatives
            .drain(..)
            .map(|(queens, size)| (layout_of(board, &queens), size as usize))
            .collect();
        sink.classes(batch);
    }

    pub fn into_total(self) -> Tally {
        self.total.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<const W: usize> Recorder for Counter<'_, W> {
    fn record(&self, queens: &[u16], tally: &mut Tally) {
        let mut layout = queens.to_vec();
        layout.sort_unstable();
        if layout.len() < self.target {
            if tally.smaller.as_ref().is_none_or(|s| layout < *s) {
                tally.smaller = Some(layout);
            }
            return;
        }
        debug_assert_eq!(layout.len(), self.target);
        let class = self.space.class_of(&layout);
        let visited_first = class
            .iter()
            .filter(|member| self.space.visits(member))
            .min()
            .expect("the search visits the layout it found");
        if *visited_first != layout {
            return;
        }
        tally.layouts += class.len() as u64;
        tally.classes += 1;
        if self.keep_representatives {
            tally
                .representatives
                .push((class[0].clone(), class.len() as u8));
            if tally.representatives.len() >= SINK_BATCH {
                self.hand_over(tally);
            }
        }
    }

    fn flush(&self, tally: &mut Tally) {
        self.hand_over(tally);
        let mut total = self.total.lock().unwrap_or_else(|e| e.into_inner());
        total.add(tally);
    }
}
