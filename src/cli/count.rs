//! `queendom count 8x8 [-i] [--list | --classes]`: the minimum, the number of minimum layouts and
//! of their classes under the board's symmetries; or every layout, or one per class.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use queendom::listing::{CountListing, Listing, DEFAULT_BUFFER_BYTES};
use queendom::picture::{ClassDrawing, ClassPictures, PictureKind};

use queendom::search::{count, Counted, SearchOptions};
use queendom::Layout;

use queendom::Board;

use super::boards::{BoardLoop, Searched};
use super::destination::{check_stdout, check_whole, write_whole_to, Target};
use super::progress::BoardProgress;
use super::signals::Interrupt;
use super::{print, usage, Failure, ProblemArgs, ThreadArgs};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  queendom count 8x8 --classes
  queendom count 8x8 -i --classes --svg classes/
More: docs/commands.md, or `queendom manpage`.")]
pub struct CountArgs {
    /// Boards as ROWSxCOLS (e.g. 8x8, 3x5); a single number N means NxN.
    #[arg(value_name = "BOARD", required = true)]
    boards: Vec<String>,
    #[command(flatten)]
    problem: ProblemArgs,
    /// Print every minimum layout, one per line, before the counts.
    #[arg(long, conflicts_with = "classes")]
    list: bool,
    /// Print one canonical layout per class and the size of its class, before the counts.
    #[arg(long)]
    classes: bool,
    /// With --classes: draw each class's canonical layout as DIR/BOARD-PROBLEM-class-K.svg.
    #[arg(long, value_name = "DIR", requires = "classes")]
    svg: Option<PathBuf>,
    /// With --classes: the same pictures as PNG, DIR/BOARD-PROBLEM-class-K.png.
    #[arg(long, value_name = "DIR", requires = "classes")]
    png: Option<PathBuf>,
    /// With --classes: the same pictures as PDF, and the contact sheet as one PDF page.
    #[arg(long, value_name = "DIR", requires = "classes")]
    pdf: Option<PathBuf>,
    /// With --classes: shade the squares of each class's picture by how many queens cover them.
    #[arg(long, requires = "classes")]
    coverage: bool,
    /// Draw at most N pictures per board: a board whose classes would make more is refused
    /// before anything is written (raise N to draw them all).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_pictures: usize,
    /// Replace existing picture files.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    threads: ThreadArgs,
}

pub fn run(args: CountArgs) -> Result<(), Failure> {
    let boards: Vec<Board> = args
        .boards
        .iter()
        .map(|b| b.parse::<Board>().map_err(usage))
        .collect::<Result<_, _>>()?;
    let problem = args.problem.problem();
    // Picture directories are checked (and made) before any search.
    for dir in [&args.svg, &args.png, &args.pdf].into_iter().flatten() {
        // Elsewhere `-` means standard output; here a directory is needed, and one named `-`
        // would only surprise.
        if dir.as_os_str() == "-" {
            return Err(usage(
                "--svg, --png and --pdf take a directory (one file per class), not `-`: \
                 name a directory, e.g. --png classes",
            ));
        }
        picture_dir(dir)?;
    }
    let interrupt = Interrupt::register()?;
    let board_loop = BoardLoop {
        verb: "counting",
        hint: None,
        interrupt: &interrupt,
        threads: &args.threads,
    };
    let listing = if args.list {
        Some(Listing::Layouts)
    } else if args.classes {
        Some(Listing::Classes)
    } else {
        None
    };
    // Classes go to a listing that sorts them on disk as the search finds them, so that a count
    // of millions of layouts holds a fixed buffer, not every layout. Its runs are anonymous files
    // in $TMPDIR: count writes to standard output, which has no directory of its own.
    let spill_dir = std::env::temp_dir();
    let search = |board, options: &SearchOptions, _: &BoardProgress| {
        let Some(listing) = listing else {
            return Ok(Searched::of(count(board, problem, false, options))?.map(|c| (c, None)));
        };
        let sink = Arc::new(CountListing::new(
            board,
            listing,
            &spill_dir,
            DEFAULT_BUFFER_BYTES,
            options.cancel.clone(),
        ));
        let options = SearchOptions {
            class_sink: Some(sink.clone()),
            ..options.clone()
        };
        let result = count(board, problem, true, &options);
        drop(options);
        if let Some(failure) = sink.take_failure() {
            // The listing stopped the search: its failure, not an interruption.
            return Err(Failure::Error(anyhow::Error::new(failure)));
        }
        Ok(Searched::of(result)?.map(|counted| (counted, Some(sink))))
    };
    let report = |board, (counted, listing): (Counted, Option<Arc<CountListing>>), seconds| {
        print_count(
            &args,
            &interrupt,
            board,
            &counted,
            listing.as_deref(),
            seconds,
        )
    };
    board_loop.run(
        boards,
        &SearchOptions::for_threads(args.threads.count()),
        search,
        report,
    )
}

