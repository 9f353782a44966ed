#!/bin/sh
# Keep an unfinished plan directory in the repository, so that a later session (or machine)
# resumes it: copies RUN's plan.json, results/ and attempts/ to results/in-progress/NAME/.
# No worker may be running on RUN (its claims/ must be empty): a part being searched has no
# result yet and is simply searched again after the resume.
#
#   scripts/keep-run.sh RUN NAME      keep (or refresh) RUN as results/in-progress/NAME
#   scripts/keep-run.sh --resume NAME DIR
#                                      copy it back out to DIR (new), ready for
#                                      `queendom work DIR --next --until-done`
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 RUN NAME | $0 --resume NAME DIR" >&2; exit 2; }
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
if [ "$1" = "--resume" ]; then
    [ $# -eq 3 ] || usage
    kept="$root/results/in-progress/$2"
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
if [ -d "$run/claims" ] && [ -n "$(ls -A "$run/claims")" ]; then
    echo "$0: workers are running on $run (claims/ is not empty); stop them first" >&2
    exit 2
fi
dest="$root/results/in-progress/$name"
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
