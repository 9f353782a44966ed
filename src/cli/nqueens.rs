//! `queendom nqueens SIZES [--list | --board]` and `queendom nqueens --rows A-B --cols C-D`: N-queens
//! counts as CSV, one row per board written as each finishes, or every placement of a square board.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use queendom::export::{json_members, FieldSyntax, Format, LinePattern, PatternField};
use queendom::nqueens::{count_placements_traced, count_rectangular, list_placements, MAX_LIST_N};
use queendom::table::resume::{max_lines, shown_start, visible, MAX_LINE_BYTES};
use queendom::table::{boards, SizeList};
use queendom::trace::Trace;
use queendom::{Board, Layout, Square};

use super::output::file::{cannot_write, read_start};
use super::output::{OutFile, Sink, Target};
use super::signals::ExitOnSignal;
use super::trace_file::TraceArgs;
use super::{progress, usage, Failure, ThreadArgs};

/// Count (or list) the placements of N non-attacking queens on N×N boards; with --rows and
/// --cols, of min(N, M) queens on N×M boards.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Counts are exact for every n up to 32, but the time grows about sixfold \
per extra row: n = 16 takes a few seconds, n = 20 about an hour on one core, and n = 24 months \
or more. CSV columns: n,solutions,unique,seconds,threads (unique: up to rotations and \
reflections); with --rows/--cols: rows,cols,solutions,seconds,threads. Formats: csv, tsv or \
json (JSON Lines), from --format or FILE's extension (.csv .tsv .json .jsonl .ndjson; none: csv; \
others are refused). An existing FILE is resumed as `table` resumes one: its rows must be of the \
requested sizes, each at most once; counts of boards up to 144 squares (all with --verify) are \
counted again and must agree; only the missing sizes are counted and appended. --force replaces \
FILE once the new table is complete (rows go to .FILE.partial till then). Ctrl-C, SIGTERM or \
SIGHUP: one line says how far it got, every finished row is on disk, exit 130, 143 or 129; run \
the same command \
again to resume."
)]
pub struct NQueensArgs {
    /// Board sides n: a number, a range A-B, or a comma list such as 4,6,9-11 (n ≤ 32).
    // Which of SIZES and --rows/--cols is given is checked in `run`: clap's own messages for
    // these name the arguments on a second line, which the one-line error would drop.
    #[arg(value_name = "SIZES")]
    sizes: Option<SizeList>,
    /// Rectangular boards: row counts, in the same form as SIZES (needs --cols).
    #[arg(long, value_name = "SIZES")]
    rows: Option<SizeList>,
    /// Rectangular boards: column counts, in the same form as SIZES (needs --rows).
    #[arg(long, value_name = "SIZES")]
    cols: Option<SizeList>,
    /// Print every placement, one per line as the 1-based column of the queen in each row, in
    /// lexicographic order, then the count (n ≤ 18).
    #[arg(long, conflicts_with_all = ["board", "rows"])]
    list: bool,
    /// Like --list, but each placement as a diagram.
    #[arg(long, conflicts_with = "rows")]
    board: bool,
    /// Output file; `-` or none means stdout. An existing table is resumed.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Output format: csv, tsv or json [default: from FILE's extension, else csv].
    #[arg(short = 'f', long, value_name = "FORMAT", ignore_case = true)]
    format: Option<Format>,
    /// Replace FILE instead of resuming it; FILE changes only once the new table is complete.
    #[arg(long)]
    force: bool,
    /// Count every kept row again when resuming, whatever its size.
    #[arg(long)]
    verify: bool,
    /// (square boards, counting) An existing --trace FILE is replaced only with --force.
    #[command(flatten)]
    trace: TraceArgs,
    #[command(flatten)]
    threads: ThreadArgs,
}

/// Boards of at most this many squares are counted again when a file is resumed (n = 12 takes a
/// few milliseconds).
const RECOUNT_SQUARES: usize = 144;

/// A row of the counts table: n (square boards) or rows and cols, then the counts.
#[derive(Debug, Clone, PartialEq)]
struct CountRow {
    board: Board,
    solutions: u64,
    /// Up to symmetry; square boards only.
    unique: Option<u64>,
    seconds: f64,
    threads: usize,
}

/// Square tables (`n` and `unique`) or rectangular ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Square,
    Rectangle,
}

