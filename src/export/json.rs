//! JSON Lines: one object per board with the CSV column names as keys, in the same order, and no
//! header, so every line stands alone.

use serde::Deserialize;

use super::{Export, ExportError, RowFields, RowReadError};
use crate::table::TableRow;

#[derive(Default)]
pub struct JsonExport;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonRow {
    rows: usize,
    cols: usize,
    queens: usize,
    layout: String,
    problem: String,
    nodes: u64,
    seconds: f64,
    threads: usize,
}

impl Export for JsonExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }

    fn row(&mut self, row: &TableRow) -> Result<Vec<u8>, ExportError> {
        // Written by hand so that seconds read as in the CSV (0.000012, not 1.2e-5).
        let text = |s: &str| serde_json::to_string(s);
        let line = format!(
            "{{\"rows\":{},\"cols\":{},\"queens\":{},\"layout\":{},\"problem\":{},\"nodes\":{},\"seconds\":{:.6},\"threads\":{}}}\n",
            row.board.rows(),
            row.board.cols(),
            row.queens(),
            text(&row.layout.to_squares_string())?,
            text(row.problem.name())?,
            row.nodes,
            row.seconds,
            row.threads,
        );
        Ok(line.into_bytes())
    }
}

pub(super) fn read_row(line: &str) -> Result<RowFields, RowReadError> {
    let r: JsonRow = serde_json::from_str(line).map_err(|e| RowReadError::Json(e.to_string()))?;
    if !r.seconds.is_finite() || r.seconds < 0.0 {
        return Err(RowReadError::NotSeconds(r.seconds.to_string()));
    }
    Ok(RowFields {
        rows: r.rows,
        cols: r.cols,
        queens: r.queens,
        layout: r.layout,
        problem: r.problem,
        nodes: r.nodes,
        seconds: r.seconds,
        threads: r.threads,
    })
}
