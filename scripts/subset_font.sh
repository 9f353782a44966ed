#!/usr/bin/env bash
# Rebuild assets/fonts/DejaVuSans-subset.ttf, the one font queendom's PNG pictures are drawn with
# (embedded in the binary, so that PNGs look the same on every machine, with or without fonts).
# Needs Debian's fonts-dejavu-core and fonttools (pip install fonttools).
set -euo pipefail
cd "$(dirname "$0")/.."
source_font=${1:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
# Printable ASCII, then: · × γ – − … ≤ ≥ ⌈ ⌉ ▲ ●
unicodes="U+0020-007E,U+00B7,U+00D7,U+03B3,U+2013,U+2212,U+2026,U+2264,U+2265,U+2308,U+2309,U+25B2,U+25CF"
pyftsubset "$source_font" \
  --unicodes="$unicodes" \
  --no-hinting \
  --layout-features='kern' \
  --name-IDs='*' \
  --output-file=assets/fonts/DejaVuSans-subset.ttf
ls -l assets/fonts/DejaVuSans-subset.ttf
