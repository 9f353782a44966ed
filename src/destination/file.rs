//! The output-file policy, the one place where commands open, lock, write and replace files: every
//! file a command writes (tables, counts, traces, benchmarks, merged answers, pictures, pages) goes
//! through it.
//!
//! - Only regular files are written (or `-`, stdout). A directory, device, FIFO or socket is
//!   refused before anything is opened, from its metadata, with or without `--force`: nothing
//!   reads `/dev/zero`, waits on a FIFO or replaces `/dev/null`. A symbolic link is followed to its
//!   target, which is written in its place: the link stays a link. An empty name, or one that
//!   names a directory (`out/`), is refused too.
//! - [`OutFile::claim`] does every check before any work starts: the directory exists and takes
//!   new files (the lock's sidecar is created there), the path is usable, and no other run holds
//!   the file, under this name or another ([`super::lock`]). Refusals are usage errors (exit 2)
//!   that leave everything as it was. [`OutFile::check`] makes the same checks without the lock,
//!   for files written once the work is done (pictures), which are claimed then.
//! - A file is replaced only whole and only once the new contents are complete: they are written
//!   to a temporary file beside the target and renamed over it ([`Replacement`]), keeping the old
//!   file's permissions. Until then the old file is untouched; if the rename fails, the temporary
//!   file is kept and the message says where. Temporary and sidecar names fit in a file name's
//!   255 bytes, however long the target's name ([`super::lock::hidden_name`]).
//! - An existing file is read only as far as a resume needs ([`OutFile::read_start`]): a file
//!   that is not a table is refused from its first lines, whatever its size.
//!
//! How a command uses it: `claim` the path given with `-o`; read the old contents with
//! [`OutFile::read_start`] (resume) or refuse them; then write through [`OutFile::create`] (a new
//! file, rows appended as they finish), [`OutFile::append`] (resume), or [`OutFile::replacement`] /
//! [`OutFile::write_whole`] (whole files). Keep the `OutFile` alive until the last byte is written:
//! it holds the lock.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::lock::{hidden_name, sidecar, Lock, LockError};
use super::{usage, OutputError};

/// Symbolic links followed at most, as the kernel does (ELOOP beyond).
const MAX_LINKS: usize = 40;

/// The random letters tempfile puts in a temporary file's name.
const RANDOM_LETTERS: usize = 6;
const TEMP_SUFFIX: &str = ".tmp";

/// An output file claimed for this run: checked, its symlinks resolved, and locked.
#[derive(Debug)]
pub struct OutFile {
    /// As the user wrote it: what messages name.
    shown: PathBuf,
    /// The file actually written: `shown` with every symbolic link resolved.
    path: PathBuf,
    /// The existing regular file's metadata, if there is one.
    existing: Option<Metadata>,
    lock: Lock,
}

/// What [`OutFile::check`] found at a path.
struct Checked {
    shown: PathBuf,
    path: PathBuf,
    existing: Option<Metadata>,
}

impl OutFile {
    /// Check `path` and lock it for this run; see the module doc. An existing file is opened
    /// only to lock it (read-only, without blocking, once it is known to be a regular file).
    pub fn claim(path: &Path) -> Result<OutFile, OutputError> {
        let Checked {
            shown,
            path: target,
            existing,
        } = inspect(path)?;
        // Creating the lock's sidecar also proves that the directory takes new files.
        let lock = match Lock::take(&target) {
            Ok(lock) => lock,
            Err(LockError::Held(holder)) => {
                return Err(usage(format!(
                    "{} is being written by another queendom run ({holder}); wait for it to \
                     finish, or stop it",
                    shown.display()
                )))
            }
            Err(LockError::Io(e)) => return Err(cannot_write(&shown, e)),
        };
        Ok(OutFile {
            shown,
            path: target,
            existing,
            lock,
        })
    }

    /// Every check of [`claim`](Self::claim) but the lock: for a file written when the work is
    /// done, checked before it starts. Whether a file is there now.
    pub fn check(path: &Path) -> Result<bool, OutputError> {
        Ok(inspect(path)?.existing.is_some())
    }

    /// The file written: the path with its symbolic links resolved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path as the user wrote it, for messages.
    pub fn shown(&self) -> &Path {
        &self.shown
    }

    /// Whether a regular file is there now.
    pub fn exists(&self) -> bool {
        self.existing.is_some()
    }

