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

use super::record::{Recorder, Tally};
use super::space::SpaceW;

/// The recorder of one counting run over one board.
pub(crate) struct Counter<'a, const W: usize> {
    space: &'a SpaceW<W>,
    target: usize,
    keep_representatives: bool,
    total: Mutex<Tally>,
}

impl<'a, const W: usize> Counter<'a, W> {
    pub fn new(space: &'a SpaceW<W>, target: usize, keep_representatives: bool) -> Self {
        Counter {
            space,
            target,
            keep_representatives,
            total: Mutex::new(Tally::default()),
        }
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
        }
    }

    fn flush(&self, tally: &mut Tally) {
        let mut total = self.total.lock().unwrap_or_else(|e| e.into_inner());
        total.add(tally);
    }
}
