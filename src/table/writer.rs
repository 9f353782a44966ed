//! The one table writer: every table queendom writes (γ and i, with counts or not, and N-queens
//! counts) goes through [`Output`], whatever its format and wherever it goes.
//!
//! Where rows go while the table is computed:
//! - standard output: in the table's order, each once every row before it is done (the reorder
//!   buffer; whole-table formats: all at the end);
//! - a csv/tsv/json FILE without `--force`: appended to FILE as they finish, in any order (FILE is
//!   resumed; once complete, it is rewritten in the table's order if the rows are not in it,
//!   keeping its byte order mark and header as they were);
//! - otherwise (`--force`, or a whole-table format): a journal `.FILE.partial` beside FILE, in a
//!   line format, resumed by the next run of the same command; once the table is complete, FILE is
//!   written whole from the rows, renamed into place, and the journal removed. So `--force` never
//!   touches FILE before the new table is complete, and an interrupted run loses no finished row.
//!
//! An existing file or journal is read back through [`resume::read_table`] (header, byte order
//! mark, CRLF, digests, the checks of the rows' [`Schema`]); the FILE is claimed, and so locked,
//! through the output policy ([`crate::destination`]) before anything is read. The writer prints
//! nothing: what a command might tell the user is in [`Output::take_notes`].

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::resume::{
    self, max_lines, visible, ExistingTable, KeptRow, LineEnding, ResumeError, Schema,
    MAX_LINE_BYTES,
};
use crate::board::Board;
use crate::destination::file::{cannot_write, read_regular, read_start, write_whole};
use crate::destination::{check_stdout, write_error_text, OutFile, OutputError, Sink, Target};
use crate::error::{ErrorKind, Kind};
use crate::export::{Export, ExportError, Format, Subject};
use crate::fault;
use crate::row::{Row, RowKind};

/// Why a table cannot be written.
#[derive(Debug, Error)]
pub enum TableError {
    /// The output path or file (the policy's refusals, exit 2; write failures, exit 1).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// An existing file or journal that cannot be resumed, a format that does not fit, a file
    /// that may not be replaced: nothing was changed (exit 2).
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Export(#[from] ExportError),
    /// Writing a row failed (a closed pipe on standard output among others).
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl TableError {
    /// Whether the reader of standard output went away (as `head` does): not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        let io = match self {
            TableError::Io(e) => e,
            TableError::Export(ExportError::Io(e)) => e,
            _ => return false,
        };
        io.kind() == io::ErrorKind::BrokenPipe
    }
}

fn refused(msg: impl std::fmt::Display) -> TableError {
    TableError::Refused(msg.to_string())
}

/// `format` if given, else the one `target`'s extension stands for, else csv. A binary format is
/// refused on a terminal.
pub fn choose_format(format: Option<Format>, target: &Target) -> Result<Format, TableError> {
    let format = match (format, target) {
        (Some(f), _) => f,
        (None, Target::Stdout) => Format::Csv,
        (None, Target::File(path)) => match path.extension() {
            None => Format::Csv,
            Some(ext) => {
                let ext = ext.to_string_lossy();
                Format::from_extension(&ext).ok_or_else(|| {
                    refused(format!(
                        "cannot tell the format of {} from its extension '.{}': use --format \
                         csv, tsv, json, markdown, grid, bfile or xlsx",
                        path.display(),
                        visible(&ext)
                    ))
                })?
            }
        },
    };
    if !format.is_text() && *target == Target::Stdout && io::stdout().is_terminal() {
        return Err(refused(format!(
            "{format} is a binary format: write it to a file with -o FILE.{format}"
        )));
    }
    Ok(format)
}

