//! `queendom solve ... --svg FILE --png FILE --pdf FILE`: a picture of each board's layout. With several
//! boards a file name must hold `{board}`, which becomes the board (`b-{board}.svg` →
//! `b-8x8.svg`); every name is checked (through the output policy, [`super::destination::file`]) before
//! the first search, and each picture is written as soon as its board is solved.

use std::collections::HashMap;
use std::path::PathBuf;

use queendom::picture::{BoardPicture, MAX_PNG_SCALE};
use queendom::{Board, Layout};

use super::destination::{check_whole, write_whole_to, Target};
use super::{usage, Failure};

/// The options `solve` takes for pictures.
#[derive(clap::Args, Debug)]
pub struct PictureArgs {
    /// Also draw each layout as SVG: FILE, `-` for stdout (the text then goes to stderr), or a
    /// name with {board} for several boards (e.g. board-{board}.svg).
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Also draw each layout as PNG (twice the SVG's size, or --scale); {board} as for --svg.
    #[arg(long, value_name = "FILE")]
    png: Option<String>,
    /// Also draw each layout as a vector PDF (standard fonts, nothing embedded); {board} as for
    /// --svg.
    #[arg(long, value_name = "FILE")]
    pdf: Option<String>,
    /// Shade every square by how many queens cover it, with the number written in it.
    #[arg(long)]
    coverage: bool,
    /// PNG pixels per SVG pixel (default 2; e.g. 1, 1.5, 4; at most 16); the PNG says 96 × S
    /// DPI, so it prints at the SVG's size.
    #[arg(long, value_name = "S", requires = "png", value_parser = parse_scale)]
    scale: Option<f32>,
    /// The pictures' title instead of e.g. `γ(8×8) = 5`; {board} becomes the board (8×8).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Replace existing picture files (and an existing --trace FILE).
    #[arg(long)]
    force: bool,
}

impl PictureArgs {
    pub fn force(&self) -> bool {
        self.force
    }
}

const PLACEHOLDER: &str = "{board}";

/// A PNG scale: a number above 0 and at most [`MAX_PNG_SCALE`].
pub fn parse_scale(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(s) if s > 0.0 && s <= MAX_PNG_SCALE => Ok(s),
        _ => Err(format!(
            "a scale is a number above 0 and at most {MAX_PNG_SCALE} (e.g. 1, 1.5, 4)"
        )),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Svg,
    Png,
    Pdf,
}

/// Every picture to write, by board; checked up front.
pub struct PicturePlan {
    files: HashMap<Board, Vec<(Kind, Target)>>,
    force: bool,
    coverage: bool,
    scale: Option<f32>,
    title: Option<String>,
}

impl PicturePlan {
    pub fn new(args: &PictureArgs, boards: &[Board]) -> Result<PicturePlan, Failure> {
        let mut files: HashMap<Board, Vec<(Kind, Target)>> = HashMap::new();
        let mut claimed: HashMap<Target, String> = HashMap::new();
        for (kind, flag, name) in [
            (Kind::Svg, "--svg", &args.svg),
            (Kind::Png, "--png", &args.png),
            (Kind::Pdf, "--pdf", &args.pdf),
        ] {
            let Some(name) = name else { continue };
            if name == "-" {
                if kind != Kind::Svg {
                    return Err(usage(format!(
                        "{flag} needs a file name: - (stdout) is for --svg, {} is binary",
                        flag[2..].to_uppercase()
                    )));
                }
                if boards.len() > 1 {
                    return Err(usage(format!(
                        "--svg - writes one picture, but {} boards are given: use a file name \
                         with {PLACEHOLDER}, e.g. --svg board-{PLACEHOLDER}.svg",
                        boards.len()
                    )));
                }
            } else if boards.len() > 1 && !name.contains(PLACEHOLDER) {
                return Err(usage(format!(
                    "{flag} {name} names one file for {} boards: put {PLACEHOLDER} in the name, \
                     e.g. {flag} board-{PLACEHOLDER}.{}",
                    boards.len(),
                    &flag[2..]
                )));
            }
            for (i, &board) in boards.iter().enumerate() {
                let destination = if name == "-" {
                    Target::Stdout
                } else {
                    Target::File(PathBuf::from(name.replace(PLACEHOLDER, &board.to_string())))
                };
                let who = format!("{flag} of board {} ({board})", i + 1);
                if let Some(first) = claimed.insert(destination.clone(), who.clone()) {
                    return Err(usage(format!(
                        "{first} and {who} would both be written to {destination}"
                    )));
                }
                check_whole(&destination, args.force)?;
                files.entry(board).or_default().push((kind, destination));
            }
        }
        Ok(PicturePlan {
            files,
            force: args.force,
            coverage: args.coverage,
            scale: args.scale,
            title: args.title.clone(),
        })
    }

    /// Whether the SVG goes to stdout (the text report must then stay out of it).
    pub fn uses_stdout(&self) -> bool {
        self.files
            .values()
            .flatten()
            .any(|(_, d)| *d == Target::Stdout)
    }

    /// Write the pictures of `layout`'s board, titled with --title or else `title` (e.g.
    /// `γ(8×8) = 5`).
    pub fn write(&self, layout: &Layout, title: &str) -> Result<(), Failure> {
        let board = layout.board();
        let Some(files) = self.files.get(&board) else {
            return Ok(());
        };
        let title = match &self.title {
            Some(t) => t.replace(PLACEHOLDER, &format!("{}×{}", board.rows(), board.cols())),
            None => title.to_string(),
        };
        let picture = BoardPicture::new(layout)
            .title(title)
            .coverage(self.coverage);
        for (kind, destination) in files {
            let bytes = match kind {
                Kind::Svg => picture.svg().into_bytes(),
                Kind::Png => match self.scale {
                    Some(scale) => picture.png_scaled(scale)?,
                    None => picture.png()?,
                },
                Kind::Pdf => picture.pdf()?,
            };
            write_whole_to(destination, &bytes, self.force)?;
        }
        Ok(())
    }
}
