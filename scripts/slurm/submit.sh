#!/usr/bin/env bash
# Submit a queendom plan to Slurm: the parts, then the merge job once they have all ended.
#
#   scripts/slurm/submit.sh RUN/ [--missing | --workers W] [--max-running C] [--merged FILE]
#                           [-- SBATCH ARGS... [-- MERGE ARGS...]]
#
# By default: one array task per part (queendom-work.sbatch over the ranks 0..N-1, N from
# `queendom status RUN/ --json`), at most C at a time with --max-running.
# --missing: only the parts that have no result and no worker (the ranks `queendom status RUN/`
#   lists), in as few arrays as the cluster's MaxArraySize allows: the one command of a recovery.
# --workers W: W tasks (queendom-worker.sbatch), each running `queendom work RUN/ --next
#   --until-done` until no part is left: for plans of many short parts.
# Then queendom-merge.sbatch with --dependency=afterany on the work jobs: it waits for parts still
# held by other workers (an earlier submission), merges, and records what happened in RUN/merge.log
# (merged, failed with why, or cancelled), which `queendom status RUN/` shows.
# Prints `work ID...` and `merge ID` on stdout. Logs go to RUN/slurm-logs/ (one file per task,
# stdout and stderr together), the merged answer to RUN/merged.txt (or FILE).
# SBATCH ARGS (partition, account, --time, --cpus-per-task, ...) go to every job; MERGE ARGS go to
# `queendom merge` (a table: `-o gamma.xlsx`, relative to the directory submit.sh runs in).
# QUEENDOM: the queendom binary (default: `queendom` on PATH); the jobs get its absolute path.
set -euo pipefail

usage() {
    echo "usage: $0 RUN/ [--missing | --workers W] [--max-running C] [--merged FILE] [-- SBATCH ARGS... [-- MERGE ARGS...]]" >&2
    exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run='' max_running='' merged='' missing='' workers=''
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
    --workers)
        (($# >= 2)) || usage
        workers=$2
        shift 2
        ;;
    --workers=*)
        workers=${1#*=}
        shift
        ;;
    --missing)
        missing=1
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
sbatch_args=() merge_args=()
while (($# > 0)); do
    if [[ $1 == -- ]]; then
        shift
        merge_args=("$@")
        break
    fi
    sbatch_args+=("$1")
    shift
done
for pair in "--max-running:$max_running" "--workers:$workers"; do
    value=${pair#*:}
    if [[ -n $value && ! $value =~ ^[1-9][0-9]*$ ]]; then
        echo "submit: ${pair%%:*} takes a positive number, not '$value'" >&2
        exit 2
    fi
done
if [[ -n $missing && -n $workers ]]; then
    echo "submit: --missing and --workers do not go together (workers take whatever is missing)" >&2
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

# Array indices must be below MaxArraySize (1001 unless the site changed it).
max_array=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" {print $3}')
[[ $max_array =~ ^[0-9]+$ ]] && ((max_array > 0)) || max_array=1001

# The ranks to submit, cut into arrays: lines of `OFFSET INDICES`, INDICES in Slurm's array syntax
# counted from OFFSET and each below MaxArraySize; as few lines as that allows (each array starts
# at the first rank not yet taken and takes every rank within MaxArraySize of it).
arrays=$("$queendom" status "$run" --json |
    python3 -c '
import json, sys
missing, max_array = sys.argv[1] == "1", int(sys.argv[2])
try:
    status = json.load(sys.stdin)
    parts = int(status["parts"])
    text = status["missing_ranks"] if missing else (f"0-{parts - 1}" if parts else "")
except (ValueError, KeyError, TypeError) as e:
    sys.exit(f"submit: no parts or missing ranks in the JSON: {e!r}")
ranks = []
for item in filter(None, text.split(",")):
    a, _, b = item.partition("-")
    ranks.extend(range(int(a), int(b or a) + 1))
def syntax(xs):
    out, i = [], 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(f"{xs[i]}-{xs[j]}" if j > i else str(xs[i]))
        i = j + 1
    return ",".join(out)
i = 0
while i < len(ranks):
    offset, j = ranks[i], i
    while j < len(ranks) and ranks[j] - offset < max_array:
        j += 1
    print(offset, syntax([r - offset for r in ranks[i:j]]))
    i = j
' "${missing:-0}" "$max_array") || {
    echo "submit: cannot read the parts from \`$queendom status $run --json\`" >&2
    exit 1
}

mkdir -p "$run/slurm-logs"
# --export=ALL plus what the jobs need, also where the site sets SBATCH_EXPORT=NONE.
work_ids=()
if [[ -n $workers ]]; then
    count=$((workers < max_array ? workers : max_array))
    id=$(sbatch --parsable --array="0-$((count - 1))" \
        --export="ALL,QUEENDOM=$queendom" \
        --output="$run/slurm-logs/worker-%A_%a.log" \
        "${sbatch_args[@]}" "$here/queendom-worker.sbatch" "$run")
    work_ids+=("${id%%;*}")
    what="$count workers (work --next --until-done)"
else
    [[ -n $arrays ]] || {
        if [[ -n $missing ]]; then
            echo "submit: no part of $run is missing (none without a result and a worker): nothing submitted" >&2
            echo "        \`queendom status $run\` says what is running; \`queendom merge $run\` merges a finished plan" >&2
        else
            echo "submit: $run has no parts" >&2
        fi
        exit 1
    }
    tasks=0
    while read -r offset indices; do
        # With --max-running, arrays run one after the other so that C bounds the whole plan.
        after=()
        if [[ -n $max_running ]] && ((${#work_ids[@]} > 0)); then
            after=(--dependency="afterany:${work_ids[-1]}")
        fi
        id=$(sbatch --parsable --array="$indices${max_running:+%$max_running}" "${after[@]}" \
            --export="ALL,QUEENDOM=$queendom,QUEENDOM_PART_OFFSET=$offset" \
            --output="$run/slurm-logs/work-%A_%a.log" \
            "${sbatch_args[@]}" "$here/queendom-work.sbatch" "$run")
        work_ids+=("${id%%;*}")
        tasks=$((tasks + $(python3 -c '
import sys
print(sum(int(b or a) - int(a) + 1 for a, _, b in (i.partition("-") for i in sys.argv[1].split(","))))
' "$indices")))
    done <<<"$arrays"
    what="$tasks ${missing:+missing }parts"
fi

# afterany: the merge job runs however the work ended, and says in RUN/merge.log what it found.
dependency=afterany$(printf ':%s' "${work_ids[@]}")
id=$(sbatch --parsable --dependency="$dependency" \
    --export="ALL,QUEENDOM=$queendom,QUEENDOM_MERGED=${merged:-$run/merged.txt}" \
    --output="$run/slurm-logs/merge-%j.log" \
    "${sbatch_args[@]}" "$here/queendom-merge.sbatch" "$run" "${merge_args[@]}")
merge_id=${id%%;*}
printf '%s merge job %s: submitted, after work job(s) %s\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$merge_id" "${work_ids[*]}" >>"$run/merge.log"

echo "submit: $what of $run in job ${work_ids[*]}; merge job $merge_id writes ${merged:-$run/merged.txt}" >&2
echo "work ${work_ids[*]}"
echo "merge $merge_id"
