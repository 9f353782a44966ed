//! Reading a table file written by `queendom table` (CSV, TSV or JSON Lines, either problem) for
//! pictures. The format is told by the first line, the problem by the `problem` column; every row
//! is read with the exporters' own reader and every layout re-checked, so a picture never shows a
//! number its file cannot back.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::board::Board;
use crate::error::{ErrorKind, Kind};
use crate::export::Format;
use crate::export::{LineError, RowReader};
use crate::layout::Layout;
use crate::row::{Column, RowKind};
use crate::search::Problem;

/// What a table knows of one board's number: the proven lower bound and the queens of the row's
/// layout. They meet on a proven row; a row of bounds (`table --budget`) has the lower below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    pub lower: usize,
    pub upper: usize,
}

impl Known {
    /// A number that is proven.
    pub fn exact(value: usize) -> Known {
        Known {
            lower: value,
            upper: value,
        }
    }

    pub fn is_proven(self) -> bool {
        self.lower == self.upper
    }

    /// The number when proven (`13`), else the bounds with an en dash (`13–14`).
    pub fn text(self) -> String {
        if self.is_proven() {
            self.upper.to_string()
        } else {
            format!("{}–{}", self.lower, self.upper)
        }
    }
}

/// One problem's numbers with their layouts, by board (ordered by rows, then columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotTable {
    pub problem: Problem,
    /// Every board's layout: the optimum of a proven row, the upper bound of a row of bounds.
    pub layouts: BTreeMap<Board, Layout>,
    /// The proven lower bounds of the boards whose rows are bounds (below their layout's
    /// queens); every other board's layout is optimal.
    pub lower_bounds: BTreeMap<Board, usize>,
}

impl PlotTable {
    /// A table whose every layout is optimal.
    pub fn exact(problem: Problem, layouts: BTreeMap<Board, Layout>) -> PlotTable {
        PlotTable {
            problem,
            layouts,
            lower_bounds: BTreeMap::new(),
        }
    }

    /// What the table knows of `board`'s number, if the table has the board.
    pub fn known(&self, board: Board) -> Option<Known> {
        let upper = self.layouts.get(&board)?.len();
        let lower = self.lower_bounds.get(&board).copied().unwrap_or(upper);
        Some(Known { lower, upper })
    }

    /// The number of queens on `board` if the table has it proven (not for a row of bounds).
    pub fn value(&self, board: Board) -> Option<usize> {
        self.known(board).filter(|k| k.is_proven()).map(|k| k.upper)
    }

    /// How many of the table's boards have only bounds.
    pub fn bounded(&self) -> usize {
        self.lower_bounds.len()
    }

    /// The row counts present, smallest first.
    pub fn row_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.layouts.keys().map(|b| b.rows()).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    /// The column counts present, smallest first.
    pub fn col_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.layouts.keys().map(|b| b.cols()).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }
}

/// Why a file is not a table that can be drawn. Line numbers are 1-based, as an editor shows them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableFileError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is not UTF-8 text")]
    NotText,
    #[error("{0} tables hold no layouts: write the table as csv, tsv or json (queendom table -o FILE.csv)")]
    NoLayouts(Format),
    #[error(
        "it is not a table written by queendom table: its first line is '{0}', expected the csv or tsv header or a json row"
    )]
    Foreign(String),
    #[error("the table has a header but no rows")]
    NoRows,
    #[error("line {line} is a row of '{found}', not of domination or independent-domination")]
    UnknownProblem { line: usize, found: String },
    #[error("line {line} is a row of {found}, but line {first_line} is of {first}")]
    MixedProblems {
        line: usize,
        found: Problem,
        first_line: usize,
        first: Problem,
    },
    #[error(transparent)]
    Line(#[from] LineError),
}

/// The column lists a table file may have: today's (with counts or without), and that of files
/// written before rows carried a digest.
fn known_columns() -> Vec<Vec<Column>> {
    let mut known: Vec<Vec<Column>> = RowKind::ALL.iter().map(|k| k.columns().to_vec()).collect();
    known.push(RowKind::Optimum.columns_without_digest());
    known
}

