//! The searcher's large buffers, kept per thread between parts.

use std::cell::RefCell;

use crate::board::LINE_SLOTS;

use super::MAX_QUEENS;

/// A searcher's large buffers, kept per thread between parts: parts are many and short, and every
/// entry is written before it is read, so a buffer from an earlier part is as good as a new one.
pub(super) struct Scratch {
    pub line_uncovered: Vec<[u8; LINE_SLOTS]>,
    pub cov: Vec<u8>,
    pub by_cov: Vec<u16>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            line_uncovered: vec![[0; LINE_SLOTS]; MAX_QUEENS + 2],
            cov: Vec::new(),
            by_cov: Vec::new(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<Scratch>> = const { RefCell::new(Vec::new()) };
}

impl Scratch {
    /// A scratch from this thread's pool, or a new one.
    pub(super) fn take() -> Scratch {
        SCRATCH
            .with(|pool| pool.borrow_mut().pop())
            .unwrap_or_else(Scratch::new)
    }

    /// Back into this thread's pool, for the next searcher.
    pub(super) fn give_back(self) {
        SCRATCH.with(|pool| pool.borrow_mut().push(self));
    }
}
