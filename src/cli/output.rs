//! Where output goes: a file or `-` for stdout. A closed pipe on stdout is not a failure.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;

/// An output destination as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// A sink that flushes after every write, so that each finished row is on disk (or in the pipe)
/// at once.
pub struct Sink {
    inner: Box<dyn Write>,
}

impl Sink {
    pub fn stdout() -> Sink {
        Sink {
            inner: Box::new(io::stdout()),
        }
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
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
