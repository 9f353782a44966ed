//! Pictures read back: every SVG parsed as XML and counted against the layout (squares, queens,
//! covered squares, each queen's own lines), PNGs decoded and sampled, the report parsed and its
//! links followed.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use queendom::picture::{
    known_lower_bound, BoardPicture, Heatmap, HeatmapError, Known, PlotTable, Report, Scale,
    Tables, TablesError, PNG_SCALE,
};
use queendom::{solve, Board, Layout, Problem, SearchOptions, Square};
use roxmltree::{Document, Node};

fn layout(rows: usize, cols: usize, squares: &str) -> Layout {
    Layout::parse(Board::new(rows, cols).unwrap(), squares).unwrap()
}

fn optimal(rows: usize, cols: usize, problem: Problem) -> Layout {
    let board = Board::new(rows, cols).unwrap();
    solve(board, problem, &SearchOptions::sequential())
        .unwrap()
        .layout
}

/// Optimal layouts, layouts that leave squares uncovered, and no queens at all.
fn sample_layouts() -> Vec<Layout> {
    vec![
        optimal(1, 1, Problem::Domination),
        optimal(1, 7, Problem::Domination),
        optimal(3, 5, Problem::Domination),
        optimal(8, 8, Problem::Domination),
        optimal(5, 12, Problem::IndependentDomination),
        layout(6, 6, "1:1"),
        layout(32, 32, "1:1 5:9 9:17 20:20 32:32 16:3"),
        layout(17, 3, "9:2"),
        Layout::new(Board::new(2, 2).unwrap(), Vec::new()),
    ]
}

/// Whether a queen on `q` attacks `s`, from the rules alone: same row, column or diagonal.
fn attacks(q: Square, s: Square) -> bool {
    q != s && (q.row == s.row || q.col == s.col || q.row.abs_diff(s.row) == q.col.abs_diff(s.col))
}

fn has_class(node: &Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|t| t == class))
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn number(node: &Node, attribute: &str) -> f64 {
    node.attribute(attribute)
        .unwrap_or_else(|| panic!("no {attribute}"))
        .parse()
        .unwrap()
}

fn with_class_in(node: &Node, class: &str) -> usize {
    node.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .count()
}