/// A whole table's bytes from its rows in the table's order: header, rows, footer. How a
/// whole-table format is written once complete, and how `merge` writes a table plan's answer.
pub fn whole_table<'a, R: Row + 'a>(
    spec: &TableSpec,
    kind: RowKind,
    rows: impl IntoIterator<Item = &'a R>,
) -> Result<Vec<u8>, TableError> {
    let mut export = spec
        .format
        .exporter(kind, spec.subject, &spec.rows, &spec.cols);
    let mut bytes = export.header()?;
    for row in rows {
        bytes.extend(export.row(row)?);
    }
    bytes.extend(export.footer()?);
    Ok(bytes)
}

/// The table to write: its format, what it is about, its boards in the table's order, and its
/// axes (for the grid).
#[derive(Debug, Clone)]
pub struct TableSpec {
    pub format: Format,
    pub subject: Subject,
    pub boards: Vec<Board>,
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
}

/// Where the rows go.
enum Dest {
    Stdout,
    /// A csv/tsv/json FILE, resumed and appended to in place.
    Direct(OutFile),
    /// FILE is written whole at the end; the rows go to `journal` (in `journal_format`) till then.
    Journal {
        out: OutFile,
        journal: PathBuf,
        journal_format: Format,
        /// Whether the journal exists and was resumed.
        resumed: bool,
    },
}

/// The reorder buffer for standard output.
struct InOrder<R> {
    /// The boards to write, in the table's order, and how many are written.
    boards: Vec<Board>,
    next: usize,
    /// Finished rows waiting for a board before them.
    held: HashMap<Board, R>,
}

/// A table being written: what was kept of an earlier run, where new rows go, and how the file
/// is finished. See the module doc.
pub struct Output<S: Schema> {
    schema: S,
    spec: TableSpec,
    dest: Dest,
    /// Rows kept from an existing file or journal, in file order.
    kept: Vec<KeptRow<S::Row>>,
    /// The file the kept rows came from did not have the whole header yet.
    needs_header: bool,
    /// Kept rows lack digests (older version, adopted with --verify): rewrite them first.
    legacy: bool,
    /// The kept rows are an exact table's, taken over by a table with bounds (rewritten first,
    /// as `legacy` rows are).
    adopted: bool,
    /// The kept file holds rows replaced by later ones (an interrupted run of a table with
    /// bounds): rewrite it with the kept rows only first, so that it never grows run after run.
    compact: bool,
    /// Bytes of the kept file to keep (a half-written last line lies beyond).
    keep_len: u64,
    /// The kept file's bytes before its first row (a byte order mark, the header) as they are, for
    /// a rewrite in the table's order; `None`: a header written by this run.
    head: Option<Vec<u8>>,
    line_ending: LineEnding,
    notes: Vec<String>,
    sink: Option<Sink>,
    export: Option<Box<dyn Export>>,
    /// Every row finished in this run with its bytes, in the order finished.
    finished: Vec<(S::Row, Vec<u8>)>,
    in_order: Option<InOrder<S::Row>>,
}