impl Shape {
    /// The columns; the first three are the contract.
    fn columns(self) -> [&'static str; 5] {
        match self {
            Shape::Square => ["n", "solutions", "unique", "seconds", "threads"],
            Shape::Rectangle => ["rows", "cols", "solutions", "seconds", "threads"],
        }
    }
}

impl CountRow {
    fn texts(&self, shape: Shape) -> [String; 5] {
        let seconds = format!("{:.6}", self.seconds);
        match shape {
            Shape::Square => [
                self.board.rows().to_string(),
                self.solutions.to_string(),
                self.unique.unwrap_or(0).to_string(),
                seconds,
                self.threads.to_string(),
            ],
            Shape::Rectangle => [
                self.board.rows().to_string(),
                self.board.cols().to_string(),
                self.solutions.to_string(),
                seconds,
                self.threads.to_string(),
            ],
        }
    }

    fn from_texts(shape: Shape, texts: &[String]) -> Result<CountRow, String> {
        if texts.len() != 5 {
            return Err(format!("expected 5 fields, found {}", texts.len()));
        }
        let names = shape.columns();
        let whole = |i: usize| -> Result<u64, String> {
            let t = &texts[i];
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "field '{}' is not a whole number: '{}'",
                    names[i],
                    visible(t)
                ));
            }
            t.parse()
                .map_err(|_| format!("field '{}' is too big: '{t}'", names[i]))
        };
        let seconds: f64 = texts[3]
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| {
                format!(
                    "field 'seconds' is not a number of seconds: '{}'",
                    visible(&texts[3])
                )
            })?;
        let side = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let (board, solutions, unique) = match shape {
            Shape::Square => {
                let n = side(whole(0)?);
                (Board::new(n, n), whole(1)?, Some(whole(2)?))
            }
            Shape::Rectangle => (
                Board::new(side(whole(0)?), side(whole(1)?)),
                whole(2)?,
                None,
            ),
        };
        Ok(CountRow {
            board: board.map_err(|e| e.to_string())?,
            solutions,
            unique,
            seconds,
            threads: side(whole(4)?),
        })
    }
}

/// The line formats nqueens writes: header (csv, tsv) and rows.
fn encode(format: Format, names: &[&str], texts: &[String]) -> Result<Vec<u8>, Failure> {
    Ok(match format {
        Format::Tsv => format!("{}\n", texts.join("\t")).into_bytes(),
        Format::Json => {
            let fields: Vec<String> = names
                .iter()
                .zip(texts)
                .map(|(n, t)| format!("\"{n}\":{t}"))
                .collect();
            format!("{{{}}}\n", fields.join(",")).into_bytes()
        }
        _ => {
            let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
            w.write_record(texts)?;
            w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?
        }
    })
}

fn header(format: Format, shape: Shape) -> Result<Vec<u8>, Failure> {
    if format == Format::Json {
        return Ok(Vec::new());
    }
    let names = shape.columns();
    let texts: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    encode(format, &names, &texts)
}

fn decode(format: Format, shape: Shape, line: &str) -> Result<Vec<String>, String> {
    match format {
        Format::Tsv => Ok(line.split('\t').map(str::to_string).collect()),
        Format::Json => {
            let object = json_members(line).map_err(|e| e.to_string())?;
            let names = shape.columns();
            if object.len() != names.len() {
                return Err(format!("expected the keys {}", names.join(", ")));
            }
            names
                .iter()
                .map(
                    |n| match object.iter().find(|(k, _)| k == n).map(|(_, v)| v) {
                        Some(serde_json::Value::Number(v)) => Ok(v.to_string()),
                        Some(other) => Err(format!("field `{n}` is {other}, expected a number")),
                        None => Err(format!("missing field `{n}`")),
                    },
                )
                .collect()
        }
        _ => {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(line.as_bytes());
            let mut record = csv::StringRecord::new();
            match reader.read_record(&mut record) {
                Ok(true) => Ok(record.iter().map(str::to_string).collect()),
                _ => Err("not a CSV row".into()),
            }
        }
    }
}

/// The rows an existing counts file holds, checked; see the command's help.
struct Existing {
    rows: Vec<(CountRow, Vec<u8>)>,
    keep_len: u64,
    has_header: bool,
    crlf: bool,
}

