//! Ctrl-C (SIGINT) and SIGTERM. The first one raises a flag that the running search watches: it
//! stops, the board in progress is dropped, and the command exits 130 (SIGINT) or 143 (SIGTERM).
//! A second one ends the process at once with the same code; that is safe too, because rows reach
//! the file whole.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

/// Exit code after SIGINT: 128 + 2, as shells report it.
pub const SIGINT_EXIT: i32 = 130;
/// Exit code after SIGTERM: 128 + 15.
pub const SIGTERM_EXIT: i32 = 143;

pub struct Interrupt {
    cancel: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Interrupt {
    /// Replace the default (killing) action of SIGINT and SIGTERM by raising the flag.
    pub fn register() -> io::Result<Interrupt> {
        let cancel = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        for (signal, code) in [(SIGINT, SIGINT_EXIT), (SIGTERM, SIGTERM_EXIT)] {
            // Registered first, so it sees the flag as it was before this signal: set means second.
            flag::register_conditional_shutdown(signal, code, Arc::clone(&cancel))?;
            flag::register(signal, Arc::clone(&cancel))?;
        }
        flag::register(SIGTERM, Arc::clone(&term))?;
        Ok(Interrupt { cancel, term })
    }

    /// The flag to hand to the search as its cancel flag.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    pub fn is_set(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub fn exit_code(&self) -> i32 {
        if self.term.load(Ordering::Relaxed) {
            SIGTERM_EXIT
        } else {
            SIGINT_EXIT
        }
    }
}
