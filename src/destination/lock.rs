//! The advisory lock on an output file, so that a second run writing (or resuming) the same file is
//! refused instead of interleaving rows with the first, whatever name it is given.
//!
//! A run takes two locks, each an `flock` on a small sidecar file that also holds the holder's note
//! (pid, host and start time, so that a refused run can name it):
//! - the path's, `.NAME.lock` beside the path. It covers a file that does not exist yet, and the
//!   moment the file is replaced by a rename at the end: a lock on the old file would not stop a
//!   run that opens the new one.
//! - the file's, `.queendom-DEV-INO.lock` in its directory, named after the file itself (device
//!   and inode), so that runs given two hard links of one file in one directory meet on it. It is
//!   taken when the file exists, and again for the file a run creates or puts in place.
//!
//! With the file's lock, the file itself is `flock`ed too (opened read-only: nothing is read), so
//! that a hard link in another directory, whose sidecar would be elsewhere, is refused as well;
//! that refusal cannot name the holder. (On NFS `flock` is emulated with byte-range locks, which
//! the holder drops whenever it closes any descriptor of the file: there the sidecars do the work.)
//!
//! The kernel drops an `flock` when its process dies, however it dies, so a run killed with
//! `kill -9` never blocks the next one: its sidecars are simply taken over. The holder removes a
//! sidecar when it is done, while still holding its lock; a run that locked the sidecar just
//! before it was removed sees that the path no longer leads to the file it locked and tries again.
//!
//! Sidecar and temporary names keep within the 255 bytes a file name may have ([`hidden_name`]).

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use crate::fault;

/// The longest file name (one path component, in bytes) Linux file systems take.
pub const NAME_MAX: usize = 255;

/// A held lock; dropping it removes the sidecars and releases the locks.
pub struct Lock {
    path: Sidecar,
    /// The lock of the file now at the path, if there is one (replaced when a new file is put
    /// there).
    file: Mutex<Option<FileLock>>,
}

impl std::fmt::Debug for Lock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lock({})", self.path.path.display())
    }
}

/// Why the lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it; its note (`pid 123 on host, since …`) if it could be read.
    Held(String),
    /// A sidecar could not be created or opened (no such directory, not writable, …).
    Io(io::Error),
}

impl Lock {
    /// Take the locks of the file `target` (the path's and, if the file exists, the file's),
    /// without waiting.
    pub fn take(target: &Path) -> Result<Lock, LockError> {
        let path = Sidecar::take(sidecar(target, "lock"), Some("lock note"))?;
        let file = FileLock::take(target)?;
        Ok(Lock {
            path,
            file: Mutex::new(file),
        })
    }

    /// Lock the file now at `target` in place of the one locked before: after this run created
    /// it, or renamed a new one over it. Nobody else can know the new file yet (the path's lock
    /// is ours), so this cannot meet another holder; if it fails anyway, the path's lock still
    /// stands.
    pub fn follow(&self, target: &Path) {
        let new = FileLock::take(target).ok().flatten();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // The old lock is dropped only after the new one is taken: no moment without either.
        *file = new;
    }

    /// The sidecar files, for a process that exits without running destructors.
    pub fn sidecars(&self) -> Vec<PathBuf> {
        let mut paths = vec![self.path.path.clone()];
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        paths.extend(file.as_ref().map(|f| f.note.path.clone()));
        paths
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // The file's lock first: the path's lock is what a run on the same path meets first.
        let file = self.file.get_mut().unwrap_or_else(|e| e.into_inner());
        file.take();
    }
}

/// The lock of an existing file: its sidecar named after device and inode, and (where it can be
/// opened) the file itself.
struct FileLock {
    note: Sidecar,
    _file: Option<File>,
}

impl FileLock {
    /// `None` if no regular file is at `target` (nothing to lock beyond the path).
    fn take(target: &Path) -> Result<Option<FileLock>, LockError> {
        let meta = match fs::metadata(target) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(LockError::Io(e)),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = format!(".queendom-{:x}-{}.lock", meta.dev(), meta.ino());
        let note = Sidecar::take(dir.join(name), None)?;
        // Read-only and without blocking: a file without read permission (which --force may
        // still replace) is left to the sidecars, as is anything that is no longer the file.
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(target)
            .ok()
            .filter(|f| {
                f.metadata()
                    .is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
            });
        let file = match file {
            Some(file) => match file.try_lock() {
                Ok(()) => Some(file),
                Err(TryLockError::WouldBlock) => {
                    return Err(LockError::Held(
                        "through another name of it, a hard link".to_string(),
                    ))
                }
                // A file system without flock: the sidecars still stand.
                Err(TryLockError::Error(_)) => None,
            },
            None => None,
        };
        Ok(Some(FileLock { note, _file: file }))
    }
}

/// A locked sidecar holding this process's note; dropped, it is removed, then unlocked.
struct Sidecar {
    path: PathBuf,
    file: File,
}