fn read_existing(
    contents: &[u8],
    format: Format,
    shape: Shape,
    wanted: &[Board],
) -> Result<Existing, String> {
    let whole_len = contents
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let bom = if contents.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let head = header(format, shape).map_err(|_| "cannot make the header".to_string())?;
    let mut start = bom;
    let mut crlf = false;
    if !head.is_empty() {
        if whole_len <= bom && head.starts_with(contents.get(bom..).unwrap_or(&[])) {
            return Ok(Existing {
                rows: Vec::new(),
                keep_len: 0,
                has_header: false,
                crlf,
            });
        }
        let first = contents
            .get(bom..)
            .unwrap_or(&[])
            .split(|&b| b == b'\n')
            .next()
            .unwrap_or(&[]);
        let (line, ending) = match first.strip_suffix(b"\r") {
            Some(l) => (l, true),
            None => (first, false),
        };
        if whole_len <= bom || head.strip_suffix(b"\n") != Some(line) {
            return Err(format!(
                "it is not a queendom nqueens {format} table: its first line is '{}', expected '{}'",
                shown_start(first),
                String::from_utf8_lossy(&head).trim_end()
            ));
        }
        crlf = ending;
        start = bom + first.len() + 1;
    }
    let wanted: HashSet<Board> = wanted.iter().copied().collect();
    let mut seen: HashMap<Board, usize> = HashMap::new();
    let mut rows = Vec::new();
    let first_line = if head.is_empty() { 1 } else { 2 };
    let mut lines = 0;
    for (i, raw) in contents
        .get(start..whole_len)
        .unwrap_or(&[])
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
    {
        let line = first_line + i;
        lines = i + 1;
        if raw.len() > MAX_LINE_BYTES {
            return Err(format!("line {line} is longer than any row of a table"));
        }
        let text =
            std::str::from_utf8(raw).map_err(|_| format!("line {line} is not UTF-8 text"))?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let row = decode(format, shape, text)
            .and_then(|t| CountRow::from_texts(shape, &t))
            .map_err(|e| format!("line {line} is not a {format} row: {e}"))?;
        if !wanted.contains(&row.board) {
            return Err(format!(
                "line {line} holds board {}, which is not requested",
                row.board
            ));
        }
        if let Some(first) = seen.insert(row.board, line) {
            return Err(format!(
                "line {line} repeats board {} of line {first}",
                row.board
            ));
        }
        rows.push((row, raw.to_vec()));
    }
    // What follows the last newline: a row cut short is dropped, anything else refused.
    let partial = match &contents[whole_len..] {
        rest if whole_len == 0 => rest.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(rest),
        rest => rest,
    };
    if !partial.is_empty() && !row_pattern(format, shape, &wanted).could_start(partial) {
        return Err(format!(
            "its last line, line {}, has no newline and is not the start of a row of this \
             table: '{}'",
            first_line + lines,
            shown_start(partial)
        ));
    }
    Ok(Existing {
        rows,
        keep_len: whole_len as u64,
        has_header: true,
        crlf,
    })
}

/// The lines `format` writes for rows of `shape` on one of `boards`.
fn row_pattern(format: Format, shape: Shape, boards: &HashSet<Board>) -> LinePattern {
    let sizes = |side: fn(Board) -> usize| {
        let mut texts: Vec<String> = boards.iter().map(|&b| side(b).to_string()).collect();
        texts.sort();
        texts.dedup();
        FieldSyntax::OneOf(texts)
    };
    let fields: Vec<PatternField> = shape
        .columns()
        .iter()
        .map(|&name| PatternField {
            name,
            syntax: match name {
                "n" | "rows" => sizes(Board::rows),
                "cols" => sizes(Board::cols),
                "seconds" => FieldSyntax::Seconds,
                _ => FieldSyntax::Whole,
            },
            text: false,
        })
        .collect();
    format
        .line_pattern(&fields)
        .expect("nqueens writes line formats only")
}

/// The count of one board: (solutions, unique for square boards).
fn count(
    board: Board,
    shape: Shape,
    parallel: bool,
    trace: Option<&Trace>,
) -> Result<(u64, Option<u64>), Failure> {
    Ok(match shape {
        Shape::Square => {
            let c = count_placements_traced(board.rows(), parallel, trace)
                .with_context(|| format!("n = {}", board.rows()))?;
            (c.solutions, Some(c.unique))
        }
        Shape::Rectangle => (count_rectangular(board, parallel), None),
    })
}

