//! CSV, the default format: one line per board, header starting `rows,cols,queens,layout`.

use super::{fields_from_text, Export, ExportError, RowFields, RowReadError};
use crate::table::TableRow;

/// The columns, in order. The first four are the contract; the rest say how the row was obtained.
/// CSV, TSV, JSON Lines and Markdown all use these names.
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

/// A row's fields as text, in [`CSV_COLUMNS`] order (shared with TSV and Markdown).
pub(super) fn row_texts(row: &TableRow) -> [String; 8] {
    [
        row.board.rows().to_string(),
        row.board.cols().to_string(),
        row.queens().to_string(),
        row.layout.to_squares_string(),
        row.problem.name().to_string(),
        row.nodes.to_string(),
        format!("{:.6}", row.seconds),
        row.threads.to_string(),
    ]
}

impl Export for CsvExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        record(&CSV_COLUMNS)
    }

    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError> {
        let texts = row_texts(row);
        let fields: Vec<&str> = texts.iter().map(String::as_str).collect();
        record(&fields)
    }
}

pub(super) fn read_row(line: &str) -> Result<RowFields, RowReadError> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut record = ::csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => {}
        _ => {
            return Err(RowReadError::FieldCount {
                expected: CSV_COLUMNS.len(),
                found: 0,
            })
        }
    }
    let fields: Vec<&str> = record.iter().collect();
    fields_from_text(&fields)
}
