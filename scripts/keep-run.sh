#!/bin/sh
# Keep an unfinished plan directory in the repository, so that a later session (or machine)
# resumes it: copies RUN's plan.json, results/ and attempts/ to results/in-progress/NAME/
# (or $KEEP_RUN_DIR/NAME). No worker may be running on RUN (`queendom status` must show no part
# running; the binary is $QUEENDOM, else queendom on the PATH, else target/release/queendom): a
# part being searched has no result yet and is simply searched again after the resume.
#
#   scripts/keep-run.sh RUN NAME      keep (or refresh) RUN as results/in-progress/NAME
#   scripts/keep-run.sh --resume NAME DIR
#                                      copy it back out to DIR (new), ready for
#                                      `queendom work DIR --next --until-done`
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
keep_dir=${KEEP_RUN_DIR:-$root/results/in-progress}
usage() { echo "usage: $0 RUN NAME | $0 --resume NAME DIR" >&2; exit 2; }
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
if [ "$1" = "--resume" ]; then
    [ $# -eq 3 ] || usage
    kept="$keep_dir/$2"
    [ -f "$kept/plan.json" ] || { echo "$0: no kept run $kept" >&2; exit 2; }
    [ ! -e "$3" ] || { echo "$0: $3 exists; give a new directory" >&2; exit 2; }
    mkdir -p "$3"
    cp -R "$kept/." "$3/"
    echo "resumable: queendom work $3 --next --until-done"
    exit 0
fi
[ $# -eq 2 ] || usage
run=$1
name=$2
case "$name" in */*|.*|"") echo "$0: NAME must be a plain name" >&2; exit 2 ;; esac
[ -f "$run/plan.json" ] || { echo "$0: $run is not a plan directory (no plan.json)" >&2; exit 2; }
# claims/ keeps its lock files after the workers end (a claim is a kernel lock on its file, not the
# file), so whether a worker still runs is for `queendom status` to say.
queendom=${QUEENDOM:-}
if [ -z "$queendom" ]; then
    if command -v queendom >/dev/null 2>&1; then queendom=queendom
    elif [ -x "$root/target/release/queendom" ]; then queendom="$root/target/release/queendom"
    else echo "$0: no queendom binary (set QUEENDOM, or cargo build --release)" >&2; exit 2
    fi
fi
running=$("$queendom" status "$run" | sed -n 's/^parts: .* running \([0-9]*\),.*/\1/p')
[ -n "$running" ] || { echo "$0: queendom status $run did not say how many parts run" >&2; exit 2; }
if [ "$running" != 0 ]; then
    echo "$0: $running parts of $run are being searched by workers; stop them first" >&2
    exit 2
fi
dest="$keep_dir/$name"
tmp="$dest.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$run/plan.json" "$tmp/"
for d in results attempts; do
    if [ -d "$run/$d" ]; then cp -R "$run/$d" "$tmp/"; fi
done
rm -rf "$dest"
mv "$tmp" "$dest"
echo "kept $run as $dest ($(ls "$dest/results" 2>/dev/null | wc -l) parts done)"
