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

/// For work that cannot stop in the middle (an N-queens count runs to its end): the first SIGINT or
/// SIGTERM prints the status line that the work keeps up to date and ends the process at once with
/// 130 or 143, after removing the `cleanup` files. The status is taken under its lock, which the
/// work holds while it writes a row, so a row is never cut.
pub struct ExitOnSignal {
    status: Arc<std::sync::Mutex<Status>>,
}

#[derive(Default)]
pub struct Status {
    /// The line printed on a signal (without `queendom: `).
    pub message: String,
    /// Files to remove before exiting (a lock's sidecar: the kernel releases the lock itself).
    pub cleanup: Vec<std::path::PathBuf>,
}

impl ExitOnSignal {
    pub fn register() -> io::Result<ExitOnSignal> {
        let status = Arc::new(std::sync::Mutex::new(Status::default()));
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
        let shared = Arc::clone(&status);
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let status = shared.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!("queendom: {}", status.message);
                for path in &status.cleanup {
                    let _ = std::fs::remove_file(path);
                }
                std::process::exit(if signal == SIGTERM {
                    SIGTERM_EXIT
                } else {
                    SIGINT_EXIT
                });
            }
        });
        Ok(ExitOnSignal { status })
    }

    /// The status, locked: hold it while writing a row and updating the message.
    pub fn status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|e| e.into_inner())
    }
}