    /// A hidden file `.NAME.WHAT` beside the file written (e.g. an unfinished table).
    pub fn sidecar(&self, what: &str) -> PathBuf {
        sidecar(&self.path, what)
    }

    /// The lock's sidecar files: to remove before an exit that runs no destructors.
    pub fn lock_files(&self) -> Vec<PathBuf> {
        self.lock.sidecars()
    }

    /// The start of the existing file, line by line: at most `max_lines` lines, and of a line
    /// longer than `max_line` bytes (its newline included) only its first `max_line + 1` bytes,
    /// after which nothing more is read. Returns the bytes and whether they are the whole file.
    /// Memory stays bounded whatever the file holds (a 1 GiB file of zeros is one long line).
    pub fn read_start(
        &self,
        max_line: usize,
        max_lines: usize,
    ) -> Result<(Vec<u8>, bool), OutputError> {
        if !self.exists() {
            return Ok((Vec::new(), true));
        }
        read_lines(&self.path, &self.shown, max_line, max_lines)
    }

    /// The existing file, opened to append; cut back to `keep_len` bytes first if it is longer.
    pub fn append(&self, keep_len: u64) -> Result<File, OutputError> {
        let file = open_regular(&self.path, OpenOptions::new().append(true))
            .map_err(|e| cannot_write(&self.shown, e))?;
        let len = file
            .metadata()
            .map_err(|e| cannot_write(&self.shown, e))?
            .len();
        if len > keep_len {
            file.set_len(keep_len)
                .map_err(|e| cannot_write(&self.shown, e))?;
        }
        Ok(file)
    }

    /// A new file, to be filled as the work goes (refused if a file appeared there meanwhile).
    pub fn create(&self) -> Result<File, OutputError> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.path)
            .map_err(|e| cannot_write(&self.shown, e))?;
        // From now on a hard link to it must meet this run's lock too.
        self.lock.follow(&self.path);
        Ok(file)
    }

    /// A temporary file beside the target that replaces it on [`Replacement::commit`].
    pub fn replacement(&self) -> Result<Replacement, OutputError> {
        let name = self.path.file_name().unwrap_or_default();
        let prefix = hidden_name(name, "", RANDOM_LETTERS + TEMP_SUFFIX.len());
        let mode = self
            .existing
            .as_ref()
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        let temp = tempfile::Builder::new()
            .prefix(&prefix)
            .rand_bytes(RANDOM_LETTERS)
            .suffix(TEMP_SUFFIX)
            // A new file gets what the umask leaves of 0666, as any new file; a replaced one keeps
            // its mode (tempfile's own default is owner-only).
            .permissions(fs::Permissions::from_mode(mode))
            .tempfile_in(directory_of(&self.path))
            .map_err(|e| cannot_write(&self.shown, os_error(e)))?;
        Ok(Replacement {
            temp,
            path: self.path.clone(),
            shown: self.shown.clone(),
            keep_mode: self.existing.is_some(),
            mode,
        })
    }

    /// Replace the file by `bytes` at once (or create it).
    pub fn write_whole(&self, bytes: &[u8]) -> Result<(), OutputError> {
        self.fill(bytes)?.commit()?;
        self.lock.follow(&self.path);
        Ok(())
    }

    /// Write `bytes` as a new file; if one appeared at the path since the claim (made by
    /// something else than queendom, which the lock stops), it is left as it is and refused.
    pub fn write_new(&self, bytes: &[u8]) -> Result<(), OutputError> {
        self.fill(bytes)?.commit_new()?;
        self.lock.follow(&self.path);
        Ok(())
    }

    fn fill(&self, bytes: &[u8]) -> Result<Replacement, OutputError> {
        let mut replacement = self.replacement()?;
        crate::fault::write_all("whole file", replacement.file(), bytes).map_err(|e| {
            OutputError::Failed(format!(
                "cannot write {}: {e}{}",
                self.shown.display(),
                super::full_disk_hint(&e)
            ))
        })?;
        Ok(replacement)
    }
}

/// New contents for a file, in a temporary file beside it until [`commit`](Replacement::commit).
/// Dropped without a commit, the temporary file is removed and the old file stays as it was.
pub struct Replacement {
    temp: NamedTempFile,
    path: PathBuf,
    shown: PathBuf,
    keep_mode: bool,
    mode: u32,
}

