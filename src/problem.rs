//! Which number queendom computes: the one place a problem's names, symbol and rules live.
//!
//! Everything above the search (files, tables, pictures, plans, the command line) knows a problem
//! only through [`Problem`]: its serialised name (`domination`, as in files and plan.json), its
//! symbol (γ), its title, and its independent checker. The search asks it one question, whether
//! queens may attack each other ([`Problem::forbids_attacks`]).
//!
//! # Which bounds hold for which problem
//!
//! - The static lower bound min(N, M, ⌈(N+M−2)/4⌉) (`search::lower_bound`) is proven for γ; it
//!   holds for i because an independent dominating layout is a dominating layout, so i ≥ γ.
//! - The line-forcing bound the kernel applies at every node counts the squares a queen off a line
//!   can cover on it (three); it holds for both, and for i it is applied to the squares still
//!   allowed (uncovered and not forbidden), which only makes it stronger.
//! - The first-queen cut (one part per symmetry class of squares) holds for any problem whose
//!   layouts the board's symmetries map onto layouts of the same problem: both do.
//! - The start layout's local search keeps independence for i (its moves only place queens on
//!   squares no queen attacks).
//!
//! # Adding a problem
//!
//! To add one (total domination, another piece): add the variant here with its name, symbol,
//! title and checker (in `check`), decide which of the bounds above still hold, then follow the
//! compiler into `search` (its kernel reads [`Problem::forbids_attacks`] once per searcher) and
//! nowhere else: the files, tables, pictures and command line take any `Problem`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::check::{check_dominating, check_independent_dominating, CheckError};
use crate::error::{ErrorKind, Kind};
use crate::layout::Layout;

/// Which number to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// γ: fewest queens covering every square.
    Domination,
    /// i: fewest queens covering every square, no two attacking each other.
    IndependentDomination,
}

/// A name that is no problem's serialised name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown problem '{0}' (expected domination or independent-domination)")]
pub struct UnknownProblem(pub String);

impl Problem {
    /// Every problem, in the order tables and pictures list them.
    pub const ALL: [Problem; 2] = [Problem::Domination, Problem::IndependentDomination];

    /// The serialised name, used in files, plan.json and file names: `domination`,
    /// `independent-domination`. [`FromStr`] reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Problem::Domination => "domination",
            Problem::IndependentDomination => "independent-domination",
        }
    }

    /// The number's symbol, as in `γ(8x8) = 5`: γ or i.
    pub fn symbol(self) -> &'static str {
        match self {
            Problem::Domination => "γ",
            Problem::IndependentDomination => "i",
        }
    }

    /// The problem in words, for titles: `queen domination`, `independent queen domination`.
    pub fn title(self) -> &'static str {
        match self {
            Problem::Domination => "queen domination",
            Problem::IndependentDomination => "independent queen domination",
        }
    }

    /// What the layouts do, as a verb: `dominate`, `independently dominate`.
    pub fn verb(self) -> &'static str {
        match self {
            Problem::Domination => "dominate",
            Problem::IndependentDomination => "independently dominate",
        }
    }

    /// The OEIS sequence of this number on the square boards n×n (A075458 for γ(Q_n), A075324 for
    /// i(Q_n)), the name of the b-files `scripts/bfiles.py` writes into `results/`.
    pub fn square_sequence(self) -> &'static str {
        match self {
            Problem::Domination => "A075458",
            Problem::IndependentDomination => "A075324",
        }
    }

    /// The OEIS triangle of this number on the boards k×n, 1 ≤ k ≤ n, read by rows (A274138 for γ,
    /// A299029 for i).
    pub fn triangle_sequence(self) -> &'static str {
        match self {
            Problem::Domination => "A274138",
            Problem::IndependentDomination => "A299029",
        }
    }

    /// Whether no queen may attack another: the one rule the search reads.
    pub fn forbids_attacks(self) -> bool {
        match self {
            Problem::Domination => false,
            Problem::IndependentDomination => true,
        }
    }

    /// Run the independent checker for this problem on `layout`, claimed to have `size` queens.
    pub fn check(self, layout: &Layout, size: usize) -> Result<(), CheckError> {
        match self {
            Problem::Domination => check_dominating(layout, size),
            Problem::IndependentDomination => check_independent_dominating(layout, size),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Problem {
    type Err = UnknownProblem;

    fn from_str(name: &str) -> Result<Problem, UnknownProblem> {
        Problem::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| UnknownProblem(name.to_string()))
    }
}

impl serde::Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Problem {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Problem, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl Kind for UnknownProblem {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Refusal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_and_nothing_else_does() {
        for problem in Problem::ALL {
            assert_eq!(problem.name().parse::<Problem>(), Ok(problem));
            let json = serde_json::to_string(&problem).unwrap();
            assert_eq!(json, format!("\"{}\"", problem.name()));
            assert_eq!(serde_json::from_str::<Problem>(&json).unwrap(), problem);
        }
        assert!("independent".parse::<Problem>().is_err());
        assert!("Domination".parse::<Problem>().is_err());
        assert!(serde_json::from_str::<Problem>("\"total-domination\"").is_err());
    }

    #[test]
    fn symbols_are_the_usual_ones() {
        assert_eq!(Problem::Domination.symbol(), "γ");
        assert_eq!(Problem::IndependentDomination.symbol(), "i");
    }
}
