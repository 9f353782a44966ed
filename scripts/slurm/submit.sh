#!/usr/bin/env bash
# Submit a queendom plan to Slurm: one array task per part, then the merge job once every part is done.
#
#   scripts/slurm/submit.sh RUN/ [--max-running C] [--merged FILE] [-- SBATCH ARGS...]
#
# Reads the number of parts N from `queendom status RUN/ --json`, submits queendom-work.sbatch as
# the array 0..N-1 (at most C tasks at a time with --max-running), then queendom-merge.sbatch with
# --dependency=afterok on the array, so the merge runs only when every part succeeded (and is
# cancelled when one fails: resubmit, done parts finish at once). Prints `work ID...` and
# `merge ID` on stdout. Logs go to RUN/slurm-logs/, the merged answer to RUN/merged.txt (or FILE).
# SBATCH ARGS (partition, account, --time, --cpus-per-task, ...) go to both jobs.
# QUEENDOM: the queendom binary (default: `queendom` on PATH); the jobs get its absolute path.
set -euo pipefail

usage() {
    echo "usage: $0 RUN/ [--max-running C] [--merged FILE] [-- SBATCH ARGS...]" >&2
    exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run='' max_running='' merged=''
while (($# > 0)); do
    case $1 in
    --max-running)
        (($# >= 2)) || usage
        max_running=$2
        shift 2
        ;;
    --max-running=*)
        max_running=${1#*=}
        shift
        ;;
    --merged)
        (($# >= 2)) || usage
        merged=$2
        shift 2
        ;;
    --merged=*)
        merged=${1#*=}
        shift
        ;;
    --)
        shift
        break
        ;;
    -*) usage ;;
    *)
        [[ -z $run ]] || usage
        run=$1
        shift
        ;;
    esac
done
[[ -n $run ]] || usage
sbatch_args=("$@")
if [[ -n $max_running && ! $max_running =~ ^[1-9][0-9]*$ ]]; then
    echo "submit: --max-running takes a positive number, not '$max_running'" >&2
    exit 2
fi
[[ -d $run ]] || {
    echo "submit: $run is not a plan directory (make one with queendom plan ... -o $run)" >&2
    exit 2
}
run=$(cd "$run" && pwd)
queendom=$(command -v "${QUEENDOM:-queendom}") || {
    echo "submit: queendom binary '${QUEENDOM:-queendom}' not found (set QUEENDOM)" >&2
    exit 2
}
[[ $queendom == /* ]] || queendom=$PWD/$queendom
if [[ -n $merged ]]; then
    merged=$(cd "$(dirname "$merged")" && pwd)/$(basename "$merged")
fi

parts=$("$queendom" status "$run" --json |
    python3 -c '
import json, sys
try:
    print(int(json.load(sys.stdin)["parts"]))
except (ValueError, KeyError, TypeError) as e:
    sys.exit(f"submit: no number of parts in the JSON: {e!r}")
') || {
    echo "submit: cannot read the number of parts from \`$queendom status $run --json\`" >&2
    exit 1
}
((parts > 0)) || {
    echo "submit: $run has no parts" >&2
    exit 1
}

# Array indices must be below MaxArraySize (1001 unless the site changed it): a bigger plan goes in
# several arrays, each told where its parts start.
max_array=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" {print $3}')
[[ $max_array =~ ^[0-9]+$ ]] && ((max_array > 0)) || max_array=1001

mkdir -p "$run/slurm-logs"
# --export=ALL plus what the jobs need, also where the site sets SBATCH_EXPORT=NONE.
work_ids=()
for ((offset = 0; offset < parts; offset += max_array)); do
    count=$((parts - offset < max_array ? parts - offset : max_array))
    array=0-$((count - 1))${max_running:+%$max_running}
    # With --max-running, arrays run one after the other so that C bounds the whole plan.
    after=()
    if [[ -n $max_running ]] && ((${#work_ids[@]} > 0)); then
        after=(--dependency="afterany:${work_ids[-1]}")
    fi
    id=$(sbatch --parsable --array="$array" "${after[@]}" \
        --export="ALL,QUEENDOM=$queendom,QUEENDOM_PART_OFFSET=$offset" \
        --output="$run/slurm-logs/work-%A_%a.out" --error="$run/slurm-logs/work-%A_%a.err" \
        "${sbatch_args[@]}" "$here/queendom-work.sbatch" "$run")
    work_ids+=("${id%%;*}")
done

dependency=afterok$(printf ':%s' "${work_ids[@]}")
id=$(sbatch --parsable --dependency="$dependency" \
    --export="ALL,QUEENDOM=$queendom,QUEENDOM_MERGED=${merged:-$run/merged.txt}" \
    --kill-on-invalid-dep=yes \
    --output="$run/slurm-logs/merge-%j.out" --error="$run/slurm-logs/merge-%j.err" \
    "${sbatch_args[@]}" "$here/queendom-merge.sbatch" "$run")
merge_id=${id%%;*}

echo "submit: $parts parts of $run in array job ${work_ids[*]}; merge job $merge_id writes ${merged:-$run/merged.txt}" >&2
echo "work ${work_ids[*]}"
echo "merge $merge_id"
