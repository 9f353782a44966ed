//! Where output goes: a file (claimed through the output-file policy in [`file`]) or `-` for
//! standard output. A closed pipe on standard output is not a failure (the reader went away, as
//! `head` does); a closed standard output (`>&-`) is, since the output would be lost.

pub mod file;
pub mod lock;

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::PathBuf;

pub use file::OutFile;

use super::Failure;

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
}

impl Target {
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

/// Refuse before the work what [`write_whole_to`] would refuse after it: whatever the output
/// policy refuses, and an existing file without `force`.
pub fn check_whole(target: &Target, force: bool) -> Result<(), Failure> {
    match target {
        Target::File(path) if OutFile::check(path)? && !force => Err(already_exists(path)),
        _ => Ok(()),
    }
}

/// Write `bytes` whole to `target`: standard output, or a file claimed through the output policy
/// and put in place complete; an existing file is replaced only with `force`.
pub fn write_whole_to(target: &Target, bytes: &[u8], force: bool) -> Result<(), Failure> {
    let path = match target {
        Target::Stdout => return super::print(&String::from_utf8_lossy(bytes)),
        Target::File(path) => path,
    };
    let out = OutFile::claim(path)?;
    if force {
        return out.write_whole(bytes);
    }
    if out.exists() {
        return Err(already_exists(path));
    }
    out.write_new(bytes)
}

fn already_exists(path: &std::path::Path) -> Failure {
    super::usage(format!(
        "{} already exists: use --force to replace it",
        path.display()
    ))
}

/// A sink that flushes after every write, so that each finished row is on disk (or in the pipe)
/// at once.
pub struct Sink {
    inner: Box<dyn Write + Send>,
}

impl Sink {
    /// Standard output, refused (exit 1) if it was closed when queendom started.
    pub fn stdout() -> Result<Sink, Failure> {
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
}

/// Whether an error chain bottoms out in a broken pipe (the reader went away, as with `| head`).
/// Only that: any other write error, on a file or on standard output, is a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Fail (exit 1) if standard output was closed when queendom started (`queendom ... >&-`).
///
/// The Rust runtime opens `/dev/null` (read-write) in place of a closed standard stream before
/// `main`, so that nothing else can take its descriptor; writes then vanish and would end in exit 0
/// with the output lost. A shell's `> /dev/null` opens it write-only, which is how the two differ.
pub fn check_stdout() -> Result<(), Failure> {
    static CLOSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *CLOSED.get_or_init(stdout_was_closed) {
        return Err(Failure::Error(anyhow::anyhow!(
            "cannot write to standard output: it is closed (Bad file descriptor)"
        )));
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
