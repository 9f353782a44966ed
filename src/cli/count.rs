//! `queendom count 8x8 [-i] [--list | --classes]`: the minimum, the number of minimum layouts and
//! of their classes under the board's symmetries; or every layout, or one per class.

use std::path::{Path, PathBuf};

use queendom::picture::{ClassDrawing, ClassPictures, PictureKind};

use queendom::search::{count, Counted, SearchOptions};

use queendom::Board;

use super::boards::{BoardLoop, Searched};
use super::destination::{check_whole, write_whole_to, Target};
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
    let keep = args.list || args.classes;
    let search = |board, options: &SearchOptions, _: &BoardProgress| {
        Searched::of(count(board, problem, keep, options))
    };
    let report =
        |board, counted: Counted, seconds| print_count(&args, &interrupt, board, &counted, seconds);
    board_loop.run(
        boards,
        &SearchOptions::for_threads(args.threads.count()),
        search,
        report,
    )
}

/// Print one board's count (and its layouts or classes), and draw its classes.
fn print_count(
    args: &CountArgs,
    interrupt: &Interrupt,
    board: Board,
    counted: &Counted,
    seconds: f64,
) -> Result<(), Failure> {
    let threads = args.threads.count();
    let text = counted.report(board, args.list, args.classes, seconds, threads)?;
    if args.classes {
        draw_classes(args, interrupt, board, counted)?;
    }
    print(&text)
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
) -> Result<(), Failure> {
    let pictures = ClassPictures {
        board,
        problem: counted.problem,
        classes: &counted.representatives,
        queens: counted.queens,
        coverage: args.coverage,
    };
    let mut files: Vec<(Target, PictureKind, ClassDrawing)> = Vec::new();
    for (dir, kind) in [
        (&args.svg, PictureKind::Svg),
        (&args.png, PictureKind::Png),
        (&args.pdf, PictureKind::Pdf),
    ] {
        let Some(dir) = dir else { continue };
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