/// Print one board's count (and its layouts or classes, streamed from the listing), and draw its
/// classes.
fn print_count(
    args: &CountArgs,
    interrupt: &Interrupt,
    board: Board,
    counted: &Counted,
    listing: Option<&CountListing>,
    seconds: f64,
) -> Result<(), Failure> {
    let summary = counted.summary(board, seconds, args.threads.count());
    let Some(listing) = listing else {
        return print(&summary);
    };
    let kinds = picture_kinds(args);
    if kinds.is_empty() {
        check_stdout()?;
        let stdout = std::io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        write_listing(interrupt, board, counted, listing, &mut out, &mut |_, _| {})?;
        let written = out.write_all(summary.as_bytes()).and_then(|()| out.flush());
        return written.map_err(Failure::from);
    }
    // Pictures: refused before anything is written if there would be too many; else the classes
    // (at most --max-pictures of them) are kept to draw, and the text printed after the pictures,
    // as when nothing is drawn it is printed whole.
    let pictures: usize = kinds
        .iter()
        .map(|(_, kind)| counted.classes as usize + usize::from(*kind != PictureKind::Png))
        .sum();
    if pictures > args.max_pictures {
        return Err(usage(format!(
            "{board} has {} classes: drawing them would write {pictures} pictures, more than \
             --max-pictures {}; give --max-pictures {pictures} to draw them",
            counted.classes, args.max_pictures
        )));
    }
    let mut text = Vec::new();
    let mut classes: Vec<(Layout, usize)> = Vec::new();
    write_listing(
        interrupt,
        board,
        counted,
        listing,
        &mut text,
        &mut |layout, size| classes.push((layout, size)),
    )?;
    draw_classes(args, interrupt, board, counted, &classes, &kinds)?;
    text.extend_from_slice(summary.as_bytes());
    print(&String::from_utf8(text)?)
}

/// Write the listing; a signal stops it with one line saying so.
fn write_listing(
    interrupt: &Interrupt,
    board: Board,
    counted: &Counted,
    listing: &CountListing,
    out: &mut dyn Write,
    on_class: &mut dyn FnMut(Layout, usize),
) -> Result<(), Failure> {
    match listing.write(counted, out, on_class, &|| interrupt.is_set()) {
        Ok(()) => Ok(()),
        Err(queendom::listing::ListingError::Stopped { .. }) => {
            eprintln!("queendom: interrupted while listing the layouts of {board}");
            Err(Failure::Interrupted(interrupt.exit_code()))
        }
        // A closed pipe ends the command quietly (`cli::run` sees it in the chain).
        Err(e) => Err(Failure::Error(anyhow::Error::new(e))),
    }
}

/// The picture directories asked for, with their kinds.
fn picture_kinds(args: &CountArgs) -> Vec<(&Path, PictureKind)> {
    [
        (&args.svg, PictureKind::Svg),
        (&args.png, PictureKind::Png),
        (&args.pdf, PictureKind::Pdf),
    ]
    .into_iter()
    .filter_map(|(dir, kind)| dir.as_deref().map(|d| (d, kind)))
    .collect()
}

/// Make sure `dir` is a directory pictures can go to, creating it (not its parents) if missing.
fn picture_dir(dir: &Path) -> Result<(), Failure> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(usage(format!("{} is not a directory", dir.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir(dir)
            .map_err(|e| usage(format!("cannot create directory {}: {e}", dir.display()))),
        Err(e) => Err(usage(format!("cannot use {}: {e}", dir.display()))),
    }
}

/// One picture per class (and a contact sheet per SVG or PDF directory), every name checked
/// before the first is written. A signal stops the drawing between two pictures (every picture
/// is written whole).
fn draw_classes(
    args: &CountArgs,
    interrupt: &Interrupt,
    board: Board,
    counted: &Counted,
    classes: &[(Layout, usize)],
    kinds: &[(&Path, PictureKind)],
) -> Result<(), Failure> {
    let pictures = ClassPictures {
        board,
        problem: counted.problem,
        classes,
        queens: counted.queens,
        coverage: args.coverage,
    };
    let mut files: Vec<(Target, PictureKind, ClassDrawing)> = Vec::new();
    for &(dir, kind) in kinds {
        for (name, drawing) in pictures.files(kind) {
            let path = Target::File(dir.join(name));
            check_whole(&path, args.force)?;
            files.push((path, kind, drawing));
        }
    }
    let total = files.len();
    for (written, (path, kind, drawing)) in files.into_iter().enumerate() {
        if interrupt.is_set() {
            eprintln!(
                "queendom: interrupted while drawing the classes of {board} ({written} of {total} \
                 pictures written)"
            );
            return Err(Failure::Interrupted(interrupt.exit_code()));
        }
        // Every representative was checked by `count` and again before it was printed.
        let bytes = pictures
            .draw(kind, drawing)
            .map_err(|e| Failure::Error(anyhow::Error::new(e)))?;
        write_whole_to(&path, &bytes, args.force)?;
    }
    Ok(())
}