fn texts_in(group: &Node) -> Vec<String> {
    group
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

/// The squares of a board picture, read back from their rectangles: by (row, col), their
/// classes and fill.
fn squares_of(doc: &Document) -> BTreeMap<(usize, usize), (Vec<String>, String)> {
    let rects = with_class(doc, "square");
    let cell = number(&rects[0], "width");
    let left = rects
        .iter()
        .map(|r| number(r, "x"))
        .fold(f64::MAX, f64::min);
    let top = rects
        .iter()
        .map(|r| number(r, "y"))
        .fold(f64::MAX, f64::min);
    let mut squares = BTreeMap::new();
    for r in &rects {
        assert_eq!(number(r, "width"), cell);
        assert_eq!(number(r, "height"), cell);
        let col = ((number(r, "x") - left) / cell).round() as usize;
        let row = ((number(r, "y") - top) / cell).round() as usize;
        let classes = r
            .attribute("class")
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        let fill = r.attribute("fill").unwrap().to_string();
        assert!(
            squares.insert((row, col), (classes, fill)).is_none(),
            "two rectangles on {row}:{col}"
        );
    }
    squares
}

#[test]
fn board_svg_shows_every_square_queen_and_cover() {
    for layout in sample_layouts() {
        let board = layout.board();
        let svg = BoardPicture::new(&layout).title("t").svg();
        let doc = Document::parse(&svg).unwrap_or_else(|e| panic!("{board}: {e}"));
        let squares = squares_of(&doc);
        assert_eq!(squares.len(), board.squares(), "{board}");
        assert_eq!(with_class(&doc, "queen").len(), layout.len(), "{board}");
        assert_eq!(with_class(&doc, "queen-square").len(), layout.len());

        let mut covered = 0;
        for row in 0..board.rows() {
            for col in 0..board.cols() {
                let s = Square::new(row, col);
                let (classes, _) = &squares[&(row, col)];
                let has = |c: &str| classes.iter().any(|k| k == c);
                let by: BTreeSet<usize> = layout
                    .queens()
                    .iter()
                    .enumerate()
                    .filter(|&(_, &q)| attacks(q, s))
                    .map(|(k, _)| k)
                    .collect();
                let shown: BTreeSet<usize> = classes
                    .iter()
                    .filter_map(|c| c.strip_prefix("by-q"))
                    .map(|k| k.parse().unwrap())
                    .collect();
                assert_eq!(shown, by, "{board} square {row}:{col}: covering queens");
                let expected = if layout.queens().contains(&s) {
                    "queen-square"
                } else if by.is_empty() {
                    "uncovered"
                } else {
                    covered += 1;
                    "covered"
                };
                assert!(has(expected), "{board} {row}:{col} should be {expected}");
                let parity = if (row + col) % 2 == 0 {
                    "light"
                } else {
                    "dark"
                };
                assert!(has(parity), "{board} {row}:{col} should be {parity}");
            }
        }
        assert_eq!(with_class(&doc, "covered").len(), covered, "{board}");

        // Coordinates as in the layout notation: 1..M across, 1..N down.
        let labels = |class: &str| texts_in(&with_class(&doc, class)[0]);
        let expect = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        assert_eq!(labels("column-labels"), expect(board.cols()));
        assert_eq!(labels("row-labels"), expect(board.rows()));
    }
}

#[test]
fn queens_stand_on_their_squares() {
    let layout = optimal(8, 8, Problem::Domination);
    let doc_text = BoardPicture::new(&layout).svg();
    let doc = Document::parse(&doc_text).unwrap();
    let squares = squares_of(&doc);
    let queen_squares: Vec<Square> = squares
        .iter()
        .filter(|(_, (classes, _))| classes.iter().any(|c| c == "queen-square"))
        .map(|(&(r, c), _)| Square::new(r, c))
        .collect();
    assert_eq!(queen_squares, layout.queens());
    // Each queen shape is translated into its square's rectangle.
    let rects = with_class(&doc, "queen-square");
    for (queen, rect) in with_class(&doc, "queen").iter().zip(&rects) {
        let transform = queen.attribute("transform").unwrap();
        let inner = transform
            .strip_prefix("translate(")
            .and_then(|t| t.split(')').next())
            .unwrap();
        let xy: Vec<f64> = inner.split(' ').map(|v| v.parse().unwrap()).collect();
        let (x, y, w) = (number(rect, "x"), number(rect, "y"), number(rect, "width"));
        assert!(xy[0] > x && xy[0] < x + w && xy[1] > y && xy[1] < y + w);
    }
}

#[test]
fn a_plain_board_has_two_colours_and_no_legend() {
    for layout in sample_layouts() {
        let board = layout.board();
        let svg = BoardPicture::new(&layout).svg();
        let doc = Document::parse(&svg).unwrap();
        let mut fills: HashMap<&str, BTreeSet<String>> = HashMap::new();
        for (classes, fill) in squares_of(&doc).values() {
            let parity = if classes.iter().any(|c| c == "light") {
                "light"
            } else {
                "dark"
            };
            fills.entry(parity).or_default().insert(fill.clone());
        }
        // Covered, uncovered and queen squares alike: the board's own two colours.
        assert!(fills.values().all(|f| f.len() == 1), "{board}: {fills:?}");
        if board.squares() > 1 {
            assert_ne!(fills["light"], fills["dark"], "{board}");
        }
        assert!(with_class(&doc, "legend").is_empty(), "{board}");
        assert!(with_class(&doc, "cover-counts").is_empty(), "{board}");
    }
}

#[test]
fn coverage_shows_how_many_queens_cover_each_square() {
    let mut seen_uncovered = false;
    for layout in sample_layouts() {
        let board = layout.board();
        let svg = BoardPicture::new(&layout).coverage(true).svg();
        let doc = Document::parse(&svg).unwrap();
        let squares = squares_of(&doc);
        let mut fill_of: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
        let mut counts = BTreeSet::new();
        let mut uncovered = false;
        for rect in with_class(&doc, "square") {
            let by: usize = rect.attribute("data-cover").unwrap().parse().unwrap();
            let shown = rect
                .attribute("class")
                .unwrap()
                .split_whitespace()
                .filter(|c| c.starts_with("by-q"))
                .count();
            assert_eq!(by, shown, "{board}");
            if has_class(&rect, "covered") {
                fill_of
                    .entry(by.min(7))
                    .or_default()
                    .insert(rect.attribute("fill").unwrap().to_string());
                counts.insert(by.min(7));
            }
            uncovered |= has_class(&rect, "uncovered");
        }
        // One colour per number of queens, a different one for each number.
        assert!(
            fill_of.values().all(|f| f.len() == 1),
            "{board}: {fill_of:?}"
        );
        let distinct: BTreeSet<&String> = fill_of.values().flatten().collect();
        assert_eq!(distinct.len(), fill_of.len(), "{board}");
        // The plain board colours stay for queens' squares and uncovered ones only.
        let plain = BoardPicture::new(&layout).svg();
        let plain = squares_of(&Document::parse(&plain).unwrap());
        for (at, (classes, fill)) in &squares {
            let covered = classes.iter().any(|c| c == "covered");
            assert_eq!(fill == &plain[at].1, !covered, "{board} {at:?}");
        }
        // Every square but a queen's has its number written in it.
        let written = texts_in(&with_class(&doc, "cover-counts")[0]);
        assert_eq!(written.len(), board.squares() - layout.len(), "{board}");
        // The legend lists exactly the numbers that occur, in order, and "not covered" if a
        // square is.
        let legend = with_class(&doc, "legend");
        let labels: Vec<String> = legend.first().map(texts_in).unwrap_or_default();
        let mut expected: Vec<String> = counts
            .iter()
            .map(|&n| match n {
                1 => "covered once".to_string(),
                7 => "by 7 or more".to_string(),
                n => format!("by {n} queens"),
            })
            .collect();
        if uncovered {
            expected.push("not covered".to_string());
            seen_uncovered = true;
        }
        assert_eq!(labels, expected, "{board}");
    }
    assert!(seen_uncovered);
    // Every square of a minimum layout is covered: no "not covered" in its legend, and the
    // pointing colour is none of the squares'.
    let eight = optimal(8, 8, Problem::Domination);
    let svg = BoardPicture::new(&eight).coverage(true).svg();
    assert!(!svg.contains("not covered") && svg.contains("covered once"));
    let hover = svg
        .split("fill: ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    assert!(!svg.contains(&format!("fill=\"{hover}\"")), "{hover}");
}

