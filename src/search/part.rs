//! Parts of the search tree as a public, pure entry point: name a part by its path, say what to
//! look for in it (a layout better than the best known, or every layout of a size), and get back a
//! result that merges with the results of the other parts: by minimum when looking for the best
//! layout, by addition when counting. `solve` and `count` run every part in one process;
//! the `plan`/`work`/`merge` commands run them anywhere and merge the result files.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::layout::Layout;

/// A part of one board's search tree: the indices of the cuts from the root (empty: the whole
/// tree; `[j]`: the j-th first-queen part; `[j, k]`: the k-th part of that; …). Written `3.12.0`,
/// the whole tree `root`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PartPath(pub(crate) Vec<u16>);

impl PartPath {
    pub fn whole() -> PartPath {
        PartPath(Vec::new())
    }

    pub fn from_indices(indices: &[u16]) -> PartPath {
        PartPath(indices.to_vec())
    }

    pub fn indices(&self) -> &[u16] {
        &self.0
    }

    /// The path one level down.
    pub fn child(&self, index: usize) -> PartPath {
        let mut v = self.0.clone();
        v.push(index as u16);
        PartPath(v)
    }

    pub fn depth(&self) -> usize {
        self.0.len()
    }
}

impl fmt::Display for PartPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("root");
        }
        let parts: Vec<String> = self.0.iter().map(u16::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a part path: expected `root` or indices such as 3.12.0")]
pub struct PartPathError(pub String);

impl FromStr for PartPath {
    type Err = PartPathError;
    fn from_str(s: &str) -> Result<PartPath, PartPathError> {
        if s == "root" {
            return Ok(PartPath::whole());
        }
        s.split('.')
            .map(|t| {
                if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(PartPathError(s.to_string()));
                }
                t.parse::<u16>().map_err(|_| PartPathError(s.to_string()))
            })
            .collect::<Result<Vec<u16>, _>>()
            .map(PartPath)
    }
}

/// Where a layout was found in the search's fixed order: between two layouts of one size, the
/// one of lower rank wins, so that the answer is the first optimal layout in that order whatever
/// the timing, the threads or the machines. Rank 0 comes before every part (the start layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rank(pub(crate) u64);

impl Rank {
    /// Before every part: the rank of a layout known before the search.
    pub const START: Rank = Rank(0);

    pub fn value(self) -> u64 {
        self.0
    }

    pub fn from_value(v: u64) -> Rank {
        Rank(v)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The best known so far: a search only reports layouts that beat it, i.e. with fewer queens, or
/// as many and an earlier rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incumbent {
    pub queens: usize,
    pub rank: Rank,
    pub layout: Option<Layout>,
}

impl Incumbent {
    /// A layout known before the search (e.g. from the heuristic): every part must do better.
    pub fn start(layout: Layout) -> Incumbent {
        Incumbent {
            queens: layout.len(),
            rank: Rank::START,
            layout: Some(layout),
        }
    }

    /// Only layouts of at most `max_queens` queens are of interest.
    pub fn at_most(max_queens: usize) -> Incumbent {
        Incumbent {
            queens: max_queens + 1,
            rank: Rank::START,
            layout: None,
        }
    }

    /// Whether (queens, rank) beats this incumbent.
    pub fn is_beaten_by(&self, queens: usize, rank: Rank) -> bool {
        (queens, rank) < (self.queens, self.rank)
    }

    /// The better of the two.
    pub fn best_of(self, other: Incumbent) -> Incumbent {
        if (other.queens, other.rank) < (self.queens, self.rank) {
            other
        } else {
            self
        }
    }
}

/// What to look for in a part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// The first layout in search order that beats the incumbent, and among those the smallest.
    Improve(Incumbent),
    /// Every layout of exactly `queens` queens (which must be the minimum: a smaller layout is
    /// reported), counted, and its classes under the board's symmetries; with `representatives`,
    /// one canonical layout per class too.
    Count {
        queens: usize,
        representatives: bool,
    },
}

/// A layout found by a part and its rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub layout: Layout,
    pub rank: Rank,
}

/// Counts from a part (or from all parts: counts of disjoint parts add up).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LayoutCount {
    /// Layouts of the counted size.
    pub layouts: u64,
    /// Their classes under the board's symmetries.
    pub classes: u64,
    /// The canonical member (lowest of the class, squares in row-major order) and the size of
    /// each class counted, when asked for; in increasing order of layout.
    pub representatives: Vec<(Layout, usize)>,
    /// A layout with fewer queens than the counted size, if the part holds one (the size was not
    /// the minimum): the one with fewest queens, then lowest squares.
    pub smaller: Option<Layout>,
}

impl LayoutCount {
    /// Add the counts of a disjoint part.
    pub fn add(&mut self, mut other: LayoutCount) {
        self.layouts = self
            .layouts
            .checked_add(other.layouts)
            .expect("fewer than 2^64 layouts");
        self.classes += other.classes;
        self.representatives.append(&mut other.representatives);
        self.representatives
            .sort_by(|a, b| a.0.queens().cmp(b.0.queens()));
        if let Some(s) = other.smaller {
            let better = match &self.smaller {
                None => true,
                Some(t) => (s.len(), s.queens()) < (t.len(), t.queens()),
            };
            if better {
                self.smaller = Some(s);
            }
        }
    }
}

/// What a part gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartResult {
    /// Looking for a better layout: the best found that beats the incumbent given, if any.
    Improve(Option<Found>),
    Count(LayoutCount),
}

/// A part's result and its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartOutcome {
    pub result: PartResult,
    /// Search nodes expanded (for `Improve`, this depends on timing when run in parallel or when
    /// other parts' results tighten the bound).
    pub nodes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        for text in ["root", "0", "3.12.0", "511.255.7"] {
            let p: PartPath = text.parse().unwrap();
            assert_eq!(p.to_string(), text);
        }
        for bad in ["", "1..2", "a", "-1", "1.", "70000"] {
            assert!(bad.parse::<PartPath>().is_err(), "{bad}");
        }
        assert!("3.12".parse::<PartPath>().unwrap() < "3.12.0".parse().unwrap());
    }
}