impl<S: Schema> Output<S> {
    /// Claim `target` and read what is there: a FILE of a line format is resumed (without
    /// `force`), a journal of an earlier `--force` or whole-table run is resumed; anything that
    /// cannot be resumed is refused and left unchanged. `verify` lets rows without digests (files
    /// of older versions) in: the caller checks every kept row again.
    pub fn open(
        target: &Target,
        spec: TableSpec,
        schema: S,
        force: bool,
        verify: bool,
    ) -> Result<Output<S>, TableError> {
        let mut notes = Vec::new();
        let path = match target {
            Target::Stdout => {
                check_stdout()?;
                return Ok(Output::fresh(schema, spec, Dest::Stdout, notes));
            }
            Target::File(path) => path,
        };
        let out = OutFile::claim(path)?;
        let journal = out.sidecar("partial");
        let format = spec.format;
        let boards = spec.boards.len();
        if format.is_line_format() && !force {
            if journal.exists() {
                notes.push(format!(
                    "note: {} holds the rows of an interrupted --force run; run with --force to \
                     resume that one",
                    journal.display()
                ));
            }
            if !out.exists() {
                return Ok(Output::fresh(schema, spec, Dest::Direct(out), notes));
            }
            let shown = out.shown().display().to_string();
            let (contents, whole) = out.read_start(MAX_LINE_BYTES, max_lines(boards))?;
            let existing = resume::read_table(&contents, format, &schema, &spec.boards, verify)
                .map_err(|e| refusal(&shown, e))?;
            if !whole {
                return Err(too_long(&shown, boards));
            }
            if existing.has_partial_line(contents.len() as u64) && existing.has_header {
                notes.push(format!(
                    "{shown}: dropped a half-written last line; its board is computed again"
                ));
            }
            return Ok(Output::resumed(
                schema,
                spec,
                Dest::Direct(out),
                existing,
                &contents,
                notes,
            ));
        }

        if out.exists() && !force && !journal_was_finished(&out, &journal, &spec, &schema) {
            return Err(refused(format!(
                "{} already exists, and {format} tables cannot be resumed: use --force to replace \
                 it once the new table is complete",
                out.shown().display(),
            )));
        }
        let journal_format = if format.is_line_format() {
            format
        } else {
            Format::Csv
        };
        let dest = |resumed| Dest::Journal {
            out,
            journal: journal.clone(),
            journal_format,
            resumed,
        };
        if !journal.exists() {
            return Ok(Output::fresh(schema, spec, dest(false), notes));
        }
        let shown = journal.display().to_string();
        let (contents, whole) = read_journal(&journal, boards)?;
        let existing = resume::read_table(&contents, journal_format, &schema, &spec.boards, verify)
            .map_err(|e| e.to_string())
            .and_then(|existing| whole.then_some(existing).ok_or_else(|| more_lines(boards)));
        match existing {
            Ok(existing) => Ok(Output::resumed(
                schema,
                spec,
                dest(true),
                existing,
                &contents,
                notes,
            )),
            Err(e) if force => {
                notes.push(format!(
                    "note: starting {shown} afresh: it holds another table ({e})"
                ));
                Ok(Output::fresh(schema, spec, dest(false), notes))
            }
            Err(e) => Err(refused(format!(
                "cannot resume {shown}, the unfinished rows of an earlier run: {e}; it is left \
                 unchanged (--force starts it afresh)"
            ))),
        }
    }

    fn fresh(schema: S, spec: TableSpec, dest: Dest, notes: Vec<String>) -> Output<S> {
        Output {
            schema,
            spec,
            dest,
            kept: Vec::new(),
            needs_header: true,
            legacy: false,
            adopted: false,
            compact: false,
            keep_len: 0,
            head: None,
            line_ending: LineEnding::Lf,
            notes,
            sink: None,
            export: None,
            finished: Vec::new(),
            in_order: None,
        }
    }

    fn resumed(
        schema: S,
        spec: TableSpec,
        dest: Dest,
        existing: ExistingTable<S::Row>,
        contents: &[u8],
        notes: Vec<String>,
    ) -> Output<S> {
        // Every line after the header is a kept row: what is left of the kept bytes is the head.
        let rows_len: u64 = existing
            .rows
            .iter()
            .map(|r| r.bytes.len() as u64)
            .sum::<u64>()
            + existing.superseded_bytes;
        let head = (existing.has_header && !existing.legacy && !existing.adopted)
            .then(|| existing.keep_len.checked_sub(rows_len))
            .flatten()
            .and_then(|len| contents.get(..len as usize))
            .map(<[u8]>::to_vec);
        Output {
            kept: existing.rows,
            needs_header: !existing.has_header,
            legacy: existing.legacy || existing.adopted,
            adopted: existing.adopted,
            compact: existing.superseded_bytes > 0,
            keep_len: existing.keep_len,
            head,
            line_ending: existing.line_ending,
            ..Output::fresh(schema, spec, dest, notes)
        }
    }

    /// What the user might be told so far (notes about journals, dropped half-written lines, an
    /// adopted older file), each once.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The rows kept from an earlier run, in file order.
    pub fn kept(&self) -> &[KeptRow<S::Row>] {
        &self.kept
    }