#[test]
fn every_board_size_stays_legible() {
    for (rows, cols) in (1..=32)
        .map(|n| (n, n))
        .chain([(1, 32), (32, 1), (2, 31), (31, 7)])
    {
        let layout = layout(rows, cols, "1:1");
        let svg = BoardPicture::new(&layout)
            .title(format!("γ({rows}×{cols}) = 1"))
            .svg();
        let doc = Document::parse(&svg).unwrap();
        let cell = number(&with_class(&doc, "square")[0], "width");
        assert!(cell >= 18.0, "{rows}x{cols}: squares of {cell} px");
        for class in ["column-labels", "row-labels"] {
            for text in with_class(&doc, class)[0]
                .children()
                .filter(|n| n.is_element())
            {
                let size = number(&text, "font-size");
                let chars = text.text().unwrap().len() as f64;
                assert!(size >= 10.0, "{rows}x{cols}: labels of {size} px");
                // DejaVu Sans digits are 0.636 em wide: a column label fits its square.
                assert!(
                    chars * 0.636 * size <= cell,
                    "{rows}x{cols}: label wider than a square"
                );
            }
        }
        let root = doc.root_element();
        let width = number(&root, "width");
        assert!(
            width <= 1300.0 && number(&root, "height") <= 1400.0,
            "{rows}x{cols}"
        );
        assert!(number(&root, "width") >= cell * cols as f64);
    }
}

/// Pixel at (x, y) of a decoded RGBA PNG.
fn pixel(data: &[u8], width: u32, x: u32, y: u32) -> [u8; 3] {
    let i = ((y * width + x) * 4) as usize;
    [data[i], data[i + 1], data[i + 2]]
}

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut data = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut data).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, data)
}

fn hex(colour: &str) -> [u8; 3] {
    let c = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

#[test]
fn board_png_is_the_svg_rendered_with_its_text() {
    let layout = layout(6, 6, "2:2 5:4");
    let picture = BoardPicture::new(&layout).title("γ(6×6) = 2?");
    let svg = picture.svg();
    let doc = Document::parse(&svg).unwrap();
    let (width, height, data) = decode(&picture.png().unwrap());
    let root = doc.root_element();
    assert_eq!(
        width,
        (number(&root, "width") * PNG_SCALE as f64).ceil() as u32
    );
    assert_eq!(
        height,
        (number(&root, "height") * PNG_SCALE as f64).ceil() as u32
    );

    // Each square's colour, a little inside its top-left corner (queens stand in the middle).
    let scale = PNG_SCALE as f64;
    for rect in with_class(&doc, "square") {
        let x = ((number(&rect, "x") + 3.0) * scale) as u32;
        let y = ((number(&rect, "y") + 3.0) * scale) as u32;
        assert_eq!(
            pixel(&data, width, x, y),
            hex(rect.attribute("fill").unwrap())
        );
    }
    // The title and the labels are drawn: dark pixels above the board, where only text is.
    let top = with_class(&doc, "square")
        .iter()
        .map(|r| number(r, "y"))
        .fold(f64::MAX, f64::min);
    let ink = (0..(top * scale) as u32 - 2)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(&data, width, x, y).iter().all(|&c| c < 120))
        .count();
    assert!(ink > 200, "only {ink} dark pixels of text");
}

