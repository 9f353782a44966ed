//! Markdown: a pipe table with the CSV columns, numbers right-aligned. No field can hold a `|`.

use super::csv::row_texts;
use super::{Export, ExportError, CSV_COLUMNS};
use crate::table::TableRow;

#[derive(Default)]
pub struct MarkdownExport;

fn line(cells: &[&str]) -> Vec<u8> {
    format!("| {} |\n", cells.join(" | ")).into_bytes()
}

impl Export for MarkdownExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        let mut out = line(&CSV_COLUMNS);
        // layout and problem are text (left-aligned); the rest are numbers.
        let rule: Vec<&str> = CSV_COLUMNS
            .iter()
            .map(|&c| match c {
                "layout" | "problem" => ":---",
                _ => "---:",
            })
            .collect();
        out.extend(line(&rule));
        Ok(out)
    }

    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError> {
        let texts = row_texts(row);
        let cells: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(line(&cells))
    }
}
