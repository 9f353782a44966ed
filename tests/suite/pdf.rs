//! PDF files read back: the structure parsed by hand (header, every cross-reference offset landing
//! on its object, stream lengths, the trailer), the content streams inflated and searched for the
//! picture's text, and, where poppler's `pdfinfo`/`pdftotext` are installed, opened by a real
//! reader.

use std::io::Read;
use std::process::Command;

use queendom::picture::pdf::{document, Align, Page};
use queendom::picture::{svg_to_pdf, BoardPicture, ContactSheet};
use queendom::{Board, Layout};

/// Check `pdf`'s structure and return its pages' content streams, inflated.
pub fn check_pdf(pdf: &[u8]) -> Vec<String> {
    assert!(pdf.starts_with(b"%PDF-1.4\n"), "header");
    assert!(pdf.ends_with(b"%%EOF\n"), "trailer end");
    let text = String::from_utf8_lossy(pdf);
    let tail = &text[text.rfind("startxref").expect("startxref")..];
    let xref: usize = tail.lines().nth(1).unwrap().trim().parse().unwrap();
    assert!(
        pdf[xref..].starts_with(b"xref\n"),
        "startxref points at the table"
    );
    let table = std::str::from_utf8(&pdf[xref..]).expect("the table and trailer are ASCII");
    let mut lines = table.lines().skip(1);
    let header: Vec<usize> = lines
        .next()
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(header[0], 0);
    let count = header[1];
    let entries: Vec<&str> = lines.by_ref().take(count).collect();
    assert_eq!(entries[0], "0000000000 65535 f ");
    // Every entry is exactly 20 bytes with its end of line.
    assert!(table.split('\n').skip(2).take(count).all(|e| e.len() == 19));
    for (i, entry) in entries.iter().enumerate().skip(1) {
        let (offset, rest) = entry.split_once(' ').unwrap();
        assert_eq!(rest, "00000 n ", "entry {i}");
        let offset: usize = offset.parse().unwrap();
        let object = format!("{i} 0 obj\n");
        assert!(
            pdf[offset..].starts_with(object.as_bytes()),
            "entry {i} points at {:?}",
            String::from_utf8_lossy(&pdf[offset..(offset + 20).min(pdf.len())])
        );
    }
    let trailer = lines.collect::<Vec<_>>().join("\n");
    assert!(
        trailer.contains(&format!("/Size {count} ")),
        "trailer: {trailer}"
    );
    assert!(trailer.contains("/Root 1 0 R"));

    // Each stream is as long as its dictionary says, and inflates.
    let mut contents = Vec::new();
    let mut at = 0;
    while let Some(found) = find(&pdf[at..], b"stream\n") {
        let start = at + found + b"stream\n".len();
        if pdf[..start].ends_with(b"endstream\n") {
            at = start;
            continue;
        }
        let dictionary = String::from_utf8_lossy(&pdf[..at + found]);
        let dictionary = &dictionary[dictionary.rfind("<<").unwrap()..];
        let length: usize = dictionary
            .split("/Length ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            pdf[start + length..].starts_with(b"\nendstream"),
            "a stream's /Length"
        );
        let mut inflated = String::new();
        flate2::read::ZlibDecoder::new(&pdf[start..start + length])
            .read_to_string(&mut inflated)
            .unwrap();
        contents.push(inflated);
        at = start + length;
    }
    let pages = text.matches("/Type /Page ").count();
    assert_eq!(contents.len(), pages, "a content stream per page");
    contents
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether poppler's command-line tools are here (Debian: poppler-utils).
pub fn poppler() -> bool {
    Command::new("pdftotext")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What `pdftotext` reads from `pdf`, and that `pdfinfo` opens it without complaint.
pub fn poppler_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.pdf");
    std::fs::write(&path, pdf).unwrap();
    let info = Command::new("pdfinfo").arg(&path).output().unwrap();
    assert!(info.status.success());
    assert!(
        info.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
    let out = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    String::from_utf8(out.stdout).unwrap()
}

fn layout(rows: usize, cols: usize, squares: &str) -> Layout {
    Layout::parse(Board::new(rows, cols).unwrap(), squares).unwrap()
}

#[test]
fn a_board_is_a_well_formed_one_page_pdf_with_its_text() {
    let layout = layout(8, 8, "1:2 2:7 4:4 5:3 6:5");
    for coverage in [false, true] {
        let picture = BoardPicture::new(&layout)
            .title("γ(8×8) = 5 (a & b)")
            .coverage(coverage);
        let pdf = picture.pdf().unwrap();
        let contents = check_pdf(&pdf);
        assert_eq!(contents.len(), 1);
        let page = &contents[0];
        // γ from Symbol, the rest from Helvetica with × in WinAnsi and brackets escaped.
        assert!(
            page.contains("/F3 18 Tf (g) Tj /F1 18 Tf (\\(8\\3278\\) = 5 \\(a & b\\)) Tj"),
            "{page}"
        );
        // 64 squares, and the white background, as filled paths.
        assert!(page.matches("\nf\n").count() >= 65, "{page}");
        // Five queens, filled and stroked (and with coverage, the legend's swatches too).
        let outlined = page.matches("\nB\n").count();
        assert_eq!(outlined, if coverage { 5 + 4 } else { 5 }, "{page}");
        // The page is the SVG's size in points.
        let svg = picture.svg();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let size = |a| {
            doc.root_element()
                .attribute(a)
                .unwrap()
                .parse::<f64>()
                .unwrap()
                * 0.75
        };
        let media = format!("/MediaBox [0 0 {} {}]", size("width"), size("height"));
        assert!(String::from_utf8_lossy(&pdf).contains(&media), "{media}");
        if poppler() {
            let text = poppler_text(&pdf);
            assert!(text.contains("γ(8×8) = 5 (a & b)"), "{text}");
            for label in 1..=8 {
                assert!(text.contains(&label.to_string()));
            }
            if coverage {
                // Square 1:1 is covered by two queens; the counts are text too.
                assert!(text.matches('2').count() > 10, "{text}");
            }
        }
    }
}

#[test]
fn circles_are_four_bezier_arcs_and_pages_are_many() {
    let mut first = Page::new(100.0, 50.0);
    first.circle(50.0, 25.0, 10.0);
    first.paint(Some(((255, 0, 0), false)), None);
    first.text(50.0, 40.0, 10.0, Align::Middle, (0, 0, 0), true, "⌈x⌉ ≥ −1");
    let mut second = Page::new(20.0, 20.0);
    second.rect(1.0, 1.0, 18.0, 18.0);
    second.paint(None, Some(((0, 0, 0), 1.0, false)));
    let pdf = document(&[first, second], "two pages");
    let contents = check_pdf(&pdf);
    assert_eq!(contents.len(), 2);
    assert_eq!(contents[0].matches(" c\n").count(), 4);
    assert!(contents[0].contains("60 25 m\n60 30.523 55.523 35 50 35 c"));
    assert!(contents[0].contains("/F2 10 Tf ([x] ) Tj /F3 10 Tf (\\263) Tj /F2 10 Tf ( ) Tj"));
    assert!(contents[1].contains("1 1 18 18 re\n0 0 0 RG 1 w 0 j\nS"));
    assert!(String::from_utf8_lossy(&pdf).contains("/Count 2"));
    if poppler() {
        let text = poppler_text(&pdf);
        assert_eq!(text.matches('\u{c}').count(), 2, "two pages: {text:?}");
    }
}

#[test]
fn any_picture_svg_converts_and_a_contact_sheet_holds_every_board() {
    let layouts: Vec<Layout> = ["1:1 3:3", "2:2", "1:3 3:1"]
        .iter()
        .map(|s| layout(3, 3, s))
        .collect();
    let sheet = ContactSheet::new(
        "three",
        layouts
            .iter()
            .enumerate()
            .map(|(k, l)| (l, format!("class {}", k + 1)))
            .collect(),
    );
    let pdf = sheet.pdf().unwrap();
    let contents = check_pdf(&pdf);
    assert_eq!(contents[0].matches("\nB\n").count(), 5, "five queens");
    assert_eq!(svg_to_pdf(&sheet.svg()).unwrap(), pdf);
    if poppler() {
        let text = poppler_text(&pdf);
        for caption in ["three", "class 1", "class 2", "class 3"] {
            assert!(text.contains(caption), "{text}");
        }
    }
    assert!(svg_to_pdf("<svg").is_err());
}