pub fn run(args: NQueensArgs) -> Result<(), Failure> {
    match (&args.sizes, &args.rows, &args.cols) {
        (Some(_), None, None) | (None, Some(_), Some(_)) => {}
        (Some(_), _, _) => {
            return Err(usage(
                "give either board sides n or --rows and --cols, not both",
            ))
        }
        (None, Some(_), None) => return Err(usage("--rows needs --cols")),
        (None, None, Some(_)) => return Err(usage("--cols needs --rows")),
        (None, None, None) => {
            return Err(usage(
                "give board sides n (e.g. 8 or 1-16), or --rows and --cols",
            ))
        }
    }
    let listing = args.list || args.board;
    if let Some(sizes) = &args.sizes {
        if listing {
            if let Some(&n) = sizes.sizes().iter().find(|&&n| n > MAX_LIST_N) {
                return Err(usage(format!(
                    "cannot list n = {n}: --list and --board accept n up to {MAX_LIST_N} (the \
                     output grows about sixfold per row); leave them out to count"
                )));
            }
        }
    }
    if args.trace.is_given() && (listing || args.sizes.is_none()) {
        return Err(usage(
            "--trace is for counts of square boards (SIZES, without --list or --board)",
        ));
    }
    let signals = ExitOnSignal::register()?;
    let target = Target::parse(args.output.as_deref());
    if target == Target::Stdout && args.trace.uses_stdout() {
        return Err(usage(
            "the counts and --trace - cannot both go to standard output: give -o FILE",
        ));
    }
    let trace_out = args.trace.claim(args.force)?;
    if let Some(trace) = &trace_out {
        signals.status().cleanup.extend(trace.lock_files());
    }
    let trace = trace_out.as_ref().map(|t| t.trace());
    let format = choose_format(args.format, &target, listing)?;
    let pool = args.threads.pool()?;
    let threads = args.threads.count();
    // One thread runs the sequential twin: no pieces handed around.
    let parallel = threads > 1;
    if let (Some(sizes), true) = (&args.sizes, listing) {
        return list_all(
            sizes, &target, args.force, parallel, args.board, &pool, &signals,
        );
    }
    let (shape, boards) = match (&args.sizes, &args.rows, &args.cols) {
        (Some(sizes), _, _) => (
            Shape::Square,
            sizes
                .sizes()
                .iter()
                .map(|&n| Board::new(n, n).expect("size lists hold valid sizes"))
                .collect::<Vec<_>>(),
        ),
        (None, Some(rows), Some(cols)) => (Shape::Rectangle, boards(rows, cols)),
        _ => unreachable!("the combinations were checked above"),
    };
    let head = header(format, shape)?;

    // Where the rows go: stdout, FILE itself (new or resumed), or the journal of a --force run.
    let mut kept: Vec<(CountRow, Vec<u8>)> = Vec::new();
    let mut crlf = false;
    let mut out: Option<OutFile> = None;
    let mut journal: Option<PathBuf> = None;
    let mut sink = match &target {
        Target::Stdout => {
            let mut sink = Sink::stdout()?;
            sink.write_now(&head)?;
            sink
        }
        Target::File(path) => {
            let file = OutFile::claim(path)?;
            let (source, contents) = if args.force {
                let j = file.sidecar("partial");
                let contents = if j.is_file() {
                    match read_start(&j, MAX_LINE_BYTES, max_lines(boards.len()))? {
                        (contents, true) => contents,
                        // More than a table of these boards holds: another table, which --force
                        // starts afresh.
                        _ => {
                            eprintln!(
                                "queendom: note: starting {} afresh: it holds another table",
                                j.display()
                            );
                            Vec::new()
                        }
                    }
                } else {
                    Vec::new()
                };
                journal = Some(j.clone());
                (j, contents)
            } else {
                let (contents, whole) = file.read_start(MAX_LINE_BYTES, max_lines(boards.len()))?;
                if !whole {
                    return Err(usage(format!(
                        "cannot resume {}: it has more lines than a table of {} boards; the \
                         file is left unchanged (--force starts it afresh)",
                        path.display(),
                        boards.len()
                    )));
                }
                (path.clone(), contents)
            };
            let existing = match read_existing(&contents, format, shape, &boards) {
                Ok(e) => e,
                Err(e) if args.force => {
                    eprintln!(
                        "queendom: note: starting {} afresh: it holds another table ({e})",
                        source.display()
                    );
                    read_existing(&[], format, shape, &boards).map_err(usage)?
                }
                Err(e) => {
                    return Err(usage(format!(
                    "cannot resume {}: {e}; the file is left unchanged (--force starts it afresh)",
                    source.display()
                )))
                }
            };
            // Kept counts of small boards (all with --verify) are counted again.
            let mut recounted = 0;
            for (row, _) in &existing.rows {
                if args.verify || row.board.squares() <= RECOUNT_SQUARES {
                    let (solutions, unique) =
                        pool.install(|| count(row.board, shape, parallel, trace.as_deref()))?;
                    if (solutions, unique) != (row.solutions, row.unique) {
                        return Err(usage(format!(
                            "cannot resume {}: the row of {} says {} solutions{}, but there are \
                             {solutions}{}; the file is left unchanged",
                            source.display(),
                            row.board,
                            row.solutions,
                            row.unique
                                .map_or(String::new(), |u| format!(" ({u} unique)")),
                            unique.map_or(String::new(), |u| format!(" ({u} unique)")),
                        )));
                    }
                    recounted += 1;
                }
            }
            if !existing.rows.is_empty() {
                eprintln!(
                    "queendom: resuming {}: {} of {} boards already done{}",
                    source.display(),
                    existing.rows.len(),
                    boards.len(),
                    if recounted > 0 {
                        format!(", {recounted} counted again")
                    } else {
                        String::new()
                    }
                );
            }
            crlf = existing.crlf;
            let handle = if args.force {
                let j = journal.as_ref().expect("set above");
                let f = if existing.rows.is_empty() && !existing.has_header {
                    File::create(j)
                } else {
                    OpenOptions::new().append(true).open(j)
                }
                .map_err(|e| cannot_write(j, e))?;
                f.set_len(existing.keep_len)
                    .map_err(|e| cannot_write(j, e))?;
                f
            } else if file.exists() {
                file.append(existing.keep_len)?
            } else {
                file.create()?
            };
            let mut sink = Sink::file(handle);
            if !existing.has_header {
                sink.write_now(&head)?;
            }
            kept = existing.rows;
            out = Some(file);
            sink
        }
    };
    let ending = |mut bytes: Vec<u8>| {
        if crlf && bytes.last() == Some(&b'\n') {
            bytes.pop();
            bytes.extend(b"\r\n");
        }
        bytes
    };

    let total = boards.len();
    let resume_hint = match (&out, &journal) {
        (None, _) => String::new(),
        (Some(_), None) => "; run the same command again to resume".into(),
        (Some(file), Some(j)) => format!(
            "; {} is unchanged, the finished rows are in {}: run the same command again to resume",
            file.shown().display(),
            j.display()
        ),
    };
    {
        let mut status = signals.status();
        status.message = format!(
            "interrupted after {} of {total} boards{resume_hint}",
            kept.len()
        );
        if let Some(file) = &out {
            status.cleanup.extend(file.lock_files());
        }
    }
    let kept_boards: HashSet<Board> = kept.iter().map(|(r, _)| r.board).collect();
    let bar = progress::bar(total as u64, "boards");
    bar.set_position(kept.len() as u64);
    // A board and its transpose have the same count: the second is not searched again and shows
    // 0 seconds.
    let mut done: HashMap<Board, (u64, Option<u64>)> = HashMap::new();
    let mut written: Vec<(Board, Vec<u8>)> = Vec::new();
    for &board in boards.iter().filter(|b| !kept_boards.contains(b)) {
        bar.set_message(format!("counting {board}"));
        let start = Instant::now();
        let key = if board.rows() <= board.cols() {
            board
        } else {
            board.transposed()
        };
        let ((solutions, unique), seconds) = match done.get(&key) {
            Some(&c) => (c, 0.0),
            None => {
                let c = pool.install(|| count(key, shape, parallel, trace.as_deref()))?;
                done.insert(key, c);
                (c, start.elapsed().as_secs_f64())
            }
        };
        let row = CountRow {
            board,
            solutions,
            unique,
            seconds,
            threads,
        };
        let bytes = ending(encode(format, &shape.columns(), &row.texts(shape))?);
        let mut status = signals.status();
        sink.write_now(&bytes)?;
        written.push((board, bytes));
        status.message = format!(
            "interrupted after {} of {total} boards{resume_hint}",
            kept.len() + written.len()
        );
        drop(status);
        bar.inc(1);
    }
    bar.finish_and_clear();
    drop(sink);
    if let Some(trace) = &trace_out {
        // Under the status lock: a signal now must not cut the rename.
        let _status = signals.status();
        trace.write()?;
    }

    let Some(file) = out else {
        return Ok(());
    };
    let in_file: Vec<Board> = kept
        .iter()
        .map(|(r, _)| r.board)
        .chain(written.iter().map(|w| w.0))
        .collect();
    // Holding the status lock: a signal now must not cut the rename.
    let _status = signals.status();
    if in_file != boards || journal.is_some() {
        let mut lines: HashMap<Board, Vec<u8>> = kept
            .into_iter()
            .map(|(r, bytes)| (r.board, bytes))
            .collect();
        lines.extend(written);
        let mut bytes = ending(head);
        for b in &boards {
            bytes.extend(&lines[b]);
        }
        file.write_whole(&bytes)?;
    }
    if let Some(j) = journal {
        fs::remove_file(&j).map_err(|e| cannot_write(&j, e))?;
    }
    Ok(())
}

