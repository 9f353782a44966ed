//! The pictures of `count --classes`: one per class of minimum layouts, and a contact sheet of
//! them all, with their file names. The command line checks the names and writes the files.

use super::{BoardPicture, ContactSheet, PictureError};
use crate::board::Board;
use crate::layout::Layout;
use crate::problem::Problem;

/// A picture file's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PictureKind {
    Svg,
    Png,
    Pdf,
}

impl PictureKind {
    pub fn extension(self) -> &'static str {
        match self {
            PictureKind::Svg => "svg",
            PictureKind::Png => "png",
            PictureKind::Pdf => "pdf",
        }
    }
}

/// What one file holds: class K's picture, or the contact sheet of them all.
#[derive(Debug, Clone, Copy)]
pub enum ClassDrawing {
    Class(usize),
    Sheet,
}

/// The classes of a board's minimum layouts, to draw.
pub struct ClassPictures<'a> {
    pub board: Board,
    pub problem: Problem,
    /// Each class's canonical layout and its size, in the order `count --classes` prints them.
    pub classes: &'a [(Layout, usize)],
    pub queens: usize,
    /// Shade the squares by how many queens cover them.
    pub coverage: bool,
}

impl ClassPictures<'_> {
    /// The files of one kind, in the order they are written: `BOARD-PROBLEM-class-K.EXT` for
    /// every class (K from 1, zero-padded), then `BOARD-PROBLEM-classes.EXT`, the contact sheet
    /// (SVG and PDF only).
    pub fn files(&self, kind: PictureKind) -> Vec<(String, ClassDrawing)> {
        let (board, name, ext) = (self.board, self.problem.name(), kind.extension());
        let digits = self.classes.len().to_string().len();
        let mut files: Vec<(String, ClassDrawing)> = (0..self.classes.len())
            .map(|k| {
                let file = format!("{board}-{name}-class-{:0digits$}.{ext}", k + 1);
                (file, ClassDrawing::Class(k))
            })
            .collect();
        if kind != PictureKind::Png {
            files.push((format!("{board}-{name}-classes.{ext}"), ClassDrawing::Sheet));
        }
        files
    }

    /// The bytes of one file.
    pub fn draw(&self, kind: PictureKind, drawing: ClassDrawing) -> Result<Vec<u8>, PictureError> {
        let (classes, queens, symbol) = (self.classes, self.queens, self.problem.symbol());
        let board_name = format!("{}×{}", self.board.rows(), self.board.cols());
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match drawing {
            ClassDrawing::Class(k) => {
                let (layout, size) = &classes[k];
                let title = format!(
                    "{symbol}({board_name}) = {queens}: class {} of {}, {size} layout{}",
                    k + 1,
                    classes.len(),
                    plural(*size)
                );
                let picture = BoardPicture::new(layout)
                    .title(title)
                    .coverage(self.coverage);
                match kind {
                    PictureKind::Svg => Ok(picture.svg().into_bytes()),
                    PictureKind::Png => picture.png(),
                    PictureKind::Pdf => picture.pdf(),
                }
            }
            ClassDrawing::Sheet => {
                let layouts: usize = classes.iter().map(|(_, size)| size).sum();
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
                    PictureKind::Pdf => sheet.pdf(),
                    _ => Ok(sheet.svg().into_bytes()),
                }
            }
        }
    }
}