impl Replacement {
    pub fn file(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// Where the new contents are until the commit.
    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// Put the new contents in place: on disk first, then renamed over the file in one step.
    pub fn commit(self) -> Result<(), OutputError> {
        self.put_in_place(true)
    }

    /// As [`commit`](Self::commit), but never over a file.
    fn commit_new(self) -> Result<(), OutputError> {
        self.put_in_place(false)
    }

    fn put_in_place(self, replace: bool) -> Result<(), OutputError> {
        let shown = self.shown.display().to_string();
        let write_error = |e: io::Error| {
            let hint = super::full_disk_hint(&e);
            OutputError::Failed(format!("cannot write {shown}: {e}{hint}"))
        };
        self.temp.as_file().sync_all().map_err(write_error)?;
        if self.keep_mode {
            // The umask may have narrowed the mode at creation: the old file's mode, exactly.
            fs::set_permissions(self.temp.path(), fs::Permissions::from_mode(self.mode))
                .map_err(write_error)?;
        }
        let persisted = if replace {
            self.temp.persist(&self.path)
        } else {
            self.temp.persist_noclobber(&self.path)
        };
        if let Err(e) = persisted {
            if !replace && e.error.kind() == io::ErrorKind::AlreadyExists {
                return Err(usage(format!(
                    "{shown} already exists: use --force to replace it"
                )));
            }
            // The work must not vanish with the temporary file: keep it and say where.
            let kept = e.file.into_temp_path().keep();
            let at = kept.map_or_else(|_| "lost".to_string(), |p| p.display().to_string());
            return Err(OutputError::Failed(format!(
                "cannot write {shown}: {}; the new contents are in {at}",
                e.error
            )));
        }
        Ok(())
    }
}

/// Write `bytes` to `path` whole, for the files of a run directory (which its own lock guards,
/// not the policy's claims): a temporary file beside it, fsync, rename, fsync the directory.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        // As for any new file: the umask decides (tempfile's default is owner-only), so that
        // the other users of a cluster's run directory can read it.
        .permissions(<fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o666))
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    File::open(dir)?.sync_all()?;
    Ok(())
}

/// [`OutFile::read_start`] for a file of the policy's own (a journal beside the output).
pub fn read_start(
    path: &Path,
    max_line: usize,
    max_lines: usize,
) -> Result<(Vec<u8>, bool), OutputError> {
    read_lines(path, path, max_line, max_lines)
}