#[test]
fn png_scale_and_dpi() {
    let layout = layout(5, 5, "3:3");
    let picture = BoardPicture::new(&layout).title("t");
    let svg = picture.svg();
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    for scale in [1.0f32, 1.5, 3.0] {
        let bytes = picture.png_scaled(scale).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!(
            info.width,
            (number(&root, "width") * scale as f64).ceil() as u32
        );
        assert_eq!(
            info.height,
            (number(&root, "height") * scale as f64).ceil() as u32
        );
        // 96 DPI per unit of scale, in pixels per metre: it prints at the SVG's size.
        let dims = info.pixel_dims.expect("a pHYs chunk");
        assert_eq!(dims.unit, png::Unit::Meter);
        let dpi = dims.xppu as f64 * 0.0254;
        assert!((dpi - 96.0 * scale as f64).abs() < 0.05, "{dpi}");
        assert_eq!(dims.xppu, dims.yppu);
    }
    let default = png::Decoder::new(std::io::Cursor::new(picture.png().unwrap()))
        .read_info()
        .unwrap()
        .info()
        .pixel_dims
        .unwrap();
    assert_eq!(default.xppu, 7559, "192 DPI at the default scale 2");
    for bad in [0.0, -1.0, 17.0, f32::NAN] {
        assert!(picture.png_scaled(bad).is_err(), "{bad}");
    }
}

/// γ and i tables over `rows` × `cols`, solved here.
fn tables(rows: std::ops::RangeInclusive<usize>, cols: std::ops::RangeInclusive<usize>) -> Tables {
    let table = |problem| {
        let mut layouts = BTreeMap::new();
        for r in rows.clone() {
            for c in cols.clone() {
                let board = Board::new(r, c).unwrap();
                let layout = solve(board, problem, &SearchOptions::parallel())
                    .unwrap()
                    .layout;
                layouts.insert(board, layout);
            }
        }
        PlotTable::exact(problem, layouts)
    };
    Tables::new(
        table(Problem::Domination),
        Some(table(Problem::IndependentDomination)),
    )
    .unwrap()
}

fn bound(n: usize, m: usize) -> usize {
    n.min(m)
        .min(((n + m - 2) as f64 / 4.0).ceil() as usize)
        .max(1)
}

#[test]
fn one_by_one_meets_the_bound_like_every_one_queen_board() {
    // The formula min(N, M, ⌈(N+M−2)/4⌉) is 0 on 1×1; every board needs a queen, so the bound
    // drawn is at least 1 (as the search's), and 1×1 (γ = i = 1) gets its dot as 1×2 does.
    assert_eq!(known_lower_bound(Board::new(1, 1).unwrap()), 1);
    let t = tables(1..=1, 1..=3);
    let svg = Heatmap::new(&t).svg();
    let doc = Document::parse(&svg).unwrap();
    let dots = with_class(&doc, "bound-met").len() - 1;
    assert_eq!(dots, 2 * 3, "every cell of both panels, and the legend's");
    let html = Report::new(&t).html();
    assert!(
        html.contains("3 boards, all proven; on 3 of them"),
        "the report counts 1×1 as meeting the bound"
    );
}

#[test]
fn the_marked_lower_bound_holds() {
    let published = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/domination_squares.csv"
    ))
    .unwrap();
    for line in published.lines().skip(1) {
        let v: Vec<usize> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let board = Board::new(v[0], v[1]).unwrap();
        assert_eq!(known_lower_bound(board), bound(v[0], v[1]));
        assert!(v[2] >= known_lower_bound(board), "γ({board}) = {}", v[2]);
    }
    let t = tables(1..=12, 1..=12);
    for board in t.boards() {
        let g = t.gamma.as_ref().unwrap().value(board).unwrap();
        let i = t.independent.as_ref().unwrap().value(board).unwrap();
        assert!(g >= known_lower_bound(board), "γ({board}) = {g}");
        assert!(i >= g);
    }
}