    /// The rows kept from an earlier run that are final: the boards this run does not compute.
    /// (A kept row of bounds that do not meet is computed again, from those bounds.)
    pub fn kept_final(&self) -> usize {
        self.kept.iter().filter(|r| r.row.is_final()).count()
    }

    /// The boards still to compute, in the table's order: those without a row, and those whose
    /// kept row is not final.
    pub fn to_do(&self) -> Vec<Board> {
        let kept: std::collections::HashSet<Board> = self
            .kept
            .iter()
            .filter(|r| r.row.is_final())
            .map(|r| r.board())
            .collect();
        self.spec
            .boards
            .iter()
            .copied()
            .filter(|b| !kept.contains(b))
            .collect()
    }

    /// The file the kept rows come from, for messages.
    pub fn source(&self) -> String {
        match &self.dest {
            Dest::Stdout => "standard output".into(),
            Dest::Direct(out) => out.shown().display().to_string(),
            Dest::Journal { journal, .. } => journal.display().to_string(),
        }
    }

    /// The refusal of the kept rows for `e` (found when checking them again), naming the file.
    pub fn refuse(&self, e: ResumeError) -> TableError {
        refusal(&self.source(), e)
    }

    /// "resuming FILE: 3 of 12 boards already done, 3 re-proved" (`checked` rows were checked
    /// again; `how` says how).
    pub fn resuming(&self, checked: usize, how: &str) -> String {
        let checked = if checked == 0 {
            String::new()
        } else {
            format!(", {checked} {how}")
        };
        format!(
            "resuming {}: {} of {} boards already done{checked}",
            self.source(),
            self.kept.len(),
            self.spec.boards.len()
        )
    }

    /// The lock files of the output, to remove before an exit that runs no destructors.
    pub fn lock_files(&self) -> Vec<PathBuf> {
        match &self.dest {
            Dest::Stdout => Vec::new(),
            Dest::Direct(out) | Dest::Journal { out, .. } => out.lock_files(),
        }
    }

