//! The advisory lock on an output file, so that a second run writing (or resuming) the same file is
//! refused instead of interleaving rows with the first.
//!
//! The lock is `flock` on a small sidecar file `.NAME.lock` beside the file (not on the file itself:
//! the file is replaced by a rename at the end, and a lock on the old inode would not stop a run
//! that opens the new one). The holder writes its pid, host and start time into the sidecar so that
//! a refused run can name it. The kernel drops an `flock` when its process dies, however it dies,
//! so a run killed with `kill -9` never blocks the next one: its sidecar is simply taken over.
//! The holder removes the sidecar when it is done, while still holding the lock; a run that locked
//! the sidecar just before it was removed sees that the path no longer leads to the file it locked
//! and tries again.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A held lock; dropping it removes the sidecar and releases the lock.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    file: File,
}

/// Why the lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it; its note (`pid 123 on host, since …`) if it could be read.
    Held(String),
    /// The sidecar could not be created or opened (no such directory, not writable, …).
    Io(io::Error),
}

impl Lock {
    /// Take the lock of the file `target` (the sidecar `.NAME.lock` beside it), without waiting.
    pub fn take(target: &Path) -> Result<Lock, LockError> {
        let path = sidecar(target, "lock");
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(LockError::Io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut note = String::new();
                    let _ = file.read_to_string(&mut note);
                    return Err(LockError::Held(describe(note.trim())));
                }
                Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
            }
            // The holder before us may have removed the sidecar between our open and our lock:
            // then we hold a lock on a file nobody else will ever open. Start again.
            let same = match (file.metadata(), fs::metadata(&path)) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            };
            if !same {
                continue;
            }
            let since = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let note = format!("pid {} host {} since {since}\n", std::process::id(), host());
            file.set_len(0).map_err(LockError::Io)?;
            file.rewind().map_err(LockError::Io)?;
            file.write_all(note.as_bytes()).map_err(LockError::Io)?;
            return Ok(Lock { path, file });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked (the file closes after this), see the module doc.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// `.NAME.WHAT` beside `target`: a hidden file of the same directory.
pub fn sidecar(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(".{name}.{what}"))
}

/// The holder's note in words: `pid 123 on host box, since 2026-05-01T07:03:12Z (40 s ago)`.
fn describe(note: &str) -> String {
    let mut pid = "?";
    let mut host = "?";
    let mut since = None;
    let words: Vec<&str> = note.split_whitespace().collect();
    for pair in words.chunks(2) {
        match pair {
            ["pid", p] => pid = p,
            ["host", h] => host = h,
            ["since", s] => since = s.parse::<u64>().ok(),
            _ => {}
        }
    }
    let when = match since {
        Some(secs) => {
            let start = UNIX_EPOCH + Duration::from_secs(secs);
            let ago = SystemTime::now()
                .duration_since(start)
                .map_or(0, |d| d.as_secs());
            format!(
                ", since {} ({ago} s ago)",
                humantime::format_rfc3339_seconds(start)
            )
        }
        None => String::new(),
    };
    format!("pid {pid} on host {host}{when}")
}

fn host() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.csv");
        let first = Lock::take(&target).unwrap();
        assert!(dir.path().join(".t.csv.lock").exists());
        match Lock::take(&target) {
            Err(LockError::Held(who)) => {
                assert!(
                    who.starts_with(&format!("pid {} on host ", std::process::id())),
                    "{who}"
                );
                assert!(who.contains(" s ago)"), "{who}");
            }
            other => panic!("second lock: {other:?}"),
        }
        drop(first);
        assert!(!dir.path().join(".t.csv.lock").exists());
        let again = Lock::take(&target).unwrap();
        drop(again);
    }

    #[test]
    fn a_stale_sidecar_is_taken_over() {
        // What a run killed with kill -9 leaves: the sidecar, but no lock on it.
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.csv");
        fs::write(sidecar(&target, "lock"), "pid 1 host gone since 0\n").unwrap();
        let lock = Lock::take(&target).unwrap();
        let note = fs::read_to_string(sidecar(&target, "lock")).unwrap();
        assert!(note.starts_with(&format!("pid {} ", std::process::id())));
        drop(lock);
    }
}
