#!/usr/bin/env bash
# N-queens counting speed and thread scaling: for each n, run `queendom nqueens n` R times on one
# thread and R times on all threads, and print the medians of CPU seconds (user + sys) and wall
# seconds, and the wall-time speed-up. Timings on a shared machine are noisy: compare medians.
#
# usage: scripts/nqueens_bench.sh [SIZES (default 14 15 16)] ; env RUNS (default 5), THREADS
#        (default: all cores), QUEENDOM (default target/release/queendom, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
threads=${THREADS:-$(nproc)}
bin=${QUEENDOM:-target/release/queendom}
[ -x "$bin" ] || cargo build --release --quiet
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(14 15 16)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Prints "cpu wall" seconds of one run.
run_once() {
    local out
    out=$( { /usr/bin/time -f "%U %S %e" "$bin" nqueens "$1" -j "$2" >/dev/null; } 2>&1 )
    awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' <<<"$out"
}

printf "%3s  %12s %12s  %12s %12s  %8s\n" n "cpu_1t" "wall_1t" "cpu_${threads}t" "wall_${threads}t" speedup
for n in "${sizes[@]}"; do
    c1=(); w1=(); cn=(); wn=()
    for ((i = 0; i < runs; i++)); do
        # Alternate the two modes so that a change in machine load hits both alike.
        read -r c w < <(run_once "$n" 1); c1+=("$c"); w1+=("$w")
        read -r c w < <(run_once "$n" "$threads"); cn+=("$c"); wn+=("$w")
    done
    mc1=$(printf "%s\n" "${c1[@]}" | median); mw1=$(printf "%s\n" "${w1[@]}" | median)
    mcn=$(printf "%s\n" "${cn[@]}" | median); mwn=$(printf "%s\n" "${wn[@]}" | median)
    speedup=$(awk -v a="$mw1" -v b="$mwn" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
    printf "%3s  %12s %12s  %12s %12s  %8s\n" "$n" "$mc1" "$mw1" "$mcn" "$mwn" "${speedup}x"
done