    /// Whether the table goes to standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.dest, Dest::Stdout)
    }

    fn exporter(&self, format: Format) -> Box<dyn Export> {
        format.exporter(
            self.schema.kind(),
            self.spec.subject,
            &self.spec.rows,
            &self.spec.cols,
        )
    }

    /// The format of the bytes written as rows finish.
    fn writes_format(&self) -> Format {
        match &self.dest {
            Dest::Journal { journal_format, .. } => *journal_format,
            _ => self.spec.format,
        }
    }

    /// Open where the rows go and write what must come before them. Call once, after the kept
    /// rows are checked and before the first [`write`](Self::write).
    pub fn start(&mut self) -> Result<(), TableError> {
        let mut export = self.exporter(self.writes_format());
        let header = self.line_ending.apply(export.header()?);
        let sink = match &self.dest {
            Dest::Stdout => {
                let mut sink = Sink::stdout()?;
                sink.write_now(&header)?;
                self.in_order = Some(InOrder {
                    boards: self.to_do(),
                    next: 0,
                    held: HashMap::new(),
                });
                sink
            }
            Dest::Direct(out) => {
                if !out.exists() {
                    let mut sink = Sink::file(out.create()?);
                    sink.write_at("table header", &header)
                        .map_err(|e| write_failed(&self.dest, e))?;
                    self.sink = Some(sink);
                    self.export = Some(export);
                    return Ok(());
                }
                if self.legacy {
                    // Adopt the file: every row again in today's columns (digest), at once.
                    let mut bytes = header.clone();
                    for kept in &mut self.kept {
                        kept.bytes = self.line_ending.apply(export.row(&kept.row)?);
                        bytes.extend(&kept.bytes);
                    }
                    out.write_whole(&bytes)?;
                    let how = if self.adopted {
                        "its exact rows kept as proven rows of a table with bounds; rewritten \
                         with the columns lower, upper and status"
                    } else {
                        "every row re-proved; rewritten with digests"
                    };
                    self.notes.push(format!("{}: {how}", out.shown().display()));
                    self.keep_len = bytes.len() as u64;
                    self.needs_header = false;
                    self.head = None;
                } else if self.compact && !self.needs_header {
                    let bytes = self.compacted(&header);
                    out.write_whole(&bytes)?;
                    self.keep_len = bytes.len() as u64;
                }
                let mut sink = Sink::file(out.append(self.keep_len)?);
                if self.needs_header {
                    sink.write_at("table header", &header)
                        .map_err(|e| write_failed(&self.dest, e))?;
                }
                sink
            }
            Dest::Journal {
                journal, resumed, ..
            } => {
                let cannot = |e| cannot_write(journal, e);
                let file = if *resumed && self.compact && !self.needs_header {
                    let bytes = self.compacted(&header);
                    fault::point("journal")
                        .and_then(|()| write_whole(journal, &bytes))
                        .map_err(cannot)?;
                    self.keep_len = bytes.len() as u64;
                    OpenOptions::new()
                        .append(true)
                        .open(journal)
                        .map_err(cannot)?
                } else if *resumed {
                    let file = OpenOptions::new()
                        .append(true)
                        .open(journal)
                        .map_err(cannot)?;
                    file.set_len(self.keep_len).map_err(cannot)?;
                    file
                } else {
                    File::create(journal).map_err(cannot)?
                };
                let mut sink = Sink::file(file);
                if self.needs_header {
                    sink.write_at("table header", &header)
                        .map_err(|e| write_failed(&self.dest, e))?;
                }
                sink
            }
        };
        self.sink = Some(sink);
        self.export = Some(export);
        Ok(())
    }

    /// The kept file without the rows later ones replaced: its head (or `header`, when the head
    /// was not kept as it stood) and the kept rows as they stand, in file order.
    fn compacted(&self, header: &[u8]) -> Vec<u8> {
        let mut bytes = self.head.clone().unwrap_or_else(|| header.to_vec());
        for kept in &self.kept {
            bytes.extend(&kept.bytes);
        }
        bytes
    }

    /// Write one finished row: to a file at once, whatever its order ([`finish`](Self::finish)
    /// puts the rows in the table's order); to standard output in the table's order, each as
    /// soon as every row before it is written.
    pub fn write(&mut self, row: S::Row) -> Result<(), TableError> {
        let Some(order) = &mut self.in_order else {
            return self.put(row);
        };
        order.held.insert(row.board(), row);
        while let Some(row) = self.next_in_order() {
            // Formatted when written: the whole-table formats keep the rows in the order given.
            self.put(row)?;
        }
        Ok(())
    }

    /// The row of the next board in the table's order, if it is finished and waiting.
    fn next_in_order(&mut self) -> Option<S::Row> {
        let order = self.in_order.as_mut()?;
        let row = order
            .boards
            .get(order.next)
            .and_then(|b| order.held.remove(b))?;
        order.next += 1;
        Some(row)
    }

    fn put(&mut self, row: S::Row) -> Result<(), TableError> {
        let (Some(sink), Some(export)) = (&mut self.sink, &mut self.export) else {
            panic!("Output::write before Output::start");
        };
        let bytes = self.line_ending.apply(export.row(&row)?);
        sink.write_at("table row", &bytes)
            .map_err(|e| write_failed(&self.dest, e))?;
        self.finished.push((row, bytes));
        Ok(())
    }

    /// Write the rows still waiting for an unfinished board before them (an interrupted run),
    /// in the table's order; how many.
    pub fn write_held(&mut self) -> Result<usize, TableError> {
        let Some(order) = &mut self.in_order else {
            return Ok(0);
        };
        let waiting: Vec<S::Row> = order.boards[order.next..]
            .iter()
            .filter_map(|b| order.held.remove(b))
            .collect();
        let written = waiting.len();
        for row in waiting {
            self.put(row)?;
        }
        Ok(written)
    }

    /// How many boards are done: kept and finished in this run (a board whose kept row of
    /// bounds was computed again counts once).
    pub fn done(&self) -> usize {
        let finished: std::collections::HashSet<Board> =
            self.finished.iter().map(|(row, _)| row.board()).collect();
        let kept_only = self
            .kept
            .iter()
            .filter(|r| !finished.contains(&r.board()))
            .count();
        kept_only + finished.len()
    }

    /// Whether every board of the table is done.
    pub fn is_complete(&self) -> bool {
        self.done() == self.spec.boards.len()
    }

    /// The rows finished in this run, in the order finished.
    pub fn finished(&self) -> impl Iterator<Item = &S::Row> {
        self.finished.iter().map(|(row, _)| row)
    }

    /// The number of boards of the table.
    pub fn total(&self) -> usize {
        self.spec.boards.len()
    }

    /// What an interrupted run says: how many boards are done, how many finished rows
    /// ([`write_held`](Self::write_held)) were written last, out of the table's order, and where
    /// the rows are.
    pub fn interrupted(&self, held: usize) -> String {
        let held = match held {
            0 => String::new(),
            1 => "; 1 finished row was waiting for a board before it and is written last, out of \
                  the table's order"
                .into(),
            n => format!(
                "; {n} finished rows were waiting for boards before them and are written last, \
                 out of the table's order"
            ),
        };
        format!(
            "interrupted after {} of {} boards{held}{}",
            self.done(),
            self.total(),
            self.where_rows_are()
        )
    }

    /// What an interrupted run says after "interrupted after N of M boards".
    pub fn where_rows_are(&self) -> String {
        match &self.dest {
            Dest::Stdout => String::new(),
            Dest::Direct(_) => "; run the same command again to resume".into(),
            Dest::Journal { out, journal, .. } => format!(
                "; {} is unchanged, the finished rows are in {}: run the same command again to \
                 resume",
                out.shown().display(),
                journal.display()
            ),
        }
    }

    /// Close the table once every board is done: the footer, then FILE in the table's order
    /// (rewritten if its rows are not in it), or FILE written whole from the journal, which is
    /// removed.
    pub fn finish(mut self) -> Result<(), TableError> {
        if let (Some(sink), Some(export)) = (&mut self.sink, &mut self.export) {
            let footer = export.footer()?;
            if !footer.is_empty() {
                sink.write_at("table footer", &footer)
                    .map_err(|e| write_failed(&self.dest, e))?;
            }
        }
        self.sink = None;
        let finished = std::mem::take(&mut self.finished);
        match &self.dest {
            Dest::Stdout => Ok(()),
            Dest::Direct(out) => {
                let in_file: Vec<Board> = self
                    .kept
                    .iter()
                    .map(|r| r.board())
                    .chain(finished.iter().map(|w| w.0.board()))
                    .collect();
                if in_file == self.spec.boards {
                    return Ok(());
                }
                // Kept rows were not the start of this table, or rows finished out of its order:
                // put every row in its place, so the file reads as an uninterrupted run would
                // have written it (a kept byte order mark and header stay as they were).
                let header = match &self.head {
                    Some(head) => head.clone(),
                    None => self
                        .line_ending
                        .apply(self.exporter(self.spec.format).header()?),
                };
                let bytes = self.in_order(header, finished);
                out.write_whole(&bytes)?;
                Ok(())
            }
            Dest::Journal { out, journal, .. } => {
                let bytes = if self.spec.format.is_line_format() {
                    let header = self.exporter(self.spec.format).header()?;
                    self.in_order(header, finished)
                } else {
                    let mut rows: HashMap<Board, &S::Row> =
                        self.kept.iter().map(|k| (k.board(), &k.row)).collect();
                    rows.extend(finished.iter().map(|(row, _)| (row.board(), row)));
                    let in_order = self.spec.boards.iter().map(|board| rows[board]);
                    whole_table(&self.spec, self.schema.kind(), in_order)?
                };
                out.write_whole(&bytes)?;
                fault::point("journal removal")
                    .and_then(|()| fs::remove_file(journal))
                    .map_err(|e| cannot_write(journal, e))?;
                Ok(())
            }
        }
    }

    /// `header` and every row's line in the table's order (rows of this run and kept ones).
    fn in_order(&self, header: Vec<u8>, finished: Vec<(S::Row, Vec<u8>)>) -> Vec<u8> {
        let mut lines: HashMap<Board, Vec<u8>> = self
            .kept
            .iter()
            .map(|r| (r.board(), r.bytes.clone()))
            .collect();
        lines.extend(
            finished
                .into_iter()
                .map(|(row, bytes)| (row.board(), bytes)),
        );
        let mut bytes = header;
        for b in &self.spec.boards {
            bytes.extend(&lines[b]);
        }
        bytes
    }
}