#[test]
fn heatmap_has_a_cell_per_board_and_marks_the_right_ones() {
    let both = tables(1..=7, 2..=8);
    let gamma_only = Tables::new(both.gamma.clone().unwrap(), None).unwrap();
    let i_only = Tables::new(both.independent.clone().unwrap(), None).unwrap();
    let value = |t: &Option<PlotTable>, b| t.as_ref().unwrap().value(b).unwrap();
    let odd = both
        .boards()
        .into_iter()
        .filter(|&b| value(&both.independent, b) > value(&both.gamma, b))
        .count();
    assert!(odd > 0, "4×4 and 4×5 have i > γ");

    for (tables, panels) in [(&both, 2), (&gamma_only, 1), (&i_only, 1)] {
        let svg = Heatmap::new(tables).svg();
        let doc = Document::parse(&svg).unwrap();
        assert_eq!(with_class(&doc, "panel").len(), panels);
        let cells = with_class(&doc, "cell");
        assert_eq!(cells.len(), 49 * panels);
        let mut met = 0;
        for table in tables.iter() {
            let panel = with_class(&doc, table.problem.name())[0];
            assert_eq!(texts_in(&with_class(&doc, "row-labels")[0]).len(), 7);
            for cell in panel.descendants().filter(|n| has_class(n, "cell")) {
                let board: Vec<usize> = cell
                    .attribute("data-board")
                    .unwrap()
                    .split('x')
                    .map(|v| v.parse().unwrap())
                    .collect();
                let board = Board::new(board[0], board[1]).unwrap();
                let shown: usize = cell.attribute("data-value").unwrap().parse().unwrap();
                assert_eq!(Some(shown), table.value(board));
                // The number is written in the cell, centred on it.
                let x = number(&cell, "x") + number(&cell, "width") / 2.0;
                let written = panel
                    .descendants()
                    .filter(|n| n.has_tag_name("text"))
                    .any(|t| {
                        (number(&t, "x") - x).abs() < 0.01
                            && number(&t, "y") > number(&cell, "y")
                            && number(&t, "y") < number(&cell, "y") + number(&cell, "height")
                            && t.text() == Some(shown.to_string().as_str())
                    });
                assert!(written, "{board}: value not written");
                if shown == bound(board.rows(), board.cols()) {
                    met += 1;
                }
            }
        }
        assert_eq!(
            with_class(&doc, "bound-met").len() - 1,
            met,
            "dots (and the legend's)"
        );
        let frames = with_class(&doc, "i-above-gamma").len();
        if panels == 2 {
            assert_eq!(
                frames,
                2 * odd + 1,
                "a frame per odd cell in each panel, and the legend's"
            );
        } else {
            assert_eq!(frames, 0);
        }
    }
}

#[test]
fn heatmap_shows_missing_boards_and_renders() {
    let mut gamma = tables(2..=4, 2..=5).gamma.unwrap();
    gamma.layouts.remove(&Board::new(3, 4).unwrap());
    let tables = Tables::new(gamma, None).unwrap();
    let picture = Heatmap::new(&tables).title("three by four is missing");
    let svg = picture.svg();
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(with_class(&doc, "missing").len(), 1);
    assert_eq!(with_class(&doc, "cell").len(), 12);
    assert!(svg.contains("<title>three by four is missing</title>"));
    let (width, height, _) = decode(&picture.png().unwrap());
    let root = doc.root_element();
    assert_eq!(
        width,
        (number(&root, "width") * PNG_SCALE as f64).ceil() as u32
    );
    assert_eq!(
        height,
        (number(&root, "height") * PNG_SCALE as f64).ceil() as u32
    );
}

#[test]
fn tables_pair_up_only_as_gamma_and_i() {
    let t = tables(2..=3, 2..=3);
    let gamma = t.gamma.clone().unwrap();
    assert_eq!(
        Tables::new(gamma.clone(), Some(gamma.clone())),
        Err(TablesError::SameProblem(Problem::Domination))
    );
    // A γ "table" whose 3×3 layout is not minimal: i = 1 < 2 cannot be.
    let mut padded = gamma.clone();
    let board = Board::new(3, 3).unwrap();
    padded.layouts.insert(board, layout(3, 3, "1:1 2:2"));
    let i = t.independent.clone().unwrap();
    assert!(matches!(
        Tables::new(i, Some(padded)),
        Err(TablesError::IndependentBelowGamma {
            gamma: 2,
            independent: 1,
            ..
        })
    ));
}