fn read_lines(
    path: &Path,
    shown: &Path,
    max_line: usize,
    max_lines: usize,
) -> Result<(Vec<u8>, bool), OutputError> {
    let cannot_read = |e: io::Error| usage(format!("cannot read {}: {e}", shown.display()));
    let file = open_regular(path, OpenOptions::new().read(true)).map_err(cannot_read)?;
    let mut reader = io::BufReader::new(file);
    let mut bytes = Vec::new();
    for _ in 0..max_lines {
        let read = (&mut reader)
            .take(max_line as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(cannot_read)?;
        if read == 0 {
            return Ok((bytes, true));
        }
        if bytes.last() != Some(&b'\n') {
            // The end of the file within a line, or a line too long to read on; unless that
            // line ends in NUL bytes after whole lines, and the rest of the file is NUL bytes too:
            // what a power loss leaves (blocks allocated, never written), which the reader of
            // the lines drops as it drops a half-written line.
            let after_lines = bytes.contains(&b'\n');
            let whole = read <= max_line
                || (after_lines
                    && bytes.last() == Some(&0)
                    && rest_is_nul(&mut reader).map_err(cannot_read)?);
            return Ok((bytes, whole));
        }
    }
    let more = !reader.fill_buf().map_err(cannot_read)?.is_empty();
    Ok((bytes, !more))
}

/// Whether everything left to read is NUL bytes (read a block at a time, kept nowhere).
fn rest_is_nul(reader: &mut impl Read) -> io::Result<bool> {
    let mut block = [0u8; 1 << 16];
    loop {
        match reader.read(&mut block)? {
            0 => return Ok(true),
            n if block[..n].iter().all(|&b| b == 0) => continue,
            _ => return Ok(false),
        }
    }
}

/// The checks of the policy, in order: the name, the links, the directory, what is there now.
fn inspect(path: &Path) -> Result<Checked, OutputError> {
    let shown = path.to_path_buf();
    if path.as_os_str().is_empty() {
        return Err(usage(
            "an empty file name was given: name a file, or - for standard output",
        ));
    }
    let target = resolve_links(path)?;
    let dir = directory_of(&target);
    match fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(usage(format!(
                "cannot write {}: {} is not a directory",
                shown.display(),
                dir.display()
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(usage(format!(
                "cannot write {}: directory {} does not exist",
                shown.display(),
                dir.display()
            )))
        }
        Err(e) => return Err(cannot_write(&shown, e)),
    }
    let existing = match fs::metadata(&target) {
        Ok(meta) => {
            let kind = meta.file_type();
            let what = if kind.is_file() {
                None
            } else if kind.is_dir() {
                Some("a directory")
            } else if kind.is_char_device() {
                Some("a character device")
            } else if kind.is_block_device() {
                Some("a block device")
            } else if kind.is_fifo() {
                Some("a FIFO (named pipe)")
            } else if kind.is_socket() {
                Some("a socket")
            } else {
                Some("not a regular file")
            };
            if let Some(what) = what {
                let via = if target != shown {
                    format!(" (the target of the link, {})", target.display())
                } else {
                    String::new()
                };
                return Err(usage(format!(
                    "cannot write {}: it is {what}{via}; queendom writes regular files only \
                     (or - for standard output)",
                    shown.display()
                )));
            }
            Some(meta)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(cannot_write(&shown, e)),
    };
    // `out/` or `..` name a directory even where none is: a file cannot be made there.
    let bytes = target.as_os_str().as_bytes();
    let names_directory = target.file_name().is_none()
        || bytes.ends_with(b"/")
        || bytes.ends_with(b"/.")
        || bytes == b".";
    if names_directory {
        return Err(usage(format!(
            "cannot write {}: it names a directory, not a file",
            shown.display()
        )));
    }
    Ok(Checked {
        shown,
        path: target,
        existing,
    })
}

/// Follow symbolic links from `path` to the file they lead to (which need not exist yet).
fn resolve_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current).map_err(|e| cannot_write(path, e))?;
                current = if link.is_absolute() {
                    link
                } else {
                    directory_of(&current).join(link)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(usage(format!(
        "cannot write {}: too many levels of symbolic links",
        path.display()
    )))
}

/// The directory a file is (or would be) in.
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Open `path` without blocking (a FIFO put there since the check would block an ordinary open)
/// and make sure that what was opened is a regular file.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = options.custom_flags(libc::O_NONBLOCK).open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("it is no longer a regular file"));
    }
    Ok(file)
}

/// Read the whole of `path`, which must be a regular file of at most `limit` bytes: the one way
/// queendom reads a file it did not just write (plans, results, attempts, tables, @FILE starts).
/// The file is opened without blocking and checked on the opened descriptor, so a FIFO or device
/// where a file is expected is refused at once (an ordinary open of a FIFO waits for a writer,
/// and a signal does not end that wait), and a file that grows, or a device that never ends,
/// costs at most `limit + 1` bytes of memory.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a directory"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a device"
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file"),
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it is larger than {}, more than such a file can hold",
                bytes_text(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// `4 MiB`, `1 GiB`, `4096 bytes`.
fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n => format!("{n} bytes"),
    }
}

/// tempfile's error without the random name of the temporary file it tried, which would only
/// confuse: the user named the output file.
fn os_error(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((reason, _)) => io::Error::new(e.kind(), reason.to_string()),
        None => e,
    }
}

/// The refusal of a path that cannot be written (exit 2 on the command line).
pub fn cannot_write(path: &Path, e: io::Error) -> OutputError {
    let hint = super::full_disk_hint(&e);
    usage(format!("cannot write {}: {e}{hint}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_regular_refuses_a_fifo_at_once_and_a_file_over_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer ever opens it: an ordinary open would wait for ever.
        let e = read_regular(&fifo, 10).unwrap_err();
        assert!(e.to_string().contains("a FIFO, not a regular file"), "{e}");
        let e = read_regular(dir.path(), 10).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let e = read_regular(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("a device"), "{e}");
        let file = dir.path().join("f");
        fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_regular(&file, 10).unwrap(), b"0123456789");
        let e = read_regular(&file, 9).unwrap_err();
        assert!(e.to_string().contains("larger than 9 bytes"), "{e}");
        assert_eq!(bytes_text(4 << 20), "4 MiB");
        assert_eq!(bytes_text(1 << 30), "1 GiB");
    }
}