/// Whether `out` (a whole-table format) is exactly the table the complete journal beside it
/// makes: a run stopped between writing FILE and removing its journal. The same command then
/// finishes it (writes the same bytes again and removes the journal) instead of refusing a FILE
/// it made itself. Anything else (a journal not complete, a FILE that differs) is not ours to
/// replace without `--force`.
fn journal_was_finished<S: Schema>(
    out: &OutFile,
    journal: &Path,
    spec: &TableSpec,
    schema: &S,
) -> bool {
    let boards = spec.boards.len();
    let Ok((contents, true)) = read_journal(journal, boards) else {
        return false;
    };
    let Ok(existing) = resume::read_table(&contents, Format::Csv, schema, &spec.boards, false)
    else {
        return false;
    };
    let rows: HashMap<Board, &S::Row> = existing
        .rows
        .iter()
        .filter(|k| k.row.is_final())
        .map(|k| (k.board(), &k.row))
        .collect();
    let Some(in_order) = spec
        .boards
        .iter()
        .map(|b| rows.get(b).copied())
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let Ok(expected) = whole_table(spec, schema.kind(), in_order) else {
        return false;
    };
    let limit = expected.len() as u64;
    read_regular(out.path(), limit).is_ok_and(|bytes| bytes == expected)
}

/// A row, header or footer that could not be written: named with the file it was for (the
/// journal, where the rows go there), and for a full disk what to do. On standard output the
/// error stays as it is, so that a closed pipe is still known as one.
fn write_failed(dest: &Dest, e: io::Error) -> TableError {
    let path = match dest {
        Dest::Stdout => return TableError::Io(e),
        Dest::Direct(out) => out.shown(),
        Dest::Journal { journal, .. } => journal.as_path(),
    };
    TableError::Output(OutputError::Failed(write_error_text(path, &e)))
}

