//! Ctrl-C (SIGINT), SIGTERM, and SIGHUP (the terminal closed, or the session's leader ended). The
//! first one raises a flag that the running work watches (the start layout's local search, the
//! planning, the search, the count, the pictures): it stops, the board in progress is dropped, and
//! the command exits 128 + the signal's number, as shells report it: 130 (SIGINT), 143 (SIGTERM)
//! or 129 (SIGHUP). A second one ends the process at once with the same code; that is safe too,
//! because rows reach the file whole.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;

/// Exit code after SIGINT: 128 + 2, as shells report it.
pub const SIGINT_EXIT: i32 = 130;
/// Exit code after SIGTERM: 128 + 15.
pub const SIGTERM_EXIT: i32 = 143;
/// Exit code after SIGHUP: 128 + 1.
pub const SIGHUP_EXIT: i32 = 129;

/// The signals that stop a run, each with its exit code.
const STOPPING: [(i32, i32); 3] = [
    (SIGINT, SIGINT_EXIT),
    (SIGTERM, SIGTERM_EXIT),
    (SIGHUP, SIGHUP_EXIT),
];

pub struct Interrupt {
    cancel: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
    hup: Arc<AtomicBool>,
}

impl Interrupt {
    /// Replace the default (killing) action of SIGINT, SIGTERM and SIGHUP by raising the flag.
    pub fn register() -> io::Result<Interrupt> {
        let cancel = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        let hup = Arc::new(AtomicBool::new(false));
        for (signal, code) in STOPPING {
            // Registered first, so it sees the flag as it was before this signal: set means second.
            flag::register_conditional_shutdown(signal, code, Arc::clone(&cancel))?;
            flag::register(signal, Arc::clone(&cancel))?;
        }
        flag::register(SIGTERM, Arc::clone(&term))?;
        flag::register(SIGHUP, Arc::clone(&hup))?;
        Ok(Interrupt { cancel, term, hup })
    }

    /// The flag to hand to the search as its cancel flag.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    pub fn is_set(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub fn exit_code(&self) -> i32 {
        if self.hup.load(Ordering::Relaxed) {
            SIGHUP_EXIT
        } else if self.term.load(Ordering::Relaxed) {
            SIGTERM_EXIT
        } else {
            SIGINT_EXIT
        }
    }
}

/// For work that cannot stop in the middle (an N-queens count runs to its end, a benchmark's
/// runs): the first SIGINT, SIGTERM or SIGHUP prints the status line that the work keeps up to
/// date and ends the process at once with 130, 143 or 129, after removing the `cleanup` files. The
/// status is taken under its lock, which the work holds while it writes a row or a file, so
/// neither is ever cut.
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
        let mut signals = signal_hook::iterator::Signals::new(STOPPING.map(|(signal, _)| signal))?;
        let shared = Arc::clone(&status);
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let status = shared.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!("queendom: {}", status.message);
                for path in &status.cleanup {
                    let _ = std::fs::remove_file(path);
                }
                let code = STOPPING
                    .iter()
                    .find(|(s, _)| *s == signal)
                    .map_or(SIGINT_EXIT, |(_, code)| *code);
                std::process::exit(code);
            }
        });
        Ok(ExitOnSignal { status })
    }

    /// The status, locked: hold it while writing a row and updating the message.
    pub fn status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|e| e.into_inner())
    }
}
