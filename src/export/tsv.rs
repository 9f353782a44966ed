//! TSV: the CSV columns separated by tabs. No field can hold a tab or a newline, so nothing is
//! quoted.

use super::{row_texts, Export, ExportError};
use crate::row::{Row, RowKind};

pub struct TsvExport {
    kind: RowKind,
}

impl TsvExport {
    pub fn new(kind: RowKind) -> TsvExport {
        TsvExport { kind }
    }
}

pub(super) fn line<S: AsRef<str>>(fields: &[S]) -> Vec<u8> {
    let fields: Vec<&str> = fields.iter().map(AsRef::as_ref).collect();
    let mut out = fields.join("\t").into_bytes();
    out.push(b'\n');
    out
}

impl Export for TsvExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(line(&self.kind.names()))
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        Ok(line(&row_texts(row)))
    }
}
