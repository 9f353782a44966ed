//! CSV, the default format: one line per board, header starting `rows,cols,queens,layout`.

use super::{Export, ExportError};
use crate::table::TableRow;

/// The columns, in order. The first four are the contract; the rest say how the row was obtained.
pub const CSV_COLUMNS: [&str; 8] = [
    "rows", "cols", "queens", "layout", "problem", "nodes", "seconds", "threads",
];

#[derive(Default)]
pub struct CsvExport;

fn record(fields: &[&str]) -> Result<Vec<u8>, ExportError> {
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(fields)?;
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

impl Export for CsvExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        record(&CSV_COLUMNS)
    }

    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError> {
        record(&[
            &row.board.rows().to_string(),
            &row.board.cols().to_string(),
            &row.queens().to_string(),
            &row.layout.to_squares_string(),
            row.problem.name(),
            &row.nodes.to_string(),
            &format!("{:.6}", row.seconds),
            &row.threads.to_string(),
        ])
    }
}