#[test]
fn report_is_one_parsable_page_with_a_diagram_per_board() {
    let both = tables(1..=6, 1..=6);
    let gamma_only = Tables::new(both.gamma.clone().unwrap(), None).unwrap();
    for (tables, per_board) in [(&both, 2), (&gamma_only, 1)] {
        let html = Report::new(tables)
            .sources(vec!["g.csv".into(), "i & <j>.csv".into()])
            .html();
        assert!(html.starts_with("<!DOCTYPE html>"));
        // `<!DOCTYPE html>` is a document type declaration with nothing in it.
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        };
        let doc = Document::parse_with_options(&html, options).unwrap();
        let boards = tables.boards().len();
        let details: Vec<Node> = doc
            .descendants()
            .filter(|n| n.has_tag_name("details"))
            .collect();
        assert_eq!(details.len(), boards);
        for d in &details {
            assert_eq!(with_class_in(d, "diagram"), per_board);
            assert!(d.children().any(|n| n.has_tag_name("summary")));
        }
        assert_eq!(with_class(&doc, "diagram").len(), boards * per_board);
        let queens: usize = tables
            .iter()
            .map(|t| t.layouts.values().map(Layout::len).sum::<usize>())
            .sum();
        assert_eq!(
            with_class(&doc, "q").len(),
            queens,
            "a queen drawn per queen"
        );

        // Every link lands on an element of the page; every board's diagrams are linked; every
        // shared piece a diagram uses is on the page.
        let ids: BTreeSet<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("id"))
            .collect();
        let links: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("a"))
            .map(|n| n.attribute("href").unwrap())
            .collect();
        assert!(links.len() >= boards);
        let paints: Vec<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("fill"))
            .filter_map(|f| f.strip_prefix("url(")?.strip_suffix(')'))
            .collect();
        assert!(paints.len() >= boards * per_board * 4);
        for link in links.iter().chain(&paints) {
            let id = link.strip_prefix('#').expect("only links within the page");
            assert!(ids.contains(id), "{link} leads nowhere");
        }
        // Nothing is fetched: the only url() are references to the page's own patterns.
        assert!(!html.contains("<script") && !html.contains("src="));
        assert_eq!(html.matches("url(").count(), html.matches("url(#").count());
        assert!(html.contains("i &amp; &lt;j&gt;.csv") || per_board == 1);
    }
}

#[test]
fn wide_tables_are_stacked_and_square_ones_side_by_side() {
    for (rows, stacked) in [(1..=2, true), (1..=6, false)] {
        let tables = tables(rows, 1..=6);
        let svg = Heatmap::new(&tables).svg();
        let doc = Document::parse(&svg).unwrap();
        let cells = |problem: Problem| {
            let panel = with_class(&doc, problem.name())[0];
            panel
                .descendants()
                .filter(|n| has_class(n, "cell"))
                .map(|c| (number(&c, "x"), number(&c, "y")))
                .collect::<Vec<_>>()
        };
        let gamma = cells(Problem::Domination);
        let independent = cells(Problem::IndependentDomination);
        let below = independent.iter().all(|i| gamma.iter().all(|g| i.1 > g.1));
        let beside = independent.iter().all(|i| gamma.iter().all(|g| i.0 > g.0));
        assert_eq!((below, beside), (stacked, !stacked));
    }
}

/// The fill of every value cell of a panel, by value.
fn fills(svg: &str, problem: &str) -> BTreeMap<usize, BTreeSet<String>> {
    let doc = Document::parse(svg).unwrap();
    let panel = with_class(&doc, problem)[0];
    let mut fills: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for cell in panel.descendants().filter(|n| has_class(n, "cell")) {
        if let Some(value) = cell.attribute("data-value") {
            fills
                .entry(value.parse().unwrap())
                .or_default()
                .insert(cell.attribute("fill").unwrap().to_string());
        }
    }
    fills
}

#[test]
fn a_value_has_one_colour_in_plots_of_different_extents() {
    let small = tables(1..=3, 1..=4);
    let large = tables(1..=8, 2..=9);
    let (a, b) = (Heatmap::new(&small).svg(), Heatmap::new(&large).svg());
    for problem in ["domination", "independent-domination"] {
        let (a, b) = (fills(&a, problem), fills(&b, problem));
        assert!(a.keys().max() < b.keys().max(), "the extents differ");
        let mut shared = 0;
        for (value, fill) in &a {
            assert_eq!(fill.len(), 1, "{value} has one colour");
            if let Some(other) = b.get(value) {
                assert_eq!(
                    fill, other,
                    "{problem}: {value} has one colour in both plots"
                );
                shared += 1;
            }
        }
        assert!(shared >= 2, "{problem}: {a:?} {b:?}");
    }
    // One explicit range: the same again, with the colours spread over it.
    let range = Scale::new(1, 6).unwrap();
    let a = Heatmap::new(&small).scale(range).unwrap().svg();
    let b = Heatmap::new(&large).scale(range).unwrap().svg();
    let (fa, fb) = (fills(&a, "domination"), fills(&b, "domination"));
    assert_eq!(fa[&2], fb[&2]);
    assert_ne!(fa[&2], fills(&Heatmap::new(&small).svg(), "domination")[&2]);
    // A range must hold every value.
    let narrow = Scale::new(3, 6).unwrap();
    assert!(matches!(
        Heatmap::new(&small).scale(narrow),
        Err(HeatmapError::OutsideScale { value: 1, .. })
    ));
}

