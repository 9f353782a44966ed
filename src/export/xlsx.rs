//! XLSX: a real workbook, so that a spreadsheet gets numbers as numbers and layouts and digests as
//! text without guessing. Sheet `rows` has the CSV columns, sheet `grid` the grid; both have their
//! headers frozen. A whole-table format: the workbook is built once every row is in. A board with
//! bounds only has them as numbers in the rows sheet (lower, upper) and as the text `13..14` in
//! the grid sheet.

use rust_xlsxwriter::{Format as CellFormat, Workbook, Worksheet, XlsxError};

use super::grid::GridExport;
use super::{Export, ExportError, Subject};
use crate::row::{Cell, CellKind, Row, RowKind};

/// Excel's widest column, in characters.
const MAX_WIDTH: usize = 255;

pub struct XlsxExport {
    kind: RowKind,
    /// Every row's cells, in the kind's column order.
    rows: Vec<Vec<Cell>>,
    grid: GridExport,
}

impl XlsxExport {
    pub fn new(kind: RowKind, subject: Subject, rows: &[usize], cols: &[usize]) -> XlsxExport {
        XlsxExport {
            kind,
            rows: Vec::new(),
            grid: GridExport::new(subject, rows, cols),
        }
    }

    fn rows_sheet(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let bold = CellFormat::new().set_bold();
        let seconds = CellFormat::new().set_num_format("0.000000");
        sheet.set_name("rows")?;
        for (c, column) in self.kind.columns().iter().enumerate() {
            sheet.write_string_with_format(0, c as u16, column.name(), &bold)?;
            // As wide as the column's longest entry as the sheet shows it (a bold header
            // counts a character more), so that no layout is cut off: a 32×32 layout is
            // hundreds of characters.
            let longest = self
                .rows
                .iter()
                .map(|row| row[c].text().chars().count())
                .chain([column.name().chars().count() + 1])
                .max()
                .unwrap_or(0);
            let least = match column.kind() {
                CellKind::Text => 10,
                _ => 6,
            };
            sheet.set_column_width(c as u16, (longest + 1).clamp(least, MAX_WIDTH) as f64)?;
        }
        for (r, row) in self.rows.iter().enumerate() {
            let r = r as u32 + 1;
            for (c, cell) in row.iter().enumerate() {
                let c = c as u16;
                match cell.clone() {
                    Cell::Whole(n) => sheet.write_number(r, c, n as f64)?,
                    Cell::Seconds(s) => sheet.write_number_with_format(r, c, s, &seconds)?,
                    Cell::Text(t) => sheet.write_string(r, c, t)?,
                };
            }
        }
        sheet.set_freeze_panes(1, 0)?;
        Ok(())
    }

    fn grid_sheet(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let bold = CellFormat::new().set_bold();
        sheet.set_name("grid")?;
        for (r, line) in self.grid.cells().iter().enumerate() {
            for (c, text) in line.iter().enumerate() {
                let (r, c) = (r as u32, c as u16);
                if r == 0 && c == 0 {
                    sheet.write_string_with_format(r, c, text, &bold)?;
                } else if text.is_empty() {
                    // A board that is not in the table: an empty cell.
                } else if let Ok(n) = text.parse::<f64>() {
                    // A size or a number of queens.
                    if r == 0 || c == 0 {
                        sheet.write_number_with_format(r, c, n, &bold)?;
                    } else {
                        sheet.write_number(r, c, n)?;
                    }
                } else {
                    // Bounds only, `13..14`: text, as the grid writes it (the rows sheet has
                    // both bounds as numbers).
                    sheet.write_string(r, c, text)?;
                }
            }
        }
        sheet.set_column_width(0, 26.0)?;
        sheet.set_freeze_panes(1, 1)?;
        Ok(())
    }
}

impl Export for XlsxExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        self.grid.row(row)?;
        self.rows
            .push(self.kind.columns().iter().map(|&c| row.cell(c)).collect());
        Ok(Vec::new())
    }

    fn footer(&mut self) -> Result<Vec<u8>, ExportError> {
        let mut workbook = Workbook::new();
        self.rows_sheet(workbook.add_worksheet())?;
        self.grid_sheet(workbook.add_worksheet())?;
        Ok(workbook.save_to_buffer()?)
    }
}
