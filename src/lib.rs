//! queendom: exact queen numbers of N×M chessboards.
//!
//! - [`search::solve`] proves the domination number γ(N×M) or the independent domination number
//!   i(N×M) by exhaustive branch and bound, with an optimal layout, on all cores of the current rayon
//!   pool or sequentially.
//! - [`check`] re-checks any layout with code that shares nothing with the search.
//!
//! The search does no I/O. The files are the library's too: the table writer (`table::writer`)
//! and the run directories of plans and checkpoints (`plan::run_dir`, `plan::checkpoint`,
//! `plan::status`); the `queendom` binary is a thin command line over it.

pub mod board;
pub mod check;
pub mod destination;
pub mod error;
pub mod export;
pub mod fault;
pub mod kinds;
pub mod layout;
pub mod listing;
pub mod nqueens;
pub mod nqueens_check;
pub mod picture;
pub mod plan;
pub mod problem;
mod random;
pub mod row;
pub mod search;
pub mod table;
pub mod trace;
pub mod workload;

pub use board::{Board, BoardError, BoardParseError, Square, MAX_SIDE};
pub use layout::Layout;
pub use problem::Problem;
pub use row::TableRow;
pub use search::{solve, SearchError, SearchOptions, Solution};
