//! The OEIS b-file: one line `n a(n)` per square board n×n, in the order of the table, the way
//! integer sequences are shared. Only tables of square boards can be written as one
//! ([`super::Format::accepts`]); the file is written once every row is in.
//!
//! A b-file lists terms, and a term is a proven number: the file stops before the first board
//! with bounds only (`table --budget`), since the terms must follow one another, and its comment
//! says where and why.

use super::{Export, ExportError, Subject};
use crate::row::Row;

pub struct BFileExport {
    subject: Subject,
    /// Each square's side, lower bound and number (equal unless the row has bounds only).
    lines: Vec<(usize, u64, u64)>,
}

impl BFileExport {
    pub fn new(subject: Subject) -> BFileExport {
        BFileExport {
            subject,
            lines: Vec::new(),
        }
    }
}

impl Export for BFileExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        // `Format::accepts` refused every table with a non-square board before any row.
        debug_assert!(row.board().is_square());
        self.lines
            .push((row.board().rows(), row.lower(), row.value()));
        Ok(Vec::new())
    }

    fn footer(&mut self) -> Result<Vec<u8>, ExportError> {
        // b-files may begin with comment lines; the problem is named there, as is the rule.
        let name = self.subject.sequence();
        let mut out = format!("# n {name}, by queendom\n");
        let proven = self
            .lines
            .iter()
            .position(|&(_, lower, value)| lower != value)
            .unwrap_or(self.lines.len());
        if let Some(&(n, lower, value)) = self.lines.get(proven) {
            out.push_str(&format!(
                "# stops before n = {n}: only the bounds {lower}..{value} are proven there\n"
            ));
        }
        for (n, _, value) in &self.lines[..proven] {
            out.push_str(&format!("{n} {value}\n"));
        }
        Ok(out.into_bytes())
    }
}
