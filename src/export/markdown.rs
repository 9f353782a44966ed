//! Markdown: a pipe table with the CSV columns, numbers right-aligned. No field can hold a `|`.

use super::{row_texts, Export, ExportError};
use crate::row::{CellKind, Row, RowKind};

pub struct MarkdownExport {
    kind: RowKind,
}

impl MarkdownExport {
    pub fn new(kind: RowKind) -> MarkdownExport {
        MarkdownExport { kind }
    }
}

fn line<S: AsRef<str>>(cells: &[S]) -> Vec<u8> {
    let cells: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
    format!("| {} |\n", cells.join(" | ")).into_bytes()
}

impl Export for MarkdownExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        let mut out = line(&self.kind.names());
        // Text is left-aligned, numbers right-aligned.
        let rule: Vec<&str> = self
            .kind
            .columns()
            .iter()
            .map(|c| match c.kind() {
                CellKind::Text => ":---",
                _ => "---:",
            })
            .collect();
        out.extend(line(&rule));
        Ok(out)
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        Ok(line(&row_texts(row)))
    }
}
