//! `--start` on `solve`, `plan` and `table`: a layout from elsewhere, checked, as the first
//! incumbent (see `queendom::search::StartLayouts`).

use std::path::Path;
use std::sync::Arc;

use queendom::destination::file::read_regular;
use queendom::search::{Problem, StartLayouts};
use queendom::{Board, Layout};

use super::{usage, Failure};

/// Longest start file read: a table of every board to 32×32 with 32 queens each is about 200 KB.
const MAX_START_FILE: u64 = 4 << 20;

#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// Start from this layout ("r1c1 r3c5 …") instead of the local search's; @FILE: a table's.
    #[arg(long, value_name = "LAYOUT|@FILE")]
    start: Option<String>,
}

impl StartArgs {
    /// The start layouts for `boards`, checked; a usage error (exit 2) names what is wrong.
    pub fn layouts(
        &self,
        boards: &[Board],
        problem: Problem,
    ) -> Result<Option<Arc<StartLayouts>>, Failure> {
        let Some(value) = &self.start else {
            return Ok(None);
        };
        let text = match value.strip_prefix('@') {
            Some(path) => read(Path::new(path))?,
            None => value.clone(),
        };
        let layouts = if is_table(&text) {
            table_layouts(&text, boards)?
        } else {
            let line = text.trim();
            match boards {
                [board] => vec![StartLayouts::parse(*board, line).map_err(usage)?],
                _ => {
                    return Err(usage(
                        "--start with a single layout needs a single board; for a table give @FILE, a CSV with columns rows,cols,layout",
                    ))
                }
            }
        };
        let starts = StartLayouts::new(problem, layouts).map_err(usage)?;
        Ok(Some(Arc::new(starts)))
    }
}

fn read(path: &Path) -> Result<String, Failure> {
    let bad = |e: &dyn std::fmt::Display| usage(format!("--start {}: {e}", path.display()));
    // A FIFO or device is refused at once; a file that grows costs at most the limit.
    let bytes = read_regular(path, MAX_START_FILE).map_err(|e| bad(&e))?;
    String::from_utf8(bytes).map_err(|_| bad(&"not UTF-8 text"))
}

/// A CSV table has a header line naming a `layout` column among comma-separated columns.
fn is_table(text: &str) -> bool {
    let header = text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches('\u{feff}');
    header.contains(',') && header.split(',').any(|c| c.trim() == "layout")
}

/// The layouts of the rows of a CSV table whose board (either way round) is one of `boards`.
fn table_layouts(text: &str, boards: &[Board]) -> Result<Vec<Layout>, Failure> {
    let mut reader = csv::Reader::from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let header = reader.headers().map_err(usage)?.clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|c| c.trim() == name)
            .ok_or_else(|| usage(format!("--start: the table has no '{name}' column")))
    };
    let (r, c, l) = (column("rows")?, column("cols")?, column("layout")?);
    let mut layouts = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(usage)?;
        let at = || format!("--start: row {}", line + 2);
        let number = |i: usize| {
            record
                .get(i)
                .and_then(|v| v.trim().parse::<usize>().ok())
                .ok_or_else(|| usage(format!("{}: rows and cols must be numbers", at())))
        };
        let board =
            Board::new(number(r)?, number(c)?).map_err(|e| usage(format!("{}: {e}", at())))?;
        if !boards
            .iter()
            .any(|&b| b == board || b == board.transposed())
        {
            continue;
        }
        let text = record.get(l).unwrap_or("");
        let layout =
            StartLayouts::parse(board, text).map_err(|e| usage(format!("{}: {e}", at())))?;
        layouts.push(layout);
    }
    Ok(layouts)
}
