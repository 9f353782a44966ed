//! `queendom table --rows A-B --cols C-D [-o FILE] [--format F]`: one row per board, written as each
//! finishes. An existing table file is checked and completed; Ctrl-C or SIGTERM stops cleanly.
//!
//! Everything that can be refused is refused before a file is created or changed: the format, the
//! directory, and an existing file's contents.

use std::collections::{HashMap, HashSet};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use queendom::export::Format;
use queendom::search::{Problem, SearchError, SearchOptions};
use queendom::table::resume::{read_existing, KeptRow};
use queendom::table::{boards, SizeList, TableRunner};
use queendom::Board;
use tempfile::NamedTempFile;

use super::output::{Sink, Target};
use super::plan::{solve_checkpointed, CheckpointError};
use super::signals::Interrupt;
use super::{progress, usage, Failure, ThreadArgs};

const TABLE_HELP: &str = "\
Formats (--format, or from FILE's extension; stdout and files without an extension get csv,
  other extensions are refused):
  csv       .csv                    header rows,cols,queens,layout,problem,nodes,seconds,threads
  tsv       .tsv                    the same columns separated by tabs
  json      .json .jsonl .ndjson    JSON Lines: one object per board, keys as the CSV columns
  markdown  .md .markdown           a Markdown table with the same columns
  grid      (none: use --format)    a CSV matrix, one line per row count and one column per
                                    column count, the number of queens in each cell; the corner
                                    cell names the problem; printed once the table is complete
  layout lists the queens as 1-based row:col squares separated by single spaces. nodes and
  seconds measure the search (a board whose transpose was already done shows 0 and 0), threads
  is -j: these three say how a row was obtained and may differ between runs. Rows come in the
  order of --rows, then --cols, each written whole and flushed as soon as its board is done.

Resume (csv, tsv, json files): if FILE exists, it must be a table of this format and problem
  (-i or not) whose rows are all boards of this table, each at most once, in any order. Every
  kept layout is re-checked with the independent checker, kept rows stay as they are, and only
  the missing boards are computed and appended. If the rows then are not in the table's order
  (e.g. the ranges grew), the finished file is rewritten in order, atomically. A half-written
  last line, as a killed run may leave, is dropped and its board computed again. Any other file
  is refused and left unchanged; --force starts it afresh. Markdown and grid files are written
  whole when the table is complete (an existing one is replaced only with --force, and only
  then) and are never resumed. Output to stdout is never resumed.

Interruption: Ctrl-C (SIGINT) or SIGTERM stops the run: every finished board is on disk, the
  board in progress is dropped, one line says how many boards are done, and the exit code is
  130 (SIGINT) or 143 (SIGTERM). A second signal ends the process at once. Rows are written
  whole, so even `kill -9` leaves a file that resume accepts.

Exit codes: 0 done (also when the reader of stdout goes away, as with `| head`); 1 failure;
  2 bad command line, unusable output path, or an existing FILE that cannot be resumed (nothing
  is created or changed); 130/143 interrupted.";

#[derive(clap::Args, Debug)]
#[command(after_long_help = TABLE_HELP)]
pub struct TableArgs {
    /// Row counts: a number, a range A-B, or a comma list such as 4,6,9-11.
    // A negative number reaches the size parser, which names the problem, instead of reading as a
    // flag; a forgotten value (`--rows --cols 3`) is still reported as missing.
    #[arg(long, value_name = "SIZES", allow_negative_numbers = true)]
    rows: SizeList,
    /// Column counts, in the same form as --rows.
    #[arg(long, value_name = "SIZES", allow_negative_numbers = true)]
    cols: SizeList,
    /// Independent domination i instead of domination γ.
    #[arg(short = 'i', long)]
    independent: bool,
    /// Output file; `-` or none means stdout. An existing csv/tsv/json table is resumed.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
    /// Output format [default: from FILE's extension, else csv].
    #[arg(short = 'f', long, value_name = "FORMAT", value_parser = parse_format)]
    format: Option<Format>,
    /// Start FILE afresh instead of resuming it (or replace a markdown/grid file).
    #[arg(long)]
    force: bool,
    /// Keep every finished part of each board's search in DIR/BOARD-PROBLEM/ (see `queendom
    /// solve --checkpoint`): an interrupted board resumes there instead of starting afresh.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn parse_format(text: &str) -> Result<Format, String> {
    match text.to_ascii_lowercase().as_str() {
        "csv" => Ok(Format::Csv),
        "tsv" => Ok(Format::Tsv),
        "json" | "jsonl" => Ok(Format::Json),
        "markdown" | "md" => Ok(Format::Markdown),
        "grid" => Ok(Format::Grid),
        _ => {
            Err("unknown format: expected csv, tsv, json (or jsonl), markdown (or md), grid".into())
        }
    }
}

