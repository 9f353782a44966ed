//! The options of a command that writes a table file: `-o FILE`, `--format`, `--force`, `--verify`.

use super::format_arg::FormatArg;

/// Where a table goes and how an existing one is treated (`table`, `nqueens`).
#[derive(clap::Args, Debug)]
pub struct TableFileArgs {
    /// Output file (`-` or none: stdout); an existing csv/tsv/json table is resumed.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// csv, tsv, json, markdown, grid, bfile or xlsx [default: from FILE's extension, else csv].
    #[arg(
        short = 'f',
        long,
        value_name = "FORMAT",
        ignore_case = true,
        hide_possible_values = true
    )]
    pub format: Option<FormatArg>,
    /// Replace FILE (and an existing --trace FILE) once the new table is complete.
    #[arg(long)]
    pub force: bool,
    /// Check every kept row again when resuming, whatever its board size.
    #[arg(long)]
    pub verify: bool,
}
