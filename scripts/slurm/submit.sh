#!/usr/bin/env bash
# Submit a queendom plan to Slurm: the parts, then the merge job once they have all ended.
#
#   scripts/slurm/submit.sh RUN/ [--missing [--no-split | --split-share F] | --workers W] [--max-running C] [--merged FILE]
#                           [-- SBATCH ARGS... [-- MERGE ARGS...]]
#
# By default: one array task per part (queendom-work.sbatch over the ranks 0..N-1, N from
# `queendom status RUN/ --json`), at most C at a time with --max-running.
# --missing: only the parts that have no result and no worker (the ranks `queendom status RUN/`
#   lists), in as few arrays as the cluster's MaxArraySize allows: the one command of a recovery.
#   A part whose last attempt was interrupted (Slurm's time limit, scancel) is first split into
#   pieces of about half of it (`queendom plan RUN/ --split interrupted`), so that a part that
#   needed more than --time fits it after one or two recoveries; --split-share F cuts finer (pieces
#   of at most F of the part, as 0.2 for a part that ran five times the limit, `plan --share`);
#   --no-split keeps the parts whole.
# --workers W: W tasks (queendom-worker.sbatch), each running `queendom work RUN/ --next
#   --until-done` until no part is left: for plans of many short parts.
# Then queendom-merge.sbatch with --dependency=afterany on the work jobs: it waits for parts still
# held by other workers (an earlier submission), merges, and records what happened in RUN/merge.log
# (merged, failed with why, or cancelled), which `queendom status RUN/` shows; and
# queendom-merge-watch.sbatch after it, which records a merge job that ended without a word
# (cancelled while pending, killed).
# Prints `work ID...`, `merge ID` and `watch ID` on stdout. Logs go to RUN/slurm-logs/ (one file per task,
# stdout and stderr together), the merged answer to RUN/merged.txt (or FILE).
# SBATCH ARGS (partition, account, --time, --cpus-per-task, ...) go to every job; MERGE ARGS go to
# `queendom merge` (a table: `-o gamma.xlsx`, relative to the directory submit.sh runs in).
# QUEENDOM: the queendom binary (default: `queendom` on PATH); the jobs get its absolute path.
set -euo pipefail

usage() {
    echo "usage: $0 RUN/ [--missing [--no-split | --split-share F] | --workers W] [--max-running C] [--merged FILE] [-- SBATCH ARGS... [-- MERGE ARGS...]]" >&2
    exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run='' max_running='' merged='' missing='' workers='' no_split='' split_share='' share_given=''
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
    --no-split)
        no_split=1
        shift
        ;;
    --split-share)
        (($# >= 2)) || usage
        split_share=$2 share_given=1
        shift 2
        ;;
    --split-share=*)
        split_share=${1#*=} share_given=1
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
# The share reaches `plan --share` only when a part was interrupted: checked here, so that a bad
# value is refused before anything is submitted, whether or not a split happens.
if [[ -n $share_given ]] && ! {
    [[ $split_share =~ ^\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] &&
        awk -v f="$split_share" 'BEGIN { exit !(f + 0 > 0 && f + 0 <= 1) }'
}; then
    echo "submit: --split-share takes a number above 0 and at most 1 (as 0.25), not '$split_share'" >&2
    exit 2
fi
if [[ -n $share_given && ( -n $no_split || -z $missing ) ]]; then
    echo "submit: --split-share goes with --missing, without --no-split" >&2
    exit 2
fi
if [[ -n $no_split && -z $missing ]]; then
    echo "submit: --no-split goes with --missing (only a recovery splits parts)" >&2
    exit 2
fi
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

# A part stopped at its time limit would stop there again: split the interrupted parts first. A
# split needs every worker stopped; with workers still running the parts stay whole (said below).
if [[ -n $missing && -z $no_split ]]; then
    interrupted=$("$queendom" status "$run" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
n = sum(1 for f in s.get("failed", []) if f.get("event") == "interrupted")
print(n, s.get("running", 0))
') || {
        echo "submit: cannot read \`$queendom status $run --json\`" >&2
        exit 1
    }
    read -r n_interrupted n_running <<<"$interrupted"
    if ((n_interrupted > 0 && n_running > 0)); then
        echo "submit: $n_interrupted interrupted part(s) not split: $n_running worker(s) still running (split later with \`queendom plan $run --split interrupted\`)" >&2
    elif ((n_interrupted > 0)); then
        echo "submit: splitting $n_interrupted interrupted part(s) (--no-split keeps them whole):" >&2
        "$queendom" plan "$run" --split interrupted ${split_share:+--share "$split_share"} >&2
    fi
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
    what="$tasks ${missing:+missing }part$( ((tasks == 1)) || echo s)"
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
# The watch job records the merge job's end when the merge job cannot (cancelled while pending,
# killed without warning). Not held even when the rest is: nobody would know to release it.
watch_args=()
for arg in "${sbatch_args[@]}"; do
    [[ $arg == --hold || $arg == -H ]] || watch_args+=("$arg")
done
id=$(sbatch --parsable --dependency="afterany:$merge_id" --export=ALL \
    --output="$run/slurm-logs/merge-watch-%j.log" \
    "${watch_args[@]}" "$here/queendom-merge-watch.sbatch" "$run" "$merge_id")
watch_id=${id%%;*}

echo "submit: $what of $run in job ${work_ids[*]}; merge job $merge_id writes ${merged:-$run/merged.txt}" >&2
echo "work ${work_ids[*]}"
echo "merge $merge_id"
echo "watch $watch_id"
