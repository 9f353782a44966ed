//! Where output goes: a file (claimed through the library's output-file policy,
//! `queendom::destination::file`) or `-` for standard output. A closed pipe on standard output is not a failure (the reader went away, as
//! `head` does); a closed standard output (`>&-`) is, since the output would be lost.

pub use queendom::destination::{check_stdout, OutFile, Target};

use std::io;

use super::Failure;

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
        return Ok(out.write_whole(bytes)?);
    }
    if out.exists() {
        return Err(already_exists(path));
    }
    Ok(out.write_new(bytes)?)
}

fn already_exists(path: &std::path::Path) -> Failure {
    super::usage(format!(
        "{} already exists: use --force to replace it",
        path.display()
    ))
}

/// Whether an error chain bottoms out in a broken pipe (the reader went away, as with `| head`).
/// Only that: any other write error, on a file or on standard output, is a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<queendom::table::writer::TableError>()
                .is_some_and(queendom::table::writer::TableError::is_broken_pipe)
    })
}
