//! `queendom count 8x8 [-i] [--list | --classes]`: the minimum, the number of minimum layouts and
//! of their classes under the board's symmetries; or every layout, or one per class.

use std::path::{Path, PathBuf};

use queendom::picture::{BoardPicture, ContactSheet};

use queendom::search::{count, Counted, Problem, SearchOptions};

use queendom::{Board, Layout};

use super::boards::{BoardLoop, Searched};
use super::output::{check_whole, write_whole_to, Target};
use super::progress::BoardProgress;
use super::signals::Interrupt;
use super::{print, usage, Failure, ProblemArgs, ThreadArgs};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Output: the minimum (γ, or i with -i), the number of minimum layouts, the number of their classes
under the board's symmetries (the 8 rotations and reflections of a square board, the 4 of a
rectangle: turning it half round and mirroring it either way), then nodes, seconds and threads.
--list prints every minimum layout first, one per line, in increasing order of their squares
(row-major); --classes prints the canonical member of each class (its lowest image) followed by
the size of the class, in the same order. Every layout printed has passed the independent
checker. The counts are exact and the same on any number of threads.

With --classes, --svg DIR (and --png DIR, --pdf DIR) also draws every class's canonical layout, one
file per class: DIR/BOARD-PROBLEM-class-K.svg (K = 1, 2, ... in the order printed, zero-padded),
titled with the board, the minimum, the class number and its size; --svg and --pdf also write a
contact sheet, every class on one page: DIR/BOARD-PROBLEM-classes.svg (.pdf). DIR is created if
missing (its parent must exist); existing files are refused before any is written unless --force is
given.")]
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
    let problem = counted.problem;
    let mut out = String::new();
    if args.classes {
        for (layout, size) in &counted.representatives {
            problem.check(layout, counted.queens)?;
            out.push_str(&format!(
                "{}  (class of {size})\n",
                layout.to_squares_string()
            ));
        }
    }
    if args.list {
        let mut all: Vec<Layout> = counted
            .representatives
            .iter()
            .flat_map(|(layout, _)| layout.class())
            .collect();
        all.sort_by(|a, b| a.queens().cmp(b.queens()));
        if all.len() as u64 != counted.layouts {
            return Err(Failure::Error(anyhow::anyhow!(
                "internal error: the classes of {board} hold {} layouts, the count says {}",
                all.len(),
                counted.layouts
            )));
        }
        for layout in &all {
            problem.check(layout, counted.queens)?;
            out.push_str(&layout.to_squares_string());
            out.push('\n');
        }
    }
    let symbol = problem.symbol();
    if args.classes {
        draw_classes(
            args,
            interrupt,
            board,
            problem,
            symbol,
            &counted.representatives,
            counted.queens,
        )?;
    }
    let group = board.symmetry_group();
    out.push_str(&format!(
        "{symbol}({board}) = {}\nlayouts: {}\nclasses: {} (under {group})\n({} nodes, {seconds:.3} s, {})\n\n",
        counted.queens,
        counted.layouts,
        counted.classes,
        counted.nodes,
        super::threads_text(args.threads.count()),
    ));
    print(&out)
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Svg,
    Png,
    Pdf,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Kind::Svg => "svg",
            Kind::Png => "png",
            Kind::Pdf => "pdf",
        }
    }
}

/// What one file holds: class K's picture, or the contact sheet of them all.
#[derive(Debug, Clone, Copy)]
enum Drawing {
    Class(usize),
    Sheet,
}

/// One picture per class (and a contact sheet per SVG or PDF directory), every name checked
/// before the first is written. A signal stops the drawing between two pictures (every picture
/// is written whole).
fn draw_classes(
    args: &CountArgs,
    interrupt: &Interrupt,
    board: Board,
    problem: Problem,
    symbol: &str,
    classes: &[(Layout, usize)],
    queens: usize,
) -> Result<(), Failure> {
    let digits = classes.len().to_string().len();
    let mut files: Vec<(Target, Kind, Drawing)> = Vec::new();
    for (dir, kind) in [
        (&args.svg, Kind::Svg),
        (&args.png, Kind::Png),
        (&args.pdf, Kind::Pdf),
    ] {
        let Some(dir) = dir else { continue };
        let mut add = |name: String, drawing| -> Result<(), Failure> {
            let path = Target::File(dir.join(name));
            check_whole(&path, args.force)?;
            files.push((path, kind, drawing));
            Ok(())
        };
        for k in 0..classes.len() {
            let name = format!(
                "{board}-{}-class-{:0digits$}.{}",
                problem.name(),
                k + 1,
                kind.extension()
            );
            add(name, Drawing::Class(k))?;
        }
        if kind != Kind::Png {
            let name = format!("{board}-{}-classes.{}", problem.name(), kind.extension());
            add(name, Drawing::Sheet)?;
        }
    }
    let board_name = format!("{}×{}", board.rows(), board.cols());
    let layouts: usize = classes.iter().map(|(_, size)| size).sum();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
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
        let bytes = match drawing {
            Drawing::Class(k) => {
                let (layout, size) = &classes[k];
                let title = format!(
                    "{symbol}({board_name}) = {queens}: class {} of {}, {size} layout{}",
                    k + 1,
                    classes.len(),
                    plural(*size)
                );
                let picture = BoardPicture::new(layout)
                    .title(title)
                    .coverage(args.coverage);
                match kind {
                    Kind::Svg => Ok(picture.svg().into_bytes()),
                    Kind::Png => picture.png(),
                    Kind::Pdf => picture.pdf(),
                }
            }
            Drawing::Sheet => {
                let title = format!(
                    "{symbol}({board_name}) = {queens}: {} class{}, {layouts} layout{}",
                    classes.len(),
                    if classes.len() == 1 { "" } else { "es" },
                    plural(layouts)
                );
                let captions = classes
                    .iter()
                    .enumerate()
                    .map(|(k, (layout, size))| {
                        (
                            layout,
                            format!("{} · {size} layout{}", k + 1, plural(*size)),
                        )
                    })
                    .collect();
                let sheet = ContactSheet::new(title, captions);
                match kind {
                    Kind::Pdf => sheet.pdf(),
                    _ => Ok(sheet.svg().into_bytes()),
                }
            }
        }
        .map_err(|e| Failure::Error(anyhow::Error::new(e)))?;
        write_whole_to(&path, &bytes, args.force)?;
    }
    Ok(())
}
