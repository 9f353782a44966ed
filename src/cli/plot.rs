//! `queendom plot TABLE [-i TABLE] -o FILE.svg|FILE.png` and `queendom report TABLE [-i TABLE]
//! -o FILE.html`: pictures of tables written by `queendom table`.

use std::path::Path;

use queendom::destination::file::read_regular;
use queendom::picture::{read_table, svg_to_pdf, Heatmap, PlotTable, Report, Scale, Tables};
use queendom::search::Problem;

use super::destination::{check_whole, write_whole_to, Target};
use super::{usage, Failure};

const PLOT_HELP: &str = "\
Examples:
  queendom plot gamma.csv -o gamma.svg
  queendom plot gamma.csv -i i.csv --difference -o both.png
More: docs/commands.md, or `queendom manpage`.";

const REPORT_HELP: &str = "\
Example:
  queendom report gamma.csv -i i.csv -o report.html
More: docs/commands.md, or `queendom manpage`.";

/// The table files of `plot` and `report`.
#[derive(clap::Args, Debug)]
pub struct TableFiles {
    /// A table written by `queendom table` (csv, tsv or json), of γ or of i.
    #[arg(value_name = "TABLE")]
    table: String,
    /// The i table to draw beside TABLE, which must then be the γ table.
    #[arg(short = 'i', long = "independent", value_name = "TABLE")]
    independent: Option<String>,
    /// Title [default: names what is drawn].
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// The values the colours run over, palest to darkest [default: 1-18, the same in every plot].
    #[arg(long, value_name = "LO-HI", value_parser = Scale::parse)]
    range: Option<Scale>,
    /// Also draw i − γ on every board of both tables (needs -i).
    #[arg(long)]
    difference: bool,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args, Debug)]
#[command(after_long_help = PLOT_HELP)]
pub struct PlotArgs {
    #[command(flatten)]
    files: TableFiles,
    /// Output file, .svg, .png or .pdf; `-` or none means SVG on stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
}

#[derive(clap::Args, Debug)]
#[command(after_long_help = REPORT_HELP)]
pub struct ReportArgs {
    #[command(flatten)]
    files: TableFiles,
    /// Output file, .html; `-` or none means stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlotFormat {
    Svg,
    Png,
    Pdf,
}

pub fn run_plot(args: PlotArgs) -> Result<(), Failure> {
    let destination = Target::parse(args.output.as_deref());
    let format = match destination.extension().as_deref() {
        None if destination == Target::Stdout => PlotFormat::Svg,
        Some("svg") => PlotFormat::Svg,
        Some("png") => PlotFormat::Png,
        Some("pdf") => PlotFormat::Pdf,
        _ => {
            return Err(usage(format!(
                "cannot tell the picture format of {destination}: name it .svg, .png or .pdf"
            )))
        }
    };
    check_whole(&destination, args.files.force)?;
    let tables = args.files.load()?;
    let mut heatmap = Heatmap::new(&tables)
        .difference(args.files.difference)
        .map_err(usage)?;
    if let Some(scale) = args.files.range {
        heatmap = heatmap.scale(scale).map_err(usage)?;
    }
    if let Some(title) = &args.files.title {
        heatmap = heatmap.title(title.clone());
    }
    let bytes = match format {
        PlotFormat::Svg => heatmap.svg().into_bytes(),
        PlotFormat::Png => heatmap.png()?,
        PlotFormat::Pdf => svg_to_pdf(&heatmap.svg())?,
    };
    write_whole_to(&destination, &bytes, args.files.force)?;
    say_written(&destination, bytes.len());
    Ok(())
}

/// One line on stderr saying what was written where, so that a run that ends does not end
/// silently; nothing when the output went to stdout.
fn say_written(destination: &Target, bytes: usize) {
    if *destination != Target::Stdout {
        eprintln!("queendom: wrote {destination} ({bytes} bytes)");
    }
}

pub fn run_report(args: ReportArgs) -> Result<(), Failure> {
    let destination = Target::parse(args.output.as_deref());
    match destination.extension().as_deref() {
        None if destination == Target::Stdout => {}
        Some("html" | "htm") => {}
        _ => {
            return Err(usage(format!(
                "the report is an HTML page: name {destination} .html"
            )))
        }
    }
    check_whole(&destination, args.files.force)?;
    let tables = args.files.load()?;
    let mut sources = vec![args.files.table.clone()];
    sources.extend(args.files.independent.clone());
    if tables.gamma.is_none() {
        // A lone i table is listed as the only source; the order is γ, i otherwise.
        sources.truncate(1);
    }
    let mut report = Report::new(&tables)
        .sources(sources)
        .difference(args.files.difference)
        .map_err(usage)?;
    if let Some(scale) = args.files.range {
        report = report.scale(scale).map_err(usage)?;
    }
    if let Some(title) = &args.files.title {
        report = report.title(title.clone());
    }
    let html = report.html();
    write_whole_to(&destination, html.as_bytes(), args.files.force)?;
    say_written(&destination, html.len());
    Ok(())
}

impl TableFiles {
    fn load(&self) -> Result<Tables, Failure> {
        let first = load_table(&self.table)?;
        let second = match &self.independent {
            None => None,
            Some(path) => {
                if first.problem != Problem::Domination {
                    return Err(usage(format!(
                        "{} is a table of {}: with -i, TABLE must be the domination table",
                        self.table, first.problem
                    )));
                }
                let second = load_table(path)?;
                if second.problem != Problem::IndependentDomination {
                    return Err(usage(format!(
                        "{path} is a table of {}: -i takes the independent-domination table",
                        second.problem
                    )));
                }
                Some(second)
            }
        };
        Tables::new(first, second).map_err(usage)
    }
}

/// The largest table plot and report read: a table of every board to 1000×1000 in csv is about
/// 60 MB.
const MAX_PLOTTED_TABLE: u64 = 256 << 20;

fn load_table(path: &str) -> Result<PlotTable, Failure> {
    let bytes = read_regular(Path::new(path), MAX_PLOTTED_TABLE)
        .map_err(|e| usage(format!("cannot read {path}: {e}")))?;
    // An xlsx workbook (a zip archive) is a format queendom writes for spreadsheets but never
    // reads back: say so, and what to give instead, rather than "not UTF-8 text".
    if bytes.starts_with(b"PK\x03\x04") {
        return Err(usage(format!(
            "{path} is an xlsx workbook (or another zip archive): queendom writes xlsx but does not \
             read it; plot and report read the csv, tsv or json tables of `queendom table` \
             (write one with -o FILE.csv)"
        )));
    }
    read_table(&bytes).map_err(|e| usage(format!("{path}: {e}")))
}
