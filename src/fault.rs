//! Fault injection for the suite (`tests/suite/faults.rs`): a kill or a full disk at a chosen write
//! of a command, without root, mounts or timing.
//!
//! `QUEENDOM_FAULT=COMMAND:KIND:K` in a process's environment makes the K-th write point (from 1)
//! that the command COMMAND reaches fail:
//! - `kill`: the process ends there as `kill -9` would end it, exit 137: no destructor runs,
//!   nothing more is written or removed, the kernel releases the locks;
//! - `full`: the write fails with ENOSPC as on a full disk, after as much of it as such a disk
//!   takes (of a streamed write, the first half of its bytes; a write of a whole file fails before
//!   its temporary file is filled), and the command goes on through its own error path.
//!
//! A write point stands just before each durable write of the commands `table` (the lock's note,
//! the header, each row, the footer, the journal, the file written whole), `work` (the claim's
//! note, the check that `results/` takes a file, each attempt record, the part's result), `merge`
//! (the lock's note, the answer written whole), `split` (`plan RUN --split`: the twelve steps of
//! its transaction, [`crate::plan::run_dir::SPLIT_STEPS`]) and `audit` (which writes nothing: it
//! has no point). A fault that fires says so on stderr, naming the point, so that a test finds how
//! many points a command has by raising K until none fires.
//!
//! The variable is read once, when the command line names the command ([`enter`]); a process that
//! never enters a command (the library's own users) has no faults, and a point costs one load.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The environment variable that arms a fault.
pub const VARIABLE: &str = "QUEENDOM_FAULT";

/// The exit code of a process killed at a point, as a shell reports `kill -9` (128 + 9).
pub const KILLED: i32 = 137;

/// What happens at the chosen point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The process dies, as by `kill -9`.
    Kill,
    /// The write fails with ENOSPC, as on a full disk.
    Full,
}

/// The fault armed for this process: which, and at which point of its command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Armed {
    fault: Fault,
    at: u32,
}

static ARMED: OnceLock<Option<Armed>> = OnceLock::new();
/// The write points this process has reached so far.
static REACHED: AtomicU32 = AtomicU32::new(0);

/// Say which command this process runs (`table`, `work`, `merge`, `split`, `audit`, ...): a
/// fault armed in [`VARIABLE`] for it fires, any other is ignored. Called once, by the command
/// line; later calls change nothing.
pub fn enter(command: &str) {
    ARMED.get_or_init(|| {
        let value = std::env::var(VARIABLE).ok()?;
        parse(&value)
            .filter(|(name, _)| name == command)
            .map(|(_, armed)| armed)
    });
}

/// `COMMAND:KIND:K` with K at least 1; anything else arms nothing.
fn parse(value: &str) -> Option<(String, Armed)> {
    let mut fields = value.split(':');
    let (command, kind, at) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    let fault = match kind {
        "kill" => Fault::Kill,
        "full" => Fault::Full,
        _ => return None,
    };
    let at = at.parse().ok().filter(|&k| k >= 1)?;
    Some((command.to_string(), Armed { fault, at }))
}

/// Reach the write point `name`: the fault, if this is the armed point (a kill does not return).
fn reach(name: &str) -> Option<Fault> {
    let armed = (*ARMED.get()?)?;
    let k = REACHED.fetch_add(1, Ordering::Relaxed) + 1;
    if k != armed.at {
        return None;
    }
    let what = match armed.fault {
        Fault::Kill => "kill",
        Fault::Full => "full disk",
    };
    eprintln!("queendom: fault injected: {what} at write point {k} ({name})");
    if armed.fault == Fault::Kill {
        // SAFETY: _exit ends the process at once; nothing of it runs afterwards.
        unsafe { libc::_exit(KILLED) }
    }
    Some(armed.fault)
}

fn no_space() -> io::Error {
    io::Error::from_raw_os_error(libc::ENOSPC)
}

/// The write point `name`, before a write that is not streamed (a file written whole, a rename
/// that needs room): `Err(ENOSPC)` if a full disk is injected here.
pub fn point(name: &str) -> io::Result<()> {
    match reach(name) {
        Some(Fault::Full) => Err(no_space()),
        _ => Ok(()),
    }
}

/// Write all of `bytes` to `out` through the write point `name`: with a full disk injected here,
/// the first half of the bytes is written and then the write fails with ENOSPC, as a disk that
/// fills up in the middle of a write does.
pub fn write_all(name: &str, out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    if reach(name) == Some(Fault::Full) {
        out.write_all(&bytes[..bytes.len() / 2])?;
        out.flush()?;
        return Err(no_space());
    }
    out.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_names_a_command_a_kind_and_a_point_from_one() {
        let armed = |v: &str| parse(v).map(|(c, a)| (c, a.fault, a.at));
        assert_eq!(
            armed("table:kill:3"),
            Some(("table".into(), Fault::Kill, 3))
        );
        assert_eq!(
            armed("split:full:12"),
            Some(("split".into(), Fault::Full, 12))
        );
        for bad in [
            "split:3",
            "table:kill:0",
            "table:crash:1",
            "work:full:x",
            "a:kill:1:2",
        ] {
            assert_eq!(armed(bad), None, "{bad}");
        }
    }
}