fn refusal(source: &str, e: ResumeError) -> TableError {
    let hint = match e {
        ResumeError::NoDigest { .. } => " (or --force starts it afresh)",
        ResumeError::NotMinimal { .. }
        | ResumeError::WrongCounts { .. }
        | ResumeError::Impossible { .. }
        | ResumeError::Transposes { .. }
        | ResumeError::Digest { .. } => {
            "; the file is left unchanged (correct or delete that line, or --force starts it afresh)"
        }
        _ => "; the file is left unchanged (--force starts it afresh)",
    };
    refused(format!("cannot resume {source}: {e}{hint}"))
}

/// A file with more lines than a table of `boards` holds, all of them rows of it: a board would be
/// repeated, so this is not reached in practice; but such a file is refused, not cut.
fn too_long(source: &str, boards: usize) -> TableError {
    refused(format!(
        "cannot resume {source}: {}; the file is left unchanged (--force starts it afresh)",
        more_lines(boards)
    ))
}

fn more_lines(boards: usize) -> String {
    format!("it has more lines than a table of {boards} boards")
}

/// The start of a journal left by an earlier run of this table (as much as a table of `boards`
/// boards can hold), read through the same non-blocking, regular files only rule as the output
/// itself; and whether that is all of it.
fn read_journal(journal: &Path, boards: usize) -> Result<(Vec<u8>, bool), TableError> {
    let meta = fs::symlink_metadata(journal).map_err(|e| cannot_write(journal, e))?;
    if !meta.is_file() {
        return Err(refused(format!(
            "{} is not a regular file: remove it",
            journal.display()
        )));
    }
    Ok(read_start(journal, MAX_LINE_BYTES, max_lines(boards))?)
}

