#!/usr/bin/env bash
# Look at queendom's pictures the way a person would: draw a board (SVG, PNG and PDF, plain and
# with --coverage), a contact sheet of classes, the heatmap of the 1-10 γ and i tables, and the
# report page, then photograph them in a real browser (Debian's chromium, headless; installed if
# missing) and check that a link to a board opens its diagram. The PDFs are checked and rendered
# with poppler (pdfinfo, pdftoppm; Debian's poppler-utils, installed if missing).
#
# usage: scripts/screenshots.sh [--readme] [OUT_DIR (default target/screenshots)]
#   --readme  also refresh the two small screenshots the README shows (scripts/screenshots/)
set -euo pipefail
cd "$(dirname "$0")/.."
readme=false
if [ "${1:-}" = "--readme" ]; then
    readme=true
    shift
fi
out=$(realpath -m "${1:-target/screenshots}")
mkdir -p "$out"

if ! command -v chromium >/dev/null || ! command -v pdftotext >/dev/null; then
    echo "installing Debian's chromium and poppler-utils" >&2
    apt-get install -y chromium poppler-utils >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y chromium poppler-utils >/dev/null; }
fi
if ! command -v pdftoppm >/dev/null; then
    echo "installing Debian's poppler-utils" >&2
    apt-get install -y poppler-utils >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y poppler-utils >/dev/null; }
fi
cargo build --release --quiet
bin=$(realpath target/release/queendom)

work=$(mktemp -d)
profile=$(mktemp -d)
trap 'rm -rf "$work" "$profile"' EXIT
cd "$work"
"$bin" solve 8x8 --svg board-8x8.svg --png board-8x8.png --pdf board-8x8.pdf >/dev/null
"$bin" solve 8x8 --coverage --svg coverage-8x8.svg --png coverage-8x8.png --pdf coverage-8x8.pdf >/dev/null
"$bin" count 6x6 --classes --svg classes --pdf classes >/dev/null
"$bin" solve 5x32 --svg board-5x32.svg >/dev/null
"$bin" table --rows 1-10 --cols 1-10 -o gamma.csv 2>/dev/null
"$bin" table --rows 1-10 --cols 1-10 -i -o indep.csv 2>/dev/null
"$bin" plot gamma.csv -i indep.csv -o heatmap.svg
"$bin" plot gamma.csv -i indep.csv -o heatmap.png
"$bin" plot gamma.csv -i indep.csv -o heatmap.pdf
"$bin" report gamma.csv -i indep.csv -o report.html

browser() {
    # No network, no first-run work, a throw-away profile; the Debian wrapper's chatter and
    # headless warnings go nowhere.
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --user-data-dir="$profile" --virtual-time-budget=3000 "$@" 2>/dev/null
}

# The SVG's own size, "W,H", for a window that fits it exactly.
svg_size() {
    head -1 "$1" | sed -E 's/.* width="([0-9.]+)" height="([0-9.]+)".*/\1 \2/' |
        awk '{ printf "%d,%d", $1 + 0.999, $2 + 0.999 }'
}

shot() { # name window url
    browser --screenshot="$out/$1" --window-size="$2" "$3" >/dev/null
    echo "$out/$1"
}
shot board-8x8.chromium.png "$(svg_size board-8x8.svg)" "file://$work/board-8x8.svg"
shot board-5x32.chromium.png "$(svg_size board-5x32.svg)" "file://$work/board-5x32.svg"
shot coverage-8x8.chromium.png "$(svg_size coverage-8x8.svg)" "file://$work/coverage-8x8.svg"
shot classes-6x6.chromium.png "$(svg_size classes/6x6-domination-classes.svg)" \
    "file://$work/classes/6x6-domination-classes.svg"
