//! Size lists (`8`, `1-10`, `4,6,9-11`) and the boards of a table, in the order its rows are
//! written.

use thiserror::Error;

use crate::board::{Board, MAX_SIDE};
use crate::error::{ErrorKind, Kind};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeListError {
    #[error("empty size list")]
    Empty,
    #[error("'{0}' is not a size: expected a whole number such as 8")]
    NotANumber(String),
    #[error("size 0 in '{0}': boards have at least one row and one column")]
    Zero(String),
    #[error("range '{0}' runs backwards: write the smaller number first")]
    Reversed(String),
    #[error("size {size} in '{text}' is too big: this build supports sizes up to {max}")]
    TooBig {
        text: String,
        size: usize,
        max: usize,
    },
}

/// A list of sizes written as numbers, ranges `A-B` and comma lists: `4,6,9-11` is 4, 6, 9, 10, 11.
/// Kept in the order written, without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeList(Vec<usize>);

impl SizeList {
    pub fn parse(text: &str) -> Result<SizeList, SizeListError> {
        Self::parse_with_max(text, MAX_SIDE)
    }

    pub fn parse_with_max(text: &str, max: usize) -> Result<SizeList, SizeListError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SizeListError::Empty);
        }
        let mut sizes = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let number = |s: &str| -> Result<usize, SizeListError> {
                let s = s.trim();
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(SizeListError::NotANumber(item.to_string()));
                }
                // All digits: only an overflow can fail, and that is certainly too big.
                let n = s.parse::<usize>().unwrap_or(usize::MAX);
                if n == 0 {
                    return Err(SizeListError::Zero(item.to_string()));
                }
                if n > max {
                    return Err(SizeListError::TooBig {
                        text: item.to_string(),
                        size: n,
                        max,
                    });
                }
                Ok(n)
            };
            let (a, b) = match item.split_once('-') {
                // A leading '-' is a negative number, not a range.
                Some((lo, _)) if lo.trim().is_empty() => {
                    return Err(SizeListError::NotANumber(item.to_string()))
                }
                Some((lo, hi)) => (number(lo)?, number(hi)?),
                None => {
                    let n = number(item)?;
                    (n, n)
                }
            };
            if a > b {
                return Err(SizeListError::Reversed(item.to_string()));
            }
            for n in a..=b {
                if !sizes.contains(&n) {
                    sizes.push(n);
                }
            }
        }
        Ok(SizeList(sizes))
    }

    pub fn sizes(&self) -> &[usize] {
        &self.0
    }

    /// A list of sizes known to be valid (e.g. read back from a plan), kept in order without
    /// repeats.
    pub fn from_sizes(sizes: &[usize]) -> SizeList {
        let mut out: Vec<usize> = Vec::with_capacity(sizes.len());
        for &n in sizes {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        SizeList(out)
    }
}

impl std::str::FromStr for SizeList {
    type Err = SizeListError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SizeList::parse(s)
    }
}

/// Every board of a table, in the order its rows are written: by rows, then by columns, each in
/// the order the lists give.
pub fn boards(rows: &SizeList, cols: &SizeList) -> Vec<Board> {
    let mut out = Vec::with_capacity(rows.0.len() * cols.0.len());
    for &r in &rows.0 {
        for &c in &cols.0 {
            out.push(Board::new(r, c).expect("size lists hold valid sizes"));
        }
    }
    out
}

/// The square boards n×n for every n in `sizes`, in the order given.
pub fn square_boards(sizes: &SizeList) -> Vec<Board> {
    sizes
        .0
        .iter()
        .map(|&n| Board::new(n, n).expect("size lists hold valid sizes"))
        .collect()
}

impl Kind for SizeListError {
    fn kind(&self) -> ErrorKind {
        match self {
            SizeListError::Empty
            | SizeListError::NotANumber(_)
            | SizeListError::Zero(_)
            | SizeListError::Reversed(_)
            | SizeListError::TooBig { .. } => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_lists() {
        assert_eq!(
            SizeList::parse("4,6,9-11").unwrap().sizes(),
            &[4, 6, 9, 10, 11]
        );
        assert_eq!(SizeList::parse("1-3,2").unwrap().sizes(), &[1, 2, 3]);
        assert_eq!(SizeList::parse(" 7 ").unwrap().sizes(), &[7]);
        assert_eq!(
            SizeList::parse("9-4"),
            Err(SizeListError::Reversed("9-4".into()))
        );
        assert_eq!(
            SizeList::parse("0-3"),
            Err(SizeListError::Zero("0-3".into()))
        );
        assert!(matches!(
            SizeList::parse("-3"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("a"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("3,"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("1-2-3"),
            Err(SizeListError::NotANumber(_))
        ));
        assert!(matches!(
            SizeList::parse("33"),
            Err(SizeListError::TooBig { .. })
        ));
        assert!(matches!(
            SizeList::parse("99999999999999999999999"),
            Err(SizeListError::TooBig { .. })
        ));
        assert_eq!(SizeList::parse(""), Err(SizeListError::Empty));
    }
}