/// Tell the format (and the columns) from the first line: a CSV or TSV header, or a JSON object.
fn format_of(first_line: &str) -> Result<(Format, Vec<Column>), TableFileError> {
    let first = first_line.trim_end_matches('\r');
    for columns in known_columns() {
        let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
        if first == names.join(",") {
            return Ok((Format::Csv, columns));
        }
        if first == names.join("\t") {
            return Ok((Format::Tsv, columns));
        }
    }
    if first.starts_with('{') {
        let kind = if first.contains("\"layouts\":") {
            RowKind::Count
        } else if first.contains("\"lower\":") {
            RowKind::Bounds
        } else {
            RowKind::Optimum
        };
        return Ok((Format::Json, kind.columns().to_vec()));
    }
    let cells: Vec<&str> = first.trim_matches('|').split('|').map(str::trim).collect();
    if first.starts_with('|') && cells.first() == Some(&"rows") {
        return Err(TableFileError::NoLayouts(Format::Markdown));
    }
    if first.ends_with("domination rows\\cols") || first.contains("domination rows\\cols,") {
        return Err(TableFileError::NoLayouts(Format::Grid));
    }
    let shown: String = first.chars().take(80).collect();
    Err(TableFileError::Foreign(shown))
}

/// Read a whole table file. Rows may come in any order; each board at most once.
pub fn read_table(contents: &[u8]) -> Result<PlotTable, TableFileError> {
    let text = std::str::from_utf8(contents).map_err(|_| TableFileError::NotText)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let Some((_, first)) = lines.clone().next() else {
        return Err(TableFileError::Empty);
    };
    let (format, columns) = format_of(first)?;
    if format != Format::Json {
        lines.next();
    }

    let mut problem: Option<(Problem, usize)> = None;
    let mut reader = RowReader::new(format, &columns);
    let mut layouts = BTreeMap::new();
    let mut lower_bounds = BTreeMap::new();
    for (line, row_text) in lines {
        let fields = reader.fields(line, row_text.trim_end_matches('\r'))?;
        let found =
            fields
                .problem
                .parse::<Problem>()
                .map_err(|_| TableFileError::UnknownProblem {
                    line,
                    found: fields.problem.clone(),
                })?;
        match problem {
            None => problem = Some((found, line)),
            Some((first, first_line)) if first != found => {
                return Err(TableFileError::MixedProblems {
                    line,
                    found,
                    first_line,
                    first,
                })
            }
            Some(_) => {}
        }
        let board = reader.board(line, &fields)?;
        let layout = RowReader::layout(line, board, &fields, found)?;
        // The row reader checked that the lower bound is at most the layout's queens.
        if let Some(lower) = fields.lower.filter(|&lower| lower < layout.len()) {
            lower_bounds.insert(board, lower);
        }
        layouts.insert(board, layout);
    }
    match problem {
        Some((problem, _)) => Ok(PlotTable {
            problem,
            layouts,
            lower_bounds,
        }),
        None => Err(TableFileError::NoRows),
    }
}

