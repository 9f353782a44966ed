//! The grid: the numbers as a matrix, one line per row count N and one column per column count M,
//! as tables of domination numbers are printed in papers. It is CSV, so a spreadsheet opens it;
//! the corner cell names the problem. A board with bounds only (`table --budget`) reads
//! `LOWER..UPPER`, such as `13..14`, which no spreadsheet takes for a number or a date. Nothing is
//! written before the last row is in.

use std::collections::HashMap;

use super::{Export, ExportError, Subject};
use crate::row::Row;

pub struct GridExport {
    subject: Subject,
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// Each board's lower bound and number (equal unless the row has bounds only).
    queens: HashMap<(usize, usize), (u64, u64)>,
}

impl GridExport {
    pub fn new(subject: Subject, rows: &[usize], cols: &[usize]) -> GridExport {
        GridExport {
            subject,
            rows: rows.to_vec(),
            cols: cols.to_vec(),
            queens: HashMap::new(),
        }
    }
}

fn record(fields: &[String]) -> Result<Vec<u8>, ExportError> {
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(fields)?;
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

impl Export for GridExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        let board = row.board();
        self.queens
            .insert((board.rows(), board.cols()), (row.lower(), row.value()));
        Ok(Vec::new())
    }

    fn footer(&mut self) -> Result<Vec<u8>, ExportError> {
        let mut out = Vec::new();
        for line in self.cells() {
            out.extend(record(&line)?);
        }
        Ok(out)
    }
}

impl GridExport {
    /// The grid as lines of cells: the corner cell and the column counts, then one line per row
    /// count (shared with the grid sheet of the workbook).
    pub(super) fn cells(&self) -> Vec<Vec<String>> {
        let mut head = vec![format!("{} rows\\cols", self.subject.name())];
        head.extend(self.cols.iter().map(|c| c.to_string()));
        let mut out = vec![head];
        for &r in &self.rows {
            let mut line = vec![r.to_string()];
            // A board that is not in the table (off the diagonal of `--squares`) is an empty cell.
            line.extend(self.cols.iter().map(|&c| {
                self.queens
                    .get(&(r, c))
                    .map_or(String::new(), |&(lower, value)| {
                        if lower == value {
                            value.to_string()
                        } else {
                            format!("{lower}..{value}")
                        }
                    })
            }));
            out.push(line);
        }
        out
    }
}