#[test]
fn panels_of_different_extents_share_the_larger_one() {
    let big = tables(1..=6, 1..=6);
    let small = tables(2..=4, 1..=4);
    let t = Tables::new(big.gamma.clone().unwrap(), small.independent.clone()).unwrap();
    let svg = Heatmap::new(&t).svg();
    let doc = Document::parse(&svg).unwrap();
    for (problem, boards) in [("domination", 36), ("independent-domination", 12)] {
        let panel = with_class(&doc, problem)[0];
        assert_eq!(
            with_class_in(&panel, "cell"),
            36,
            "{problem}: all 6×6 cells"
        );
        assert_eq!(with_class_in(&panel, "missing"), 36 - boards, "{problem}");
        let texts = texts_in(&panel);
        let name = format!("· {boards} boards");
        assert!(
            texts.iter().any(|t| t.ends_with(&name)),
            "{problem}: its own count in {texts:?}"
        );
        assert_eq!(
            texts_in(&with_class_in_first(&panel, "row-labels")).len(),
            6
        );
    }
    assert!(svg.contains("not computed"));
    // Cells of one board line up across the panels: the same row, or the same column.
    let cell = |problem: &str, board: &str| {
        let panel = with_class(&doc, problem)[0];
        let c = panel
            .descendants()
            .find(|n| has_class(n, "cell") && n.attribute("data-board") == Some(board))
            .unwrap();
        (number(&c, "x"), number(&c, "y"))
    };
    let (g, i) = (
        cell("domination", "6x6"),
        cell("independent-domination", "6x6"),
    );
    assert!(g.0 == i.0 || g.1 == i.1);
}

fn with_class_in_first<'a, 'i>(node: &Node<'a, 'i>, class: &str) -> Node<'a, 'i> {
    node.descendants()
        .find(|n| n.is_element() && has_class(n, class))
        .unwrap()
}

#[test]
fn the_difference_panel_shows_i_minus_gamma() {
    let t = tables(1..=6, 1..=7);
    let svg = Heatmap::new(&t).difference(true).unwrap().svg();
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(with_class(&doc, "panel").len(), 3);
    let panel = with_class(&doc, "difference")[0];
    let mut odd = 0;
    for cell in panel.descendants().filter(|n| has_class(n, "cell")) {
        let board: Vec<usize> = cell
            .attribute("data-board")
            .unwrap()
            .split('x')
            .map(|v| v.parse().unwrap())
            .collect();
        let board = Board::new(board[0], board[1]).unwrap();
        let shown: usize = cell.attribute("data-value").unwrap().parse().unwrap();
        assert_eq!(Some(Known::exact(shown)), t.difference(board));
        odd += usize::from(shown > 0);
    }
    assert_eq!(odd, 5, "4×4, 4×5, 5×4, 5×7, 6×6");
    let gamma = Tables::new(t.gamma.clone().unwrap(), None).unwrap();
    assert!(matches!(
        Heatmap::new(&gamma).difference(true),
        Err(HeatmapError::DifferenceNeedsBoth)
    ));
}

/// Every board to 32×32, both problems, a queen on every row (or column) of the shorter side:
/// more queens than any optimum, so a bound on this page holds for the real one.
fn full_tables() -> Tables {
    let table = |problem| {
        let mut layouts = BTreeMap::new();
        for n in 1..=32 {
            for m in 1..=32 {
                let board = Board::new(n, m).unwrap();
                let queens = (0..n.min(m))
                    .map(|k| {
                        if n <= m {
                            Square::new(k, 0)
                        } else {
                            Square::new(0, k)
                        }
                    })
                    .collect();
                layouts.insert(board, Layout::new(board, queens));
            }
        }
        PlotTable::exact(problem, layouts)
    };
    Tables::new(
        table(Problem::Domination),
        Some(table(Problem::IndependentDomination)),
    )
    .unwrap()
}

#[test]
fn the_report_of_every_board_to_32_stays_small() {
    let t = full_tables();
    let html = Report::new(&t).html();
    let elements = html.matches('<').count() - html.matches("</").count();
    assert!(
        html.len() < 10_000_000 && elements < 150_000,
        "{} bytes, {elements} elements",
        html.len()
    );
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::MAX,
        ..Default::default()
    };
    let doc = Document::parse_with_options(&html, options).unwrap();
    assert_eq!(with_class(&doc, "diagram").len(), 2 * 1024);
}

