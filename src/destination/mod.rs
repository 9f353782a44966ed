//! Where output goes: a file (claimed through the output-file policy in [`mod@file`]) or `-` for
//! standard output. The one policy every file queendom writes goes through; the command line only
//! names the target.

pub mod file;
pub mod lock;

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::PathBuf;

use crate::error::{ErrorKind, Kind};
use thiserror::Error;

pub use file::OutFile;

/// Why an output cannot be written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// Refused before anything changed: an unusable path, a file held by another run, an existing
    /// file that may not be replaced (exit 2 on the command line).
    #[error("{0}")]
    Refused(String),
    /// Writing failed (exit 1).
    #[error("{0}")]
    Failed(String),
}

pub(crate) fn usage(msg: impl std::fmt::Display) -> OutputError {
    OutputError::Refused(msg.to_string())
}

/// `writing FILE: ERROR`, and for a full disk or quota what to do (see [`full_disk_hint`]).
pub fn write_error_text(path: &std::path::Path, e: &io::Error) -> String {
    format!("writing {}: {e}{}", path.display(), full_disk_hint(e))
}

/// For a full disk or quota, what to do: every write of a command is whole or resumed (results
/// and rows written are kept, the rest written aside and renamed), so the same command, run again
/// once there is room, goes on where this one stopped.
pub fn full_disk_hint(e: &io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(libc::ENOSPC) | Some(libc::EDQUOT) => {
            "; free space and run the same command again: nothing finished is lost"
        }
        _ => "",
    }
}

/// An output destination as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Stdout,
    File(PathBuf),
}

impl Target {
    pub fn parse(arg: Option<&str>) -> Target {
        match arg {
            None | Some("-") => Target::Stdout,
            Some(p) => Target::File(PathBuf::from(p)),
        }
    }

    /// The file's extension in lower case (none for standard output).
    pub fn extension(&self) -> Option<String> {
        match self {
            Target::Stdout => None,
            Target::File(path) => path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase()),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Stdout => f.write_str("stdout"),
            Target::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A sink that flushes after every write, so that each finished row is on disk (or in the pipe)
/// at once.
pub struct Sink {
    inner: Box<dyn Write + Send>,
}

impl Sink {
    /// Standard output, refused if it was closed when queendom started.
    pub fn stdout() -> Result<Sink, OutputError> {
        check_stdout()?;
        Ok(Sink {
            inner: Box::new(io::stdout()),
        })
    }

    pub fn file(file: File) -> Sink {
        Sink {
            inner: Box::new(file),
        }
    }

    pub fn write_now(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.inner.write_all(bytes)?;
        self.inner.flush()
    }

    /// [`write_now`](Self::write_now) through the write point `point` of [`crate::fault`].
    pub fn write_at(&mut self, point: &str, bytes: &[u8]) -> io::Result<()> {
        crate::fault::write_all(point, &mut self.inner, bytes)?;
        self.inner.flush()
    }
}

/// Fail if standard output was closed when queendom started (`queendom ... >&-`).
///
/// The Rust runtime opens `/dev/null` (read-write) in place of a closed standard stream before
/// `main`, so that nothing else can take its descriptor; writes then vanish and would end in exit 0
/// with the output lost. A shell's `> /dev/null` opens it write-only, which is how the two differ.
pub fn check_stdout() -> Result<(), OutputError> {
    static CLOSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *CLOSED.get_or_init(stdout_was_closed) {
        return Err(OutputError::Failed(
            "cannot write to standard output: it is closed (Bad file descriptor)".into(),
        ));
    }
    Ok(())
}

fn stdout_was_closed() -> bool {
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
        return true;
    };
    let Ok(meta) = File::from(fd).metadata() else {
        return false;
    };
    let Ok(null) = std::fs::metadata("/dev/null") else {
        return false;
    };
    if !meta.file_type().is_char_device() || meta.rdev() != null.rdev() {
        return false;
    }
    // The access mode is the low two bits of the octal `flags:` of fdinfo: 2 is O_RDWR.
    std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|flags| flags & 0o3 == 0o2)
    })
}

impl Kind for OutputError {
    fn kind(&self) -> ErrorKind {
        match self {
            OutputError::Refused(_) => ErrorKind::Refusal,
            OutputError::Failed(_) => ErrorKind::Failure,
        }
    }
}

#[cfg(test)]
mod write_error_tests {
    use super::*;

    #[test]
    fn a_full_disk_names_the_file_and_how_to_resume() {
        let path = std::path::Path::new("RUN/results/part-000017.json");
        let full = io::Error::from_raw_os_error(libc::ENOSPC);
        let text = write_error_text(path, &full);
        assert!(text.starts_with("writing RUN/results/part-000017.json: No space left on device"));
        assert!(
            text.ends_with("free space and run the same command again: nothing finished is lost")
        );
        let other = io::Error::from_raw_os_error(libc::EACCES);
        assert!(!write_error_text(path, &other).contains("free space"));
    }
}
