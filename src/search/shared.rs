//! The state all workers share: the best layout so far, packed with its place in the search order
//! into one atomic word that every node reads (relaxed) to prune, plus the cancel flag.
//!
//! A layout is ranked by (number of queens, position of its part in the sequential search order).
//! A part may still report a layout as large as the best one if it comes earlier in the order, so
//! the layout that wins is always the first optimal one in the fixed order: the same on any number
//! of threads, and the same as the sequential search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Bits of a key: 7 for the number of queens, then the path of the part in the search tree:
/// 9 bits for the first queen's part, then 8 bits for each of up to 6 deeper splits.
const SIZE_SHIFT: u32 = 57;
const PATH_MASK: u64 = (1 << SIZE_SHIFT) - 1;
pub(crate) const ROOT_SHIFT: u32 = 48;
pub(crate) const MAX_ROOT_PARTS: usize = 1 << 9;
pub(crate) const MAX_SPLIT_LEVELS: usize = 6;

/// The path of child `index` (0-based) of the part at `path`, one split level deeper (1-based).
pub(crate) fn child_path(path: u64, level: usize, index: usize) -> u64 {
    debug_assert!((1..=MAX_SPLIT_LEVELS).contains(&level) && index < 256);
    path | (index as u64) << (ROOT_SHIFT - 8 * level as u32)
}

/// Whether `rank` lies in the subtree of the part at `path`, a part `depth` cuts below the whole
/// tree (0: the whole tree; 1: a root part; …): the levels the part fixes are the same.
pub(crate) fn holds(path: u64, depth: usize, rank: u64) -> bool {
    if depth == 0 {
        return rank <= PATH_MASK;
    }
    let low = ROOT_SHIFT - 8 * (depth as u32 - 1);
    let mask = PATH_MASK & !((1u64 << low) - 1);
    rank <= PATH_MASK && rank & mask == path
}

/// The indices of the cuts from the root to the part at `path`, `depth` cuts below the whole tree.
pub(crate) fn path_indices(path: u64, depth: usize) -> Vec<u16> {
    (0..depth)
        .map(|level| match level {
            0 => (path >> ROOT_SHIFT) as u16 & (MAX_ROOT_PARTS as u16 - 1),
            _ => (path >> (ROOT_SHIFT - 8 * level as u32)) as u16 & 0xff,
        })
        .collect()
}

pub(crate) fn root_path(part: usize) -> u64 {
    debug_assert!(part < MAX_ROOT_PARTS);
    (part as u64) << ROOT_SHIFT
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Key(pub u64);

impl Key {
    pub fn new(size: usize, path: u64) -> Key {
        debug_assert!(size < 128 && path <= PATH_MASK);
        Key((size as u64) << SIZE_SHIFT | path)
    }

    pub fn size(self) -> usize {
        (self.0 >> SIZE_SHIFT) as usize
    }

    pub fn path(self) -> u64 {
        self.0 & PATH_MASK
    }

    /// Most queens a layout found in the part at `path` may have and still beat this key.
    #[inline(always)]
    pub fn limit_for(self, path: u64) -> usize {
        if self.path() <= path {
            self.size() - 1
        } else {
            self.size()
        }
    }
}

pub(crate) struct Shared {
    pub best: AtomicU64,
    best_layout: Mutex<Option<Vec<u16>>>,
    cancel: Option<Arc<AtomicBool>>,
    stopped: AtomicBool,
}

impl Shared {
    /// Start with `key` as the best so far: either a layout known beforehand, or a size one more than
    /// the largest layout of interest (with no layout).
    pub fn new(key: Key, layout: Option<Vec<u16>>, cancel: Option<Arc<AtomicBool>>) -> Shared {
        Shared {
            best: AtomicU64::new(key.0),
            best_layout: Mutex::new(layout),
            cancel,
            stopped: AtomicBool::new(false),
        }
    }

    pub fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        self.cancel = cancel;
    }

    /// Offer a layout; it replaces the best if its key is smaller. Re-checked under the lock,
    /// since another worker may have stored a better one since this worker last looked.
    pub fn offer(&self, key: Key, queens: &[u16]) {
        let mut slot = self.best_layout.lock().unwrap_or_else(|e| e.into_inner());
        if key.0 < self.best.load(Relaxed) {
            *slot = Some(queens.to_vec());
            self.best.store(key.0, Relaxed);
        }
    }

    pub fn best(&self) -> (Key, Option<Vec<u16>>) {
        let slot = self.best_layout.lock().unwrap_or_else(|e| e.into_inner());
        (Key(self.best.load(Relaxed)), slot.clone())
    }

    /// Whether the run was cancelled from outside; latched so that every worker unwinds.
    pub fn should_stop(&self) -> bool {
        if self.stopped.load(Relaxed) {
            return true;
        }
        if self.cancel.as_ref().is_some_and(|c| c.load(Relaxed)) {
            self.stopped.store(true, Relaxed);
            return true;
        }
        false
    }

    pub fn stopped(&self) -> bool {
        self.stopped.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_hold_the_ranks_of_their_subtrees() {
        let part = child_path(root_path(3), 1, 7);
        assert!(holds(part, 2, part));
        assert!(holds(part, 2, child_path(part, 2, 5)));
        assert!(!holds(part, 2, child_path(root_path(3), 1, 8)));
        assert!(!holds(part, 2, root_path(4)));
        assert!(holds(root_path(3), 1, part));
        assert!(holds(0, 0, part));
        assert_eq!(path_indices(child_path(part, 2, 5), 3), vec![3, 7, 5]);
        assert_eq!(path_indices(part, 0), Vec::<u16>::new());
    }

    #[test]
    fn earlier_parts_may_tie_later_ones_may_not() {
        let best = Key::new(5, child_path(root_path(3), 1, 7));
        assert_eq!(best.limit_for(root_path(2)), 5);
        assert_eq!(best.limit_for(child_path(root_path(3), 1, 6)), 5);
        assert_eq!(best.limit_for(child_path(root_path(3), 1, 7)), 4);
        assert_eq!(best.limit_for(root_path(4)), 4);
        assert!(Key::new(4, root_path(9)) < best);
        assert!(Key::new(5, root_path(2)) < best);
    }
}
