//! `--format`: the command line's names for the library's [`Format`]s (the library has no clap).

use queendom::export::Format;

/// The values of `--format`, one per [`Format`], with their aliases and help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[value(rename_all = "lower")]
pub enum FormatArg {
    /// .csv: comma-separated values with a header line (the default)
    Csv,
    /// .tsv: the same columns separated by tabs
    Tsv,
    /// .json .jsonl .ndjson: JSON Lines, one object per board, keys as the CSV columns
    #[value(alias = "jsonl", alias = "ndjson")]
    Json,
    /// .md .markdown: a Markdown table with the same columns
    #[value(alias = "md")]
    Markdown,
    /// (no extension: CSV too) a matrix, one line per row count and one column per column count,
    /// the number of queens in each cell, the problem in the corner cell
    Grid,
    /// (no extension) OEIS b-file: `n a(n)` lines, square boards only
    Bfile,
    /// .xlsx: a workbook with a sheet of rows (numbers as numbers, layouts as text) and a grid sheet
    Xlsx,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Csv => Format::Csv,
            FormatArg::Tsv => Format::Tsv,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Grid => Format::Grid,
            FormatArg::Bfile => Format::Bfile,
            FormatArg::Xlsx => Format::Xlsx,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn every_format_has_one_value() {
        let mapped: Vec<Format> = FormatArg::value_variants()
            .iter()
            .map(|&a| a.into())
            .collect();
        assert_eq!(mapped, Format::all());
        for &arg in FormatArg::value_variants() {
            let name = arg.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(name, Format::from(arg).name());
        }
    }
}
