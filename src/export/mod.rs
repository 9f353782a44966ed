//! Table formats. Each format turns the same row records into bytes and does no I/O, so that the
//! caller decides where the bytes go and when they are flushed (rows are written as they finish).

mod csv;

use thiserror::Error;

use crate::table::TableRow;

pub use self::csv::CsvExport;

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("cannot format row: {0}")]
    Csv(#[from] ::csv::Error),
    #[error("cannot format row: {0}")]
    Io(#[from] std::io::Error),
}

/// A table format, fed the rows in order as they finish.
pub trait Export {
    /// Bytes that open the table.
    fn header(&mut self) -> Result<Vec<u8>, ExportError>;
    /// Bytes for one finished row.
    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError>;
    /// Bytes that close the table, once every row is in.
    fn footer(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }
}