impl Kind for TableError {
    fn kind(&self) -> ErrorKind {
        match self {
            TableError::Output(e) => e.kind(),
            TableError::Refused(_) => ErrorKind::Refusal,
            TableError::Export(e) => e.kind(),
            TableError::Io(e) => Kind::kind(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::{RowKind, TableRow};
    use crate::search::{Problem, SearchOptions};
    use crate::table::resume::Queens;
    use crate::table::TableRunner;

    /// A writer with standard output's reorder buffer over a file, for the table 2x3, 3x3, 3x4,
    /// 4x4, and the rows of those boards.
    fn writer() -> (Output<Queens>, tempfile::NamedTempFile, Vec<TableRow>) {
        let boards: Vec<Board> = [(2, 3), (3, 3), (3, 4), (4, 4)]
            .iter()
            .map(|&(r, c)| Board::new(r, c).unwrap())
            .collect();
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut runner = TableRunner::new(Problem::Domination, SearchOptions::sequential(), 1);
        let rows = boards.iter().map(|&b| runner.compute(b).unwrap()).collect();
        let spec = TableSpec {
            format: Format::Csv,
            subject: Problem::Domination.into(),
            boards: boards.clone(),
            rows: vec![2, 3, 4],
            cols: vec![3, 4],
        };
        let schema = Queens {
            kind: RowKind::Optimum,
            problem: Problem::Domination,
        };
        let mut writer = Output::fresh(schema, spec, Dest::Stdout, Vec::new());
        writer.sink = Some(Sink::file(file.reopen().unwrap()));
        writer.export = Some(writer.exporter(Format::Csv));
        writer.in_order = Some(InOrder {
            boards,
            next: 0,
            held: HashMap::new(),
        });
        (writer, file, rows)
    }

    fn boards_written(file: &tempfile::NamedTempFile) -> Vec<String> {
        fs::read_to_string(file.path())
            .unwrap()
            .lines()
            .map(|l| l.split(',').take(2).collect::<Vec<_>>().join("x"))
            .collect()
    }

    #[test]
    fn standard_output_gets_each_row_once_every_row_before_it_is_written() {
        let (mut writer, file, rows) = writer();
        writer.write(rows[2].clone()).unwrap();
        writer.write(rows[1].clone()).unwrap();
        assert!(boards_written(&file).is_empty());
        writer.write(rows[0].clone()).unwrap();
        assert_eq!(boards_written(&file), ["2x3", "3x3", "3x4"]);
        writer.write(rows[3].clone()).unwrap();
        assert_eq!(boards_written(&file), ["2x3", "3x3", "3x4", "4x4"]);
        assert_eq!(writer.write_held().unwrap(), 0);
        assert_eq!(writer.done(), 4);
    }

    #[test]
    fn an_interrupted_run_writes_the_rows_held_back_in_the_tables_order() {
        let (mut writer, file, rows) = writer();
        // 2x3 never finished: 4x4 and 3x3 wait for it.
        writer.write(rows[3].clone()).unwrap();
        writer.write(rows[1].clone()).unwrap();
        assert!(boards_written(&file).is_empty());
        assert_eq!(writer.write_held().unwrap(), 2);
        assert_eq!(boards_written(&file), ["3x3", "4x4"]);
        assert_eq!(writer.done(), 2);
    }
}
