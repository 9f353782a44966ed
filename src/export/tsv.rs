//! TSV: the CSV columns separated by tabs. No field can hold a tab or a newline, so nothing is
//! quoted.

use super::csv::row_texts;
use super::{fields_from_text, Export, ExportError, RowFields, RowReadError, CSV_COLUMNS};
use crate::table::TableRow;

#[derive(Default)]
pub struct TsvExport;

fn line(fields: &[&str]) -> Vec<u8> {
    let mut out = fields.join("\t").into_bytes();
    out.push(b'\n');
    out
}

impl Export for TsvExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(line(&CSV_COLUMNS))
    }

    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError> {
        let texts = row_texts(row);
        let fields: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(line(&fields))
    }
}

pub(super) fn read_row(text: &str) -> Result<RowFields, RowReadError> {
    let fields: Vec<&str> = text.split('\t').collect();
    fields_from_text(&fields)
}
