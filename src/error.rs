//! What a library error means for whoever called: a refusal (the input is at fault and nothing
//! was done: a bad size, a foreign file, a run directory that is not one) or a failure (the
//! machine, a write, or a bug). Every error type of the library says which of the two each of
//! its variants is, with an exhaustive match, so that a new variant cannot be added without
//! deciding; the command line turns the kind into its exit code in one place.

/// How an error is to be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Bad input or usage: nothing was changed; asking again with other input may succeed.
    Refusal,
    /// The work failed: a write, the machine, or an internal error.
    Failure,
}

impl ErrorKind {
    /// The conventional exit code: 2 for a refusal (as for a bad command line), 1 for a failure.
    pub const fn exit_code(self) -> i32 {
        match self {
            ErrorKind::Refusal => 2,
            ErrorKind::Failure => 1,
        }
    }
}

/// An error that knows its [`ErrorKind`].
pub trait Kind {
    fn kind(&self) -> ErrorKind;
}

impl Kind for std::io::Error {
    /// Reading or writing failed: the machine, not the request.
    fn kind(&self) -> ErrorKind {
        ErrorKind::Failure
    }
}