shot heatmap.chromium.png "$(svg_size heatmap.svg)" "file://$work/heatmap.svg"
shot report-top.chromium.png 1100,1000 "file://$work/report.html"
# Headless screenshots of a scrolled page come out blank, so the window is as tall as the page
# down to the opened board.
shot report-8x8-open.chromium.png 1100,2600 "file://$work/report.html#board-8x8"
# Pointing at a queen paints the squares it covers; a screenshot cannot point, so the first
# queen is given the hover state's effect by a class.
sed 's/:hover)/.pointed)/g; s/class="queen q0"/class="queen q0 pointed"/' board-8x8.svg >pointed.svg
shot board-8x8-first-queen-pointed.chromium.png "$(svg_size pointed.svg)" "file://$work/pointed.svg"
# Every PDF opens in poppler without a complaint, and is rendered at 96 DPI (its SVG's size).
for pdf in board-8x8 coverage-8x8 heatmap classes/6x6-domination-classes; do
    if [ -n "$(pdfinfo "$pdf.pdf" 2>&1 >/dev/null)" ]; then
        echo "pdfinfo complains about $pdf.pdf" >&2
        exit 1
    fi
    name=$(basename "$pdf")
    pdftoppm -png -r 96 -singlefile "$pdf.pdf" "$out/$name.poppler"
    echo "$out/$name.poppler.png"
done
cp board-8x8.png "$out/board-8x8.resvg.png"
cp heatmap.png "$out/heatmap.resvg.png"
echo "$out/board-8x8.resvg.png"
echo "$out/heatmap.resvg.png"

# A link to a board's diagrams opens its <details> (browsers expand one whose content is the
# link's target); nothing else is open.
open=$(browser --dump-dom "file://$work/report.html#board-8x8" | grep -o '<details[^>]*>' | grep -c 'open' || true)
closed=$(browser --dump-dom "file://$work/report.html" | grep -o '<details[^>]*>' | grep -c 'open' || true)
if [ "$open" != 1 ] || [ "$closed" != 0 ]; then
    echo "report.html#board-8x8 opened $open diagrams (expected 1), report.html $closed (expected 0)" >&2
    exit 1
fi
echo "report.html#board-8x8 opens exactly the 8x8 diagrams"

# Printed, the report fits the paper. Chromium leaves out of the PDF whatever is cut off at the
# page's edge, so the check is that the right end of the heatmap made it: the labels "10" of the
# last row and the last column of both panels are words of the first page, and no word lies beyond
# the page's width. And every board prints open: a "layout:" caption per diagram (100 boards, γ
# and i).
browser --print-to-pdf="$out/report.pdf" --no-pdf-header-footer "file://$work/report.html" >/dev/null
pdftotext -bbox -f 1 -l 1 "$out/report.pdf" "$work/report-words.html"
beyond=$(awk -F'"' '/<page / { width = $2 } /<word / { if ($6 + 0 > width + 0.5) n++ } END { print n + 0 }' "$work/report-words.html")
tens=$(grep -c '>10</word>' "$work/report-words.html" || true)
captions=$(pdftotext "$out/report.pdf" - | grep -c '^layout:' || true)
pages=$(pdfinfo "$out/report.pdf" | awk '/^Pages:/ { print $2 }')
if [ "$beyond" != 0 ] || [ "$tens" -lt 4 ] || [ "$captions" != 200 ]; then
    echo "report.pdf: $beyond words beyond the page's width (expected 0), $tens labels 10 on page 1" \
        "(expected 4 or more), $captions diagrams (expected 200)" >&2
    exit 1
fi
echo "$out/report.pdf: $pages pages, the whole heatmap on the first, all 200 diagrams printed"

if $readme; then
    cd - >/dev/null
    mkdir -p scripts/screenshots
    cp "$out/board-8x8.chromium.png" scripts/screenshots/board-8x8.png
    cp "$out/coverage-8x8.chromium.png" scripts/screenshots/coverage-8x8.png
    # The top of the report: title, facts and the heatmap, cut to what the README needs.
    browser --screenshot=scripts/screenshots/report.png --window-size=1100,860 \
        "file://$work/report.html" >/dev/null
    ls -l scripts/screenshots/
fi