#[test]
fn the_report_prints_whole_pictures_and_open_boards() {
    let html = Report::new(&tables(1..=3, 1..=3)).html();
    let print = &html[html.find("@media print").expect("a print stylesheet")..];
    assert!(print.contains("details::details-content"));
    assert!(html.contains("svg { max-width: 100%; height: auto; }"));
    // Each picture can be scaled: it has a viewBox.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = Document::parse_with_options(&html, options).unwrap();
    for svg in doc.descendants().filter(|n| {
        n.has_tag_name("svg")
            && (has_class(n, "diagram") || n.parent().is_some_and(|p| has_class(&p, "heatmap")))
    }) {
        assert!(svg.attribute("viewBox").is_some());
    }
}

/// The cell of `board` in `panel` (its `<rect class="cell">`).
fn cell_of<'a, 'i>(panel: &Node<'a, 'i>, board: Board) -> Node<'a, 'i> {
    let name = format!("{}x{}", board.rows(), board.cols());
    panel
        .descendants()
        .find(|n| has_class(n, "cell") && n.attribute("data-board") == Some(name.as_str()))
        .unwrap_or_else(|| panic!("no cell of {name}"))
}

/// A table with bounds (issue 48): γ(6×6) = 3, given only as 2–3 (its optimal layout with a
/// loose lower bound, as a budget too short to refute 2 queens would leave it).
#[test]
fn bounded_cells_show_their_bounds_hatched_and_without_the_bound_dot() {
    let exact = tables(1..=6, 1..=7);
    let board = Board::new(6, 6).unwrap();
    assert_eq!(exact.gamma.as_ref().unwrap().value(board), Some(3));
    assert_eq!(bound(6, 6), 3, "proven, the cell would carry the dot");
    let mut gamma = exact.gamma.clone().unwrap();
    gamma.lower_bounds.insert(board, 2);
    let bounded = Tables::new(gamma, exact.independent.clone()).unwrap();

    let dots = |t: &Tables| {
        let svg = Heatmap::new(t).svg();
        let doc = Document::parse(&svg).unwrap();
        with_class(&doc, "bound-met").len()
    };
    assert_eq!(
        dots(&bounded),
        dots(&exact) - 1,
        "no dot on the bounded cell"
    );

    let svg = Heatmap::new(&bounded).difference(true).unwrap().svg();
    let doc = Document::parse(&svg).unwrap();
    let panel = with_class(&doc, "domination")[0];
    let cell = cell_of(&panel, board);
    assert!(has_class(&cell, "bounds"));
    assert_eq!(cell.attribute("data-value"), None);
    assert_eq!(number(&cell, "data-lower"), 2.0);
    assert_eq!(number(&cell, "data-upper"), 3.0);
    // The lower bound's colour, as a proven 2 has.
    assert_eq!(
        cell.attribute("fill"),
        Some(Scale::DEFAULT.colour(2).hex().as_str())
    );
    assert_eq!(with_class_in(&panel, "hatch"), 1);
    assert_eq!(with_class_in(&panel, "bounds"), 1);
    assert!(texts_in(&panel).contains(&"2–3".to_string()));
    // i(6×6) = 4 and γ(6×6) in 2–3: i − γ in 1–2, and i > γ is still proven.
    assert!(bounded.independent_above_gamma(board));
    let difference = with_class(&doc, "difference")[0];
    let cell = cell_of(&difference, board);
    assert!(has_class(&cell, "bounds"));
    assert!(texts_in(&difference).contains(&"1–2".to_string()));
    assert_eq!(
        with_class_in(&with_class(&doc, "independent-domination")[0], "hatch"),
        0
    );
    // The legend explains the hatch, once.
    let legend = with_class(&doc, "legend")[0];
    assert_eq!(with_class_in(&legend, "hatch"), 1);
    assert!(texts_in(&legend)
        .iter()
        .any(|t| t.starts_with("bounds: lower–upper, not proven")));
    // An exact table has no hatch and no such legend entry.
    let svg = Heatmap::new(&exact).svg();
    assert!(!svg.contains("hatch") && !svg.contains("not proven"));
    assert!(Heatmap::new(&bounded).png().is_ok());

    let html = Report::new(&bounded).html();
    assert!(
        html.contains("6×6 · γ bounds 2–3 (layout of 3) · i = 4"),
        "summary"
    );
    assert!(
        html.contains("γ(6×6) bounds 2–3 (layout of 3)"),
        "diagram title"
    );
    assert!(html.contains("42 boards, 41 proven and 1 with bounds only"));
    assert!(!Report::new(&exact).html().contains("with bounds, such as"));
}
