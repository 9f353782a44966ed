//! Tables over ranges of board sizes: parsing size lists and turning them into boards in a stable
//! order ([`sizes`]), computing each board once (a board and its transpose share one search), one
//! after the other or side by side as jobs of one rayon pool ([`runner`]), writing the rows
//! ([`writer`]) and reading back the rows of an earlier run ([`resume`]).

pub mod nqueens;
pub mod resume;
pub mod runner;
pub mod sizes;
pub mod writer;

pub use runner::{
    estimated_cost, ProofEstimate, Searched, SideBySideError, StartOrder, TableEvent, TableRunner,
    ESTIMATED_MIN_SQUARES,
};
pub use sizes::{boards, square_boards, SizeList, SizeListError};