impl Sidecar {
    /// `point`: the write point of [`crate::fault`] the note passes, if any (the path's lock,
    /// which every run takes first, is how a refusal on a full disk is tested).
    fn take(path: PathBuf, point: Option<&str>) -> Result<Sidecar, LockError> {
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
                    // A note is one short line; anything longer is not ours.
                    let _ = (&mut file).take(256).read_to_string(&mut note);
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
            let note = format!(
                "pid {} host {} since {since}\n",
                std::process::id(),
                host_name()
            );
            // Held from here: a note that cannot be written (a full disk) drops the sidecar,
            // which removes it, so a refusal leaves no empty lock file behind.
            let mut sidecar = Sidecar { path, file };
            sidecar.file.set_len(0).map_err(LockError::Io)?;
            sidecar.file.rewind().map_err(LockError::Io)?;
            let written = match point {
                Some(point) => fault::write_all(point, &mut sidecar.file, note.as_bytes()),
                None => sidecar.file.write_all(note.as_bytes()),
            };
            written.map_err(LockError::Io)?;
            return Ok(sidecar);
        }
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        // Removed while still locked (the file closes after this), see the module doc.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// `.NAME.WHAT` beside `target`: a hidden file of the same directory (see [`hidden_name`]).
pub fn sidecar(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().unwrap_or_default();
    target.with_file_name(hidden_name(name, what, 0))
}

/// `.NAME.WHAT`, if it leaves `reserve` bytes (for a temporary file's random letters) of a file
/// name's [`NAME_MAX`]; otherwise `.START~HASH.WHAT`, with as much of NAME's start as fits and 16
/// hex digits of its SHA-256, so that the name stays the same from run to run (a journal is found
/// again) and two long names do not meet.
pub fn hidden_name(name: &OsStr, what: &str, reserve: usize) -> OsString {
    let bytes = name.as_bytes();
    let room = NAME_MAX.saturating_sub(reserve);
    let whole = 1 + bytes.len() + 1 + what.len();
    let mut out = vec![b'.'];
    if whole <= room {
        out.extend(bytes);
    } else {
        let hash = Sha256::digest(bytes);
        let digits: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
        let mut keep = room
            .saturating_sub(1 + 1 + digits.len() + 1 + what.len())
            .min(bytes.len());
        // Not in the middle of a UTF-8 character: the name stays readable.
        while keep > 0 && keep < bytes.len() && bytes[keep] & 0xC0 == 0x80 {
            keep -= 1;
        }
        out.extend(&bytes[..keep]);
        out.push(b'~');
        out.extend(digits.as_bytes());
    }
    out.push(b'.');
    out.extend(what.as_bytes());
    OsString::from_vec(out)
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

/// This machine's name, as the notes of locks and the claims and attempts of a run directory
/// record it: one word ("unknown" when there is none), so that a note splits on white space.
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).trim().to_string())
        .filter(|h| ok && !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

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

    #[test]
    fn hard_links_share_the_files_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.csv");
        fs::write(&a, "").unwrap();
        let b = dir.path().join("b.csv");
        fs::hard_link(&a, &b).unwrap();
        let other = tempfile::tempdir().unwrap();
        let c = other.path().join("c.csv");
        fs::hard_link(&a, &c).unwrap();
        let first = Lock::take(&a).unwrap();
        match Lock::take(&b) {
            Err(LockError::Held(who)) => assert!(who.starts_with("pid "), "{who}"),
            other => panic!("a hard link beside it: {other:?}"),
        }
        // In another directory, the file's own flock refuses it.
        assert!(matches!(Lock::take(&c), Err(LockError::Held(_))));
        // The refused runs left nothing, the holder leaves nothing once done.
        assert_eq!(names(other.path()), ["c.csv"]);
        drop(first);
        assert_eq!(names(dir.path()), ["a.csv", "b.csv"]);
        drop(Lock::take(&b).unwrap());
    }

    #[test]
    fn the_lock_follows_a_file_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.csv");
        let lock = Lock::take(&a).unwrap();
        fs::write(&a, "").unwrap();
        lock.follow(&a);
        let b = dir.path().join("b.csv");
        fs::hard_link(&a, &b).unwrap();
        assert!(matches!(Lock::take(&b), Err(LockError::Held(_))));
        assert_eq!(lock.sidecars().len(), 2);
        drop(lock);
        assert_eq!(names(dir.path()), ["a.csv", "b.csv"]);
    }

    #[test]
    fn long_names_get_hidden_names_that_fit() {
        let short = hidden_name(OsStr::new("t.csv"), "lock", 0);
        assert_eq!(short, ".t.csv.lock");
        let long = "é".repeat(120) + ".csv";
        for reserve in [0, 10] {
            let a = hidden_name(OsStr::new(&long), "partial", reserve);
            assert!(a.len() + reserve <= NAME_MAX, "{}", a.len());
            assert!(a.to_str().is_some(), "cut inside a character");
            assert!(a.to_str().unwrap().ends_with(".partial"));
            // The same every time; another long name gets another.
            assert_eq!(a, hidden_name(OsStr::new(&long), "partial", reserve));
            let other = "é".repeat(120) + ".tsv";
            assert_ne!(a, hidden_name(OsStr::new(&other), "partial", reserve));
        }
    }
}