impl Kind for TableFileError {
    fn kind(&self) -> ErrorKind {
        match self {
            TableFileError::Empty
            | TableFileError::NotText
            | TableFileError::NoLayouts(_)
            | TableFileError::Foreign(_)
            | TableFileError::NoRows
            | TableFileError::UnknownProblem { .. }
            | TableFileError::MixedProblems { .. }
            | TableFileError::Line(_) => ErrorKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;
    use crate::table::{boards, SizeList, TableRunner};

    fn file(format: Format, problem: Problem) -> Vec<u8> {
        let rows = SizeList::parse("1-3").unwrap();
        let cols = SizeList::parse("2-4").unwrap();
        let mut export = format.exporter(RowKind::Optimum, problem, rows.sizes(), cols.sizes());
        let mut bytes = export.header().unwrap();
        let mut runner = TableRunner::new(problem, SearchOptions::sequential(), 1);
        for board in boards(&rows, &cols) {
            bytes.extend(export.row(&runner.compute(board).unwrap()).unwrap());
        }
        bytes.extend(export.footer().unwrap());
        bytes
    }

    #[test]
    fn reads_every_line_format_of_both_problems() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            for problem in [Problem::Domination, Problem::IndependentDomination] {
                let table = read_table(&file(format, problem)).unwrap();
                assert_eq!(table.problem, problem, "{format}");
                assert_eq!(table.layouts.len(), 9);
                assert_eq!(table.row_sizes(), vec![1, 2, 3]);
                assert_eq!(table.col_sizes(), vec![2, 3, 4]);
                assert_eq!(table.value(Board::new(3, 3).unwrap()), Some(1));
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_draw() {
        for format in [Format::Markdown, Format::Grid] {
            assert_eq!(
                read_table(&file(format, Problem::Domination)),
                Err(TableFileError::NoLayouts(format))
            );
        }
        assert_eq!(read_table(b""), Err(TableFileError::Empty));
        assert!(matches!(
            read_table(b"a,b\n1,2\n"),
            Err(TableFileError::Foreign(_))
        ));
        let header = format!("{}\n", RowKind::Optimum.names().join(","));
        assert_eq!(read_table(header.as_bytes()), Err(TableFileError::NoRows));
        assert_eq!(read_table(&[0xff, 0xfe]), Err(TableFileError::NotText));

        let csv = String::from_utf8(file(Format::Csv, Problem::Domination)).unwrap();
        let indep = String::from_utf8(file(Format::Csv, Problem::IndependentDomination)).unwrap();
        let mixed = format!("{csv}{}\n", indep.lines().nth(1).unwrap());
        assert!(matches!(
            read_table(mixed.as_bytes()),
            Err(TableFileError::MixedProblems { line: 11, .. })
        ));
        let twice = format!("{csv}{}\n", csv.lines().nth(1).unwrap());
        assert!(matches!(
            read_table(twice.as_bytes()),
            Err(TableFileError::Line(LineError::Repeated {
                line: 11,
                first: 2,
                ..
            }))
        ));
        // One queen in the corner leaves r2c3 of the 3x3 board uncovered.
        let uncovered = csv.replace("3,3,1,r2c2,", "3,3,1,r1c1,");
        assert!(matches!(
            read_table(uncovered.as_bytes()),
            Err(TableFileError::Line(LineError::Check { line: 9, .. }))
        ));
        let other = csv.replace(",domination,", ",mystery,");
        assert!(matches!(
            read_table(other.as_bytes()),
            Err(TableFileError::UnknownProblem { line: 2, .. })
        ));
        let cut = &csv[..csv.len() - 30];
        assert!(matches!(
            read_table(cut.as_bytes()),
            Err(TableFileError::Line(LineError::BadRow { line: 10, .. }))
        ));
    }

    /// The 1-3 × 2-4 table as `table --budget` writes it, with every board of two or more queens
    /// bounded one below its number (the layouts are still optimal, the bounds merely loose).
    fn bounds_file(format: Format) -> Vec<u8> {
        let rows = SizeList::parse("1-3").unwrap();
        let cols = SizeList::parse("2-4").unwrap();
        let problem = Problem::Domination;
        let mut export = format.exporter(RowKind::Bounds, problem, rows.sizes(), cols.sizes());
        let mut bytes = export.header().unwrap();
        let mut runner = TableRunner::new(problem, SearchOptions::sequential(), 1);
        for board in boards(&rows, &cols) {
            let mut row = runner.compute(board).unwrap();
            row.lower = Some(if row.queens() > 1 {
                row.queens() - 1
            } else {
                1
            });
            bytes.extend(export.row(&row).unwrap());
        }
        bytes.extend(export.footer().unwrap());
        bytes
    }

    #[test]
    fn reads_the_bounds_of_a_table_with_bounds() {
        for format in [Format::Csv, Format::Tsv, Format::Json] {
            let table = read_table(&bounds_file(format)).unwrap();
            assert_eq!(table.layouts.len(), 9, "{format}");
            let board = |r, c| Board::new(r, c).unwrap();
            // γ(2×4) = 2: bounded 1–2; γ(3×3) = 1: proven.
            assert_eq!(table.known(board(2, 4)), Some(Known { lower: 1, upper: 2 }));
            assert_eq!(table.value(board(2, 4)), None);
            assert_eq!(table.known(board(3, 3)), Some(Known::exact(1)));
            assert_eq!(table.value(board(3, 3)), Some(1));
            let bounded: Vec<Board> = table.lower_bounds.keys().copied().collect();
            assert_eq!(bounded, [board(2, 4), board(3, 4)], "{format}");
            assert_eq!(table.bounded(), 2);
        }
        assert_eq!(
            Known {
                lower: 13,
                upper: 14
            }
            .text(),
            "13–14"
        );
        assert_eq!(Known::exact(13).text(), "13");
    }
}
