//! CSV, the default format: one line per board, header `rows,cols,queens,layout,...`.

use super::{row_texts, Export, ExportError};
use crate::row::{Column, Row, RowKind, RowReadError};

pub struct CsvExport {
    kind: RowKind,
}

impl CsvExport {
    pub fn new(kind: RowKind) -> CsvExport {
        CsvExport { kind }
    }
}

pub(super) fn record<S: AsRef<[u8]>>(fields: &[S]) -> Result<Vec<u8>, ExportError> {
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(fields)?;
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

impl Export for CsvExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        record(&self.kind.names())
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        record(&row_texts(row))
    }
}

pub(super) fn read_cells(
    columns: &[Column],
    line: &str,
) -> Result<(Vec<Column>, Vec<String>), RowReadError> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut record = ::csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => {}
        _ => {
            return Err(RowReadError::FieldCount {
                expected: columns.len(),
                found: 0,
            })
        }
    }
    Ok((
        columns.to_vec(),
        record.iter().map(str::to_string).collect(),
    ))
}
