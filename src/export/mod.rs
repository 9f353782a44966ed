//! Table formats. Each format turns the same row records ([`TableRow`]) into bytes and does no I/O,
//! so that the caller decides where the bytes go and when they are flushed (rows are written as
//! they finish).
//!
//! The line formats (CSV, TSV, JSON Lines) write one whole line per board and nothing after the
//! last row, so a file cut short after any row is still a valid table: these are the formats a run
//! can resume, and each can read its own rows back ([`Format::read_row`]). Markdown and the grid
//! are whole-table formats: the grid can only be printed once every cell is known.

mod csv;
mod grid;
mod json;
mod markdown;
mod tsv;

use std::fmt;

use thiserror::Error;

use crate::search::Problem;
use crate::table::TableRow;

pub use self::csv::{CsvExport, CSV_COLUMNS};
pub use self::grid::GridExport;
pub use self::json::JsonExport;
pub use self::markdown::MarkdownExport;
pub use self::tsv::TsvExport;

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("cannot format row: {0}")]
    Csv(#[from] ::csv::Error),
    #[error("cannot format row: {0}")]
    Json(#[from] serde_json::Error),
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

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Comma-separated values with a header line: the default.
    Csv,
    /// Tab-separated values with a header line.
    Tsv,
    /// JSON Lines: one object per board, no header.
    Json,
    /// A Markdown table.
    Markdown,
    /// A matrix of the numbers, one line per row count and one column per column count (CSV).
    Grid,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Csv,
        Format::Tsv,
        Format::Json,
        Format::Markdown,
        Format::Grid,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Grid => "grid",
        }
    }

    /// The format a file name's extension stands for: `.csv`, `.tsv`, `.json`/`.jsonl`/`.ndjson`,
    /// `.md`/`.markdown` (case-insensitive). The grid has no extension of its own: it is CSV too.
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "csv" => Some(Format::Csv),
            "tsv" => Some(Format::Tsv),
            "json" | "jsonl" | "ndjson" => Some(Format::Json),
            "md" | "markdown" => Some(Format::Markdown),
            _ => None,
        }
    }

    /// One whole line per board and nothing after the last one: a file cut after any row is a
    /// valid shorter table, so a run can append to it.
    pub fn is_line_format(self) -> bool {
        matches!(self, Format::Csv | Format::Tsv | Format::Json)
    }

    /// A fresh exporter for a table of `problem` over these row and column counts (the grid needs
    /// them for its axes; the other formats ignore them).
    pub fn exporter(self, problem: Problem, rows: &[usize], cols: &[usize]) -> Box<dyn Export> {
        match self {
            Format::Csv => Box::new(CsvExport),
            Format::Tsv => Box::new(TsvExport),
            Format::Json => Box::new(JsonExport),
            Format::Markdown => Box::new(MarkdownExport),
            Format::Grid => Box::new(GridExport::new(problem, rows, cols)),
        }
    }

    /// Read back one line (without its newline) written by this format's `row`. Only the line
    /// formats can be read; the others always fail.
    pub fn read_row(self, line: &str) -> Result<RowFields, RowReadError> {
        match self {
            Format::Csv => csv::read_row(line),
            Format::Tsv => tsv::read_row(line),
            Format::Json => json::read_row(line),
            Format::Markdown | Format::Grid => Err(RowReadError::NotALineFormat(self)),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fields of a row as written, read back from a file (not yet checked against anything).
#[derive(Debug, Clone, PartialEq)]
pub struct RowFields {
    pub rows: usize,
    pub cols: usize,
    pub queens: usize,
    pub layout: String,
    pub problem: String,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
}

/// Why a line is not a row of its format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RowReadError {
    #[error("expected {expected} fields, found {found}")]
    FieldCount { expected: usize, found: usize },
    #[error("field '{field}' is not a whole number: '{value}'")]
    NotANumber { field: &'static str, value: String },
    #[error("field 'seconds' is not a number of seconds: '{0}'")]
    NotSeconds(String),
    #[error("not a JSON row object: {0}")]
    Json(String),
    #[error("{0} rows cannot be read back")]
    NotALineFormat(Format),
}

/// Turn the text fields of a CSV or TSV line (in [`CSV_COLUMNS`] order) into a [`RowFields`].
fn fields_from_text(fields: &[&str]) -> Result<RowFields, RowReadError> {
    if fields.len() != CSV_COLUMNS.len() {
        return Err(RowReadError::FieldCount {
            expected: CSV_COLUMNS.len(),
            found: fields.len(),
        });
    }
    fn whole<T: std::str::FromStr>(field: &'static str, value: &str) -> Result<T, RowReadError> {
        // Only plain digits, as written: no signs, spaces or exponents.
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(RowReadError::NotANumber {
                field,
                value: value.to_string(),
            });
        }
        value.parse().map_err(|_| RowReadError::NotANumber {
            field,
            value: value.to_string(),
        })
    }
    let seconds: f64 = fields[6]
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| RowReadError::NotSeconds(fields[6].to_string()))?;
    Ok(RowFields {
        rows: whole("rows", fields[0])?,
        cols: whole("cols", fields[1])?,
        queens: whole("queens", fields[2])?,
        layout: fields[3].to_string(),
        problem: fields[4].to_string(),
        nodes: whole("nodes", fields[5])?,
        seconds,
        threads: whole("threads", fields[7])?,
    })
}
