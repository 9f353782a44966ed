//! Where pictures and pages go: `-` is stdout (text only), anything else a file written whole,
//! through a temporary file beside it that is renamed over it once complete. An existing file is
//! replaced only with `--force`. Everything that can be refused is refused before the work starts
//! ([`check_target`]), so that a long search does not end in an unwritable path.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::{print, usage, Failure};

/// A destination given on the command line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Destination {
    Stdout,
    File(PathBuf),
}

impl Destination {
    pub fn parse(arg: Option<&str>) -> Destination {
        match arg {
            None | Some("-") => Destination::Stdout,
            Some(path) => Destination::File(PathBuf::from(path)),
        }
    }

    pub fn extension(&self) -> Option<String> {
        match self {
            Destination::Stdout => None,
            Destination::File(path) => path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase()),
        }
    }
}

impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Destination::Stdout => f.write_str("stdout"),
            Destination::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Refuse a file that cannot be written: its directory is missing or not a directory, it is a
/// directory itself, or it exists and `force` is not given.
pub fn check_target(path: &Path, force: bool) -> Result<(), Failure> {
    let dir = directory_of(path);
    match fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(usage(format!(
                "cannot write {}: {} is not a directory",
                path.display(),
                dir.display()
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(usage(format!(
                "cannot write {}: directory {} does not exist",
                path.display(),
                dir.display()
            )))
        }
        Err(e) => return Err(usage(format!("cannot write {}: {e}", path.display()))),
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(usage(format!("{} is a directory", path.display()))),
        Ok(_) if !force => Err(usage(format!(
            "{} already exists: use --force to replace it",
            path.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(usage(format!("cannot write {}: {e}", path.display()))),
    }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Write `bytes` to `destination`: stdout at once, or a file made whole in a temporary file in
/// the same directory (so that the rename cannot cross file systems) and renamed over `path`
/// (never over a file that appeared meanwhile unless `force`).
pub fn write_whole(destination: &Destination, bytes: &[u8], force: bool) -> Result<(), Failure> {
    let path = match destination {
        Destination::Stdout => {
            let text = String::from_utf8_lossy(bytes);
            return print(&text);
        }
        Destination::File(path) => path,
    };
    let cannot = |e: io::Error| usage(format!("cannot write {}: {e}", path.display()));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".partial")
        // As for any new file: the umask decides (tempfile's default is owner-only).
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(directory_of(path))
        .map_err(cannot)?;
    temp.write_all(bytes).map_err(cannot)?;
    temp.as_file().sync_all().map_err(cannot)?;
    let persisted = if force {
        temp.persist(path)
    } else {
        temp.persist_noclobber(path)
    };
    persisted.map_err(|e| {
        if e.error.kind() == io::ErrorKind::AlreadyExists {
            usage(format!(
                "{} already exists: use --force to replace it",
                path.display()
            ))
        } else {
            cannot(e.error)
        }
    })?;
    Ok(())
}