/// `--format`, else FILE's extension, else csv; nqueens writes the line formats only.
fn choose_format(arg: Option<Format>, target: &Target, listing: bool) -> Result<Format, Failure> {
    let format = match (arg, target) {
        (Some(f), _) => f,
        (None, Target::File(path)) if !listing => match path.extension() {
            None => Format::Csv,
            Some(ext) => Format::from_extension(&ext.to_string_lossy()).ok_or_else(|| {
                usage(format!(
                    "cannot tell the format of {} from its extension '.{}': use --format csv, \
                     tsv or json",
                    path.display(),
                    visible(&ext.to_string_lossy())
                ))
            })?,
        },
        _ => Format::Csv,
    };
    if listing && arg.is_some() {
        return Err(usage(
            "--list and --board print placements: --format does not apply",
        ));
    }
    if !format.is_line_format() {
        return Err(usage(format!(
            "nqueens writes csv, tsv or json, not {format}"
        )));
    }
    Ok(format)
}

/// Every placement of each n, to stdout or to FILE (written whole at the end).
fn list_all(
    sizes: &SizeList,
    target: &Target,
    force: bool,
    parallel: bool,
    diagrams: bool,
    pool: &rayon::ThreadPool,
    signals: &ExitOnSignal,
) -> Result<(), Failure> {
    signals.status().message = "interrupted while listing placements".into();
    match target {
        Target::Stdout => {
            super::output::check_stdout()?;
            let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
            for &n in sizes.sizes() {
                pool.install(|| list(n, parallel, diagrams, &mut out))?;
            }
            out.flush()?;
            Ok(())
        }
        Target::File(path) => {
            let file = OutFile::claim(path)?;
            if file.exists() && !force {
                return Err(usage(format!(
                    "{} already exists; use --force to replace it once the new listing is complete",
                    path.display()
                )));
            }
            {
                let mut status = signals.status();
                status.message = format!(
                    "interrupted while listing placements; {} was not written",
                    path.display()
                );
                status.cleanup.extend(file.lock_files());
            }
            let mut replacement = file.replacement()?;
            signals
                .status()
                .cleanup
                .push(replacement.path().to_path_buf());
            {
                let mut out = BufWriter::with_capacity(1 << 16, replacement.file());
                for &n in sizes.sizes() {
                    pool.install(|| list(n, parallel, diagrams, &mut out))?;
                }
                out.flush()?;
            }
            let _status = signals.status();
            replacement.commit()
        }
    }
}

/// Print every placement of n queens, then the count.
fn list(n: usize, parallel: bool, diagrams: bool, out: &mut impl Write) -> Result<(), Failure> {
    let board = Board::new(n, n).map_err(usage)?;
    let mut line = String::with_capacity(3 * n + 1);
    let count = list_placements(n, parallel, |placement| -> Result<(), Failure> {
        line.clear();
        if diagrams {
            let queens = placement
                .iter()
                .enumerate()
                .map(|(row, &col)| Square::new(row, usize::from(col)))
                .collect();
            line.push_str(&Layout::new(board, queens).diagram());
            line.push('\n');
        } else {
            for (i, &col) in placement.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                line.push_str(decimal(usize::from(col) + 1));
            }
            line.push('\n');
        }
        out.write_all(line.as_bytes())?;
        Ok(())
    })?;
    writeln!(out, "{count} placements on {board}")?;
    Ok(())
}

/// The decimal form of a column number (at most 32), without formatting machinery per queen.
fn decimal(k: usize) -> &'static str {
    const NUMBERS: [&str; 33] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
        "32",
    ];
    NUMBERS[k]
}
