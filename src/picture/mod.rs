//! Pictures: a layout on its board, the heatmap of a table, and a report page with both. Each is
//! made as text (SVG, HTML) or bytes (PNG, PDF) by pure functions; reading and writing files is the
//! caller's business. PNGs are rendered in pure Rust with a font compiled into the program.

pub mod board;
pub mod classes;
pub mod heatmap;
pub mod palette;
pub mod pdf;
mod png;
pub mod report;
mod svg;
pub mod table_file;

use crate::error::{ErrorKind, Kind};
use thiserror::Error;

pub use board::{BoardPicture, ContactSheet};
pub use classes::{ClassDrawing, ClassPictures, PictureKind};
pub use heatmap::{known_lower_bound, Heatmap, HeatmapError, Tables, TablesError};
pub use palette::{Scale, ScaleError};
pub use pdf::svg_to_pdf;
pub use png::{svg_to_png, svg_to_png_scaled, MAX_PNG_SCALE, PNG_SCALE};
pub use report::Report;
pub use table_file::{read_table, Known, PlotTable, TableFileError};

/// Why a picture could not be made.
#[derive(Debug, Error)]
pub enum PictureError {
    #[error("cannot render the picture: {0}")]
    Render(String),
}

/// The id of a board's diagram on the report page, which heatmap cells link to: `board-8x8`.
pub fn board_anchor(board: crate::Board) -> String {
    format!("board-{}x{}", board.rows(), board.cols())
}

impl Kind for PictureError {
    fn kind(&self) -> ErrorKind {
        match self {
            PictureError::Render(_) => ErrorKind::Failure,
        }
    }
}
