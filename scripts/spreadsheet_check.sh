#!/usr/bin/env bash
# Do queendom's tables survive a spreadsheet? Writes the 1-14 γ table, converts the csv with
# Gnumeric's ssconvert to xlsx and to ods and each back to csv, and compares every layout and digest
# cell with the original; converts queendom's own workbook to csv the same way; resumes the csv
# that went through the spreadsheet. For contrast, shows what the older `1:1` notation became.
# Prints PASS or FAIL (exit 0 or 1). Installs Gnumeric with apt-get if ssconvert is missing.
#
# usage: scripts/spreadsheet_check.sh [ROWS [COLS]]   (default 1-14 1-14)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1-14}
cols=${2:-$rows}

if ! command -v ssconvert >/dev/null; then
    echo "ssconvert is missing: installing gnumeric"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnumeric >/dev/null
fi
cargo build --release --quiet
queendom=$PWD/target/release/queendom
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$queendom" table --rows "$rows" --cols "$cols" -o gamma.csv
"$queendom" table --rows "$rows" --cols "$cols" -o gamma.xlsx
convert() { ssconvert "$1" "$2" >/dev/null 2>ssconvert.log || { cat ssconvert.log; exit 1; }; }
convert gamma.csv via.xlsx
convert via.xlsx via-xlsx.csv
convert gamma.csv via.ods
convert via.ods via-ods.csv
convert gamma.xlsx queendom-xlsx.csv

# The older notation, for contrast: the same table with layouts written 1:1 instead of r1c1.
python3 - <<'EOF'
import csv, re
with open("gamma.csv", newline="") as f:
    rows = list(csv.reader(f))
for r in rows[1:]:
    r[3] = re.sub(r"r(\d+)c(\d+)", r"\1:\2", r[3])
with open("old.csv", "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
EOF
convert old.csv old.xlsx
convert old.xlsx old-back.csv

compared=0
python3 - <<'EOF' || compared=1
import csv, sys

def table(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))

original = table("gamma.csv")
failed = False
for name in ["via-xlsx.csv", "via-ods.csv", "queendom-xlsx.csv"]:
    back = table(name)
    bad = [
        (o["rows"], o["cols"], column, o[column], b.get(column))
        for o, b in zip(original, back)
        for column in ["rows", "cols", "queens", "layout", "problem", "digest"]
        if o[column] != b.get(column)
    ]
    if len(back) != len(original):
        bad.append(("-", "-", "row count", len(original), len(back)))
    print(f"{name}: {len(original)} layout cells, {len(original)} digest cells compared, "
          f"{len(bad)} differ")
    for b in bad[:5]:
        print("   ", b)
    failed |= bool(bad)

old = table("old.csv")
old_back = table("old-back.csv")
changed = [(o["layout"], b["layout"]) for o, b in zip(old, old_back) if o["layout"] != b["layout"]]
print(f"for contrast, the older 1:1 notation: {len(changed)} of {len(old)} layout cells changed, "
      f"e.g. {changed[:3]}")
sys.exit(1 if failed else 0)
EOF

# The csv that went through a spreadsheet is resumed as it is: every row kept and checked.
resume=$("$queendom" table --rows "$rows" --cols "$cols" -o via-ods.csv 2>&1) || {
    echo "resume of the spreadsheet's csv failed: $resume"
    echo FAIL
    exit 1
}
echo "resume of via-ods.csv: $resume"
if [ "$compared" -eq 0 ]; then echo PASS; else echo FAIL; exit 1; fi
