//! A time budget for searches that poll a cancel flag: one flag, raised when the time is up or
//! when the caller's own flag (Ctrl-C) is raised, whichever comes first. The searches keep
//! polling one relaxed load; a watcher thread does the waiting, so no search looks at a clock.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the watcher looks at the caller's flag: a Ctrl-C stops a budgeted search within
/// this much more than an unbudgeted one.
const OUTER_POLL: Duration = Duration::from_millis(20);

/// A flag raised at a deadline or with an outer flag; the watcher stops when this is dropped.
pub(crate) struct Deadline {
    flag: Arc<AtomicBool>,
    outer: Option<Arc<AtomicBool>>,
    /// `None`: a budget too large for the clock, which never runs out.
    at: Option<Instant>,
    done: Option<mpsc::Sender<()>>,
    watcher: Option<JoinHandle<()>>,
}

impl Deadline {
    /// A flag raised `after` from now, or as soon as `outer` is raised.
    pub(crate) fn start(after: Duration, outer: Option<Arc<AtomicBool>>) -> Deadline {
        let flag = Arc::new(AtomicBool::new(false));
        let at = Instant::now().checked_add(after);
        let (done, finished) = mpsc::channel::<()>();
        let watcher = {
            let (flag, outer) = (flag.clone(), outer.clone());
            std::thread::spawn(move || loop {
                let left = at.map_or(OUTER_POLL, |at| {
                    at.saturating_duration_since(Instant::now())
                });
                if left.is_zero() || outer.as_ref().is_some_and(|o| o.load(Relaxed)) {
                    flag.store(true, Relaxed);
                    return;
                }
                match finished.recv_timeout(left.min(OUTER_POLL)) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                }
            })
        };
        Deadline {
            flag,
            outer,
            at,
            done: Some(done),
            watcher: Some(watcher),
        }
    }

    /// The flag to give the searches as their cancel flag.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// Whether the caller's own flag was raised (as opposed to the time running out).
    pub(crate) fn cancelled_from_outside(&self) -> bool {
        self.outer.as_ref().is_some_and(|o| o.load(Relaxed))
    }

    /// Whether the time is up.
    pub(crate) fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(watcher) = self.watcher.take() {
            // The watcher only waits and stores: it cannot panic, and it ends at once.
            let _ = watcher.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_rises_at_the_deadline_or_with_the_outer_flag() {
        let d = Deadline::start(Duration::from_millis(30), None);
        assert!(!d.flag().load(Relaxed));
        std::thread::sleep(Duration::from_millis(200));
        assert!(d.flag().load(Relaxed) && d.passed() && !d.cancelled_from_outside());

        let outer = Arc::new(AtomicBool::new(false));
        let d = Deadline::start(Duration::from_secs(3600), Some(outer.clone()));
        outer.store(true, Relaxed);
        std::thread::sleep(Duration::from_millis(200));
        assert!(d.flag().load(Relaxed) && !d.passed() && d.cancelled_from_outside());

        // Dropped long before its time: the watcher ends, the flag stays down.
        let d = Deadline::start(Duration::from_secs(3600), None);
        let flag = d.flag();
        drop(d);
        assert!(!flag.load(Relaxed));
    }
}