pub fn run(args: TableArgs) -> Result<(), Failure> {
    let problem = if args.independent {
        Problem::IndependentDomination
    } else {
        Problem::Domination
    };
    // From here on a signal only raises the flag, so no moment of the run can be cut short
    // uncontrolled.
    let interrupt = Interrupt::register()?;
    let target = Target::parse(args.output.as_deref());
    let format = choose_format(args.format, &target)?;
    let boards = boards(&args.rows, &args.cols);
    let mut export = format.exporter(problem, args.rows.sizes(), args.cols.sizes());
    let header = export.header()?;
    let Opened {
        mut sink,
        kept,
        needs_header,
        finish,
    } = open(&target, format, &header, problem, &boards, args.force)?;
    if needs_header {
        sink.write_now(&header)?;
    }

    let pool = args.threads.pool()?;
    let bar = progress::bar(boards.len() as u64, "boards");
    bar.set_position(kept.len() as u64);
    let options = SearchOptions {
        cancel: Some(interrupt.flag()),
        progress: Some(progress::parts(&bar)),
        ..SearchOptions::parallel()
    };
    let mut runner = TableRunner::new(problem, options.clone(), args.threads.count());
    for row in &kept {
        runner.remember(&row.layout);
    }
    let kept_boards: HashSet<Board> = kept.iter().map(|r| r.board).collect();
    let mut written: Vec<(Board, Vec<u8>)> = Vec::new();
    for &board in boards.iter().filter(|b| !kept_boards.contains(b)) {
        if interrupt.is_set() {
            break;
        }
        bar.set_message(format!("searching {board}"));
        bar.set_prefix("");
        let row = match &args.checkpoint {
            None => match pool.install(|| runner.compute(board)) {
                Ok(row) => row,
                // The board in progress is dropped: nothing of it was written.
                Err(SearchError::Cancelled) => break,
                Err(e) => {
                    return Err(Failure::Error(
                        anyhow::Error::new(e).context(format!("board {board}")),
                    ))
                }
            },
            Some(dir) => {
                let threads = args.threads.count();
                let plain = SearchOptions {
                    progress: None,
                    ..options.clone()
                };
                let on_part = |done: usize, total: usize| {
                    bar.set_prefix(format!(", part {done}/{total}"));
                };
                let outcome = pool.install(|| {
                    runner.compute_with(board, |searched| {
                        solve_checkpointed(searched, problem, dir, 64, &plain, threads, &on_part)
                    })
                });
                match outcome {
                    Ok(row) => row,
                    Err(CheckpointError::Cancelled(..)) => break,
                    Err(CheckpointError::Usage(f) | CheckpointError::Other(f)) => return Err(f),
                }
            }
        };
        let bytes = export.row(&row)?;
        sink.write_now(&bytes)?;
        written.push((board, bytes));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let done = kept.len() + written.len();
    if done < boards.len() {
        let total = boards.len();
        let hint = match &finish {
            Finish::Stdout => String::new(),
            Finish::Append { .. } => "; run the same command again to resume".to_string(),
            Finish::Persist { path, .. } => format!(
                "; {} was not written ({format} tables are written whole when complete; \
                 csv, tsv and json files can be resumed)",
                path.display()
            ),
        };
        eprintln!("queendom: interrupted after {done} of {total} boards{hint}");
        return Err(Failure::Interrupted(interrupt.exit_code()));
    }
    sink.write_now(&export.footer()?)?;
    drop(sink);
    finish.complete(&header, &boards, kept, written)
}

/// `--format`, else the output file's extension, else csv.
pub fn choose_format(arg: Option<Format>, target: &Target) -> Result<Format, Failure> {
    if let Some(f) = arg {
        return Ok(f);
    }
    let Target::File(path) = target else {
        return Ok(Format::Csv);
    };
    let Some(ext) = path.extension() else {
        return Ok(Format::Csv);
    };
    let ext = ext.to_string_lossy();
    Format::from_extension(&ext).ok_or_else(|| {
        usage(format!(
            "cannot tell the format of {} from its extension '.{ext}': \
             use --format csv, tsv, json, markdown or grid",
            path.display()
        ))
    })
}

/// Where the rows go, and what is already there.
struct Opened {
    sink: Sink,
    /// Rows kept from an existing file, in file order.
    kept: Vec<KeptRow>,
    needs_header: bool,
    finish: Finish,
}

/// What is left to do once every row is written.
enum Finish {
    Stdout,
    /// A line-format file: the kept rows first, then the rows of this run as they finished.
    Append {
        path: PathBuf,
    },
    /// A whole-table file built in a temporary file beside it, renamed over it at the end.
    Persist {
        temp: NamedTempFile,
        path: PathBuf,
        replace: bool,
    },
}

fn open(
    target: &Target,
    format: Format,
    header: &[u8],
    problem: Problem,
    boards: &[Board],
    force: bool,
) -> Result<Opened, Failure> {
    let path = match target {
        Target::Stdout => {
            return Ok(Opened {
                sink: Sink::stdout(),
                kept: Vec::new(),
                needs_header: true,
                finish: Finish::Stdout,
            })
        }
        Target::File(path) => path.clone(),
    };
    let dir = parent_dir(&path)?;
    let exists = match fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => {
            return Err(usage(format!("{} is a directory", path.display())))
        }
        Ok(_) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(cannot_write(&path, e)),
    };
    let cannot = |e| cannot_write(&path, e);

    if !format.is_line_format() {
        if exists && !force {
            return Err(usage(format!(
                "{} already exists, and {format} tables cannot be resumed: \
                 use --force to replace it once the new table is complete",
                path.display()
            )));
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".partial")
            // As for any new file: the umask decides (tempfile's default is owner-only).
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(&dir)
            .map_err(|e| cannot(os_error(e)))?;
        let file = temp.as_file().try_clone().map_err(cannot)?;
        return Ok(Opened {
            sink: Sink::file(file),
            kept: Vec::new(),
            needs_header: true,
            finish: Finish::Persist {
                temp,
                path,
                replace: exists,
            },
        });
    }

    if !exists || force {
        let mut options = OpenOptions::new();
        options.write(true);
        if exists {
            options.truncate(true);
        } else {
            // Never clobber a file that appeared since the check above.
            options.create_new(true);
        }
        let file = options.open(&path).map_err(cannot)?;
        return Ok(Opened {
            sink: Sink::file(file),
            kept: Vec::new(),
            needs_header: true,
            finish: Finish::Append { path },
        });
    }

    let contents =
        fs::read(&path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    let table = read_existing(&contents, format, header, problem, boards).map_err(|e| {
        usage(format!(
            "cannot resume {}: {e}; the file is left unchanged (--force starts it afresh)",
            path.display()
        ))
    })?;
    let file = OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(cannot)?;
    if table.has_partial_line(contents.len() as u64) {
        file.set_len(table.keep_len).map_err(cannot)?;
        if table.has_header {
            eprintln!(
                "queendom: {}: dropped a half-written last line; its board is computed again",
                path.display()
            );
        }
    }
    if !table.rows.is_empty() {
        eprintln!(
            "queendom: resuming {}: {} of {} boards already done",
            path.display(),
            table.rows.len(),
            boards.len()
        );
    }
    Ok(Opened {
        sink: Sink::file(file),
        kept: table.rows,
        needs_header: !table.has_header,
        finish: Finish::Append { path },
    })
}

/// The directory a new file would be created in; refused unless it exists.
fn parent_dir(path: &Path) -> Result<PathBuf, Failure> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => Ok(dir),
        Ok(_) => Err(usage(format!(
            "cannot write {}: {} is not a directory",
            path.display(),
            dir.display()
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(usage(format!(
            "cannot write {}: directory {} does not exist",
            path.display(),
            dir.display()
        ))),
        Err(e) => Err(cannot_write(path, e)),
    }
}

/// tempfile's error without the random name of the temporary file it tried, which would only
/// confuse: the user named the table file.
fn os_error(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((reason, _)) => io::Error::new(e.kind(), reason.to_string()),
        None => e,
    }
}

fn cannot_write(path: &Path, e: io::Error) -> Failure {
    usage(format!("cannot write {}: {e}", path.display()))
}

impl Finish {
    fn complete(
        self,
        header: &[u8],
        boards: &[Board],
        kept: Vec<KeptRow>,
        written: Vec<(Board, Vec<u8>)>,
    ) -> Result<(), Failure> {
        match self {
            Finish::Stdout => Ok(()),
            Finish::Append { path } => {
                let in_file: Vec<Board> = kept
                    .iter()
                    .map(|r| r.board)
                    .chain(written.iter().map(|w| w.0))
                    .collect();
                if in_file == boards {
                    return Ok(());
                }
                // Kept rows were not the start of this table: put every row in its place, so the
                // file reads as an uninterrupted run would have written it.
                let mut lines: HashMap<Board, Vec<u8>> =
                    kept.into_iter().map(|r| (r.board, r.bytes)).collect();
                lines.extend(written);
                let mut bytes = header.to_vec();
                for b in boards {
                    bytes.extend(&lines[b]);
                }
                replace_whole(&path, &bytes).with_context(|| {
                    format!("cannot put the rows of {} in order", path.display())
                })?;
                Ok(())
            }
            Finish::Persist {
                temp,
                path,
                replace,
            } => {
                temp.as_file().sync_all()?;
                let persisted = if replace {
                    temp.persist(&path)
                } else {
                    temp.persist_noclobber(&path)
                };
                if let Err(e) = persisted {
                    // Hours of work must not vanish with the temporary file: keep it and say where.
                    let kept = e.file.into_temp_path().keep();
                    let at = kept.map_or_else(|_| "lost".to_string(), |p| p.display().to_string());
                    return Err(Failure::Error(anyhow::anyhow!(
                        "cannot write {}: {}; the table is in {at}",
                        path.display(),
                        e.error
                    )));
                }
                Ok(())
            }
        }
    }
}

/// Replace `path` by `bytes` at once: write a temporary file beside it, then rename it over.
fn replace_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut temp = NamedTempFile::new_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    let permissions = fs::metadata(path)?.permissions();
    fs::set_permissions(temp.path(), permissions)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
